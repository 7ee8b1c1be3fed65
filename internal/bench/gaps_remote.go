package bench

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"sync"

	"tessera/internal/catalog"
)

// gapItem is one image of a gap bench: in-process the bench; as a job the
// image's absolute path and the settings the worker builds the solver
// from (the model loaded on the worker).
type gapItem struct {
	I        int                 `json:"i"`
	File     string              `json:"file"`
	Crops    int                 `json:"crops"`
	Algo     string              `json:"algo"`
	Settings catalog.GapSettings `json:"settings"`
	Seed     uint64              `json:"seed"`
	OutDir   string              `json:"out_dir,omitempty"`
	Report   []string            `json:"report,omitempty"`

	g *Gaps
}

type gapWire struct {
	Recs []gapRecord `json:"recs"`
	Err  string      `json:"err,omitempty"`
}

type gapSetup struct {
	g   Gaps
	err error
}

var gapSetups sync.Map

// GapsJob is the gap bench's item kind ("bench.gaps").
var GapsJob = func() *Item[gapItem, gapImage] {
	it := NewItem("bench.gaps", func(ctx context.Context, in gapItem) gapImage {
		if in.g != nil {
			return in.g.image(ctx, in.I)
		}
		key, _ := json.Marshal(struct {
			S    catalog.GapSettings
			Seed uint64
		}{in.Settings, in.Seed})
		v, ok := gapSetups.Load(string(key))
		if !ok {
			var s gapSetup
			geo, o, err := in.Settings.Options(in.Seed)
			if err == nil {
				o.Model, err = catalog.LoadGapModel(in.Settings.Model, geo)
			}
			s.g, s.err = Gaps{Geometry: geo, Options: o}, err
			v, _ = gapSetups.LoadOrStore(string(key), &s)
		}
		s := v.(*gapSetup)
		if s.err != nil {
			return gapImage{err: s.err}
		}
		// Image i of a one-file bench: the file at index I.
		g := s.g
		g.Files = make([]string, in.I+1)
		g.Files[in.I] = in.File
		g.Crops, g.Algo, g.OutDir, g.Report = in.Crops, in.Algo, in.OutDir, in.Report
		return g.image(ctx, in.I)
	})
	it.Encode = func(im gapImage) any {
		w := gapWire{Recs: im.recs}
		if im.err != nil {
			w.Err = im.err.Error()
		}
		return w
	}
	it.Decode = func(b []byte) (gapImage, error) {
		var w gapWire
		if err := json.Unmarshal(b, &w); err != nil {
			return gapImage{}, err
		}
		im := gapImage{recs: w.Recs}
		if w.Err != "" {
			im.err = errors.New(w.Err)
		}
		return im, nil
	}
	return it
}()

func (g *Gaps) item(i int) gapItem {
	if g.Remote == nil {
		return gapItem{I: i, g: g}
	}
	file, out := g.Files[i], g.OutDir
	if a, err := filepath.Abs(file); err == nil {
		file = a
	}
	if a, err := filepath.Abs(out); err == nil && out != "" {
		out = a
	}
	return gapItem{I: i, File: file, Crops: g.Crops, Algo: g.Algo, Settings: g.Settings, Seed: g.Options.Seed, OutDir: out, Report: g.Report}
}

package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync"

	"tessera/internal/catalog"
	"tessera/internal/jobs"
)

// gapItem is one image of a gap bench: in-process the bench; as a job the
// image by content address and the settings the worker builds the solver
// from (the shipped model: a job names no file). With Save the worker
// returns each crop's picture as a blob, which the client writes.
type gapItem struct {
	I        int                 `json:"i"`
	Picture  jigsawBlob          `json:"picture"`
	Crops    int                 `json:"crops"`
	Algo     string              `json:"algo"`
	Settings catalog.GapSettings `json:"settings"`
	Seed     uint64              `json:"seed"`
	Save     bool                `json:"save,omitempty"`
	Report   []string            `json:"report,omitempty"`

	g *Gaps
}

type gapWire struct {
	Recs    []gapRecord `json:"recs"`
	Outputs []string    `json:"outputs,omitempty"`
	Err     string      `json:"err,omitempty"`
}

type gapSetup struct {
	g   Gaps
	err error
}

var gapSetups sync.Map

// GapsJob is the gap bench's item kind ("bench.gaps").
var GapsJob = func() *Item[gapItem, gapImage] {
	it := NewItem("bench.gaps", func(ctx context.Context, in gapItem) gapImage {
		if g := in.g; g != nil {
			return g.image(ctx, in.I, jigsawFiles(g.Files[in.I : in.I+1])[0], g.saveFile(in.I))
		}
		if in.Settings.Model != "" {
			return gapImage{err: errors.New("bench: a job names no file: the model must be the shipped one")}
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
				o.Model, err = catalog.LoadGapModel("", geo)
			}
			s.g, s.err = Gaps{Geometry: geo, Options: o}, err
			v, _ = gapSetups.LoadOrStore(string(key), &s)
		}
		s := v.(*gapSetup)
		if s.err != nil {
			return gapImage{err: s.err}
		}
		g := s.g
		g.Crops, g.Algo, g.Report = in.Crops, in.Algo, in.Report
		pics, err := blobPictures(ctx, []jigsawBlob{in.Picture})
		if err != nil {
			return gapImage{err: err}
		}
		var outputs []string
		var save func(c int, png func(io.Writer) error) error
		if in.Save {
			store, _ := jobs.BlobsFrom(ctx)
			save = func(c int, png func(io.Writer) error) error {
				var buf bytes.Buffer
				if err := png(&buf); err != nil {
					return err
				}
				addr, err := store.PutBlob(ctx, buf.Bytes())
				for len(outputs) <= c {
					outputs = append(outputs, "")
				}
				outputs[c] = addr
				return err
			}
		}
		im := g.image(ctx, in.I, pics[0], save)
		im.outputs = outputs
		return im
	})
	it.Encode = func(im gapImage) any {
		w := gapWire{Recs: im.recs, Outputs: im.outputs}
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
		im := gapImage{recs: w.Recs, outputs: w.Outputs}
		if w.Err != "" {
			im.err = errors.New(w.Err)
		}
		return im, nil
	}
	return it
}()

// outName is the file of image i's crop c.
func (g *Gaps) outName(i, c int) string {
	return filepath.Join(g.OutDir, fmt.Sprintf("puzzle-%d.png", i*g.Crops+c))
}

// saveFile writes image i's solved crops to g.OutDir (nil without one).
func (g *Gaps) saveFile(i int) func(c int, png func(io.Writer) error) error {
	if g.OutDir == "" {
		return nil
	}
	return func(c int, png func(io.Writer) error) error { return WriteFileAtomic(g.outName(i, c), png) }
}

// fetchOutputs writes the pictures a worker returned for image i.
func (g *Gaps) fetchOutputs(ctx context.Context, store BlobRemote, i int, outputs []string) error {
	for c, addr := range outputs {
		if addr == "" {
			continue
		}
		data, err := store.GetBlob(ctx, addr)
		if err != nil {
			return err
		}
		if err := WriteFileAtomic(g.outName(i, c), func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
			return err
		}
	}
	return nil
}

func (g *Gaps) item(i int, addrs map[string]string) gapItem {
	if g.Remote == nil {
		return gapItem{I: i, g: g}
	}
	file := g.Files[i]
	return gapItem{I: i, Picture: jigsawBlob{Name: filepath.Base(file), Blob: addrs[file]}, Crops: g.Crops, Algo: g.Algo,
		Settings: g.Settings, Seed: g.Options.Seed, Save: g.OutDir != "", Report: g.Report}
}

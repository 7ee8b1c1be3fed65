package bench

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"sync"
	"time"

	"tessera/internal/catalog"
	"tessera/jigsaw"
)

// jigsawItem is one puzzle of a jigsaw bench (an image, or a bag of
// images): in-process the bench itself; as a job its settings, the
// solver's id and options, and the image paths (absolute: the workers
// read the same files).
type jigsawItem struct {
	B       int                   `json:"b"`
	Files   []string              `json:"files"`
	Piece   int                   `json:"piece"`
	Type    int                   `json:"type"`
	Known   bool                  `json:"known"`
	Bag     int                   `json:"bag"`
	Crop    bool                  `json:"crop"`
	Algo    string                `json:"algo"`
	Options catalog.JigsawOptions `json:"options"`
	Seed    uint64                `json:"seed"`
	OutDir  string                `json:"out_dir,omitempty"`
	Timeout time.Duration         `json:"timeout_ns"`

	j *Jigsaw
}

// jigsawWire is a puzzle's outcome as a job's result.
type jigsawWire struct {
	Recs  []JigsawRecord `json:"recs"`
	Secs  float64        `json:"secs"`
	CPU   float64        `json:"cpu"`
	Right bool           `json:"right"`
	Err   string         `json:"err,omitempty"`
}

var jigsawSolvers sync.Map

// JigsawJob is the jigsaw bench's item kind ("bench.jigsaw").
var JigsawJob = func() *Item[jigsawItem, jigsawPuzzle] {
	it := NewItem("bench.jigsaw", func(ctx context.Context, in jigsawItem) jigsawPuzzle {
		j := in.j
		if j == nil {
			j = &Jigsaw{Piece: in.Piece, Type: in.Type, Known: in.Known, Bag: in.Bag, Crop: in.Crop, Algo: in.Algo,
				Metric: in.Options.Metric, Seed: in.Seed, OutDir: in.OutDir, Timeout: in.Timeout}
			key, _ := json.Marshal(struct {
				A string
				O catalog.JigsawOptions
			}{in.Algo, in.Options})
			if s, ok := jigsawSolvers.Load(string(key)); ok {
				j.Solver = s.(jigsaw.Solver)
			} else {
				s, err := catalog.Jigsaw.New(in.Algo, in.Options)
				if err != nil {
					return jigsawPuzzle{err: err}
				}
				jigsawSolvers.Store(string(key), s)
				j.Solver = s
			}
		}
		return j.puzzle(ctx, in.B, in.Files)
	})
	it.Encode = func(p jigsawPuzzle) any {
		w := jigsawWire{Recs: p.recs, Secs: p.secs, CPU: p.cpu, Right: p.right}
		if p.err != nil {
			w.Err = p.err.Error()
		}
		return w
	}
	it.Decode = func(b []byte) (jigsawPuzzle, error) {
		var w jigsawWire
		if err := json.Unmarshal(b, &w); err != nil {
			return jigsawPuzzle{}, err
		}
		p := jigsawPuzzle{recs: w.Recs, secs: w.Secs, cpu: w.CPU, right: w.Right}
		if w.Err != "" {
			p.err = errors.New(w.Err)
		}
		return p, nil
	}
	return it
}()

func (j *Jigsaw) item(b int, files []string) jigsawItem {
	if j.Remote == nil {
		return jigsawItem{B: b, Files: files, j: j}
	}
	abs := make([]string, len(files))
	for i, f := range files {
		abs[i] = f
		if a, err := filepath.Abs(f); err == nil {
			abs[i] = a
		}
	}
	out := j.OutDir
	if a, err := filepath.Abs(out); err == nil && out != "" {
		out = a
	}
	return jigsawItem{B: b, Files: abs, Piece: j.Piece, Type: j.Type, Known: j.Known, Bag: j.Bag, Crop: j.Crop, Algo: j.Algo,
		Options: j.Options, Seed: j.Seed, OutDir: out, Timeout: j.Timeout}
}

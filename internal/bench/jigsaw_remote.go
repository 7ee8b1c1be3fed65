package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"tessera/internal/catalog"
	"tessera/internal/jobs"
	"tessera/jigsaw"
)

// BlobRemote is a Remote that also keeps blobs (a *jobs.Client): the
// benches whose items are pictures send them by content address, and
// their workers return the pictures they make the same way. A job never
// names a file on the worker.
type BlobRemote interface {
	Remote
	jobs.Blobs
}

// blobRemote returns r's blob store, or an error naming what it lacks.
func blobRemote(r Remote) (BlobRemote, error) {
	b, ok := r.(BlobRemote)
	if !ok {
		return nil, errors.New("bench: this job system keeps no blobs, so it cannot send pictures")
	}
	return b, nil
}

// putFiles reads files here and puts them in the blob store, returning
// their addresses by file.
func putFiles(ctx context.Context, b BlobRemote, files []string) (map[string]string, error) {
	addrs := make(map[string]string, len(files))
	for _, f := range files {
		if _, ok := addrs[f]; ok {
			continue
		}
		data, err := readImageFile(ctx, f)
		if err != nil {
			return nil, err
		}
		if addrs[f], err = b.PutBlob(ctx, data); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
	}
	return addrs, nil
}

// blobPictures are the pictures of a job, read from the worker's blob
// store.
func blobPictures(ctx context.Context, pics []jigsawBlob) ([]jigsawPicture, error) {
	store, ok := jobs.BlobsFrom(ctx)
	if !ok {
		return nil, errors.New("bench: no blob store in the job's context")
	}
	out := make([]jigsawPicture, len(pics))
	for i, p := range pics {
		if p.Name != filepath.Base(p.Name) || strings.ContainsAny(p.Name, `/\`) {
			return nil, fmt.Errorf("bench: picture name %q is not a plain name", p.Name)
		}
		out[i] = jigsawPicture{Name: p.Name, Read: func(ctx context.Context) ([]byte, error) { return store.GetBlob(ctx, p.Blob) }}
	}
	return out, nil
}

// jigsawBlob is a picture of a job: its name and its content address.
type jigsawBlob struct {
	Name string `json:"name"`
	Blob string `json:"blob"`
}

// jigsawItem is one puzzle of a jigsaw bench (an image, or a bag of
// images): in-process the bench itself and the files; as a job its
// settings, the solver's id and options, and the pictures by content
// address. With Save the worker returns the reconstructions as blobs,
// which the client writes to its -out folder.
type jigsawItem struct {
	B        int                   `json:"b"`
	Pictures []jigsawBlob          `json:"pictures"`
	Piece    int                   `json:"piece"`
	Type     int                   `json:"type"`
	Known    bool                  `json:"known"`
	Bag      int                   `json:"bag"`
	Crop     bool                  `json:"crop"`
	Algo     string                `json:"algo"`
	Options  catalog.JigsawOptions `json:"options"`
	Seed     uint64                `json:"seed"`
	Save     bool                  `json:"save,omitempty"`
	Timeout  time.Duration         `json:"timeout_ns"`

	j     *Jigsaw
	files []string
}

// jigsawWire is a puzzle's outcome as a job's result.
type jigsawWire struct {
	Recs    []JigsawRecord `json:"recs"`
	Secs    float64        `json:"secs"`
	CPU     float64        `json:"cpu"`
	Right   bool           `json:"right"`
	Outputs []string       `json:"outputs,omitempty"`
	Err     string         `json:"err,omitempty"`
}

var jigsawSolvers sync.Map

// JigsawJob is the jigsaw bench's item kind ("bench.jigsaw").
var JigsawJob = func() *Item[jigsawItem, jigsawPuzzle] {
	it := NewItem("bench.jigsaw", func(ctx context.Context, in jigsawItem) jigsawPuzzle {
		if in.j != nil {
			return in.j.puzzle(ctx, in.B, jigsawFiles(in.files), in.j.saveFile(in.B, in.files))
		}
		j := &Jigsaw{Piece: in.Piece, Type: in.Type, Known: in.Known, Bag: in.Bag, Crop: in.Crop, Algo: in.Algo,
			Metric: in.Options.Metric, Seed: in.Seed, Timeout: in.Timeout}
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
		pics, err := blobPictures(ctx, in.Pictures)
		if err != nil {
			return jigsawPuzzle{err: err}
		}
		var outputs []string
		var save func(i int, png func(io.Writer) error) error
		if in.Save {
			store, _ := jobs.BlobsFrom(ctx)
			save = func(i int, png func(io.Writer) error) error {
				var buf bytes.Buffer
				if err := png(&buf); err != nil {
					return err
				}
				addr, err := store.PutBlob(ctx, buf.Bytes())
				for len(outputs) <= i {
					outputs = append(outputs, "")
				}
				outputs[i] = addr
				return err
			}
		}
		p := j.puzzle(ctx, in.B, pics, save)
		p.outputs = outputs
		return p
	})
	it.Encode = func(p jigsawPuzzle) any {
		w := jigsawWire{Recs: p.recs, Secs: p.secs, CPU: p.cpu, Right: p.right, Outputs: p.outputs}
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
		p := jigsawPuzzle{recs: w.Recs, secs: w.Secs, cpu: w.CPU, right: w.Right, outputs: w.Outputs}
		if w.Err != "" {
			p.err = errors.New(w.Err)
		}
		return p, nil
	}
	return it
}()

// outName is the file name of reconstruction i of puzzle b, whose first
// picture is named first.
func (j *Jigsaw) outName(b int, first string, i int) string {
	if j.Bag > 0 {
		return fmt.Sprintf("bag-%d-%d.png", b+1, i+1)
	}
	return strings.TrimSuffix(first, filepath.Ext(first)) + ".png"
}

// saveFile writes puzzle b's reconstructions to j.OutDir (nil without one).
func (j *Jigsaw) saveFile(b int, files []string) func(i int, png func(io.Writer) error) error {
	if j.OutDir == "" {
		return nil
	}
	return func(i int, png func(io.Writer) error) error {
		return WriteFileAtomic(filepath.Join(j.OutDir, j.outName(b, filepath.Base(files[0]), i)), png)
	}
}

// fetchOutputs writes the reconstructions a worker returned for puzzle b
// (blob addresses by placement image) to j.OutDir, named here.
func (j *Jigsaw) fetchOutputs(ctx context.Context, store BlobRemote, b int, files []string, outputs []string) error {
	for i, addr := range outputs {
		if addr == "" {
			continue
		}
		data, err := store.GetBlob(ctx, addr)
		if err != nil {
			return err
		}
		name := filepath.Join(j.OutDir, j.outName(b, filepath.Base(files[0]), i))
		if err := WriteFileAtomic(name, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
			return err
		}
	}
	return nil
}

func (j *Jigsaw) item(b int, files []string, addrs map[string]string) jigsawItem {
	if j.Remote == nil {
		return jigsawItem{B: b, j: j, files: files}
	}
	pics := make([]jigsawBlob, len(files))
	for i, f := range files {
		pics[i] = jigsawBlob{Name: filepath.Base(f), Blob: addrs[f]}
	}
	return jigsawItem{B: b, Pictures: pics, Piece: j.Piece, Type: j.Type, Known: j.Known, Bag: j.Bag, Crop: j.Crop, Algo: j.Algo,
		Options: j.Options, Seed: j.Seed, Save: j.OutDir != "", Timeout: j.Timeout}
}

package catalog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"tessera/imageio"
	"tessera/internal/jobs"
	"tessera/jigsaw"
)

// Picture is a picture of a job: its name (a plain file name, for the
// record and the outputs' names) and its content address in the blob
// store (jobs.Blobs). A job never names a file on its worker.
type Picture struct {
	Name string `json:"name"`
	Blob string `json:"blob"`
}

// check refuses a name that is not a plain file name.
func (p Picture) check() error {
	if p.Name == "" || p.Name != filepath.Base(p.Name) || strings.ContainsAny(p.Name, `/\`) {
		return fmt.Errorf("picture name %q is not a plain name", p.Name)
	}
	return nil
}

// JigsawJob is one square-piece jigsaw solve as it travels: the spec and
// the pictures by content address, cut into Piece-pixel pieces (their
// centre with Crop, when their sides are not multiples of Piece),
// scrambled from the options' Seed (turned too for Type 2) and solved;
// several pictures make a mixed bag. It is the input of the job kind
// "jigsaw.solve".
type JigsawJob struct {
	Spec[JigsawOptions]
	Pictures []Picture `json:"pictures"`
	Piece    int       `json:"piece"`
	Type     int       `json:"type"` // 1 or 2
	// Known tells the solver the size of a single picture. Bag numbers a
	// mixed bag (from 1; 0: not a bag), which the solver is told the count
	// of pictures of unless it plays JigsawBagCount.
	Known bool `json:"known,omitempty"`
	Bag   int  `json:"bag,omitempty"`
	// Count tells every solver how many pictures the bag holds.
	Count bool `json:"count,omitempty"`
	Crop  bool `json:"crop,omitempty"`
	// Save asks for the reconstructions, returned as blobs (Outputs).
	Save bool `json:"save,omitempty"`
	// View asks for the view a person follows (the web page's Auto,
	// RunView): progress values, and the result's final view.
	View bool `json:"view,omitempty"`
}

// JigsawAccuracy is a picture's score against its truth.
type JigsawAccuracy struct {
	Direct   float64 `json:"direct"`
	Neighbor float64 `json:"neighbor"`
	Perfect  bool    `json:"perfect"`
}

// JigsawRecord is the one result of a square-piece solve, for one source
// picture: each line of `jigsaw bench -json`, what `jigsaw solve -json`
// prints (no picture, no score: the sheet's truth is not known there) and,
// a record per picture, what a "jigsaw.solve" job returns.
type JigsawRecord struct {
	Image  string `json:"image,omitempty"`
	Pieces int    `json:"pieces"`
	// The score, when the truth is known (a bench).
	*JigsawAccuracy
	Seconds       float64 `json:"seconds"`
	CompatSeconds float64 `json:"compat_seconds"`
	// CPUSeconds is the CPU time of the whole process (every core) while
	// it solved the puzzle: a figure that load on other processes barely
	// changes.
	CPUSeconds  float64 `json:"cpu_seconds,omitempty"`
	BestBuddies float64 `json:"best_buddies"`
	// Frame is the rows and columns the solver estimated for a picture
	// of unknown size. Bag numbers the mixed bag (from 1), Outputs
	// says how many pictures the solver made of it and Rectangles how
	// many of those are full rectangles (no hole, no piece outside).
	Frame      []int `json:"frame,omitempty"`
	Bag        int   `json:"bag,omitempty"`
	Outputs    int   `json:"outputs,omitempty"`
	Rectangles int   `json:"rectangles,omitempty"`
	// The solve: the solver, its metric, the seed of a search with
	// generations, and the answer's figures (the pieces placed, each
	// output's size in pieces, ROWSxCOLS; the fitness of the answer and of
	// the greedy seed, the best of every generation).
	Solver      string    `json:"algo,omitempty"`
	Metric      string    `json:"metric,omitempty"`
	PieceSize   int       `json:"piece_size,omitempty"`
	Rotate      bool      `json:"rotate"`
	Placed      int       `json:"placed,omitempty"`
	Sizes       []string  `json:"sizes,omitempty"`
	Fitness     float64   `json:"fitness,omitempty"`
	SeedFitness float64   `json:"seed_fitness,omitempty"`
	History     []float64 `json:"history,omitempty"`
	Seed        uint64    `json:"seed,omitempty"`
	Error       string    `json:"error,omitempty"`
}

// Solved fills the record's solve fields from res, found by the solver
// id with options o on pz.
func (r *JigsawRecord) Solved(id string, o JigsawOptions, pz *jigsaw.Puzzle, res jigsaw.Result) {
	r.Solver, r.Metric, r.PieceSize, r.Rotate = id, o.Metric.String(), pz.PieceSize, pz.Rotated
	r.Seconds, r.CompatSeconds, r.BestBuddies, r.Fitness = res.Elapsed.Seconds(), res.CompatTime.Seconds(), res.BestBuddies, res.Fitness
	r.Placed = res.Placed
	if res.Frame != [2]int{} {
		r.Frame = res.Frame[:]
	}
	if res.Placement != nil {
		r.Outputs = res.Placement.Images
		for i := range res.Placement.Images {
			b := res.Placement.Bounds(i)
			r.Sizes = append(r.Sizes, fmt.Sprintf("%dx%d", b.Dy(), b.Dx()))
		}
	}
	if res.History != nil || res.Fitness != 0 { // a search with generations
		r.SeedFitness, r.History, r.Seed = res.SeedFitness, res.History, o.Seed
	}
}

// JigsawResult is what a "jigsaw.solve" job returns: a record per picture
// and, with Save, each reconstruction (by placement image) as a blob
// ("": a picture without pieces).
type JigsawResult struct {
	Records []JigsawRecord `json:"records"`
	Outputs []string       `json:"outputs,omitempty"`
	// The job's final view, with View (its fields beside the records).
	*JigsawView
}

// Right reports whether the solver made as many pictures as the job had.
func (r JigsawResult) Right() bool {
	return len(r.Records) > 0 && r.Records[0].Outputs == len(r.Records)
}

// Run reads the job's pictures from blobs, solves them under the job's
// budget (decoding included) with h's hooks, and scores each picture. The
// reconstructions go to blobs with Save. A solver's failure, or the budget
// ending, is the records' Error; an unreadable picture or a job that makes
// no sense is Run's error.
func (j JigsawJob) Run(ctx context.Context, blobs jobs.Blobs, h JigsawHooks) (JigsawResult, error) {
	if len(j.Pictures) == 0 || j.Type != 1 && j.Type != 2 || j.Piece < 2 || j.Bag < 0 {
		return JigsawResult{}, fmt.Errorf("jigsaw job: want pictures, -type 1 or 2, -piece 2 or more")
	}
	if err := j.Options.Check(); err != nil {
		return JigsawResult{}, err
	}
	entry, err := Jigsaw.Lookup(j.Solver)
	if err != nil {
		return JigsawResult{}, err
	}
	s, err := entry.New(JigsawRun{JigsawOptions: j.Options, Hooks: h})
	if err != nil {
		return JigsawResult{}, err
	}
	if j.Budget.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, j.Budget.Timeout)
		defer cancel()
	}
	var grids []*jigsaw.Grid
	for _, pic := range j.Pictures {
		if err := pic.check(); err != nil {
			return JigsawResult{}, err
		}
		data, err := blobs.GetBlob(ctx, pic.Blob)
		var g *jigsaw.Grid
		if err == nil {
			g, err = JigsawGridOf(ctx, pic.Name, data, j.Piece, j.Crop)
		}
		if err != nil && ctx.Err() != nil {
			// The budget ended while decoding: a failed puzzle, not the
			// end of the bench.
			var res JigsawResult
			for _, pic := range j.Pictures {
				res.Records = append(res.Records, JigsawRecord{Image: pic.Name, JigsawAccuracy: &JigsawAccuracy{}, Bag: j.Bag, Error: err.Error()})
			}
			return res, nil
		}
		if err != nil {
			return JigsawResult{}, err
		}
		grids = append(grids, g)
	}
	pz, truth := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Rotate: j.Type == 2, Seed: j.Options.Seed})
	if h.Scrambled != nil {
		h.Scrambled(pz, truth)
	}
	p := &jigsaw.Problem{Puzzle: pz, Images: 1, Progress: h.Progress, Snapshot: h.Snapshot}
	switch {
	case j.Bag > 0 && CountsPictures(j.Solver) && !j.Count:
		p.Images = 0
	case j.Bag > 0:
		p.Images = len(grids)
	case j.Known:
		p.Rows, p.Cols = grids[0].Rows, grids[0].Cols
	}
	cpu0, _ := ProcessCPU()
	res, serr := s.Solve(ctx, p)
	cpu1, _ := ProcessCPU()
	if h.OnResult != nil {
		h.OnResult(res, serr)
	}
	var out JigsawResult
	var acc jigsaw.Accuracy
	if res.Placement != nil {
		if acc, err = jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{Absolute: j.Known && j.Type == 1}); err != nil {
			return JigsawResult{}, err
		}
		if j.Save {
			if out.Outputs, err = putOutputs(ctx, blobs, res.Placement.Images, func(i int, w io.Writer) error {
				if res.Placement.Bounds(i).Empty() {
					return errNoPieces
				}
				return jigsaw.WritePNG(w, pz, res.Placement, i)
			}); err != nil {
				return JigsawResult{}, err
			}
		}
	}
	for i, g := range grids {
		rec := JigsawRecord{Image: g.Name, Pieces: g.Rows * g.Cols, CPUSeconds: (cpu1 - cpu0).Seconds()}
		rec.Solved(j.Solver, j.Options, pz, res)
		rec.PieceSize, rec.Placed, rec.Sizes, rec.History = 0, 0, nil, nil // the puzzle's, not the picture's
		rec.Bag = j.Bag
		if j.Bag == 0 {
			rec.Outputs = 0
		} else if res.Placement != nil {
			rec.Rectangles = rectangles(res.Placement)
		}
		if serr != nil {
			rec.Error = serr.Error()
		}
		if res.Placement != nil {
			s := acc.Images[i]
			rec.JigsawAccuracy = &JigsawAccuracy{Direct: s.Direct, Neighbor: s.Neighbor, Perfect: s.Perfect}
		} else {
			rec.JigsawAccuracy = &JigsawAccuracy{}
		}
		out.Records = append(out.Records, rec)
	}
	return out, nil
}

// errNoPieces skips an output picture without pieces.
var errNoPieces = errors.New("no pieces")

// putOutputs puts n pictures, written as PNG by write, in blobs and
// returns their addresses ("" where write returned errNoPieces).
func putOutputs(ctx context.Context, blobs jobs.Blobs, n int, write func(i int, w io.Writer) error) ([]string, error) {
	addrs := make([]string, n)
	for i := range n {
		var buf bytes.Buffer
		err := write(i, &buf)
		if errors.Is(err, errNoPieces) {
			continue
		}
		if err == nil {
			addrs[i], err = blobs.PutBlob(ctx, buf.Bytes())
		}
		if err != nil {
			return nil, err
		}
	}
	return addrs, nil
}

// JigsawGridOf decodes the image data (named name) and cuts it into
// piece-pixel pieces (its centre, with crop, when its sides are not
// multiples of piece), bounded by jigsaw.DefaultMaxPieces before decoding.
func JigsawGridOf(ctx context.Context, name string, data []byte, piece int, crop bool) (*jigsaw.Grid, error) {
	if _, w, h, err := imageio.Header(data, imageio.Options{}); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	} else if piece >= 2 && (w/piece)*(h/piece) > jigsaw.DefaultMaxPieces {
		return nil, fmt.Errorf("%s: %w: %dx%d cut into %d-pixel pieces makes %d, over the limit of %d", name, jigsaw.ErrTooManyPieces,
			w, h, piece, (w/piece)*(h/piece), jigsaw.DefaultMaxPieces)
	}
	img, err := imageio.DecodeBytesContext(ctx, data, imageio.Options{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	g, err := jigsaw.CutContext(ctx, img.Pix, piece, jigsaw.CutOptions{Crop: crop, Depth: img.Depth})
	if err != nil {
		if errors.Is(err, jigsaw.ErrNotDivisible) {
			err = fmt.Errorf("%w; use -crop to cut the centre", err)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	g.Name = name
	return g, nil
}

// runJigsawJob is the job kind "jigsaw.solve": a JigsawJob in, its
// JigsawResult out, the pictures read from (and the reconstructions put
// in) the worker's blob store; with View, its progress too (RunView).
func runJigsawJob(ctx context.Context, j JigsawJob, progress func(any)) (any, error) {
	blobs, ok := jobs.BlobsFrom(ctx)
	if !ok {
		return nil, errors.New("jigsaw.solve: no blob store in the job's context")
	}
	if j.View {
		return j.RunView(ctx, blobs, progress)
	}
	res, err := j.Run(ctx, blobs, JigsawHooks{})
	if err != nil {
		return nil, fmt.Errorf("jigsaw.solve: %w", err)
	}
	return res, ctx.Err()
}

// rectangles counts the output images of p that are full rectangles.
func rectangles(p *jigsaw.Placement) int {
	count := make([]int, p.Images)
	for _, q := range p.Pieces {
		count[q.Image]++
	}
	n := 0
	for img, c := range count {
		if b := p.Bounds(img); c > 0 && b.Dx()*b.Dy() == c {
			n++
		}
	}
	return n
}

package catalog

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math/rand/v2"
	"slices"
	"sync"

	"tessera/imageio"
	"tessera/internal/jobs"
	"tessera/jigsaw/neural"
)

// GapsJob is a series of gap puzzles (Alphazzle) as it travels: the spec
// and one picture by content address, from which Crops random puzzles of
// the geometry Grid, Patch, Gap are cut, each solved and scored. Picture
// Index of a set draws its puzzles from the stream (Seed, Index), puzzle
// k = Index*Crops + c solved with seed Seed + k: the figures depend on
// neither the machine nor the order. It is the input of the job kind
// "gaps.solve".
type GapsJob struct {
	Spec[GapOptions]
	Picture Picture `json:"picture"`
	Grid    int     `json:"grid"`
	Patch   int     `json:"patch"`
	Gap     int     `json:"gap"`
	Index   int     `json:"index"`
	Crops   int     `json:"crops"`
	// Centre makes one puzzle of the picture's central square instead
	// (neural.Centre, shuffled by the options' seed; a picture of the
	// puzzle's side is cut as it is): what `jigsaw solve -algo mcts` cuts
	// of an image, and the web page's region.
	Centre bool `json:"centre,omitempty"`
	// Report lists, beside the answer ("best", V's choice among the
	// attempts), the attempts also scored: "worst" and "oracle" (the best
	// by the truth), Alphazzle's Table 10.
	Report []string `json:"report,omitempty"`
	// Save asks for each crop's reassembly, returned as a blob.
	Save bool `json:"save,omitempty"`
	// View asks for the view a person follows (the web page's Auto,
	// RunView): progress values, and the result's answer view. PaceMS
	// pauses the search after each placement then, so that a person can
	// follow one that would end in a blink (the budget must allow for
	// the pauses).
	View   bool `json:"view,omitempty"`
	PaceMS int  `json:"pace_ms,omitempty"`
}

// GapReports are the valid entries of GapsJob.Report.
var GapReports = []string{"best", "worst", "oracle"}

// Geometry returns the job's puzzles' geometry.
func (j GapsJob) Geometry() neural.Geometry {
	return neural.Geometry{Grid: j.Grid, Patch: j.Patch, Gap: j.Gap}
}

// GapScore is a reassembly's score against the truth.
type GapScore struct {
	Neighbor float64 `json:"neighbor"`
	Patch    float64 `json:"patch"`
	Perfect  bool    `json:"perfect"`
}

// GapsRecord is the one result of a gap-puzzle solve: each line of
// `jigsaw neural bench -json`, what `jigsaw solve -algo mcts -json` and
// `jigsaw neural solve -json` print and, a record per puzzle, what a
// "gaps.solve" job returns.
type GapsRecord struct {
	// Puzzle numbers the puzzle in its bench, Crop in its picture.
	Crop  int    `json:"crop"`
	Image string `json:"image,omitempty"`
	// The score, when the truth is known.
	*GapScore
	Puzzle  int     `json:"puzzle"`
	Seconds float64 `json:"seconds"`
	// Value is V's estimate that the answer is right (with Judge, the
	// judge's value of it).
	Value float64 `json:"value"`
	// The worst and the oracle-best attempts (with Report).
	Worst  *GapScore `json:"worst,omitempty"`
	Oracle *GapScore `json:"oracle,omitempty"`
	// The solve: solver, geometry, the search's reward, simulations and
	// attempts (defaults written out), the answer (the cell of each
	// patch) and the states evaluated.
	Solver    string `json:"algo,omitempty"`
	Grid      int    `json:"grid,omitempty"`
	PatchSize int    `json:"patch_size,omitempty"`
	Gap       int    `json:"gap,omitempty"`
	Reward    string `json:"reward,omitempty"`
	Sims      int    `json:"sims,omitempty"`
	Attempts  int    `json:"attempts,omitempty"`
	// Judge is what compared the attempts when not V ("pairs", "both").
	Judge       string `json:"judge,omitempty"`
	Cells       []int  `json:"cells,omitempty"`
	Evaluations int64  `json:"evaluations,omitempty"`
	Error       string `json:"error,omitempty"`
}

// Solved fills the record's solve fields from res, found by solver id
// with options n on pz; the score when pz's truth is known.
func (r *GapsRecord) Solved(id string, n neural.Options, pz *neural.Puzzle, res neural.Result) {
	r.Solver, r.Grid, r.PatchSize, r.Gap = id, pz.Grid, pz.Patch, pz.GapPx()
	r.Reward, r.Sims, r.Attempts = n.Reward.String(), max(n.Sims, 0), max(n.Attempts, 0)
	if r.Sims == 0 {
		r.Sims = 100 // neural.Options' defaults
	}
	if r.Attempts == 0 {
		r.Attempts = 1
	}
	if n.Judge != neural.JudgeV {
		r.Judge = n.Judge.String()
	}
	r.Value, r.Cells, r.Evaluations, r.Seconds = res.Value, res.Cells, res.Evaluations, res.Elapsed.Seconds()
	if pz.Truth != nil {
		acc := pz.Score(res.Cells)
		r.GapScore = &GapScore{Neighbor: acc.Neighbor, Patch: acc.Patch, Perfect: acc.Perfect}
	}
}

// GapsResult is what a "gaps.solve" job returns: a record per puzzle and,
// with Save, each reassembly as a blob.
type GapsResult struct {
	Records []GapsRecord `json:"records"`
	Outputs []string     `json:"outputs,omitempty"`
	// The answer's view, with View (its fields beside the records).
	*GapsView
}

// Run reads the job's picture from blobs, cuts, solves and scores its
// puzzles with h's model (nil: the options' Model, or the one shipped
// for the geometry) and puts the reassemblies in blobs with Save. It
// stops at the first error.
func (j GapsJob) Run(ctx context.Context, blobs jobs.Blobs, h GapHooks) (GapsResult, error) {
	g := j.Geometry()
	if err := g.Validate(); err != nil {
		return GapsResult{}, err
	}
	if err := j.Picture.check(); err != nil {
		return GapsResult{}, err
	}
	if j.Centre && j.Crops == 0 {
		j.Crops = 1
	}
	if j.Crops < 1 || j.Index < 0 || j.Centre && j.Crops != 1 {
		return GapsResult{}, errors.New("gaps job: want 1 or more crops (one with centre), an index of 0 or more")
	}
	for _, r := range j.Report {
		if !slices.Contains(GapReports, r) {
			return GapsResult{}, fmt.Errorf("gaps job: report %q: want best, worst or oracle", r)
		}
	}
	entry, err := Gaps.Lookup(j.Solver)
	if err != nil {
		return GapsResult{}, err
	}
	n, err := j.Options.Neural(g.Grid)
	if err != nil {
		return GapsResult{}, err
	}
	if h.Model == nil {
		if h.Model, err = LoadGapModel(j.Options.Model, g); err != nil {
			return GapsResult{}, err
		}
	}
	if j.Budget.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, j.Budget.Timeout)
		defer cancel()
	}
	data, err := blobs.GetBlob(ctx, j.Picture.Blob)
	if err != nil {
		return GapsResult{}, err
	}
	img, err := imageio.DecodeBytesContext(ctx, data, imageio.Options{})
	if err != nil {
		return GapsResult{}, fmt.Errorf("%s: %w", j.Picture.Name, err)
	}
	rng := rand.New(rand.NewPCG(j.Options.Seed, uint64(j.Index)))
	var out GapsResult
	for c := range j.Crops {
		k := j.Index*j.Crops + c
		var pz *neural.Puzzle
		if j.Centre {
			pz = centrePuzzle(img.Pix, img.Depth, g, j.Options.Seed)
		} else {
			pz = neural.Random(img.Pix, g, rng)
		}
		run := GapRun{GapOptions: j.Options, Grid: g.Grid, Hooks: h}
		run.Seed += uint64(k)
		s, err := entry.New(run)
		if err != nil {
			return GapsResult{}, err
		}
		res, err := s.Solve(ctx, pz)
		if h.OnResult != nil {
			h.OnResult(pz, res, err)
		}
		if err != nil {
			return GapsResult{}, err
		}
		rec := GapsRecord{Puzzle: k, Image: j.Picture.Name, Crop: c}
		rec.Solved(j.Solver, n, pz, res)
		rec.Cells, rec.Evaluations = nil, 0 // a bench's line keeps the score
		if len(res.Attempts) > 0 {
			worst, oracle := gapExtremes(pz, res.Attempts)
			if slices.Contains(j.Report, "worst") {
				rec.Worst = &worst
			}
			if slices.Contains(j.Report, "oracle") {
				rec.Oracle = &oracle
			}
		}
		out.Records = append(out.Records, rec)
		if j.Save {
			addrs, err := putOutputs(ctx, blobs, 1, func(_ int, w io.Writer) error { return png.Encode(w, pz.Render(res.Cells, color.White)) })
			if err != nil {
				return GapsResult{}, err
			}
			out.Outputs = append(out.Outputs, addrs[0])
		}
	}
	return out, nil
}

// centrePuzzle is the puzzle of img's central square shuffled by seed
// (neural.Centre); an image of the puzzle's side is cut as it is, not
// resampled.
func centrePuzzle(img image.Image, depth int, g neural.Geometry, seed uint64) *neural.Puzzle {
	b := img.Bounds()
	if b.Dx() != g.Side() || b.Dy() != g.Side() {
		return neural.Centre(img, g, seed)
	}
	pz := neural.Cut(img, b.Min.X, b.Min.Y, g)
	pz.Depth = depth
	pz.Shuffle(rand.New(rand.NewPCG(seed, 0x63656e74))) // as neural.Centre shuffles
	return pz
}

// gapExtremes returns the attempts' lowest and highest scores, ordered by
// patch score then neighbour score.
func gapExtremes(pz *neural.Puzzle, attempts []neural.Attempt) (worst, best GapScore) {
	for i, a := range attempts {
		acc := pz.Score(a.Cells)
		sc := GapScore{Neighbor: acc.Neighbor, Patch: acc.Patch, Perfect: acc.Perfect}
		less := func(a, b GapScore) bool { return a.Patch < b.Patch || a.Patch == b.Patch && a.Neighbor < b.Neighbor }
		if i == 0 || less(sc, worst) {
			worst = sc
		}
		if i == 0 || less(best, sc) {
			best = sc
		}
	}
	return worst, best
}

// gapModels caches a worker's shipped models by geometry.
var gapModels sync.Map

// runGapsJob is the job kind "gaps.solve": a GapsJob in, its GapsResult
// out (with View, its progress too: RunView). A job names no file: an
// options' Model (a model folder) is refused; the worker uses the shipped
// model.
func runGapsJob(ctx context.Context, j GapsJob, progress func(any)) (any, error) {
	if j.Options.Model != "" {
		return nil, errors.New("gaps.solve: a job carries no file: the model must be the shipped one (-model works without -nats)")
	}
	blobs, ok := jobs.BlobsFrom(ctx)
	if !ok {
		return nil, errors.New("gaps.solve: no blob store in the job's context")
	}
	g := j.Geometry()
	var h GapHooks
	if m, ok := gapModels.Load(g); ok {
		h.Model = m.(*neural.Model)
	} else if err := g.Validate(); err == nil {
		if h.Model, err = LoadGapModel("", g); err == nil {
			gapModels.Store(g, h.Model)
		}
	}
	if j.View {
		return j.RunView(ctx, blobs, h, progress)
	}
	res, err := j.Run(ctx, blobs, h)
	if err != nil {
		return nil, fmt.Errorf("gaps.solve: %w", err)
	}
	return res, ctx.Err()
}

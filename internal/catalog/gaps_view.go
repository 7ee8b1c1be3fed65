package catalog

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"tessera/internal/jobs"
	"tessera/jigsaw/neural"
)

// The view of a gaps.solve job that a person follows (GapsJob.View, the
// web page's Auto): MCTS's every placement with the policy over the empty
// cells, the visits and values of the root's children, then the answer
// and its attempts scored against the truth. It is computed where the job
// runs, so that any worker serves the page.

// GapsStep is one MCTS placement (neural.Step): the patch, the reassembly
// before it, and per empty cell the prior, the visits and the mean value
// of its child; Value is V's estimate of the reassembly before the move
// (-1: none), Cell the cell chosen.
type GapsStep struct {
	Attempt int       `json:"attempt"`
	Placed  int       `json:"placed"`
	Patch   int       `json:"patch"`
	Before  []int     `json:"before"`
	Moves   []int     `json:"moves"`
	Priors  []float64 `json:"priors"`
	Visits  []int     `json:"visits"`
	Values  []float64 `json:"values"`
	Value   float64   `json:"value"`
	Cell    int       `json:"cell"`
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// GapsStepOf is st as the view shows it (figures to four places).
func GapsStepOf(st neural.Step) GapsStep {
	out := GapsStep{Attempt: st.Attempt, Placed: st.Placed, Patch: st.Patch, Before: st.Cells, Moves: st.Moves, Visits: st.Visits,
		Value: round4(st.Value), Cell: st.Moves[st.Chosen], Priors: make([]float64, len(st.Priors)), Values: make([]float64, len(st.Values))}
	for i := range st.Priors {
		out.Priors[i], out.Values[i] = round4(st.Priors[i]), round4(st.Values[i])
	}
	return out
}

// GapsTally is a reassembly against the truth, counted: patches in their
// true cell (of Cells), true adjacencies kept (of Pairs), and whether it
// is perfect.
type GapsTally struct {
	Patches    int  `json:"patches"`
	Cells      int  `json:"cells"`
	Neighbours int  `json:"neighbours"`
	Pairs      int  `json:"pairs"`
	Perfect    bool `json:"perfect"`
}

// GapsTallyOf counts the reassembly cells (the cell of each patch) of pz
// against its truth.
func GapsTallyOf(pz *neural.Puzzle, cells []int) GapsTally {
	acc := pz.Score(cells)
	n, pairs := pz.Cells(), 2*pz.Grid*(pz.Grid-1)
	return GapsTally{Patches: int(math.Round(acc.Patch * float64(n))), Cells: n,
		Neighbours: int(math.Round(acc.Neighbor * float64(pairs))), Pairs: pairs, Perfect: acc.Perfect}
}

// GapsAttempt is one attempt's answer.
type GapsAttempt struct {
	Cells []int     `json:"cells"`
	Value float64   `json:"value"`
	Score GapsTally `json:"score"`
}

// GapsView is the progress of a gaps.solve job with View and, with the
// answer, the view part of its result.
type GapsView struct {
	Solver   string `json:"solver"`
	Grid     int    `json:"grid"`
	Attempts int    `json:"attempts"` // asked for
	// Step is the last placement (MCTS) and Cells the attempt's
	// reassembly after it.
	Step  *GapsStep `json:"step,omitempty"`
	Cells []int     `json:"cells,omitempty"`
	// The result: the answer (Cells), its score and V's value, the
	// attempt chosen, every attempt, and the placements of the chosen
	// attempt (MCTS). Played is false when the answer is a complete
	// reassembly the search met, better than the line it played.
	Final       bool          `json:"final"`
	Score       *GapsTally    `json:"score,omitempty"`
	Value       float64       `json:"value"`
	Attempt     int           `json:"attempt"`
	Tried       []GapsAttempt `json:"tried,omitempty"`
	Steps       []GapsStep    `json:"steps,omitempty"`
	Played      bool          `json:"played"`
	Evaluations int64         `json:"evaluations"`
	MS          float64       `json:"ms"`
	Message     string        `json:"message"`
	Stopped     string        `json:"stopped,omitempty"`
}

type pauseKey struct{}

// WithPause returns ctx carrying pause, which a job with a pace
// (GapsJob.PaceMS) calls for each of its pauses instead of sleeping: a
// server gives its solver slot back meanwhile. Pause returns after d or
// when ctx ends.
func WithPause(ctx context.Context, pause func(ctx context.Context, d time.Duration)) context.Context {
	return context.WithValue(ctx, pauseKey{}, pause)
}

// pauseFor waits d, or until ctx ends, as ctx's WithPause says.
func pauseFor(ctx context.Context, d time.Duration) {
	if p, ok := ctx.Value(pauseKey{}).(func(context.Context, time.Duration)); ok {
		p(ctx, d)
		return
	}
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// RunView runs the job, a single puzzle (Centre), with its view (View):
// each placement goes to progress, followed by PaceMS's pause, and the
// result carries the answer's view. A solver that did not answer, or a
// job that makes no sense, is the error; a cancelled job returns ctx's
// error.
func (j GapsJob) RunView(ctx context.Context, blobs jobs.Blobs, h GapHooks, progress func(any)) (GapsResult, error) {
	start := time.Now()
	msSince := func() float64 { return float64(time.Since(start).Microseconds()) / 1000 }
	attempts := max(j.Options.Attempts, 1)
	base := GapsView{Solver: j.Solver, Grid: j.Grid, Attempts: attempts}
	sctx := ctx
	if j.Budget.Timeout > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(ctx, j.Budget.Timeout)
		defer cancel()
	}
	// steps[k] are the placements of attempt k.
	steps := make([][]GapsStep, attempts)
	var (
		pz   *neural.Puzzle
		res  neural.Result
		serr error
	)
	h.OnResult = func(p *neural.Puzzle, r neural.Result, err error) { pz, res, serr = p, r, err }
	cells := j.Grid * j.Grid
	h.OnStep = func(st neural.Step) {
		js := GapsStepOf(st)
		if st.Attempt < len(steps) {
			steps[st.Attempt] = append(steps[st.Attempt], js)
		}
		after := append([]int(nil), st.Cells...)
		after[st.Patch] = js.Cell
		p := base
		p.Step, p.Cells, p.MS = &js, after, msSince()
		p.Message = fmt.Sprintf("Attempt %d of %d: patch %d to cell %d (%d of %d placed)", st.Attempt+1, attempts, st.Patch, js.Cell, st.Placed+1, cells)
		if st.Value >= 0 {
			p.Message += fmt.Sprintf("; V's estimate before it %.3f", st.Value)
		}
		if progress != nil {
			progress(p)
		}
		if j.PaceMS > 0 {
			pauseFor(sctx, time.Duration(j.PaceMS)*time.Millisecond)
		}
	}
	if progress != nil {
		p := base
		p.Message = fmt.Sprintf("%s is searching…", j.Solver)
		progress(p)
	}
	rec, err := j.Run(sctx, blobs, h)
	if ctx.Err() != nil {
		return GapsResult{}, ctx.Err() // cancelled
	}
	if pz == nil {
		if err == nil {
			err = errors.New("no puzzle solved")
		}
		return GapsResult{}, err
	}
	out := base
	out.Final, out.Evaluations, out.MS, out.Attempt, out.Value = true, res.Evaluations, msSince(), res.Attempt, round4(res.Value)
	for _, a := range res.Attempts {
		out.Tried = append(out.Tried, GapsAttempt{Cells: a.Cells, Value: round4(a.Value), Score: GapsTallyOf(pz, a.Cells)})
	}
	if res.Cells != nil {
		sc := GapsTallyOf(pz, res.Cells)
		out.Cells, out.Score = res.Cells, &sc
		if res.Attempt < len(steps) && len(steps[res.Attempt]) > 0 {
			out.Steps = steps[res.Attempt]
			last := out.Steps[len(out.Steps)-1]
			played := append([]int(nil), last.Before...)
			played[last.Patch] = last.Cell
			out.Played = slices.Equal(played, res.Cells)
		}
	}
	switch {
	case res.Cells == nil:
		out.Stopped = fmt.Sprint(serr)
		out.Message = fmt.Sprintf("Stopped before a complete reassembly: %v", serr)
	case serr != nil:
		out.Stopped = serr.Error()
		out.Message = fmt.Sprintf("Stopped (%v): best answer %d of %d patches in place", serr, out.Score.Patches, out.Score.Cells)
	case out.Score.Perfect:
		out.Message = fmt.Sprintf("Solved: every patch in place (attempt %d of %d, V %.3f)", res.Attempt+1, len(res.Attempts), res.Value)
	default:
		out.Message = fmt.Sprintf("Answer: %d of %d patches and %d of %d neighbours in place (attempt %d of %d, V %.3f)",
			out.Score.Patches, out.Score.Cells, out.Score.Neighbours, out.Score.Pairs, res.Attempt+1, len(res.Attempts), res.Value)
	}
	rec.GapsView = &out
	return rec, nil
}

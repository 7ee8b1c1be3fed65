package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"tessera/edgematch"
	"tessera/edgematch/exact"
)

// EdgeMatchJob is one edge-matching solve as it travels: the spec, the
// puzzle itself (its text, as edgematch.ParsePuzzle reads it, hints
// included) and optionally a start board (its text, as ParseBoard reads
// it), never a file name. It is the input of the job kind
// "edgematch.solve"; a job does not choose the worker's SAT solver
// (sat_solver is refused).
type EdgeMatchJob struct {
	Spec[EdgeMatchOptions]
	Name   string `json:"name"`
	Puzzle string `json:"puzzle"`
	Start  string `json:"start,omitempty"`
	// View asks for the view a person follows (the web page's Auto,
	// RunView): the best board or the LP's P as progress.
	View bool `json:"view,omitempty"`
}

// MaxEdgeMatchText bounds a job's puzzle and board texts (an Eternity II
// puzzle is about 4 KB).
const MaxEdgeMatchText = 1 << 20

// Parse reads the job's puzzle and start board (nil without one).
func (j EdgeMatchJob) Parse() (*edgematch.Puzzle, *edgematch.Board, error) {
	if len(j.Puzzle) > MaxEdgeMatchText || len(j.Start) > MaxEdgeMatchText {
		return nil, nil, fmt.Errorf("the puzzle or board is over %d bytes", MaxEdgeMatchText)
	}
	p, err := edgematch.ParsePuzzle(strings.NewReader(j.Puzzle))
	if err != nil || j.Start == "" {
		return p, nil, err
	}
	b, err := edgematch.ParseBoard(strings.NewReader(j.Start))
	if err == nil {
		err = p.Check(b)
	}
	return p, b, err
}

// Run solves the job's puzzle here under its budget with h's hooks and
// returns the record (a failure is its Error) and the result.
func (j EdgeMatchJob) Run(ctx context.Context, h EdgeMatchHooks) (EdgeMatchRecord, edgematch.Result) {
	fail := func(err error) (EdgeMatchRecord, edgematch.Result) {
		return EdgeMatchRecord{Puzzle: j.Name, Algo: j.Solver, Error: err.Error()}, edgematch.Result{}
	}
	if j.Options.SATSolver != "" {
		return fail(errors.New("a job does not choose the worker's SAT solver (sat_solver)"))
	}
	p, start, err := j.Parse()
	if err != nil {
		return fail(err)
	}
	s, err := EdgeMatch.New(j.Solver, EdgeMatchRun{EdgeMatchOptions: j.Options, Start: start, Hooks: h})
	if err != nil {
		r, res := fail(err)
		r.Max = p.MaxScore()
		return r, res
	}
	o := j.Solve(ctx, s, p)
	return o.Record(), o.Result
}

// Solve runs s, the solver of j's spec already built, on p (j's puzzle)
// under j's budget (wall-clock), and returns the outcome. An anytime
// search that its budget ends has not failed; another solver's error
// then says so.
func (j EdgeMatchJob) Solve(ctx context.Context, s edgematch.Solver, p *edgematch.Puzzle) EdgeMatchOutcome {
	o := EdgeMatchOutcome{Name: j.Name, Puzzle: p, Algo: j.Solver, Options: j.Options}
	if _, ok := s.(exact.Split); ok {
		o.SplitDepth = j.Options.Split
	}
	WithBudget(ctx, j.Budget.Timeout, false, func(bctx context.Context) {
		o.Result, o.Err = s.Solve(bctx, p)
		o.TimedOut = bctx.Err() != nil && ctx.Err() == nil
	})
	if errors.Is(o.Err, context.DeadlineExceeded) {
		switch {
		case o.Anytime():
			o.Err = nil
		case o.TimedOut:
			o.Err = errors.New("stopped by -timeout " + j.Budget.Timeout.String())
		}
	}
	return o
}

// viewed and record are the job kind "edgematch.solve" (viewKind): with
// View, RunView, otherwise Run's record.
func (j EdgeMatchJob) viewed() bool { return j.View }

func (j EdgeMatchJob) record(ctx context.Context) EdgeMatchRecord {
	rec, _ := j.Run(ctx, EdgeMatchHooks{})
	return rec
}

package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"tessera/tangram"
)

// TangramOptions are the tangram solvers' options: plain data that travels
// as JSON, each field's json tag its name and (with '-' for '_') its flag;
// the zero value gives each solver its defaults. Each solver reads the
// fields its entry's Reads lists: sdp those of TangramSDPOptions and Turns.
type TangramOptions struct {
	TangramSDPOptions
	Turns    string `json:"turns,omitempty" help:"the orientations the pieces may take, overriding the puzzle's turns line: none (translation only), rotate (8 turns by 45 degrees), flip (and mirror images); sdp then solves the augmented puzzle of section 6.3 (\"\": as the puzzle says)"`
	MaxNodes int64  `json:"max_nodes,omitempty" help:"exact: stop after this many placements (0: no limit)"`
	Seed     uint64 `json:"seed,string,omitempty" applies:"all" help:"random seed: the same seed gives the same result, unless a wall-clock -timeout ends the work first"`
}

// TangramSDPOptions are the options that only sdp (Algorithm 2) reads.
type TangramSDPOptions struct {
	SDPBackendOption
	K       int  `json:"k,omitempty" help:"sdp: degree of the moment matrices (0: 3; 5 when the pieces may turn)"`
	MaxIter int  `json:"max_iter,omitempty" help:"sdp: at most this many SDPs (0: 40)"`
	Plain   bool `json:"plain,omitempty" help:"sdp: Algorithm 2 as published (no random restart when the objective stalls)"`
}

// Check reports options out of range, naming the flag.
func (o TangramOptions) Check() error {
	if o.K < 0 || o.MaxIter < 0 || o.MaxNodes < 0 {
		return errors.New("-k, -max-iter and -max-nodes must not be negative")
	}
	if o.K > 8 {
		return fmt.Errorf("-k %d out of range (0 to 8)", o.K)
	}
	if _, err := o.turns(); err != nil {
		return err
	}
	return nil
}

// turns returns the Turns that -turns names (ok false for "").
func (o TangramOptions) turns() (tangram.Turns, error) {
	for _, t := range []tangram.Turns{tangram.TurnsNone, tangram.TurnsRotate, tangram.TurnsFlip} {
		if o.Turns == t.String() {
			return t, nil
		}
	}
	if o.Turns == "" {
		return 0, nil
	}
	return 0, fmt.Errorf("-turns %q: want none, rotate or flip", o.Turns)
}

// TangramHooks are what a tangram solve needs at run time and never sends.
type TangramHooks struct {
	// OnIterate, when set, receives every iterate of Algorithm 2.
	OnIterate func(tangram.SDPIterate)
}

// TangramRun is what a tangram entry's New reads: the options and the
// hooks.
type TangramRun struct {
	TangramOptions
	Hooks TangramHooks
}

// Tangram is the table of tangram solvers.
var Tangram = Table[tangram.Solver, TangramRun]{
	{ID: "sdp", Name: "Kovalsky's rank-one SDP (Algorithm 2)", Reads: []string{"sdp", "k", "max_iter", "plain", "turns"},
		Doc: "moment matrices of the pieces' translations, SDPs reweighted towards rank one; translations snapped and checked. Pieces that may turn: the augmented puzzle (section 6.3, all copies of the puzzle in the admissible orientations, degree 5), far slower and solving fewer figures (docs/results/tangram.md)",
		New: newTangramSDP},
	{ID: "exact", Name: "exact backtracker", Optimal: true, Reads: []string{"max_nodes", "turns"},
		Doc: "covers a corner of the uncovered region at a time; proves there is no solution when there is none",
		New: func(o TangramRun) (tangram.Solver, error) { return tangram.Exact{MaxNodes: o.MaxNodes}, nil }},
}

func init() { register("tangram", Tangram.Menu) }

func newTangramSDP(o TangramRun) (tangram.Solver, error) {
	backend, err := o.backend()
	if err != nil {
		return nil, err
	}
	s := tangram.SDP{Backend: backend, K: o.K, MaxIter: o.MaxIter, Seed: o.Seed, OnIterate: o.Hooks.OnIterate}
	if o.Plain {
		s.Stall = -1
	}
	return s, nil
}

// TangramJob is one tangram solve as it travels: the spec and the puzzle
// itself (its text, as tangram.ParsePuzzle reads it), the input of the job
// kind "tangram.solve".
type TangramJob struct {
	Spec[TangramOptions]
	Name   string `json:"name"`
	Puzzle string `json:"puzzle"`
	// View asks for the view a person follows (the web page's Auto,
	// RunView): the iterates as progress, the answer on the page's board.
	View bool `json:"view,omitempty"`
}

// TangramRecord is the one result of a tangram solve: what `tangram solve
// -json` prints, each line of `tangram bench -json` and what a
// "tangram.solve" job returns.
type TangramRecord struct {
	Puzzle     string  `json:"puzzle"`
	Algo       string  `json:"algo"`
	Solved     bool    `json:"solved"`
	Seconds    float64 `json:"seconds"`
	Iterations int     `json:"iterations"`          // SDPs of Algorithm 2; 0 for exact
	Objective  float64 `json:"objective"`           // Algorithm 2's last Σ<W_i, Z_i>
	Restarts   int     `json:"restarts,omitempty"`  // Algorithm 2's random restarts
	SDPSteps   int     `json:"sdp_steps,omitempty"` // interior-point iterations, all SDPs
	Nodes      int64   `json:"nodes,omitempty"`     // exact: placements
	Placed     int     `json:"placed"`              // pieces in the (best) solution
	Error      string  `json:"error,omitempty"`
}

// Run solves the job's puzzle here under its budget (wall-clock: the SDP
// solvers run goroutines) with h's hooks, and returns the record with the
// result (its Solution checked exactly). A failure is the record's Error.
func (j TangramJob) Run(ctx context.Context, h TangramHooks) (TangramRecord, tangram.Result) {
	rec := TangramRecord{Puzzle: j.Name, Algo: j.Solver}
	p, err := tangram.ParsePuzzle(strings.NewReader(j.Puzzle))
	if err != nil {
		rec.Error = err.Error()
		return rec, tangram.Result{}
	}
	return j.RunPuzzle(ctx, p, h)
}

// RunPuzzle is Run on the puzzle already parsed (p is j.Puzzle's).
func (j TangramJob) RunPuzzle(ctx context.Context, p *tangram.Puzzle, h TangramHooks) (TangramRecord, tangram.Result) {
	rec := TangramRecord{Puzzle: j.Name, Algo: j.Solver}
	s, err := Tangram.New(j.Solver, TangramRun{TangramOptions: j.Options, Hooks: h})
	if err == nil {
		err = j.Options.Check()
	}
	if err != nil {
		rec.Error = err.Error()
		return rec, tangram.Result{}
	}
	if o := j.Options; o.Turns != "" {
		t, _ := o.turns()
		p = p.Clone()
		p.Turns = t
	}
	var res tangram.Result
	WithBudget(ctx, j.Budget.Timeout, false, func(ctx context.Context) { res, err = s.Solve(ctx, p) })
	rec.Solved, rec.Seconds, rec.Nodes = res.Solved, res.Elapsed.Seconds(), res.Nodes
	if res.Solution != nil {
		rec.Placed = res.Solution.PlacedCount()
	}
	if s := res.SDP; s != nil {
		rec.Iterations, rec.Objective, rec.Restarts = s.Iterations, s.Objective, s.Restarts
		for _, it := range s.Iterates {
			rec.SDPSteps += it.SDPIterations
		}
	}
	if err != nil {
		rec.Error = err.Error()
		if errors.Is(err, context.DeadlineExceeded) && j.Budget.Timeout > 0 && ctx.Err() == nil {
			rec.Error = "stopped by -timeout " + j.Budget.Timeout.String()
		}
	}
	return rec, res
}

// viewed and record are the job kind "tangram.solve" (viewKind;
// ParsePuzzle bounds the puzzle's text: tangram.MaxFileBytes): with View,
// RunView, otherwise Run's record.
func (j TangramJob) viewed() bool { return j.View }

func (j TangramJob) record(ctx context.Context) TangramRecord {
	rec, _ := j.Run(ctx, TangramHooks{})
	return rec
}

package catalog

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"tessera/samegame"
)

// SameGameJob is one samegame solve as it travels: the spec and the board
// itself (never a file name), with what the record repeats of it. It is
// the input of the job kind "samegame.solve".
type SameGameJob struct {
	Spec[SameGameOptions]
	// Rules are "standard" or "dust"; Board is the board as samegame.Format
	// writes it (digits or letters), at most MaxSameGameBoard bytes.
	Rules string `json:"rules"`
	Board string `json:"board"`
	// Name, Number and Known are copied into the record: the board's name,
	// its 1-based number in its set and its proven optimum (fewest clicks
	// under dust rules, 0: unknown).
	Name   string `json:"name,omitempty"`
	Number int    `json:"number,omitempty"`
	Known  int    `json:"known_optimum,omitempty"`
}

// MaxSameGameBoard bounds a job's board text (a 64 x 64 board of digits
// with separators fits).
const MaxSameGameBoard = 16 << 10

// SameGameRecord is the one result of a samegame solve: what `samegame solve
// -json` prints, each line of `samegame bench -json` (one algorithm) and
// what a "samegame.solve" job returns.
type SameGameRecord struct {
	// Board is the board's 1-based number in its set (0: not from a set);
	// File the set file, where a command line read one.
	Board  int    `json:"board,omitempty"`
	Name   string `json:"name,omitempty"`
	File   string `json:"file,omitempty"`
	Rules  string `json:"rules"`
	Solver string `json:"solver"`
	Score  int    `json:"score"`
	Clicks int    `json:"clicks"`
	// Optimal is true when the answer is proven optimal (by the solver, or
	// by reaching Known), false when a proving solver stopped short, and
	// null for a solver that cannot prove.
	Optimal *bool `json:"optimal"`
	Cleared bool  `json:"cleared"`
	// Left is the number of cells the clicks leave.
	Left    int     `json:"left"`
	Known   int     `json:"known_optimum,omitempty"`
	Seconds float64 `json:"seconds"`
	// CPUSeconds is the CPU time of the solving thread (of the process
	// where the solver runs goroutines: nrpa -dist undercounts).
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
	Nodes      int64   `json:"nodes"`
	Playouts   int64   `json:"playouts"`
	Moves      string  `json:"moves"`
	// Stopped names the budget that ended the search ("time"), when one
	// did; Error says why the solve failed (empty: it succeeded).
	Stopped string `json:"stopped,omitempty"`
	Error   string `json:"error,omitempty"`
}

// Proven reports whether the record's answer is proven optimal.
func (r SameGameRecord) Proven() bool { return r.Optimal != nil && *r.Optimal }

// Solution returns the record's clicks and figures as a samegame.Solution.
func (r SameGameRecord) Solution() (samegame.Solution, error) {
	moves, err := samegame.ParseMoves(r.Moves)
	return samegame.Solution{Moves: moves, Score: r.Score, Clicks: r.Clicks, Cleared: r.Cleared, Optimal: r.Proven(),
		Nodes: r.Nodes, Playouts: r.Playouts, Elapsed: time.Duration(r.Seconds * float64(time.Second))}, err
}

// ParseBoard reads the job's board under its rules.
func (j SameGameJob) ParseBoard() (*samegame.Board, error) {
	if len(j.Board) > MaxSameGameBoard {
		return nil, fmt.Errorf("samegame job: board longer than %d KiB", MaxSameGameBoard>>10)
	}
	rules, err := samegame.ParseRules(j.Rules)
	if err != nil {
		return nil, err
	}
	return samegame.ParseBoard(j.Board, rules)
}

// Run solves the job's board on this machine under its budget, with h's
// hooks, and records the result; a failure is the record's Error. The
// solver runs on the calling goroutine, locked to its thread.
func (j SameGameJob) Run(ctx context.Context, h SameGameHooks) SameGameRecord {
	rec := SameGameRecord{Board: j.Number, Name: j.Name, Rules: j.Rules, Solver: j.Solver, Known: j.Known}
	b, err := j.ParseBoard()
	if err != nil {
		rec.Error = err.Error()
		return rec
	}
	rec.Rules, rec.Left = b.Rules().String(), b.Cells()
	entry, err := SameGame.Lookup(j.Solver)
	if err == nil {
		err = j.Options.Check()
	}
	var s samegame.Solver
	if err == nil {
		s, err = entry.New(SameGameRun{SameGameOptions: j.Options, Hooks: h})
	}
	if err != nil {
		rec.Error = err.Error()
		return rec
	}
	var sol samegame.Solution
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0, _ := ThreadCPU()
	WithBudget(ctx, j.Budget.Timeout, j.Budget.CPU, func(ctx context.Context) { sol, err = s.Solve(ctx, b) })
	if cpu1, ok := ThreadCPU(); ok {
		rec.CPUSeconds = (cpu1 - cpu0).Seconds()
	}
	rec.fill(entry, sol, b, j.Known)
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		rec.Stopped = "time"
		if entry.Anytime && len(sol.Moves) > 0 {
			err = nil // an anytime solver's best is its answer
		}
	}
	if err != nil {
		rec.Error = err.Error()
	}
	return rec
}

// fill records sol, found by entry on b (known: b's proven optimum).
func (r *SameGameRecord) fill(entry Entry[samegame.Solver, SameGameRun], sol samegame.Solution, b *samegame.Board, known int) {
	r.Score, r.Clicks, r.Cleared = sol.Score, sol.Clicks, sol.Cleared
	r.Nodes, r.Playouts, r.Seconds = sol.Nodes, sol.Playouts, sol.Elapsed.Seconds()
	r.Moves = samegame.FormatMoves(sol.Moves)
	if res, err := samegame.Replay(b, sol.Moves); err == nil {
		r.Left = res.Board.Cells()
	}
	yes, no := true, false
	switch {
	case sol.Optimal:
		r.Optimal = &yes
	case b.Rules() == samegame.Dust && known > 0 && sol.Cleared && sol.Clicks == known:
		r.Optimal = &yes // reaches the set's proven optimum
	case entry.Optimal:
		r.Optimal = &no
	}
}

// runSameGameJob is the job kind "samegame.solve": a SameGameJob in, a
// SameGameRecord out. A job names no file: an options' Model (a network
// file) is refused.
func runSameGameJob(ctx context.Context, j SameGameJob, progress func(any)) (any, error) {
	if j.Options.Model != "" {
		return nil, errors.New("samegame.solve: a job carries no file: the network (model) must be the shipped one")
	}
	rec := j.Run(ctx, SameGameHooks{Progress: func(sol samegame.Solution) {
		if progress != nil {
			progress(SameGameRecord{Solver: j.Solver, Rules: j.Rules, Score: sol.Score, Clicks: sol.Clicks, Cleared: sol.Cleared,
				Nodes: sol.Nodes, Playouts: sol.Playouts, Seconds: sol.Elapsed.Seconds(), Moves: samegame.FormatMoves(sol.Moves)})
		}
	}})
	if err := ctx.Err(); err != nil {
		return rec, err
	}
	return rec, nil
}

package samegame

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Solver is a way to solve a board: a value that carries its parameters
// (DFS{Order: Largest}, NRPA{Level: 3, Iterations: 100}, ...) and solves
// under the board's rules. Every solver honours the context: when it ends
// (or the solver's own node or playout budget is spent) the best solution
// found so far is returned with an error wrapping the context's error (or
// ErrBudget). The moves of every solution replay legally on the board to
// the returned score and clicks. Package policy adds solvers guided by a
// network.
type Solver interface {
	Solve(ctx context.Context, b *Board) (Solution, error)
}

// options are the parameters the searches of this package read, filled in
// by the solver types from their fields.
type options struct {
	MaxNodes int64
	Ordering Ordering
	// LookaheadPlies is how many plies ShortLook orders by lookahead.
	LookaheadPlies int
	TableBits      int
	BeamWidth      int
	Progress       func(Solution)
	// naiveUpper (tests): the exact solver starts from a naive line (the
	// first group, every click) instead of the beams', so that its own
	// search finds the optimum.
	naiveUpper bool
}

// DFS is the source blog's depth-first branch-and-bound ("Depth first
// search puzzle solving with heuristics", ben.land, 2021): under Dust it
// tries the clicks in its move order and prunes a child when the clicks so
// far plus the colours left cannot beat the best; under Standard a
// score-bounded variant. A search that finishes proves its answer optimal.
// The zero value is the blog's best variant (ShortLook over 6 plies).
type DFS struct {
	// Order is the move ordering (zero: ShortLook).
	Order Ordering
	// LookaheadPlies is how many plies ShortLook orders by lookahead
	// (zero: 6, the blog's Python solver).
	LookaheadPlies int
	// TableBits sizes the table of the Dust boards already searched:
	// 2^TableBits entries of 8 bytes (zero: 22, 32 MiB; 10 to 32).
	TableBits int
	// MaxNodes stops the search after expanding this many nodes (0: no
	// limit).
	MaxNodes int64
	// Progress, when set, is called now and then with the best solution
	// so far (its Moves may be nil) and the work done.
	Progress func(Solution)
}

// Solve runs the search on b.
func (s DFS) Solve(ctx context.Context, b *Board) (Solution, error) {
	return timed(func() (Solution, error) {
		return solveDFS(ctx, b, options{Ordering: s.Order, LookaheadPlies: s.LookaheadPlies, TableBits: s.TableBits,
			MaxNodes: s.MaxNodes, Progress: s.Progress})
	})
}

// Exact proves the fewest clicks of a Dust board of at most 64 cells:
// IDA* with an admissible bound and a transposition table of learned
// bounds, on bit boards, seeded by a beam search's solution. It returns
// ErrUnsupported under Standard rules or for a larger board.
type Exact struct {
	// TableBits sizes the transposition table: 2^TableBits entries of 8
	// bytes (zero: 23, 64 MiB; 10 to 32). The half bound's two tables
	// take 32 MiB each besides, on boards of at most 8 rows.
	TableBits int
	// MaxNodes stops the search after expanding this many nodes (0: no
	// limit).
	MaxNodes int64
	// Progress, when set, is called now and then with the best solution
	// so far and the work done.
	Progress func(Solution)
}

// Solve proves the fewest clicks of b.
func (s Exact) Solve(ctx context.Context, b *Board) (Solution, error) {
	if b.rules != Dust {
		return Solution{}, fmt.Errorf("%w: exact needs dust rules", ErrUnsupported)
	}
	return timed(func() (Solution, error) {
		return solveExact(ctx, b, options{TableBits: s.TableBits, MaxNodes: s.MaxNodes, Progress: s.Progress})
	})
}

// Beam is beam search with duplicate detection: it keeps the Width best
// boards per click by points (Standard) or by fewest groups left (Dust).
// It is an anytime search: when the context or MaxNodes ends it before a
// game in its beam ended, it completes the best board of its last depth
// greedily (largest group first) and returns that line with the budget's
// error, so that it always has an answer.
type Beam struct {
	// Width is the number of states kept per depth (zero: 1,000).
	Width int
	// MaxNodes stops the search after expanding this many nodes (0: no
	// limit).
	MaxNodes int64
	// Progress, when set, is called now and then with the best solution
	// so far and the work done.
	Progress func(Solution)
}

// Solve runs the beam search on b.
func (s Beam) Solve(ctx context.Context, b *Board) (Solution, error) {
	return timed(func() (Solution, error) {
		return solveBeam(ctx, b, options{BeamWidth: s.Width, MaxNodes: s.MaxNodes, Progress: s.Progress})
	})
}

// timed runs a solver and sets the solution's Elapsed.
func timed(f func() (Solution, error)) (Solution, error) {
	start := time.Now()
	sol, err := f()
	sol.Elapsed = time.Since(start)
	return sol, err
}

// Ordering is the order in which DFS tries the clicks of a board.
type Ordering uint8

const (
	// ShortLook orders by lookahead for the first LookaheadPlies plies and
	// by group size after that (the blog's best variant).
	ShortLook Ordering = iota
	// Largest tries the largest group first (the blog's "standard").
	Largest
	// Lookahead tries first the group that maximises its size plus the
	// size of the largest group after it (the blog's "lookahead").
	Lookahead
)

var orderingNames = [...]string{"shortlook", "largest", "lookahead"}

// String returns the ordering's name as ParseOrdering reads it.
func (o Ordering) String() string {
	if int(o) < len(orderingNames) {
		return orderingNames[o]
	}
	return fmt.Sprintf("Ordering(%d)", uint8(o))
}

// MarshalText writes the ordering's name (JSON, flags).
func (o Ordering) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads a name as ParseOrdering does.
func (o *Ordering) UnmarshalText(b []byte) error {
	v, err := ParseOrdering(string(b))
	if err == nil {
		*o = v
	}
	return err
}

// ParseOrdering reads shortlook, largest (or the blog's name, standard) or
// lookahead.
func ParseOrdering(s string) (Ordering, error) {
	if strings.EqualFold(s, "standard") {
		return Largest, nil
	}
	for i, n := range orderingNames {
		if strings.EqualFold(s, n) {
			return Ordering(i), nil
		}
	}
	return 0, fmt.Errorf("samegame: unknown order %q (want shortlook, largest or lookahead)", s)
}

// Solution is a solver's answer.
type Solution struct {
	// Moves are the clicks, in order.
	Moves []Move
	// Score is the final score under Standard rules (0 under Dust).
	Score int
	// Clicks is len(Moves).
	Clicks int
	// Cleared reports whether the moves empty the board.
	Cleared bool
	// Optimal reports whether the solver proved that no solution is better
	// (fewest clicks under Dust, highest score under Standard).
	Optimal bool
	// Nodes counts the nodes expanded (DFS, Exact, Beam) or tree nodes and
	// nested calls (Monte-Carlo searches); Playouts counts playouts.
	Nodes, Playouts int64
	// Elapsed is the wall-clock time of the search.
	Elapsed time.Duration
}

// Better reports whether s beats t under rules: a higher score under
// Standard, fewer clicks to clear the board under Dust. Only cleared
// solutions count under Dust.
func (s Solution) Better(t Solution, rules Rules) bool {
	if rules == Dust {
		return s.Cleared && (!t.Cleared || s.Clicks < t.Clicks)
	}
	return s.Score > t.Score
}

var (
	// ErrBudget is returned (wrapped) when a solver stops at its node or
	// playout budget before it finished; the solution is then the best
	// found so far.
	ErrBudget = errors.New("samegame: budget exhausted")
	// ErrUnsupported is returned by a solver for boards it does not handle
	// (Exact needs Dust rules and at most 64 cells).
	ErrUnsupported = errors.New("samegame: algorithm not supported for these rules")
)

// finish fills in the score, clicks and cleared flag of sol by replaying
// its moves on b, which also checks them.
func finish(b *Board, sol *Solution) error {
	res, err := Replay(b, sol.Moves)
	if err != nil {
		return fmt.Errorf("samegame: internal error: solver returned illegal moves: %w", err)
	}
	sol.Score, sol.Clicks, sol.Cleared = res.Score, res.Clicks, res.Cleared
	return nil
}

// ctxErr wraps a context's error for a solver that stopped early.
func ctxErr(err error) error { return fmt.Errorf("samegame: stopped: %w", err) }

// checkBudget returns why a search must stop after nodes expansions: the
// context's end, or the MaxNodes budget max (0: none); nil to go on.
func checkBudget(ctx context.Context, nodes, max int64) error {
	if err := ctx.Err(); err != nil {
		return ctxErr(err)
	}
	if max > 0 && nodes >= max {
		return fmt.Errorf("%w: %d nodes", ErrBudget, nodes)
	}
	return nil
}

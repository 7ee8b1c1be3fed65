package samegame

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Algorithm names a solver of Solve.
type Algorithm uint8

const (
	// DFS is the source blog's depth-first branch-and-bound (Dust; a
	// score-bounded variant under Standard).
	DFS Algorithm = iota
	// Exact proves the fewest clicks of a Dust board: IDA* with a
	// transposition table of learned lower bounds.
	Exact
	// Beam is beam search.
	Beam
	// MCTS is single-player Monte-Carlo tree search (SP-MCTS selection).
	MCTS
	// NMCS is Nested Monte-Carlo Search.
	NMCS
	// NRPA is Nested Rollout Policy Adaptation.
	NRPA
)

var algorithmNames = [...]string{"dfs", "exact", "beam", "mcts", "nmcs", "nrpa"}

// String returns the algorithm's name as ParseAlgorithm reads it.
func (a Algorithm) String() string {
	if int(a) < len(algorithmNames) {
		return algorithmNames[a]
	}
	return fmt.Sprintf("Algorithm(%d)", uint8(a))
}

// ParseAlgorithm reads dfs, exact, beam, mcts, nmcs or nrpa.
func ParseAlgorithm(s string) (Algorithm, error) {
	for i, n := range algorithmNames {
		if strings.EqualFold(s, n) {
			return Algorithm(i), nil
		}
	}
	return 0, fmt.Errorf("samegame: unknown algorithm %q (want %s)", s, strings.Join(algorithmNames[:], ", "))
}

// Options select and tune a solver. The zero value runs DFS with its
// defaults.
type Options struct {
	Algorithm Algorithm
	// Seed drives the random choices of the Monte-Carlo searches.
	Seed uint64
	// MaxNodes stops DFS, Exact and Beam after expanding this many nodes,
	// and the Monte-Carlo searches after this many playouts (0: no limit).
	MaxNodes int64
	// Ordering is the DFS move ordering; zero means ShortLook.
	Ordering Ordering
	// LookaheadPlies is how many plies ShortLook orders by lookahead;
	// zero means 6 (the blog's Python solver).
	LookaheadPlies int
	// TableBits sets the size of Exact's transposition table to
	// 2^TableBits entries of 8 bytes; zero means 23 (64 MiB). It also
	// sizes DFS's table of searched Dust boards (zero: 22, 32 MiB).
	TableBits int
	// BeamWidth is the number of states Beam keeps per depth; zero means
	// 1,000.
	BeamWidth int
	// Level and Iterations configure NMCS (level, default 2) and NRPA
	// (level, default 3; iterations per level, default 100).
	Level, Iterations int
	// Restart keeps the Monte-Carlo searches going until the context ends
	// or MaxNodes is reached: NRPA and NMCS start again (with a new policy,
	// new playouts) and MCTS keeps iterating. It is implied by a context
	// deadline or MaxNodes; without any, NRPA and NMCS run once and MCTS
	// runs 10,000 iterations.
	Restart bool
	// NoTabu turns off the tabu-colour move filter, on by default for the
	// Monte-Carlo searches under Standard rules (never used under Dust).
	NoTabu bool
	// Progress, when set, is called now and then with the best solution so
	// far (its Moves may be nil) and the work done.
	Progress func(Solution)
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
	// ErrBudget is returned (wrapped) when a solver stops at Options.MaxNodes
	// before it finished; the solution is then the best found so far.
	ErrBudget = errors.New("samegame: budget exhausted")
	// ErrUnsupported is returned for an algorithm the rules do not support
	// (Exact needs Dust rules).
	ErrUnsupported = errors.New("samegame: algorithm not supported for these rules")
)

// Solve runs the solver opts.Algorithm on b. Every solver honours the
// context: when it ends (or MaxNodes is reached) the best solution found so
// far is returned with an error wrapping the context's error (or
// ErrBudget). The moves of every solution replay legally on b to the
// returned score and clicks.
func Solve(ctx context.Context, b *Board, opts Options) (Solution, error) {
	start := time.Now()
	var sol Solution
	var err error
	switch opts.Algorithm {
	case DFS:
		sol, err = solveDFS(ctx, b, opts)
	case Exact:
		if b.rules != Dust {
			return Solution{}, fmt.Errorf("%w: exact needs dust rules", ErrUnsupported)
		}
		sol, err = solveExact(ctx, b, opts)
	case Beam:
		sol, err = solveBeam(ctx, b, opts)
	case MCTS, NMCS, NRPA:
		sol, err = solveMC(ctx, b, opts)
	default:
		return Solution{}, fmt.Errorf("samegame: unknown algorithm %d", opts.Algorithm)
	}
	sol.Elapsed = time.Since(start)
	return sol, err
}

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

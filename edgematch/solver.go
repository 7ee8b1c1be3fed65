package edgematch

import (
	"context"
	"time"
)

// Solver is an edge-matching solver: a value that carries its parameters
// and searches a puzzle, in the style of gonum's optimize.Method.
// exact.DFS (the exact backtracker, counting with Count), partial.Breaks,
// partial.Tiles and partial.Partial (the best score when a solution is
// out of reach), relax.LP (Kovalsky's relaxation, finished by search
// unless NoSearch), relax.SDP and sat.SAT implement it.
//
// Solve validates p, honours ctx (its deadline is the time budget; the
// node and move limits are the solvers' fields) and returns the best
// board it found with Puzzle.Score's score and the statistics, also with an
// error: ErrNoSolution when the search proves there is none, an error
// wrapping ErrBudget or the context's error when a limit stops it.
type Solver interface {
	Solve(ctx context.Context, p *Puzzle) (Result, error)
}

// Stats describes the work of a solver.
type Stats struct {
	// Nodes counts placements of a piece in a cell.
	Nodes int64
	// Solutions counts the complete solutions found. With Count it is
	// their number, counting the boards that differ by a rotation of the
	// whole board or by an exchange of identical pieces (which the search
	// folds away and multiplies back), capped at math.MaxInt64.
	Solutions int64
	// MaxDepth is the largest number of cells filled at once, hints
	// included.
	MaxDepth int
	// Subtrees is the number of subtrees the top of the tree was split into.
	Subtrees int
	// Moves counts the improvement moves of Partial (window and
	// assignment repairs).
	Moves int64
	// Completed counts the boards that Breaks and Tiles completed and
	// scored, and Top[d] those of them that scored Puzzle.MaxScore less d,
	// for d up to NearGap (see BreaksProgress.Top); nil for the other
	// solvers.
	Completed int64
	Top       []int64
	// Elapsed is the wall-clock time.
	Elapsed time.Duration
	// BestAt is, for the partial solvers (Breaks, Tiles, Partial,
	// DistPartial), the wall-clock time from the start to the moment the
	// score of Board was first reached: 0 for the exact solvers, and 0
	// (Breaks, Tiles) or the moment it was loaded (Partial) for a start
	// board that was not improved.
	BestAt time.Duration
}

// NodesPerSecond returns Nodes / Elapsed.
func (s Stats) NodesPerSecond() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Nodes) / s.Elapsed.Seconds()
}

// Result is what a solver returns: the best board found with its
// canonical score, and the statistics.
type Result struct {
	// Board is the solution, or for a failed exact search the deepest
	// partial board, or for partial search the best board.
	Board *Board
	// Score is Puzzle.Score(Board), computed independently of the solver.
	Score Score
	Stats Stats
	// LP, for the LP solver only, describes its LP iteration.
	LP *LPStats
}

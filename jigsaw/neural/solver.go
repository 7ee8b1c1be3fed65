package neural

import "context"

// Solver is a gap-puzzle solver: a value carrying its networks and
// settings whose Solve reassembles a Puzzle (the gap puzzles' counterpart
// of jigsaw.Solver, whose pieces touch).
type Solver interface {
	Solve(ctx context.Context, pz *Puzzle) (Result, error)
}

// MCTS is Alphazzle's solver: the patches placed one by one, each after
// Options.Sims simulations of PUCT tree search (package mcts) guided by the
// model's P (priors) and V (values); see Solve.
type MCTS struct {
	Model   *Model
	Options Options
}

// GreedyP places every patch in the cell the model's P prefers (one
// network call per patch).
type GreedyP struct {
	Model   *Model
	Options Options
}

// GreedyV places every patch in the cell whose reassembly the model's V
// values most (one call over the empty cells per patch).
type GreedyV struct {
	Model   *Model
	Options Options
}

// Solve reassembles pz; see the function Solve.
func (s MCTS) Solve(ctx context.Context, pz *Puzzle) (Result, error) {
	return solveWith(ctx, s.Model, pz, s.Options, algoMCTS)
}

// Solve reassembles pz greedily on P.
func (s GreedyP) Solve(ctx context.Context, pz *Puzzle) (Result, error) {
	return solveWith(ctx, s.Model, pz, s.Options, algoGreedyP)
}

// Solve reassembles pz greedily on V.
func (s GreedyV) Solve(ctx context.Context, pz *Puzzle) (Result, error) {
	return solveWith(ctx, s.Model, pz, s.Options, algoGreedyV)
}

var (
	_ Solver = MCTS{}
	_ Solver = GreedyP{}
	_ Solver = GreedyV{}
)

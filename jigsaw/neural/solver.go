package neural

import "context"

// Solver is a gap-puzzle solver: a value carrying its networks and
// settings whose Solve reassembles a Puzzle (the gap puzzles' counterpart
// of jigsaw.Solver, whose pieces touch).
type Solver interface {
	Solve(ctx context.Context, pz *Puzzle) (Result, error)
}

// Learned is the learned solver as a Solver: the networks of Model played
// as Options say (MCTS, GreedyP or GreedyV; see Solve).
type Learned struct {
	Model   *Model
	Options Options
}

// Solve reassembles pz; see the function Solve.
func (l Learned) Solve(ctx context.Context, pz *Puzzle) (Result, error) {
	return Solve(ctx, l.Model, pz, l.Options)
}

package policy

import (
	"context"
	"errors"

	"tessera/samegame"
)

// The solvers of this package, samegame.Solver values that carry their
// network and parameters. A nil P means the shipped network (Default, or
// DefaultAfterstate for After). The network must fit the board (Geometry.Fits).
var (
	_ samegame.Solver = Greedy{}
	_ samegame.Solver = After{}
	_ samegame.Solver = Value{}
	_ samegame.Solver = Beam{}
	_ samegame.Solver = MCTS{}
)

// Greedy clicks the best-scored group at every turn (Policy.Greedy): the
// source blog's way to play its network.
type Greedy struct{ P *Policy }

// Solve plays b.
func (s Greedy) Solve(ctx context.Context, b *samegame.Board) (samegame.Solution, error) {
	p, err := orDefault(s.P, Default)
	if err != nil {
		return samegame.Solution{}, err
	}
	return p.Greedy(ctx, b)
}

// ErrNotAfterstate is returned by After for a network that is not an
// afterstate network (Arch.After).
var ErrNotAfterstate = errors.New("policy: not an afterstate network (train one with TrainOptions.After)")

// After plays greedily with an afterstate network: it clicks the group
// whose resulting board the network rates best, averaging the ratings of
// Views symmetric views of each child (see Policy.Views; zero: P's own).
type After struct {
	P     *Policy
	Views int
}

// Solve plays b.
func (s After) Solve(ctx context.Context, b *samegame.Board) (samegame.Solution, error) {
	p, err := orDefault(s.P, DefaultAfterstate)
	if err != nil {
		return samegame.Solution{}, err
	}
	if !p.IsAfterstate() {
		return samegame.Solution{}, ErrNotAfterstate
	}
	if s.Views > 0 && s.Views != p.Views {
		c := *p // the caller's policy stays as it is
		c.Views = s.Views
		p = &c
	}
	return p.Greedy(ctx, b)
}

// Value looks one step ahead on the value head: it clicks the group whose
// resulting board has the fewest estimated clicks left (Policy.Lookahead).
type Value struct{ P *Policy }

// Solve plays b.
func (s Value) Solve(ctx context.Context, b *samegame.Board) (samegame.Solution, error) {
	p, err := orDefault(s.P, Default)
	if err != nil {
		return samegame.Solution{}, err
	}
	return p.Lookahead(ctx, b)
}

// Beam is beam search guided by the network (Policy.Beam; BeamOptions
// documents the parameters and their defaults).
type Beam struct {
	P *Policy
	// Width is the number of positions kept per depth (default 2,000).
	Width int
	// Prior and Colors weigh the policy's log-probability and the colours
	// left in a position's rank (defaults 0.25 and 4).
	Prior, Colors float64
}

// Solve plays b.
func (s Beam) Solve(ctx context.Context, b *samegame.Board) (samegame.Solution, error) {
	p, err := orDefault(s.P, Default)
	if err != nil {
		return samegame.Solution{}, err
	}
	return p.Beam(ctx, b, BeamOptions{Width: s.Width, Prior: s.Prior, Colors: s.Colors})
}

// MCTS is the PUCT tree search guided by the network's priors and value
// head (Policy.MCTS; MCTSOptions documents the parameters and their
// defaults). The network needs a value head.
type MCTS struct {
	P *Policy
	// Iterations is the number of tree iterations before each click
	// (default 200), Batch the leaves per network call (default 16), C
	// PUCT's exploration constant (default 1.5).
	Iterations int64
	Batch      int
	C          float64
}

// Solve plays b.
func (s MCTS) Solve(ctx context.Context, b *samegame.Board) (samegame.Solution, error) {
	p, err := orDefault(s.P, Default)
	if err != nil {
		return samegame.Solution{}, err
	}
	return p.MCTS(ctx, b, MCTSOptions{Iterations: s.Iterations, Batch: s.Batch, C: s.C})
}

// orDefault returns p, or the shipped network def gives when p is nil.
func orDefault(p *Policy, def func() (*Policy, error)) (*Policy, error) {
	if p != nil {
		return p, nil
	}
	return def()
}

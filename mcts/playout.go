package mcts

import "math/rand/v2"

// Policy chooses the moves of playouts.
type Policy[G any, M any] interface {
	// Choose returns the index of the move to play among moves, the legal
	// moves of g (never empty). It must not change g or moves.
	Choose(g G, moves []M, rng *rand.Rand) int
}

// Uniform is the policy that picks every legal move with equal
// probability, the default of every search.
type Uniform[G any, M any] struct{}

// Choose returns a uniformly random index.
func (Uniform[G, M]) Choose(_ G, moves []M, rng *rand.Rand) int { return rng.IntN(len(moves)) }

// PolicyFunc adapts a function to a Policy.
type PolicyFunc[G any, M any] func(g G, moves []M, rng *rand.Rand) int

// Choose calls f.
func (f PolicyFunc[G, M]) Choose(g G, moves []M, rng *rand.Rand) int { return f(g, moves, rng) }

// playout plays g to the end with pol, appending the moves to *seq, and
// returns the final score. moves is scratch space.
func playout[G Game[G, M], M any](g G, pol Policy[G, M], rng *rand.Rand, moves, seq *[]M) float64 {
	for {
		*moves = g.Moves((*moves)[:0])
		if len(*moves) == 0 {
			return g.Score()
		}
		m := (*moves)[pol.Choose(g, *moves, rng)]
		g.Play(m)
		*seq = append(*seq, m)
	}
}

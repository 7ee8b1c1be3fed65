package npuzzle

import (
	"context"
	"math/rand/v2"
)

// ShuffleRNG is the random stream of the boards shuffled from seed:
// Shuffle draws its board from it, and a series of random boards (a
// bench's) draws them from it in turn.
func ShuffleRNG(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x6e70757a7a6c65))
}

// Shuffle returns a board of size s for goal g drawn from seed
// (ShuffleRNG): uniformly among the solvable boards (Random), or by the
// source game's random walk of moves steps from the goal
// (RandomWalkContext, stopped when ctx ends). The same seed gives the
// same board.
func Shuffle(ctx context.Context, s Size, g Goal, uniform bool, moves int, seed uint64) (*Board, error) {
	rng := ShuffleRNG(seed)
	if uniform {
		return Random(s, g, rng), nil
	}
	return RandomWalkContext(ctx, s, g, moves, rng)
}

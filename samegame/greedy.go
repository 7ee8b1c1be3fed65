package samegame

import (
	"context"
	"time"
)

// Greedy clicks the largest group at every turn (the leftmost, then
// lowest, on a tie) until no click is left: the classic one-pass baseline,
// a line in microseconds that the searches must beat. Under Standard rules
// the largest group is also the one that scores most now. It never proves
// anything; it checks ctx once per click.
type Greedy struct{}

// Solve plays the greedy line on a copy of b.
func (Greedy) Solve(ctx context.Context, b *Board) (Solution, error) {
	start := time.Now()
	g := NewGame(b)
	var sol Solution
	var gs []Group
	for {
		if err := ctx.Err(); err != nil {
			return greedyEnd(g, sol, start), err
		}
		gs = g.Board().Moves(gs[:0])
		if len(gs) == 0 {
			return greedyEnd(g, sol, start), nil
		}
		best := gs[0]
		for _, c := range gs[1:] {
			if c.Size > best.Size {
				best = c
			}
		}
		if _, err := g.Play(best.Move()); err != nil {
			panic("samegame: greedy played an illegal move: " + err.Error())
		}
		sol.Nodes++
	}
}

func greedyEnd(g *Game, sol Solution, start time.Time) Solution {
	sol.Moves = g.Moves()
	sol.Clicks = len(sol.Moves)
	sol.Score = g.Score()
	sol.Cleared = g.Board().IsEmpty()
	sol.Elapsed = time.Since(start)
	return sol
}

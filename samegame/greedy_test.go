package samegame

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
)

// Greedy clicks the largest group every time: each click of its line
// removes a group as large as any on the board then, the line replays to
// its score, and it ends only when no click is left.
func TestGreedy(t *testing.T) {
	for _, rules := range []Rules{Standard, Dust} {
		b := Random(15, 15, 5, rules, rand.New(rand.NewPCG(7, uint64(rules))))
		sol, err := Greedy{}.Solve(t.Context(), b)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Replay(b, sol.Moves)
		if err != nil || res.Score != sol.Score || res.Cleared != sol.Cleared || !res.Over || sol.Clicks != len(sol.Moves) {
			t.Fatalf("%v: %+v replays to %+v (%v)", rules, sol, res, err)
		}
		g := NewGame(b)
		for i, m := range sol.Moves {
			largest := 0
			for _, c := range g.Board().Moves(nil) {
				largest = max(largest, int(c.Size))
			}
			got, err := g.Play(m)
			if err != nil || int(got.Size) != largest {
				t.Fatalf("%v: click %d removed %d cells, the largest group had %d (%v)", rules, i+1, got.Size, largest, err)
			}
		}
		if sol.Optimal {
			t.Fatalf("%v: greedy claims a proof", rules)
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	b := Random(10, 10, 4, Standard, rand.New(rand.NewPCG(1, 1)))
	if sol, err := (Greedy{}).Solve(ctx, b); !errors.Is(err, context.Canceled) || sol.Clicks != 0 {
		t.Fatalf("cancelled: %+v, %v", sol, err)
	}
}

package npuzzle

import (
	"math/rand/v2"
	"testing"
	"time"
)

func TestSolveFastAnySize(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for rows := MinSide; rows <= MaxSide; rows++ {
		for cols := MinSide; cols <= MaxSide; cols++ {
			s := Size{rows, cols}
			g := Goal((rows + cols) % 2)
			b := Random(s, g, rng)
			start := time.Now()
			sol, err := SolveFast(t.Context(), b, Options{Goal: g})
			if err != nil {
				t.Fatalf("%v %q: %v", s, b.Line(), err)
			}
			end, err := Replay(b, sol.Moves)
			if err != nil || !end.IsSolved(g) {
				t.Fatalf("%v %q: the moves do not solve it (%v)", s, b.Line(), err)
			}
			t.Logf("%v: %d moves, optimal %v, %d expanded, %v", s, len(sol.Moves), sol.Optimal, sol.Stats.Expanded, time.Since(start))
		}
	}
}

package npuzzle

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestSolveFastAnySize solves a uniformly random board of every square size
// and of a spread of other shapes, for both goals, and checks that the
// moves solve it, are optimal when they say so, and that small boards get
// shortest solutions.
func TestSolveFastAnySize(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	sizes := []Size{{2, 10}, {10, 2}, {3, 7}, {7, 3}, {4, 6}, {6, 5}, {3, 4}, {2, 5}, {9, 4}, {5, 8}}
	for side := MinSide; side <= MaxSide; side++ {
		sizes = append(sizes, Size{side, side})
	}
	for i, s := range sizes {
		for _, g := range []Goal{Goal(i % 2)} {
			b := Random(s, g, rng)
			start := time.Now()
			sol, err := Fast{}.Solve(t.Context(), b, g)
			if err != nil {
				t.Fatalf("%v %q: %v", s, b.Line(), err)
			}
			end, err := Replay(b, sol.Moves)
			if err != nil || !end.IsSolved(g) {
				t.Fatalf("%v %q: the moves do not solve it (%v)", s, b.Line(), err)
			}
			t.Logf("%v: %d moves, optimal %v, %d expanded, %v", s, len(sol.Moves), sol.Optimal, sol.Stats.Expanded, time.Since(start))
			if s.Rows*s.Cols <= 9 {
				ref, err := BFS{}.Solve(t.Context(), b, g)
				if err != nil || len(ref.Moves) != len(sol.Moves) || !sol.Optimal {
					t.Fatalf("%v %q: %d moves (optimal %v), shortest %d", s, b.Line(), len(sol.Moves), sol.Optimal, len(ref.Moves))
				}
			}
			if sol.Optimal && s.Rows*s.Cols > 9 {
				opt := IDAStar{Heuristic: Manhattan}
				if s == (Size{4, 4}) {
					d, err := builtin555(t.Context())
					if err != nil {
						t.Fatal(err)
					}
					opt.Heuristic, opt.PDB = PatternDB, d
				}
				ref, err := opt.Solve(t.Context(), b, g)
				if err != nil || len(ref.Moves) != len(sol.Moves) {
					t.Fatalf("%v %q: %d moves said optimal, shortest %d", s, b.Line(), len(sol.Moves), len(ref.Moves))
				}
			}
		}
	}
}

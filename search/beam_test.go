package search

import (
	"errors"
	"iter"
	"math/rand/v2"
	"slices"
	"testing"
)

// countdown is a finite space without a goal: from n > 0 the moves go to
// n-1 and n-2 (not below 0).
type countdown struct{}

func (countdown) Key(n int) int     { return n }
func (countdown) IsGoal(n int) bool { return n < 0 }
func (countdown) Successors(n int) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for _, d := range []int{1, 2} {
			if n-d >= 0 && !yield(d, n-d) {
				return
			}
		}
	}
}

func TestBeamEmpties(t *testing.T) {
	// Wide enough, the beam holds every state of every depth: no goal at all.
	_, err := Beam(t.Context(), countdown{}, 12, func(int) float64 { return 0 }, BeamOptions{Width: 100, Distinct: true})
	if !errors.Is(err, ErrNoSolution) {
		t.Fatalf("wide beam: %v, want ErrNoSolution", err)
	}
	res, err := Beam(t.Context(), countdown{}, 12, func(int) float64 { return 0 }, BeamOptions{Width: 2})
	if !errors.Is(err, ErrPruned) || res.Stats.Iterations == 0 {
		t.Fatalf("narrow beam: %v %+v, want ErrPruned", err, res.Stats)
	}
}

// TestBeamOrder checks the cut: the rank orders, ties keep the order of
// generation, and Distinct keeps the first of each key.
func TestBeamOrder(t *testing.T) {
	// From 9 the successors are 8 (move 1) and 7 (move 2); ranking by the
	// value itself, width 1 always takes 2, reaching 1 then 0 (no goal).
	var visits []int
	rank := func(n int) float64 { visits = append(visits, n); return float64(n) }
	res, err := Beam(t.Context(), countdown{}, 9, rank, BeamOptions{Width: 1})
	if !errors.Is(err, ErrPruned) || !slices.Equal(visits, []int{8, 7, 6, 5, 4, 3, 2, 1, 0}) || res.Stats.Iterations != 6 {
		t.Fatalf("%v, ranked %v, stats %+v", err, visits, res.Stats)
	}
	// With a goal: the numbers 1 -> 10 by +1 and *2, ranked by distance:
	// 2 (a tie, +1 first), 4, 8, 9, 10.
	g := goalNumbers{target: 10}
	r, err := Beam(t.Context(), g, 1, func(n int) float64 { return float64(abs(10 - n)) }, BeamOptions{Width: 1})
	if err != nil || !slices.Equal(r.Moves, []string{"+1", "*2", "*2", "+1", "+1"}) || r.Goal != 10 {
		t.Fatalf("moves %v goal %v: %v", r.Moves, r.Goal, err)
	}
	// Equal ranks: the first generated wins (+1 before *2); 2 is reached
	// both ways from 1 and kept once with Distinct.
	r, err = Beam(t.Context(), goalNumbers{target: 3}, 1, func(int) float64 { return 0 }, BeamOptions{Width: 2, Distinct: true})
	if err != nil || !slices.Equal(r.Moves, []string{"+1", "+1"}) {
		t.Fatalf("ties: %v %v", r.Moves, err)
	}
	if r.Stats.Generated != 3 { // 1 -> 2, 2; the cut keeps one 2; 2 -> 3, the goal
		t.Fatalf("generated %d", r.Stats.Generated)
	}
}

type goalNumbers struct{ target int }

func (goalNumbers) Key(n int) int       { return n }
func (g goalNumbers) IsGoal(n int) bool { return n == g.target }
func (goalNumbers) Successors(n int) iter.Seq2[string, int] {
	return func(yield func(string, int) bool) {
		_ = yield("+1", n+1) && yield("*2", 2*n)
	}
}

// TestBeamFindsLongerPathsWhenNarrow checks that a narrow beam on mazes
// returns valid paths, never shorter than the shortest.
func TestBeamNarrowOnMazes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	found := 0
	for range 40 {
		m := randomMaze(rng, 8, 8, 0.25)
		want := m.distances()[0]
		res, err := Beam(t.Context(), m, 0, func(s int) float64 { return float64(m.manhattan(s)) },
			BeamOptions{Width: 3, Distinct: true, Options: Options{MaxExpanded: 5000}})
		if err != nil {
			continue
		}
		found++
		if m.follow(0, res.Moves) != m.goal || len(res.Moves) < want {
			t.Fatalf("path %q of length %d, shortest %d", res.Moves, len(res.Moves), want)
		}
	}
	if found < 10 {
		t.Fatalf("width 3 found only %d paths", found)
	}
}

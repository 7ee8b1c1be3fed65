package mcts

import (
	"context"
	"math"
	"testing"
)

// TestNRPALevelIsNRPA: a level search from the empty policy is NRPA's
// search with the same seed (no restart): same score, same playouts.
func TestNRPALevelIsNRPA(t *testing.T) {
	g := newTarget(20, 4, 1)
	opts := NRPAOptions{Level: 2, Iterations: 60, Budget: Budget{Seed: 3}}
	want, err := NRPA(t.Context(), g, opts)
	if err != nil {
		t.Fatal(err)
	}
	got, err := NRPALevel(t.Context(), g, 2, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got.Score != want.Score || got.Stats.Playouts != want.Stats.Playouts || replay(t, g, got.Moves) != got.Score {
		t.Fatalf("NRPALevel %v (%d playouts), NRPA %v (%d)", got.Score, got.Stats.Playouts, want.Score, want.Stats.Playouts)
	}
	// Level 0 is one playout.
	if r, err := NRPALevel(t.Context(), g, 0, nil, opts); err != nil || r.Stats.Playouts != 1 || replay(t, g, r.Moves) != r.Score {
		t.Fatalf("level 0: %+v %v", r, err)
	}
}

// TestAdaptPolicyIsAdapt: AdaptPolicy on a plain map gives exactly the
// weights of NRPA's own adaptation, twice in a row.
func TestAdaptPolicyIsAdapt(t *testing.T) {
	g := newTarget(12, 5, 2)
	s := &nrpa[*target, int]{run: newRun[int](context.Background(), Budget{Seed: 5}, 1), opts: NRPAOptions{Alpha: 1}, root: g, state: g.Clone()}
	s.pols = make([]policy, 2)
	pol := NRPAPolicy{}
	for range 2 {
		s.playout(&s.pols[1])
		var r record[int]
		r.copyFrom(&s.cur)
		if err := AdaptPolicy(g, pol, r.moves, 1); err != nil {
			t.Fatal(err)
		}
		s.adapt(&s.pols[1], &r)
	}
	if len(pol) != s.pols[1].n {
		t.Fatalf("%d codes, NRPA %d", len(pol), s.pols[1].n)
	}
	for c, w := range pol {
		if e := s.pols[1].exp(c); e != math.Exp(w) {
			t.Fatalf("code %d: exp %v, NRPA %v", c, math.Exp(w), e)
		}
	}
	if err := AdaptPolicy(g, pol, []int{0, 1, 9}, 1); err == nil {
		t.Fatal("illegal move accepted")
	}
}

// TestDistributedRootFindsOptimum: a root level that sends its policy to
// level-1 searches four at a time (each with its own seed) and adapts after
// each result, as a distributed NRPA does, finds the optimum.
func TestDistributedRootFindsOptimum(t *testing.T) {
	g := newTarget(20, 4, 1)
	pol := NRPAPolicy{}
	best := Result[int]{Score: math.Inf(-1)}
	for it := 0; it < 60; it += 4 {
		var round []Result[int]
		for j := range 4 {
			r, err := NRPALevel(t.Context(), g, 1, pol, NRPAOptions{Iterations: 60, Budget: Budget{Seed: uint64(it + j)}})
			if err != nil {
				t.Fatal(err)
			}
			round = append(round, r)
		}
		for _, r := range round {
			if r.Score >= best.Score {
				best = r
			}
			if err := AdaptPolicy(g, pol, best.Moves, 1); err != nil {
				t.Fatal(err)
			}
		}
	}
	if best.Score != 120 || replay(t, g, best.Moves) != 120 {
		t.Fatalf("best %v", best.Score)
	}
}

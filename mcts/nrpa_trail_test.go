package mcts

import (
	"slices"
	"testing"
)

// TestNRPATrail: walking the last playout's trail changes nothing: with and
// without it, NRPA (plain, stabilized, a portfolio of roots) improves its
// best through the same sequences and ends with the same playouts.
func TestNRPATrail(t *testing.T) {
	type improvement struct {
		score float64
		moves []int
	}
	run := func(roots []*target, opts NRPAOptions, trail bool) ([]improvement, Result[int]) {
		noTrail = !trail
		defer func() { noTrail = false }()
		var seen []improvement
		opts.Improved = func(best float64, seq any) {
			seen = append(seen, improvement{best, slices.Clone(seq.([]int))})
		}
		res, err := NRPARoots(t.Context(), roots, opts)
		if err != nil {
			t.Fatal(err)
		}
		return seen, res
	}
	hidden := newTarget(30, 3, 2)
	hidden.hide = 2
	for i, c := range []struct {
		roots []*target
		opts  NRPAOptions
	}{
		{[]*target{newTarget(40, 4, 1)}, NRPAOptions{Level: 2, Iterations: 40, Budget: Budget{Seed: 1}}},
		{[]*target{newTarget(25, 6, 3)}, NRPAOptions{Level: 3, Iterations: 12, Stabilize: 2, Budget: Budget{Seed: 2}}},
		{[]*target{newTarget(30, 3, 2), hidden}, NRPAOptions{Level: 2, Iterations: 30, Round: 3, Budget: Budget{Seed: 4}}},
	} {
		a, ra := run(c.roots, c.opts, true)
		b, rb := run(c.roots, c.opts, false)
		if ra.Stats.Playouts != rb.Stats.Playouts || ra.Score != rb.Score || !slices.Equal(ra.Moves, rb.Moves) {
			t.Fatalf("case %d: with the trail %v after %d playouts, without %v after %d", i, ra.Moves, ra.Stats.Playouts, rb.Moves, rb.Stats.Playouts)
		}
		if len(a) != len(b) || len(a) < 3 {
			t.Fatalf("case %d: %d improvements with the trail, %d without", i, len(a), len(b))
		}
		for k := range a {
			if a[k].score != b[k].score || !slices.Equal(a[k].moves, b[k].moves) {
				t.Fatalf("case %d: improvement %d: %v with the trail, %v without", i, k, a[k], b[k])
			}
		}
	}
}

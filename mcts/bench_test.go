package mcts

import (
	"context"
	"testing"
)

// BenchmarkTreeThink measures UCT iterations (selection, expansion, a
// uniform playout, backup) of a stepping tree on a 20-step game of 4
// symbols, 2,000 iterations per move.
func BenchmarkTreeThink(b *testing.B) {
	g := newTarget(20, 4, 1)
	b.ReportAllocs()
	iters := int64(0)
	for b.Loop() {
		t := NewTree(g, TreeOptions[*target, int]{Budget: Budget{Seed: 1}})
		for len(t.State().Moves(nil)) > 0 {
			if err := t.Think(context.Background(), 2000); err != nil {
				b.Fatal(err)
			}
			if err := t.Advance(t.Best()); err != nil {
				b.Fatal(err)
			}
		}
		iters += t.Stats().Iterations
	}
	b.ReportMetric(float64(iters)/b.Elapsed().Seconds(), "iterations/s")
}

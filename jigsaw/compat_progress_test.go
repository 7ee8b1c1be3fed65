package jigsaw

import (
	"context"
	"math"
	"testing"
)

// TestCompatProgress: progress is reported in order, one call at a time,
// ends with every pair of pieces done, and does not change the result.
func TestCompatProgress(t *testing.T) {
	pz, _ := Scramble([]*Grid{loadGrid(t, "mit5-crop.png"), loadGrid(t, "bgu10-crop.png")}, ScrambleOptions{Rotate: true, Seed: 3})
	n := len(pz.Pieces)
	var got []CompatProgress
	c, err := NewCompat(context.Background(), pz, CompatOptions{Workers: 3, Progress: func(p CompatProgress) { got = append(got, p) }})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := NewCompat(context.Background(), pz, CompatOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	total := int64(n) * int64(n-1) / 2
	if len(got) != (n+pairBlock-1)/pairBlock {
		t.Fatalf("%d progress calls for %d pieces", len(got), n)
	}
	for k, p := range got {
		if p.Pieces != n || p.Total != total || (k > 0 && p.Done <= got[k-1].Done) {
			t.Fatalf("call %d: %+v", k, p)
		}
	}
	if last := got[len(got)-1]; last.Done != total {
		t.Fatalf("last call %+v, want %d done", last, total)
	}
	if c.Mean() != plain.Mean() {
		t.Fatalf("means %g and %g", c.Mean(), plain.Mean())
	}
	for i := range n {
		for a := range Side(4) {
			x, y := c.Candidates(i, a), plain.Candidates(i, a)
			if len(x) != len(y) {
				t.Fatalf("(%d, %v): %d and %d candidates", i, a, len(x), len(y))
			}
			for k := range x {
				if x[k] != y[k] {
					t.Fatalf("(%d, %v): candidate %d differs", i, a, k)
				}
			}
		}
	}
}

// TestCompatPrune: with the lower bound rejecting pairings (as for puzzles
// of prunePieces pieces and more), the candidate lists are the same and
// the mean in closed form agrees with the sum over every pairing, with
// and without the prediction term.
func TestCompatPrune(t *testing.T) {
	grids := []*Grid{loadGrid(t, "mit5-crop.png"), loadGrid(t, "bgu10-crop.png")}
	for _, c := range []struct {
		rotate bool
		pred   float64
	}{{false, 0}, {true, 0}, {true, PredWeight}, {true, 1}} {
		rotate := c.rotate
		pz, _ := Scramble(grids, ScrambleOptions{Rotate: rotate, Seed: 7})
		full, err := NewCompat(context.Background(), pz, CompatOptions{MaxDenseBytes: -1, K: 4, Pred: c.pred})
		if err != nil {
			t.Fatal(err)
		}
		func() {
			defer func(v int) { prunePieces = v }(prunePieces)
			prunePieces = 1
			pruned, err := NewCompat(context.Background(), pz, CompatOptions{MaxDenseBytes: -1, K: 4, Workers: 2, Pred: c.pred})
			if err != nil {
				t.Fatal(err)
			}
			if !pruned.prune || full.prune {
				t.Fatal("pruning not as set")
			}
			if d := math.Abs(pruned.Mean()/full.Mean() - 1); d > 1e-5 {
				t.Fatalf("rotate %v: means %g and %g", rotate, pruned.Mean(), full.Mean())
			}
			for i := range pz.Pieces {
				for a := range Side(4) {
					x, y := pruned.Candidates(i, a), full.Candidates(i, a)
					if len(x) != len(y) {
						t.Fatalf("(%d, %v): %d and %d candidates", i, a, len(x), len(y))
					}
					for k := range x {
						if x[k] != y[k] {
							t.Fatalf("rotate %v (%d, %v): candidate %d %+v, want %+v", rotate, i, a, k, x[k], y[k])
						}
					}
				}
			}
		}()
	}
}

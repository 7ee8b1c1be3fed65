package jigsaw

import (
	"context"
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

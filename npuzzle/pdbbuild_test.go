package npuzzle

import (
	"bytes"
	"testing"
)

// TestBuildTableCombsMatchesGroups builds tables with both constructions,
// the BFS by combinations of buildTableCombs and the two-bit-field BFS of
// buildTableGroups that built every table before it, and compares them
// byte for byte, with their states, depth and clamped counts (which the
// cache file's header records). The two 6-tile tables of 6-6-3 are
// compared with TESSERA_TEST_FULL=1 (CI); the 7-8 tables were compared
// once by hand (docs/results/npuzzle.md).
func TestBuildTableCombsMatchesGroups(t *testing.T) {
	cases := []struct {
		size  Size
		tiles []int
	}{
		{Size{2, 3}, []int{1, 2}},
		{Size{2, 3}, []int{1, 2, 3, 4, 5}}, // every tile: parity leaves half the placements unset
		{Size{3, 3}, []int{1, 2, 3, 4}},
		{Size{3, 3}, []int{5, 6, 7, 8}},
		{Size{3, 3}, []int{1, 2, 3, 4, 5, 6, 7, 8}},
		{Size{3, 4}, []int{1, 4, 6, 11}},
		{Size{3, 4}, []int{1, 2, 3, 5, 6, 7}},
		{Size{4, 4}, []int{13, 14, 15}},
		{Size{4, 4}, []int{1, 4, 5, 8, 9}},
		{Size{4, 4}, []int{11, 12, 13, 14, 15}},
		{Size{4, 4}, []int{1, 4, 5, 8, 9, 12}}, // 6-6-3's first table
		{Size{4, 4}, []int{2, 3, 6, 7, 10, 11}},
	}
	if !fullTests() { // the 6-tile tables take the old construction most of a minute
		cases = cases[:len(cases)-2]
	}
	for _, c := range cases {
		old, err := buildTableGroups(t.Context(), c.size, c.tiles, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 3} {
			got, err := buildTableCombs(t.Context(), c.size, c.tiles, workers, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.data, old.data) {
				for i := range old.entries() {
					if got.get(i) != old.get(i) {
						t.Fatalf("%v %v, %d workers: entry %d is %d, the old construction gives %d", c.size, c.tiles, workers, i, got.get(i), old.get(i))
					}
				}
				t.Fatalf("%v %v, %d workers: the tables differ", c.size, c.tiles, workers)
			}
			if got.states != old.states || got.depth != old.depth || got.clamped != old.clamped {
				t.Fatalf("%v %v, %d workers: states %d, depth %d, clamped %d; the old construction: %d, %d, %d",
					c.size, c.tiles, workers, got.states, got.depth, got.clamped, old.states, old.depth, old.clamped)
			}
		}
	}
}

// BenchmarkBuildTable builds 6-6-3's first table (5.8 million placements,
// 11.8 million states) with one worker.
func BenchmarkBuildTable(b *testing.B) {
	for b.Loop() {
		if _, err := buildTable(b.Context(), Size{4, 4}, []int{1, 4, 5, 8, 9, 12}, 1, nil); err != nil {
			b.Fatal(err)
		}
	}
}

package npuzzle

import (
	"slices"
	"strings"
	"testing"
)

// TestCatalogueOn8Puzzle checks on every solvable 3x3 board that a
// catalogue's estimate is the largest of its partitions' estimates (plain
// and zero-aware), that a pattern found in two partitions has one table,
// and that IDA* with the catalogue finds shortest solutions.
func TestCatalogueOn8Puzzle(t *testing.T) {
	parts := []string{"1,2,3,4/5,6,7,8", "1,3,5,7/2,4,6/8", "1,2,3,4/5,7/6,8"}
	for _, zero := range []string{"", "+zero"} {
		text := strings.Join(parts, ";") + zero
		g := BlankFirst
		cat, err := ParsePartition(text, Size{3, 3}, g)
		if err != nil || !slices.Equal(cat.Parts, []int{2, 3, 3}) || len(cat.Patterns) != 8 || cat.Zero != (zero != "") {
			t.Fatalf("%s: %+v, %v", text, cat, err)
		}
		if got := len(cat.TablePatterns()); got != 7 { // 1,2,3,4 twice
			t.Fatalf("%s: %d tables, want 7", text, got)
		}
		d, err := LoadPDB(t.Context(), cat, PDBOptions{NoCache: true})
		if err != nil {
			t.Fatal(err)
		}
		if info := d.Tables()[5]; info.Derived != "table 1 (the same pattern)" {
			t.Fatalf("%s: pattern 6 %+v", text, info)
		}
		var each []*PDB
		for _, p := range parts {
			part, err := ParsePartition(p+zero, Size{3, 3}, g)
			if err != nil {
				t.Fatal(err)
			}
			e, err := LoadPDB(t.Context(), part, PDBOptions{NoCache: true})
			if err != nil {
				t.Fatal(err)
			}
			each = append(each, e)
		}
		dist := distances(t, Size{3, 3}, g)
		est := d.stringEstimate(g)
		above := 0
		for st, want := range dist {
			b := &Board{rows: 3, cols: 3, cells: []uint8(st)}
			b.blank = strings.IndexByte(st, 0)
			h, best := d.Estimate(b, g), 0
			for _, e := range each {
				best = max(best, e.Estimate(b, g))
			}
			if h != best || h > want || h != est(st) {
				t.Fatalf("%s %q: catalogue %d, best partition %d, distance %d", text, b.Line(), h, best, want)
			}
			if h > each[0].Estimate(b, g) {
				above++
			}
		}
		if above == 0 {
			t.Fatalf("%s: never above its first partition", text)
		}
		checkOptimal3x3(t, text, d, g, dist, 6)
	}
	for _, bad := range []string{"1,2,3,4/5,6,7,8;7-8", "1,2/3,4;5,6;7,8;1;2", "1,2+zero;3,4"} {
		if _, err := ParsePartition(bad, Size{3, 3}, BlankFirst); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

package npuzzle

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unsafe"
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

// TestCombPlacerRoundTrip places permutations of every combination, in
// order (the placer's incremental path, with gaps) and at random (its full
// path), and checks that index gives each back, and that the copy's
// prefixes place the tiles where rank's unrank does.
func TestCombPlacerRoundTrip(t *testing.T) {
	for _, c := range []struct {
		size  Size
		tiles []int
	}{
		{Size{3, 3}, []int{1, 2, 3, 4}},
		{Size{3, 4}, []int{1, 4, 6, 11, 2}},
		{Size{3, 3}, []int{1, 2, 3, 4, 5, 6, 7}},
		{Size{2, 3}, []int{1, 2, 3, 4, 5}},
		{Size{4, 4}, []int{3}},
	} {
		tb := newPatternTable(c.size, c.tiles)
		b := newCombBuilder(tb)
		w := &combWorker{combBuilder: b, c: -1}
		rng := rand.New(rand.NewPCG(1, uint64(len(c.tiles))))
		for ci := range b.combs {
			w.setComb(ci)
			var perms []int64
			for p := int64(0); p < b.kf; p += 1 + rng.Int64N(3) {
				perms = append(perms, p)
			}
			for range 20 {
				perms = append(perms, rng.Int64N(b.kf))
			}
			for _, perm := range perms {
				md := w.pl.place(perm)
				gc, gp := b.index(w.pl.pos[:b.k])
				if gc != ci || gp != perm {
					t.Fatalf("%v %v: combination %d permutation %d placed at %v, which index numbers %d, %d", c.size, c.tiles, ci, perm, w.pl.pos[:b.k], gc, gp)
				}
				want := 0
				for i, tile := range tb.tiles {
					want += tb.dist(int(w.pl.pos[i]), int(tile))
					if w.pl.tileAt[w.pl.pos[i]] != uint8(i) {
						t.Fatalf("%v %v: tileAt of cell %d is %d, not %d", c.size, c.tiles, w.pl.pos[i], w.pl.tileAt[w.pl.pos[i]], i)
					}
				}
				if md != want {
					t.Fatalf("%v %v: placement %v: distance %d, want %d", c.size, c.tiles, w.pl.pos[:b.k], md, want)
				}
			}
		}
		// The copy: entry P of the search's order holds P mod 15, so that
		// each entry of rank's order says where the copy read it.
		np := tb.entries()
		nib64 := make([]uint64, (b.np+15)/16)
		b.nib = unsafe.Slice((*uint32)(unsafe.Pointer(&nib64[0])), len(nib64)*2)
		for P := range b.np {
			b.nib[P>>3] |= uint32(P%15) << ((P & 7) << 2)
		}
		data := make([]byte, (np+1)/2)
		b.toFileOrder(data, np, 3)
		tb.data = data
		ub := &builder{n: tb.n, k: b.k}
		for i := range b.k {
			ub.magic[i] = ^uint64(0)/uint64(tb.n-i) + 1
		}
		pos := make([]uint8, b.k)
		for p := range np {
			ub.unrank(p, pos)
			ci, perm := b.index(pos)
			if want := uint8((int64(ci)*b.kp + perm) % 15); tb.get(p) != want {
				t.Fatalf("%v %v: placement %d %v copied %d, want %d", c.size, c.tiles, p, pos, tb.get(p), want)
			}
		}
	}
}

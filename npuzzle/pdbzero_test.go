package npuzzle

import (
	"slices"
	"strings"
	"testing"
)

// TestZoneTableMatchesExplicitSearch compares zero-aware tables with the
// explicit 0-1 search over (placement, blank cell): every value is the
// cost of that state, but where the blank's cell adds more than
// zoneMaxExtra pairs of moves to the placement's least cost (then the
// table keeps the lower bound least + 2*zoneMaxExtra). The least value
// over the blank's cells is the plain table's entry.
func TestZoneTableMatchesExplicitSearch(t *testing.T) {
	above, capped := 0, 0
	for _, c := range explicitCases {
		want := explicitZoneDistances(c.size, c.tiles)
		least := explicitPatternDistances(c.size, c.tiles)
		plain, err := buildTableGroups(t.Context(), c.size, c.tiles, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 3} {
			tb, err := buildGroups(t.Context(), c.size, c.tiles, workers, true, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tb.data != nil || int64(len(tb.zone)) != tb.entries() || tb.states != plain.states || tb.depth != plain.depth {
				t.Fatalf("%v %v: zone table %d words, %d states, depth %d; plain %d states, depth %d",
					c.size, c.tiles, len(tb.zone), tb.states, tb.depth, plain.states, plain.depth)
			}
			pos := make([]uint8, len(c.tiles))
			for st, d := range want {
				copy(pos, st.pos)
				md := 0
				for i, tile := range c.tiles {
					md += tb.dist(int(pos[i]), tile)
				}
				r := rank(tb.n, pos)
				got := md + 2*tb.zoneEntry(r, st.blank)
				min := least[st.pos]
				if int(tb.zone[r]>>zoneEntryShift) != int(plain.get(r)) {
					t.Fatalf("%v %v, placement %v: zone entry %d, plain %d", c.size, c.tiles, pos, tb.zone[r]>>zoneEntryShift, plain.get(r))
				}
				exact := d <= min+2*zoneMaxExtra
				if (exact && got != d) || (!exact && got != min+2*zoneMaxExtra) {
					t.Fatalf("%v %v, placement %v, blank %d: table gives %d, explicit search %d (least %d)", c.size, c.tiles, pos, st.blank, got, d, min)
				}
				if workers == 1 && d > min {
					above++
				}
				if workers == 1 && !exact {
					capped++
				}
			}
		}
	}
	t.Logf("%d states cost more than their placement's least, %d of them capped", above, capped)
	if above == 0 {
		t.Fatal("no state where the blank's cell matters: the cases test nothing")
	}
}

// TestZeroPDBOn8Puzzle checks on every solvable 3x3 board that the
// zero-aware PDB is admissible, has the parity of the distance, is never
// below the plain PDB of the same partition and is above it somewhere, and
// that IDA* with it finds shortest solutions; and that its tables go through
// the cache unchanged.
func TestZeroPDBOn8Puzzle(t *testing.T) {
	for _, text := range []string{"1,2,3,4/5,6,7,8", "1,3,5,7/2,4,6/8"} {
		for _, g := range []Goal{BlankLast, BlankFirst} {
			part, err := ParsePartition(text+"+zero", Size{3, 3}, g)
			if err != nil || !part.Zero || part.Name != text+"+zero" {
				t.Fatalf("%s: %+v, %v", text, part, err)
			}
			plainPart, _ := ParsePartition(text, Size{3, 3}, g)
			dir := t.TempDir()
			z, err := LoadPDB(t.Context(), part, PDBOptions{CacheDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			again, err := LoadPDB(t.Context(), part, PDBOptions{CacheDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			for i, info := range again.Tables() {
				if info.Derived == "" && (info.Built || !strings.HasSuffix(info.Path, ".zpdb") || !slices.Equal(again.refs[i].t.zone, z.refs[i].t.zone)) {
					t.Fatalf("%s: table %d read back %+v, not the table built", text, i, info)
				}
			}
			list, err := ListPDBCache(dir)
			if err != nil || len(list) != len(part.TablePatterns()) || !part.Cached(list) || plainPart.Cached(list) {
				t.Fatalf("%s: ListPDBCache %+v, %v", text, list, err)
			}
			for _, c := range list {
				if !c.Zero || c.Err != nil || !strings.HasSuffix(c.Path, ".zpdb") {
					t.Fatalf("%s: listed %+v", text, c)
				}
			}
			d, err := LoadPDB(t.Context(), plainPart, PDBOptions{NoCache: true})
			if err != nil {
				t.Fatal(err)
			}
			dist := distances(t, Size{3, 3}, g)
			est := again.stringEstimate(g)
			sum, plainSum := 0, 0
			for st, want := range dist {
				b := &Board{rows: 3, cols: 3, cells: []uint8(st)}
				b.blank = strings.IndexByte(st, 0)
				h, hp := again.Estimate(b, g), d.Estimate(b, g)
				if h > want || (want-h)%2 != 0 || h < hp || h != est(st) {
					t.Fatalf("%s %v %q: zero-aware PDB %d, plain %d, distance %d", text, g, b.Line(), h, hp, want)
				}
				sum += h
				plainSum += hp
			}
			if sum <= plainSum {
				t.Fatalf("%s %v: zero-aware sum %d, plain %d: no gain", text, g, sum, plainSum)
			}
			t.Logf("%s %v: mean zero-aware PDB %.3f, plain %.3f", text, g, float64(sum)/float64(len(dist)), float64(plainSum)/float64(len(dist)))
			checkOptimal3x3(t, text, again, g, dist, 5)
		}
	}
}

// A worker's build limit must see the zero-aware table's larger build.
func TestZeroPartitionBuildBytes(t *testing.T) {
	s := Size{Rows: 5, Cols: 5}
	plain, err := PartitionFor("6-6-6-6", s, BlankFirst)
	if err != nil {
		t.Fatal(err)
	}
	zero, err := PartitionFor("6-6-6-6+zero", s, BlankFirst)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := plain.BuildBytes(6), TableBuildBytes(s, 6); got != want {
		t.Errorf("plain BuildBytes(6) = %d, want TableBuildBytes %d", got, want)
	}
	if z, p := zero.BuildBytes(6), plain.BuildBytes(6); z <= p {
		t.Errorf("zero-aware BuildBytes(6) = %d, not above the plain %d", z, p)
	}
}

package npuzzle

import (
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// explicitPatternDistances computes a pattern table the slow, obvious way:
// a 0-1 breadth-first search over (tile positions, blank cell) from the
// goal, where moving the blank onto a free cell costs 0 and swapping it with
// a pattern tile costs 1. It returns, for each placement (as a string of
// positions), the least cost over blank cells, and the number of states.
func explicitPatternDistances(s Size, tiles []int) map[string]int {
	best := map[string]int{}
	for st, d := range explicitZoneDistances(s, tiles) {
		if old, ok := best[st.pos]; !ok || d < old {
			best[st.pos] = d
		}
	}
	return best
}

// zoneState is an explicit abstract state: the pattern's tile positions
// and the blank's cell.
type zoneState struct {
	pos   string
	blank int
}

// explicitZoneDistances is the 0-1 search of explicitPatternDistances: the
// cost of every (placement, blank cell) state.
func explicitZoneDistances(s Size, tiles []int) map[zoneState]int {
	type state = zoneState
	start := make([]byte, len(tiles))
	for i, t := range tiles {
		start[i] = byte(t)
	}
	dist := map[state]int{}
	level := []state{{string(start), 0}}
	for d := 0; len(level) > 0; d++ {
		var next []state
		for len(level) > 0 {
			st := level[len(level)-1]
			level = level[:len(level)-1]
			if _, done := dist[st]; done {
				continue
			}
			dist[st] = d
			r, c := st.blank/s.Cols, st.blank%s.Cols
			for _, nb := range [][2]int{{r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}} {
				if nb[0] < 0 || nb[0] >= s.Rows || nb[1] < 0 || nb[1] >= s.Cols {
					continue
				}
				cell := nb[0]*s.Cols + nb[1]
				if i := indexByte(st.pos, byte(cell)); i >= 0 {
					p := []byte(st.pos)
					p[i] = byte(st.blank)
					next = append(next, state{string(p), cell}) // a pattern tile moves: cost 1
				} else {
					level = append(level, state{st.pos, cell}) // the blank alone: free
				}
			}
		}
		level = next
	}
	return dist
}

func indexByte(s string, b byte) int {
	for i := range len(s) {
		if s[i] == b {
			return i
		}
	}
	return -1
}

// explicitCases are the patterns whose tables the tests compare with the
// explicit search.
var explicitCases = []struct {
	size  Size
	tiles []int
}{
	{Size{2, 3}, []int{1, 2}},
	{Size{3, 3}, []int{1, 2, 3}},
	{Size{3, 3}, []int{4, 5, 7, 8}},
	{Size{3, 3}, []int{1, 3, 5, 7}},
	{Size{4, 4}, []int{1, 2, 3}},
	{Size{4, 4}, []int{5, 10, 15}},
	{Size{3, 4}, []int{1, 4, 6, 11}},
}

func TestPatternTableMatchesExplicitSearch(t *testing.T) {
	for _, c := range explicitCases {
		want := explicitPatternDistances(c.size, c.tiles)
		for _, workers := range []int{1, 3} {
			tb, err := buildTable(t.Context(), c.size, c.tiles, workers, nil)
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(want)) != tb.entries() {
				t.Fatalf("%v %v: explicit search reached %d placements, table has %d", c.size, c.tiles, len(want), tb.entries())
			}
			pos := make([]uint8, len(c.tiles))
			for p, d := range want {
				copy(pos, p)
				md := 0
				for i, tile := range c.tiles {
					md += tb.dist(int(pos[i]), tile)
				}
				got := md + 2*int(tb.get(rank(tb.n, pos)))
				if got != d {
					t.Fatalf("%v %v, placement %v: table gives %d, explicit search %d", c.size, c.tiles, pos, got, d)
				}
			}
		}
	}
}

// TestPDBAdmissibleOn8Puzzle checks, on every solvable 3x3 board and for
// both goals, that the additive PDB with reflection is admissible, has the
// parity of the true distance and never falls below Manhattan distance
// (it need not be consistent: a table holds the least value over the
// blank's positions), and that the specialised IDA* with it finds shortest
// solutions.
func TestPDBAdmissibleOn8Puzzle(t *testing.T) {
	for _, text := range []string{"1,2,3,4/5,6,7,8", "1,3,5,7/2,4,6/8"} {
		for _, g := range []Goal{BlankLast, BlankFirst} {
			part, err := ParsePartition(text, Size{3, 3}, g)
			if err != nil {
				t.Fatal(err)
			}
			d, err := LoadPDB(t.Context(), part, PDBOptions{NoCache: true})
			if err != nil {
				t.Fatal(err)
			}
			dist := distances(t, Size{3, 3}, g)
			sp := newSpace(Size{3, 3}, g)
			est := d.stringEstimate(g)
			sum, exact := 0, 0
			for st, want := range dist {
				b := &Board{rows: 3, cols: 3, cells: []uint8(st)}
				b.blank = strings.IndexByte(st, 0)
				h := d.Estimate(b, g)
				md := sp.table.manhattan(st)
				if h > want || (want-h)%2 != 0 || h < md || h != est(st) {
					t.Fatalf("%s %v %q: PDB %d, Manhattan %d, distance %d", text, g, b.Line(), h, md, want)
				}
				sum += h
				if h == want {
					exact++
				}
			}
			t.Logf("%s %v: mean PDB %.2f, exact on %d of %d boards", text, g, float64(sum)/float64(len(dist)), exact, len(dist))
			checkOptimal3x3(t, text, d, g, dist, 3)
		}
	}
}

// TestPDBSolverAgreesWithAStar solves random 4x4 boards of modest
// difficulty with the specialised IDA* and the 5-5-5 PDB (built in a
// temporary cache) and with the generic A* and linear conflict.
func TestPDBSolverAgreesWithAStar(t *testing.T) {
	part, err := ParsePartition("5-5-5", Size{}, BlankLast)
	if err != nil {
		t.Fatal(err)
	}
	d, err := LoadPDB(t.Context(), part, PDBOptions{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(4, 4))
	for i := range 12 {
		g := Goal(i % 2)
		b := RandomWalk(Size{4, 4}, g, 60, rng)
		ref, err := AStar{Heuristic: LinearConflict}.Solve(t.Context(), b, g)
		if err != nil {
			t.Fatal(err)
		}
		sol, err := IDAStar{Heuristic: PatternDB, PDB: d}.Solve(t.Context(), b, g)
		if err != nil || len(sol.Moves) != len(ref.Moves) || !sol.Optimal {
			t.Fatalf("board %d %q %v: PDB IDA* %d moves (%v), A* %d", i, b.Line(), g, len(sol.Moves), err, len(ref.Moves))
		}
		if end, err := Replay(b, sol.Moves); err != nil || !end.IsSolved(g) {
			t.Fatalf("board %d: moves do not solve it", i)
		}
		if h := d.Estimate(b, g); h > len(ref.Moves) || h < Estimate(b, g, Manhattan) {
			t.Fatalf("board %d: PDB %d, optimal %d", i, h, len(ref.Moves))
		}
	}
}

func TestPDBCache(t *testing.T) {
	dir := t.TempDir()
	part, err := ParsePartition("1,2,3/4,5,6,7", Size{4, 4}, BlankFirst)
	if err != nil {
		t.Fatal(err)
	}
	load := func(opts PDBOptions) *PDB {
		t.Helper()
		opts.CacheDir = dir
		d, err := LoadPDB(t.Context(), part, opts)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	reasons := func(d *PDB) string {
		var out []string
		for _, ti := range d.Tables() {
			if ti.Built {
				out = append(out, "built: "+ti.Reason)
			} else {
				out = append(out, "cached")
			}
		}
		return strings.Join(out, ", ")
	}
	// A temporary file of a writer killed an hour ago is cleaned up.
	stale := dir + "/." + tableFileName(part.Size, part.Patterns[0], false) + ".123"
	os.WriteFile(stale, []byte("partial"), 0o644)
	os.Chtimes(stale, time.Now().Add(-2*time.Hour), time.Now().Add(-2*time.Hour))
	first := load(PDBOptions{})
	if _, err := os.Stat(stale); err == nil {
		t.Error("the stale temporary file is still there")
	}
	if got := reasons(first); got != "built: missing, built: missing" {
		t.Fatalf("first load: %s", got)
	}
	if got := reasons(load(PDBOptions{})); got != "cached, cached" {
		t.Fatalf("second load: %s", got)
	}
	b := mustParse(t, "15 14 13 12/11 10 9 8/7 6 5 4/3 2 1 0")
	want := first.Estimate(b, BlankFirst)

	path := first.Tables()[1].Path
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	corrupt := func(name string, mutate func([]byte) []byte, reason string) {
		t.Helper()
		if err := os.WriteFile(path, mutate(slices.Clone(data)), 0o644); err != nil {
			t.Fatal(err)
		}
		d := load(PDBOptions{})
		if got := reasons(d); got != "cached, built: corrupt: "+reason {
			t.Fatalf("%s: %s", name, got)
		}
		if d.Estimate(b, BlankFirst) != want {
			t.Fatalf("%s: the rebuilt table gives another estimate", name)
		}
		if got := reasons(load(PDBOptions{})); got != "cached, cached" {
			t.Fatalf("%s: after the rebuild: %s", name, got)
		}
	}
	corrupt("flipped bit", func(b []byte) []byte { b[len(b)/2] ^= 4; return b }, "checksum mismatch")
	corrupt("truncated", func(b []byte) []byte { return b[:len(b)-100] }, "truncated")
	corrupt("longer", func(b []byte) []byte { return append(b, 0) }, "wrong length")
	corrupt("old version", func(b []byte) []byte { b[8]++; return b }, "another version or pattern")
	corrupt("not a table", func(b []byte) []byte { return []byte("hello") }, "short header")
	corrupt("empty", func(b []byte) []byte { return nil }, "short header")

	if got := reasons(load(PDBOptions{Rebuild: true})); got != "built: rebuild, built: rebuild" {
		t.Fatalf("rebuild: %s", got)
	}
	list, err := ListPDBCache(dir)
	if err != nil || len(list) != 2 {
		t.Fatalf("list: %v %v", list, err)
	}
	for _, c := range list {
		if c.Err != nil || c.Size != (Size{4, 4}) {
			t.Fatalf("list: %+v", c)
		}
	}
	other, _ := ParsePartition("6-6-3", Size{}, BlankFirst)
	if !part.Cached(list) || other.Cached(list) {
		t.Fatalf("Cached: %v for %s, %v for 6-6-3", part.Cached(list), part.Name, other.Cached(list))
	}
	os.WriteFile(path, []byte("junk"), 0o644)
	if list, _ := ListPDBCache(dir); list[1].Err == nil || part.Cached(list) {
		t.Fatalf("list did not notice a corrupt file: %+v", list[1])
	}
	// A cache that cannot be written is not an error.
	d, err := LoadPDB(t.Context(), part, PDBOptions{CacheDir: "/dev/null/nowhere"})
	if err != nil || !strings.Contains(d.Tables()[0].Reason, "not cached") || d.Estimate(b, BlankFirst) != want {
		t.Fatalf("unwritable cache: %v %+v", err, d.Tables())
	}
}

func TestParsePartition(t *testing.T) {
	p, err := ParsePartition("7-8", Size{}, BlankLast)
	if err != nil || p.Size != (Size{4, 4}) || len(p.Patterns) != 2 || len(p.Patterns[1]) != 8 {
		t.Fatalf("7-8: %+v %v", p, err)
	}
	// Blank-last tiles are renamed n-t: 1,2 on a 3x3 board are 8,7.
	p, err = ParsePartition("1,2/3", Size{3, 3}, BlankLast)
	if err != nil || !slices.Equal(p.Patterns[0], []int{7, 8}) || !slices.Equal(p.Patterns[1], []int{6}) {
		t.Fatalf("custom: %+v %v", p, err)
	}
	for _, c := range []struct{ text, size, want string }{
		{"7-8", "5x5", "is for 4x4 boards"},
		{"1,2,x", "3x3", `"x" is not a tile`},
		{"1,2/2,3", "3x3", "tile 2 is in two patterns"},
		{"1,9", "3x3", `"9" is not a tile`},
		{"1,2//3", "3x3", "pattern 2 is empty"},
		{"1,2", "", "give the board size"},
		{"1,2", "6x6", "up to 32 cells"},
		{"1,2,3,4,5,6,7,8,9,10,11", "5x5", "too many"},
	} {
		var s Size
		if c.size != "" {
			s, _ = ParseSize(c.size)
		}
		if _, err := ParsePartition(c.text, s, BlankFirst); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParsePartition(%q, %q): %v, want %q", c.text, c.size, err, c.want)
		}
	}
	if _, err := DefaultPartition(Size{3, 3}); err == nil {
		t.Error("a default partition for 3x3")
	}
}

// TestDerivedTables checks that a table served through a symmetry of the
// board gives, on every 3x3 board and for the reflected lookup too, the
// entries of the pattern's own table, and that the standard partitions
// share tables as Korf and Felner do.
func TestDerivedTables(t *testing.T) {
	for _, c := range []struct {
		text    string
		derived string
	}{
		{"1,2/6,7", "table 1 rotated 180 degrees"},
		{"1,2/3,6", "table 1 reflected about the main diagonal"},
		{"1,2,5/3,6,7", "table 1 rotated 180 degrees"},
		{"1,2,5/4,3,7", ""},
	} {
		part, err := ParsePartition(c.text, Size{3, 3}, BlankFirst)
		if err != nil {
			t.Fatal(err)
		}
		d, err := LoadPDB(t.Context(), part, PDBOptions{NoCache: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Tables()[1].Derived; got != c.derived {
			t.Fatalf("%s: pattern 2 derived from %q, want %q", c.text, got, c.derived)
		}
		if c.derived == "" {
			continue
		}
		own, err := buildTable(t.Context(), part.Size, part.Patterns[1], 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		ownPart := Partition{Size: part.Size, Patterns: part.Patterns[1:]}
		ref := &PDB{part: ownPart, refs: []tableRef{{t: own}}, reflect: true}
		ref.ev = newPDBEval(ref, 3, 3)
		for st := range distances(t, Size{3, 3}, BlankFirst) {
			var pos [maxCells]uint8
			for c, tile := range []byte(st) {
				pos[tile] = uint8(c)
			}
			// Views: d has [reg1, reg2, ref1, ref2], ref has [reg2, ref2].
			if a, b := d.ev.views[1].delta(&pos), ref.ev.views[0].delta(&pos); a != b {
				t.Fatalf("%s %v: derived entry %d, own table %d", c.text, []byte(st), a, b)
			}
			if a, b := d.ev.views[3].delta(&pos), ref.ev.views[1].delta(&pos); a != b {
				t.Fatalf("%s %v: reflected derived entry %d, own table %d", c.text, []byte(st), a, b)
			}
		}
	}
	for _, c := range []struct {
		name  string
		owned int
	}{{"5-5-5", 3}, {"6-6-3", 3}, {"7-8", 2}, {"6-6-6-6", 2}} {
		part, _ := ParsePartition(c.name, Size{}, BlankFirst)
		if got := len(part.TablePatterns()); got != c.owned {
			t.Errorf("%s: %d tables of its own, want %d", c.name, got, c.owned)
		}
	}
}

func TestRankUnrank(t *testing.T) {
	for _, c := range []struct{ n, k int }{{9, 4}, {16, 3}, {16, 8}, {25, 6}} {
		b := &builder{n: c.n, k: c.k}
		for i := range c.k {
			b.magic[i] = ^uint64(0)/uint64(c.n-i) + 1
		}
		np := placements(c.n, c.k)
		pos := make([]uint8, c.k)
		for _, r := range []int64{0, 1, np / 3, np/2 + 7, np - 1} {
			used := b.unrank(r, pos)
			if got := rank(c.n, pos); got != r || bits.OnesCount64(used) != c.k {
				t.Fatalf("n=%d k=%d: unrank(%d) = %v, ranked back to %d", c.n, c.k, r, pos, got)
			}
		}
	}
}

func TestPartitionFor(t *testing.T) {
	for _, c := range []struct {
		name string
		s    Size
		want string
	}{
		{"", Size{4, 4}, "6-6-3 (4x4)"},
		{"", Size{5, 5}, "6-6-6-6 (5x5)"},
		{"", Size{8, 7}, "6-6-6-6 (5x5)"}, // Fast's 5x5 region
		{"5-5-5", Size{4, 4}, "5-5-5 (4x4)"},
		{"5-5-5", Size{10, 10}, "5-5-5 (4x4)"}, // Fast's 4x4 region
		{"7-8", Size{}, "7-8 (4x4)"},
		{"1,2,3,4/5,6,7,8", Size{3, 3}, "1,2,3,4/5,6,7,8 (3x3)"},
	} {
		p, err := PartitionFor(c.name, c.s, BlankLast)
		if err != nil || p.String() != c.want {
			t.Errorf("PartitionFor(%q, %v) = %v, %v; want %s", c.name, c.s, p, err, c.want)
		}
	}
	for _, c := range []struct {
		name string
		s    Size
	}{{"", Size{3, 3}}, {"", Size{6, 4}}, {"6-6-6-6", Size{4, 4}}, {"", Size{}}} {
		if p, err := PartitionFor(c.name, c.s, BlankLast); err == nil {
			t.Errorf("PartitionFor(%q, %v) = %v; want an error", c.name, c.s, p)
		}
	}
}

// TestTableFiles: the files of a partition are absent before LoadPDB,
// present with their exact length after it, and absent again once one is
// cut short.
func TestTableFiles(t *testing.T) {
	dir := t.TempDir()
	part, err := ParsePartition("1,2,3/4,5,6,7", Size{4, 4}, BlankFirst)
	if err != nil {
		t.Fatal(err)
	}
	present := func() []bool {
		t.Helper()
		files, err := part.TableFiles(dir)
		if err != nil {
			t.Fatal(err)
		}
		var out []bool
		for _, f := range files {
			out = append(out, f.Present)
		}
		return out
	}
	if got := present(); !slices.Equal(got, []bool{false, false}) {
		t.Fatalf("before: %v", got)
	}
	d, err := LoadPDB(t.Context(), part, PDBOptions{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if got := present(); !slices.Equal(got, []bool{true, true}) {
		t.Fatalf("after: %v", got)
	}
	files, _ := part.TableFiles(dir)
	for i, f := range files {
		if st, err := os.Stat(d.Tables()[i].Path); err != nil || f.Path != d.Tables()[i].Path || st.Size() != f.Bytes {
			t.Fatalf("table %d: %+v, LoadPDB's %s (%v)", i, f, d.Tables()[i].Path, err)
		}
	}
	os.Truncate(files[1].Path, files[1].Bytes-1)
	if got := present(); !slices.Equal(got, []bool{true, false}) {
		t.Fatalf("cut short: %v", got)
	}
}

// checkOptimal3x3 solves 100 random 3x3 boards (seed seed) for goal g with
// IDA* and d, and fails unless each solution is shortest (dist) and
// solves its board.
func checkOptimal3x3(t *testing.T, label string, d *PDB, g Goal, dist map[string]int, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed))
	for range 100 {
		b := Random(Size{3, 3}, g, rng)
		sol, err := IDAStar{Heuristic: PatternDB, PDB: d}.Solve(t.Context(), b, g)
		if err != nil || len(sol.Moves) != dist[string(b.cells)] {
			t.Fatalf("%s %v %q: %d moves (%v), shortest %d", label, g, b.Line(), len(sol.Moves), err, dist[string(b.cells)])
		}
		if end, err := Replay(b, sol.Moves); err != nil || !end.IsSolved(g) {
			t.Fatalf("%s %q: moves do not solve it", label, b.Line())
		}
	}
}

// TestRank6 checks the unrolled rank of 6-tile views against the loop, on
// random placements of random tiles on the 5x5 board, through a symmetry.
func TestRank6(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 25))
	table := &patternTable{geom: newGeom(Size{5, 5})}
	for range 10000 {
		perm := rng.Perm(25)
		var pos [maxCells]uint8
		for u, c := range perm {
			pos[u] = uint8(c)
		}
		v := pdbView{table: table, cellMap: new([maxCells]uint8)}
		for c, to := range rng.Perm(25) {
			v.cellMap[c] = uint8(to)
		}
		for _, u := range rng.Perm(24)[:6] {
			v.tiles = append(v.tiles, uint8(u+1))
		}
		if a, b := v.rank6(&pos), v.rank(&pos); a != b || a < 0 || a >= 25*24*23*22*21*20 {
			t.Fatalf("tiles %v at %v: rank6 %d, rank %d", v.tiles, pos[:25], a, b)
		}
	}
}

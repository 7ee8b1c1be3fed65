package npuzzle

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/bits"
	"os"
	"runtime"
	"slices"
	"time"
)

// PDB is an additive pattern database heuristic (Korf and Felner 2002): the
// tables of the disjoint patterns of a Partition, whose values add up to a
// lower bound on the moves to the goal. On square boards it also looks the
// tables up on the board reflected about the main diagonal, which maps the
// goal to itself, and takes the larger of the two sums (Korf and Felner
// 2002: 7-8 plus reflection generates 36,710 nodes per instance of Korf's
// 100, against 136,288 without).
//
// The tables are built by LoadPDB, or read from its cache. A PDB is
// read-only once loaded and safe for concurrent use.
type PDB struct {
	part    Partition
	refs    []tableRef // one per pattern
	info    []TableInfo
	reflect bool
	ev      *pdbEval // the views for the partition's size
}

// tableRef is the table of a pattern: its own, or another pattern's seen
// through a symmetry of the board (sym maps the pattern's cells to the
// table's; nil for none).
type tableRef struct {
	t   *patternTable
	sym *symmetry
}

// TableInfo describes one pattern table of a PDB.
// Its JSON form is what `tessera npuzzle pdb build -json` prints.
type TableInfo struct {
	Tiles []int `json:"tiles"` // the pattern's tiles, blank-first numbering
	// Derived, when not empty, says which table of the partition serves
	// this pattern through a symmetry of the board, such as "table 2
	// rotated 180 degrees"; the other fields are then that table's.
	Derived string  `json:"derived,omitempty"`
	Path    string  `json:"path,omitempty"`   // its cache file, "" when not cached
	Built   bool    `json:"built"`            // built now rather than read from the cache
	Reason  string  `json:"reason,omitempty"` // why it was built: "missing", "corrupt: ...", "rebuild", "no cache"
	Seconds float64 `json:"seconds"`
	Entries int64   `json:"entries"`   // placements
	Bytes   int64   `json:"bytes"`     // memory of the table
	States  int64   `json:"states"`    // abstract states visited by the construction
	Depth   int     `json:"max_value"` // the largest value in the table
	Clamped int64   `json:"clamped"`   // entries whose excess over Manhattan distance did not fit 4 bits
	// NotCached, when not empty, says why a table built now could not be
	// written to its cache file (an unwritable folder, a file in the way):
	// it is used from memory and will be built again next time.
	NotCached string `json:"not_cached,omitempty"`
}

// PDBOptions control LoadPDB. The zero value reads and writes the cache in
// DefaultCacheDir and builds missing tables with every CPU.
type PDBOptions struct {
	// CacheDir is where tables are cached; "" means DefaultCacheDir().
	CacheDir string
	// NoCache builds every table in memory and touches no file.
	NoCache bool
	// Rebuild builds every table even when a valid cached copy exists, and
	// replaces the cached copy.
	Rebuild bool
	// Workers is the number of goroutines that build a table; 0 means
	// runtime.GOMAXPROCS.
	Workers int
	// Progress, when set, is called a few times a second while a table is
	// built.
	Progress func(BuildProgress)
	// MaxBytes bounds the memory of LoadPDB (0: no bound): the tables
	// loaded so far plus the table being read, or, while a table is built,
	// its construction's working memory (TableBuildBytes). A table that
	// would go over it is not built: LoadPDB returns an error wrapping
	// ErrBudget that names what it needs.
	MaxBytes int64
	// Sparse keeps each zero-aware table (a +zero partition) as a sparse
	// table, indexed by its tiles' cells as the digits of a number instead
	// of their placement's rank: the same estimates, about a third less
	// CPU on the 24-puzzle (the search moves each index by one product a
	// move), for more memory (25^6 words, 1.95 GB, a 6-tile table of the
	// 5x5 board, against 1.02 GB) and a few seconds of load (see
	// makeSparse). MaxBytes then bounds the sparse tables and the
	// zone tables they are made from.
	Sparse bool
}

// TableBuildBytes returns the memory that building the table of a pattern
// of k tiles on a board of size s takes (see buildTable): on boards of up
// to 16 cells a bit a state and a bit a placement plus the 4-bit table,
// then the table in two orders (buildTableCombs), above 8 bytes a
// placement plus the table (buildTableGroups). The 8-tile table of the 4x4
// board needs 519 MB, a 6-tile table of the 5x5 board 1.08 GB. The result
// saturates at math.MaxInt64.
func TableBuildBytes(s Size, k int) int64 {
	n := s.Rows * s.Cols
	np := placements(n, k)
	if n <= maxCombCells && k > 0 && k < n {
		return combBuildBytes(s, k)
	}
	if np > math.MaxInt64/9 {
		return math.MaxInt64
	}
	return np*8 + (np+1)/2
}

// tableBytes is the memory of a finished table of k tiles on s.
// (zero: a zero-aware one, 8 bytes a placement).
func tableBytes(s Size, k int, zero bool) int64 {
	if zero {
		return placements(s.Rows*s.Cols, k) * 8
	}
	return (placements(s.Rows*s.Cols, k) + 1) / 2
}

// buildBytes is TableBuildBytes for a zero-aware table or not: a
// zero-aware one is built by buildTableGroups with a word more a
// placement.
func buildBytes(s Size, k int, zero bool) int64 {
	if !zero {
		return TableBuildBytes(s, k)
	}
	np := placements(s.Rows*s.Cols, k)
	if np > math.MaxInt64/17 {
		return math.MaxInt64
	}
	return np*16 + (np+1)/2
}

// BuildBytes is the memory that building one of p's tables of k tiles
// takes: TableBuildBytes, or about twice it for a zero-aware partition.
func (p Partition) BuildBytes(k int) int64 { return buildBytes(p.Size, k, p.Zero) }

// DefaultCacheDir returns os.UserCacheDir()/tessera, where LoadPDB keeps its
// tables.
func DefaultCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("npuzzle: no cache folder for pattern databases: %w", err)
	}
	return d + string(os.PathSeparator) + "tessera", nil
}

// LoadPDB returns the pattern database of part: each table is read from the
// cache when a valid copy is there (its header names the same pattern and
// format version and its CRC-32C checksum matches), and otherwise built and
// written to the cache, replacing a stale or corrupt file. A cache that
// cannot be written is not an error: the table is used from memory. A
// pattern that a rotation or reflection of the board maps onto an earlier
// one uses that one's table (see Partition.TablePatterns): 6-6-6-6 needs
// two tables.
//
// Building takes time and memory that grow with the pattern (see
// buildTable): a CPU-second for 6-6-3; about 45 for 7-8, whose
// 8-tile table needs 519 MB while it builds (docs/results/npuzzle.md);
// 150 for 6-6-6-6 (two tables of 6 tiles on 25 cells, 1 GB each while
// building). Two cores share the work.
// When the context ends, LoadPDB stops and returns an error wrapping the
// context's; opts.MaxBytes bounds its memory.
func LoadPDB(ctx context.Context, part Partition, opts PDBOptions) (*PDB, error) {
	if err := part.check(); err != nil {
		return nil, err
	}
	if opts.Sparse && sparseNeed(part, true) == math.MaxInt64 {
		return nil, fmt.Errorf("npuzzle: sparse tables are for zero-aware partitions (+zero) of up to %d tiles a pattern", maxSparseTiles)
	}
	dir := opts.CacheDir
	if dir == "" && !opts.NoCache {
		var err error
		if dir, err = DefaultCacheDir(); err != nil {
			return nil, err
		}
	}
	d := &PDB{part: part, reflect: part.Size.Rows == part.Size.Cols}
	var loaded int64 // bytes of the tables so far
	overBudget := func(i int, tiles []int, need int64, what string) error {
		return fmt.Errorf("%w: %s table %d of %d (%d tiles) needs about %d MiB, over the memory bound of %d MiB",
			ErrBudget, what, i+1, len(part.Patterns), len(tiles), (need+1<<20-1)>>20, opts.MaxBytes>>20)
	}
	if opts.MaxBytes > 0 { // before any work: the tables a bound refuses
		var before int64
		for i, tiles := range part.Patterns {
			if _, sym := part.derivation(i); sym != nil {
				continue
			}
			need, what := before+buildBytes(part.Size, len(tiles), part.Zero), "building"
			if !opts.NoCache && !opts.Rebuild {
				if _, err := os.Stat(dir + string(os.PathSeparator) + tableFileName(part.Size, tiles, part.Zero)); err == nil {
					need, what = before+tableBytes(part.Size, len(tiles), part.Zero), "reading"
				}
			}
			if need > opts.MaxBytes {
				return nil, overBudget(i, tiles, need, what)
			}
			before += tableBytes(part.Size, len(tiles), part.Zero)
		}
		if sn := sparseNeed(part, opts.Sparse); sn > opts.MaxBytes-before {
			need := min(before+sn, math.MaxInt64-1<<20)
			return nil, fmt.Errorf("%w: the sparse tables of %s need about %d MiB with the tables they are made from, over the memory bound of %d MiB",
				ErrBudget, part.Name, (need+1<<20-1)>>20, opts.MaxBytes>>20)
		}
	}
	for i, tiles := range part.Patterns {
		if j, sym := part.derivation(i); sym != nil {
			d.refs = append(d.refs, tableRef{d.refs[j].t, sym})
			info := d.info[j]
			info.Tiles, info.Derived, info.Built, info.Seconds = tiles, fmt.Sprintf("table %d %s", j+1, sym.name), false, 0
			d.info = append(d.info, info)
			continue
		}
		start := time.Now()
		info := TableInfo{Tiles: tiles}
		var t *patternTable
		if !opts.NoCache {
			info.Path = dir + string(os.PathSeparator) + tableFileName(part.Size, tiles, part.Zero)
			switch {
			case opts.Rebuild:
				info.Reason = "rebuild"
			default:
				if need := loaded + tableBytes(part.Size, len(tiles), part.Zero); opts.MaxBytes > 0 && need > opts.MaxBytes {
					return nil, overBudget(i, tiles, need, "reading")
				}
				var err error
				t, err = loadTable(info.Path, part.Size, tiles, part.Zero, true)
				switch {
				case err == nil:
				case errors.Is(err, fs.ErrNotExist):
					info.Reason = "missing"
				default:
					info.Reason = err.Error()
				}
			}
		} else {
			info.Reason = "no cache"
		}
		if t == nil {
			var report func(int, int64, float64)
			if opts.Progress != nil {
				report = func(depth int, states int64, layer float64) {
					opts.Progress(BuildProgress{Table: i, Tables: len(part.Patterns), Tiles: tiles,
						Depth: depth, States: states, Layer: layer, Elapsed: time.Since(start)})
				}
			}
			if need := loaded + buildBytes(part.Size, len(tiles), part.Zero); opts.MaxBytes > 0 && need > opts.MaxBytes {
				return nil, overBudget(i, tiles, need, "building")
			}
			var err error
			if part.Zero {
				t, err = buildGroups(ctx, part.Size, tiles, opts.Workers, true, report)
			} else {
				t, err = buildTable(ctx, part.Size, tiles, opts.Workers, report)
			}
			if err != nil {
				return nil, fmt.Errorf("npuzzle: building table %d of %d (%d tiles): %w", i+1, len(part.Patterns), len(tiles), err)
			}
			info.Built = true
			if !opts.NoCache {
				if err := writeTable(info.Path, t); err != nil {
					info.Reason += "; not cached: " + err.Error()
					info.NotCached = fmt.Sprintf("cannot write %s: %v", info.Path, err)
					info.Path = ""
				}
			}
		}
		info.Seconds = time.Since(start).Seconds()
		info.Entries, info.Bytes = t.entries(), t.bytes()
		info.States, info.Depth, info.Clamped = t.states, t.depth, t.clamped
		loaded += t.bytes()
		d.refs = append(d.refs, tableRef{t: t})
		d.info = append(d.info, info)
	}
	if opts.Sparse {
		workers := opts.Workers
		if workers <= 0 {
			workers = runtime.GOMAXPROCS(0)
		}
		for _, ref := range d.refs {
			if ref.t.sparse == nil {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				ref.t.makeSparse(workers)
			}
		}
		for i, ref := range d.refs {
			d.info[i].Bytes = ref.t.bytes()
		}
	}
	d.ev = newPDBEval(d, part.Size.Rows, part.Size.Cols)
	return d, nil
}

// Partition returns the partition of the database.
func (d *PDB) Partition() Partition { return d.part.clone() }

// Tables describes the tables: where each came from and its size.
func (d *PDB) Tables() []TableInfo { return append([]TableInfo(nil), d.info...) }

// Reflected reports whether lookups also use the reflection about the main
// diagonal (square boards).
func (d *PDB) Reflected() bool { return d.reflect }

// Estimate returns the heuristic value of b for goal g: Manhattan distance
// plus twice the tables' excess, the larger of the regular and the
// reflected sum. It panics if b's size is not the partition's.
func (d *PDB) Estimate(b *Board, g Goal) int {
	if b.Size() != d.part.Size {
		panic(fmt.Sprintf("npuzzle: PDB for %v boards used on a %v board", d.part.Size, b.Size()))
	}
	f := newFrame(b, g)
	var pos [maxCells]uint8
	for c, t := range f.cells {
		pos[t] = uint8(c)
	}
	return f.manhattan() + 2*d.ev.best(&pos)
}

// stringEstimate returns the estimate as a function of a board's cells
// (row-major, goal g), for the generic solvers.
func (d *PDB) stringEstimate(g Goal) func(string) int {
	ev, s := d.ev, d.part.Size
	n := s.Rows * s.Cols
	return func(cells string) int {
		var pos [maxCells]uint8
		md := 0
		for c := range n {
			t, fc := int(cells[c]), c
			if g == BlankLast { // the frame: rotated, tiles renamed
				fc = n - 1 - c
				if t != 0 {
					t = n - t
				}
			}
			pos[t] = uint8(fc)
			if t != 0 {
				md += abs(fc/s.Cols-t/s.Cols) + abs(fc%s.Cols-t%s.Cols)
			}
		}
		return md + 2*ev.best(&pos)
	}
}

// pdbView is one lookup of a table: the table's i-th tile is at cell
// cellMap[pos[tiles[i]]] of the board it is looked up on. The regular view
// reads the board as it is; the reflected view reads its transpose, whose
// tile refl(u) sits at cell transpose(pos[u]); cellMap also applies the
// symmetry through which the table serves the pattern, if any.
type pdbView struct {
	table   *patternTable
	tiles   []uint8
	cellMap *[maxCells]uint8
	sparse  []uint64 // the table's sparse words, if it has them (see makeSparse)
	// tileMult[u], for a sparse view, is the weight in the sparse index of
	// the cell of the board's tile u (0 for the tiles the view does not
	// read): moving u changes the index by one product (see moved).
	tileMult *[maxCells]int64
}

// setSparse gives the view its table's sparse words and each tile's weight
// in the sparse index, if the table is sparse.
func (v *pdbView) setSparse() {
	if v.sparse = v.table.sparse; v.sparse != nil {
		v.tileMult = new([maxCells]int64)
		for i, u := range v.tiles {
			v.tileMult[u] = v.table.sparseMult[i]
		}
	}
}

// index returns the view's sparse index for the board whose tile
// positions are pos.
func (v *pdbView) index(pos *[maxCells]uint8) int64 {
	var idx int64
	for _, u := range v.tiles {
		idx += int64(v.cellMap[pos[u&(maxCells-1)]&(maxCells-1)]) * v.tileMult[u&(maxCells-1)]
	}
	return idx
}

// moved returns, for a sparse view at index idx, the index and the entry
// once tile moves from cell from to cell to, the blank going to from.
func (v *pdbView) moved(idx int64, tile, from, to int) (int64, int) {
	m := v.cellMap
	idx += int64(int(m[to&(maxCells-1)])-int(m[from&(maxCells-1)])) * v.tileMult[tile&(maxCells-1)]
	w := v.sparse[idx]
	return idx, int(w>>zoneEntryShift) + int(w>>(2*(m[from&(maxCells-1)]&31))&3)
}

// delta returns the view's entry for the board whose tile positions are pos
// (pos[0] the blank's cell, which zero-aware tables read).
func (v *pdbView) delta(pos *[maxCells]uint8) int {
	if v.sparse != nil {
		w := v.sparse[v.index(pos)]
		return int(w>>zoneEntryShift) + int(w>>(2*(v.cellMap[pos[0]&(maxCells-1)]&31))&3)
	}
	var r int64
	if len(v.tiles) == 6 {
		r = v.rank6(pos)
	} else {
		r = v.rank(pos)
	}
	if v.table.zone != nil {
		return v.table.zoneEntry(r, int(v.cellMap[pos[0]]))
	}
	return int(v.table.data[r>>1] >> ((r & 1) << 2) & 15)
}

// rank returns the rank of the placement of the view's tiles in its table.
func (v *pdbView) rank(pos *[maxCells]uint8) int64 {
	n := v.table.n
	var used uint64
	r := int64(0)
	for i, u := range v.tiles {
		p := v.cellMap[pos[u]]
		bit := uint64(1) << (p & 63)
		r = r*int64(n-i) + int64(int(p)-bits.OnesCount64(used&(bit-1)))
		used |= bit
	}
	return r
}

// rank6 is rank for a table of 6 tiles (those of the 24-puzzle), the loop
// unrolled.
func (v *pdbView) rank6(pos *[maxCells]uint8) int64 {
	t, m := (*[6]uint8)(v.tiles), v.cellMap
	n := int64(v.table.n)
	p0 := m[pos[t[0]&(maxCells-1)]&(maxCells-1)]
	p1 := m[pos[t[1]&(maxCells-1)]&(maxCells-1)]
	p2 := m[pos[t[2]&(maxCells-1)]&(maxCells-1)]
	p3 := m[pos[t[3]&(maxCells-1)]&(maxCells-1)]
	p4 := m[pos[t[4]&(maxCells-1)]&(maxCells-1)]
	p5 := m[pos[t[5]&(maxCells-1)]&(maxCells-1)]
	b0, b1, b2 := uint64(1)<<(p0&63), uint64(1)<<(p1&63), uint64(1)<<(p2&63)
	b3, b4, b5 := uint64(1)<<(p3&63), uint64(1)<<(p4&63), uint64(1)<<(p5&63)
	r := int64(p0)
	used := b0
	r = r*(n-1) + int64(int(p1)-bits.OnesCount64(used&(b1-1)))
	used |= b1
	r = r*(n-2) + int64(int(p2)-bits.OnesCount64(used&(b2-1)))
	used |= b2
	r = r*(n-3) + int64(int(p3)-bits.OnesCount64(used&(b3-1)))
	used |= b3
	r = r*(n-4) + int64(int(p4)-bits.OnesCount64(used&(b4-1)))
	used |= b4
	return r*(n-5) + int64(int(p5)-bits.OnesCount64(used&(b5-1)))
}

// pdbEval holds the views of a PDB for one board size, in groups whose
// entries add up: a partition's regular views, then, with reflection, its
// reflected views (for a catalogue, each partition's regular views, then
// each one's reflected). viewOf[g][u] is the view of group g that tile u
// takes part in (-1: none), and the heuristic is the largest group sum.
type pdbEval struct {
	views  []pdbView
	group  []int // the group of each view
	groups int
	viewOf [maxGroups][maxCells]int8
	// pair: two groups (a partition and its reflection) in which every
	// tile has a view, the common case that idaSearch.dfsPair specialises;
	// full: two to four groups in which every tile has a view (a catalogue
	// of two partitions with their reflections), for idaSearch.dfsFull;
	// sparse: every view has a sparse table.
	pair, full, sparse bool
}

// maxGroups bounds the sums of a PDB (see pdbEval).
const maxGroups = 8

func newPDBEval(d *PDB, rows, cols int) *pdbEval {
	ev := &pdbEval{}
	n := rows * cols
	var tr [maxCells]uint8 // the transpose, and of tile t, whose goal cell is t
	for c := range n {
		tr[c] = uint8(c%cols*rows + c/cols)
	}
	for g := range ev.viewOf {
		for i := range ev.viewOf[g] {
			ev.viewOf[g][i] = -1
		}
	}
	// The view of pattern ref on the board, or on its transpose: the table's
	// k-th tile stands for the pattern's tile u with sym(u) = that tile,
	// found at cell sym(pos[u]), or sym(tr(pos[tr(u)])) on the transpose.
	view := func(ref tableRef, reflected bool) pdbView {
		v := pdbView{table: ref.t, cellMap: new([maxCells]uint8)}
		var inverse [maxCells]uint8
		for c := range n {
			to := c
			if ref.sym != nil {
				to = int(ref.sym.cell[c])
			}
			inverse[to] = uint8(c)
			v.cellMap[c] = uint8(to)
		}
		if reflected {
			for c := range n {
				v.cellMap[c] = uint8(cellOf(ref.sym, int(tr[c])))
			}
		}
		for _, tile := range ref.t.tiles {
			u := inverse[tile]
			if reflected {
				u = tr[u]
			}
			v.tiles = append(v.tiles, u)
		}
		v.setSparse()
		return v
	}
	partOf := d.part.partOf()
	parts := max(len(d.part.Parts), 1)
	add := func(ref tableRef, reflected bool, g int) {
		ev.views = append(ev.views, view(ref, reflected))
		ev.group = append(ev.group, g)
		for _, u := range ev.views[len(ev.views)-1].tiles {
			ev.viewOf[g][u] = int8(len(ev.views) - 1)
		}
		ev.groups = max(ev.groups, g+1)
	}
	for i, ref := range d.refs {
		add(ref, false, partOf[i])
	}
	if d.reflect {
		for i, ref := range d.refs {
			add(ref, true, parts+partOf[i])
		}
	}
	ev.full = ev.groups >= 2 && ev.groups <= 4
	for u := 1; u < n; u++ {
		for g := range ev.groups {
			ev.full = ev.full && ev.viewOf[g][u] >= 0
		}
	}
	ev.pair = ev.full && ev.groups == 2
	ev.sparse = len(ev.views) > 0
	for _, v := range ev.views {
		ev.sparse = ev.sparse && v.sparse != nil
	}
	return ev
}

// cellOf returns the image of cell c under sym (nil: c).
func cellOf(sym *symmetry, c int) int {
	if sym == nil {
		return c
	}
	return int(sym.cell[c])
}

// symmetry is a permutation of a board's cells that keeps neighbours
// neighbours: a rotation or a reflection.
type symmetry struct {
	name string
	cell [maxCells]uint8
}

// identity is the symmetry through which a table serves the same pattern
// in another partition of a catalogue.
var identity = func() (sym symmetry) {
	sym.name = "(the same pattern)"
	for c := range sym.cell {
		sym.cell[c] = uint8(c)
	}
	return sym
}()

// boardSymmetries returns the symmetries of a board other than the
// identity: the rotation by 180 degrees and the two mirrors, and on square
// boards the rotations by 90 degrees and the two diagonal reflections.
func boardSymmetries(s Size) []symmetry {
	R, C := s.Rows, s.Cols
	maps := []struct {
		name   string
		square bool
		f      func(r, c int) (int, int)
	}{
		{"rotated 180 degrees", false, func(r, c int) (int, int) { return R - 1 - r, C - 1 - c }},
		{"mirrored left to right", false, func(r, c int) (int, int) { return r, C - 1 - c }},
		{"mirrored top to bottom", false, func(r, c int) (int, int) { return R - 1 - r, c }},
		{"rotated 90 degrees", true, func(r, c int) (int, int) { return c, C - 1 - r }},
		{"rotated 270 degrees", true, func(r, c int) (int, int) { return R - 1 - c, r }},
		{"reflected about the main diagonal", true, func(r, c int) (int, int) { return c, r }},
		{"reflected about the other diagonal", true, func(r, c int) (int, int) { return C - 1 - c, R - 1 - r }},
	}
	var out []symmetry
	for _, m := range maps {
		if m.square && R != C {
			continue
		}
		sym := symmetry{name: m.name}
		for cell := range R * C {
			r, c := m.f(cell/C, cell%C)
			sym.cell[cell] = uint8(r*C + c)
		}
		out = append(out, sym)
	}
	return out
}

// derivation returns, for pattern i, an earlier pattern j with a table of
// its own and a symmetry through which j's table serves i, or a nil
// symmetry if i needs its own table. A table serves a pattern when the
// symmetry maps the pattern's goal cells onto the table's and the blank's
// goal cell, 0, into the region of free cells that held the blank when the
// table was built, so that both searches start from the same abstract state
// (Korf and Felner 2002 serve three of the four 6-6-6-6 patterns by two
// tables, rotating the board).
func (p Partition) derivation(i int) (int, *symmetry) {
	g := newGeom(p.Size)
	syms := boardSymmetries(p.Size)
	for j := range i {
		if _, sym := p.derivation(j); sym != nil || len(p.Patterns[j]) != len(p.Patterns[i]) {
			continue
		}
		if slices.Equal(p.Patterns[i], p.Patterns[j]) { // in two partitions of a catalogue
			return j, &identity
		}
		var want uint64
		for _, tile := range p.Patterns[j] {
			want |= 1 << tile
		}
		home := g.region(1, g.full&^want)
		for k := range syms {
			sym := &syms[k]
			var got uint64
			for _, tile := range p.Patterns[i] {
				got |= 1 << sym.cell[tile]
			}
			if got == want && home>>sym.cell[0]&1 != 0 {
				return j, sym
			}
		}
	}
	return -1, nil
}

// TablePatterns returns the patterns that need a table of their own; the
// others are served by one of these through a rotation or reflection of the
// board (see LoadPDB).
func (p Partition) TablePatterns() [][]int {
	var out [][]int
	for i, pat := range p.Patterns {
		if _, sym := p.derivation(i); sym == nil {
			out = append(out, pat)
		}
	}
	return out
}

// best returns the largest group sum of table entries for the board with
// tile positions pos (pos[0] the blank's cell).
func (ev *pdbEval) best(pos *[maxCells]uint8) int {
	var sums [maxGroups]int
	for i := range ev.views {
		sums[ev.group[i]] += ev.views[i].delta(pos)
	}
	return slices.Max(sums[:max(ev.groups, 1)])
}

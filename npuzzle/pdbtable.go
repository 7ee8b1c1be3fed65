package npuzzle

import (
	"context"
	"fmt"
	"math/bits"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// A patternTable is the database of one pattern: for every placement of the
// pattern's k tiles on the board's n cells, the number of moves of pattern
// tiles needed to bring them home, minimised over the positions of the blank
// (moves of other tiles are free, so the tables of disjoint patterns add up).
//
// Compact storage: an entry holds (value - md)/2 in 4 bits, where md is the
// Manhattan distance of the pattern's tiles. The value is md plus an even
// number (each pattern move changes md by one), so the difference is what the
// table adds to Manhattan distance; differences above maxDelta are stored as
// maxDelta, which keeps the entry a lower bound. 15 marks a placement the
// search did not reach (only possible when the pattern holds every tile, so
// that parity splits the placements).
type patternTable struct {
	geom
	tiles []uint8 // the pattern's tiles in the blank-first numbering, increasing
	data  []byte  // entry i in the low nibble of data[i/2] for even i, high for odd
	// clamped counts the entries whose difference exceeded maxDelta.
	clamped int64
	// states is the number of abstract states (placement and blank region)
	// the construction visited, and depth the largest value.
	states int64
	depth  int
	// zone, for a zero-aware table (data is then nil), holds a word per
	// placement: the entry in bits 60-63 and, in bits 2c and 2c+1, how
	// much more the placement needs with the blank in cell c (see
	// zoneTable).
	zone []uint64
	// sparse, for a sparse table (zone is then nil), holds the zone words
	// at the index sum over the tiles of cell times sparseMult (see
	// makeSparse).
	sparse     []uint64
	sparseMult [8]int64 // up to maxSparseTiles used
}

const (
	maxDelta   = 14
	unsetDelta = 15
)

// geom is a board shape with the bit masks the construction uses.
type geom struct {
	rows, cols, n int
	full          uint64 // the n cells
	notFirstCol   uint64 // cells that are not in column 0
	notLastCol    uint64 // cells that are not in the last column
	nbrs          [maxPDBCells]uint64
}

func newGeom(s Size) geom {
	g := geom{rows: s.Rows, cols: s.Cols, n: s.Rows * s.Cols}
	for c := range g.n {
		bit := uint64(1) << c
		g.full |= bit
		r, col := c/g.cols, c%g.cols
		if col > 0 {
			g.notFirstCol |= bit
			g.nbrs[c] |= bit >> 1
		}
		if col < g.cols-1 {
			g.notLastCol |= bit
			g.nbrs[c] |= bit << 1
		}
		if r > 0 {
			g.nbrs[c] |= bit >> g.cols
		}
		if r < g.rows-1 {
			g.nbrs[c] |= bit << g.cols
		}
	}
	return g
}

// region returns the cells of free reachable from the cells of start
// through free cells: where the blank can go without moving a pattern tile.
func (g *geom) region(start, free uint64) uint64 {
	r := start
	for {
		e := (r | (r<<1)&g.notFirstCol | (r>>1)&g.notLastCol | r<<g.cols | r>>g.cols) & free
		if e == r {
			return r
		}
		r = e
	}
}

// dist returns the Manhattan distance between cells a and b.
func (g *geom) dist(a, b int) int {
	return abs(a/g.cols-b/g.cols) + abs(a%g.cols-b%g.cols)
}

// entries returns the number of placements, the table's length.
func (t *patternTable) entries() int64 { return placements(t.n, len(t.tiles)) }

// rank returns the index of the placement pos (pos[i] is the cell of the
// i-th tile): the digits pos[i] minus the earlier tiles on lower cells, in
// the mixed radix n, n-1, ..., n-k+1. It is a bijection onto 0 .. n!/(n-k)!-1.
func rank(n int, pos []uint8) int64 {
	var used uint64
	r := int64(0)
	for i, p := range pos {
		bit := uint64(1) << p
		r = r*int64(n-i) + int64(int(p)-bits.OnesCount64(used&(bit-1)))
		used |= bit
	}
	return r
}

// get returns entry i.
func (t *patternTable) get(i int64) uint8 {
	return t.data[i>>1] >> ((i & 1) << 2) & 15
}

// set writes entry i; the caller owns the byte.
func (t *patternTable) set(i int64, v uint8) {
	sh := (i & 1) << 2
	t.data[i>>1] = t.data[i>>1]&^(15<<sh) | v<<sh
}

// BuildProgress reports the construction of a pattern table.
type BuildProgress struct {
	Table, Tables int   // which table of the partition (0-based) and how many
	Tiles         []int // the pattern's tiles (blank-first numbering)
	Depth         int   // the breadth-first layer being expanded
	States        int64 // abstract states reached so far
	Layer         float64
	Elapsed       time.Duration
}

// buildTableGroups builds the table of a pattern by breadth-first search from
// the goal over abstract states: a placement of the pattern's tiles and the
// region of free cells that holds the blank (Korf and Felner 2002, with the
// blank kept, as in Felner, Korf and Hanan 2004). Moving the blank within
// its region is free, so a region stands for all its cells and the search
// is an ordinary unit-cost BFS on (placement, region): a pattern tile next to
// the region slides into it, at cost 1, and the blank's new region is the
// one around the cell the tile left. A placement's entry is the depth of its
// first region reached.
//
// Memory: two bits per cell for every placement (0 for not reached, else the
// depth modulo 3 plus one, on every cell of a reached region), 32 bits a
// placement on boards of up to 16 cells and 64 above, plus the 4-bit table:
// for the 8-tile pattern of the 4x4 board, 2.08 GB + 260 MB.
//
// Time: each layer is one pass over the placements, split in chunks among
// workers goroutines (the result does not depend on their number or their
// scheduling). Early layers push: they expand the states of the layer and
// mark the new ones. Once the layer outgrows the placements not yet
// reached, layers pull: every state not reached yet looks for a neighbour in
// the layer, and stops at the first (Beamer, Asanović and Patterson 2012,
// direction-optimizing BFS). The context is checked between chunks.
//
// buildTable uses it on boards of more than 16 cells; smaller boards take
// buildTableCombs, which gives the same table with a quarter of the memory
// (the tests compare the two).
func buildTableGroups(ctx context.Context, s Size, tiles []int, workers int, report func(depth int, states int64, layer float64)) (*patternTable, error) {
	return buildGroups(ctx, s, tiles, workers, false, report)
}

// buildGroups is buildTableGroups; with zero it builds the zero-aware table
// (see zoneTable).
func buildGroups(ctx context.Context, s Size, tiles []int, workers int, zero bool, report func(depth int, states int64, layer float64)) (*patternTable, error) {
	t := newPatternTable(s, tiles)
	n, k := t.n, len(t.tiles)
	if n > maxPDBCells || k == 0 || k >= n {
		panic(fmt.Sprintf("npuzzle: buildTable with %d tiles on %d cells", k, n))
	}
	b := &builder{t: t, n: n, k: k, np: t.entries()}
	if n <= 16 {
		b.gshift, b.gmask, b.gfull = 1, 1, 1<<32-1
	} else {
		b.gfull = ^uint64(0)
	}
	b.groups = make([]uint64, (b.np+int64(b.gmask))>>b.gshift)
	hugePages(b.groups)
	for i := range k {
		r := uint64(n - i)
		b.magic[i] = ^uint64(0)/r + 1
	}
	t.data = make([]byte, (b.np+1)/2)
	for i := range t.data {
		t.data[i] = 0xff
	}
	if zero {
		t.zone = make([]uint64, b.np)
		hugePages(t.zone)
	}
	// The start: every tile home (tile t at cell t), the blank in cell 0.
	start, occ := t.goalPlacement()
	b.mark(start, t.region(1, t.full&^occ), layerCode(0))
	reached, err := runLayers(ctx, t, b.np, 0, workers, 0, report, func(depth int) layerPass {
		return &layerWorker{builder: b, depth: depth, code: layerCode(depth), next: layerCode(depth + 1)}
	})
	if err != nil {
		return nil, err
	}
	b.groups = nil
	debug.FreeOSMemory() // the 2-bit array is garbage: return it before the next table
	checkReached(t, reached, b.np)
	if zero {
		t.finishZone()
	}
	return t, nil
}

// The 2-bit fields: a cell of a region not reached, of a closed region
// (expanded by a push layer), or of a region in the layer of even or odd
// depth. Push layers close the regions they expand; pull layers leave them
// in their layer's code, which is harmless there: a region not reached yet
// has no neighbour more than one layer back.
const closedCode = 1

func layerCode(depth int) uint64 { return uint64(2 + depth%2) }

// builder is the shared state of a table's construction.
type builder struct {
	t      *patternTable
	n, k   int
	np     int64 // placements
	groups []uint64
	// Group p is word p>>gshift, bits (p&gmask)*32 and up, masked by gfull.
	gshift uint
	gmask  int64
	gfull  uint64
	// magic[i] divides by n-i: q = hi(x * magic[i]) for x < 2^32.
	magic [maxPDBCells]uint64
}

// group returns the 2-bit fields of placement p, one per cell.
func (b *builder) group(p int64) uint64 {
	return atomic.LoadUint64(&b.groups[p>>b.gshift]) >> ((p & b.gmask) << 5) & b.gfull
}

// mark sets the fields of cells in group p to code, and reports whether
// they were unset (one caller wins when several mark the same region).
func (b *builder) mark(p int64, cells, code uint64) bool {
	sh := uint((p & b.gmask) << 5)
	low := uint(bits.TrailingZeros64(cells)) * 2
	old := atomic.OrUint64(&b.groups[p>>b.gshift], spread(cells)*code<<sh)
	return old>>(sh+low)&3 == 0
}

// spread moves bit i of x (x < 2^32) to bit 2i.
func spread(x uint64) uint64 {
	x = (x | x<<16) & 0x0000ffff0000ffff
	x = (x | x<<8) & 0x00ff00ff00ff00ff
	x = (x | x<<4) & 0x0f0f0f0f0f0f0f0f
	x = (x | x<<2) & 0x3333333333333333
	return (x | x<<1) & 0x5555555555555555
}

// unspread moves bit 2i of x to bit i, the inverse of spread.
func unspread(x uint64) uint64 {
	x &= 0x5555555555555555
	x = (x | x>>1) & 0x3333333333333333
	x = (x | x>>2) & 0x0f0f0f0f0f0f0f0f
	x = (x | x>>4) & 0x00ff00ff00ff00ff
	x = (x | x>>8) & 0x0000ffff0000ffff
	return (x | x>>16) & 0xffffffff
}

// fieldsEqual returns the cells whose field in g equals code (0 to 3).
func fieldsEqual(g, code uint64) uint64 {
	x := g ^ code*0x5555555555555555
	return unspread(^(x | x>>1))
}

// unrank is rank's inverse: it fills pos and returns the cells used.
func (b *builder) unrank(r int64, pos []uint8) uint64 {
	var digits [maxPDBCells]uint8
	x := uint64(r)
	for i := b.k - 1; i >= 0; i-- {
		q, _ := bits.Mul64(x, b.magic[i])
		digits[i] = uint8(x - q*uint64(b.n-i))
		x = q
	}
	var used uint64
	for i := range b.k {
		p := selectBit(^used, int(digits[i]))
		pos[i] = uint8(p)
		used |= 1 << p
	}
	return used
}

// selectBit returns the position of the d-th (0-based) set bit of x, which
// has more than d set bits in its low 32.
func selectBit(x uint64, d int) int {
	for base := 0; ; base += 8 {
		c := bits.OnesCount8(uint8(x))
		if d < c {
			return base + int(selectByte[x&0xff][d])
		}
		d -= c
		x >>= 8
	}
}

// selectByte[b][d] is the position of the d-th set bit of the byte b.
var selectByte = func() (t [256][8]uint8) {
	for b := range 256 {
		d := 0
		for i := range 8 {
			if b>>i&1 != 0 {
				t[b][d] = uint8(i)
				d++
			}
		}
	}
	return t
}()

// layerWorker runs one layer on the chunks it takes.
type layerWorker struct {
	*builder
	layerCounts
	depth      int
	code, next uint64
	pos        [maxPDBCells]uint8
}

// pass runs the layer on placements p0 .. p1: it gives the placements with
// a state in the layer and no entry yet their entry, then pushes (expands
// the layer's states) or pulls (looks for the layer next to the states not
// reached).
func (w *layerWorker) pass(p0, p1 int64, pull bool) {
	t := w.t
	const ones = 0x5555555555555555
	fullSpread := spread(t.full)
	code := w.code * ones
	per := int64(1) << w.gshift // placements per word
	for wi := p0 >> w.gshift; wi < (p1+per-1)>>w.gshift; wi++ {
		word := atomic.LoadUint64(&w.groups[wi])
		x := word ^ code
		layer := ^(x | x>>1) & ones // bit 2c for the fields in the layer
		if !pull && layer == 0 {
			continue
		}
		for p := wi << w.gshift; p < min((wi+1)<<w.gshift, p1); p++ {
			g := word >> ((p & w.gmask) << 5) & w.gfull
			cur := fieldsEqual(g, w.code)
			if t.zone != nil && cur != 0 {
				w.record(p, cur)
			}
			if !pull {
				if cur != 0 {
					w.visit(p, cur, false)
				}
				continue
			}
			if cur != 0 && t.get(p) != unsetDelta {
				cur = 0 // p has its entry: nothing to do for its layer cells
			}
			if unreached := bits.OnesCount64(^(g|g>>1)&fullSpread) > w.k; cur != 0 || unreached {
				w.visit(p, cur, true)
			}
		}
		if !pull {
			// Close the regions just expanded: their code becomes 01.
			for {
				if atomic.CompareAndSwapUint64(&w.groups[wi], word, word^layer*(w.code^closedCode)) {
					break
				}
				word = atomic.LoadUint64(&w.groups[wi])
				x = word ^ code
				layer = ^(x | x>>1) & ones
			}
		}
	}
}

// visit runs the layer on placement p: it gives p its entry if cur, its
// cells in the layer, is not empty and p has none; it pushes from the
// regions of cur in push layers, and in pull layers (pull set) it pulls the
// regions of p not reached yet, if any.
func (w *layerWorker) visit(p int64, cur uint64, pull bool) {
	t := w.t
	occ := w.unrank(p, w.pos[:w.k])
	if cur != 0 && t.get(p) == unsetDelta {
		md := 0
		for i, tile := range t.tiles {
			md += t.dist(int(w.pos[i]), int(tile))
		}
		d := (w.depth - md) / 2
		if d > maxDelta {
			d = maxDelta
			w.clamped++
		}
		t.set(p, uint8(d))
		w.entered++
	}
	if !pull {
		for cur != 0 {
			region := t.region(cur&-cur, cur)
			cur &^= region
			w.neighbours(occ, region, false)
		}
		return
	}
	unreached := fieldsEqual(w.group(p), 0) & t.full &^ occ
	for unreached != 0 {
		region := t.region(unreached&-unreached, unreached)
		unreached &^= region
		if w.neighbours(occ, region, true) {
			w.mark(p, region, w.next)
			w.found++
		}
	}
}

// neighbours visits the neighbours of the state (placement w.pos, region):
// each pattern tile next to the region slides into each region cell it
// touches, and the blank's new region is the one around the cell the tile
// left (the moves are their own inverses, so these are also the
// predecessors). Whether a neighbour was reached is read from that one
// cell, since a region is marked on all its cells. Pushing (pull false), it
// marks the neighbours not reached yet as the next layer; pulling, it
// reports whether a neighbour is in the layer, and stops at the first.
func (w *layerWorker) neighbours(occ, region uint64, pull bool) bool {
	t := w.t
	for i := range w.k {
		from := w.pos[i]
		into := t.nbrs[from] & region
		for into != 0 {
			to := uint8(bits.TrailingZeros64(into))
			into &= into - 1
			w.pos[i] = to
			q := rank(w.n, w.pos[:w.k])
			w.pos[i] = from
			field := w.group(q) >> (2 * from) & 3
			switch {
			case pull:
				if field == w.code {
					return true
				}
			case field == 0:
				nfree := t.full &^ (occ&^(1<<from) | 1<<to)
				if w.mark(q, t.region(1<<from, nfree), w.next) {
					w.found++
				}
			}
		}
	}
	return false
}

// layerCounts are what a worker found in its passes over a layer: states
// reached for the next layer, placements given their entry, entries
// clamped to maxDelta.
type layerCounts struct{ found, entered, clamped int64 }

func (c *layerCounts) counts() layerCounts { return *c }

// A layerPass is one worker's share of a BFS layer.
type layerPass interface {
	pass(p0, p1 int64, pull bool)
	counts() layerCounts
}

// runLayers runs the layers of t's breadth-first search over np placements,
// from the start state already marked (reached: placements with an entry so
// far): each layer's workers, made by newPass, take chunks of 16,384
// placements (whole words of every array, so that a worker owns the words
// of its chunk's placements) until none is left. Layers push until the
// layer outgrows the placements not reached, or, when total (the states
// the search will reach) is not 0, a third of the states not reached; then
// they pull. It sets t's states, depth and clamped count and returns the
// placements reached. The context is checked between chunks.
func runLayers(ctx context.Context, t *patternTable, np, total int64, workers int, reached int64, report func(depth int, states int64, layer float64), newPass func(depth int) layerPass) (int64, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	t.states = 1
	frontier := int64(1) // states in the layer
	pull := false
	const chunkPlacements = 64 * 256
	chunks := (np + chunkPlacements - 1) / chunkPlacements
	for depth := 0; ; depth++ {
		if total == 0 {
			pull = pull || frontier > np-reached
		} else {
			pull = pull || 3*frontier > total-t.states
		}
		var (
			chunk, done    atomic.Int64
			found, entered atomic.Int64
			clamped        atomic.Int64
			wg             sync.WaitGroup
		)
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w := newPass(depth)
				for ctx.Err() == nil {
					c := chunk.Add(1) - 1
					if c >= chunks {
						break
					}
					p0 := c * chunkPlacements
					w.pass(p0, min(p0+chunkPlacements, np), pull)
					done.Add(1)
				}
				n := w.counts()
				found.Add(n.found)
				entered.Add(n.entered)
				clamped.Add(n.clamped)
			}()
		}
		awaitLayer(&wg, report, depth, t.states, &done, chunks)
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		t.depth = depth
		t.clamped += clamped.Load()
		reached += entered.Load()
		frontier = found.Load()
		if frontier == 0 {
			return reached, nil
		}
		t.states += frontier
		if report != nil {
			report(depth+1, t.states, 0)
		}
	}
}

// newPatternTable returns the empty table of the pattern tiles on s.
func newPatternTable(s Size, tiles []int) *patternTable {
	t := &patternTable{geom: newGeom(s)}
	for _, tile := range tiles {
		t.tiles = append(t.tiles, uint8(tile))
	}
	return t
}

// goalPlacement returns the rank of the placement with every pattern tile
// home (tile t at cell t) and the cells it occupies.
func (t *patternTable) goalPlacement() (int64, uint64) {
	var goal [maxPDBCells]uint8
	copy(goal[:len(t.tiles)], t.tiles)
	var occ uint64
	for _, p := range t.tiles {
		occ |= 1 << p
	}
	return rank(t.n, goal[:len(t.tiles)]), occ
}

// checkReached panics unless the search reached all np placements of t,
// as it must when the pattern leaves at least two cells free.
func checkReached(t *patternTable, reached, np int64) {
	if reached != np && len(t.tiles) < t.n-1 {
		panic(fmt.Sprintf("npuzzle: pattern %v: %d of %d placements reached", t.tiles, reached, np))
	}
}

// awaitLayer waits for the workers of a BFS layer (wg); with report set it
// reports the layer's share done (done of chunks) four times a second
// meanwhile.
func awaitLayer(wg *sync.WaitGroup, report func(depth int, states int64, layer float64), depth int, states int64, done *atomic.Int64, chunks int64) {
	if report == nil {
		wg.Wait()
		return
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-finished:
			return
		case <-tick.C:
			report(depth, states, float64(done.Load())/float64(chunks))
		}
	}
}

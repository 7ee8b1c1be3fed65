package npuzzle

import (
	"context"
	"fmt"
	"math/bits"
	"runtime/debug"
	"sync/atomic"
	"unsafe"
)

// maxMaskCells bounds the boards that buildTableMasks builds for: the
// regions of a placement fit a byte (a board of 16 cells has at most 8
// regions, since no two cells of different regions touch), and the region
// labels of every set of free cells fit a table of 2^16 words.
const maxMaskCells = 16

// buildTable builds the table of a pattern: with buildTableMasks on boards
// of up to 16 cells, with buildTableGroups on larger ones. Both give the
// same table (values, states, depth and clamped count).
func buildTable(ctx context.Context, s Size, tiles []int, workers int, report func(depth int, states int64, layer float64)) (*patternTable, error) {
	if s.Rows*s.Cols <= maxMaskCells {
		return buildTableMasks(ctx, s, tiles, workers, report)
	}
	return buildTableGroups(ctx, s, tiles, workers, report)
}

// buildTableMasks builds the table of a pattern by the breadth-first search
// of buildTableGroups, over the same abstract states (a placement and the
// region of free cells that holds the blank), with a byte a placement
// instead of two bits a cell:
//
//   - mask: bit r of placement p's byte says that p's r-th region (regions
//     numbered by their lowest cell) is reached; the bits of regions that p
//     does not have are set with the first, so 0 is a placement not reached
//     and 0xff one whose regions all are. A table of the region labels of
//     every set of free cells (2^n words) names the region a move leads into.
//   - layer: one bit a placement, set when it gains a region in a push
//     layer, cleared when that layer is expanded.
//   - the 4-bit table itself, written when a placement is first reached.
//
// The search never needs a region's depth: every move of a pattern tile
// changes the Manhattan distance by one, so the regions of a placement all
// have the depth parity of its distance, and a layer of depth d only reads
// placements of parity d and only writes placements of the other parity.
// Pushing, the placements of the layer's bits with parity d are expanded
// (all their reached regions: one reached earlier, at depth d-2 or less,
// has all its neighbours reached already, so expanding it again marks
// nothing). Pulling, a region not reached of a placement of parity d+1 is
// at depth d+1 exactly when one of its neighbours is reached at all: the
// neighbours are at depth d or more, and none deeper than d is reached
// yet. Pull layers thus skip half the placements and need no layer bits.
//
// Memory: a byte and a bit a placement plus the 4-bit table, 1.63 bytes a
// placement: 843 MB for the 8-tile pattern of the 4x4 board (against 2.34
// GB for buildTableGroups).
func buildTableMasks(ctx context.Context, s Size, tiles []int, workers int, report func(depth int, states int64, layer float64)) (*patternTable, error) {
	t := newPatternTable(s, tiles)
	n, k := t.n, len(t.tiles)
	if n > maxMaskCells || k == 0 || k >= n {
		panic(fmt.Sprintf("npuzzle: buildTableMasks with %d tiles on %d cells", k, n))
	}
	b := &maskBuilder{t: t, n: n, k: k, np: t.entries()}
	for i := k - 1; i >= 0; i-- {
		b.weight[i] = 1
		if i < k-1 {
			b.weight[i] = b.weight[i+1] * int64(n-i-1)
		}
	}
	for i := range k {
		r := uint64(n - i)
		b.magic[i] = ^uint64(0)/r + 1
		for c := range n {
			b.home[i][c] = uint8(t.dist(c, int(t.tiles[i])))
		}
	}
	b.labels = regionLabels(&t.geom)
	masks64 := make([]uint64, (b.np+7)/8)
	hugePages(masks64)
	b.masks = unsafe.Slice((*uint32)(unsafe.Pointer(&masks64[0])), len(masks64)*2)
	b.layer = make([]uint64, (b.np+63)/64)
	nib := make([]uint32, (b.np+7)/8)
	for i := range nib {
		nib[i] = ^uint32(0)
	}
	b.nib = nib
	t.data = unsafe.Slice((*byte)(unsafe.Pointer(&nib[0])), len(nib)*4)[:(b.np+1)/2]

	// The start: every tile home (tile t at cell t), the blank in cell 0,
	// whose region is the first (cell 0 is the lowest cell).
	start, occ := t.goalPlacement()
	w0 := maskWorker{maskBuilder: b}
	w0.mark(start, 1|(0xff<<(b.labels[t.full&^occ]>>60))&0xff)
	w0.enter(start, 0, 0)
	b.layer[start>>6] |= 1 << (start & 63)
	reached, err := runLayers(ctx, t, b.np, workers, 1, report, func(depth int) layerPass {
		return &maskWorker{maskBuilder: b, depth: depth}
	})
	if err != nil {
		return nil, err
	}
	b.masks, b.layer = nil, nil
	masks64 = nil
	debug.FreeOSMemory() // the masks are garbage: return them before the next table
	checkReached(t, reached, b.np)
	return t, nil
}

// regionLabels returns, for every set f of free cells of g, the number of
// its regions (connected components) in bits 60 to 63 and the region of
// each cell c of f in bits 3c to 3c+2, regions numbered by their lowest
// cell. It needs g.n <= 16.
func regionLabels(g *geom) []uint64 {
	labels := make([]uint64, 1<<g.n)
	for f := range uint64(len(labels)) {
		var lab uint64
		r := uint64(0)
		for rem := f; rem != 0; r++ {
			reg := g.region(rem&-rem, f)
			rem &^= reg
			for c := reg; c != 0; c &= c - 1 {
				lab |= r << (3 * bits.TrailingZeros64(c))
			}
		}
		labels[f] = lab | r<<60
	}
	return labels
}

// maskBuilder is the shared state of buildTableMasks.
type maskBuilder struct {
	t      *patternTable
	n, k   int
	np     int64
	masks  []uint32 // byte p&3 of word p>>2 is placement p's mask
	layer  []uint64 // bit p&63 of word p>>6 is placement p's layer bit
	nib    []uint32 // the table's bytes, as words for atomic writes
	labels []uint64 // see regionLabels
	magic  [maxPDBCells]uint64
	weight [maxPDBCells]int64               // weight[i]: the place value of tile i's digit in rank
	home   [maxPDBCells][maxMaskCells]uint8 // home[i][c]: from cell c to tile i's goal cell
}

// maskWorker runs one layer on the chunks it takes.
type maskWorker struct {
	*maskBuilder
	layerCounts
	depth  int
	pos    [maxPDBCells]uint8
	tileAt [maxMaskCells]uint8 // tileAt[pos[i]] = i
	occ    uint64              // the cells of pos
	// The placement placed last: its rank digits, and before each tile the
	// cells of the earlier tiles and their Manhattan distance.
	placed     bool
	digits     [maxPDBCells]uint8
	usedBefore [maxPDBCells + 1]uint64
	mdBefore   [maxPDBCells + 1]int
	regs       [maxMaskCells / 2]uint64
}

// moved returns the rank of w.pos with tile i moved from cell from to the
// free cell to, for the placement of rank p: rank's digit of tile i
// changes by the cells it crosses, less the earlier tiles on them, and the
// digit of each later tile on a crossed cell by one (the tile is no longer,
// or now, below it). A move along a row crosses no cell.
func (w *maskWorker) moved(p int64, i int, from, to uint8) int64 {
	lo, hi, sign := from, to, int64(1)
	if to < from {
		lo, hi, sign = to, from, -1
	}
	d := int64(to) - int64(from)
	for x := w.occ & (1<<hi - 1) &^ (2<<lo - 1); x != 0; x &= x - 1 {
		if j := int(w.tileAt[bits.TrailingZeros64(x)]); j < i {
			d -= sign
		} else {
			p += sign * w.weight[j]
		}
	}
	return p + d*w.weight[i]
}

// after returns, for a placement with free cells free, the region labels
// of the free cells after a tile moves from cell from to the free cell to,
// and the bit of the blank's new region (the one around from) in a mask.
func (b *maskBuilder) after(free uint64, from, to uint8) (lq uint64, bit uint32) {
	lq = b.labels[free&^(1<<to)|1<<from]
	return lq, 1 << (lq >> (3 * from) & 7)
}

// load returns placement p's mask.
func (b *maskBuilder) load(p int64) uint32 {
	return atomic.LoadUint32(&b.masks[p>>2]) >> ((p & 3) << 3) & 0xff
}

// mark sets bits in placement p's mask and returns the mask before.
func (w *maskWorker) mark(p int64, set uint32) uint32 {
	sh := (p & 3) << 3
	return atomic.OrUint32(&w.masks[p>>2], set<<sh) >> sh & 0xff
}

// enter gives placement p, first reached at depth with Manhattan distance
// md, its entry.
func (w *maskWorker) enter(p int64, depth, md int) {
	d := (depth - md) / 2
	if d > maxDelta {
		d = maxDelta
		w.clamped++
	}
	atomic.AndUint32(&w.nib[p>>3], ^(uint32(unsetDelta^d) << ((p & 7) << 2)))
	w.entered++
}

// place unranks placement p into w.pos and returns its Manhattan distance.
// It starts from the placement placed last: the tiles whose rank digits
// are the same up to the first that differs keep their cells, so that a
// pass over placements in order mostly places one tile.
func (w *maskWorker) place(p int64) (md int) {
	var digits [maxPDBCells]uint8
	x := uint64(p)
	for i := w.k - 1; i >= 0; i-- {
		q, _ := bits.Mul64(x, w.magic[i])
		digits[i] = uint8(x - q*uint64(w.n-i))
		x = q
	}
	i := 0
	if w.placed {
		for i < w.k && digits[i] == w.digits[i] {
			i++
		}
	}
	for ; i < w.k; i++ {
		used := w.usedBefore[i]
		c := uint8(selectBit(^used, int(digits[i])))
		w.pos[i], w.tileAt[c], w.digits[i] = c, uint8(i), digits[i]
		w.usedBefore[i+1] = used | 1<<c
		w.mdBefore[i+1] = w.mdBefore[i] + int(w.home[i][c])
	}
	w.placed = true
	w.occ = w.usedBefore[w.k]
	return w.mdBefore[w.k]
}

// regions returns the free cells of the placement in w.pos and their
// labels, and fills w.regs with its regions.
func (w *maskWorker) regions() (free, lab uint64) {
	free = w.t.full &^ w.occ
	lab = w.labels[free]
	if lab>>60 == 1 {
		w.regs[0] = free
		return free, lab
	}
	w.regs = [maxMaskCells / 2]uint64{}
	for c := free; c != 0; c &= c - 1 {
		cell := bits.TrailingZeros64(c)
		w.regs[lab>>(3*cell)&7] |= 1 << cell
	}
	return free, lab
}

// pass runs the layer on placements p0 .. p1, pulling or pushing.
func (w *maskWorker) pass(p0, p1 int64, pull bool) {
	if pull {
		w.pullPass(p0, p1)
	} else {
		w.pushPass(p0, p1)
	}
}

// pushPass expands the placements of parity depth whose layer bits are set
// among placements p0 .. p1, and clears their bits.
func (w *maskWorker) pushPass(p0, p1 int64) {
	for wi := p0 >> 6; wi < (p1+63)>>6; wi++ {
		word := atomic.LoadUint64(&w.layer[wi])
		if word == 0 {
			continue
		}
		var done uint64
		for x := word; x != 0; x &= x - 1 {
			p := wi<<6 + int64(bits.TrailingZeros64(x))
			md := w.place(p)
			if md&1 != w.depth&1 {
				continue // gained a region in this layer: the next one's
			}
			done |= x & -x
			free, lab := w.regions()
			m := w.load(p)
			for r := range int(lab >> 60) {
				if m>>r&1 != 0 {
					w.push(p, free, w.regs[r], md)
				}
			}
		}
		atomic.AndUint64(&w.layer[wi], ^done)
	}
}

// push marks the neighbours of the state (w.pos, region rc) not reached
// yet as reached at depth+1: each pattern tile next to the region slides
// into each region cell it touches, and the blank's new region is the one
// around the cell the tile left.
func (w *maskWorker) push(p int64, free, rc uint64, md int) {
	for i := range w.k {
		from := w.pos[i]
		into := w.t.nbrs[from] & rc
		for into != 0 {
			to := uint8(bits.TrailingZeros64(into))
			into &= into - 1
			q := w.moved(p, i, from, to)
			lq, bit := w.after(free, from, to)
			if w.load(q)&bit != 0 {
				continue
			}
			old := w.mark(q, bit|(0xff<<(lq>>60))&0xff)
			if old&bit != 0 {
				continue
			}
			w.found++
			atomic.OrUint64(&w.layer[q>>6], 1<<(q&63))
			if old == 0 {
				w.enter(q, w.depth+1, md-int(w.home[i][from])+int(w.home[i][to]))
			}
		}
	}
}

// pullPass gives the regions not reached of the placements of parity
// depth+1 among p0 .. p1 depth depth+1 when a neighbour is reached.
func (w *maskWorker) pullPass(p0, p1 int64) {
	for wi := p0 >> 2; wi < (p1+3)>>2; wi++ {
		word := atomic.LoadUint32(&w.masks[wi])
		if word == ^uint32(0) {
			continue
		}
		for j := range int64(4) {
			m := word >> (8 * j) & 0xff
			p := wi<<2 + j
			if m == 0xff || p >= p1 {
				continue
			}
			md := w.place(p)
			if md&1 == w.depth&1 {
				continue
			}
			free, lab := w.regions()
			nr := lab >> 60
			for r := range int(nr) {
				if m>>r&1 != 0 || !w.pull(p, free, w.regs[r]) {
					continue
				}
				w.found++
				if old := w.mark(p, 1<<r|(0xff<<nr)&0xff); old == 0 {
					w.enter(p, w.depth+1, md)
				}
			}
		}
	}
}

// pull reports whether a neighbour of the state (w.pos, region rc) is
// reached.
func (w *maskWorker) pull(p int64, free, rc uint64) bool {
	for i := range w.k {
		from := w.pos[i]
		into := w.t.nbrs[from] & rc
		for into != 0 {
			to := uint8(bits.TrailingZeros64(into))
			into &= into - 1
			if _, bit := w.after(free, from, to); w.load(w.moved(p, i, from, to))&bit != 0 {
				return true
			}
		}
	}
	return false
}

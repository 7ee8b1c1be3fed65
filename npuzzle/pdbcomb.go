package npuzzle

import (
	"context"
	"fmt"
	"math/bits"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"unsafe"
)

// maxCombCells bounds the boards that buildTableCombs builds for: the
// regions of a set of free cells are numbered in 3 bits (a board of 16
// cells has at most 8 regions, since no two cells of different regions
// touch), and the sets of cells index tables of 2^16 entries.
const maxCombCells = 16

// buildTable builds the table of a pattern: with buildTableCombs on boards
// of up to 16 cells, with buildTableGroups on larger ones. Both give the
// same table (values, states, depth and clamped count).
func buildTable(ctx context.Context, s Size, tiles []int, workers int, report func(depth int, states int64, layer float64)) (*patternTable, error) {
	if s.Rows*s.Cols <= maxCombCells {
		return buildTableCombs(ctx, s, tiles, workers, report)
	}
	return buildTableGroups(ctx, s, tiles, workers, report)
}

// buildTableCombs builds the table of a pattern by the breadth-first search
// of buildTableGroups, over the same abstract states (a placement and the
// region of free cells that holds the blank), in an order of its own: a
// placement is numbered by the set of cells its tiles occupy (its
// combination, C(n,k) of them) and the order of its tiles on those cells
// (a permutation of k). All the placements of a combination have the same
// free cells, so the same regions, and the bits that say which of their
// states are reached form one block of k! bits per region. A move changes
// the combination (to one of at most 24 neighbours on the 4x4 board) and
// changes the permutation's number by little, so that a pass over the
// placements of a combination in order reads and writes a few kilobytes of
// each neighbouring block, in the cache, instead of the whole array. A
// move that passes no tile (along a row, or down a column past free cells)
// keeps the permutation: it maps a word of 64 states onto a word, and the
// passes apply it 64 states at a time; only the moves that pass tiles go
// state by state.
//
// The arrays:
//
//   - reached: a bit a state, by combination, region and permutation.
//   - layer: a bit a placement, set when one of its states is reached in a
//     push layer, cleared when the next layer expands it.
//   - the 4-bit table in this order, written by the layer that expands a
//     placement first (pushing) or reaches it (pulling), by the worker
//     that owns its word; the end of the build copies it to the file's
//     order (rank).
//
// The search never needs a state's depth: every move of a pattern tile
// changes the Manhattan distance by one, so the states of a placement all
// have the depth parity of its distance, and that parity depends on the
// combination only. A layer of depth d only reads the combinations of
// parity d and only writes those of the other parity. Pushing, the
// placements of the layer's bits are expanded (all their reached states:
// one reached earlier, at depth d-2 or less, has all its neighbours reached
// already, so expanding it again marks nothing). Pulling, a state not
// reached of parity d+1 is at depth d+1 exactly when one of its neighbours
// is reached at all: the neighbours are at depth d or more, and none deeper
// than d is reached yet. Pull layers thus need no layer bits.
//
// Memory: a bit a state and a bit a placement plus the 4-bit table (502 MB
// for the 8-tile pattern of the 4x4 board), then the table in both orders
// (519 MB), against 843 MB for the byte a placement of the construction
// before and 2.34 GB for buildTableGroups. Time: 42 CPU-seconds for 7-8
// against 213 (docs/results/npuzzle.md).
func buildTableCombs(ctx context.Context, s Size, tiles []int, workers int, report func(depth int, states int64, layer float64)) (*patternTable, error) {
	t := newPatternTable(s, tiles)
	b := newCombBuilder(t)
	b.reached = make([]uint64, b.words)
	hugePages(b.reached)
	b.layer = make([]uint64, b.np/64)
	nib64 := make([]uint64, (b.np+15)/16)
	hugePages(nib64)
	for i := range nib64 {
		nib64[i] = ^uint64(0)
	}
	b.nib = unsafe.Slice((*uint32)(unsafe.Pointer(&nib64[0])), len(nib64)*2)
	// The permutations past k! in each block of 64 are not placements:
	// reached already, so that no pass looks at them.
	if pad := b.kp - b.kf; pad > 0 {
		for c := range b.combs {
			for r := range b.combs[c].regions() {
				b.reached[b.combs[c].base+int64(r+1)*b.kp/64-1] |= ^uint64(0) << (64 - pad)
			}
		}
	}

	// The start: every tile home (tile t at cell t), the blank in cell 0,
	// whose region is the first (cell 0 is the lowest cell).
	var goal [maxCombCells]uint8
	copy(goal[:], t.tiles)
	c0, perm0 := b.index(goal[:b.k])
	wi, bit := b.bit(c0, 0, perm0)
	b.reached[wi] |= bit
	b.layer[(int64(c0)*b.kp+perm0)>>6] |= bit
	reached, err := runLayers(ctx, t, b.np, b.total, workers, 0, report, func(depth int) layerPass {
		return &combWorker{combBuilder: b, depth: depth}
	})
	if err != nil {
		return nil, err
	}
	b.reached, b.layer = nil, nil
	debug.FreeOSMemory() // the bits are garbage: return them before the copy
	np := t.entries()
	checkReached(t, reached, np)
	t.data = make([]byte, (np+1)/2)
	b.toFileOrder(t.data, np, workers)
	b.nib, nib64 = nil, nil
	debug.FreeOSMemory() // the table in the search's order too
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

// combInfo is a combination: its cells, the labels of its free cells'
// regions (see regionLabels) and where its blocks of reached bits start.
type combInfo struct {
	occ    uint64
	labels uint64
	base   int64 // the word of region 0's block in reached
	parity uint8 // of the Manhattan distance of its placements
}

func (c *combInfo) regions() int { return int(c.labels >> 60) }

// combBuilder is the shared state of buildTableCombs.
type combBuilder struct {
	t      *patternTable
	n, k   int
	kf, kp int64 // k!, and k! rounded up to a multiple of 64
	np     int64 // combinations times kp: the search's placement numbers
	words  int64 // the words of reached
	total  int64 // the states the search reaches
	combs  []combInfo
	combOf []uint16 // combOf[occ]: the combination of the cells occ
	// reached: bit perm&63 of word combs[c].base + r*kp/64 + perm>>6 is
	// the state (combination c, permutation perm, region r).
	reached []uint64
	layer   []uint64 // bit P&63 of word P>>6: placement P = c*kp + perm
	nib     []uint32 // the table in the search's order, nibble P
	weight  [maxCombCells]int64
	// passBy[1][i][j]: how tile i moving up past tile j changes the
	// permutation: weight[i] if j comes after i, else -weight[j];
	// passBy[0], moving down, the opposite.
	passBy [2][maxCombCells][maxCombCells]int64
	places placer // the template of the workers' placers
}

func newCombBuilder(t *patternTable) *combBuilder {
	n, k := t.n, len(t.tiles)
	if n > maxCombCells || k == 0 || k >= n {
		panic(fmt.Sprintf("npuzzle: buildTableCombs with %d tiles on %d cells", k, n))
	}
	b := &combBuilder{t: t, n: n, k: k, kf: 1}
	for i := k - 1; i >= 0; i-- {
		b.weight[i] = b.kf
		b.kf *= int64(k - i)
	}
	b.kp = (b.kf + 63) &^ 63
	for i := range k {
		for j := range k {
			if j > i {
				b.passBy[1][i][j] = b.weight[i]
			} else {
				b.passBy[1][i][j] = -b.weight[j]
			}
			b.passBy[0][i][j] = -b.passBy[1][i][j]
		}
	}
	b.places = newPlacer(t, k)
	labels := regionLabels(&t.geom)
	b.combOf = make([]uint16, 1<<n)
	var odd uint64 // the cells an odd distance from cell 0
	for c := range n {
		if (c/t.cols+c%t.cols)&1 != 0 {
			odd |= 1 << c
		}
	}
	homeParity := 0
	for _, tile := range t.tiles {
		homeParity += bits.OnesCount64(odd >> tile & 1)
	}
	for occ := range uint64(1 << n) {
		if bits.OnesCount64(occ) != k {
			continue
		}
		b.combOf[occ] = uint16(len(b.combs))
		ci := combInfo{occ: occ, labels: labels[t.full&^occ], base: b.words}
		ci.parity = uint8(bits.OnesCount64(occ&odd)+homeParity) & 1
		b.combs = append(b.combs, ci)
		b.words += int64(ci.regions()) * b.kp / 64
	}
	b.np = int64(len(b.combs)) * b.kp
	b.total = b.words * 64 / b.kp * b.kf
	if k == n-1 {
		b.total /= 2 // parity: half the placements are not reached
	}
	return b
}

// combBuildBytes is the memory of buildTableCombs for k tiles on s: the
// reached and layer bits and the table in the search's order, then the
// two tables.
func combBuildBytes(s Size, k int) int64 {
	b := newCombBuilder(newPatternTable(s, make([]int, k)))
	search := b.words*8 + b.np/8 + b.np/2
	return max(search, b.np/2+(placements(b.n, k)+1)/2)
}

// index returns the combination and permutation of the placement pos.
func (b *combBuilder) index(pos []uint8) (int, int64) {
	var occ uint64
	for _, p := range pos {
		occ |= 1 << p
	}
	var used uint64
	perm := int64(0)
	for i, p := range pos {
		slot := bits.OnesCount64(occ & (1<<p - 1))
		perm += int64(slot-bits.OnesCount64(used&(1<<slot-1))) * b.weight[i]
		used |= 1 << slot
	}
	return int(b.combOf[occ]), perm
}

// toFileOrder copies the table from the search's order to rank's, in
// data, for the np placements; workers goroutines share the work. The
// placements of a prefix (the cells of all tiles but the last) are the
// last tile on each free cell in turn, in rank's order: their combinations
// differ by that cell, and their permutations by the weights of the tiles
// above it (its slot pushes theirs up by one; its own digit is 0).
func (b *combBuilder) toFileOrder(data []byte, np int64, workers int) {
	if workers <= 0 {
		workers = 1
	}
	last := int64(b.n - b.k + 1) // the placements of a prefix
	prefixes := np / last
	const chunk = 1 << 14 // prefixes, even: whole bytes of data
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pl := newPlacer(b.t, b.k-1)
			pl.rankOrder(b.n)
			for {
				q0 := (next.Add(1) - 1) * chunk
				if q0 >= prefixes {
					return
				}
				for q := q0; q < min(q0+chunk, prefixes); q++ {
					b.copyPrefix(data, &pl, q, q*last)
				}
			}
		}()
	}
	wg.Wait()
}

// copyPrefix copies the entries of the placements of prefix q, placements
// p onwards.
func (b *combBuilder) copyPrefix(data []byte, pl *placer, q, p int64) {
	pl.place(q)
	var occ uint64
	var wAt [maxCombCells]int64 // the weight of the tile on each cell
	above := int64(0)
	for i := range b.k - 1 {
		occ |= 1 << pl.pos[i]
	}
	var used uint64
	perm := int64(0)
	for i := range b.k - 1 {
		c := pl.pos[i]
		slot := bits.OnesCount64(occ & (1<<c - 1))
		perm += int64(slot-bits.OnesCount64(used&(1<<slot-1))) * b.weight[i]
		used |= 1 << slot
		wAt[c] = b.weight[i]
		above += b.weight[i]
	}
	for x := range uint8(b.n) {
		if occ>>x&1 != 0 {
			above -= wAt[x]
			continue
		}
		i := int64(b.combOf[occ|1<<x])*b.kp + perm + above
		data[p>>1] |= byte(b.nib[i>>3]>>((i&7)<<2)) & 15 << ((p & 1) << 2)
		p++
	}
}

// placer turns placement numbers into cells, tile by tile: digit i of the
// number, in the mixed radix radix[0], radix[1], ..., picks the digit-th
// slot not used by the tiles before i, and slot s is cell cellOf[s]. It
// starts from the placement placed last: the tiles whose digits are the
// same up to the first that differs keep their cells, so that a pass over
// numbers in order mostly places one tile.
type placer struct {
	k          int
	radix      [maxCombCells]uint64
	magic      [maxCombCells]uint64 // magic[i] divides by radix[i]: q = hi(x * magic[i]) for x < 2^32
	home       [maxCombCells][maxCombCells]uint8
	cellOf     [maxCombCells]uint8
	placed     bool
	x          int64 // the number placed
	low        int   // the last digit whose radix is not 1
	digits     [maxCombCells]uint8
	usedBefore [maxCombCells + 1]uint64
	mdBefore   [maxCombCells + 1]int
	pos        [maxCombCells]uint8 // the cell of each tile
	tileAt     [maxCombCells]uint8 // tileAt[pos[i]] = i
	// With orders set (permutations of 4 slots or more), the digits place
	// the first split = k-4 tiles (x is then the number / 24) and the last
	// four take the free slots rem in one of their 24 orders.
	orders bool
	split  int
	rem    [4]uint8
}

// lastOrders[v]: the order of the last four tiles on the four slots left
// (indices into them, ascending) for the permutation's number mod 24.
var lastOrders = func() (t [24][4]uint8) {
	for v := range 24 {
		left := []uint8{0, 1, 2, 3}
		for j, d := range []int{v / 6, v % 6 / 2, v % 2, 0} {
			t[v][j] = left[d]
			left = append(left[:d:d], left[d+1:]...)
		}
	}
	return t
}()

// newPlacer returns a placer of permutations of k slots (radix k, k-1, ...).
func newPlacer(t *patternTable, k int) placer {
	var pl placer
	pl.k = k
	for i := range k {
		for c := range t.n {
			pl.home[i][c] = uint8(t.dist(c, int(t.tiles[i])))
		}
	}
	pl.setRadix(k)
	if k >= 4 {
		pl.orders, pl.split, pl.low = true, k-4, k-5
	}
	return pl
}

// rankOrder makes pl place rank's numbers: n cells, radix n, n-1, ...
func (pl *placer) rankOrder(n int) {
	pl.setRadix(n)
	pl.orders = false
	for c := range n {
		pl.cellOf[c] = uint8(c)
	}
}

func (pl *placer) setRadix(top int) {
	pl.low = -1
	for i := range pl.k {
		pl.radix[i] = uint64(top - i)
		pl.magic[i] = ^uint64(0)/pl.radix[i] + 1
		if pl.radix[i] > 1 {
			pl.low = i
		}
	}
	pl.placed = false
}

// place places number x and returns its tiles' Manhattan distance. A
// number a little above the one placed last is reached by adding the
// difference to its digits, with few carries.
func (pl *placer) place(x int64) int {
	if !pl.orders {
		return pl.placeDigits(x, pl.k)
	}
	hi, lo := x/24, x%24
	if !pl.placed || hi != pl.x {
		pl.placeDigits(hi, pl.split)
		free := ^pl.usedBefore[pl.split]
		for j := range pl.rem {
			pl.rem[j] = uint8(bits.TrailingZeros64(free))
			free &= free - 1
		}
	}
	md := pl.mdBefore[pl.split]
	order := &lastOrders[lo]
	for j, r := range order {
		i, c := pl.split+j, pl.cellOf[pl.rem[r]]
		pl.pos[i], pl.tileAt[c] = c, uint8(i)
		md += int(pl.home[i][c])
	}
	return md
}

// placeDigits places number x on the first k tiles and returns their
// Manhattan distance.
func (pl *placer) placeDigits(x int64, k int) int {
	i := 0
	if pl.placed && x >= pl.x && x-pl.x < 1<<16 {
		i = k
		carry := uint64(x - pl.x)
		for j := pl.low; carry != 0; j-- {
			v := uint64(pl.digits[j]) + carry
			carry = 0
			if v >= pl.radix[j] {
				carry, _ = bits.Mul64(v, pl.magic[j])
				v -= carry * pl.radix[j]
			}
			pl.digits[j] = uint8(v)
			i = j
		}
	} else {
		var digits [maxCombCells]uint8
		u := uint64(x)
		for j := k - 1; j >= 0; j-- {
			if pl.radix[j] == 1 {
				continue // digit 0 (and no magic: 2^64 does not fit)
			}
			q, _ := bits.Mul64(u, pl.magic[j])
			digits[j] = uint8(u - q*pl.radix[j])
			u = q
		}
		if pl.placed {
			for i < k && digits[i] == pl.digits[i] {
				i++
			}
		}
		pl.digits = digits
	}
	for ; i < k; i++ {
		used := pl.usedBefore[i]
		s := uint8(selectBit(^used, int(pl.digits[i])))
		c := pl.cellOf[s]
		pl.pos[i], pl.tileAt[c] = c, uint8(i)
		pl.usedBefore[i+1] = used | 1<<s
		pl.mdBefore[i+1] = pl.mdBefore[i] + int(pl.home[i][c])
	}
	pl.placed, pl.x = true, x
	return pl.mdBefore[k]
}

// combWorker runs one layer on the chunks it takes.
type combWorker struct {
	*combBuilder
	layerCounts
	depth int
	pl    placer
	c     int // the combination of pl.cellOf, or -1
	// The moves of combination c, grouped by the region they enter, those
	// that pass no tile first: moves[first[r]:first[r+1]], of which
	// moves[first[r]:slow[r]] pass none.
	moves       [4 * maxCombCells]combMove
	first, slow [maxCombCells/2 + 1]uint8
	// The targets of each move that push listed for flushTargets.
	targets  [4 * maxCombCells][64]int64
	ntargets [4 * maxCombCells]uint8
}

// A combMove is a move of the tile on cell from to the free cell next to
// it, to, in a combination: the tiles on the cells between the two move
// one slot (btw; none for a move along a row), and the state it leads to
// has its reached bits from word word on and its placement number pbase
// plus its permutation. The blank's new region is the one around from. A
// move that passes no tile keeps the permutation, so it maps a word of 64
// permutations onto one word.
type combMove struct {
	from, to uint8
	up       uint8 // 1 if to > from
	btw      uint64
	word     int64
	pbase    int64
}

// setComb makes c the combination of the placements placed: it sets the
// placer's cells and lists the moves.
func (w *combWorker) setComb(c int) {
	if w.c == c {
		return
	}
	if w.pl.k == 0 {
		w.pl = w.places
	}
	w.c = c
	ci := &w.combs[c]
	s := 0
	for x := ci.occ; x != 0; x &= x - 1 {
		w.pl.cellOf[s] = uint8(bits.TrailingZeros64(x))
		s++
	}
	w.pl.placed = false
	free := w.t.full &^ ci.occ
	m := 0
	for r := range ci.regions() {
		w.first[r] = uint8(m)
		for pass := range 2 {
			if pass == 1 {
				w.slow[r] = uint8(m)
			}
			for x := free; x != 0; x &= x - 1 {
				to := uint8(bits.TrailingZeros64(x))
				if ci.labels>>(3*to)&7 != uint64(r) {
					continue
				}
				for y := w.t.nbrs[to] & ci.occ; y != 0; y &= y - 1 {
					from := uint8(bits.TrailingZeros64(y))
					lo, hi := min(from, to), max(from, to)
					btw := ci.occ & (1<<hi - 1) &^ (2<<lo - 1)
					if (btw != 0) != (pass == 1) {
						continue
					}
					c2 := int(w.combOf[ci.occ^(1<<from|1<<to)])
					r2 := w.combs[c2].labels >> (3 * from) & 7
					w.moves[m] = combMove{
						from: from, to: to, btw: btw,
						word:  w.combs[c2].base + int64(r2)*w.kp>>6,
						pbase: int64(c2) * w.kp,
					}
					if to > from {
						w.moves[m].up = 1
					}
					m++
				}
			}
		}
	}
	w.first[ci.regions()] = uint8(m)
}

// target returns the permutation of the state that move m, which passes
// tiles, leads to from the placement placed, of permutation perm: the
// tile's slot moves past the tiles between the two cells, which changes
// its digit by one for each of them that comes after it, and the digit of
// each that comes before it by one.
func (w *combWorker) target(m *combMove, perm int64) int64 {
	by := &w.passBy[m.up][w.pl.tileAt[m.from]]
	for x := m.btw; x != 0; x &= x - 1 {
		perm += by[w.pl.tileAt[bits.TrailingZeros64(x)]]
	}
	return perm
}

// enter gives placement P (in the search's order), reached at depth with
// Manhattan distance md, its entry unless it has one. The worker owns the
// word: P is in its chunk.
func (w *combWorker) enter(P int64, depth, md int) {
	sh := (P & 7) << 2
	if w.nib[P>>3]>>sh&15 != unsetDelta {
		return
	}
	d := (depth - md) / 2
	if d > maxDelta {
		d = maxDelta
		w.clamped++
	}
	w.nib[P>>3] ^= uint32(unsetDelta^d) << sh
	w.entered++
}

// pass runs the layer on placements p0 .. p1, pulling or pushing. The
// states of the layer's parity were reached by the layer before, pushing,
// if their layer bits are set: they get their entries here.
func (w *combWorker) pass(p0, p1 int64, pull bool) {
	w.c = -1
	for wi := p0 >> 6; wi < (p1+63)>>6; wi++ {
		c := int((wi << 6) / w.kp)
		if int(w.combs[c].parity) == w.depth&1 {
			w.layerWord(c, wi, !pull)
		} else if pull {
			w.pullWord(c, wi)
		} else {
			wi = (int64(c)+1)*w.kp>>6 - 1 // c has no layer bits of this layer
		}
	}
}

// reachedWord returns the index of the word of reached that holds region
// r's bits for the permutations of word sub of combination c.
func (w *combWorker) reachedWord(c int, r uint64, sub int64) int64 {
	return w.combs[c].base + int64(r)*w.kp>>6 + sub
}

// layerWord gives the placements of layer word wi, of combination c,
// their entries, expands their states when push is set, and clears their
// bits.
func (w *combWorker) layerWord(c int, wi int64, push bool) {
	word := w.layer[wi] // no one sets bits of c's parity in this layer
	if word == 0 {
		return
	}
	w.layer[wi] = 0
	w.setComb(c)
	sub := wi - int64(c)*w.kp>>6
	nr := uint64(w.combs[c].regions())
	var expand [maxCombCells / 2]uint64
	if push {
		for r := range nr {
			expand[r] = word & atomic.LoadUint64(&w.reached[w.reachedWord(c, r, sub)])
			for mi := w.first[r]; mi < w.slow[r]; mi++ {
				m := &w.moves[mi]
				w.pushWord(m.word+sub, m.pbase>>6+sub, expand[r])
			}
		}
	}
	for ; word != 0; word &= word - 1 {
		b := bits.TrailingZeros64(word)
		perm, P := sub<<6+int64(b), wi<<6+int64(b)
		if !push && w.nib[P>>3]>>((P&7)<<2)&15 != unsetDelta {
			continue // an entry already, and nothing to expand
		}
		w.enter(P, w.depth, w.pl.place(perm))
		for r := range nr {
			if expand[r]>>b&1 != 0 {
				w.push(perm, r)
			}
		}
	}
	if push {
		w.flushTargets()
	}
}

// flushTargets marks the targets that push listed, move by move: the
// targets of one move from the permutations of a word mostly fall in a few
// words, each marked at once.
func (w *combWorker) flushTargets() {
	for mi := range w.first[w.combs[w.c].regions()] {
		qs := w.targets[mi][:w.ntargets[mi]]
		if len(qs) == 0 {
			continue
		}
		w.ntargets[mi] = 0
		m := &w.moves[mi]
		cur, set := qs[0]>>6, uint64(0)
		for _, q := range qs {
			if q>>6 != cur {
				w.pushWord(m.word+cur, m.pbase>>6+cur, set)
				cur, set = q>>6, 0
			}
			set |= 1 << (q & 63)
		}
		w.pushWord(m.word+cur, m.pbase>>6+cur, set)
	}
}

// pushWord marks the states of bits set in reached word ri not reached yet
// as reached, with their bits in layer word li.
func (w *combWorker) pushWord(ri, li int64, set uint64) {
	set &^= atomic.LoadUint64(&w.reached[ri])
	if set == 0 {
		return
	}
	set &^= atomic.OrUint64(&w.reached[ri], set)
	if set == 0 {
		return
	}
	w.found += int64(bits.OnesCount64(set))
	atomic.OrUint64(&w.layer[li], set)
}

// push lists the neighbours of the state (placement placed, permutation
// perm, region r) that moves passing tiles lead to, for flushTargets to
// mark as reached at depth+1 if they are not, with their layer bits.
func (w *combWorker) push(perm int64, r uint64) {
	for mi := w.slow[r]; mi < w.first[r+1]; mi++ {
		w.targets[mi][w.ntargets[mi]] = w.target(&w.moves[mi], perm)
		w.ntargets[mi]++
	}
}

// pullWord gives the states not reached of the 64 placements of word wi
// (of combination c, of parity depth+1) depth depth+1 when a neighbour is
// reached. The worker owns their words; the neighbours' words are not
// written in this layer.
func (w *combWorker) pullWord(c int, wi int64) {
	ci := &w.combs[c]
	nr := uint64(ci.regions())
	sub := wi - int64(c)*w.kp>>6
	var open, got [maxCombCells / 2]uint64
	todo := uint64(0)
	for r := range nr {
		open[r] = ^w.reached[w.reachedWord(c, r, sub)]
		todo |= open[r]
	}
	if todo == 0 {
		return
	}
	w.setComb(c)
	for r := range nr {
		if open[r] == 0 {
			continue
		}
		for mi := w.first[r]; mi < w.slow[r]; mi++ {
			got[r] |= open[r] & w.reached[w.moves[mi].word+sub]
		}
		open[r] &^= got[r]
	}
	var slow, fast uint64 // states left to the moves that pass tiles, and reached
	for r := range nr {
		slow |= open[r]
		fast |= got[r]
	}
	for x := slow | fast; x != 0; x &= x - 1 {
		b := uint(bits.TrailingZeros64(x))
		P := wi<<6 + int64(b)
		if slow>>b&1 == 0 && w.nib[P>>3]>>((P&7)<<2)&15 != unsetDelta {
			continue // reached, and the placement has its entry: no need to place it
		}
		perm := sub<<6 + int64(b)
		md := w.pl.place(perm)
		found := fast>>b&1 != 0
		for r := range nr {
			if open[r]>>b&1 != 0 && w.pull(perm, r) {
				got[r] |= 1 << b
				found = true
			}
		}
		if found {
			w.enter(P, w.depth+1, md)
		}
	}
	for r := range nr {
		if got[r] != 0 {
			w.reached[w.reachedWord(c, r, sub)] |= got[r]
			w.found += int64(bits.OnesCount64(got[r]))
		}
	}
}

// pull reports whether a neighbour of the state (placement placed,
// permutation perm, region r) that a move passing tiles leads to is
// reached.
func (w *combWorker) pull(perm int64, r uint64) bool {
	for mi := w.slow[r]; mi < w.first[r+1]; mi++ {
		m := &w.moves[mi]
		q := w.target(m, perm)
		if w.reached[m.word+q>>6]>>(q&63)&1 != 0 {
			return true
		}
	}
	return false
}

// bit returns the word and bit of the state (c, perm, region r).
func (b *combBuilder) bit(c int, r uint64, perm int64) (int64, uint64) {
	return b.combs[c].base + int64(r)*b.kp>>6 + perm>>6, 1 << (perm & 63)
}

package edgematch

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
)

// compiled is a puzzle prepared for the backtrackers: oriented pieces,
// a scan order and candidate tables keyed by the colours of two known
// sides of each cell. It is read-only once built and shared by workers.
//
// Colours live in a padded grid: cell (r, c) is pad (r+1)*pw + c+1, a ring
// of virtual cells holds the frame colours, and col[pad*4+d] is the colour
// the piece in pad shows on side d. A step reads the colours its piece must
// match at fixed offsets of col, so the inner loop has no branches on the
// cell's position.
type compiled struct {
	p          *Puzzle
	rows, cols int
	pw         int // padded width, cols+2
	k          int // colour table size: colours are 0..k-1
	// ks is the key shift: a table's lists are keyed a<<ks | b for the
	// colours a and b of its key sides, 1<<ks >= k (a power of two, so
	// that the inner loops shift rather than multiply).
	ks uint8

	// Oriented pieces: o = an index into these slices. Rotations that show
	// the same colours as a smaller rotation of the same piece are dropped.
	oriPacked []uint32 // N | E<<8 | S<<16 | W<<24
	oriPiece  []int32
	oriRot    []uint8
	// oriPrev is the piece identical to oriPiece[o] (up to rotation) that
	// must be used before it, or -1: identical pieces are taken in index
	// order, so the search never tries the same board twice with twins
	// exchanged.
	oriPrev []int32
	// hasTwins is true when some piece has an identical one.
	hasTwins bool
	// twinFactor is the product of m! over the classes of m identical
	// pieces: the solutions each solution found stands for.
	twinFactor float64

	// The scan: step i fills pad cell stepPad[i]. Its candidates are
	// cand[start[t] : start[t+1]] with t = tab[i] + (a<<ks | b), where
	// a = col[srcA[i]] and b = col[srcB[i]]; the known sides beyond those two are checked
	// against xSrc[j] for j in xStart[i]..xStart[i+1].
	n        int
	stepPad  []int32
	stepCell []int32 // row*cols + col
	srcA     []int32
	srcB     []int32
	tab      []int32
	xStart   []int32
	xSide    []uint8
	xSrc     []int32
	cand     []candidate
	start    []int32

	// Initial state: frame colours and hints in col, hint pieces used.
	colInit  []byte
	usedInit []uint64
	hinted   []Placement // per cell: the hint, or NoPiece

	// hintsFit is false when two hints, or a hint and the frame, disagree:
	// the puzzle then has no solution.
	hintsFit bool

	// tables maps (outward mask, key sides) to the first entry of its
	// table in start; shuffle is the order of the candidates, if random.
	tables  map[tabKey]int32
	shuffle *rand.Rand

	// The candidate masks of the exact backtracker (see masks.go):
	// maskOK when every list of the steps' tables has at most 64 entries;
	// lists is the number of lists then; placing piece p flips the bits
	// tog[togStart[p]:togStart[p+1]] (list<<6 | bit); prevPiece is the
	// twin piece p must follow, or -1.
	maskOK   bool
	lists    int
	togStart []int32
	tog      []uint32
	tog4     [][4]uint32
	// aPrev[i], bPrev[i]: the shift of the side of step i-1's piece that
	// keys step i (-1: read col); steps: the per-step fields of the loops
	// side by side.
	aPrev, bPrev []int8
	steps        []loopStep
	prevPiece    []int32

	// symmetry is the number of board rotations folded away by forcing the
	// lowest corner piece into a canonical corner: 4, 2 or 1 (none).
	symmetry int
	// solutionWeight is the number of solutions each solution found
	// stands for: symmetry * twinFactor, capped at math.MaxInt64.
	solutionWeight int64
}

// candidate is an entry of a candidate table: an oriented piece with its
// colours and piece number at hand, so that the inner loop reads one
// 8-byte entry per candidate.
type candidate struct {
	packed uint32 // N | E<<8 | S<<16 | W<<24
	piece  uint16
	o      uint16 // the oriented piece
}

// zeroSrc is an offset of col that always holds 0: the north side of the
// top left virtual cell, which no real cell faces.
const zeroSrc = 0

// compileOptions tune compile.
type compileOptions struct {
	order Order
	// cells, when set, is the scan order (overrides order).
	cells []int
	// breakSymmetry forces the first corner piece into a canonical corner
	// on boards whose rotations map solutions to solutions.
	breakSymmetry bool
	// shuffle, when non-nil, shuffles every candidate list.
	shuffle *rand.Rand
}

var padDelta = func(pw int) [4]int { return [4]int{-pw, 1, pw, -1} }

// compile prepares p for search. p must be valid.
func compile(p *Puzzle, o compileOptions) (*compiled, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	c := &compiled{p: p, rows: p.Rows, cols: p.Cols, pw: p.Cols + 2, k: p.Colours(), symmetry: 1}
	c.ks = uint8(bits.Len(uint(max(c.k, 1) - 1)))
	// Oriented pieces.
	rots := 4
	if p.FixedOrientation {
		rots = 1
	}
	for i, t := range p.Tiles {
		seen := [4]Tile{}
		for r := range rots {
			rt := t.Rotate(r)
			dup := false
			for _, s := range seen[:r] {
				dup = dup || s == rt
			}
			seen[r] = rt
			if dup {
				continue
			}
			c.oriPacked = append(c.oriPacked, uint32(rt[0])|uint32(rt[1])<<8|uint32(rt[2])<<16|uint32(rt[3])<<24)
			c.oriPiece = append(c.oriPiece, int32(i))
			c.oriRot = append(c.oriRot, uint8(r))
		}
	}
	c.twins(rots)
	if len(c.oriPacked) > 1<<16 {
		return nil, fmt.Errorf("edgematch: %d oriented pieces, above the solver's limit of 65536", len(c.oriPacked))
	}

	// Padded colours: the frame on the virtual ring, then the hints.
	pads := (p.Rows + 2) * c.pw
	c.colInit = make([]byte, pads*4)
	delta := padDelta(c.pw)
	for r := range p.Rows {
		for col := range p.Cols {
			for d := range 4 {
				if frameIndex(p.Rows, p.Cols, r, col, d) >= 0 {
					nb := c.pad(r*p.Cols+col) + delta[d]
					c.colInit[nb*4+(d+2)&3] = byte(p.FrameColour(r, col, d))
				}
			}
		}
	}
	c.usedInit = make([]uint64, (len(p.Tiles)+63)/64)
	c.hinted = make([]Placement, p.Cells())
	for i := range c.hinted {
		c.hinted[i].Piece = NoPiece
	}
	for _, h := range p.Hints {
		cell := h.Row*p.Cols + h.Col
		c.hinted[cell] = Placement{h.Piece, h.Rot}
		c.usedInit[h.Piece>>6] |= 1 << (h.Piece & 63)
		rt := p.Tiles[h.Piece].Rotate(h.Rot)
		for d := range 4 {
			c.colInit[c.pad(cell)*4+d] = byte(rt[d])
		}
	}

	c.hintsFit = hintsFit(p)

	// The scan order, hints left out.
	cells := o.cells
	if cells == nil {
		cells = o.order.Cells(p.Rows, p.Cols)
	}
	known := make([]bool, p.Cells())
	for _, h := range p.Hints {
		known[h.Row*p.Cols+h.Col] = true
	}

	// Symmetry: on a grey-framed board with free rotations and no hints,
	// turning a solution by 90 degrees (square) or 180 degrees gives another
	// one; the corner piece of lowest number then only goes to the top left
	// corner (square) or to one of the two top corners.
	forbidMask := map[int]bool{}
	forbidPiece := -1
	if o.breakSymmetry && p.Frame == nil && !p.FixedOrientation && len(p.Hints) == 0 && p.Rows >= 2 && p.Cols >= 2 {
		for i, t := range p.Tiles {
			if isCornerTile(t) && !c.hasTwin(i) {
				forbidPiece = i
				break
			}
		}
		if forbidPiece >= 0 {
			se := 1<<South | 1<<East
			sw := 1<<South | 1<<West
			forbidMask[se], forbidMask[sw] = true, true
			c.symmetry = 2
			if p.Rows == p.Cols {
				forbidMask[1<<North|1<<East] = true
				c.symmetry = 4
			}
		}
	}

	c.tables = map[tabKey]int32{}
	c.shuffle = o.shuffle
	for _, cell := range cells {
		if known[cell] {
			continue
		}
		r, col := cell/p.Cols, cell%p.Cols
		pad := c.pad(cell)
		var sides []int
		var srcs []int32
		for _, d := range [4]int{West, North, East, South} {
			nb := pad + delta[d]
			nr, ncol := r+[4]int{-1, 0, 1, 0}[d], col+[4]int{0, 1, 0, -1}[d]
			if nr < 0 || nr >= p.Rows || ncol < 0 || ncol >= p.Cols || known[nr*p.Cols+ncol] {
				sides = append(sides, d)
				srcs = append(srcs, int32(nb*4+(d+2)&3))
			}
		}
		mask := outwardMask(p.Rows, p.Cols, r, col)
		key := tabKey{mask, -1, -1}
		srcA, srcB := int32(zeroSrc), int32(zeroSrc)
		if len(sides) > 0 {
			key.a, srcA = sides[0], srcs[0]
		}
		if len(sides) > 1 {
			key.b, srcB = sides[1], srcs[1]
		}
		t, ok := c.tables[key]
		if !ok {
			t = int32(len(c.start))
			c.tables[key] = t
			c.buildTable(key.mask, key.a, key.b, forbidMask[mask], forbidPiece, o.shuffle)
		}
		c.stepPad = append(c.stepPad, int32(pad))
		c.stepCell = append(c.stepCell, int32(cell))
		c.srcA = append(c.srcA, srcA)
		c.srcB = append(c.srcB, srcB)
		c.tab = append(c.tab, t)
		c.xStart = append(c.xStart, int32(len(c.xSide)))
		for j := 2; j < len(sides); j++ {
			if p.Frame == nil && mask>>sides[j]&1 != 0 {
				// Grey faces out: every table's pieces show it.
				continue
			}
			c.xSide = append(c.xSide, uint8(sides[j]))
			c.xSrc = append(c.xSrc, srcs[j])
		}
		known[cell] = true
	}
	c.n = len(c.stepPad)
	c.solutionWeight = math.MaxInt64
	if w := float64(c.symmetry) * c.twinFactor; w < math.MaxInt64/2 {
		c.solutionWeight = int64(w)
	}
	c.xStart = append(c.xStart, int32(len(c.xSide)))
	c.buildPrevKeys()
	c.buildMasks()
	return c, nil
}

// tabKey names a candidate table: the cells' outward sides and the two
// sides whose colours key it (-1: none).
type tabKey struct{ mask, a, b int }

// table returns the table for key, building it if needed (without
// symmetry breaking).
func (c *compiled) table(key tabKey) int32 {
	t, ok := c.tables[key]
	if !ok {
		t = int32(len(c.start))
		c.tables[key] = t
		c.buildTable(key.mask, key.a, key.b, false, -1, c.shuffle)
	}
	return t
}

// key returns the offset in a table of the list for key colours a and b.
func (c *compiled) key(a, b int) int { return a<<c.ks | b }

// pad returns the padded index of cell row*cols + col.
func (c *compiled) pad(cell int) int {
	return (cell/c.cols+1)*c.pw + cell%c.cols + 1
}

// isCornerTile reports whether t has grey on two adjacent sides.
func isCornerTile(t Tile) bool {
	for d := range 4 {
		if t[d] == Grey && t[(d+1)&3] == Grey {
			return true
		}
	}
	return false
}

// fits reports whether oriented piece o may stand in a cell whose outward
// sides are mask: never grey on an inner side, and on a grey-framed puzzle
// grey on every outward side.
func (c *compiled) fits(o int, mask int) bool {
	col := c.oriPacked[o]
	for d := range 4 {
		g := byte(col>>(8*d)) == 0
		out := mask>>d&1 != 0
		if !out && g {
			return false
		}
		if out && c.p.Frame == nil && !g {
			return false
		}
	}
	return true
}

// buildTable appends to start and cand the candidate table for cells with
// outward mask, keyed by the colours of sides a and b (-1: none, key 0).
func (c *compiled) buildTable(mask, a, b int, forbid bool, forbidPiece int, shuffle *rand.Rand) {
	buckets := make([][]uint16, 1<<(2*c.ks))
	for o := range c.oriPacked {
		if !c.fits(o, mask) || (forbid && int(c.oriPiece[o]) == forbidPiece) {
			continue
		}
		ka, kb := 0, 0
		if a >= 0 {
			ka = int(byte(c.oriPacked[o] >> (8 * a)))
		}
		if b >= 0 {
			kb = int(byte(c.oriPacked[o] >> (8 * b)))
		}
		buckets[c.key(ka, kb)] = append(buckets[c.key(ka, kb)], uint16(o))
	}
	for _, bk := range buckets {
		if shuffle != nil {
			shuffle.Shuffle(len(bk), func(i, j int) { bk[i], bk[j] = bk[j], bk[i] })
		}
		c.start = append(c.start, int32(len(c.cand)))
		for _, o := range bk {
			c.cand = append(c.cand, candidate{packed: c.oriPacked[o], piece: uint16(c.oriPiece[o]), o: o})
		}
	}
	c.start = append(c.start, int32(len(c.cand)))
}

// board converts the oriented pieces chosen at steps 0..len(placed)-1
// into a Board, with the hints.
func (c *compiled) board(placed []uint16) *Board {
	b := NewBoard(c.rows, c.cols)
	for cell, h := range c.hinted {
		if h.Piece != NoPiece {
			b.Cells[cell] = h
		}
	}
	for i, o := range placed {
		b.Cells[c.stepCell[i]] = Placement{int(c.oriPiece[o]), int(c.oriRot[o])}
	}
	return b
}

// hintsFit reports whether the hints agree with each other and with the
// frame: abutting hints show the same colour, hints on the border show the
// frame outward, and no hint shows grey towards another cell.
func hintsFit(p *Puzzle) bool {
	b := NewBoard(p.Rows, p.Cols)
	for _, h := range p.Hints {
		b.Set(h.Row, h.Col, h.Piece, h.Rot)
	}
	for _, h := range p.Hints {
		cell := b.At(h.Row, h.Col)
		for d := range 4 {
			e := p.edge(cell, d)
			if frameIndex(p.Rows, p.Cols, h.Row, h.Col, d) >= 0 {
				if e != p.FrameColour(h.Row, h.Col, d) {
					return false
				}
				continue
			}
			if e == Grey {
				return false
			}
			nr, nc := h.Row+[4]int{-1, 0, 1, 0}[d], h.Col+[4]int{0, 1, 0, -1}[d]
			if nb := b.At(nr, nc); nb.Piece != NoPiece && p.edge(nb, (d+2)&3) != e {
				return false
			}
		}
	}
	return true
}

// canonical returns the smallest rotation of t (t itself when rotations
// are not allowed), so that identical pieces have the same canonical form.
func canonical(t Tile, rots int) Tile {
	best := t
	for r := 1; r < rots; r++ {
		rt := t.Rotate(r)
		for d := range 4 {
			if rt[d] != best[d] {
				if rt[d] < best[d] {
					best = rt
				}
				break
			}
		}
	}
	return best
}

// twins fills oriPrev and twinFactor. Hinted pieces take no part.
func (c *compiled) twins(rots int) {
	hinted := make([]bool, len(c.p.Tiles))
	for _, h := range c.p.Hints {
		hinted[h.Piece] = true
	}
	last := map[Tile]int{}
	count := map[Tile]int{}
	prev := make([]int32, len(c.p.Tiles))
	c.twinFactor = 1
	for i, t := range c.p.Tiles {
		prev[i] = -1
		if hinted[i] {
			continue
		}
		k := canonical(t, rots)
		if j, ok := last[k]; ok {
			prev[i] = int32(j)
			c.hasTwins = true
		}
		last[k] = i
		count[k]++
		c.twinFactor *= float64(count[k])
	}
	c.oriPrev = make([]int32, len(c.oriPiece))
	for o, p := range c.oriPiece {
		c.oriPrev[o] = prev[p]
	}
}

// hasTwin reports whether another piece is identical to piece i.
func (c *compiled) hasTwin(i int) bool {
	for o, p := range c.oriPiece {
		if c.oriPrev[o] == int32(i) || (int(p) == i && c.oriPrev[o] >= 0) {
			return true
		}
	}
	return false
}

// hintedPiece reports whether piece i is fixed by a hint.
func (c *compiled) hintedPiece(i int) bool {
	return c.usedInit[i>>6]&(1<<(i&63)) != 0
}

// bitsSet returns the number of bits set in m.
func bitsSet(m int) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

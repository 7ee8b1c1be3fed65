package kernel

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"tessera/edgematch"
)

// Compiled is a puzzle prepared for the backtrackers: oriented pieces,
// a scan order and candidate tables keyed by the colours of two known
// sides of each cell. It is read-only once built and shared by workers.
//
// Colours live in a padded grid: cell (r, c) is pad (r+1)*pw + c+1, a ring
// of virtual cells holds the frame colours, and col[pad*4+d] is the colour
// the piece in pad shows on side d. A step reads the colours its piece must
// match at fixed offsets of col, so the inner loop has no branches on the
// cell's position.
type Compiled struct {
	P          *edgematch.Puzzle
	Rows, Cols int
	pw         int // padded width, cols+2
	K          int // colour table size: colours are 0..k-1
	// ks is the key shift: a table's lists are keyed a<<ks | b for the
	// colours a and b of its key sides, 1<<ks >= k (a power of two, so
	// that the inner loops shift rather than multiply).
	ks uint8

	// Oriented pieces: o = an index into these slices. Rotations that show
	// the same colours as a smaller rotation of the same piece are dropped.
	OriPacked []uint32 // N | E<<8 | S<<16 | W<<24
	OriPiece  []int32
	OriRot    []uint8
	// oriPrev is the piece identical to oriPiece[o] (up to rotation) that
	// must be used before it, or -1: identical pieces are taken in index
	// order, so the search never tries the same board twice with twins
	// exchanged.
	oriPrev []int32
	// hasTwins is true when some piece has an identical one.
	hasTwins bool
	// TwinFactor is the product of m! over the classes of m identical
	// pieces: the solutions each solution found stands for.
	TwinFactor float64

	// The scan: step i fills pad cell stepPad[i]. Its candidates are
	// cand[start[t] : start[t+1]] with t = tab[i] + (a<<ks | b), where
	// a = col[srcA[i]] and b = col[srcB[i]]; the known sides beyond those two are checked
	// against xSrc[j] for j in xStart[i]..xStart[i+1].
	N        int
	StepPad  []int32
	StepCell []int32 // row*cols + col
	SrcA     []int32
	SrcB     []int32
	tab      []int32
	XStart   []int32
	XSide    []uint8
	XSrc     []int32
	Cand     []candidate
	Start    []int32

	// Initial state: frame colours and hints in col, hint pieces used.
	ColInit  []byte
	UsedInit []uint64
	Hinted   []edgematch.Placement // per cell: the hint, or NoPiece

	// HintsFit is false when two hints, or a hint and the frame, disagree:
	// the puzzle then has no solution.
	HintsFit bool

	// tables maps (outward mask, key sides) to the first entry of its
	// table in start; shuffle is the order of the candidates, if random.
	tables  map[TabKey]int32
	shuffle *rand.Rand

	// The candidate masks of the exact backtracker (see masks.go):
	// maskOK when every list of the steps' tables has at most 64 entries;
	// lists is the number of lists then; placing piece p flips the bits
	// tog[togStart[p]:togStart[p+1]] (list<<6 | bit); prevPiece is the
	// twin piece p must follow, or -1.
	MaskOK   bool
	lists    int
	togStart []int32
	tog      []uint32
	tog4     [][4]uint32
	// aPrev[i], bPrev[i]: the shift of the side of step i-1's piece that
	// keys step i (-1: read col); steps: the per-step fields of the loops
	// side by side.
	aPrev, bPrev []int8
	Steps        []loopStep
	prevPiece    []int32

	// symmetry is the number of board rotations folded away by forcing the
	// lowest corner piece into a canonical corner: 4, 2 or 1 (none).
	symmetry int
	// SolutionWeight is the number of solutions each solution found
	// stands for: symmetry * twinFactor, capped at math.MaxInt64.
	SolutionWeight int64
}

// candidate is an entry of a candidate table: an oriented piece with its
// colours and piece number at hand, so that the inner loop reads one
// 8-byte entry per candidate.
type candidate struct {
	Packed uint32 // N | E<<8 | S<<16 | W<<24
	Piece  uint16
	O      uint16 // the oriented piece
}

// zeroSrc is an offset of col that always holds 0: the north side of the
// top left virtual cell, which no real cell faces.
const zeroSrc = 0

// CompileOptions tune compile.
type CompileOptions struct {
	Order edgematch.Order
	// Cells, when set, is the scan order (overrides order).
	Cells []int
	// BreakSymmetry forces the first corner piece into a canonical corner
	// on boards whose rotations map solutions to solutions.
	BreakSymmetry bool
	// Shuffle, when non-nil, shuffles every candidate list.
	Shuffle *rand.Rand
}

var padDelta = func(pw int) [4]int { return [4]int{-pw, 1, pw, -1} }

// Compile prepares p for search. p must be valid.
func Compile(p *edgematch.Puzzle, o CompileOptions) (*Compiled, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	c := &Compiled{P: p, Rows: p.Rows, Cols: p.Cols, pw: p.Cols + 2, K: p.Colours(), symmetry: 1}
	c.ks = uint8(bits.Len(uint(max(c.K, 1) - 1)))
	rots := 4
	if p.FixedOrientation {
		rots = 1
	}
	c.orient(rots)
	c.twins(rots)
	if len(c.OriPacked) > 1<<16 {
		return nil, fmt.Errorf("edgematch: %d oriented pieces, above the solver's limit of 65536", len(c.OriPacked))
	}
	c.initState()
	c.HintsFit = HintsFit(p)

	// The scan order, hints left out.
	cells := o.Cells
	if cells == nil {
		cells = o.Order.Cells(p.Rows, p.Cols)
	}
	forbidPiece, forbidMask := c.foldSymmetry(o)
	c.tables = map[TabKey]int32{}
	c.shuffle = o.Shuffle
	c.scanSteps(cells, forbidPiece, forbidMask, o.Shuffle)
	c.N = len(c.StepPad)
	c.SolutionWeight = math.MaxInt64
	if w := float64(c.symmetry) * c.TwinFactor; w < math.MaxInt64/2 {
		c.SolutionWeight = int64(w)
	}
	c.XStart = append(c.XStart, int32(len(c.XSide)))
	c.buildPrevKeys()
	c.buildMasks()
	return c, nil
}

// orient lists the oriented pieces: each piece's first rots rotations,
// those that show the colours of a smaller rotation dropped.
func (c *Compiled) orient(rots int) {
	for i, t := range c.P.Tiles {
		seen := [4]edgematch.Tile{}
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
			c.OriPacked = append(c.OriPacked, uint32(rt[0])|uint32(rt[1])<<8|uint32(rt[2])<<16|uint32(rt[3])<<24)
			c.OriPiece = append(c.OriPiece, int32(i))
			c.OriRot = append(c.OriRot, uint8(r))
		}
	}
}

// initState sets the initial state: the padded colours (the frame on the
// virtual ring, then the hints), the hints' pieces used, Hinted.
func (c *Compiled) initState() {
	p := c.P
	pads := (p.Rows + 2) * c.pw
	c.ColInit = make([]byte, pads*4)
	delta := padDelta(c.pw)
	for r := range p.Rows {
		for col := range p.Cols {
			for d := range 4 {
				if edgematch.FrameIndex(p.Rows, p.Cols, r, col, d) >= 0 {
					nb := c.pad(r*p.Cols+col) + delta[d]
					c.ColInit[nb*4+(d+2)&3] = byte(p.FrameColour(r, col, d))
				}
			}
		}
	}
	c.UsedInit = make([]uint64, (len(p.Tiles)+63)/64)
	c.Hinted = make([]edgematch.Placement, p.Cells())
	for i := range c.Hinted {
		c.Hinted[i].Piece = edgematch.NoPiece
	}
	for _, h := range p.Hints {
		cell := h.Row*p.Cols + h.Col
		c.Hinted[cell] = edgematch.Placement{Piece: h.Piece, Rot: h.Rot}
		c.UsedInit[h.Piece>>6] |= 1 << (h.Piece & 63)
		rt := p.Tiles[h.Piece].Rotate(h.Rot)
		for d := range 4 {
			c.ColInit[c.pad(cell)*4+d] = byte(rt[d])
		}
	}
}

// foldSymmetry: on a grey-framed board with free rotations and no hints,
// turning a solution by 90 degrees (square) or 180 degrees gives another
// one; the corner piece of lowest number then only goes to the top left
// corner (square) or to one of the two top corners. It returns that piece
// (-1: none) and the outward masks of the corners it may not take, and
// sets c.symmetry.
func (c *Compiled) foldSymmetry(o CompileOptions) (forbidPiece int, forbidMask map[int]bool) {
	p := c.P
	forbidMask = map[int]bool{}
	forbidPiece = -1
	if o.BreakSymmetry && p.Frame == nil && !p.FixedOrientation && len(p.Hints) == 0 && p.Rows >= 2 && p.Cols >= 2 {
		for i, t := range p.Tiles {
			if IsCornerTile(t) && !c.hasTwin(i) {
				forbidPiece = i
				break
			}
		}
		if forbidPiece >= 0 {
			se := 1<<edgematch.South | 1<<edgematch.East
			sw := 1<<edgematch.South | 1<<edgematch.West
			forbidMask[se], forbidMask[sw] = true, true
			c.symmetry = 2
			if p.Rows == p.Cols {
				forbidMask[1<<edgematch.North|1<<edgematch.East] = true
				c.symmetry = 4
			}
		}
	}
	return forbidPiece, forbidMask
}

// scanSteps makes a step of every cell of the scan that no hint fills:
// its two key sides (the first known sides in the order W, N, E, S), its
// table (built the first time its key occurs) and the extra known sides
// to check.
func (c *Compiled) scanSteps(cells []int, forbidPiece int, forbidMask map[int]bool, shuffle *rand.Rand) {
	p := c.P
	delta := padDelta(c.pw)
	known := make([]bool, p.Cells())
	for _, h := range p.Hints {
		known[h.Row*p.Cols+h.Col] = true
	}
	for _, cell := range cells {
		if known[cell] {
			continue
		}
		r, col := cell/p.Cols, cell%p.Cols
		pad := c.pad(cell)
		var sides []int
		var srcs []int32
		for _, d := range [4]int{edgematch.West, edgematch.North, edgematch.East, edgematch.South} {
			nb := pad + delta[d]
			nr, ncol := r+[4]int{-1, 0, 1, 0}[d], col+[4]int{0, 1, 0, -1}[d]
			if nr < 0 || nr >= p.Rows || ncol < 0 || ncol >= p.Cols || known[nr*p.Cols+ncol] {
				sides = append(sides, d)
				srcs = append(srcs, int32(nb*4+(d+2)&3))
			}
		}
		mask := edgematch.OutwardMask(p.Rows, p.Cols, r, col)
		key := TabKey{mask, -1, -1}
		srcA, srcB := int32(zeroSrc), int32(zeroSrc)
		if len(sides) > 0 {
			key.A, srcA = sides[0], srcs[0]
		}
		if len(sides) > 1 {
			key.B, srcB = sides[1], srcs[1]
		}
		t, ok := c.tables[key]
		if !ok {
			t = int32(len(c.Start))
			c.tables[key] = t
			c.buildTable(key.Mask, key.A, key.B, forbidMask[mask], forbidPiece, shuffle)
		}
		c.StepPad = append(c.StepPad, int32(pad))
		c.StepCell = append(c.StepCell, int32(cell))
		c.SrcA = append(c.SrcA, srcA)
		c.SrcB = append(c.SrcB, srcB)
		c.tab = append(c.tab, t)
		c.XStart = append(c.XStart, int32(len(c.XSide)))
		for j := 2; j < len(sides); j++ {
			if p.Frame == nil && mask>>sides[j]&1 != 0 {
				// Grey faces out: every table's pieces show it.
				continue
			}
			c.XSide = append(c.XSide, uint8(sides[j]))
			c.XSrc = append(c.XSrc, srcs[j])
		}
		known[cell] = true
	}
}

// TabKey names a candidate table: the cells' outward sides and the two
// sides whose colours key it (-1: none).
type TabKey struct{ Mask, A, B int }

// Table returns the table for key, building it if needed (without
// symmetry breaking).
func (c *Compiled) Table(key TabKey) int32 {
	t, ok := c.tables[key]
	if !ok {
		t = int32(len(c.Start))
		c.tables[key] = t
		c.buildTable(key.Mask, key.A, key.B, false, -1, c.shuffle)
	}
	return t
}

// Key returns the offset in a table of the list for key colours a and b.
func (c *Compiled) Key(a, b int) int { return a<<c.ks | b }

// pad returns the padded index of cell row*cols + col.
func (c *Compiled) pad(cell int) int {
	return (cell/c.Cols+1)*c.pw + cell%c.Cols + 1
}

// IsCornerTile reports whether t has grey on two adjacent sides.
func IsCornerTile(t edgematch.Tile) bool {
	for d := range 4 {
		if t[d] == edgematch.Grey && t[(d+1)&3] == edgematch.Grey {
			return true
		}
	}
	return false
}

// Fits reports whether oriented piece o may stand in a cell whose outward
// sides are mask: never grey on an inner side, and on a grey-framed puzzle
// grey on every outward side.
func (c *Compiled) Fits(o int, mask int) bool {
	col := c.OriPacked[o]
	for d := range 4 {
		g := byte(col>>(8*d)) == 0
		out := mask>>d&1 != 0
		if !out && g {
			return false
		}
		if out && c.P.Frame == nil && !g {
			return false
		}
	}
	return true
}

// buildTable appends to start and cand the candidate table for cells with
// outward mask, keyed by the colours of sides a and b (-1: none, key 0).
func (c *Compiled) buildTable(mask, a, b int, forbid bool, forbidPiece int, shuffle *rand.Rand) {
	buckets := make([][]uint16, 1<<(2*c.ks))
	for o := range c.OriPacked {
		if !c.Fits(o, mask) || (forbid && int(c.OriPiece[o]) == forbidPiece) {
			continue
		}
		ka, kb := 0, 0
		if a >= 0 {
			ka = int(byte(c.OriPacked[o] >> (8 * a)))
		}
		if b >= 0 {
			kb = int(byte(c.OriPacked[o] >> (8 * b)))
		}
		buckets[c.Key(ka, kb)] = append(buckets[c.Key(ka, kb)], uint16(o))
	}
	for _, bk := range buckets {
		if shuffle != nil {
			shuffle.Shuffle(len(bk), func(i, j int) { bk[i], bk[j] = bk[j], bk[i] })
		}
		c.Start = append(c.Start, int32(len(c.Cand)))
		for _, o := range bk {
			c.Cand = append(c.Cand, candidate{Packed: c.OriPacked[o], Piece: uint16(c.OriPiece[o]), O: o})
		}
	}
	c.Start = append(c.Start, int32(len(c.Cand)))
}

// Board converts the oriented pieces chosen at steps 0..len(placed)-1
// into a Board, with the hints.
func (c *Compiled) Board(placed []uint16) *edgematch.Board {
	b := edgematch.NewBoard(c.Rows, c.Cols)
	for cell, h := range c.Hinted {
		if h.Piece != edgematch.NoPiece {
			b.Cells[cell] = h
		}
	}
	for i, o := range placed {
		b.Cells[c.StepCell[i]] = edgematch.Placement{Piece: int(c.OriPiece[o]), Rot: int(c.OriRot[o])}
	}
	return b
}

// HintsFit reports whether the hints agree with each other and with the
// frame: abutting hints show the same colour, hints on the border show the
// frame outward, and no hint shows grey towards another cell.
func HintsFit(p *edgematch.Puzzle) bool {
	b := edgematch.NewBoard(p.Rows, p.Cols)
	for _, h := range p.Hints {
		b.Set(h.Row, h.Col, h.Piece, h.Rot)
	}
	for _, h := range p.Hints {
		cell := b.At(h.Row, h.Col)
		for d := range 4 {
			e := p.Edge(cell, d)
			if edgematch.FrameIndex(p.Rows, p.Cols, h.Row, h.Col, d) >= 0 {
				if e != p.FrameColour(h.Row, h.Col, d) {
					return false
				}
				continue
			}
			if e == edgematch.Grey {
				return false
			}
			nr, nc := h.Row+[4]int{-1, 0, 1, 0}[d], h.Col+[4]int{0, 1, 0, -1}[d]
			if nb := b.At(nr, nc); nb.Piece != edgematch.NoPiece && p.Edge(nb, (d+2)&3) != e {
				return false
			}
		}
	}
	return true
}

// Canonical returns the smallest rotation of t (t itself when rotations
// are not allowed), so that identical pieces have the same canonical form.
func Canonical(t edgematch.Tile, rots int) edgematch.Tile {
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
func (c *Compiled) twins(rots int) {
	hinted := make([]bool, len(c.P.Tiles))
	for _, h := range c.P.Hints {
		hinted[h.Piece] = true
	}
	last := map[edgematch.Tile]int{}
	count := map[edgematch.Tile]int{}
	prev := make([]int32, len(c.P.Tiles))
	c.TwinFactor = 1
	for i, t := range c.P.Tiles {
		prev[i] = -1
		if hinted[i] {
			continue
		}
		k := Canonical(t, rots)
		if j, ok := last[k]; ok {
			prev[i] = int32(j)
			c.hasTwins = true
		}
		last[k] = i
		count[k]++
		c.TwinFactor *= float64(count[k])
	}
	c.oriPrev = make([]int32, len(c.OriPiece))
	for o, p := range c.OriPiece {
		c.oriPrev[o] = prev[p]
	}
}

// hasTwin reports whether another piece is identical to piece i.
func (c *Compiled) hasTwin(i int) bool {
	for o, p := range c.OriPiece {
		if c.oriPrev[o] == int32(i) || (int(p) == i && c.oriPrev[o] >= 0) {
			return true
		}
	}
	return false
}

// HintedPiece reports whether piece i is fixed by a hint.
func (c *Compiled) HintedPiece(i int) bool {
	return c.UsedInit[i>>6]&(1<<(i&63)) != 0
}

// BitsSet returns the number of bits set in m.
func BitsSet(m int) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

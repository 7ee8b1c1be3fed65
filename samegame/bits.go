package samegame

import "math/bits"

// bitBoard is a board of at most 64 cells as one bit plane per colour, the
// fast engine of the Dust solvers. Cell (x, y) is bit y*w + x (y from the
// bottom), so rows are runs of w bits. Groups are found by flood fill with
// shifts, gravity and row packing by moving whole planes one step at a time
// until nothing moves: every operation is a few dozen word operations.
type bitBoard struct {
	planes [MaxColors]uint64
	occ    uint64 // union of the planes
}

// bitGeom is what the bit operations need to know about a board's shape.
type bitGeom struct {
	w, h, colors int
	rules        Rules
	all          uint64 // every cell of the board
	notLeft      uint64 // cells with x > 0
	notRight     uint64 // cells with x < w-1
	packRight    uint64 // Dust: cells of the left half that may move right (x < w/2-1)
	packLeft     uint64 // Dust: cells of the right half that may move left (x > w/2)
	cols         []uint64
	// Dust, for reach: up[y*w+x] is column x from row y up; out[x] is
	// column x and the columns of its half outward of it (toward the edge).
	up, out []uint64
}

// fitsBits reports whether b can use the bit engine.
func fitsBits(b *Board) bool { return int(b.w)*int(b.h) <= 64 }

func newBitGeom(b *Board) *bitGeom {
	w, h := int(b.w), int(b.h)
	g := &bitGeom{w: w, h: h, colors: int(b.colors), rules: b.rules, cols: make([]uint64, w)}
	mid := w / 2
	for y := range h {
		for x := range w {
			bit := uint64(1) << (y*w + x)
			g.all |= bit
			g.cols[x] |= bit
			if x > 0 {
				g.notLeft |= bit
			}
			if x < w-1 {
				g.notRight |= bit
			}
			if x < mid-1 {
				g.packRight |= bit
			}
			if x > mid {
				g.packLeft |= bit
			}
		}
	}
	g.up = make([]uint64, w*h)
	g.out = make([]uint64, w)
	for x := range w {
		for y := range h {
			for y2 := y; y2 < h; y2++ {
				g.up[y*w+x] |= uint64(1) << (y2*w + x)
			}
		}
		for x2 := range w {
			if x2 == x || (x < mid && x2 < x) || (x >= mid && x2 > x) {
				g.out[x] |= g.cols[x2]
			}
		}
	}
	return g
}

// reach returns, for the Dust click that removes grp from s, a superset
// of the cells whose content the click changes, and their neighbours: a
// group of s that does not meet it keeps its cells and its neighbours, so
// it is a group of the board after the click, as it was (TestReach).
//
// Proof of the superset: let column x lose r of its n cells, the lowest at
// row y. Gravity moves only cells of column x above row y (the board is
// settled: every column is a stack from the bottom), and leaves column x
// n-r high, so that rows n-r .. n-1 have a hole at column x and no other
// row has a new one. Packing toward the centre then moves, in such a row,
// only the cells of the hole's half on its outer side, into cells on that
// side; nothing falls after it (the rows of a half are blocks against the
// centre, each no wider than the one below). So the changed cells lie in
// column x from row y up and in rows n-r .. n-1 from column x outward.
func (g *bitGeom) reach(s *bitBoard, grp uint64) uint64 {
	z := g.changes(s, grp)
	return z | g.neighbours(z)
}

// changes returns the superset of the cells that the Dust click removing
// grp from s changes (reach, without the neighbours).
func (g *bitGeom) changes(s *bitBoard, grp uint64) uint64 {
	z := uint64(0)
	w := uint(g.w)
	for x := range g.w {
		m := grp & g.cols[x]
		if m == 0 {
			continue
		}
		n := uint(bits.OnesCount64(s.occ & g.cols[x]))
		r := uint(bits.OnesCount64(m))
		rows := (uint64(1)<<(n*w) - 1) &^ (uint64(1)<<((n-r)*w) - 1)
		z |= g.up[bits.TrailingZeros64(m)] | rows&g.out[x]
	}
	return z
}

// toBits converts b, which must fit.
func (g *bitGeom) toBits(b *Board) bitBoard {
	var s bitBoard
	for x := range g.w {
		for y := range int(b.height[x]) {
			bit := uint64(1) << (y*g.w + x)
			s.planes[b.cells[idx(x, y)]-1] |= bit
			s.occ |= bit
		}
	}
	return s
}

// neighbours returns the cells 4-adjacent to m (not m itself, unless
// adjacent to another cell of m).
func (g *bitGeom) neighbours(m uint64) uint64 {
	return ((m<<1)&g.notLeft | (m>>1)&g.notRight | m<<uint(g.w) | m>>uint(g.w)) & g.all
}

// group returns the group holding the cells of seed (one cell) within
// plane.
func (g *bitGeom) group(seed, plane uint64) uint64 {
	grp := seed
	for {
		n := (grp | g.neighbours(grp)) & plane
		if n == grp {
			return grp
		}
		grp = n
	}
}

// connected reports whether the cells of plane p (not empty) form one
// group. A cell without a neighbour in p, when p has others, answers
// without the flood fill.
func (g *bitGeom) connected(p uint64) bool {
	if p&(p-1) == 0 {
		return true
	}
	if p&^g.neighbours(p) != 0 {
		return false
	}
	return g.group(p&-p, p) == p
}

// bitGroup is a group of a bitBoard.
type bitGroup struct {
	mask  uint64
	color int8
	size  int8
}

// groups appends the groups of s with at least minSize cells to dst, colour
// by colour.
func (g *bitGeom) groups(s *bitBoard, dst []bitGroup, minSize int) []bitGroup {
	for c := range g.colors {
		m := s.planes[c]
		for m != 0 {
			grp := g.group(m&-m, m)
			m &^= grp
			if n := bits.OnesCount64(grp); n >= minSize {
				dst = append(dst, bitGroup{mask: grp, color: int8(c), size: int8(n)})
			}
		}
	}
	return dst
}

// play removes the group grp of colour c and settles the board.
func (g *bitGeom) play(s *bitBoard, grp uint64, c int) {
	s.planes[c] &^= grp
	s.occ &^= grp
	w := uint(g.w)
	// Gravity: cells above an empty cell fall one row, until none can.
	for {
		fall := s.occ & ((g.all &^ s.occ) << w) & g.all
		if fall == 0 {
			break
		}
		for p := range g.colors {
			q := s.planes[p]
			s.planes[p] = q&^fall | (q&fall)>>w
		}
		s.occ = s.occ&^fall | fall>>w
	}
	if g.rules == Dust {
		// Rows pack toward the centre one step at a time.
		for {
			empty := g.all &^ s.occ
			right := s.occ & g.packRight & (empty >> 1)
			left := s.occ & g.packLeft & (empty << 1)
			if right|left == 0 {
				break
			}
			for p := range g.colors {
				q := s.planes[p]
				s.planes[p] = q&^(right|left) | (q&right)<<1 | (q&left)>>1
			}
			s.occ = s.occ&^(right|left) | right<<1 | left>>1
		}
		return
	}
	// Standard: close up empty columns to the left.
	for x := 0; x < g.w-1; x++ {
		if s.occ&g.cols[x] != 0 {
			continue
		}
		rest := uint64(0)
		for k := x + 1; k < g.w; k++ {
			rest |= g.cols[k]
		}
		if s.occ&rest == 0 {
			return
		}
		// Shift every column right of x one place left, and retry x.
		for p := range g.colors {
			q := s.planes[p]
			s.planes[p] = q&^rest | (q&rest)>>1
		}
		s.occ = s.occ&^rest | (s.occ&rest)>>1
		x--
	}
}

// colorsLeft returns the number of colours on the board.
func (g *bitGeom) colorsLeft(s *bitBoard) int {
	n := 0
	for p := range g.colors {
		if s.planes[p] != 0 {
			n++
		}
	}
	return n
}

// hasSingle reports whether some colour of s is a single group (so that
// one click can remove it).
func (g *bitGeom) hasSingle(s *bitBoard) bool {
	for p := range g.colors {
		if m := s.planes[p]; m != 0 && g.connected(m) {
			return true
		}
	}
	return false
}

// hash returns a 64-bit hash of the board.
func (g *bitGeom) hash(s *bitBoard) uint64 {
	h := uint64(0x243f6a8885a308d3)
	for p := range g.colors {
		h = (h ^ s.planes[p]) * 0x9e3779b97f4a7c15
		h ^= h >> 29
	}
	return h ^ h>>32
}

// move returns the click that removes grp: its lowest cell in its leftmost
// column, as Board's groups name it.
func (g *bitGeom) move(grp uint64) Move {
	for x := range g.w {
		if m := grp & g.cols[x]; m != 0 {
			return Move{X: int8(x), Y: int8(bits.TrailingZeros64(m) / g.w)}
		}
	}
	panic("samegame: empty group")
}

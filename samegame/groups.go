package samegame

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// Move is a click on cell (X, Y): X is the column from the left, Y the row
// from the bottom. It removes the group holding that cell.
type Move struct {
	X, Y int8
}

// String formats m as "x,y".
func (m Move) String() string { return fmt.Sprintf("%d,%d", m.X, m.Y) }

// Group is a 4-connected set of cells of one colour: a possible click.
type Group struct {
	// X, Y is the group's lowest cell in its leftmost column, the cell a
	// move list names for it.
	X, Y  int8
	Color Color
	Size  int16
	// Code identifies the group's cells and colour, Zobrist style: the XOR
	// of a random 64-bit key per cell, rotated by an amount that depends
	// on the colour. NRPA uses it as the move's code (Cazenave's choice for
	// SameGame).
	Code uint64
}

// Move returns the click that removes g.
func (g Group) Move() Move { return Move{g.X, g.Y} }

// The random keys of Hash and Group.Code: zobrist has one per cell and
// cell value (index 0, the empty cell, is never used), cellKey one per cell
// (a group's code rotates their XOR by its colour: a table small enough
// for the first-level cache), zobristSize one per size and rules. They come
// from a fixed seed, so hashes and codes are the same in every run.
var (
	zobrist     [numCells][MaxColors + 1]uint64
	cellKey     [cellMask + 1]uint64
	zobristSize [MaxSize + 1][MaxSize + 1][2]uint64
	// cellPre[idx(x, y)] is the XOR of cellKey over cells (x, 0) ..
	// (x, y-1), for y up to MaxSize: a run's cells' keys XOR to the
	// difference of its ends.
	cellPre [cellMask + 1]uint64
)

// groupCode returns the code of a group of colour value v (1 .. MaxColors)
// whose cells' keys XOR to x.
func groupCode(x uint64, v uint8) uint64 { return bits.RotateLeft64(x, 6*int(v)) }

func init() {
	rng := rand.New(rand.NewPCG(0x5a6f6272697374, 0x73616d6567616d65))
	for i := range zobrist {
		for c := range zobrist[i] {
			zobrist[i][c] = rng.Uint64()
		}
		cellKey[i] = rng.Uint64()
	}
	for x := range MaxSize {
		k := uint64(0)
		for y := range MaxSize + 1 {
			cellPre[idx(x, y)] = k
			k ^= cellKey[idx(x, y)]
		}
	}
	for w := range zobristSize {
		for h := range zobristSize[w] {
			for r := range zobristSize[w][h] {
				zobristSize[w][h][r] = rng.Uint64()
			}
		}
	}
}

// Hash returns a 64-bit Zobrist hash of the board: equal boards have equal
// hashes, different boards almost surely different ones. O(cells).
func (b *Board) Hash() uint64 {
	h := zobristSize[b.w][b.h][b.rules&1]
	for x := range int(b.w) {
		base := idx(x, 0)
		for i := base; i < base+int(b.height[x]); i++ {
			h ^= zobrist[i][b.cells[i]]
		}
	}
	return h
}

// Groups appends every group of the board to dst, of any size, in the order
// of their cells (X, then Y), and returns the extended slice. O(cells); it
// allocates only to grow dst.
func (b *Board) Groups(dst []Group) []Group { return b.groups(dst, 1) }

// Moves appends the groups that may be clicked (size at least
// Rules().MinGroup()) to dst and returns the extended slice. An empty result
// means the game is over.
func (b *Board) Moves(dst []Group) []Group { return b.groups(dst, b.rules.MinGroup()) }

// scratch is the working memory of the group finder. Every entry is
// written before it is read, so it never needs clearing. Arrays have
// cellMask+1 entries (at least as many as cells and runs) and are indexed
// with &cellMask, which spares the bounds checks.
type scratch struct {
	parent [cellMask + 1]uint16 // union-find forest over runs
	size   [cellMask + 1]int16
	first  [cellMask + 1]uint16 // the first cell of each run
	code   [cellMask + 1]uint64
}

// groups finds the groups of at least minSize cells with a local scratch.
func (b *Board) groups(dst []Group, minSize int) []Group {
	var s scratch
	return b.groupsWith(dst, minSize, &s)
}

// Byte masks of the finder's eight-cells-at-a-time reads.
const (
	low7 = 0x7f7f7f7f7f7f7f7f
	high = 0x8080808080808080
)

// nonzero returns the high bit of every nonzero byte of t (exactly: no
// borrow crosses a byte).
func nonzero(t uint64) uint64 { return ((t & low7) + low7 | t) & high }

// packHigh gathers the high bits of m's eight bytes (m has no other bits)
// into bits 0-7, byte 0's first.
func packHigh(m uint64) uint32 { return uint32((m >> 7) * 0x0102040810204080 >> 56) }

// word returns cells i .. i+7, cell i in the low byte.
func (b *Board) word(i int) uint64 { return binary.LittleEndian.Uint64(b.cells[i : i+8]) }

// groupsWith finds the groups of at least minSize cells, in the order of
// their first cells, by union-find over vertical runs of one colour.
//
// Each column is read eight cells at a time: XOR with the words one cell
// lower and one column left gives, as bit masks of the column's rows, where
// a run starts (a colour change) and where a cell has the colour of its
// left neighbour. A run's size and code come from its ends (cellPre: the
// XOR of the cells' keys below each cell of its column), and a run joins
// the left column's run it touches, found by counting run starts; so the
// work is per run and per touching pair, with no branch per cell.
func (b *Board) groupsWith(dst []Group, minSize int, s *scratch) []Group {
	const m = cellMask
	nr := 0
	var prevStarts uint32 // the run starts of the column to the left
	prevFirst := 0        // and its first run
	for x := range int(b.w) {
		base := idx(x, 0)
		h := int(b.height[x])
		var starts, left uint32
		for k := 0; k < h; k += 8 {
			v := b.word(base + k)
			starts |= packHigh(nonzero(v^b.word(base+k-1))) << k
			left |= packHigh(nonzero(v)&^nonzero(v^b.word(base+k-stride))) << k
		}
		rows := uint32(1)<<h - 1
		starts &= rows
		first := nr
		for r := starts; r != 0; {
			y0 := bits.TrailingZeros32(r)
			r &= r - 1
			y1 := h
			if r != 0 {
				y1 = bits.TrailingZeros32(r)
			}
			n := nr & m
			nr++
			s.parent[n] = uint16(n)
			s.size[n] = int16(y1 - y0)
			s.code[n] = cellPre[(base+y1)&m] ^ cellPre[(base+y0)&m]
			s.first[n] = uint16(base + y0)
		}
		// Each touching pair of runs is joined once, at its lowest row: a
		// row that touches like the row below it, in the same run, touches
		// the same left run (its left cell has the colour of the one below).
		left &= rows
		left &^= left << 1 &^ starts
		for l := left; l != 0; l &= l - 1 {
			below := uint32(2)<<bits.TrailingZeros32(l) - 1
			s.union(first+bits.OnesCount32(starts&below)-1, prevFirst+bits.OnesCount32(prevStarts&below)-1)
		}
		prevStarts, prevFirst = starts, first
	}
	for r := range nr {
		if int(s.parent[r&m]) != r || int(s.size[r&m]) < minSize {
			continue
		}
		f := int(s.first[r&m])
		v := b.cells[f&m]
		// Fields stored one by one into the slice: a Group built on the
		// stack and copied in is read back as one 16-byte load of five
		// smaller stores, which the processor cannot forward (a quarter
		// of the finder's time).
		dst = append(dst, Group{})
		g := &dst[len(dst)-1]
		g.X, g.Y, g.Color = int8(f/stride-1), int8(f%stride), Color(v)-1
		g.Size, g.Code = s.size[r&m], groupCode(s.code[r&m], v)
	}
	return dst
}

// find returns the root of run r, halving the path.
func (s *scratch) find(r int) int {
	const m = cellMask
	for int(s.parent[r&m]) != r {
		p := int(s.parent[r&m])
		s.parent[r&m] = s.parent[p&m]
		r = int(s.parent[r&m])
	}
	return r
}

// union joins the groups of runs a and b: the lower root becomes the root
// and takes the other's size and code.
func (s *scratch) union(a, b int) {
	const m = cellMask
	ra, rb := s.find(a), s.find(b)
	if ra == rb {
		return
	}
	if rb < ra {
		ra, rb = rb, ra
	}
	s.parent[rb&m] = uint16(ra)
	s.size[ra&m] += s.size[rb&m]
	s.code[ra&m] ^= s.code[rb&m]
}

// GroupAt returns the group holding cell (x, y); ok is false when the cell
// is off the board or empty.
func (b *Board) GroupAt(x, y int) (g Group, ok bool) {
	if x < 0 || x >= int(b.w) || y < 0 || y >= int(b.h) || b.cells[idx(x, y)] == 0 {
		return Group{}, false
	}
	target := idx(x, y)
	c := b.cells[target]
	var seen [numCells]bool
	var stack [MaxSize * MaxSize]uint16
	seen[target] = true
	stack[0] = uint16(target)
	sp := 1
	g = Group{X: int8(x), Y: int8(y), Color: Color(c) - 1}
	first := target
	for sp > 0 {
		sp--
		j := int(stack[sp])
		g.Size++
		g.Code ^= cellKey[j]
		first = min(first, j)
		for _, k := range [4]int{j - 1, j + 1, j - stride, j + stride} {
			if b.cells[k] == c && !seen[k] {
				seen[k] = true
				stack[sp] = uint16(k)
				sp++
			}
		}
	}
	g.X, g.Y = int8(first/stride-1), int8(first%stride)
	g.Code = groupCode(g.Code, c)
	return g, true
}

// Play clicks m: it removes the group at (m.X, m.Y) and settles the board.
// It returns the group removed, or an error (and leaves the board as it
// was) when the cell is off the board or empty, or its group is smaller
// than the rules allow.
func (b *Board) Play(m Move) (Group, error) {
	g, ok := b.GroupAt(int(m.X), int(m.Y))
	if !ok {
		if int(m.X) < 0 || int(m.X) >= int(b.w) || int(m.Y) < 0 || int(m.Y) >= int(b.h) {
			return Group{}, fmt.Errorf("samegame: click (%d,%d) is off the %dx%d board", m.X, m.Y, b.w, b.h)
		}
		return Group{}, fmt.Errorf("samegame: click (%d,%d) is on an empty cell", m.X, m.Y)
	}
	if int(g.Size) < b.rules.MinGroup() {
		return Group{}, fmt.Errorf("samegame: click (%d,%d) is on a single cell, which %s rules do not remove", m.X, m.Y, b.rules)
	}
	b.remove(idx(int(m.X), int(m.Y)))
	return g, nil
}

// PlayGroup removes g, which must be one of the groups Moves or Groups
// returned for this very board (it is not checked), and returns its size.
// It is the fast path of searches: O(size of g + cells that move).
func (b *Board) PlayGroup(g Group) int {
	return b.remove(idx(int(g.X), int(g.Y)))
}

// remove clears the group at cell index start, settles the board and
// returns the number of cells removed.
func (b *Board) remove(start int) int {
	c := b.cells[start]
	var stack [MaxSize * MaxSize]uint16
	b.cells[start] = 0
	stack[0] = uint16(start)
	sp, n := 1, 0
	lo, hi := start, start
	for sp > 0 {
		sp--
		j := int(stack[sp])
		n++
		lo, hi = min(lo, j), max(hi, j)
		if k := j - 1; b.cells[k] == c {
			b.cells[k] = 0
			stack[sp] = uint16(k)
			sp++
		}
		if k := j + 1; b.cells[k] == c {
			b.cells[k] = 0
			stack[sp] = uint16(k)
			sp++
		}
		if k := j - stride; b.cells[k] == c {
			b.cells[k] = 0
			stack[sp] = uint16(k)
			sp++
		}
		if k := j + stride; b.cells[k] == c {
			b.cells[k] = 0
			stack[sp] = uint16(k)
			sp++
		}
	}
	b.settle(lo/stride-1, hi/stride-1)
	return n
}

// settle lets the cells of columns lo .. hi fall, then closes the board up
// as the rules say.
func (b *Board) settle(lo, hi int) {
	emptied := false
	for x := lo; x <= hi; x++ {
		base := idx(x, 0)
		end := base + int(b.height[x])
		w := base
		for i := base; i < end; i++ {
			if v := b.cells[i]; v != 0 {
				b.cells[w] = v
				w++
			}
		}
		for i := w; i < end; i++ {
			b.cells[i] = 0
		}
		b.height[x] = uint8(w - base)
		emptied = emptied || w == base
	}
	if b.rules == Dust {
		b.packRows()
		return
	}
	if !emptied {
		return
	}
	// Standard: slide the non-empty columns left over the empty ones.
	w := int(b.w)
	dst := lo
	for dst <= hi && b.height[dst] != 0 {
		dst++
	}
	for src := dst + 1; src < w; src++ {
		if b.height[src] == 0 {
			continue
		}
		copy(b.cells[idx(dst, 0):idx(dst, 0)+MaxSize], b.cells[idx(src, 0):idx(src, 0)+MaxSize])
		b.height[dst] = b.height[src]
		dst++
	}
	for x := dst; x < w; x++ { // the columns moved away; empty ones are clear already
		if b.height[x] != 0 {
			clear(b.cells[idx(x, 0) : idx(x, 0)+MaxSize])
			b.height[x] = 0
		}
	}
}

// packRows packs every row toward the centre (Dust): the cells of columns
// 0 .. w/2-1 move right to end at column w/2-1, those of columns
// w/2 .. w-1 move left to start at column w/2, keeping their order.
func (b *Board) packRows() {
	w := int(b.w)
	mid := w / 2
	top := 0
	for x := range w {
		top = max(top, int(b.height[x]))
	}
	for y := range top {
		to := mid - 1
		for x := mid - 1; x >= 0; x-- {
			if v := b.cells[idx(x, y)]; v != 0 {
				if x != to {
					b.cells[idx(to, y)] = v
					b.cells[idx(x, y)] = 0
				}
				to--
			}
		}
		to = mid
		for x := mid; x < w; x++ {
			if v := b.cells[idx(x, y)]; v != 0 {
				if x != to {
					b.cells[idx(to, y)] = v
					b.cells[idx(x, y)] = 0
				}
				to++
			}
		}
	}
	for x := range w {
		y := 0
		for y < top && b.cells[idx(x, y)] != 0 {
			y++
		}
		b.height[x] = uint8(y)
	}
}

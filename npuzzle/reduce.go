package npuzzle

import "slices"

// reducer shrinks a board in the blank-first frame by fixing its last row
// or its last column, tile by tile, until the region left (the top-left
// rows x cols, which holds the blank's goal) is small enough for a search.
// Each tile is brought home by a breadth-first search over its position and
// the blank's, with the fixed tiles as walls and the other tiles ignored: the
// fewest moves for that tile. The last two tiles of a line are placed
// together, by a search over both positions and the blank's, which finds
// the classic corner manoeuvre when it is needed. This is the "reduce, then
// finish optimally" approach; Parberry's greedy version needs 8/3 n^3
// moves on average (Parberry 2015).
type reducer struct {
	cols, n    int
	rows, left int // the region: cells (r, c) with r < rows and c < left
	cells      []uint8
	blank      int
	moves      []Move // in the frame
	// Search buffers, reused: an entry is valid when its stamp is gen.
	stamp     []uint32
	gen       uint32
	g, parent []int32
	via       []Move
	buckets   [][]int32
}

func newReducer(f frame) *reducer {
	r := &reducer{cols: f.cols, n: len(f.cells), rows: f.rows, left: f.cols, cells: append([]uint8(nil), f.cells...)}
	r.blank = f.blank()
	return r
}

// step returns the cell the blank reaches from cell b with move m, or -1
// if that leaves the region.
func (r *reducer) step(b int, m Move) int {
	t := target(r.rows, r.cols, b, m)
	if t < 0 || t%r.cols >= r.left {
		return -1
	}
	return t
}

// fixedMark flags, in cells, a tile placed in the line being filled.
const fixedMark = 0x80

// find returns the cell of tile t.
func (r *reducer) find(t uint8) int {
	for c, v := range r.cells {
		if v == t {
			return c
		}
	}
	panic("npuzzle: tile not on the board")
}

// shrink fixes the last row (when the region has at least as many rows as
// columns) or the last column of the region.
func (r *reducer) shrink() {
	var line []int // the cells to fill, the last two placed together
	if r.rows >= r.left {
		for c := r.left - 1; c >= 0; c-- {
			line = append(line, (r.rows-1)*r.cols+c)
		}
	} else {
		for row := r.rows - 1; row >= 0; row-- {
			line = append(line, row*r.cols+r.left-1)
		}
	}
	i := 0
	for ; i < len(line)-3; i += 2 {
		r.place(line[i], line[i+1])
		r.cells[line[i]] |= fixedMark // a wall until the line is done
		r.cells[line[i+1]] |= fixedMark
	}
	if i == len(line)-3 {
		r.place(line[i])
		r.cells[line[i]] |= fixedMark
	}
	r.place(line[len(line)-2], line[len(line)-1])
	for _, c := range line {
		r.cells[c] &^= fixedMark
	}
	if r.rows >= r.left {
		r.rows--
	} else {
		r.left--
	}
}

// place brings the tiles that belong at the cells goals (one or two)
// there by the fewest moves, found by A* over the positions of those tiles
// and of the blank, with the tiles' Manhattan distance to their goals as
// the (consistent) heuristic. The moves are played.
func (r *reducer) place(goals ...int) {
	n := r.n
	// State (p1, p2, blank) is (p1*n2+p2)*n+blank; p2 is 0 for one tile.
	n2, p1, p2 := 1, r.find(uint8(goals[0])), 0
	if len(goals) == 2 {
		n2, p2 = n, r.find(uint8(goals[1]))
	}
	dist := func(a, b int) int { return abs(a/r.cols-b/r.cols) + abs(a%r.cols-b%r.cols) }
	h := func(p1, p2 int) int {
		if n2 == 1 {
			return dist(p1, goals[0])
		}
		return dist(p1, goals[0]) + dist(p2, goals[1])
	}
	size := n * n2 * n
	if len(r.stamp) < size {
		r.stamp = make([]uint32, size)
		r.g = make([]int32, size)
		r.parent = make([]int32, size)
		r.via = make([]Move, size)
	}
	r.gen++
	seen := func(s int32) bool { return r.stamp[s] == r.gen }
	start := int32((p1*n2+p2)*n + r.blank)
	r.stamp[start], r.g[start], r.parent[start] = r.gen, 0, start
	// Buckets by f, each a stack: among equal f the deepest comes first.
	for i := range r.buckets {
		r.buckets[i] = r.buckets[i][:0]
	}
	push := func(s int32, f int) {
		for len(r.buckets) <= f {
			r.buckets = append(r.buckets, nil)
		}
		r.buckets[f] = append(r.buckets[f], s)
	}
	push(start, h(p1, p2))
	goal := int32(-1)
	for f := 0; f < len(r.buckets) && goal < 0; f++ {
		for len(r.buckets[f]) > 0 {
			last := len(r.buckets[f]) - 1
			s := r.buckets[f][last]
			r.buckets[f] = r.buckets[f][:last]
			b, q := int(s)%n, int(s)/n
			p1, p2 := q/n2, q%n2
			g := int(r.g[s])
			if g+h(p1, p2) != f {
				continue // a stale entry: s was reached more cheaply since
			}
			if p1 == goals[0] && (n2 == 1 || p2 == goals[1]) {
				goal = s
				break
			}
			for _, m := range korfOrder {
				nb := r.step(b, m)
				if nb < 0 || r.cells[nb]&fixedMark != 0 {
					continue
				}
				q1, q2 := p1, p2
				if nb == p1 {
					q1 = b
				} else if nb == p2 && n2 > 1 {
					q2 = b
				}
				next := int32((q1*n2+q2)*n + nb)
				if seen(next) && int(r.g[next]) <= g+1 {
					continue
				}
				r.stamp[next], r.g[next], r.parent[next], r.via[next] = r.gen, int32(g+1), s, m
				push(next, g+1+h(q1, q2))
			}
		}
	}
	if goal < 0 {
		panic("npuzzle: reduction found no way to place a tile")
	}
	first := len(r.moves)
	for s := goal; s != start; s = r.parent[s] {
		r.moves = append(r.moves, r.via[s])
	}
	slices.Reverse(r.moves[first:])
	for _, m := range r.moves[first:] {
		t := target(len(r.cells)/r.cols, r.cols, r.blank, m)
		r.cells[r.blank], r.cells[t] = r.cells[t], 0
		r.blank = t
	}
}

// region returns the region left as a frame of its own, its tiles renamed
// to the region's blank-first numbering, and the map back from its cells.
func (r *reducer) region() frame {
	f := frame{rows: r.rows, cols: r.left, cells: make([]uint8, r.rows*r.left)}
	for row := range r.rows {
		for c := range r.left {
			t := int(r.cells[row*r.cols+c])
			f.cells[row*r.left+c] = uint8(t/r.cols*r.left + t%r.cols)
		}
	}
	return f
}

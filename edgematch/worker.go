package edgematch

import (
	"encoding/binary"
	"fmt"
)

// dfsWorker is one backtracker's mutable state.
type dfsWorker struct {
	c      *compiled
	col    []byte
	used   []uint64
	placed []uint16 // oriented piece at each step
	path   []int32  // index in c.cand of the candidate placed at each step
	pos    []int32  // the candidates of step i still to try: pos[i]..end[i]
	end    []int32

	nodes    int64
	maxDepth int
	deepest  []uint16 // the pieces of the first board of depth maxDepth
	// stopNodes: the worker calls check when nodes reaches it.
	stopNodes int64

	// The candidate masks (masks.go): the candidates that may be placed
	// per list, and per step the candidates still to try as bits above
	// the list's first index lb.
	avail  []uint64
	frames []maskFrame
	steps  []loopStep // c.steps with the worker's watch flags
	kernel maskKernel // runMasks's loop state
}

func newDFSWorker(c *compiled) *dfsWorker {
	return &dfsWorker{
		c:       c,
		col:     append([]byte(nil), c.colInit...),
		used:    append([]uint64(nil), c.usedInit...),
		placed:  make([]uint16, c.n),
		path:    make([]int32, c.n),
		deepest: make([]uint16, 0, c.n),
		pos:     make([]int32, c.n+1),
		end:     make([]int32, c.n+1),
	}
}

// reset sets the worker to the initial state plus the oriented pieces of
// prefix at the first steps.
func (w *dfsWorker) reset(prefix []uint16) {
	c := w.c
	copy(w.col, c.colInit)
	copy(w.used, c.usedInit)
	for i, o := range prefix {
		w.placed[i] = o
		p := c.oriPiece[o]
		w.used[p>>6] |= 1 << (p & 63)
		binary.LittleEndian.PutUint32(w.col[c.stepPad[i]*4:], c.oriPacked[o])
	}
}

// resetPath is reset for the prefix given as candidate indices.
func (w *dfsWorker) resetPath(path []int32) {
	prefix := w.placed[:len(path)]
	for i, j := range path {
		prefix[i] = w.c.cand[j].o
	}
	copy(w.path, path)
	w.reset(prefix)
}

// rootRange returns the candidates of step base given the placed prefix.
func (w *dfsWorker) rootRange(base int) (int32, int32) {
	c := w.c
	t := int(c.tab[base]) + c.key(int(w.col[c.srcA[base]]), int(w.col[c.srcB[base]]))
	return c.start[t], c.start[t+1]
}

// dfsStop says why run returned.
type dfsStop uint8

const (
	dfsDone   dfsStop = iota // the subtree is exhausted
	dfsFound                 // visit asked to stop
	dfsBudget                // check asked to stop
)

// run searches the subtrees of the candidates lo..hi-1 at step base (the
// steps before it are placed by reset) down to step limit (c.n for
// complete boards). At each node of depth limit it calls visit with the
// placed pieces; visit returns true to stop. Every checkEvery placements
// it calls check, which may shorten the ranges pos[d]..end[d] of the steps
// d from base to the current one (to give work away) and returns true to
// stop.
//
// The loop allocates nothing: candidates come from the tables of compile,
// the free ones are marked by the candidate masks of masks.go (runMasks;
// when a list is longer than 64 or a prefix places twins out of order,
// runLinear skips the used pieces of a bitset), and the colours live in
// the flat col array. Both walk the same tree in the same order.
func (w *dfsWorker) run(base, limit int, lo, hi int32, visit func(placed []uint16) bool, check func(depth int) bool) dfsStop {
	if c := w.c; c.maskOK {
		if w.avail == nil {
			w.avail = make([]uint64, c.lists)
			w.frames = make([]maskFrame, c.n+1)
		}
		if c.fillAvail(w.avail, w.used) {
			return w.runMasks(base, limit, lo, hi, visit, check)
		}
	}
	return w.runLinear(base, limit, lo, hi, visit, check)
}

// runLinear is run reading the candidates one by one and skipping those
// whose piece is used (or whose twin is free).
func (w *dfsWorker) runLinear(base, limit int, lo, hi int32, visit func(placed []uint16) bool, check func(depth int) bool) dfsStop {
	c := w.c
	col, used, placed, path, pos, end := w.col, w.used, w.placed, w.path, w.pos, w.end
	cand, start, oriPrev, twins := c.cand, c.start, c.oriPrev, c.hasTwins
	srcA, srcB, tab, stepPad := c.srcA, c.srcB, c.tab, c.stepPad
	xStart, xSide, xSrc := c.xStart, c.xSide, c.xSrc
	nodes := w.nodes
	stop := w.stopNodes
	maxDepth := w.maxDepth
	defer func() { w.nodes, w.maxDepth = nodes, maxDepth }()

	if base == limit {
		if visit(placed[:base]) {
			return dfsFound
		}
		return dfsDone
	}
	i := base
	// cur..last is the candidate range of step i; the ranges of the steps
	// above are saved in pos and end. xs..xe are step i's extra sides.
	// The pieces placed are path's candidates; placed is written only for
	// visit and the deepest board.
	cur, last := lo, hi
	xs, xe := xStart[i], xStart[i+1]
	for {
		if cur >= last {
			// Backtrack: free the piece placed at the step before.
			if i == base {
				return dfsDone
			}
			i--
			cur, last = pos[i], end[i]
			xs, xe = xStart[i], xStart[i+1]
			p := cand[path[i]].piece
			used[p>>6] &^= 1 << (p & 63)
			continue
		}
		e := cand[cur]
		cur++
		p := e.piece
		if used[p>>6]&(1<<(p&63)) != 0 {
			continue
		}
		if twins {
			if q := oriPrev[e.o]; q >= 0 && used[q>>6]&(1<<(q&63)) == 0 {
				continue // an identical piece of lower number is free
			}
		}
		if xs != xe && !extrasMatch(e.packed, col, xSide[xs:xe], xSrc[xs:xe]) {
			continue
		}
		nodes++
		path[i] = cur - 1
		binary.LittleEndian.PutUint32(col[stepPad[i]*4:], e.packed)
		if i+1 > maxDepth {
			for j := base; j <= i; j++ {
				placed[j] = cand[path[j]].o
			}
			maxDepth = i + 1
			w.deepest = append(w.deepest[:0], placed[:maxDepth]...)
		}
		if nodes >= stop {
			w.nodes, w.maxDepth = nodes, maxDepth
			pos[i], end[i] = cur, last
			if check(i) {
				return dfsBudget
			}
			last = end[i]
			stop = w.stopNodes
		}
		if i+1 == limit {
			for j := base; j <= i; j++ {
				placed[j] = cand[path[j]].o
			}
			if visit(placed[:limit]) {
				return dfsFound
			}
			continue
		}
		used[p>>6] |= 1 << (p & 63)
		pos[i], end[i] = cur, last
		i++
		xs, xe = xStart[i], xStart[i+1]
		t := int(tab[i]) + c.key(int(col[srcA[i]]), int(col[srcB[i]]))
		cur, last = start[t], start[t+1]
	}
}

// extrasMatch reports whether a piece showing packed matches the known
// sides beyond a step's key: side[j] must show col[src[j]].
func extrasMatch(packed uint32, col []byte, side []uint8, src []int32) bool {
	for j, d := range side {
		if byte(packed>>(8*d)) != col[src[j]] {
			return false
		}
	}
	return true
}

// checkEvery is how many placements a worker makes between looks at the
// clock, the context, the node budget and requests for work.
const checkEvery = 1 << 16

// placePrefix sets w to the initial state plus the placements of prefix
// at the first steps of the scan, checking each as the backtracker would
// (a candidate of its cell given the colours around it, its piece unused,
// an identical piece of lower number used before it), and returns the
// candidate indices of the placements. A prefix must leave at least one
// cell to fill.
func (w *dfsWorker) placePrefix(prefix []Placement) ([]int32, error) {
	c := w.c
	if len(prefix) > 0 && len(prefix) >= c.n {
		return nil, fmt.Errorf("edgematch: a prefix of %d placements leaves no cell of the %d to fill", len(prefix), c.n)
	}
	copy(w.col, c.colInit)
	copy(w.used, c.usedInit)
	path := make([]int32, len(prefix))
	for i, pl := range prefix {
		lo, hi := w.rootRange(i)
		found := int32(-1)
		for j := lo; j < hi; j++ {
			if o := c.cand[j].o; int(c.oriPiece[o]) == pl.Piece && int(c.oriRot[o]) == pl.Rot {
				found = j
				break
			}
		}
		cell := int(c.stepCell[i])
		if found < 0 {
			return nil, fmt.Errorf("edgematch: prefix placement %d (piece %d turned %d at row %d, column %d) does not fit there", i+1, pl.Piece+1, pl.Rot, cell/c.cols, cell%c.cols)
		}
		e := c.cand[found]
		p := e.piece
		if w.used[p>>6]&(1<<(p&63)) != 0 {
			return nil, fmt.Errorf("edgematch: prefix placement %d: piece %d is already placed", i+1, pl.Piece+1)
		}
		if q := c.oriPrev[e.o]; q >= 0 && w.used[q>>6]&(1<<(q&63)) == 0 {
			return nil, fmt.Errorf("edgematch: prefix placement %d: piece %d comes before its identical piece %d", i+1, pl.Piece+1, q+1)
		}
		for j := c.xStart[i]; j < c.xStart[i+1]; j++ {
			if byte(e.packed>>(8*c.xSide[j])) != w.col[c.xSrc[j]] {
				return nil, fmt.Errorf("edgematch: prefix placement %d (piece %d at row %d, column %d) does not match its neighbours", i+1, pl.Piece+1, cell/c.cols, cell%c.cols)
			}
		}
		w.used[p>>6] |= 1 << (p & 63)
		w.placed[i] = e.o
		w.path[i] = found
		path[i] = found
		putColours(w.col, c.stepPad[i], e.packed)
	}
	return path, nil
}

// putColours writes the four colours of a placed piece into col.
func putColours(col []byte, pad int32, packed uint32) {
	col[pad*4], col[pad*4+1], col[pad*4+2], col[pad*4+3] = byte(packed), byte(packed>>8), byte(packed>>16), byte(packed>>24)
}

// children appends to buf the candidate indices that the backtracker
// would place at step i in the worker's current state (the same filters
// as run: used pieces, twins taken in order, the extra known sides).
func (w *dfsWorker) children(i int, buf []int32) []int32 {
	c := w.c
	t := int(c.tab[i]) + c.key(int(w.col[c.srcA[i]]), int(w.col[c.srcB[i]]))
next:
	for j := c.start[t]; j < c.start[t+1]; j++ {
		e := c.cand[j]
		p := e.piece
		if w.used[p>>6]&(1<<(p&63)) != 0 {
			continue
		}
		if c.hasTwins {
			if q := c.oriPrev[e.o]; q >= 0 && w.used[q>>6]&(1<<(q&63)) == 0 {
				continue
			}
		}
		for x := c.xStart[i]; x < c.xStart[i+1]; x++ {
			if byte(e.packed>>(8*c.xSide[x])) != w.col[c.xSrc[x]] {
				continue next
			}
		}
		buf = append(buf, j)
	}
	return buf
}

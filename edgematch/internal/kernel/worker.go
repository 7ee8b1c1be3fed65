package kernel

import (
	"encoding/binary"
	"fmt"

	"tessera/edgematch"
)

// Worker is one backtracker's mutable state.
type Worker struct {
	c      *Compiled
	Col    []byte
	Used   []uint64
	Placed []uint16 // oriented piece at each step
	Path   []int32  // index in c.cand of the candidate placed at each step
	Pos    []int32  // the candidates of step i still to try: pos[i]..end[i]
	End    []int32

	Nodes    int64
	maxDepth int
	Deepest  []uint16 // the pieces of the first board of depth maxDepth
	// StopNodes: the worker calls check when nodes reaches it.
	StopNodes int64

	// The candidate masks (masks.go): the candidates that may be placed
	// per list, and per step the candidates still to try as bits above
	// the list's first index lb.
	avail  []uint64
	frames []maskFrame
	steps  []loopStep // c.steps with the worker's watch flags
	kernel MaskKernel // runMasks's loop state
}

func NewWorker(c *Compiled) *Worker {
	return &Worker{
		c:       c,
		Col:     append([]byte(nil), c.ColInit...),
		Used:    append([]uint64(nil), c.UsedInit...),
		Placed:  make([]uint16, c.N),
		Path:    make([]int32, c.N),
		Deepest: make([]uint16, 0, c.N),
		Pos:     make([]int32, c.N+1),
		End:     make([]int32, c.N+1),
	}
}

// Reset sets the worker to the initial state plus the oriented pieces of
// prefix at the first steps.
func (w *Worker) Reset(prefix []uint16) {
	c := w.c
	copy(w.Col, c.ColInit)
	copy(w.Used, c.UsedInit)
	for i, o := range prefix {
		w.Placed[i] = o
		p := c.OriPiece[o]
		w.Used[p>>6] |= 1 << (p & 63)
		binary.LittleEndian.PutUint32(w.Col[c.StepPad[i]*4:], c.OriPacked[o])
	}
}

// ResetPath is reset for the prefix given as candidate indices.
func (w *Worker) ResetPath(path []int32) {
	prefix := w.Placed[:len(path)]
	for i, j := range path {
		prefix[i] = w.c.Cand[j].O
	}
	copy(w.Path, path)
	w.Reset(prefix)
}

// RootRange returns the candidates of step base given the placed prefix.
func (w *Worker) RootRange(base int) (int32, int32) {
	c := w.c
	t := int(c.tab[base]) + c.Key(int(w.Col[c.SrcA[base]]), int(w.Col[c.SrcB[base]]))
	return c.Start[t], c.Start[t+1]
}

// dfsStop says why run returned.
type dfsStop uint8

const (
	dfsDone   dfsStop = iota // the subtree is exhausted
	dfsFound                 // visit asked to stop
	dfsBudget                // check asked to stop
)

// Run searches the subtrees of the candidates lo..hi-1 at step base (the
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
func (w *Worker) Run(base, limit int, lo, hi int32, visit func(placed []uint16) bool, check func(depth int) bool) dfsStop {
	if c := w.c; c.MaskOK {
		if w.avail == nil {
			w.avail = make([]uint64, c.lists)
			w.frames = make([]maskFrame, c.N+1)
		}
		if c.fillAvail(w.avail, w.Used) {
			return w.runMasks(base, limit, lo, hi, visit, check)
		}
	}
	return w.runLinear(base, limit, lo, hi, visit, check)
}

// runLinear is run reading the candidates one by one and skipping those
// whose piece is used (or whose twin is free).
func (w *Worker) runLinear(base, limit int, lo, hi int32, visit func(placed []uint16) bool, check func(depth int) bool) dfsStop {
	c := w.c
	col, used, placed, path, pos, end := w.Col, w.Used, w.Placed, w.Path, w.Pos, w.End
	cand, start, oriPrev, twins := c.Cand, c.Start, c.oriPrev, c.hasTwins
	srcA, srcB, tab, stepPad := c.SrcA, c.SrcB, c.tab, c.StepPad
	xStart, xSide, xSrc := c.XStart, c.XSide, c.XSrc
	nodes := w.Nodes
	stop := w.StopNodes
	maxDepth := w.maxDepth
	defer func() { w.Nodes, w.maxDepth = nodes, maxDepth }()

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
			p := cand[path[i]].Piece
			used[p>>6] &^= 1 << (p & 63)
			continue
		}
		e := cand[cur]
		cur++
		p := e.Piece
		if used[p>>6]&(1<<(p&63)) != 0 {
			continue
		}
		if twins {
			if q := oriPrev[e.O]; q >= 0 && used[q>>6]&(1<<(q&63)) == 0 {
				continue // an identical piece of lower number is free
			}
		}
		if xs != xe && !ExtrasMatch(e.Packed, col, xSide[xs:xe], xSrc[xs:xe]) {
			continue
		}
		nodes++
		path[i] = cur - 1
		binary.LittleEndian.PutUint32(col[stepPad[i]*4:], e.Packed)
		if i+1 > maxDepth {
			for j := base; j <= i; j++ {
				placed[j] = cand[path[j]].O
			}
			maxDepth = i + 1
			w.Deepest = append(w.Deepest[:0], placed[:maxDepth]...)
		}
		if nodes >= stop {
			w.Nodes, w.maxDepth = nodes, maxDepth
			pos[i], end[i] = cur, last
			if check(i) {
				return dfsBudget
			}
			last = end[i]
			stop = w.StopNodes
		}
		if i+1 == limit {
			for j := base; j <= i; j++ {
				placed[j] = cand[path[j]].O
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
		t := int(tab[i]) + c.Key(int(col[srcA[i]]), int(col[srcB[i]]))
		cur, last = start[t], start[t+1]
	}
}

// ExtrasMatch reports whether a piece showing packed matches the known
// sides beyond a step's key: side[j] must show col[src[j]].
func ExtrasMatch(packed uint32, col []byte, side []uint8, src []int32) bool {
	for j, d := range side {
		if byte(packed>>(8*d)) != col[src[j]] {
			return false
		}
	}
	return true
}

// checkEvery is how many placements a worker makes between looks at the
// clock, the context, the node budget and requests for work.
const CheckEvery = 1 << 16

// PlacePrefix sets w to the initial state plus the placements of prefix
// at the first steps of the scan, checking each as the backtracker would
// (a candidate of its cell given the colours around it, its piece unused,
// an identical piece of lower number used before it), and returns the
// candidate indices of the placements. A prefix must leave at least one
// cell to fill.
func (w *Worker) PlacePrefix(prefix []edgematch.Placement) ([]int32, error) {
	c := w.c
	if len(prefix) > 0 && len(prefix) >= c.N {
		return nil, fmt.Errorf("edgematch: a prefix of %d placements leaves no cell of the %d to fill", len(prefix), c.N)
	}
	copy(w.Col, c.ColInit)
	copy(w.Used, c.UsedInit)
	path := make([]int32, len(prefix))
	for i, pl := range prefix {
		lo, hi := w.RootRange(i)
		found := int32(-1)
		for j := lo; j < hi; j++ {
			if o := c.Cand[j].O; int(c.OriPiece[o]) == pl.Piece && int(c.OriRot[o]) == pl.Rot {
				found = j
				break
			}
		}
		cell := int(c.StepCell[i])
		if found < 0 {
			return nil, fmt.Errorf("edgematch: prefix placement %d (piece %d turned %d at row %d, column %d) does not fit there", i+1, pl.Piece+1, pl.Rot, cell/c.Cols, cell%c.Cols)
		}
		e := c.Cand[found]
		p := e.Piece
		if w.Used[p>>6]&(1<<(p&63)) != 0 {
			return nil, fmt.Errorf("edgematch: prefix placement %d: piece %d is already placed", i+1, pl.Piece+1)
		}
		if q := c.oriPrev[e.O]; q >= 0 && w.Used[q>>6]&(1<<(q&63)) == 0 {
			return nil, fmt.Errorf("edgematch: prefix placement %d: piece %d comes before its identical piece %d", i+1, pl.Piece+1, q+1)
		}
		for j := c.XStart[i]; j < c.XStart[i+1]; j++ {
			if byte(e.Packed>>(8*c.XSide[j])) != w.Col[c.XSrc[j]] {
				return nil, fmt.Errorf("edgematch: prefix placement %d (piece %d at row %d, column %d) does not match its neighbours", i+1, pl.Piece+1, cell/c.Cols, cell%c.Cols)
			}
		}
		w.Used[p>>6] |= 1 << (p & 63)
		w.Placed[i] = e.O
		w.Path[i] = found
		path[i] = found
		putColours(w.Col, c.StepPad[i], e.Packed)
	}
	return path, nil
}

// putColours writes the four colours of a placed piece into col.
func putColours(col []byte, pad int32, packed uint32) {
	col[pad*4], col[pad*4+1], col[pad*4+2], col[pad*4+3] = byte(packed), byte(packed>>8), byte(packed>>16), byte(packed>>24)
}

// Children appends to buf the candidate indices that the backtracker
// would place at step i in the worker's current state (the same filters
// as run: used pieces, twins taken in order, the extra known sides).
func (w *Worker) Children(i int, buf []int32) []int32 {
	c := w.c
	t := int(c.tab[i]) + c.Key(int(w.Col[c.SrcA[i]]), int(w.Col[c.SrcB[i]]))
next:
	for j := c.Start[t]; j < c.Start[t+1]; j++ {
		e := c.Cand[j]
		p := e.Piece
		if w.Used[p>>6]&(1<<(p&63)) != 0 {
			continue
		}
		if c.hasTwins {
			if q := c.oriPrev[e.O]; q >= 0 && w.Used[q>>6]&(1<<(q&63)) == 0 {
				continue
			}
		}
		for x := c.XStart[i]; x < c.XStart[i+1]; x++ {
			if byte(e.Packed>>(8*c.XSide[x])) != w.Col[c.XSrc[x]] {
				continue next
			}
		}
		buf = append(buf, j)
	}
	return buf
}

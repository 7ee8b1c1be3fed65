package npuzzle

import (
	"context"
	"fmt"
	"slices"
	"time"

	"tessera/search"
)

// idaSearch is IDA* specialised for the sliding-tile puzzle, in the style
// of Korf's and Burns et al.'s C solvers ("Implementing Fast Heuristic
// Search Code", SoCS 2012): the board is a flat array changed in place and
// restored on return, the blank's moves come from a table per cell in
// Korf's order (blank up, left, right, down), the move back to the parent
// is never generated, Manhattan distance is updated from a table by the one
// tile that moves, and a pattern database heuristic looks up only the
// tables of the pattern (and reflected pattern) of that tile, the reflected
// one only when the regular sum does not already exceed the bound (Korf
// and Felner 2002). Nothing is allocated while it searches, but for the
// task list of a parallel iteration (see parallel.go).
//
// It works in the blank-first frame (see frame). Counting follows the
// generic search.IDAStar: every generated child except the parent counts,
// including those cut off by the bound, so that with Manhattan distance
// Generated+1 is Korf's (1985) published node count.
type idaSearch struct {
	cols, n int
	cells   [maxCells]uint8 // the tile at each cell
	pos     [maxCells]uint8 // the cell of each tile (kept for PDB lookups)
	// ops[c] lists the cells the blank at c can move to, in Korf's order,
	// ended by -1; opMoves[c] the moves (in the frame) that do it.
	ops     [maxCells][5]int8
	opMoves [maxCells][4]Move
	md      [maxCells * maxCells]uint8 // md[tile<<7|cell]
	// fsm prunes moves (see fsm.go): the search carries its state, and a
	// move whose transition is fsmPruned is not generated. Without move
	// pruning it is trivialFSM, whose states are the cells.
	fsm *moveFSM
	// noPair turns dfsPair off: the same search by dfsPDB (see pairOff).
	noPair bool

	// The PDB heuristic: views, the current entry of each view, the sum
	// of each group of views (see pdbEval).
	ev   *pdbEval
	cur  [2 * maxCells]int
	sums [maxGroups]int
	// idx holds the views' sparse indices when every view is sparse (see
	// pdbView.moved), kept by dfsPair.
	idx [2 * maxCells]int64

	// The bound is on f = den*g + num*h: num/den is the weight on h (Pohl's
	// weighted search; 1/1 for optimal IDA*).
	num, den            int
	bound, next         int
	path                []Move
	expanded, generated int64
	maxDepth            int
	solution            int // the length of the solution found

	// split is the depth at which the first phase of a parallel iteration
	// stops and records the board as a task (see parallel.go); -1 when
	// the search goes to the bound.
	split   int
	workers int           // the goroutines of a parallel iteration
	par     *parIteration // the parallel iteration a worker belongs to, or nil
	task    int           // the task a worker searches
	// flushed and flushedGen are the counts a worker has added to
	// par.expanded and par.generated.
	flushed, flushedGen int64

	// Limits, checked every checkEvery expansions.
	ctx         context.Context
	maxExpanded int64
	progress    func(search.Stats)
	start       time.Time
	stopErr     error
	checkAt     int64
}

const checkEvery = 1 << 16

// pairOff makes new searches use dfsPDB where dfsPair would serve: tests
// set it to check that both search alike.
var pairOff = false

func newIDASearch(f frame, d *PDB, fsm *moveFSM) *idaSearch {
	if fsm == nil {
		fsm = trivialFSM(f.rows, f.cols)
	}
	s := &idaSearch{cols: f.cols, n: len(f.cells), num: 1, den: 1, split: -1, fsm: fsm, noPair: pairOff}
	for c, t := range f.cells {
		s.cells[c] = t
		s.pos[t] = uint8(c)
	}
	for c := range s.n {
		k := 0
		for _, m := range korfOrder {
			if t := target(f.rows, f.cols, c, m); t >= 0 {
				s.ops[c][k], s.opMoves[c][k] = int8(t), m
				k++
			}
		}
		s.ops[c][k] = -1
		for t := 1; t < s.n; t++ {
			s.md[t<<7|c] = uint8(abs(c/f.cols-t/f.cols) + abs(c%f.cols-t%f.cols))
		}
	}
	if d != nil {
		s.ev = d.ev
		s.lookup()
	}
	return s
}

// lookup sets the current entries of the pattern database's views and their
// sums from the tiles' cells.
func (s *idaSearch) lookup() {
	s.sums = [maxGroups]int{}
	for i := range s.ev.views {
		s.cur[i] = s.ev.views[i].delta(&s.pos)
		s.sums[s.ev.group[i]] += s.cur[i]
		if s.ev.sparse {
			s.idx[i] = s.ev.views[i].index(&s.pos)
		}
	}
}

// manhattan returns the Manhattan distance of the current board.
func (s *idaSearch) manhattan() int {
	h := 0
	for c := range s.n {
		h += int(s.md[int(s.cells[c])<<7|c])
	}
	return h
}

// heuristic returns the current board's estimate.
func (s *idaSearch) heuristic() int {
	h := s.manhattan()
	if s.ev != nil {
		h += 2 * slices.Max(s.sums[:max(s.ev.groups, 1)])
	}
	return h
}

// stats returns the statistics so far.
func (s *idaSearch) stats(iterations int) search.Stats {
	return search.Stats{Expanded: s.expanded, Generated: s.generated, PeakStored: int64(s.maxDepth + 1),
		Iterations: iterations, Elapsed: time.Since(s.start)}
}

// check is called every checkEvery expansions: it reports whether a limit
// or the context stops the search, and calls the progress function.
func (s *idaSearch) check() bool {
	s.checkAt = s.expanded + checkEvery
	if s.par != nil {
		return s.par.check(s)
	}
	if s.maxExpanded > 0 {
		s.checkAt = min(s.checkAt, s.maxExpanded+1)
	}
	if s.maxExpanded > 0 && s.expanded > s.maxExpanded {
		s.stopErr = fmt.Errorf("%w: %d states expanded (limit %d)", ErrBudget, s.expanded, s.maxExpanded)
		return true
	}
	if err := s.ctx.Err(); err != nil {
		s.stopErr = err
		return true
	}
	if s.progress != nil && s.expanded&(1<<20-1) < checkEvery {
		s.progress(s.stats(0))
	}
	return false
}

// run deepens the bound from the root's estimate until a solution is found
// or a limit stops it, and returns the frame's moves.
func (s *idaSearch) run(ctx context.Context, opts search.Options) ([]Move, search.Stats, error) {
	s.ctx, s.maxExpanded, s.progress, s.start = ctx, opts.MaxExpanded, opts.Progress, time.Now()
	s.checkAt = checkEvery
	if s.maxExpanded > 0 {
		s.checkAt = min(s.checkAt, s.maxExpanded+1)
	}
	blank := int(s.pos[0])
	h := s.heuristic()
	md := s.manhattan()
	s.bound = s.num * h
	var lastGenerated int64
	for iter := 1; ; iter++ {
		if h == 0 {
			return []Move{}, s.stats(iter), nil
		}
		if depth := s.bound / s.den; len(s.path) < depth {
			s.path = make([]Move, depth)
		}
		s.next = int(^uint(0) >> 1)
		before := s.generated
		var found bool
		// Split an iteration only when the previous one was large enough to
		// pay for it and, the bound being at most the optimal length, no
		// goal lies above the split depth.
		if s.workers > 1 && s.num == s.den && s.bound/s.den > splitDepth && lastGenerated >= parallelMin {
			found = s.iterateParallel(blank, md)
		} else {
			found = s.dfs(blank, -1, 0, md, s.fsm.start[blank&(maxCells-1)])
		}
		lastGenerated = s.generated - before
		st := s.stats(iter)
		switch {
		case found:
			return s.path[:s.solution], st, nil
		case s.stopErr != nil:
			return nil, st, s.stopErr
		}
		if s.progress != nil {
			s.progress(st)
		}
		s.bound = s.next
	}
}

// dfs searches below the current board (blank at blank, reached from prev,
// at depth g, Manhattan distance md, in state fs of the FSM) within the
// bound.
func (s *idaSearch) dfs(blank, prev, g, md int, fs int32) bool {
	switch {
	case s.ev == nil:
		return s.dfsMD(blank, prev, g, md, fs)
	case s.ev.pair && !s.noPair:
		if s.sums[1] > s.sums[0] {
			return s.dfsPair(blank, prev, g, md, s.sums[1], s.sums[0], 1, fs)
		}
		return s.dfsPair(blank, prev, g, md, s.sums[0], s.sums[1], 0, fs)
	case s.ev.full && !s.noPair:
		return s.dfsFull(blank, prev, g, md, [4]int(s.sums[:4]), fs)
	}
	return s.dfsPDB(blank, prev, g, md, fs)
}

// dfsMD searches below the current board (blank at blank, reached from
// prev, at depth g, Manhattan distance h, FSM state fs) within the bound.
func (s *idaSearch) dfsMD(blank, prev, g, h int, fs int32) bool {
	if g == s.split {
		s.emit(blank, prev, g, h, fs)
		return false
	}
	s.expanded++
	if s.expanded >= s.checkAt && s.check() {
		return false
	}
	s.maxDepth = max(s.maxDepth, g)
	ops := &s.ops[blank&(maxCells-1)]
	next := &s.fsm.next[fs]
	for i := 0; i < 4; i++ {
		nb := int(ops[i])
		if nb < 0 {
			break
		}
		nfs := next[i]
		if nb == prev || nfs < 0 {
			continue
		}
		s.generated++
		tile := int(s.cells[nb&(maxCells-1)])
		nh := h + int(s.md[(tile<<7|blank)&(maxCells*maxCells-1)]) - int(s.md[(tile<<7|nb)&(maxCells*maxCells-1)])
		if f := s.den*(g+1) + s.num*nh; f > s.bound {
			if f < s.next {
				s.next = f
			}
			continue
		}
		s.cells[blank&(maxCells-1)], s.cells[nb&(maxCells-1)] = uint8(tile), 0
		s.path[g] = s.opMoves[blank&(maxCells-1)][i]
		if nh == 0 {
			s.solution = g + 1
		}
		if nh == 0 || s.dfsMD(nb, blank, g+1, nh, nfs) {
			return true
		}
		s.cells[blank&(maxCells-1)], s.cells[nb&(maxCells-1)] = 0, uint8(tile)
		if s.stopErr != nil {
			return false
		}
	}
	return false
}

// dfsPDB is dfsMD with the pattern database heuristic; md is the current
// board's Manhattan distance. Only the views of the moving tile change; the
// groups' sums are updated in order and a child is cut off as soon as one
// puts it over the bound (Korf and Felner 2002 look up the reflected
// tables only when the regular sum does not).
func (s *idaSearch) dfsPDB(blank, prev, g, md int, fs int32) bool {
	if g == s.split {
		s.emit(blank, prev, g, md, fs)
		return false
	}
	s.expanded++
	if s.expanded >= s.checkAt && s.check() {
		return false
	}
	s.maxDepth = max(s.maxDepth, g)
	ev := s.ev
	groups := ev.groups
	var sums, vals [maxGroups]int // a child's sums and its moving tile's entries
	ops := &s.ops[blank&(maxCells-1)]
	next := &s.fsm.next[fs]
outer:
	for i := 0; i < 4; i++ {
		nb := int(ops[i])
		if nb < 0 {
			break
		}
		nfs := next[i]
		if nb == prev || nfs < 0 {
			continue
		}
		s.generated++
		tile := int(s.cells[nb&(maxCells-1)])
		nmd := md + int(s.md[(tile<<7|blank)&(maxCells*maxCells-1)]) - int(s.md[(tile<<7|nb)&(maxCells*maxCells-1)])
		s.pos[tile&(maxCells-1)], s.pos[0] = uint8(blank), uint8(nb)
		h := nmd
		for gi := 0; gi < groups && gi < maxGroups; gi++ {
			sum := s.sums[gi]
			if v := int(ev.viewOf[gi][tile&(maxCells-1)]); v >= 0 {
				nv := ev.views[v].delta(&s.pos)
				vals[gi] = nv
				sum += nv - s.cur[v&(2*maxCells-1)]
			}
			sums[gi] = sum
			if hg := nmd + 2*sum; hg > h || gi == 0 {
				h = hg
				if f := s.den*(g+1) + s.num*h; f > s.bound {
					if f < s.next {
						s.next = f
					}
					s.pos[tile&(maxCells-1)], s.pos[0] = uint8(nb), uint8(blank)
					continue outer
				}
			}
		}
		s.cells[blank&(maxCells-1)], s.cells[nb&(maxCells-1)] = uint8(tile), 0
		if h == 0 {
			s.path[g] = s.opMoves[blank&(maxCells-1)][i]
			s.solution = g + 1
			return true
		}
		saved := s.sums
		for gi := 0; gi < groups && gi < maxGroups; gi++ {
			s.sums[gi] = sums[gi]
			if v := int(ev.viewOf[gi][tile&(maxCells-1)]); v >= 0 {
				s.cur[v&(2*maxCells-1)], vals[gi] = vals[gi], s.cur[v&(2*maxCells-1)]
			}
		}
		s.path[g] = s.opMoves[blank&(maxCells-1)][i]
		if s.dfsPDB(nb, blank, g+1, nmd, nfs) {
			return true
		}
		s.sums = saved
		for gi := 0; gi < groups && gi < maxGroups; gi++ {
			if v := int(ev.viewOf[gi][tile&(maxCells-1)]); v >= 0 {
				s.cur[v&(2*maxCells-1)] = vals[gi]
			}
		}
		s.cells[blank&(maxCells-1)], s.cells[nb&(maxCells-1)] = 0, uint8(tile)
		s.pos[tile&(maxCells-1)], s.pos[0] = uint8(nb), uint8(blank)
		if s.stopErr != nil {
			return false
		}
	}
	return false
}

// dfsPair is dfsPDB for two groups in which every tile has a view (a
// partition and its reflection): the groups' sums travel as arguments
// instead of arrays saved and restored at every node. Group a, whose sum sa
// is the larger at this node, is looked up first, and group a^1 (sum sb)
// only when a does not cut the child off: the larger sum is the likelier
// to cut, so fewer children need both reads. It visits and counts exactly
// as dfsPDB; a child cut by both groups may set the next bound from the
// other one, an estimate as admissible, and of the same parity. With sparse
// tables the views' indices travel in s.idx, and a read moves the moving
// tile's index by one product (pdbView.moved) instead of computing it.
func (s *idaSearch) dfsPair(blank, prev, g, md, sa, sb, a int, fs int32) bool {
	if g == s.split {
		s.emit(blank, prev, g, md, fs)
		return false
	}
	s.expanded++
	if s.expanded >= s.checkAt && s.check() {
		return false
	}
	s.maxDepth = max(s.maxDepth, g)
	ev := s.ev
	ops := &s.ops[blank&(maxCells-1)]
	next := &s.fsm.next[fs]
	fg := s.den * (g + 1)
	viewA, viewB := &ev.viewOf[a&1], &ev.viewOf[a&1^1]
	sparse := ev.sparse
	for i := 0; i < 4; i++ {
		nb := int(ops[i])
		if nb < 0 {
			break
		}
		nfs := next[i]
		if nb == prev || nfs < 0 {
			continue
		}
		s.generated++
		tile := int(s.cells[nb&(maxCells-1)]) & (maxCells - 1)
		nmd := md + int(s.md[(tile<<7|blank)&(maxCells*maxCells-1)]) - int(s.md[(tile<<7|nb)&(maxCells*maxCells-1)])
		s.pos[tile], s.pos[0] = uint8(blank), uint8(nb)
		va := int(viewA[tile]) & (2*maxCells - 1)
		var ea int
		var ia int64
		if sparse {
			ia, ea = ev.views[va].moved(s.idx[va], tile, nb, blank)
		} else {
			ea = ev.views[va].delta(&s.pos)
		}
		na := sa + ea - s.cur[va]
		h := nmd + 2*na
		if f := fg + s.num*h; f > s.bound {
			s.next = min(s.next, f)
			s.pos[tile], s.pos[0] = uint8(nb), uint8(blank)
			continue
		}
		vb := int(viewB[tile]) & (2*maxCells - 1)
		var eb int
		var ib int64
		if sparse {
			ib, eb = ev.views[vb].moved(s.idx[vb], tile, nb, blank)
		} else {
			eb = ev.views[vb].delta(&s.pos)
		}
		nbs := sb + eb - s.cur[vb]
		if hb := nmd + 2*nbs; hb > h {
			h = hb
			if f := fg + s.num*h; f > s.bound {
				s.next = min(s.next, f)
				s.pos[tile], s.pos[0] = uint8(nb), uint8(blank)
				continue
			}
		}
		s.cells[blank&(maxCells-1)], s.cells[nb&(maxCells-1)] = uint8(tile), 0
		s.path[g] = s.opMoves[blank&(maxCells-1)][i]
		if h == 0 {
			s.solution = g + 1
			return true
		}
		ea, s.cur[va] = s.cur[va], ea
		eb, s.cur[vb] = s.cur[vb], eb
		ia, s.idx[va] = s.idx[va], ia
		ib, s.idx[vb] = s.idx[vb], ib
		var found bool
		if nbs > na {
			found = s.dfsPair(nb, blank, g+1, nmd, nbs, na, a^1, nfs)
		} else {
			found = s.dfsPair(nb, blank, g+1, nmd, na, nbs, a, nfs)
		}
		if found {
			return true
		}
		s.cur[va], s.cur[vb] = ea, eb
		s.idx[va], s.idx[vb] = ia, ib
		s.cells[blank&(maxCells-1)], s.cells[nb&(maxCells-1)] = 0, uint8(tile)
		s.pos[tile], s.pos[0] = uint8(nb), uint8(blank)
		if s.stopErr != nil {
			return false
		}
	}
	return false
}

// dfsFull is dfsPDB for up to four groups in which every tile has a view,
// such as a catalogue of two partitions with their reflections: the groups'
// sums travel as an argument instead of an array saved and restored at
// every node, and the groups of the moving tile are read in order until
// one cuts the child. It visits, cuts and counts exactly as dfsPDB.
func (s *idaSearch) dfsFull(blank, prev, g, md int, sums [4]int, fs int32) bool {
	if g == s.split {
		s.emit(blank, prev, g, md, fs)
		return false
	}
	s.expanded++
	if s.expanded >= s.checkAt && s.check() {
		return false
	}
	s.maxDepth = max(s.maxDepth, g)
	ev := s.ev
	k := min(ev.groups, 4)
	ops := &s.ops[blank&(maxCells-1)]
	next := &s.fsm.next[fs]
	fg := s.den * (g + 1)
outer:
	for i := 0; i < 4; i++ {
		nb := int(ops[i])
		if nb < 0 {
			break
		}
		nfs := next[i]
		if nb == prev || nfs < 0 {
			continue
		}
		s.generated++
		tile := int(s.cells[nb&(maxCells-1)]) & (maxCells - 1)
		nmd := md + int(s.md[(tile<<7|blank)&(maxCells*maxCells-1)]) - int(s.md[(tile<<7|nb)&(maxCells*maxCells-1)])
		s.pos[tile], s.pos[0] = uint8(blank), uint8(nb)
		var views, entries [4]int // the moving tile's view in each group, and its entry
		child, h := sums, -1
		for gi := 0; gi < k; gi++ {
			v := int(ev.viewOf[gi][tile]) & (2*maxCells - 1)
			e := ev.views[v].delta(&s.pos)
			views[gi], entries[gi] = v, e
			child[gi] += e - s.cur[v]
			if hg := nmd + 2*child[gi]; hg > h {
				h = hg
				if f := fg + s.num*h; f > s.bound {
					s.next = min(s.next, f)
					s.pos[tile], s.pos[0] = uint8(nb), uint8(blank)
					continue outer
				}
			}
		}
		s.cells[blank&(maxCells-1)], s.cells[nb&(maxCells-1)] = uint8(tile), 0
		s.path[g] = s.opMoves[blank&(maxCells-1)][i]
		if h == 0 {
			s.solution = g + 1
			return true
		}
		for gi := 0; gi < k; gi++ {
			entries[gi], s.cur[views[gi]] = s.cur[views[gi]], entries[gi]
		}
		if s.dfsFull(nb, blank, g+1, nmd, child, nfs) {
			return true
		}
		for gi := 0; gi < k; gi++ {
			s.cur[views[gi]] = entries[gi]
		}
		s.cells[blank&(maxCells-1)], s.cells[nb&(maxCells-1)] = 0, uint8(tile)
		s.pos[tile], s.pos[0] = uint8(nb), uint8(blank)
		if s.stopErr != nil {
			return false
		}
	}
	return false
}

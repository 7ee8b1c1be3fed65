package edgematch

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// DFS is the exact backtracker, a Solver; its fields are its parameters.
// The zero value finds one solution in the automatic scan order on every
// core, with no node limit.
type DFS struct {
	// Order is the scan order.
	Order Order
	// Scan, when its Order is not OrderAuto, is the scan order, started
	// from any corner (see Scans and EstimateScan); it overrides Order.
	Scan Scan
	// Count makes the search count every solution instead of stopping at
	// the first; Result.Stats.Solutions holds the count and Result.Board
	// the first solution in scan order.
	Count bool
	// Workers is the number of goroutines (0: runtime.GOMAXPROCS). The top
	// of the tree is split into subtrees that the workers take in order;
	// the solution returned is the first in scan order (unless a limit
	// stops the search early), so it does not depend on the number of
	// workers or on scheduling.
	Workers int
	// MaxNodes stops the search after about this many placements (0: no
	// limit).
	MaxNodes int64
	// NoSymmetry keeps the search from folding away board rotations (on a
	// grey-framed board without hints, the lowest corner piece is otherwise
	// forced into a canonical corner, which divides the work by 4 on a
	// square board and by 2 on others; counts are scaled back).
	NoSymmetry bool
	// Progress, when set, is called about once a second with the
	// statistics so far.
	Progress func(Stats)
}

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

// Solve searches p exactly with a backtracker: tables of candidates
// keyed by the colours of two known sides (left and top in row-scan),
// a word per candidate list marking the candidates whose piece is free
// (masks.go; a bitset of used pieces when a list is longer than 64), and
// no allocation in the loop. It returns the
// first solution in scan order, or with Count the number of
// solutions.
//
// Workers goroutines share the tree by ordered work stealing: a
// worker without work takes the earliest open subtree, and when there is
// none the worker on the earliest part of the tree gives away the
// untried siblings nearest to its root. Work after a known solution is
// dropped, and the solution kept is the first in scan order, so the
// result does not depend on the number of workers or on scheduling.
//
// It returns ErrNoSolution when the search is exhaustive and finds none,
// and an error wrapping ErrBudget or the context's error when a limit stops
// it; the Result then holds the deepest partial board seen and the
// statistics. The work is exponential in the board size in the worst case.
func (d DFS) Solve(ctx context.Context, p *Puzzle) (Result, error) {
	return d.solve(ctx, p, nil)
}

// solve is Solve below the placements prefix of the first cells of the
// scan (none: the whole tree; see SolveSubtree).
func (d DFS) solve(ctx context.Context, p *Puzzle, prefix []Placement) (Result, error) {
	startTime := time.Now()
	if err := p.Validate(); err != nil {
		return Result{}, err
	}
	c, err := d.compileDFS(p)
	if err != nil {
		return Result{}, err
	}
	return d.solveCompiled(ctx, c, prefix, startTime)
}

// solveCompiled is solve on the compiled puzzle c.
func (d DFS) solveCompiled(ctx context.Context, c *compiled, prefix []Placement, startTime time.Time) (Result, error) {
	workers := d.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	s := &dfsSearch{c: c, opts: d, ctx: ctx, start: startTime, active: make([]*dfsTask, workers), give: make([]atomic.Bool, workers)}
	s.cond = sync.NewCond(&s.mu)
	if c.hintsFit {
		if c.n == 0 && len(prefix) == 0 {
			// The hints fill the board.
			if d.Count {
				addCapped(&s.solutions, c.solutionWeight)
			}
			s.found(nil)
		} else {
			w := newDFSWorker(c)
			key, err := w.placePrefix(prefix)
			if err != nil {
				return Result{}, err
			}
			lo, hi := w.rootRange(len(key))
			s.pending = []*dfsTask{{key: key, lo: lo, hi: hi}}
			var wg sync.WaitGroup
			for id := range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					s.work(id)
				}()
			}
			wg.Wait()
		}
	}
	res := s.result()
	res.Stats.Elapsed = time.Since(startTime)
	return res, s.err()
}

// dfsTask is a part of the tree: the candidates lo..hi-1 at step
// len(key), below the path key (candidate indices of the steps before).
type dfsTask struct {
	key    []int32
	lo, hi int32
}

// position returns where the task starts in scan order.
func (t *dfsTask) position() []int32 { return append(t.key[:len(t.key):len(t.key)], t.lo) }

// comparePaths compares two paths of candidate indices in scan order; a
// path that is a prefix of the other comes first.
func comparePaths(a, b []int32) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return int(a[i]) - int(b[i])
		}
	}
	return len(a) - len(b)
}

// dfsSearch coordinates the workers of one DFS.Solve call.
type dfsSearch struct {
	c     *compiled
	opts  DFS
	ctx   context.Context
	start time.Time

	mu       sync.Mutex
	cond     *sync.Cond
	pending  []*dfsTask // in scan order
	active   []*dfsTask // per worker
	give     []atomic.Bool
	best     []int32 // path of the first solution found in scan order
	tasks    int
	stopErr  error
	stopped  bool
	maxDepth int
	deepest  []uint16
	lastProg time.Time

	nodes     atomic.Int64
	solutions atomic.Int64
}

// after reports whether all of a part of the tree starting at position
// comes after the best solution; s.mu is held.
func (s *dfsSearch) after(position []int32) bool {
	return !s.opts.Count && s.best != nil && comparePaths(position, s.best) > 0
}

// work is one worker: it takes the earliest open task until none is
// left, asking the worker on the earliest task to give work away when
// there is none to take.
func (s *dfsSearch) work(id int) {
	w := newDFSWorker(s.c)
	var reported int64
	s.mu.Lock()
	for {
		if s.stopped {
			break
		}
		for len(s.pending) > 0 && s.after(s.pending[0].position()) {
			s.pending = s.pending[1:]
		}
		if len(s.pending) > 0 {
			t := s.pending[0]
			s.pending = s.pending[1:]
			s.active[id] = t
			s.tasks++
			s.mu.Unlock()
			reported = s.runTask(w, id, t, reported)
			s.mu.Lock()
			s.active[id] = nil
			s.cond.Broadcast()
			continue
		}
		// No open task: ask the worker on the earliest task for some.
		earliest := -1
		for j, t := range s.active {
			if t != nil && !s.after(t.position()) && (earliest < 0 || comparePaths(t.position(), s.active[earliest].position()) < 0) {
				earliest = j
			}
		}
		if earliest < 0 {
			if !s.busy() {
				break // nothing left anywhere
			}
		} else {
			s.give[earliest].Store(true)
		}
		s.cond.Wait()
	}
	s.stopped = s.stopped || !s.busy()
	s.mergeDeepest(w)
	s.cond.Broadcast()
	s.mu.Unlock()
}

// busy reports whether a worker holds a task; s.mu is held.
func (s *dfsSearch) busy() bool {
	for _, t := range s.active {
		if t != nil {
			return true
		}
	}
	return false
}

// runTask searches task t and returns the nodes reported so far.
func (s *dfsSearch) runTask(w *dfsWorker, id int, t *dfsTask, reported int64) int64 {
	base := len(t.key)
	w.resetPath(t.key)
	w.stopNodes = w.nodes + checkEvery
	w.run(base, s.c.n, t.lo, t.hi, func([]uint16) bool {
		if s.opts.Count {
			addCapped(&s.solutions, s.c.solutionWeight)
		}
		s.found(w.path[:s.c.n])
		return !s.opts.Count
	}, func(depth int) bool {
		s.nodes.Add(w.nodes - reported)
		reported = w.nodes
		w.stopNodes = w.nodes + checkEvery
		if s.give[id].Load() {
			s.giveWork(w, id, t, depth)
		}
		return s.checkStop(w, depth)
	})
	s.nodes.Add(w.nodes - reported)
	return w.nodes
}

// giveWork moves the untried candidates of the shallowest step of w's
// path that has any into a new task.
func (s *dfsSearch) giveWork(w *dfsWorker, id int, t *dfsTask, depth int) {
	base := len(t.key)
	for d := base; d <= depth; d++ {
		if w.pos[d] >= w.end[d] {
			continue
		}
		key := make([]int32, d)
		copy(key, w.path[:d])
		nt := &dfsTask{key: key, lo: w.pos[d], hi: w.end[d]}
		w.end[d] = w.pos[d]
		s.mu.Lock()
		at := 0
		for at < len(s.pending) && comparePaths(s.pending[at].position(), nt.position()) < 0 {
			at++
		}
		s.pending = slices.Insert(s.pending, at, nt)
		s.give[id].Store(false)
		s.cond.Broadcast()
		s.mu.Unlock()
		return
	}
}

// found records a solution given by its path.
func (s *dfsSearch) found(path []int32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.best == nil || comparePaths(path, s.best) < 0 {
		s.best = append(make([]int32, 0, len(path)), path...)
		if !s.opts.Count {
			s.solutions.Store(1)
		}
	}
}

// checkStop looks at the context and the budget, reports progress, keeps
// the deepest board, and tells a worker whose path is past the best
// solution to stop.
func (s *dfsSearch) checkStop(w *dfsWorker, depth int) bool {
	var why error
	if err := s.ctx.Err(); err != nil {
		why = err
	} else if s.opts.MaxNodes > 0 && s.nodes.Load() >= s.opts.MaxNodes {
		why = fmt.Errorf("%w: %d placements (limit %d)", ErrBudget, s.nodes.Load(), s.opts.MaxNodes)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mergeDeepest(w)
	if why != nil && s.stopErr == nil {
		s.stopErr = why
	}
	if why != nil || s.stopped {
		s.stopped = true
		s.cond.Broadcast()
		return true
	}
	if s.after(w.path[:depth+1]) {
		return true
	}
	if s.opts.Progress != nil && time.Since(s.lastProg) >= time.Second {
		s.lastProg = time.Now()
		s.opts.Progress(s.statsLocked())
	}
	return false
}

// mergeDeepest keeps the deepest board of all workers; s.mu is held.
func (s *dfsSearch) mergeDeepest(w *dfsWorker) {
	if len(w.deepest) > len(s.deepest) {
		s.maxDepth = len(w.deepest)
		s.deepest = append(s.deepest[:0], w.deepest...)
	}
}

func (s *dfsSearch) statsLocked() Stats {
	return Stats{Nodes: s.nodes.Load(), Solutions: s.solutions.Load(), MaxDepth: s.maxDepth + len(s.c.p.Hints),
		Subtrees: s.tasks, Elapsed: time.Since(s.start)}
}

func (s *dfsSearch) result() Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	res := Result{Stats: s.statsLocked()}
	if s.best != nil {
		placed := make([]uint16, len(s.best))
		for i, j := range s.best {
			placed[i] = s.c.cand[j].o
		}
		res.Board = s.c.board(placed)
		res.Stats.MaxDepth = s.c.p.Cells()
	} else {
		res.Board = s.c.board(s.deepest)
	}
	res.Score = s.c.p.Score(res.Board)
	return res
}

// err is the error of the search: a stop before the end (for counting,
// even after solutions were found), or ErrNoSolution.
func (s *dfsSearch) err() error {
	switch {
	case s.stopErr != nil && (s.opts.Count || s.best == nil):
		return s.stopErr
	case s.best == nil:
		return ErrNoSolution
	}
	return nil
}

// addCapped adds d > 0 to v, stopping at math.MaxInt64.
func addCapped(v *atomic.Int64, d int64) {
	for {
		old := v.Load()
		next := old + d
		if next < old {
			next = math.MaxInt64
		}
		if v.CompareAndSwap(old, next) {
			return
		}
	}
}

package exact

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"tessera/edgematch"
	"tessera/edgematch/internal/kernel"
)

// DFS is the exact backtracker, a Solver; its fields are its parameters.
// The zero value finds one solution in the automatic scan order on every
// core, with no node limit.
type DFS struct {
	// Order is the scan order.
	Order edgematch.Order
	// Scan, when its Order is not OrderAuto, is the scan order, started
	// from any corner (see Scans and EstimateScan); it overrides Order.
	Scan edgematch.Scan
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
	Progress func(edgematch.Stats)
}

var _ edgematch.Solver = DFS{}

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
func (d DFS) Solve(ctx context.Context, p *edgematch.Puzzle) (edgematch.Result, error) {
	return d.solve(ctx, p, nil)
}

// solve is Solve below the placements prefix of the first cells of the
// scan (none: the whole tree; see SolveSubtree).
func (d DFS) solve(ctx context.Context, p *edgematch.Puzzle, prefix []edgematch.Placement) (edgematch.Result, error) {
	startTime := time.Now()
	if err := p.Validate(); err != nil {
		return edgematch.Result{}, err
	}
	c, err := d.compileDFS(p)
	if err != nil {
		return edgematch.Result{}, err
	}
	return d.solveCompiled(ctx, c, prefix, startTime)
}

// solveCompiled is solve on the compiled puzzle c.
func (d DFS) solveCompiled(ctx context.Context, c *kernel.Compiled, prefix []edgematch.Placement, startTime time.Time) (edgematch.Result, error) {
	workers := d.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	s := &dfsSearch{c: c, opts: d, ctx: ctx, start: startTime, active: make([]*dfsTask, workers), give: make([]atomic.Bool, workers)}
	s.cond = sync.NewCond(&s.mu)
	if c.HintsFit {
		if c.N == 0 && len(prefix) == 0 {
			// The hints fill the board.
			if d.Count {
				addCapped(&s.solutions, c.SolutionWeight)
			}
			s.found(nil)
		} else {
			w := kernel.NewWorker(c)
			key, err := w.PlacePrefix(prefix)
			if err != nil {
				return edgematch.Result{}, err
			}
			lo, hi := w.RootRange(len(key))
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
	c     *kernel.Compiled
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
	w := kernel.NewWorker(s.c)
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
func (s *dfsSearch) runTask(w *kernel.Worker, id int, t *dfsTask, reported int64) int64 {
	base := len(t.key)
	w.ResetPath(t.key)
	w.StopNodes = w.Nodes + kernel.CheckEvery
	w.Run(base, s.c.N, t.lo, t.hi, func([]uint16) bool {
		if s.opts.Count {
			addCapped(&s.solutions, s.c.SolutionWeight)
		}
		s.found(w.Path[:s.c.N])
		return !s.opts.Count
	}, func(depth int) bool {
		s.nodes.Add(w.Nodes - reported)
		reported = w.Nodes
		w.StopNodes = w.Nodes + kernel.CheckEvery
		if s.give[id].Load() {
			s.giveWork(w, id, t, depth)
		}
		return s.checkStop(w, depth)
	})
	s.nodes.Add(w.Nodes - reported)
	return w.Nodes
}

// giveWork moves the untried candidates of the shallowest step of w's
// path that has any into a new task.
func (s *dfsSearch) giveWork(w *kernel.Worker, id int, t *dfsTask, depth int) {
	base := len(t.key)
	for d := base; d <= depth; d++ {
		if w.Pos[d] >= w.End[d] {
			continue
		}
		key := make([]int32, d)
		copy(key, w.Path[:d])
		nt := &dfsTask{key: key, lo: w.Pos[d], hi: w.End[d]}
		w.End[d] = w.Pos[d]
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
func (s *dfsSearch) checkStop(w *kernel.Worker, depth int) bool {
	var why error
	if err := s.ctx.Err(); err != nil {
		why = err
	} else if s.opts.MaxNodes > 0 && s.nodes.Load() >= s.opts.MaxNodes {
		why = fmt.Errorf("%w: %d placements (limit %d)", edgematch.ErrBudget, s.nodes.Load(), s.opts.MaxNodes)
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
	if s.after(w.Path[:depth+1]) {
		return true
	}
	if s.opts.Progress != nil && time.Since(s.lastProg) >= time.Second {
		s.lastProg = time.Now()
		s.opts.Progress(s.statsLocked())
	}
	return false
}

// mergeDeepest keeps the deepest board of all workers; s.mu is held.
func (s *dfsSearch) mergeDeepest(w *kernel.Worker) {
	if len(w.Deepest) > len(s.deepest) {
		s.maxDepth = len(w.Deepest)
		s.deepest = append(s.deepest[:0], w.Deepest...)
	}
}

func (s *dfsSearch) statsLocked() edgematch.Stats {
	return edgematch.Stats{Nodes: s.nodes.Load(), Solutions: s.solutions.Load(), MaxDepth: s.maxDepth + len(s.c.P.Hints),
		Subtrees: s.tasks, Elapsed: time.Since(s.start)}
}

func (s *dfsSearch) result() edgematch.Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	res := edgematch.Result{Stats: s.statsLocked()}
	if s.best != nil {
		placed := make([]uint16, len(s.best))
		for i, j := range s.best {
			placed[i] = s.c.Cand[j].O
		}
		res.Board = s.c.Board(placed)
		res.Stats.MaxDepth = s.c.P.Cells()
	} else {
		res.Board = s.c.Board(s.deepest)
	}
	res.Score = s.c.P.Score(res.Board)
	return res
}

// err is the error of the search: a stop before the end (for counting,
// even after solutions were found), or ErrNoSolution.
func (s *dfsSearch) err() error {
	switch {
	case s.stopErr != nil && (s.opts.Count || s.best == nil):
		return s.stopErr
	case s.best == nil:
		return edgematch.ErrNoSolution
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

package edgematch

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// DFSOptions tune the exact backtracker. The zero value finds one solution
// in the automatic scan order on every core, with no node limit.
type DFSOptions struct {
	// Order is the scan order.
	Order Order
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

// Stats describes the work of a solver.
type Stats struct {
	// Nodes counts placements of a piece in a cell.
	Nodes int64
	// Solutions counts the complete solutions found. With Count it is
	// their number, counting the boards that differ by a rotation of the
	// whole board or by an exchange of identical pieces (which the search
	// folds away and multiplies back), capped at math.MaxInt64.
	Solutions int64
	// MaxDepth is the largest number of cells filled at once, hints
	// included.
	MaxDepth int
	// Subtrees is the number of subtrees the top of the tree was split into.
	Subtrees int
	// Moves counts the improvement moves of SolvePartial (window and
	// assignment repairs).
	Moves int64
	// Elapsed is the wall-clock time.
	Elapsed time.Duration
}

// NodesPerSecond returns Nodes / Elapsed.
func (s Stats) NodesPerSecond() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Nodes) / s.Elapsed.Seconds()
}

// Result is what a solver returns: the best board found with its
// canonical score, and the statistics.
type Result struct {
	// Board is the solution, or for a failed exact search the deepest
	// partial board, or for partial search the best board.
	Board *Board
	// Score is Puzzle.Score(Board), computed independently of the solver.
	Score Score
	Stats Stats
}

// dfsWorker is one backtracker's mutable state.
type dfsWorker struct {
	c      *compiled
	col    []byte
	used   []uint64
	placed []uint16 // oriented piece at each step
	pos    []int32
	end    []int32

	nodes    int64
	maxDepth int
	deepest  []uint16 // the pieces of the first board of depth maxDepth
	// stopNodes: the worker checks its budget and the context when
	// nodes reaches it.
	stopNodes int64
}

func newDFSWorker(c *compiled) *dfsWorker {
	return &dfsWorker{
		c:       c,
		col:     append([]byte(nil), c.colInit...),
		used:    append([]uint64(nil), c.usedInit...),
		placed:  make([]uint16, c.n),
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

// dfsStop says why run returned.
type dfsStop uint8

const (
	dfsDone   dfsStop = iota // the subtree is exhausted
	dfsFound                 // visit asked to stop
	dfsBudget                // check asked to stop
)

// run searches the subtree below the first base steps (already placed by
// reset) down to step limit (c.n for complete boards). At each node of
// depth limit it calls visit with the placed pieces; visit returns true to
// stop. Every 2^16 nodes it calls check, which returns true to stop.
//
// The loop allocates nothing: candidates come from the tables of compile,
// used pieces are a bitset, and the colours live in the flat col array.
func (w *dfsWorker) run(base, limit int, visit func(placed []uint16) bool, check func() bool) dfsStop {
	c := w.c
	col, used, placed, pos, end := w.col, w.used, w.placed, w.pos, w.end
	cand, start, oriPrev, twins := c.cand, c.start, c.oriPrev, c.hasTwins
	srcA, srcB, tab, stepPad := c.srcA, c.srcB, c.tab, c.stepPad
	xStart, xSide, xSrc := c.xStart, c.xSide, c.xSrc
	k := c.k
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
	t := int(tab[i]) + int(col[srcA[i]])*k + int(col[srcB[i]])
	// cur..last is the candidate range of step i; the ranges of the steps
	// above are saved in pos and end.
	cur, last := start[t], start[t+1]
	for {
		if cur >= last {
			// Backtrack: free the piece placed at the step before.
			if i == base {
				return dfsDone
			}
			i--
			cur, last = pos[i], end[i]
			p := cand[cur-1].piece
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
		if xs, xe := xStart[i], xStart[i+1]; xs != xe {
			ok := true
			for j := xs; j < xe; j++ {
				if byte(e.packed>>(8*xSide[j])) != col[xSrc[j]] {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
		}
		nodes++
		placed[i] = e.o
		binary.LittleEndian.PutUint32(col[stepPad[i]*4:], e.packed)
		if i+1 > maxDepth {
			maxDepth = i + 1
			w.deepest = append(w.deepest[:0], placed[:maxDepth]...)
		}
		if nodes >= stop {
			w.nodes, w.maxDepth = nodes, maxDepth
			if check() {
				return dfsBudget
			}
			stop = w.stopNodes
		}
		if i+1 == limit {
			if visit(placed[:limit]) {
				return dfsFound
			}
			continue
		}
		used[p>>6] |= 1 << (p & 63)
		pos[i], end[i] = cur, last
		i++
		t := int(tab[i]) + int(col[srcA[i]])*k + int(col[srcB[i]])
		cur, last = start[t], start[t+1]
	}
}

// checkEvery is how many placements a worker makes between looks at the
// clock, the context and the node budget.
const checkEvery = 1 << 16

// SolveDFS searches p exactly with a backtracker: tables of candidates
// keyed by the colours of two known sides (left and top in row-scan),
// a bitset of used pieces, and no allocation in the loop. It returns the
// first solution in scan order, or with opts.Count the number of
// solutions. The top of the tree is split into subtrees shared by
// opts.Workers goroutines.
//
// It returns ErrNoSolution when the search is exhaustive and finds none,
// and an error wrapping ErrBudget or the context's error when a limit stops
// it; the Result then holds the deepest partial board seen by the first
// worker and the statistics. The work is exponential in the board size in
// the worst case.
func SolveDFS(ctx context.Context, p *Puzzle, opts DFSOptions) (Result, error) {
	startTime := time.Now()
	c, err := compile(p, compileOptions{order: opts.Order, breakSymmetry: !opts.NoSymmetry})
	if err != nil {
		return Result{}, err
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	s := &dfsSearch{c: c, opts: opts, ctx: ctx, start: startTime}
	s.solve(workers)
	res := s.result()
	res.Stats.Elapsed = time.Since(startTime)
	return res, s.err()
}

// dfsSearch coordinates the workers of one SolveDFS call.
type dfsSearch struct {
	c     *compiled
	opts  DFSOptions
	ctx   context.Context
	start time.Time

	prefixes [][]uint16
	split    int // depth of the prefixes

	mu        sync.Mutex
	nodes     atomic.Int64
	solutions atomic.Int64
	maxDepth  int
	deepest   []uint16
	firstIdx  atomic.Int64 // index of the first subtree with a solution
	first     []uint16
	stopped   atomic.Bool
	stopErr   error
	lastProg  time.Time
}

// splitTarget is the number of subtrees wanted per worker.
const splitTarget = 64

// solve splits the top of the tree and runs the workers.
func (s *dfsSearch) solve(workers int) {
	c := s.c
	s.firstIdx.Store(1 << 62)
	if !c.hintsFit {
		return
	}
	// Split: enumerate the nodes at increasing depth until there are
	// enough subtrees. The enumeration is cheap (a tiny fraction of the
	// tree).
	w := newDFSWorker(c)
	want := splitTarget * workers
	if workers == 1 {
		want = 1
	}
	depth := 0
	prefixes := [][]uint16{{}}
	for len(prefixes) < want && depth < c.n {
		next := make([][]uint16, 0, len(prefixes)*2)
		overflow := false
		for _, pre := range prefixes {
			w.reset(pre)
			w.stopNodes = w.nodes + checkEvery
			st := w.run(len(pre), len(pre)+1, func(placed []uint16) bool {
				next = append(next, append([]uint16(nil), placed...))
				return len(next) > 1<<18
			}, func() bool {
				w.stopNodes = w.nodes + checkEvery
				return s.checkStop(w, 0)
			})
			if st == dfsBudget {
				return
			}
			if st == dfsFound {
				overflow = true
				break
			}
		}
		if overflow {
			break
		}
		prefixes = next
		depth++
		if len(prefixes) == 0 {
			break
		}
	}
	s.nodes.Add(w.nodes)
	s.prefixes, s.split = prefixes, depth
	if len(prefixes) == 0 {
		return
	}

	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, len(prefixes)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.work(&next)
		}()
	}
	wg.Wait()
}

// work takes subtrees in order and searches them.
func (s *dfsSearch) work(next *atomic.Int64) {
	w := newDFSWorker(s.c)
	var reported int64
	for {
		i := next.Add(1) - 1
		if i >= int64(len(s.prefixes)) || s.stopped.Load() {
			break
		}
		if !s.opts.Count && i > s.firstIdx.Load() {
			break // a solution earlier in scan order is already known
		}
		w.reset(s.prefixes[i])
		w.stopNodes = w.nodes + checkEvery
		st := w.run(s.split, s.c.n, func(placed []uint16) bool {
			if s.opts.Count {
				addCapped(&s.solutions, s.c.solutionWeight)
			}
			s.found(i, placed)
			return !s.opts.Count
		}, func() bool {
			s.nodes.Add(w.nodes - reported)
			reported = w.nodes
			w.stopNodes = w.nodes + checkEvery
			if !s.opts.Count && i > s.firstIdx.Load() {
				return true
			}
			return s.checkStop(w, i)
		})
		if st == dfsBudget && s.stopped.Load() {
			break
		}
	}
	s.nodes.Add(w.nodes - reported)
	s.mu.Lock()
	s.mergeDeepest(w)
	s.mu.Unlock()
}

// mergeDeepest keeps the deepest board of all workers; s.mu is held.
func (s *dfsSearch) mergeDeepest(w *dfsWorker) {
	if len(w.deepest) > len(s.deepest) {
		s.maxDepth = len(w.deepest)
		s.deepest = append(s.deepest[:0], w.deepest...)
	}
}

// found records a solution in subtree i.
func (s *dfsSearch) found(i int64, placed []uint16) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i < s.firstIdx.Load() {
		s.firstIdx.Store(i)
		s.first = append(s.first[:0], placed...)
		if !s.opts.Count {
			s.solutions.Store(1)
		}
	}
}

// checkStop looks at the context and the budget, reports progress, and
// keeps the deepest board of the worker of subtree 0.
func (s *dfsSearch) checkStop(w *dfsWorker, subtree int64) bool {
	if s.stopped.Load() {
		return true
	}
	var why error
	if err := s.ctx.Err(); err != nil {
		why = err
	} else if s.opts.MaxNodes > 0 && s.nodes.Load() >= s.opts.MaxNodes {
		why = fmt.Errorf("%w: %d placements (limit %d)", ErrBudget, s.nodes.Load(), s.opts.MaxNodes)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mergeDeepest(w)
	if why != nil {
		if s.stopErr == nil {
			s.stopErr = why
		}
		s.stopped.Store(true)
		return true
	}
	if s.opts.Progress != nil && time.Since(s.lastProg) >= time.Second {
		s.lastProg = time.Now()
		s.opts.Progress(s.statsLocked())
	}
	return false
}

func (s *dfsSearch) statsLocked() Stats {
	return Stats{Nodes: s.nodes.Load(), Solutions: s.solutions.Load(), MaxDepth: s.maxDepth + len(s.c.p.Hints),
		Subtrees: len(s.prefixes), Elapsed: time.Since(s.start)}
}

func (s *dfsSearch) result() Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	res := Result{Stats: s.statsLocked()}
	switch {
	case s.first != nil:
		res.Board = s.c.board(s.first)
	default:
		res.Board = s.c.board(s.deepest)
	}
	res.Score = s.c.p.Score(res.Board)
	return res
}

// err is the error of the search: a stop before the end (for counting,
// even after solutions were found), or ErrNoSolution.
func (s *dfsSearch) err() error {
	switch {
	case s.stopErr != nil && (s.opts.Count || s.first == nil):
		return s.stopErr
	case s.first == nil:
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

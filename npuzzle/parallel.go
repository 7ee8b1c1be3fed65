package npuzzle

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
)

// A parallel iteration of the specialised IDA* follows Reinefeld and
// Schnecke's AIDA* ("AIDA*: Asynchronous Parallel IDA*", 1994): a first,
// sequential phase searches the tree down to splitDepth and records each
// board it reaches there as a task, in depth-first order; then workers take
// the tasks in that order and search below them to the bound. An iteration
// that finds no goal generates exactly the nodes of the sequential one. In
// the last iteration the solution kept is the one of the first task, in
// depth-first order, that has one, and the counts are those the sequential
// search has when it finds it: the first phase's counts up to that task,
// plus the tasks before it in full, plus that task up to its goal. So the
// moves and the statistics do not depend on the number of workers or on
// scheduling; only the wall-clock time does. Workers searching tasks after
// the first solved one stop at their next check.

// splitDepth is the depth of the tasks: about 2.4^12 = 36,000 boards on
// the 5x5, 2.1^12 = 8,000 on the 4x4, enough to balance two to sixteen
// workers.
const splitDepth = 12

// parallelMin is the fewest nodes an iteration must have generated for the
// next one to be split: smaller ones are not worth the first phase. Tests
// lower it.
var parallelMin int64 = 1 << 22

// idaTask is a board at the split depth: its cells, where the blank is and
// came from, its depth and Manhattan distance, its moves from the root
// (at pathAt in parIteration.moves), and the first phase's counts when it
// was recorded.
type idaTask struct {
	cells               [maxCells]uint8
	blank, prev, g, md  int
	fsm                 int32 // the FSM's state
	pathAt              int
	expanded, generated int64
}

// taskResult is what a worker found below a task.
type taskResult struct {
	expanded, generated int64
	moves               []Move // the solution, when the task has one
}

// parIteration is the state the workers of one parallel iteration share.
type parIteration struct {
	tasks   []idaTask
	moves   []Move // the tasks' moves from the root, one after the other
	results []taskResult

	nextTask  atomic.Int64 // the next task to take
	solved    atomic.Int64 // the first task known to have a solution
	expanded  atomic.Int64 // for limits and progress: the nodes so far
	generated atomic.Int64
	maxExp    int64

	mu       sync.Mutex // guards err, reportAt and the progress calls
	err      error
	reportAt int64
}

// errTaskAbandoned stops a worker's task that comes after a solved one.
var errTaskAbandoned = errors.New("npuzzle: task after a solved one")

// emit records the current board as a task of the first phase.
func (s *idaSearch) emit(blank, prev, g, md int, fs int32) {
	p := s.par
	p.tasks = append(p.tasks, idaTask{cells: s.cells, blank: blank, prev: prev, g: g, md: md, fsm: fs,
		pathAt: len(p.moves), expanded: s.expanded, generated: s.generated})
	p.moves = append(p.moves, s.path[:g]...)
}

// iterateParallel runs one iteration of the bound with s.workers
// goroutines; blank and md describe the root. It reports whether it found a
// solution, which it leaves in s.path[:s.solution]; s's counts, next bound
// and deepest depth become those of the sequential iteration.
func (s *idaSearch) iterateParallel(blank, md int) bool {
	p := &parIteration{maxExp: s.maxExpanded}
	s.par, s.split = p, splitDepth
	s.dfs(blank, -1, 0, md, s.fsm.start[blank&(maxCells-1)]) // no goal above the split depth: see run
	s.par, s.split = nil, -1
	if s.stopErr != nil {
		return false
	}
	p.results = make([]taskResult, len(p.tasks))
	p.solved.Store(math.MaxInt64)
	p.expanded.Store(s.expanded)
	p.generated.Store(s.generated)

	workers := make([]*idaSearch, min(s.workers, len(p.tasks)))
	var wg sync.WaitGroup
	for i := range workers {
		w := *s
		w.par, w.path, w.checkAt = p, make([]Move, len(s.path)), checkEvery
		workers[i] = &w
		wg.Go(w.work)
	}
	wg.Wait()
	if p.err != nil {
		s.stopErr = p.err
		s.expanded, s.generated = p.expanded.Load(), p.generated.Load()
		return false
	}
	for _, w := range workers {
		s.next = min(s.next, w.next)
		s.maxDepth = max(s.maxDepth, w.maxDepth)
	}
	last, found := len(p.tasks)-1, false
	if k := p.solved.Load(); k != math.MaxInt64 {
		last, found = int(k), true
		s.expanded, s.generated = p.tasks[last].expanded, p.tasks[last].generated
	}
	for _, r := range p.results[:last+1] {
		s.expanded += r.expanded
		s.generated += r.generated
	}
	if found {
		s.solution = copy(s.path, p.results[last].moves)
	}
	return found
}

// work is a worker's loop: it takes the tasks in order and searches below
// each, until none is left or the next comes after a solved one.
func (s *idaSearch) work() {
	p := s.par
	s.expanded, s.generated, s.flushed, s.flushedGen = 0, 0, 0, 0
	for {
		k := p.nextTask.Add(1) - 1
		if k >= int64(len(p.tasks)) || k > p.solved.Load() {
			break
		}
		t := &p.tasks[k]
		s.task = int(k)
		s.cells = t.cells
		for c := range s.n {
			s.pos[s.cells[c]&(maxCells-1)] = uint8(c)
		}
		if s.ev != nil {
			s.lookup()
		}
		copy(s.path, p.moves[t.pathAt:t.pathAt+t.g])
		e, g := s.expanded, s.generated
		found := s.dfs(t.blank, t.prev, t.g, t.md, t.fsm)
		r := &p.results[k]
		r.expanded, r.generated = s.expanded-e, s.generated-g
		if found {
			r.moves = append([]Move(nil), s.path[:s.solution]...)
			for {
				old := p.solved.Load()
				if k >= old || p.solved.CompareAndSwap(old, k) {
					break
				}
			}
		}
		if s.stopErr == errTaskAbandoned {
			s.stopErr = nil
			continue
		}
		if s.stopErr != nil {
			p.mu.Lock()
			if p.err == nil {
				p.err = s.stopErr
			}
			p.mu.Unlock()
			p.solved.Store(-1) // stop the others
			break
		}
	}
	p.expanded.Add(s.expanded - s.flushed)
	p.generated.Add(s.generated - s.flushedGen)
}

// check is idaSearch.check for a worker: the limits apply to all the
// workers' expansions together, and a task after a solved one is dropped.
func (p *parIteration) check(s *idaSearch) bool {
	total := p.expanded.Add(s.expanded - s.flushed)
	generated := p.generated.Add(s.generated - s.flushedGen)
	s.flushed, s.flushedGen = s.expanded, s.generated
	if p.maxExp > 0 && total > p.maxExp {
		s.stopErr = fmt.Errorf("%w: about %d states expanded (limit %d)", ErrBudget, total, p.maxExp)
		return true
	}
	if err := s.ctx.Err(); err != nil {
		s.stopErr = err
		return true
	}
	if int64(s.task) > p.solved.Load() {
		s.stopErr = errTaskAbandoned
		return true
	}
	if s.progress != nil {
		p.mu.Lock()
		if total >= p.reportAt {
			p.reportAt = total + 1<<20
			st := s.stats(0)
			st.Expanded, st.Generated = total, generated
			s.progress(st)
		}
		p.mu.Unlock()
	}
	return false
}

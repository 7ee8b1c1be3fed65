package exact

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"tessera/edgematch"
	"tessera/edgematch/internal/kernel"
)

// MaxSubtrees bounds the number of subtrees DFS.Subtrees lists.
const MaxSubtrees = 1 << 20

// compileDFS compiles p for the backtracker d (its scan and symmetry).
func (d DFS) compileDFS(p *edgematch.Puzzle) (*kernel.Compiled, error) {
	scan := d.Scan
	if scan.Order == edgematch.OrderAuto {
		scan = edgematch.Scan{Order: d.Order}
	}
	return kernel.Compile(p, kernel.CompileOptions{Cells: scan.Cells(p.Rows, p.Cols), BreakSymmetry: !d.NoSymmetry})
}

// Steps returns the number of cells the backtracker d fills on p (the
// cells of the board less the hints): a prefix of a subtree is shorter.
func (d DFS) Steps(p *edgematch.Puzzle) (int, error) {
	c, err := d.compileDFS(p)
	if err != nil {
		return 0, err
	}
	return c.N, nil
}

// Subtrees splits the exact search of p into subtrees: it returns the
// placements of the first depth cells of d's scan (hints left out) at every
// node of that depth of the backtracker's tree, in the order the
// backtracker visits them. Searching below every prefix (SolveSubtree)
// searches the whole tree: the solutions of p are those of its subtrees,
// and the first solution of the first subtree that has one is the first
// solution of DFS.Solve. depth is clamped to the steps less one, so that
// every subtree has a cell to fill; a puzzle with no cell to fill, or
// whose hints disagree, has no subtree. The list is refused beyond
// MaxSubtrees prefixes; the context bounds the work (it grows with the
// tree's width at depth).
func (d DFS) Subtrees(ctx context.Context, p *edgematch.Puzzle, depth int) ([][]edgematch.Placement, error) {
	c, err := d.compileDFS(p)
	if err != nil {
		return nil, err
	}
	pre, _, err := subtrees(ctx, c, depth)
	return pre, err
}

// subtrees lists the prefixes of depth (see Subtrees) and returns the
// placements made at the depths up to it.
func subtrees(ctx context.Context, c *kernel.Compiled, depth int) ([][]edgematch.Placement, int64, error) {
	if depth < 0 {
		return nil, 0, fmt.Errorf("edgematch: split depth %d is negative", depth)
	}
	if !c.HintsFit || c.N == 0 {
		return nil, 0, nil
	}
	depth = min(depth, c.N-1)
	if depth == 0 {
		return [][]edgematch.Placement{{}}, 0, nil
	}
	w := kernel.NewWorker(c)
	w.Reset(nil)
	w.StopNodes = kernel.CheckEvery
	var out [][]edgematch.Placement
	var stop error
	lo, hi := w.RootRange(0)
	w.Run(0, depth, lo, hi, func(placed []uint16) bool {
		if len(out) == MaxSubtrees {
			stop = fmt.Errorf("edgematch: more than %d subtrees at depth %d: split less deep", MaxSubtrees, depth)
			return true
		}
		pre := make([]edgematch.Placement, len(placed))
		for i, o := range placed {
			pre[i] = edgematch.Placement{Piece: int(c.OriPiece[o]), Rot: int(c.OriRot[o])}
		}
		out = append(out, pre)
		return false
	}, func(int) bool {
		w.StopNodes = w.Nodes + kernel.CheckEvery
		stop = ctx.Err()
		return stop != nil
	})
	return out, w.Nodes, stop
}

// SolveSubtree is Solve restricted to the subtree below prefix: the
// placements of the first len(prefix) cells of d's scan, as Subtrees lists
// them (each is checked: a placement that does not fit is an error). It
// returns the first solution below the prefix, or with Count the number of
// solutions below it (weighted as Solve's count, so the counts of all the
// subtrees add up to Solve's), and ErrNoSolution when the subtree has none.
// d.Workers goroutines share the subtree.
func (d DFS) SolveSubtree(ctx context.Context, p *edgematch.Puzzle, prefix []edgematch.Placement) (edgematch.Result, error) {
	return d.solve(ctx, p, prefix)
}

// SubtreeReport is what a SubtreeExecutor reports about a subtree.
type SubtreeReport struct {
	// Index is the subtree's index in the list given to the executor.
	Index int
	// Done marks the last report of a subtree: Result and Err are those of
	// SolveSubtree. Before it, a report gives the work so far in
	// Result.Stats.
	Done   bool
	Result edgematch.Result
	Err    error
}

// SubtreeExecutor runs the subtrees of a split exact search (Split): in
// process (LocalSubtrees) or elsewhere (as jobs on other machines).
//
// RunSubtrees searches the subtrees below prefixes, each with d's
// SolveSubtree (d has no Progress and no MaxNodes), starting them in the
// order given. It calls report, never concurrently, with the progress of
// subtrees and one final report (Done) for each subtree it finishes. When
// ctx ends it stops every subtree, running or waiting, and returns the
// context's error; it returns nil once every subtree is done.
type SubtreeExecutor interface {
	RunSubtrees(ctx context.Context, p *edgematch.Puzzle, d DFS, prefixes [][]edgematch.Placement, report func(SubtreeReport)) error
}

// LocalSubtrees is the in-process SubtreeExecutor: Workers goroutines
// (0: GOMAXPROCS) take the subtrees in order, one goroutine per subtree.
type LocalSubtrees struct {
	Workers int
}

// RunSubtrees implements SubtreeExecutor. The puzzle is compiled once
// for all the subtrees.
func (l LocalSubtrees) RunSubtrees(ctx context.Context, p *edgematch.Puzzle, d DFS, prefixes [][]edgematch.Placement, report func(SubtreeReport)) error {
	workers := l.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	c, err := d.compileDFS(p)
	if err != nil {
		return err
	}
	d.Workers = 1
	var next atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range min(workers, len(prefixes)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(prefixes) {
					return
				}
				sd := d
				sd.Progress = func(st edgematch.Stats) {
					mu.Lock()
					defer mu.Unlock()
					report(SubtreeReport{Index: i, Result: edgematch.Result{Stats: st}})
				}
				res, err := sd.solveCompiled(ctx, c, prefixes[i], time.Now())
				mu.Lock()
				report(SubtreeReport{Index: i, Done: true, Result: res, Err: err})
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if next.Load() < int64(len(prefixes)) {
		return ctx.Err()
	}
	return nil
}

// Split is the exact search split into subtrees that run as independent
// tasks, a Solver: Subtrees lists the prefixes of the first Depth cells in
// scan order, and an executor searches below each, in process on Workers
// goroutines or as jobs on other machines (Exec). The first solution found
// stops every other subtree; with DFS.Count the solutions of all the
// subtrees are counted instead (the same count as DFS.Solve).
//
// The subtrees start in scan order, so with one worker the solution is
// DFS.Solve's, the first in scan order; with several it is the first
// found, which depends on scheduling. Where DFS splits its tree by work
// stealing inside one process, Split's tasks share nothing, so they can
// run on many machines; the price is the balance: a subtree may hold most
// of the tree, so Depth should give many more subtrees than workers.
type Split struct {
	// DFS is the search below each prefix: scan, Count, NoSymmetry.
	// MaxNodes bounds the placements of all the subtrees together, checked
	// as subtrees report (every second or so, and when each ends); Progress
	// receives the statistics of all the subtrees about once a second
	// (Subtrees: the number finished). Its Workers are ignored.
	DFS DFS
	// Depth is the number of cells placed in each prefix (0: the least
	// depth that gives at least 64 subtrees per worker, at most 8).
	Depth int
	// Workers is the number of goroutines of the in-process executor
	// (0: GOMAXPROCS); also the worker count the automatic Depth assumes.
	Workers int
	// Exec runs the subtrees (nil: LocalSubtrees{Workers}).
	Exec SubtreeExecutor
	// OnSplit, when set, is called with the depth and the number of
	// subtrees before the search.
	OnSplit func(depth, subtrees int)
	// OnSolution, when set, is called with each subtree's first solution
	// as it is found (the board must not be kept after the call).
	OnSolution func(index int, b *edgematch.Board)
	// Searched holds the subtrees an earlier run searched to their end,
	// with their results (as its OnSearched received them): they are not
	// searched again and count as if they had been (their placements,
	// solutions and first solution, which is verified). The earlier run
	// must have had the same puzzle, scan, Depth and Count; a prefix that
	// is not in this run's list is an error.
	Searched []SearchedSubtree
	// OnSearched, when set, is called with each subtree this run searches
	// to its end (not one that a limit or another's solution stopped) as
	// it finishes, never concurrently: what a journal records so that a
	// later run resumes with Searched. With Count, its count is complete.
	OnSearched func(SearchedSubtree)
}

// SearchedSubtree is a subtree of a split search searched to its end:
// its prefix, its index in the list of subtrees, and its result (the
// first solution below the prefix, if any, and the statistics: with
// DFS.Count, Stats.Solutions is the subtree's count).
type SearchedSubtree struct {
	Index  int
	Prefix []edgematch.Placement
	Result edgematch.Result
}

// prefixKey is a prefix as a map key.
func prefixKey(pre []edgematch.Placement) string {
	b := make([]byte, 0, 4*len(pre))
	for _, pl := range pre {
		b = binary.AppendUvarint(b, uint64(pl.Piece)<<2|uint64(pl.Rot&3))
	}
	return string(b)
}

// autoDepth returns the least depth up to 8 with at least minTasks
// subtrees, and the subtrees.
func autoDepth(ctx context.Context, c *kernel.Compiled, minTasks int) (int, [][]edgematch.Placement, int64, error) {
	for depth := 1; ; depth++ {
		pre, nodes, err := subtrees(ctx, c, depth)
		if err != nil {
			return 0, nil, 0, err
		}
		if len(pre) >= minTasks || depth >= 8 || depth >= c.N-1 {
			return min(depth, max(c.N-1, 0)), pre, nodes, nil
		}
	}
}

// Solve runs the split search. The result is as DFS.Solve's: the solution
// (the first found) and the statistics of all the subtrees (Subtrees: how
// many there are), ErrNoSolution when every subtree is exhausted without
// one, or the context's error or one wrapping ErrBudget when a limit stops
// the search first (with the deepest board seen). An error of a subtree
// other than ErrNoSolution (an executor's failure) stops the search and
// is returned.
func (s Split) Solve(ctx context.Context, p *edgematch.Puzzle) (edgematch.Result, error) {
	start := time.Now()
	if err := p.Validate(); err != nil {
		return edgematch.Result{}, err
	}
	d := s.DFS
	c, err := d.compileDFS(p)
	if err != nil {
		return edgematch.Result{}, err
	}
	workers := s.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	depth := s.Depth
	var prefixes [][]edgematch.Placement
	var splitNodes int64
	if depth <= 0 {
		depth, prefixes, splitNodes, err = autoDepth(ctx, c, 64*workers)
	} else {
		depth = min(depth, max(c.N-1, 0))
		prefixes, splitNodes, err = subtrees(ctx, c, depth)
	}
	if err != nil {
		return edgematch.Result{Stats: edgematch.Stats{Elapsed: time.Since(start)}}, err
	}
	if s.OnSplit != nil {
		s.OnSplit(depth, len(prefixes))
	}
	if c.N == 0 && c.HintsFit {
		// The hints fill the board: nothing to split.
		return d.Solve(ctx, p)
	}
	searched, err := s.matchSearched(prefixes)
	if err != nil {
		return edgematch.Result{Stats: edgematch.Stats{Elapsed: time.Since(start)}}, err
	}
	// run lists the subtrees to search, by index; the executor numbers
	// them 0, 1, ... in this list.
	run := make([]int, 0, len(prefixes)-len(searched))
	runPrefixes := make([][]edgematch.Placement, 0, cap(run))
	for i, pre := range prefixes {
		if _, ok := searched[i]; !ok {
			run = append(run, i)
			runPrefixes = append(runPrefixes, pre)
		}
	}
	exec := s.Exec
	if exec == nil {
		exec = LocalSubtrees{Workers: workers}
	}
	sub := d
	sub.Progress, sub.MaxNodes, sub.Workers = nil, 0, 0

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	sr := &splitRun{s: s, p: p, prefixes: prefixes, start: start, runCtx: runCtx, cancel: cancel,
		doneNodes: splitNodes, live: map[int]int64{}, bestIdx: -1, lastProg: time.Now()}
	for _, i := range slices.Sorted(maps.Keys(searched)) {
		res := searched[i]
		r := SubtreeReport{Index: i, Done: true, Result: res}
		if res.Stats.Solutions == 0 {
			r.Err = edgematch.ErrNoSolution
		}
		sr.record(r, true) // a board that is no solution is an error there
	}
	report := func(r SubtreeReport) {
		if r.Index < 0 || r.Index >= len(run) {
			if sr.firstErr == nil {
				sr.firstErr = fmt.Errorf("edgematch: executor reported subtree %d of %d", r.Index, len(run))
			}
			cancel()
			return
		}
		r.Index = run[r.Index]
		sr.record(r, false)
	}
	var execErr error
	if len(run) > 0 && runCtx.Err() == nil {
		execErr = exec.RunSubtrees(runCtx, p, sub, runPrefixes, report)
	}
	return sr.result(ctx, c, execErr)
}

// splitRun is the state of a Split.Solve while its subtrees report.
type splitRun struct {
	s        Split
	p        *edgematch.Puzzle
	prefixes [][]edgematch.Placement
	start    time.Time
	runCtx   context.Context
	cancel   context.CancelFunc

	doneNodes int64
	live      map[int]int64 // placements so far of the subtrees under way
	finished  int
	solutions int64
	bestIdx   int
	best      *edgematch.Board
	deepest   *edgematch.Board
	deepestAt int
	maxDepth  int
	firstErr  error
	budgetErr error
	lastProg  time.Time
}

// stats returns the statistics so far.
func (sr *splitRun) stats() edgematch.Stats {
	n := sr.doneNodes
	for _, v := range sr.live {
		n += v
	}
	st := edgematch.Stats{Nodes: n, Solutions: sr.solutions, MaxDepth: sr.maxDepth, Subtrees: len(sr.prefixes), Elapsed: time.Since(sr.start)}
	if !sr.s.DFS.Count && sr.best != nil {
		st.Solutions = 1
	}
	return st
}

// record takes a subtree's report, its index in prefixes; resumed: a
// subtree searched by an earlier run.
func (sr *splitRun) record(r SubtreeReport, resumed bool) {
	d := sr.s.DFS
	st := r.Result.Stats
	if !r.Done {
		sr.live[r.Index] = st.Nodes
	} else {
		sr.recordDone(r, resumed)
	}
	if d.MaxNodes > 0 && sr.budgetErr == nil {
		if n := sr.stats().Nodes; n >= d.MaxNodes {
			sr.budgetErr = fmt.Errorf("%w: %d placements (limit %d)", edgematch.ErrBudget, n, d.MaxNodes)
			sr.cancel()
		}
	}
	if d.Progress != nil && time.Since(sr.lastProg) >= time.Second {
		sr.lastProg = time.Now()
		st := sr.stats()
		st.Subtrees = sr.finished
		d.Progress(st)
	}
}

// recordDone takes the report of a subtree searched to its end: checks
// its board, keeps the first solution in scan order (or adds up the
// count) and the deepest board, and cancels the rest when it is done.
func (sr *splitRun) recordDone(r SubtreeReport, resumed bool) {
	s, d, p := sr.s, sr.s.DFS, sr.p
	st := r.Result.Stats
	delete(sr.live, r.Index)
	sr.finished++
	sr.doneNodes += st.Nodes
	sr.maxDepth = max(sr.maxDepth, st.MaxDepth)
	solved := r.Err == nil && r.Result.Board != nil
	if solved && p.Verify(r.Result.Board) != nil || solved && !p.Score(r.Result.Board).Solved() {
		solved = false
		if sr.firstErr == nil {
			sr.firstErr = fmt.Errorf("edgematch: subtree %d returned a board that is not a solution", r.Index)
		}
		sr.cancel()
	}
	if s.OnSearched != nil && (r.Err == nil && solved || errors.Is(r.Err, edgematch.ErrNoSolution)) && !resumed {
		s.OnSearched(SearchedSubtree{Index: r.Index, Prefix: sr.prefixes[r.Index], Result: r.Result})
	}
	switch {
	case solved:
		if s.OnSolution != nil {
			s.OnSolution(r.Index, r.Result.Board)
		}
		if d.Count {
			sr.solutions = satAdd(sr.solutions, st.Solutions)
		}
		if sr.best == nil || r.Index < sr.bestIdx {
			sr.best, sr.bestIdx = r.Result.Board, r.Index
		}
		if !d.Count {
			sr.cancel()
		}
	case r.Err != nil && !errors.Is(r.Err, edgematch.ErrNoSolution) && sr.runCtx.Err() == nil:
		if sr.firstErr == nil {
			sr.firstErr = fmt.Errorf("edgematch: subtree %d: %w", r.Index, r.Err)
		}
		sr.cancel()
	}
	if r.Result.Board != nil && (sr.deepest == nil || st.MaxDepth > sr.deepestAt) {
		sr.deepest, sr.deepestAt = r.Result.Board, st.MaxDepth
	}
}

// result is the Result and error of the whole split search, after the
// executor returned execErr.
func (sr *splitRun) result(ctx context.Context, c *kernel.Compiled, execErr error) (edgematch.Result, error) {
	p, best := sr.p, sr.best
	res := edgematch.Result{Stats: sr.stats()}
	res.Board = best
	if best == nil {
		res.Board = sr.deepest
		if res.Board == nil {
			res.Board = c.Board(nil)
		}
	} else {
		res.Stats.MaxDepth = p.Cells()
	}
	res.Score = p.Score(res.Board)
	res.Stats.Elapsed = time.Since(sr.start)
	switch {
	case sr.firstErr != nil:
		return res, sr.firstErr
	case best != nil && !sr.s.DFS.Count:
		return res, nil
	case ctx.Err() != nil:
		return res, ctx.Err()
	case sr.budgetErr != nil:
		return res, sr.budgetErr
	case execErr != nil:
		return res, fmt.Errorf("edgematch: subtrees: %w", execErr)
	case sr.finished < len(sr.prefixes):
		return res, fmt.Errorf("edgematch: the executor finished %d of %d subtrees", sr.finished, len(sr.prefixes))
	case best == nil:
		return res, edgematch.ErrNoSolution
	}
	return res, nil
}

// matchSearched finds the subtrees of s.Searched in prefixes: their
// results by index. A prefix not in the list, one given twice, or
// solutions without a board are errors.
func (s Split) matchSearched(prefixes [][]edgematch.Placement) (map[int]edgematch.Result, error) {
	if len(s.Searched) == 0 {
		return nil, nil
	}
	index := make(map[string]int, len(prefixes))
	for i, pre := range prefixes {
		index[prefixKey(pre)] = i
	}
	out := make(map[int]edgematch.Result, len(s.Searched))
	for _, ss := range s.Searched {
		i, ok := index[prefixKey(ss.Prefix)]
		switch {
		case !ok:
			return nil, fmt.Errorf("edgematch: searched subtree %d (prefix %v) is not one of the %d subtrees of this split", ss.Index, ss.Prefix, len(prefixes))
		case ss.Result.Stats.Solutions > 0 && ss.Result.Board == nil:
			return nil, fmt.Errorf("edgematch: searched subtree %d has %d solutions but no board", ss.Index, ss.Result.Stats.Solutions)
		}
		if _, dup := out[i]; dup {
			return nil, fmt.Errorf("edgematch: subtree %d searched twice", i)
		}
		out[i] = ss.Result
	}
	return out, nil
}

// satAdd returns a + b for b >= 0, capped at math.MaxInt64.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

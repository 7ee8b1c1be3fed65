package partial

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	"tessera/edgematch"
)

// SeededSearch is a partial search that DistPartial runs as many
// independent searches, one seed each: Breaks (the default partial search
// of the catalogue), Tiles and Partial (the large neighbourhood search).
// Their fields are their parameters; an executor that runs the searches
// elsewhere sends them (package dist does so for these three).
type SeededSearch interface {
	edgematch.Solver
	// Seeded returns the search with this seed and one worker, onBest
	// (which may be nil) as its OnBest, and no Progress.
	Seeded(seed uint64, onBest func(*edgematch.Board, edgematch.Score)) SeededSearch
}

// Seeded implements SeededSearch.
func (o Partial) Seeded(seed uint64, onBest func(*edgematch.Board, edgematch.Score)) SeededSearch {
	o.Seed, o.Workers, o.OnBest, o.Progress = seed, 1, onBest, nil
	return o
}

// Seeded implements SeededSearch.
func (o Breaks) Seeded(seed uint64, onBest func(*edgematch.Board, edgematch.Score)) SeededSearch {
	o.Seed, o.Workers, o.OnBest, o.Progress = seed, 1, onBest, nil
	return o
}

// Seeded implements SeededSearch.
func (t Tiles) Seeded(seed uint64, onBest func(*edgematch.Board, edgematch.Score)) SeededSearch {
	t.Seed, t.Workers, t.OnBest, t.Progress = seed, 1, onBest, nil
	return t
}

// PartialExecutor runs the seeded searches of a DistPartial: in process
// (LocalPartial) or as jobs on other machines.
//
// RunPartial runs one search per seed on p: base.Seeded(seed, ...), one
// worker each. It calls onBest, never concurrently, with the index of the
// search and every new best board of that search (the board is not kept
// after the call), and returns when every search has ended or ctx has
// ended, with the searches' results in the order of seeds (a search that
// did not report has a zero Result) and ctx's error if it ended them.
type PartialExecutor interface {
	RunPartial(ctx context.Context, p *edgematch.Puzzle, base SeededSearch, seeds []uint64, onBest func(i int, b *edgematch.Board)) ([]edgematch.Result, error)
}

// LocalPartial is the in-process PartialExecutor: one goroutine per seed.
type LocalPartial struct{}

// RunPartial implements PartialExecutor.
func (LocalPartial) RunPartial(ctx context.Context, p *edgematch.Puzzle, base SeededSearch, seeds []uint64, onBest func(i int, b *edgematch.Board)) ([]edgematch.Result, error) {
	results := make([]edgematch.Result, len(seeds))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, seed := range seeds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := base.Seeded(seed, func(b *edgematch.Board, _ edgematch.Score) {
				mu.Lock()
				defer mu.Unlock()
				onBest(i, b)
			})
			results[i], _ = s.Solve(ctx, p)
		}()
	}
	wg.Wait()
	return results, ctx.Err()
}

// DistPartial is a partial search run as many independent seeded
// searches, a Solver: Searches searches, each Search with one worker and
// the seed Seed + i for search i, run by an executor (goroutines, or
// workers on other machines); every board a search reports is checked
// (Puzzle.Verify) and rescored here, the best is kept and passed to OnBest
// as it improves, and the search stops at the context's end, at Target
// (every search is then cancelled), or when every search has ended (their
// own budgets: Breaks.MaxNodes, Partial.MaxMoves).
type DistPartial struct {
	// Search is each search's parameters (Start, budgets, Target); its
	// Seed, Workers, OnBest and Progress are replaced.
	Search SeededSearch
	// Seed is the first search's seed.
	Seed uint64
	// Searches is the number of seeded searches (0: GOMAXPROCS).
	Searches int
	// Exec runs them (nil: LocalPartial).
	Exec PartialExecutor
	// Target stops every search when a board of this score is found (0:
	// Puzzle.MaxScore).
	Target int
	// OnBest, when set, is called with the best board of all the searches
	// as it improves (not to be kept after the call); Progress at every
	// new best, at most once a second.
	OnBest   func(*edgematch.Board, edgematch.Score)
	Progress func(PartialProgress)
}

// Solve runs the searches and returns the best board of all, with the
// total moves and placements; the error is the context's when it ends the
// search, nil when the target is reached or every search ended on its
// own, or the executor's.
func (d DistPartial) Solve(ctx context.Context, p *edgematch.Puzzle) (edgematch.Result, error) {
	start := time.Now()
	if err := p.Validate(); err != nil {
		return edgematch.Result{}, err
	}
	n := d.Searches
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	exec := d.Exec
	if exec == nil {
		exec = LocalPartial{}
	}
	target := d.Target
	if target <= 0 {
		target = p.MaxScore()
	}
	seeds := make([]uint64, n)
	for i := range seeds {
		seeds[i] = d.Seed + uint64(i)
	}
	if d.Search == nil {
		return edgematch.Result{}, fmt.Errorf("edgematch: DistPartial without a Search")
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var best *edgematch.Board
	var bestAt time.Duration
	bestScore := edgematch.Score{Matched: -1}
	var bad error
	lastProg := time.Time{}
	onBest := func(i int, b *edgematch.Board) {
		if b == nil || p.Verify(b) != nil {
			if bad == nil {
				bad = fmt.Errorf("edgematch: search %d reported a board that is not a complete placement", i)
			}
			cancel()
			return
		}
		s := p.Score(b)
		if s.Matched <= bestScore.Matched || s.FrameErrors > 0 {
			return
		}
		best, bestScore, bestAt = b.Clone(), s, time.Since(start)
		if d.OnBest != nil {
			d.OnBest(best, s)
		}
		if d.Progress != nil && time.Since(lastProg) >= time.Second {
			lastProg = time.Now()
			d.Progress(PartialProgress{Best: s.Matched, Elapsed: time.Since(start)})
		}
		if s.Matched >= target {
			cancel()
		}
	}
	results, err := exec.RunPartial(runCtx, p, d.Search, seeds, onBest)
	res := edgematch.Result{Board: best}
	for _, r := range results {
		res.Stats.Nodes += r.Stats.Nodes
		res.Stats.Moves += r.Stats.Moves
		res.Stats.Completed += r.Stats.Completed
		res.Stats.Top = addTop(res.Stats.Top, r.Stats.Top)
		if r.Board != nil && p.Verify(r.Board) == nil {
			if s := p.Score(r.Board); s.FrameErrors == 0 && s.Matched > bestScore.Matched {
				// Not reported while the searches ran: found by the end.
				res.Board, bestScore, bestAt = r.Board, s, time.Since(start)
			}
		}
	}
	if res.Board == nil {
		res.Board = edgematch.NewBoard(p.Rows, p.Cols)
	}
	res.Score = p.Score(res.Board)
	res.Stats.MaxDepth = p.Cells() - res.Score.Empty
	res.Stats.Elapsed = time.Since(start)
	res.Stats.BestAt = bestAt
	switch {
	case bad != nil:
		return res, bad
	case res.Score.Matched >= target:
		return res, nil
	case ctx.Err() != nil:
		return res, ctx.Err()
	case err != nil && runCtx.Err() == nil:
		return res, fmt.Errorf("edgematch: partial searches: %w", err)
	}
	return res, nil
}

// addTop adds the counts of b to a, element by element, and returns it
// (as long as the longer of the two).
func addTop(a, b []int64) []int64 {
	if len(a) < len(b) {
		a = append(a, make([]int64, len(b)-len(a))...)
	}
	for d, n := range b {
		a[d] += n
	}
	return a
}

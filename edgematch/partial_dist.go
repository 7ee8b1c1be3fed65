package edgematch

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"
)

// PartialExecutor runs the seeded searches of a DistPartial: in process
// (LocalPartial) or as jobs on other machines.
//
// RunPartial runs one partial search per seed on p: base with that Seed
// and one worker (base.OnBest and base.Progress unset). It calls onBest,
// never concurrently, with the index of the search and every new best
// board of that search (the board is not kept after the call), and returns
// when every search has ended or ctx has ended, with the searches' results
// in the order of seeds (a search that did not report has a zero Result)
// and ctx's error if it ended them.
type PartialExecutor interface {
	RunPartial(ctx context.Context, p *Puzzle, base Partial, seeds []uint64, onBest func(i int, b *Board)) ([]Result, error)
}

// LocalPartial is the in-process PartialExecutor: one goroutine per seed.
type LocalPartial struct{}

// RunPartial implements PartialExecutor.
func (LocalPartial) RunPartial(ctx context.Context, p *Puzzle, base Partial, seeds []uint64, onBest func(i int, b *Board)) ([]Result, error) {
	results := make([]Result, len(seeds))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, seed := range seeds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := base
			s.Seed, s.Workers, s.Progress = seed, 1, nil
			s.OnBest = func(b *Board, _ Score) {
				mu.Lock()
				defer mu.Unlock()
				onBest(i, b)
			}
			results[i], _ = s.Solve(ctx, p)
		}()
	}
	wg.Wait()
	return results, ctx.Err()
}

// DistPartial is the partial search as many independent seeded searches,
// a Solver: Searches searches, each Partial with one worker and its own
// seed (Partial.Seed + i for search i), run by an executor (goroutines,
// or workers on other machines); every board a search reports is checked
// (Puzzle.Verify) and rescored here, the best is kept and passed to
// Partial.OnBest as it improves, and the search stops at the context's end,
// at Partial.Target (every search is then cancelled), or when every search
// has ended (Partial.MaxMoves).
type DistPartial struct {
	// Partial is each search's parameters (Start, DFSNodes, MaxMoves,
	// Target) with the base Seed; its OnBest and Progress receive the best
	// of all the searches (Progress at every new best and about once a
	// second).
	Partial Partial
	// Searches is the number of seeded searches (0: GOMAXPROCS).
	Searches int
	// Exec runs them (nil: LocalPartial).
	Exec PartialExecutor
}

// Solve runs the searches and returns the best board of all, with the
// total moves and placements; the error is the context's when it ends the
// search, nil when the target is reached or every search ended on its
// own, or the executor's.
func (d DistPartial) Solve(ctx context.Context, p *Puzzle) (Result, error) {
	start := time.Now()
	if err := p.Validate(); err != nil {
		return Result{}, err
	}
	n := d.Searches
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	exec := d.Exec
	if exec == nil {
		exec = LocalPartial{}
	}
	target := d.Partial.Target
	if target <= 0 {
		target = p.MaxScore()
	}
	seeds := make([]uint64, n)
	for i := range seeds {
		seeds[i] = d.Partial.Seed + uint64(i)
	}
	base := d.Partial
	base.OnBest, base.Progress = nil, nil
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var best *Board
	bestScore := Score{Matched: -1}
	var bad error
	lastProg := time.Time{}
	onBest := func(i int, b *Board) {
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
		best, bestScore = b.Clone(), s
		if d.Partial.OnBest != nil {
			d.Partial.OnBest(best, s)
		}
		if d.Partial.Progress != nil && time.Since(lastProg) >= time.Second {
			lastProg = time.Now()
			d.Partial.Progress(PartialProgress{Best: s.Matched, Elapsed: time.Since(start)})
		}
		if s.Matched >= target {
			cancel()
		}
	}
	results, err := exec.RunPartial(runCtx, p, base, seeds, onBest)
	res := Result{Board: best}
	for _, r := range results {
		res.Stats.Nodes += r.Stats.Nodes
		res.Stats.Moves += r.Stats.Moves
		if r.Board != nil && p.Verify(r.Board) == nil {
			if s := p.Score(r.Board); s.FrameErrors == 0 && s.Matched > bestScore.Matched {
				res.Board, bestScore = r.Board, s
			}
		}
	}
	if res.Board == nil {
		res.Board = NewBoard(p.Rows, p.Cols)
	}
	res.Score = p.Score(res.Board)
	res.Stats.MaxDepth = p.Cells() - res.Score.Empty
	res.Stats.Elapsed = time.Since(start)
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

package partial

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"tessera/edgematch"
	"tessera/edgematch/internal/kernel"
	"tessera/internal/emtest"
)

func TestBreaksEternity2(t *testing.T) {
	p := emtest.E2(t, 1)
	opts := Breaks{Seed: 5, Workers: 1, MaxNodes: 3_000_000, RestartNodes: 1_000_000, PolishMoves: 200}
	var reported []int
	var lastGain time.Duration // when OnBest last saw a higher score
	t0 := time.Now()
	opts.OnBest = func(b *edgematch.Board, s edgematch.Score) {
		if s != p.Score(b) {
			t.Errorf("OnBest score %v, the board rescores to %v", s, p.Score(b))
		}
		if len(reported) == 0 || s.Matched > reported[len(reported)-1] {
			lastGain = time.Since(t0)
		}
		reported = append(reported, s.Matched)
	}
	a := solveValid(t, opts, p, 400)
	if !slices.IsSorted(reported) || len(reported) == 0 || reported[len(reported)-1] != a.Score.Matched {
		t.Fatalf("best scores reported %v, result %v", reported, a.Score)
	}
	if a.Stats.Nodes < opts.MaxNodes || a.Stats.Nodes > opts.MaxNodes+2*kernel.CheckEvery {
		t.Fatalf("%d placements for a budget of %d", a.Stats.Nodes, opts.MaxNodes)
	}
	// BestAt is when the last higher score came, on the solver's clock
	// (started after t0).
	if a.Stats.BestAt <= 0 || a.Stats.BestAt > lastGain || a.Stats.BestAt > a.Stats.Elapsed {
		t.Fatalf("BestAt %v: the last gain came at %v on the test's clock, Elapsed %v", a.Stats.BestAt, lastGain, a.Stats.Elapsed)
	}
	// The same seed and node budget give the same board; another seed
	// another one.
	opts.OnBest = nil
	b, _ := opts.Solve(context.Background(), p)
	if !slices.Equal(a.Board.Cells, b.Board.Cells) || a.Stats.Nodes != b.Stats.Nodes {
		t.Fatal("the result is not a function of the seed and the node budget")
	}
	opts.Seed = 6
	c, _ := opts.Solve(context.Background(), p)
	if slices.Equal(a.Board.Cells, c.Board.Cells) {
		t.Fatal("seeds 5 and 6 gave the same board")
	}
}

// TestBreaksSchedule checks that the backtracker's boards (before their
// completion) match every edge between two cells filled before the first
// break index.
func TestBreaksSchedule(t *testing.T) {
	p := emtest.E2(t, 1)
	order := BreakOrder(p.Rows, p.Cols)
	fill := make([]int, p.Cells())
	for i, cell := range order {
		fill[cell] = i
	}
	for _, sched := range [][]int{nil, {150, 170, 190, 200, 210}} {
		first := blackwoodSchedule[0]
		if sched != nil {
			first = sched[0]
		}
		checked := 0
		opts := Breaks{Seed: 1, Workers: 1, MaxNodes: 4_000_000, RestartNodes: 2_000_000, PolishMoves: -1, Schedule: sched,
			onBoard: func(b *edgematch.Board, depth int) {
				checked++
				for cell := range p.Cells() {
					r, c := cell/p.Cols, cell%p.Cols
					for _, d := range [2]int{edgematch.East, edgematch.South} {
						nr, nc := r+[4]int{-1, 0, 1, 0}[d], c+[4]int{0, 1, 0, -1}[d]
						if nr >= p.Rows || nc >= p.Cols {
							continue
						}
						nb := nr*p.Cols + nc
						if b.Cells[cell].Piece == edgematch.NoPiece || b.Cells[nb].Piece == edgematch.NoPiece {
							continue
						}
						if fill[cell] < first && fill[nb] < first && p.Edge(b.Cells[cell], d) != p.Edge(b.Cells[nb], (d+2)&3) {
							t.Fatalf("schedule %v: a mismatch between cells %d and %d, filled at %d and %d, before the first break %d",
								sched, cell, nb, fill[cell], fill[nb], first)
						}
					}
				}
			}}
		if _, err := opts.Solve(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		if checked == 0 {
			t.Fatalf("schedule %v: no board", sched)
		}
	}
	if _, err := (Breaks{Schedule: []int{5, 3}}).Solve(context.Background(), p); err == nil {
		t.Fatal("a decreasing schedule was accepted")
	}
}

func TestBreaksResumes(t *testing.T) {
	p := emtest.E2(t, 1)
	// Resuming from a saved board never returns a worse one; from a
	// record board the search keeps it.
	first, err := Breaks{Seed: 2, Workers: 1, MaxNodes: 2_000_000, PolishMoves: 100}.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Breaks{Seed: 2, Workers: 1, MaxNodes: 2_000_000, PolishMoves: 100, Start: first.Board}.Solve(context.Background(), p)
	if err != nil || again.Score.Matched < first.Score.Matched || p.Verify(again.Board) != nil {
		t.Fatalf("%v: resumed from %v, got %v", err, first.Score, again.Score)
	}
	record := emtest.MustBoard(t, "testdata/eternity2_470_blackwood.board", p)
	res, err := Breaks{Seed: 3, Workers: 2, Start: record, MaxNodes: 500_000, PolishMoves: 50}.Solve(context.Background(), p)
	if err != nil || res.Score.Matched < 470 || p.Verify(res.Board) != nil {
		t.Fatalf("%v %v", err, res.Score)
	}
	if res.Score.Matched == 470 && res.Stats.BestAt != 0 {
		t.Fatalf("the start board was kept, but BestAt is %v", res.Stats.BestAt)
	}
	bad := record.Clone()
	bad.Cells[0], bad.Cells[1] = bad.Cells[1], bad.Cells[0]
	if _, err := (Breaks{Start: bad, MaxNodes: 1}).Solve(context.Background(), p); err == nil {
		t.Fatal("a start board with frame errors was accepted")
	}
}

func TestBreaksCancelAndWorkers(t *testing.T) {
	p := emtest.E2(t, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(300 * time.Millisecond)
		cancel()
	}()
	res, err := Breaks{Seed: 1, Workers: 3}.Solve(ctx, p)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want the context's", err)
	}
	if res.Board == nil || p.Check(res.Board) != nil {
		t.Fatalf("no valid board after cancellation: %v", res.Board)
	}
	// A small puzzle with a solution: without the heuristic (which may
	// exclude it) the search finds it and stops.
	q, _, _ := edgematch.Generate(edgematch.GenerateOptions{Rows: 6, Cols: 6, Colours: 6, Seed: 14})
	res, err = Breaks{Seed: 1, Workers: 2, NoHeuristic: true, MaxNodes: 50_000_000}.Solve(context.Background(), q)
	if err != nil || !res.Score.Solved() || q.Verify(res.Board) != nil {
		t.Fatalf("%v %v", err, res.Score)
	}
}

func TestHeuristicColours(t *testing.T) {
	if got := HeuristicColours(emtest.E2(t, 0)); !slices.Equal(got, []edgematch.Colour{10, 13, 16}) {
		t.Fatalf("Eternity II: %v, want Blackwood's 10 13 16", got)
	}
	q, _, _ := edgematch.Generate(edgematch.GenerateOptions{Rows: 8, Cols: 8, Colours: 8, Seed: 1})
	if got := HeuristicColours(q); len(got) != 3 {
		t.Fatalf("generated 8x8: %v", got)
	}
}

// BenchmarkBreaksEternity2 runs the break search on Eternity II with the
// starter piece for 20 million placements on one worker, without
// polishing.
func BenchmarkBreaksEternity2(b *testing.B) {
	p := emtest.E2(b, 1)
	emtest.BenchPlacements(b, func() int64 {
		res, _ := Breaks{Workers: 1, MaxNodes: 20_000_000, PolishMoves: -1}.Solve(context.Background(), p)
		return res.Stats.Nodes
	})
}

func TestTilesEternity2(t *testing.T) {
	p := emtest.E2(t, 1)
	opts := Tiles{Seed: 4, Workers: 1, MaxNodes: 3_000_000, RestartNodes: 1_500_000, PolishMoves: 200, GroupIters: 500}
	a := solveValid(t, opts, p, 380)
	b, _ := opts.Solve(context.Background(), p)
	if !slices.Equal(a.Board.Cells, b.Board.Cells) {
		t.Fatal("the result is not a function of the seed and the node budget")
	}
}

func TestTileGroup(t *testing.T) {
	p := emtest.E2(t, 1)
	tc := newTileCounter(p)
	var inner []int
	for i, tile := range p.Tiles {
		if i != p.Hints[0].Piece && tile[0] != edgematch.Grey && tile[1] != edgematch.Grey && tile[2] != edgematch.Grey && tile[3] != edgematch.Grey {
			inner = append(inner, i)
		}
	}
	if len(inner) != 195 {
		t.Fatalf("%d inner pieces besides the starter, want 195", len(inner))
	}
	// The search raises the tileability of a random group.
	rng := rand.New(rand.NewPCG(1, 2))
	random := tileGroup(p, 60, 0, rng)
	better := tileGroup(p, 60, 2000, rand.New(rand.NewPCG(1, 2)))
	members := func(g []bool) []int {
		var out []int
		for i, in := range g {
			if in {
				out = append(out, i)
			}
		}
		return out
	}
	if len(members(random)) != 60 || len(members(better)) != 60 {
		t.Fatalf("group sizes %d and %d, want 60", len(members(random)), len(members(better)))
	}
	if r, b := tc.count(members(random)), tc.count(members(better)); b <= r {
		t.Fatalf("tileability %g after the search, %g before", b, r)
	}
	// One domino chain by hand: three pieces in a 1x3 strip are not
	// counted, a group of two pieces that cannot stack counts nothing.
	if got := tc.count(inner[:1]); got != 0 {
		t.Fatalf("one piece tiles %g 2x3 patches", got)
	}
}

// TestBreaksRestartBar: by default every restart completes its own
// deepest boards; with CarryBar a restart completes only boards that beat
// the earlier restarts'. The tree walked is the same, so the default
// completes more boards once the restarts stop going deeper than the
// first.
func TestBreaksRestartBar(t *testing.T) {
	p := emtest.E2(t, 1)
	run := func(carry bool) (edgematch.Result, BreaksProgress) {
		var last BreaksProgress
		res, err := Breaks{Seed: 3, Workers: 1, MaxNodes: 6_000_000, RestartNodes: 1_000_000, PolishMoves: -1,
			CarryBar: carry, Progress: func(pr BreaksProgress) { last = pr }}.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		return res, last
	}
	own, ownP := run(false)
	carried, carriedP := run(true)
	if ownP.Nodes != carriedP.Nodes || ownP.Restarts != carriedP.Restarts {
		t.Fatalf("different searches: %d placements, %d restarts against %d, %d", ownP.Nodes, ownP.Restarts, carriedP.Nodes, carriedP.Restarts)
	}
	if ownP.Completed <= carriedP.Completed {
		t.Fatalf("own bars completed %d boards, the carried bar %d: want more", ownP.Completed, carriedP.Completed)
	}
	t.Logf("completed %d (own bars) against %d (carried), scores %d and %d", ownP.Completed, carriedP.Completed,
		p.Score(own.Board).Matched, p.Score(carried.Board).Matched)
}

// TestBreaksTopCounts: Top counts the near boards by score, so it adds up
// to Near, holds the best board, and nothing above it.
func TestBreaksTopCounts(t *testing.T) {
	p, _, _ := edgematch.Generate(edgematch.GenerateOptions{Rows: 10, Cols: 10, Colours: 9, Seed: 3})
	var last BreaksProgress
	res, err := Breaks{Seed: 2, Workers: 1, MaxNodes: 2_000_000, RestartNodes: 200_000, PolishMoves: 200,
		Progress: func(pr BreaksProgress) { last = pr }}.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	best := p.Score(res.Board).Matched
	var sum int64
	for d, n := range last.Top {
		sum += n
		if n > 0 && p.MaxScore()-d > best {
			t.Fatalf("%d boards of %d counted, above the best %d", n, p.MaxScore()-d, best)
		}
	}
	if sum != last.Near || last.Near > last.Completed || last.MaxScore != p.MaxScore() {
		t.Fatalf("top %v adds up to %d, near %d, completed %d, max %d", last.Top, sum, last.Near, last.Completed, last.MaxScore)
	}
	if res.Stats.Completed != last.Completed || !slices.Equal(res.Stats.Top, last.Top[:]) {
		t.Fatalf("result: %d completed, top %v; last progress %d, %v", res.Stats.Completed, res.Stats.Top, last.Completed, last.Top)
	}
	if d := p.MaxScore() - best; d <= NearGap && last.Top[d] == 0 {
		t.Fatalf("the best board (%d) is not counted in %v", best, last.Top)
	}
	t.Logf("best %d, %d completed, top %v", best, last.Completed, last.Top)
}

// solveValid solves p with s and fails unless the board is valid, its
// score the board's own, with no frame error and at least minMatched
// edges matched.
func solveValid(t *testing.T, s edgematch.Solver, p *edgematch.Puzzle, minMatched int) edgematch.Result {
	t.Helper()
	a, err := s.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Verify(a.Board); err != nil {
		t.Fatal(err)
	}
	if a.Score != p.Score(a.Board) || a.Score.FrameErrors != 0 || a.Score.Matched < minMatched {
		t.Fatalf("score %v (rescored %v)", a.Score, p.Score(a.Board))
	}
	return a
}

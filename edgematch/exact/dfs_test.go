package exact

import (
	"context"
	"errors"
	"slices"
	"testing"

	"tessera/edgematch"
	"tessera/edgematch/internal/kernel"
	"tessera/internal/emtest"
)

func TestDFSCountsMatchBruteForce(t *testing.T) {
	for seed := range uint64(8) {
		opts := edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: 3, Cols: 3, Colours: 1, Frame: 2, Seed: seed}
		if seed%2 == 1 {
			opts = edgematch.GenerateOptions{Kind: edgematch.Kovalsky, Rows: 2, Cols: 4, Colours: 2, Rotate: seed%3 == 0, Seed: seed}
		}
		p, _ := emtest.Generate(t, opts)
		want := emtest.BruteCount(p)
		for _, sym := range []bool{false, true} {
			for _, workers := range []int{1, 2} {
				res, err := DFS{Count: true, NoSymmetry: sym, Workers: workers}.Solve(context.Background(), p)
				if err != nil || res.Stats.Solutions != want {
					t.Fatalf("%+v (no symmetry %v, %d workers): %d solutions, %v; brute force %d", opts, sym, workers, res.Stats.Solutions, err, want)
				}
			}
		}
	}
}

func TestDFSSolvesGeneratedPuzzles(t *testing.T) {
	for i, o := range []edgematch.GenerateOptions{
		{Kind: edgematch.Framed, Rows: 5, Cols: 5, Colours: 6, Seed: 1},
		{Kind: edgematch.Framed, Rows: 4, Cols: 6, Colours: 5, Frame: 2, Seed: 2},
		{Kind: edgematch.Kovalsky, Rows: 7, Cols: 7, Colours: 8, Seed: 3},
		{Kind: edgematch.Kovalsky, Rows: 5, Cols: 5, Colours: 6, Rotate: true, Seed: 4},
	} {
		p, _ := emtest.Generate(t, o)
		for _, order := range []edgematch.Order{edgematch.OrderAuto, edgematch.OrderFrameFirst, edgematch.OrderSpiral} {
			res, err := DFS{Order: order}.Solve(context.Background(), p)
			if err != nil {
				t.Fatalf("%d %+v %v: %v", i, o, order, err)
			}
			if err := p.Verify(res.Board); err != nil || !res.Score.Solved() || !p.Score(res.Board).Solved() {
				t.Fatalf("%d %v: board does not verify: %v %v", i, order, err, res.Score)
			}
		}
	}
}

func TestDFSIsDeterministicAcrossWorkers(t *testing.T) {
	p := emtest.MustPuzzle(t, "testdata/06x06.txt")
	var boards []*edgematch.Board
	for _, w := range []int{1, 2, 3} {
		res, err := DFS{Workers: w}.Solve(context.Background(), p)
		if err != nil || !res.Score.Solved() {
			t.Fatal(err, res.Score)
		}
		boards = append(boards, res.Board)
	}
	for _, b := range boards[1:] {
		if !slices.Equal(b.Cells, boards[0].Cells) {
			t.Fatal("the solution depends on the number of workers")
		}
	}
}

func TestDFSHintsBudgetAndNoSolution(t *testing.T) {
	p := emtest.MustPuzzle(t, "testdata/clue1.txt")
	sol := emtest.MustBoard(t, "testdata/clue1.solution.board", p)
	// Hint the centre of the known solution; the found solution keeps it.
	c := sol.At(2, 3)
	p.Hints = []edgematch.Hint{{Piece: c.Piece, Row: 2, Col: 3, Rot: c.Rot}}
	res, err := DFS{}.Solve(context.Background(), p)
	if err != nil || p.Verify(res.Board) != nil || !res.Score.Solved() {
		t.Fatalf("with a hint: %v %v", err, res.Score)
	}
	// A hint that cannot fit: a corner piece turned inwards.
	p.Hints = []edgematch.Hint{{Piece: sol.At(0, 0).Piece, Row: 0, Col: 0, Rot: (sol.At(0, 0).Rot + 1) & 3}}
	if _, err := (DFS{}).Solve(context.Background(), p); !errors.Is(err, edgematch.ErrNoSolution) {
		t.Fatalf("impossible hint: %v", err)
	}
	// A puzzle without a solution: one colour changed.
	q := emtest.MustPuzzle(t, "testdata/06x06.txt")
	q.Tiles[20][0], q.Tiles[20][2] = 99, 98
	if _, err := (DFS{}).Solve(context.Background(), q); !errors.Is(err, edgematch.ErrNoSolution) {
		t.Fatalf("unsolvable: %v", err)
	}
	// The node budget stops the search with the deepest board.
	e := emtest.E2(t, 1)
	res, err = DFS{MaxNodes: 2_000_000, Workers: 2}.Solve(context.Background(), e)
	if !errors.Is(err, edgematch.ErrBudget) || res.Stats.Nodes < 2_000_000 || res.Score.FrameErrors != 0 || res.Score.Empty == 0 {
		t.Fatalf("budget: %v, %v %+v", err, res.Score, res.Stats)
	}
	if res.Score.Matched < 2*res.Stats.MaxDepth-40 || e.Check(res.Board) != nil {
		t.Fatalf("deepest board %v for depth %d", res.Score, res.Stats.MaxDepth)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (DFS{}).Solve(ctx, e); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

func TestTwinsAreCountedOnce(t *testing.T) {
	// clue1 has identical pieces; counting with and without the twin rule
	// must agree on a small sub-puzzle: its 2x3 corner region as a puzzle
	// of its own with the same pieces duplicated.
	p := &edgematch.Puzzle{Rows: 2, Cols: 3, Tiles: []edgematch.Tile{
		{0, 1, 1, 0}, {0, 1, 1, 1}, {0, 0, 1, 1},
		{1, 1, 0, 0}, {1, 1, 0, 1}, {1, 0, 0, 1},
	}}
	want := emtest.BruteCount(p)
	c, _ := kernel.Compile(p, kernel.CompileOptions{})
	res, err := DFS{Count: true, Workers: 1}.Solve(context.Background(), p)
	if err != nil || float64(res.Stats.Solutions) != float64(want) {
		t.Fatalf("%d solutions (twin factor %v), brute force %d: %v", res.Stats.Solutions, c.TwinFactor, want, err)
	}
}

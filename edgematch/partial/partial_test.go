package partial

import (
	"context"
	"slices"
	"testing"

	"tessera/edgematch"
	"tessera/internal/emtest"
)

func TestPartialSmallPuzzles(t *testing.T) {
	p, _ := emtest.Generate(t, edgematch.GenerateOptions{Rows: 8, Cols: 8, Colours: 8, Seed: 1})
	var scores []int
	res, err := Partial{Seed: 1, Workers: 1, DFSNodes: 1000, MaxMoves: 600,
		OnBest: func(b *edgematch.Board, s edgematch.Score) { scores = append(scores, s.Matched) }}.Solve(context.Background(), p)
	if err != nil || p.Verify(res.Board) != nil || res.Score.FrameErrors != 0 || res.Score.Matched < p.MaxScore()-12 {
		t.Fatalf("%v %v", err, res.Score)
	}
	if !slices.IsSorted(scores) || scores[len(scores)-1] != res.Score.Matched {
		t.Fatalf("best scores reported %v, result %v", scores, res.Score)
	}
	// A puzzle the start board already solves stops at once.
	p, _, _ = edgematch.Generate(edgematch.GenerateOptions{Rows: 6, Cols: 6, Colours: 8, Seed: 14})
	res, err = Partial{Seed: 1, DFSNodes: 1_000_000}.Solve(context.Background(), p)
	if err != nil || !res.Score.Solved() {
		t.Fatalf("%v %v", err, res.Score)
	}
}

func TestPartialEternity2(t *testing.T) {
	p := emtest.E2(t, 1)
	opts := Partial{Seed: 7, Workers: 1, DFSNodes: 300_000, MaxMoves: 3000}
	a, err := opts.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Verify(a.Board); err != nil {
		t.Fatal(err)
	}
	if a.Score.FrameErrors != 0 || a.Score.Matched < 420 {
		t.Fatalf("score %v after %d moves", a.Score, opts.MaxMoves)
	}
	if a.Stats.BestAt <= 0 || a.Stats.BestAt > a.Stats.Elapsed {
		t.Fatalf("BestAt %v, Elapsed %v", a.Stats.BestAt, a.Stats.Elapsed)
	}
	// The same seed and budget give the same board.
	b, _ := opts.Solve(context.Background(), p)
	if !slices.Equal(a.Board.Cells, b.Board.Cells) {
		t.Fatal("the result is not a function of the seed")
	}
}

func TestPartialResumes(t *testing.T) {
	p := emtest.E2(t, 1)
	start := emtest.MustBoard(t, "testdata/eternity2_470_blackwood.board", p)
	res, err := Partial{Seed: 3, Workers: 2, Start: start, MaxMoves: 200}.Solve(context.Background(), p)
	if err != nil || res.Score.Matched < 470 || p.Verify(res.Board) != nil {
		t.Fatalf("%v %v", err, res.Score)
	}
	bad := start.Clone()
	bad.Cells[0], bad.Cells[1] = bad.Cells[1], bad.Cells[0]
	if _, err := (Partial{Start: bad, MaxMoves: 1}).Solve(context.Background(), p); err == nil {
		t.Fatal("a start board with frame errors was accepted")
	}
}

package partial

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"tessera/edgematch"
	"tessera/internal/emtest"
)

func TestCompleteBestSolution(t *testing.T) {
	p, sol := emtest.Generate(t, edgematch.GenerateOptions{Rows: 8, Cols: 8, Colours: 8, Seed: 1})
	b := sol.Clone()
	// The top right 3x3 block (corner, border and inner cells) and a cell
	// of the left border.
	for r := range 3 {
		for c := 5; c < 8; c++ {
			b.Set(r, c, edgematch.NoPiece, 0)
		}
	}
	b.Set(4, 0, edgematch.NoPiece, 0)
	done, proven, err := CompleteBest(p, b, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Verify(done); err != nil || !p.Score(done).Solved() || !proven {
		t.Fatalf("%v, %v, proven %v", err, p.Score(done), proven)
	}
	for cell, pl := range b.Cells {
		// (A symmetric piece may come back in an equivalent rotation.)
		if d := done.Cells[cell]; pl.Piece != edgematch.NoPiece && (d.Piece != pl.Piece || p.Tiles[d.Piece].Rotate(d.Rot) != p.Tiles[pl.Piece].Rotate(pl.Rot)) {
			t.Fatalf("cell %d: placed %v became %v", cell, pl, done.Cells[cell])
		}
	}
	if b.Filled() != 64-10 {
		t.Fatal("CompleteBest changed its board")
	}
}

// TestCompleteBestOptimal compares the completion of four empty inner
// cells of a board with mismatches against every arrangement of their
// pieces (4! orders x 4^4 rotations).
func TestCompleteBestOptimal(t *testing.T) {
	p, sol := emtest.Generate(t, edgematch.GenerateOptions{Rows: 5, Cols: 5, Colours: 4, Seed: 7})
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 6 {
		b := sol.Clone()
		// Shuffle the inner pieces and their rotations, then empty four
		// inner cells.
		var inner []int
		for r := 1; r < 4; r++ {
			for c := 1; c < 4; c++ {
				inner = append(inner, r*5+c)
			}
		}
		perm := rng.Perm(len(inner))
		for i, cell := range inner {
			pl := sol.Cells[inner[perm[i]]]
			b.Cells[cell] = edgematch.Placement{Piece: pl.Piece, Rot: rng.IntN(4)}
		}
		empty := inner[:0:0]
		for _, i := range rng.Perm(len(inner))[:4] {
			empty = append(empty, inner[i])
		}
		var pieces []int
		for _, cell := range empty {
			pieces = append(pieces, b.Cells[cell].Piece)
			b.Cells[cell] = edgematch.Placement{Piece: edgematch.NoPiece}
		}
		best := -1
		try := b.Clone()
		for _, order := range permutations(len(pieces)) {
			for rots := range 256 {
				for i, cell := range empty {
					try.Cells[cell] = edgematch.Placement{Piece: pieces[order[i]], Rot: rots >> (2 * i) & 3}
				}
				best = max(best, p.Score(try).Matched)
			}
		}
		done, proven, err := CompleteBest(p, b, 0, 0)
		if err != nil || !proven || p.Verify(done) != nil || p.Score(done).Matched != best {
			t.Fatalf("trial %d: %v, proven %v, score %v, brute force %d", trial, err, proven, p.Score(done), best)
		}
		// Asked for one more than the best: proven that none reaches it.
		done, proven, err = CompleteBest(p, b, 0, best+1)
		if err != nil || !proven || p.Score(done).Matched > best {
			t.Fatalf("trial %d, at least %d: %v, proven %v, score %v", trial, best+1, err, proven, p.Score(done))
		}
		done, _, _ = CompleteBest(p, b, 0, best)
		if p.Score(done).Matched != best {
			t.Fatalf("trial %d, at least %d: score %v", trial, best, p.Score(done))
		}
	}
	// A piece that does not fit the frame where it stands.
	b := sol.Clone()
	b.Cells[0], b.Cells[6] = b.Cells[6], edgematch.Placement{Piece: edgematch.NoPiece}
	if _, _, err := CompleteBest(p, b, 0, 0); err == nil {
		t.Fatal("an inner piece in a corner was completed")
	}
}

func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := range n {
			q := slices.Insert(slices.Clone(p), i, n-1)
			out = append(out, q)
		}
	}
	return out
}

// TestBreaksEmit checks OnComplete: distinct complete boards of EmitAt or
// more, at most EmitMax, and the search unchanged by it.
func TestBreaksEmit(t *testing.T) {
	p, opts, plain := smallBreaks(t)
	best := plain.Score.Matched
	opts.EmitAt = best - 3
	var boards []*edgematch.Board
	seen := map[string]bool{}
	opts.OnComplete = func(b *edgematch.Board, s edgematch.Score) {
		if err := p.Verify(b); err != nil || s != p.Score(b) || s.Matched < opts.EmitAt {
			t.Fatalf("board %d: %v, score %v (rescored %v)", len(boards), err, s, p.Score(b))
		}
		if seen[b.String()] {
			t.Fatalf("board %d given twice", len(boards))
		}
		seen[b.String()] = true
		boards = append(boards, b.Clone())
	}
	res, err := opts.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Board.Cells, plain.Board.Cells) || res.Stats.Nodes != plain.Stats.Nodes || !slices.Equal(res.Stats.Top, plain.Stats.Top) {
		t.Fatal("OnComplete changed the search")
	}
	var counted int64
	for d := range p.MaxScore() - opts.EmitAt + 1 {
		counted += res.Stats.Top[d]
	}
	if len(boards) == 0 || int64(len(boards)) > counted || !seen[res.Board.String()] {
		t.Fatalf("%d boards given, %d counted at %d or more, the best among them: %v", len(boards), counted, opts.EmitAt, seen[res.Board.String()])
	}
	t.Logf("%d distinct boards of %d or more, %d completions counted", len(boards), opts.EmitAt, counted)
	opts.EmitMax = 1
	boards, seen = nil, map[string]bool{}
	if _, err := opts.Solve(context.Background(), p); err != nil || len(boards) != 1 {
		t.Fatalf("EmitMax 1: %d boards, %v", len(boards), err)
	}
}

// TestBreaksExactFill: the exact fill (the default) and NoExactFill place
// the same pieces and complete the same partial boards, every board valid,
// and the default is repeatable per seed. Without the polish each
// completion scores at least what the assignment alone gives it, so the
// exact fill's tail dominates: at every score from the maximum down, as
// many completions or more reach it, and more at some score.
func TestBreaksExactFill(t *testing.T) {
	p, opts, exact := smallBreaks(t)
	opts.OnComplete = func(b *edgematch.Board, s edgematch.Score) {
		if err := p.Verify(b); err != nil || s != p.Score(b) {
			t.Fatalf("%v, score %v (rescored %v)", err, s, p.Score(b))
		}
	}
	again := solveValid(t, opts, p, 0)
	if !slices.Equal(again.Board.Cells, exact.Board.Cells) || again.Stats.Nodes != exact.Stats.Nodes || !slices.Equal(again.Stats.Top, exact.Stats.Top) {
		t.Fatalf("the same seed twice: scores %d and %d, placements %d and %d", exact.Score.Matched, again.Score.Matched, exact.Stats.Nodes, again.Stats.Nodes)
	}
	opts.NoExactFill = true
	plain := solveValid(t, opts, p, 0)
	if exact.Stats.Nodes != plain.Stats.Nodes || exact.Stats.Completed != plain.Stats.Completed {
		t.Fatalf("placements %d and %d, completions %d and %d", plain.Stats.Nodes, exact.Stats.Nodes, plain.Stats.Completed, exact.Stats.Completed)
	}
	t.Logf("best %d without, %d with the exact fill; top %v and %v", plain.Score.Matched, exact.Score.Matched, plain.Stats.Top[:6], exact.Stats.Top[:6])
	opts.PolishMoves = -1
	plain = solveValid(t, opts, p, 0)
	opts.NoExactFill = false
	exact = solveValid(t, opts, p, 0)
	var nPlain, nExact int64
	more := false
	for d := range exact.Stats.Top {
		nPlain += plain.Stats.Top[d]
		nExact += exact.Stats.Top[d]
		if nExact < nPlain {
			t.Fatalf("unpolished, %d completions reach %d with the exact fill, %d without", nExact, p.MaxScore()-d, nPlain)
		}
		more = more || nExact > nPlain
	}
	if !more || exact.Stats.Completed != plain.Stats.Completed {
		t.Fatalf("unpolished: the exact fill changed nothing (top %v and %v, completions %d and %d)", plain.Stats.Top, exact.Stats.Top, plain.Stats.Completed, exact.Stats.Completed)
	}
	t.Logf("unpolished: best %d without, %d with; top %v and %v", plain.Score.Matched, exact.Score.Matched, plain.Stats.Top[:6], exact.Stats.Top[:6])
}

// smallBreaks runs a short break search on a generated 10x10 puzzle and
// returns the puzzle, the options and the result.
func smallBreaks(t *testing.T) (*edgematch.Puzzle, Breaks, edgematch.Result) {
	t.Helper()
	p, _, _ := edgematch.Generate(edgematch.GenerateOptions{Rows: 10, Cols: 10, Colours: 9, Seed: 3})
	opts := Breaks{Seed: 2, Workers: 1, MaxNodes: 2_000_000, RestartNodes: 200_000, PolishMoves: 200}
	res, err := opts.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	return p, opts, res
}

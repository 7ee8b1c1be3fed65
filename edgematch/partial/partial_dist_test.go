package partial

import (
	"context"
	"slices"
	"testing"

	"tessera/edgematch"
	"tessera/internal/emtest"
)

// TestDistPartial: the seeded searches' best is the best of the same
// searches run one by one (a move budget makes each a function of its
// seed), reported as it improves; a solved puzzle stops every search.
func TestDistPartial(t *testing.T) {
	ctx := context.Background()
	p, _ := emtest.Generate(t, edgematch.GenerateOptions{Rows: 8, Cols: 8, Colours: 8, Seed: 1})
	base := Partial{Seed: 5, DFSNodes: 1000, MaxMoves: 300}
	want := -1
	for i := range 3 {
		s := base
		s.Seed, s.Workers = base.Seed+uint64(i), 1
		r, err := s.Solve(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		want = max(want, r.Score.Matched)
	}
	var scores []int
	d := DistPartial{Search: base, Seed: base.Seed, Searches: 3}
	d.OnBest = func(b *edgematch.Board, s edgematch.Score) {
		if p.Score(b) != s || p.Verify(b) != nil {
			t.Errorf("reported %v, board scores %v", s, p.Score(b))
		}
		scores = append(scores, s.Matched)
	}
	res, err := d.Solve(ctx, p)
	if err != nil || res.Score.Matched != want || p.Verify(res.Board) != nil {
		t.Fatalf("%v %v, best of the searches alone %d", err, res.Score, want)
	}
	if len(scores) == 0 || scores[len(scores)-1] != want || len(slices.Compact(slices.Clone(scores))) != len(scores) || !slices.IsSorted(scores) {
		t.Fatalf("reported %v, want strictly increasing to %d", scores, want)
	}
	if res.Stats.Moves < 3*300 {
		t.Fatalf("%d moves for 3 searches of 300", res.Stats.Moves)
	}
	if res.Stats.BestAt <= 0 || res.Stats.BestAt > res.Stats.Elapsed {
		t.Fatalf("BestAt %v, Elapsed %v", res.Stats.BestAt, res.Stats.Elapsed)
	}
	// Solved at once: the target stops the other searches.
	p, _, _ = edgematch.Generate(edgematch.GenerateOptions{Rows: 6, Cols: 6, Colours: 8, Seed: 14})
	res, err = DistPartial{Search: Partial{DFSNodes: 1_000_000}, Seed: 1, Searches: 4}.Solve(ctx, p)
	if err != nil || !res.Score.Solved() {
		t.Fatalf("%v %v", err, res.Score)
	}
}

// TestDistPartialBreaks: the same for the break search (a node budget
// makes each search a function of its seed), and a start board is the
// floor of every search.
func TestDistPartialBreaks(t *testing.T) {
	ctx := context.Background()
	p, _ := emtest.Generate(t, edgematch.GenerateOptions{Rows: 8, Cols: 8, Colours: 9, Seed: 5})
	for _, base := range []SeededSearch{Breaks{MaxNodes: 200_000}, Tiles{MaxNodes: 200_000}} {
		want := -1
		var wantNodes, wantCompleted int64
		var wantTop []int64
		for i := range 3 {
			r, err := base.Seeded(7+uint64(i), nil).Solve(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			want = max(want, r.Score.Matched)
			wantNodes += r.Stats.Nodes
			wantCompleted += r.Stats.Completed
			wantTop = addTop(wantTop, r.Stats.Top)
		}
		var scores []int
		d := DistPartial{Search: base, Seed: 7, Searches: 3, OnBest: func(b *edgematch.Board, s edgematch.Score) { scores = append(scores, s.Matched) }}
		res, err := d.Solve(ctx, p)
		if err != nil || res.Score.Matched != want || p.Verify(res.Board) != nil || res.Stats.Nodes != wantNodes {
			t.Fatalf("%T: %v %v, %d placements; best of the searches alone %d, %d placements", base, err, res.Score, res.Stats.Nodes, want, wantNodes)
		}
		if res.Stats.Completed != wantCompleted || wantCompleted == 0 || !slices.Equal(res.Stats.Top, wantTop) {
			t.Fatalf("%T: %d boards completed, top %v; the searches alone %d, %v", base, res.Stats.Completed, res.Stats.Top, wantCompleted, wantTop)
		}
		if len(scores) == 0 || scores[len(scores)-1] != want || !slices.IsSorted(scores) {
			t.Fatalf("%T: reported %v, want increasing to %d", base, scores, want)
		}
	}
	// A start board better than the searches find stays the result.
	_, sol := emtest.Generate(t, edgematch.GenerateOptions{Rows: 8, Cols: 8, Colours: 9, Seed: 5})
	res, err := DistPartial{Search: Breaks{MaxNodes: 1000, Start: sol}, Seed: 1, Searches: 2}.Solve(ctx, p)
	if err != nil || !res.Score.Solved() {
		t.Fatalf("from the solution: %v %v", err, res.Score)
	}
}

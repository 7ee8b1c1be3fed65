package edgematch

import (
	"context"
	"slices"
	"testing"
)

// TestDistPartial: the seeded searches' best is the best of the same
// searches run one by one (a move budget makes each a function of its
// seed), reported as it improves; a solved puzzle stops every search.
func TestDistPartial(t *testing.T) {
	ctx := context.Background()
	p, _, err := Generate(GenerateOptions{Rows: 8, Cols: 8, Colours: 8, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
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
	d := DistPartial{Partial: base, Searches: 3}
	d.Partial.OnBest = func(b *Board, s Score) {
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
	// Solved at once: the target stops the other searches.
	p, _, _ = Generate(GenerateOptions{Rows: 6, Cols: 6, Colours: 8, Seed: 14})
	res, err = DistPartial{Partial: Partial{Seed: 1, DFSNodes: 1_000_000}, Searches: 4}.Solve(ctx, p)
	if err != nil || !res.Score.Solved() {
		t.Fatalf("%v %v", err, res.Score)
	}
}

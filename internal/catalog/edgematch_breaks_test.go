package catalog

import (
	"context"
	"testing"

	"tessera/edgematch"
)

// TestEdgeMatchBreaksTiles builds partial (the break search) and tiles
// from the table: partial
// solves a small generated puzzle, tiles (whose reserved group may not fit
// the planted solution) comes within two edges of it, and both refuse the
// options of other solvers.
func TestEdgeMatchBreaksTiles(t *testing.T) {
	p, _, err := edgematch.Generate(edgematch.GenerateOptions{Rows: 5, Cols: 5, Colours: 5, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"partial", "tiles"} {
		var lines int
		s, err := EdgeMatch.New(id, EdgeMatchOptions{Workers: 1, Seed: 3, MaxNodes: 20_000_000, Progress: func(string, ...any) { lines++ }})
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		res, err := s.Solve(context.Background(), p)
		if err != nil || p.Verify(res.Board) != nil || res.Score.FrameErrors != 0 ||
			(id == "partial" && !res.Score.Solved()) || res.Score.Matched < res.Score.Max-2 {
			t.Errorf("%s: %v %v", id, err, res.Score)
		}
		if lines == 0 {
			t.Errorf("%s: no progress line", id)
		}
		for _, o := range []EdgeMatchOptions{{Count: true}, {MaxMoves: 5}, {Order: "zigzag"}} {
			if _, err := EdgeMatch.New(id, o); err == nil {
				t.Errorf("%s accepted %+v", id, o)
			}
		}
	}
}

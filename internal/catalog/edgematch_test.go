package catalog

import (
	"context"
	"errors"
	"testing"

	"tessera/edgematch"
	"tessera/lp"
)

// TestEdgeMatchTable builds every edge-matching solver from the table and
// solves a small generated puzzle with it.
func TestEdgeMatchTable(t *testing.T) {
	p, sol, err := edgematch.Generate(edgematch.GenerateOptions{Rows: 4, Cols: 4, Colours: 4, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"dfs", "partial", "lp"} {
		var lines int
		s, err := EdgeMatch.New(id, EdgeMatchOptions{Workers: 1, Order: "spiral", Seed: 3, Progress: func(string, ...any) { lines++ }})
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		res, err := s.Solve(context.Background(), p)
		if err != nil || !res.Score.Solved() || p.Verify(res.Board) != nil {
			t.Errorf("%s: %v %v", id, err, res.Score)
		}
		if (id == "lp") != (res.LP != nil) {
			t.Errorf("%s: LP statistics %v", id, res.LP)
		}
	}
	// Count with dfs, and the options each solver refuses.
	s, err := EdgeMatch.New("dfs", EdgeMatchOptions{Count: true, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := s.Solve(context.Background(), p); err != nil || res.Stats.Solutions < 1 {
		t.Errorf("count: %v %d", err, res.Stats.Solutions)
	}
	for _, c := range []struct {
		id string
		o  EdgeMatchOptions
	}{
		{"partial", EdgeMatchOptions{Count: true}},
		{"lp", EdgeMatchOptions{Count: true}},
		{"dfs", EdgeMatchOptions{Start: sol}},
		{"lp", EdgeMatchOptions{Start: sol}},
		{"dfs", EdgeMatchOptions{Order: "zigzag"}},
		{"partial", EdgeMatchOptions{Order: "zigzag"}},
		{"lp", EdgeMatchOptions{LPBackend: "simplex"}},
	} {
		if _, err := EdgeMatch.New(c.id, c.o); err == nil {
			t.Errorf("%s accepted %+v", c.id, c.o)
		}
	}
	if _, err := lp.Lookup("clp"); errors.Is(err, lp.ErrNotBuilt) {
		if _, err := EdgeMatch.New("lp", EdgeMatchOptions{LPBackend: "clp"}); !errors.Is(err, lp.ErrNotBuilt) {
			t.Errorf("clp without the build tag: %v", err)
		}
	}
}

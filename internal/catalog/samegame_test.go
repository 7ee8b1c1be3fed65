package catalog

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"tessera/samegame"
)

// TestSameGame checks the ids (the -algo names of every command line: once
// published, never renamed or dropped; each unique, in lower case) and that
// every entry builds a solver that clears a dust board legally.
func TestSameGame(t *testing.T) {
	published := []string{"exact", "dfs", "beam", "mcts", "nmcs", "nrpa", "nn", "nn-after", "nn-value", "nn-beam", "nn-mcts", "greedy"}
	ids := SameGame.IDs()
	for _, id := range published {
		if !slices.Contains(ids, id) {
			t.Errorf("solver %q is gone", id)
		}
	}
	for i, id := range ids {
		if id != strings.ToLower(id) || slices.Index(ids, id) != i {
			t.Errorf("id %q: not lower case, or twice", id)
		}
	}
	if ids[0] != "exact" || SameGame.Playing("standard")[0].ID != "nrpa" {
		t.Errorf("the pages' defaults: dust %s, standard %s", ids[0], SameGame.Playing("standard")[0].ID)
	}
	b := samegame.Random(8, 6, 3, samegame.Dust, rand.New(rand.NewPCG(2, 2)))
	opts := SameGameRun{SameGameOptions: SameGameOptions{Width: 50, Iterations: 20, Level: 1, Nodes: 20000, Seed: 1, Views: 2}}
	for _, e := range SameGame {
		s, err := e.New(opts)
		if err != nil {
			t.Fatalf("%s: %v", e.ID, err)
		}
		sol, err := s.Solve(t.Context(), b)
		if err != nil && !errors.Is(err, samegame.ErrBudget) {
			t.Fatalf("%s: %v", e.ID, err)
		}
		res, rerr := samegame.Replay(b, sol.Moves)
		if rerr != nil || !res.Cleared || res.Clicks != sol.Clicks {
			t.Fatalf("%s: %d clicks replay to %+v, %v", e.ID, sol.Clicks, res, rerr)
		}
		if sol.Optimal && !e.Optimal {
			t.Errorf("%s claims a proof, but its entry says it cannot", e.ID)
		}
	}
	if _, err := SameGame.New("nn-after", SameGameRun{SameGameOptions: SameGameOptions{Model: "testdata/none.nn"}}); err == nil {
		t.Error("nn-after with a missing model built")
	}
}

// TestSameGameProgressLines: the Monte-Carlo entries (the web app's Auto
// menu) report their best line with their progress under the standard
// rules, each line replaying to the score it comes with, the last one the
// result.
func TestSameGameProgressLines(t *testing.T) {
	b := samegame.Random(10, 10, 4, samegame.Standard, rand.New(rand.NewPCG(3, 3)))
	for _, id := range []string{"nrpa", "nmcs", "mcts"} {
		var last samegame.Solution
		lines := 0
		opts := SameGameOptions{Iterations: 10, Level: 1, Nodes: 500, Seed: 1}
		s, err := SameGame.New(id, SameGameRun{SameGameOptions: opts, Hooks: SameGameHooks{Progress: func(p samegame.Solution) {
			if p.Moves == nil {
				return
			}
			lines++
			if r, err := samegame.Replay(b, p.Moves); err != nil || r.Score != p.Score {
				t.Fatalf("%s: a line of %d points replays to %d (%v)", id, p.Score, r.Score, err)
			}
			last = p
		}}})
		if err != nil {
			t.Fatal(err)
		}
		sol, err := s.Solve(t.Context(), b)
		if err != nil && !errors.Is(err, samegame.ErrBudget) {
			t.Fatalf("%s: %v", id, err)
		}
		if lines == 0 || last.Score != sol.Score || !slices.Equal(last.Moves, sol.Moves) {
			t.Fatalf("%s: %d lines, the last %d points, the result %d", id, lines, last.Score, sol.Score)
		}
	}
}

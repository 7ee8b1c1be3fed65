package catalog

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"tessera/samegame"
)

// TestSameGame checks the ids (the -algo names of every command line) and
// that every entry builds a solver that clears a dust board legally.
func TestSameGame(t *testing.T) {
	want := []string{"exact", "dfs", "beam", "mcts", "nmcs", "nrpa", "nn", "nn-after", "nn-value", "nn-beam", "nn-mcts"}
	if ids := SameGame.IDs(); !slices.Equal(ids, want) {
		t.Fatalf("ids %v, want %v", ids, want)
	}
	b := samegame.Random(8, 6, 3, samegame.Dust, rand.New(rand.NewPCG(2, 2)))
	opts := SameGameOptions{Width: 50, Iterations: 20, Level: 1, Nodes: 20000, Seed: 1, Views: 2}
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
	if _, err := SameGame.New("nn-after", SameGameOptions{Model: "testdata/none.nn"}); err == nil {
		t.Error("nn-after with a missing model built")
	}
}

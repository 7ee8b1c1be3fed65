package samegame

import (
	"context"
	"slices"
	"testing"
)

// TestMCProgressLines: NRPA, NMCS and SP-MCTS report their best line as it
// improves; every line replays to the score reported with it, the scores
// never fall, the last line is the result, and watching changes nothing.
func TestMCProgressLines(t *testing.T) {
	b := readSet(t, "standard20.txt", Standard)[3].Board // position 4
	solvers := map[string]func(func(Solution)) Solver{
		"nrpa": func(p func(Solution)) Solver {
			return NRPA{Level: 2, Iterations: 10, MC: MC{Seed: 3, Progress: p}}
		},
		"nmcs": func(p func(Solution)) Solver { return NMCS{Level: 1, MC: MC{Seed: 3, MaxPlayouts: 800, Progress: p}} },
		"mcts": func(p func(Solution)) Solver { return MCTS{MC{Seed: 3, MaxPlayouts: 800, Progress: p}} },
	}
	for name, mk := range solvers {
		plain, perr := mk(nil).Solve(context.Background(), b)
		var lines []Solution
		sol, err := mk(func(s Solution) { lines = append(lines, s) }).Solve(context.Background(), b)
		if (err == nil) != (perr == nil) || sol.Score != plain.Score || !slices.Equal(sol.Moves, plain.Moves) || sol.Playouts != plain.Playouts {
			t.Fatalf("%s: watched %d (%v), unwatched %d (%v)", name, sol.Score, err, plain.Score, perr)
		}
		improved := 0
		for i, p := range lines {
			if i > 0 && p.Score < lines[i-1].Score {
				t.Fatalf("%s: progress %d scores %d after %d", name, i, p.Score, lines[i-1].Score)
			}
			if i > 0 && p.Score > lines[i-1].Score {
				improved++
			}
			if p.Moves == nil {
				continue // before the first line
			}
			r, err := Replay(b, p.Moves)
			if err != nil || r.Score != p.Score || p.Clicks != len(p.Moves) {
				t.Fatalf("%s: progress %d: score %d, %d clicks, replayed %d (%v)", name, i, p.Score, p.Clicks, r.Score, err)
			}
		}
		if improved < 2 {
			t.Fatalf("%s: %d improvements in %d reports", name, improved, len(lines))
		}
		if last := lines[len(lines)-1]; last.Score != sol.Score || !slices.Equal(last.Moves, sol.Moves) {
			t.Fatalf("%s: last line %d %v, result %d %v", name, last.Score, last.Moves, sol.Score, sol.Moves)
		}
	}
}

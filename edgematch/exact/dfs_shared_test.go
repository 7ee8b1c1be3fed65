package exact

import (
	"context"
	"testing"

	"tessera/internal/emtest"
)

// TestSharedSmallPuzzlesSolve solves the small Brendan puzzles and clue
// puzzles 1 and 3 exactly (the larger ones are for tessera edgematch bench).
func TestSharedSmallPuzzlesSolve(t *testing.T) {
	files := emtest.SharedFiles(t, "brendan_set1/0[3-6]x0[3-6].txt", "clue_puzzles/clue1.txt", "clue_puzzles/clue3.txt")
	for _, f := range files {
		p := emtest.MustPuzzle(t, f)
		res, err := DFS{}.Solve(context.Background(), p)
		if err != nil || !res.Score.Solved() || p.Verify(res.Board) != nil {
			t.Errorf("%s: %v %v", f, err, res.Score)
		}
	}
}

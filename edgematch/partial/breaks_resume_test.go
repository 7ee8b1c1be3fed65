package partial

import (
	"context"
	"testing"

	"tessera/edgematch"
	"tessera/internal/emtest"
)

// TestBreaksResumeDrawsNewRestarts pins down what resuming the break
// search means: the saved board is the floor of the result, the restarts
// draw new random streams (from the seed and the board), so the resumed
// run's backtracker does not walk the first run's boards again, and the
// same seed, board and node budget give the same result again.
func TestBreaksResumeDrawsNewRestarts(t *testing.T) {
	ctx := context.Background()
	p, _ := emtest.Generate(t, edgematch.GenerateOptions{Rows: 8, Cols: 8, Colours: 9, Seed: 5})
	run := func(start *edgematch.Board) (edgematch.Result, []string) {
		var boards []string
		o := Breaks{Seed: 2, Workers: 1, MaxNodes: 300_000, RestartNodes: 100_000, Start: start,
			onBoard: func(b *edgematch.Board, _ int) { boards = append(boards, b.String()) }}
		res, err := o.Solve(ctx, p)
		if err != nil || p.Verify(res.Board) != nil {
			t.Fatalf("%v %v", err, res.Score)
		}
		return res, boards
	}
	first, fresh := run(nil)
	again, resumed := run(first.Board)
	if again.Score.Matched < first.Score.Matched {
		t.Fatalf("resumed from %v, got %v", first.Score, again.Score)
	}
	if len(fresh) == 0 || len(resumed) == 0 || fresh[0] == resumed[0] {
		t.Fatalf("the resumed run's backtracker repeats the first run's first board (%d and %d boards)", len(fresh), len(resumed))
	}
	third, repeated := run(first.Board)
	if third.Board.String() != again.Board.String() || len(repeated) != len(resumed) || repeated[0] != resumed[0] {
		t.Fatalf("resuming twice from the same board gave %v and %v", again.Score, third.Score)
	}
	t.Logf("first %v (%d boards), resumed %v (%d boards)", first.Score, len(fresh), again.Score, len(resumed))
}

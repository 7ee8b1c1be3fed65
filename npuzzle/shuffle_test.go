package npuzzle

import (
	"context"
	"testing"
)

// TestShuffle checks that a seed gives one board, the walk's or the
// uniform draw's of ShuffleRNG, and that both are solvable.
func TestShuffle(t *testing.T) {
	s := Size{Rows: 4, Cols: 4}
	for _, uniform := range []bool{false, true} {
		a, err := Shuffle(context.Background(), s, BlankFirst, uniform, WalkLength(s), 7)
		if err != nil {
			t.Fatal(err)
		}
		want := RandomWalk(s, BlankFirst, WalkLength(s), ShuffleRNG(7))
		if uniform {
			want = Random(s, BlankFirst, ShuffleRNG(7))
		}
		if a.Line() != want.Line() || !Solvable(a, BlankFirst) {
			t.Errorf("uniform %v: got %s, want %s (solvable)", uniform, a.Line(), want.Line())
		}
		if b, _ := Shuffle(context.Background(), s, BlankFirst, uniform, WalkLength(s), 8); b.Line() == a.Line() {
			t.Errorf("uniform %v: seeds 7 and 8 give the same board %s", uniform, a.Line())
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Shuffle(ctx, s, BlankLast, false, 10, 1); err == nil {
		t.Error("a walk under an ended context: no error")
	}
}

package tangram

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestConvexThirteen: of the convex grid polygons of area 8, the exact
// solver tiles exactly 13 with the seven tans, Wang and Hsiung's count.
func TestConvexThirteen(t *testing.T) {
	cands := ConvexCandidates(6)
	solved := 0
	for _, pg := range cands {
		p := &Puzzle{Name: "convex", Turns: TurnsFlip, Pieces: Tans(), Silhouette: pg}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_, err := Exact{}.Solve(ctx, p)
		cancel()
		switch {
		case err == nil:
			solved++
		case !errors.Is(err, ErrUnsolvable):
			t.Fatalf("%v: %v", pg, err)
		}
	}
	t.Logf("%d candidates, %d solved", len(cands), solved)
	if solved != 13 {
		t.Errorf("%d convex figures solve, want 13", solved)
	}
}

package catalog

import (
	"strings"
	"testing"
	"time"

	"tessera/edgematch"
	"tessera/edgematch/partial"
	"tessera/internal/emtest"
)

// TestEdgeMatchBreaksTiles builds partial (the break search) and tiles
// from the table: partial
// solves a small generated puzzle, tiles (whose reserved group may not fit
// the planted solution) comes within two edges of it, and both refuse the
// options of other solvers.
func TestEdgeMatchBreaksTiles(t *testing.T) {
	p, _ := emtest.Generate(t, edgematch.GenerateOptions{Rows: 5, Cols: 5, Colours: 5, Seed: 2})
	for _, id := range []string{"partial", "tiles"} {
		res, lines, err := solveWithProgress(t, id, EdgeMatchOptions{Workers: 1, Seed: 3, MaxNodes: 20_000_000}, p)
		if err != nil || p.Verify(res.Board) != nil || res.Score.FrameErrors != 0 ||
			(id == "partial" && !res.Score.Solved()) || res.Score.Matched < res.Score.Max-2 {
			t.Errorf("%s: %v %v", id, err, res.Score)
		}
		if lines == 0 {
			t.Errorf("%s: no progress line", id)
		}
		for _, flag := range []string{"count", "max-moves", "split"} {
			if err := emApplies(id, flag); err == nil {
				t.Errorf("-%s applies to %s", flag, id)
			}
		}
		if _, err := EdgeMatch.New(id, EdgeMatchRun{EdgeMatchOptions: EdgeMatchOptions{Order: "zigzag"}}); err == nil {
			t.Errorf("%s accepted -order zigzag", id)
		}
	}
}

// TestBreaksLine: the progress line lists the near boards by score, best
// first, and leaves the list out while there are none.
func TestBreaksLine(t *testing.T) {
	pp := partial.BreaksProgress{Best: 465, Nodes: 2_000_000, MaxDepth: 249, Restarts: 3, Completed: 40, Near: 6,
		MaxScore: 480, Elapsed: 2 * time.Second}
	pp.Top[15], pp.Top[16], pp.Top[20] = 1, 2, 3
	want := "best 465, 2000000 placements (1.0 M/s), depth 249, 3 restarts, 40 boards completed, 6 within 20 of the maximum (465x1 464x2 460x3), 2 s"
	if got := breaksLine(pp); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	pp.Near, pp.Top = 0, [partial.NearGap + 1]int64{}
	if got := breaksLine(pp); !strings.HasSuffix(got, "0 within 20 of the maximum, 2 s") {
		t.Fatalf("no near boards, yet %q", got)
	}
}

package exact

import (
	"context"
	"testing"

	"tessera/edgematch"
	"tessera/internal/emtest"
)

// TestSolveDFSEveryScan solves and counts a generated puzzle in every scan:
// the count does not depend on the scan, and each first solution verifies.
func TestSolveDFSEveryScan(t *testing.T) {
	p, _ := emtest.Generate(t, edgematch.GenerateOptions{Kind: edgematch.Kovalsky, Rows: 3, Cols: 4, Colours: 4, Rotate: true, Seed: 3})
	want, err := DFS{Count: true}.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d solutions", want.Stats.Solutions)
	for _, s := range edgematch.Scans() {
		res, err := DFS{Scan: s, Count: true, Workers: 2}.Solve(context.Background(), p)
		if err != nil {
			t.Fatalf("%v: %v", s, err)
		}
		if res.Stats.Solutions != want.Stats.Solutions {
			t.Errorf("%v: %d solutions, rows from the top left: %d", s, res.Stats.Solutions, want.Stats.Solutions)
		}
		if err := p.Verify(res.Board); err != nil || !res.Score.Solved() {
			t.Errorf("%v: board %v does not solve the puzzle: %v", s, res.Score, err)
		}
		est, err := EstimateScan(context.Background(), p, s, 2000, 1)
		if err != nil || est.Nodes <= 0 {
			t.Errorf("%v: estimate %v, %v", s, est.Nodes, err)
		}
	}
	a, err := EstimateScan(context.Background(), p, edgematch.Scan{Order: edgematch.OrderSpiral}, 500, 3)
	if err != nil {
		t.Fatal(err)
	}
	b, err := EstimateTree(context.Background(), p, edgematch.OrderSpiral, 500, 3)
	if err != nil || a.Nodes != b.Nodes {
		t.Errorf("EstimateScan %v != EstimateTree %v for the same order (%v)", a.Nodes, b.Nodes, err)
	}
}

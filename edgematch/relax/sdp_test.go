package relax

import (
	"context"
	"testing"

	"tessera/edgematch"
	"tessera/internal/emtest"
)

// TestSDPSmall: Algorithm 2 (no preset locations) solves small Kovalsky
// puzzles with fixed orientation.
func TestSDPSmall(t *testing.T) {
	solved := 0
	for seed := uint64(1); seed <= 3; seed++ {
		p, _ := emtest.Generate(t, edgematch.GenerateOptions{Kind: edgematch.Kovalsky, Rows: 3, Cols: 3, Colours: 4, Seed: seed})
		res, st, err := SDP{}.SolveSDP(context.Background(), p)
		t.Logf("seed %d: %v, %d SDPs, %d restarts, objective %.2g, %d constraints, %v", seed, res.Score, st.Iterations, st.Restarts, st.Objective, st.Constraints, err)
		if err == nil && res.Score.Solved() && p.Verify(res.Board) == nil {
			solved++
		}
	}
	if solved == 0 {
		t.Error("no 3x3 puzzle solved")
	}
	// Rotations are refused; a budget of one SDP on a 4x4 with few colours
	// ends with ErrBudget unless that SDP solves it.
	p, _, _ := edgematch.Generate(edgematch.GenerateOptions{Kind: edgematch.Kovalsky, Rows: 3, Cols: 3, Colours: 4, Seed: 1, Rotate: true})
	if _, err := (SDP{}).Solve(context.Background(), p); err == nil {
		t.Error("rotated puzzle accepted")
	}
}

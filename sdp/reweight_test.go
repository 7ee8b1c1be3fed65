package sdp

import (
	"context"
	"errors"
	"testing"
)

// TestReweightingRankOneRestart: a moment SDP whose equations pin the one
// point (x, y) = (0.5, -0.25) (x = 0.5, y = -0.25, x² = 0.25, xy = -0.125,
// y² = 0.0625: every moment of degree 2K = 2) is rank one from the first
// SDP. A visitor that never accepts makes Run end with ErrRankOne; with
// RankOneRestart it restarts there (Restart called after each SDP) until
// MaxIter.
func TestReweightingRankOneRestart(t *testing.T) {
	build := func() *MomentSDP {
		m := NewMomentSDP(1, 1)
		nm := len(m.Mons)
		want := []float64{0.5, -0.25, 0.25, -0.125, 0.0625} // x, y, x², xy, y²
		var rows [][]float64
		var rhs []float64
		for k := 1; k < nm; k++ {
			row := make([]float64, nm-1)
			row[k-1] = 1
			rows, rhs = append(rows, row), append(rhs, want[k-1])
		}
		m.Build(rows, rhs, func(int, [2]int) float64 { return 4 })
		return m
	}
	reject := func(Iterate) (bool, error) { return false, nil }
	err := Reweighting{Stall: -1}.Run(context.Background(), build(), reject)
	if !errors.Is(err, ErrRankOne) {
		t.Fatalf("plain: %v, want ErrRankOne", err)
	}
	restarts, sdps := 0, 0
	err = Reweighting{MaxIter: 4, RankOneRestart: true, Restart: func() [][]float64 {
		restarts++
		return [][]float64{build().Projector([2]float64{0, 0})}
	}}.Run(context.Background(), build(), func(it Iterate) (bool, error) {
		sdps++
		if it.Objective > 1e-6 {
			t.Errorf("SDP %d: objective %g, want rank one", it.Iteration, it.Objective)
		}
		return false, nil
	})
	if !errors.Is(err, ErrMaxIter) || sdps != 4 || restarts != 4 {
		t.Fatalf("RankOneRestart: %v after %d SDPs and %d restarts, want ErrMaxIter after 4 and 4", err, sdps, restarts)
	}
}

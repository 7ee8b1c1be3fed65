package relax

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"tessera/edgematch"
	"tessera/internal/emtest"
)

// TestSDPCompare (run with TESSERA_SDP_COMPARE=1) compares Algorithm 2
// (SDP, no preset locations) with Algorithm 1 (LP over preset locations,
// the LP iteration alone) on Kovalsky puzzles with fixed orientation; the
// table of docs/results/tangram.md.
func TestSDPCompare(t *testing.T) {
	if os.Getenv("TESSERA_SDP_COMPARE") == "" {
		t.Skip("set TESSERA_SDP_COMPARE=1")
	}
	const n = 10
	for _, c := range []struct{ size, colours int }{{3, 3}, {3, 6}, {4, 4}, {4, 8}, {5, 6}, {6, 4}, {6, 8}, {8, 8}} {
		var s2, s1, it2, it1 int
		var d2, d1 time.Duration
		for seed := uint64(1); seed <= n; seed++ {
			p, _ := emtest.Generate(t, edgematch.GenerateOptions{Kind: edgematch.Kovalsky, Rows: c.size, Cols: c.size, Colours: c.colours, Seed: seed})
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			res, st, err := SDP{Seed: seed}.SolveSDP(ctx, p)
			cancel()
			if err == nil && p.Verify(res.Board) == nil {
				s2++
			}
			it2 += st.Iterations
			d2 += res.Stats.Elapsed
			t0 := time.Now()
			ctx, cancel = context.WithTimeout(context.Background(), time.Minute)
			r1, err := LP{NoSearch: true}.Solve(ctx, p)
			cancel()
			d1 += time.Since(t0)
			if err == nil && r1.Score.Solved() {
				s1++
			}
			if r1.LP != nil {
				it1 += r1.LP.Iterations
			}
		}
		fmt.Printf("| %dx%d | %d | %d / %d | %.1f | %.2f | %d / %d | %.1f | %.2f |\n", c.size, c.size, c.colours,
			s2, n, float64(it2)/n, d2.Seconds()/n, s1, n, float64(it1)/n, d1.Seconds()/n)
	}
}

package exact

import (
	"context"
	"math"
	"testing"

	"tessera/edgematch"
	"tessera/internal/emtest"
)

// TestEstimateTreeMatchesCount compares Knuth's estimate with the exact
// size of the tree, the placements of an exhaustive count.
func TestEstimateTreeMatchesCount(t *testing.T) {
	for _, o := range []edgematch.GenerateOptions{
		{Kind: edgematch.Framed, Rows: 4, Cols: 4, Colours: 3, Frame: 2, Seed: 1},
		{Kind: edgematch.Framed, Rows: 4, Cols: 5, Colours: 3, Frame: 2, Seed: 2},
		{Kind: edgematch.Kovalsky, Rows: 3, Cols: 4, Colours: 3, Rotate: true, Seed: 3},
	} {
		p, _ := emtest.Generate(t, o)
		for _, order := range []edgematch.Order{edgematch.OrderRows, edgematch.OrderSpiral} {
			exact, err := DFS{Order: order, Count: true, Workers: 1}.Solve(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			est, err := EstimateTree(context.Background(), p, order, 20000, 1)
			if err != nil {
				t.Fatal(err)
			}
			want := float64(exact.Stats.Nodes)
			t.Logf("%dx%d %v: %d nodes, estimate %.0f ± %.0f, %d of %d probes complete",
				o.Rows, o.Cols, order, exact.Stats.Nodes, est.Nodes, est.StdErr, est.Complete, est.Probes)
			if math.Abs(est.Nodes-want) > 4*est.StdErr+0.02*want {
				t.Errorf("%+v %v: estimate %.0f ± %.0f, exact %d", o, order, est.Nodes, est.StdErr, exact.Stats.Nodes)
			}
			sum := 0.0
			for _, v := range est.Levels {
				sum += v
			}
			if math.Abs(sum-est.Nodes) > 1e-9*est.Nodes {
				t.Errorf("levels sum to %v, nodes %v", sum, est.Nodes)
			}
		}
	}
}

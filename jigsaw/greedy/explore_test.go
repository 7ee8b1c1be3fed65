package greedy

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"

	"tessera/internal/datadir"
	"tessera/jigsaw"
)

func TestExploreStray(t *testing.T) {
	if os.Getenv("JH_EXPLORE") == "" {
		t.Skip()
	}
	dir, _ := datadir.Path("jigsaw", "mit432")
	type feat struct{ bb, minD, sumD, mean float64 }
	var strays, trues []feat
	for i := 1; i <= 20; i++ {
		pz, truth, g := holesCase(t, dir, i, 0.1, 22)
		c, _ := jigsaw.NewCompat(context.Background(), pz, jigsaw.CompatOptions{})
		res, _ := Solver{Accept: 0.05}.Solve(context.Background(), &jigsaw.Problem{Puzzle: pz, Compat: c, Holes: true, Rows: g.Rows, Cols: g.Cols})
		placed := map[int]bool{}
		for _, q := range res.Placement.Pieces {
			placed[q.Piece] = true
		}
		n := len(pz.Pieces)
		var d1 []float64
		for k := range n {
			for a := range jigsaw.Side(4) {
				d1 = append(d1, float64(c.Candidates(k, a)[0].D))
			}
		}
		slices.Sort(d1)
		med := d1[len(d1)/2]
		for k := range n {
			if placed[k] {
				continue
			}
			var f feat
			f.minD = 1e9
			var ds []float64
			for a := range jigsaw.Side(4) {
				if _, ok := c.BestBuddy(k, a); ok {
					f.bb++
				}
				d := float64(c.Candidates(k, a)[0].D) / med
				ds = append(ds, d)
			}
			slices.Sort(ds)
			f.minD, f.sumD = ds[0], ds[1]
			if truth.IsStray(k) {
				strays = append(strays, f)
			} else {
				trues = append(trues, f)
			}
		}
	}
	hist := func(name string, fs []feat) {
		var bb [5]int
		var m1, m2 []float64
		for _, f := range fs {
			bb[int(f.bb)]++
			if f.bb == 0 {
				m1 = append(m1, f.minD)
				m2 = append(m2, f.sumD)
			}
		}
		slices.Sort(m1)
		slices.Sort(m2)
		q := func(s []float64, x float64) float64 {
			if len(s) == 0 {
				return 0
			}
			return s[int(x*float64(len(s)-1))]
		}
		fmt.Printf("%s n=%d bb hist %v; bb0: minD q05 %.2f q25 %.2f q50 %.2f q75 %.2f q95 %.2f; 2nd q05 %.2f q25 %.2f q50 %.2f q75 %.2f\n", name, len(fs), bb, q(m1, .05), q(m1, .25), q(m1, .5), q(m1, .75), q(m1, .95), q(m2, .05), q(m2, .25), q(m2, .5), q(m2, .75))
	}
	hist("strays", strays)
	hist("trues", trues)
}

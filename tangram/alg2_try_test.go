package tangram

import (
	"context"
	"os"
	"testing"
)

func TestAlg2Try(t *testing.T) {
	if os.Getenv("ALG2TRY") == "" {
		t.Skip()
	}
	for _, basis := range []Basis{BasisExp, BasisPoly} {
		for _, name := range ClassicNames() {
			p, _, _ := Classic(name)
			res, err := SDP{Basis: basis, MaxIter: 30}.Solve(context.Background(), p)
			objs := []float64{}
			for _, it := range res.SDP.Iterates {
				objs = append(objs, it.Objective)
			}
			t.Logf("%v %s: solved %v it %d cons %d %.2fs err %v objs %.2g", basis, name, res.Solved, res.SDP.Iterations, res.SDP.Constraints, res.Elapsed.Seconds(), err, objs)
		}
	}
}

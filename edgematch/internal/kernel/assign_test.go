package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestAssign(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 7; n++ {
		cost := make([]float64, n*n)
		for i := range cost {
			cost[i] = float64(rng.IntN(50))
		}
		perm := Assign(n, cost)
		got := 0.0
		seen := make([]bool, n)
		for i, j := range perm {
			got += cost[i*n+j]
			if seen[j] {
				t.Fatalf("n=%d: not a permutation %v", n, perm)
			}
			seen[j] = true
		}
		best := math.Inf(1)
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		var rec func(k int, acc float64)
		rec = func(k int, acc float64) {
			if k == n {
				best = min(best, acc)
				return
			}
			for i := k; i < n; i++ {
				idx[k], idx[i] = idx[i], idx[k]
				rec(k+1, acc+cost[k*n+idx[k]])
				idx[k], idx[i] = idx[i], idx[k]
			}
		}
		rec(0, 0)
		if got != best {
			t.Fatalf("n=%d: cost %v, optimum %v", n, got, best)
		}
	}
}

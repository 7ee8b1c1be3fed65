package sdp

import (
	"context"
	"testing"
	"time"
)

// benchProblem is the size Algorithm 2 of the tangram family needs: 30
// blocks of size 20 (and an LP block of 40), 300 constraints touching
// about two blocks each, sparse.
func benchProblem() *Problem {
	blocks := []Block{{Size: 40, Diagonal: true}}
	for range 30 {
		blocks = append(blocks, Block{Size: 20})
	}
	return randomFeasible(42, blocks, 300, 0.05, 2.0/31, false)
}

func benchSolver(b *testing.B, s Solver) {
	p := benchProblem()
	ctx := context.Background()
	iters := 0
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		sol, err := s.Solve(ctx, p)
		if err != nil {
			b.Fatal(err)
		}
		iters += sol.Iterations
	}
	b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(iters), "ns/iter")
	b.ReportMetric(float64(iters)/float64(b.N), "iters/op")
}

// BenchmarkIPM solves benchProblem with the pure-Go solver.
func BenchmarkIPM(b *testing.B) { benchSolver(b, IPM{}) }

package sdp

import (
	"context"
	"math/rand/v2"
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

func benchSolver(b *testing.B, s Solver) { benchSolverOn(b, s, benchProblem()) }

func benchSolverOn(b *testing.B, s Solver, p *Problem) {
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

// localProblem has the structure of Algorithm 2's SDP: 30 blocks of 10,
// each with 20 constraints of its own (like the Hankel structure of a
// moment matrix), and 20 constraints over all blocks (like sums of
// moments); 620 constraints, strictly feasible and bounded.
func localProblem() *Problem {
	var blocks []Block
	for range 30 {
		blocks = append(blocks, Block{Size: 10})
	}
	return randomFeasibleWith(43, blocks, 620, 0.1, false, func(rng *rand.Rand, ci, k int) bool {
		if ci >= 600 {
			return rng.Float64() < 0.3 // global
		}
		return k == ci/20
	})
}

// BenchmarkIPMLocal solves localProblem with the pure-Go solver.
func BenchmarkIPMLocal(b *testing.B) { benchSolverOn(b, IPM{}, localProblem()) }

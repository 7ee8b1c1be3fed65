package neural

import (
	"context"
	"testing"
)

// BenchmarkSolve times one MCTS attempt (100 simulations per patch) on a
// 3x3 puzzle with the shipped model, pair table included.
func BenchmarkSolve(b *testing.B) {
	m, _, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	pz := Centre(loadTestImage(b, "kodak23.png"), Geometry{}, 1)
	var evals int64
	for b.Loop() {
		res, err := Solve(context.Background(), m, pz, Options{})
		if err != nil {
			b.Fatal(err)
		}
		evals += res.Evaluations
	}
	b.ReportMetric(float64(evals)/b.Elapsed().Seconds(), "evals/s")
}

// BenchmarkTable times the pair network on the 144 ordered pairs of a 3x3
// puzzle.
func BenchmarkTable(b *testing.B) {
	m, _, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	pz := Centre(loadTestImage(b, "kodak23.png"), Geometry{}, 1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Table(pz); err != nil {
			b.Fatal(err)
		}
	}
}

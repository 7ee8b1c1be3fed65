package edgematch

import (
	"context"
	"testing"
)

// BenchmarkDFSBrendan7x7 solves Brendan Owen's 7x7 on one worker.
func BenchmarkDFSBrendan7x7(b *testing.B) {
	p := mustPuzzle(b, "testdata/07x07.txt")
	b.ReportAllocs()
	var nodes int64
	for b.Loop() {
		res, err := SolveDFS(context.Background(), p, DFSOptions{Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		nodes += res.Stats.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "placements/s")
}

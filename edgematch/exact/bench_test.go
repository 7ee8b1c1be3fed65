package exact

import (
	"context"
	"testing"

	"tessera/internal/emtest"
)

// BenchmarkDFSBrendan7x7 solves Brendan Owen's 7x7 on one worker.
func BenchmarkDFSBrendan7x7(b *testing.B) {
	p := emtest.MustPuzzle(b, "testdata/07x07.txt")
	emtest.BenchPlacements(b, func() int64 {
		res, err := DFS{Workers: 1}.Solve(context.Background(), p)
		if err != nil {
			b.Fatal(err)
		}
		return res.Stats.Nodes
	})
}

// BenchmarkDFSEternity2 runs the exact backtracker on Eternity II with the
// starter piece for 20 million placements on one worker.
func BenchmarkDFSEternity2(b *testing.B) {
	p := emtest.E2(b, 1)
	emtest.BenchPlacements(b, func() int64 {
		res, _ := DFS{Workers: 1, MaxNodes: 20_000_000}.Solve(context.Background(), p)
		return res.Stats.Nodes
	})
}

package exact

import (
	"context"
	"testing"

	"tessera/internal/emtest"
)

// BenchmarkDFSBrendan7x7 solves Brendan Owen's 7x7 on one worker.
func BenchmarkDFSBrendan7x7(b *testing.B) {
	p := emtest.MustPuzzle(b, "testdata/07x07.txt")
	b.ReportAllocs()
	var nodes int64
	cpu0 := emtest.ProcessCPU()
	for b.Loop() {
		res, err := DFS{Workers: 1}.Solve(context.Background(), p)
		if err != nil {
			b.Fatal(err)
		}
		nodes += res.Stats.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "placements/s")
	if cpu := emtest.ProcessCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(nodes)/cpu.Seconds(), "placements/cpu-s")
	}
}

// BenchmarkDFSEternity2 runs the exact backtracker on Eternity II with the
// starter piece for 20 million placements on one worker.
func BenchmarkDFSEternity2(b *testing.B) {
	p := emtest.E2(b, 1)
	b.ReportAllocs()
	var nodes int64
	cpu0 := emtest.ProcessCPU()
	for b.Loop() {
		res, _ := DFS{Workers: 1, MaxNodes: 20_000_000}.Solve(context.Background(), p)
		nodes += res.Stats.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "placements/s")
	if cpu := emtest.ProcessCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(nodes)/cpu.Seconds(), "placements/cpu-s")
	}
}

package npuzzle

import (
	"testing"
)

// rotateToBlankLast maps a blank-first board to the blank-last one of the
// same distance, as in the data's *-blank-last files: the board rotated by
// 180 degrees with tile t renamed n-t.
func rotateToBlankLast(b *Board) *Board {
	n := b.Len()
	tiles := make([]int, n)
	for c, t := range b.Tiles() {
		if t != 0 {
			tiles[n-1-c] = n - t
		}
	}
	out, err := FromTiles(b.Size(), tiles)
	if err != nil {
		panic(err)
	}
	return out
}

// BenchmarkIDAStarManhattan measures IDA* with Manhattan distance, the
// specialised solver and the generic one, in generated nodes per second on
// Korf's instances 2, 5 and 9 (15.3M, 11.0M and 1.65M nodes); the
// specialised solver allocates per solve (the path), never per node.
func BenchmarkIDAStarManhattan(b *testing.B) {
	boards, _, _ := korf(b)
	for _, generic := range []bool{false, true} {
		name := "specialised"
		if generic {
			name = "generic"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var nodes int64
			for b.Loop() {
				for _, i := range []int{1, 4, 8} {
					sol, err := Solve(b.Context(), boards[i], Options{Algorithm: IDAStar, Heuristic: Manhattan, Goal: BlankFirst, Generic: generic})
					if err != nil {
						b.Fatal(err)
					}
					nodes += sol.Stats.Generated
				}
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
		})
	}
}

// BenchmarkFastIDAStarPDB measures the specialised IDA* with the 5-5-5
// database (built in memory) on Korf's instances 1-10.
func BenchmarkFastIDAStarPDB(b *testing.B) {
	boards, optimal, _ := korf(b)
	part, _ := ParsePartition("5-5-5", Size{}, BlankFirst)
	d, err := LoadPDB(b.Context(), part, PDBOptions{NoCache: true})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var nodes int64
	for b.Loop() {
		for i := range 10 {
			sol, err := Solve(b.Context(), boards[i], Options{Algorithm: IDAStar, Heuristic: PatternDB, PDB: d, Goal: BlankFirst})
			if err != nil || len(sol.Moves) != optimal[i] {
				b.Fatal(err)
			}
			nodes += sol.Stats.Generated
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N)/10, "nodes/instance")
}

package npuzzle

import (
	"context"
	"errors"
	"testing"
	"time"
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
					sol, err := IDAStar{Heuristic: Manhattan, Generic: generic}.Solve(b.Context(), boards[i], BlankFirst)
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
			sol, err := IDAStar{Heuristic: PatternDB, PDB: d}.Solve(b.Context(), boards[i], BlankFirst)
			if err != nil || len(sol.Moves) != optimal[i] {
				b.Fatal(err)
			}
			nodes += sol.Stats.Generated
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N)/10, "nodes/instance")
}

// TestParallelIDAStarMatchesSequential checks that the parallel iterations
// (split at every iteration deep enough here) find the same solution with
// the same counts as one goroutine, Korf's count minus the root with
// Manhattan distance, and with a pattern database; and that the limits
// still stop them.
func TestParallelIDAStarMatchesSequential(t *testing.T) {
	defer func(m int64) { parallelMin = m }(parallelMin)
	parallelMin = 0
	boards, optimal, nodes := korf(t)
	part, _ := ParsePartition("5-5-5", Size{}, BlankFirst)
	d, err := LoadPDB(t.Context(), part, PDBOptions{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for i, b := range boards {
		if nodes[i] > 3_000_000 || i+1 == 42 {
			continue
		}
		checked++
		for _, h := range []Heuristic{Manhattan, PatternDB} {
			ida := IDAStar{Heuristic: h, PDB: d}
			want, err := ida.Solve(t.Context(), b, BlankFirst)
			if err != nil {
				t.Fatal(err)
			}
			if h == Manhattan && want.Stats.Generated+1 != int64(nodes[i]) {
				t.Fatalf("instance %d: generated %d + 1, Korf counted %d", i+1, want.Stats.Generated, nodes[i])
			}
			for _, workers := range []int{2, 5} {
				ida.Workers = workers
				got, err := ida.Solve(t.Context(), b, BlankFirst)
				if err != nil {
					t.Fatal(err)
				}
				if FormatMoves(got.Moves) != FormatMoves(want.Moves) || len(got.Moves) != optimal[i] ||
					got.Stats.Expanded != want.Stats.Expanded || got.Stats.Generated != want.Stats.Generated ||
					got.Stats.Iterations != want.Stats.Iterations {
					t.Fatalf("instance %d, %v, %d workers: %d moves, %+v; one goroutine: %d moves, %+v",
						i+1, h, workers, len(got.Moves), got.Stats, len(want.Moves), want.Stats)
				}
			}
		}
	}
	if checked < 4 {
		t.Fatalf("only %d instances checked", checked)
	}
	ida := IDAStar{Heuristic: Manhattan, Workers: 2, Limits: Limits{MaxExpanded: 1_000_000}}
	if sol, err := ida.Solve(t.Context(), boards[0], BlankFirst); !errors.Is(err, ErrBudget) || sol.Stats.Expanded < 1_000_000 ||
		sol.Stats.Generated < sol.Stats.Expanded {
		t.Fatalf("with a budget of a million expansions: %v, %+v; want ErrBudget and the counts so far", err, sol.Stats)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := (IDAStar{Heuristic: Manhattan, Workers: 2}).Solve(ctx, boards[0], BlankFirst); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("with a deadline: %v", err)
	}
}

package npuzzle

import (
	"context"
	"errors"
	"math/rand/v2"
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

// TestPairSearchMatchesGeneric checks that dfsPair, the specialised search
// of a partition and its reflection, and dfsFull, that of a catalogue of two
// partitions with their reflections, find the same solutions with the same
// counts as dfsPDB, their general form: on Korf's easier 15-puzzles with
// 5-5-5 (and a catalogue of it and another 5-5-5) and their reflections,
// with and without move pruning, on one goroutine and two, and on random
// 3x3 boards with zero-aware tables (one partition, and a catalogue of two).
func TestPairSearchMatchesGeneric(t *testing.T) {
	defer func(m int64) { parallelMin = m }(parallelMin)
	parallelMin = 0
	boards, _, nodes := korf(t)
	part, _ := ParsePartition("5-5-5", Size{}, BlankFirst)
	d, err := LoadPDB(t.Context(), part, PDBOptions{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Reflected() || !d.ev.pair {
		t.Fatalf("5-5-5: reflected %v, pair %v; want both", d.Reflected(), d.ev.pair)
	}
	zpart, _ := ParsePartition("1,2,3,4/5,6,7,8+zero", Size{3, 3}, BlankFirst)
	z, err := LoadPDB(t.Context(), zpart, PDBOptions{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if !z.ev.pair {
		t.Fatal("1,2,3,4/5,6,7,8+zero: want a partition and its reflection")
	}
	// Catalogues of two partitions with their reflections, for dfsFull.
	var cats []*PDB
	for _, p := range []struct {
		text string
		size Size
	}{{"5-5-5;1,2,5,6,9/3,4,7,8,12/10,11,13,14,15", Size{4, 4}}, {"1,2,3,4/5,6,7,8;1,3,5,7/2,4,6,8+zero", Size{3, 3}}} {
		part, err := ParsePartition(p.text, p.size, BlankFirst)
		if err != nil {
			t.Fatal(err)
		}
		d, err := LoadPDB(t.Context(), part, PDBOptions{NoCache: true})
		if err != nil {
			t.Fatal(err)
		}
		cats = append(cats, d)
	}
	c, zc := cats[0], cats[1]
	for _, d := range cats {
		if d.ev.groups != 4 || !d.ev.full || d.ev.pair {
			t.Fatalf("%s: %d groups, full %v, pair %v; want 4, full", d.Partition(), d.ev.groups, d.ev.full, d.ev.pair)
		}
	}
	rng := rand.New(rand.NewPCG(43, 1))
	type job struct {
		b *Board
		d *PDB
	}
	var jobs []job
	for i, b := range boards {
		if nodes[i] <= 20_000_000 {
			jobs = append(jobs, job{b, d})
		}
		if nodes[i] <= 5_000_000 {
			jobs = append(jobs, job{b, c})
		}
	}
	for range 50 {
		b := Random(Size{3, 3}, BlankFirst, rng)
		jobs = append(jobs, job{b, z}, job{b, zc})
	}
	solve := func(ida IDAStar, b *Board, generic bool) Solution {
		defer func(old bool) { pairOff = old }(pairOff)
		pairOff = generic
		sol, err := ida.Solve(t.Context(), b, BlankFirst)
		if err != nil {
			t.Fatal(err)
		}
		return sol
	}
	for _, j := range jobs {
		for _, prune := range []int{0, DefaultFSMDepth} {
			for _, workers := range []int{1, 2} {
				ida := IDAStar{Heuristic: PatternDB, PDB: j.d, MovePruning: prune, Workers: workers}
				want, got := solve(ida, j.b, true), solve(ida, j.b, false)
				if FormatMoves(got.Moves) != FormatMoves(want.Moves) || got.Stats.Expanded != want.Stats.Expanded ||
					got.Stats.Generated != want.Stats.Generated || got.Stats.Iterations != want.Stats.Iterations {
					t.Fatalf("%q, fsm %d, %d workers: pair %d moves %+v, generic %d moves %+v",
						j.b.Line(), prune, workers, len(got.Moves), got.Stats, len(want.Moves), want.Stats)
				}
			}
		}
	}
}

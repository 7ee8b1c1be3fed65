package npuzzle

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSparseTablesMatchZoneTables checks that sparse tables give the
// estimates of the zero-aware tables they are made from, on every board of
// the 3x3 (one partition, and a catalogue of two), and that IDA* with them
// finds the same solutions with the same counts on random 3x3 boards and on
// Korf's easier 15-puzzles with 5-5-5+zero, with move pruning and two
// goroutines.
func TestSparseTablesMatchZoneTables(t *testing.T) {
	load := func(text string, size Size, sparse bool) *PDB {
		t.Helper()
		part, err := ParsePartition(text, size, BlankFirst)
		if err != nil {
			t.Fatal(err)
		}
		d, err := LoadPDB(t.Context(), part, PDBOptions{NoCache: true, Sparse: sparse})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	type pair struct{ zone, sparse *PDB }
	var small []pair
	for _, text := range []string{"1,2,3,4/5,6,7,8+zero", "1,2,3,4/5,6,7,8;1,3,5,7/2,4,6,8+zero"} {
		p := pair{load(text, Size{3, 3}, false), load(text, Size{3, 3}, true)}
		for i, ref := range p.sparse.refs {
			if ref.t.sparse == nil || ref.t.zone != nil || len(ref.t.sparse) != 9*9*9*9 || p.sparse.Tables()[i].Bytes != 8*9*9*9*9 {
				t.Fatalf("%s: table %d is not sparse (%d words, zone %v, %d bytes)", text, i+1, len(ref.t.sparse), ref.t.zone != nil, p.sparse.Tables()[i].Bytes)
			}
		}
		for st := range distances(t, Size{3, 3}, BlankFirst) {
			b := &Board{rows: 3, cols: 3, cells: []uint8(st)}
			b.blank = strings.IndexByte(st, 0)
			if a, s := p.zone.Estimate(b, BlankFirst), p.sparse.Estimate(b, BlankFirst); a != s {
				t.Fatalf("%s %q: zone %d, sparse %d", text, b.Line(), a, s)
			}
		}
		small = append(small, p)
	}
	same := func(what string, b *Board, p pair, prune, workers int) {
		t.Helper()
		var sols [2]Solution
		for i, d := range []*PDB{p.zone, p.sparse} {
			sol, err := IDAStar{Heuristic: PatternDB, PDB: d, MovePruning: prune, Workers: workers}.Solve(t.Context(), b, BlankFirst)
			if err != nil {
				t.Fatal(err)
			}
			sols[i] = sol
		}
		if FormatMoves(sols[0].Moves) != FormatMoves(sols[1].Moves) || sols[0].Stats.Generated != sols[1].Stats.Generated ||
			sols[0].Stats.Expanded != sols[1].Stats.Expanded {
			t.Fatalf("%s %q: zone %d moves %+v, sparse %d moves %+v", what, b.Line(), len(sols[0].Moves), sols[0].Stats, len(sols[1].Moves), sols[1].Stats)
		}
	}
	rng := rand.New(rand.NewPCG(44, 1))
	for range 30 {
		b := Random(Size{3, 3}, BlankFirst, rng)
		for _, p := range small {
			same("3x3", b, p, 0, 1)
		}
	}
	defer func(m int64) { parallelMin = m }(parallelMin)
	parallelMin = 0
	p := pair{load("5-5-5+zero", Size{4, 4}, false), load("5-5-5+zero", Size{4, 4}, true)}
	boards, _, nodes := korf(t)
	for i, b := range boards {
		if nodes[i] <= 3_000_000 {
			same("Korf", b, p, DefaultFSMDepth, 2)
		}
	}
}

// TestSparseTablesRefused checks that sparse tables are refused for plain
// partitions and over the memory bound, before any table is read.
func TestSparseTablesRefused(t *testing.T) {
	part, _ := ParsePartition("1,2,3,4/5,6,7,8", Size{3, 3}, BlankFirst)
	if _, err := LoadPDB(t.Context(), part, PDBOptions{NoCache: true, Sparse: true}); err == nil || !strings.Contains(err.Error(), "zero-aware") {
		t.Fatalf("plain partition: %v, want a refusal naming zero-aware tables", err)
	}
	zpart, _ := ParsePartition("1,2,3,4/5,6,7,8+zero", Size{3, 3}, BlankFirst)
	// Two zone tables of 3,024 words, and two sparse tables of 6,561.
	if _, err := LoadPDB(t.Context(), zpart, PDBOptions{NoCache: true, Sparse: true, MaxBytes: 8 * (2*3024 + 6561)}); !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "sparse") {
		t.Fatalf("over the bound: %v, want ErrBudget naming the sparse tables", err)
	}
	if _, err := LoadPDB(t.Context(), zpart, PDBOptions{NoCache: true, Sparse: true, MaxBytes: 8 * (2*3024 + 2*6561)}); err != nil {
		t.Fatalf("within the bound: %v", err)
	}
}

// TestSparseIndexMatchesRank checks makeSparse's order and the sparse index
// of 6-tile views (the 24-puzzle's) against the rank, on a
// table of random words for 6 tiles on the 3x3 board, through views with
// a cell map that permutes the cells.
func TestSparseIndexMatchesRank(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 1))
	tab := &patternTable{geom: geom{rows: 3, cols: 3, n: 9}, tiles: []uint8{1, 2, 3, 5, 7, 8}}
	tab.zone = make([]uint64, tab.entries())
	for i := range tab.zone {
		tab.zone[i] = rng.Uint64()
	}
	zone := &patternTable{geom: tab.geom, tiles: tab.tiles, zone: append([]uint64(nil), tab.zone...)}
	tab.makeSparse(2)
	if len(tab.sparse) != 9*9*9*9*9*9 || tab.zone != nil {
		t.Fatalf("sparse table of %d words, zone %v", len(tab.sparse), tab.zone != nil)
	}
	cellMap := new([maxCells]uint8)
	for i, c := range rng.Perm(9) {
		cellMap[i] = uint8(c)
	}
	tiles := []uint8{4, 1, 8, 2, 6, 3} // the board's tiles the view reads, in the table's order
	dense := pdbView{table: zone, tiles: tiles, cellMap: cellMap}
	sparse := pdbView{table: tab, tiles: tiles, cellMap: cellMap}
	sparse.setSparse()
	for range 20000 {
		var pos [maxCells]uint8
		for tile, c := range rng.Perm(9) {
			pos[tile] = uint8(c)
		}
		if a, b := dense.delta(&pos), sparse.delta(&pos); a != b {
			t.Fatalf("cells %v: rank's entry %d, sparse %d", pos[:9], a, b)
		}
	}
}

package npuzzle

import (
	"math/rand/v2"
	"testing"
)

// fsmReach walks every path of up to limit moves of the blank from cell
// start of a rows x cols board of distinct tokens that the automaton m
// keeps (and that never moves straight back), and returns the length of
// the shortest one to each board reached and the number of paths.
func fsmReach(rows, cols, start, limit int, m *moveFSM) (map[string]int, int) {
	n := rows * cols
	board := make([]byte, n)
	for i := range board {
		board[i] = byte(i)
	}
	best := map[string]int{}
	paths := 0
	var walk func(blank, prev, g int, fs int32)
	walk = func(blank, prev, g int, fs int32) {
		paths++
		if d, ok := best[string(board)]; !ok || g < d {
			best[string(board)] = g
		}
		if g == limit {
			return
		}
		k := 0
		for _, mv := range korfOrder {
			nb := target(rows, cols, blank, mv)
			if nb < 0 {
				continue
			}
			i := k
			k++
			nfs := m.next[fs][i]
			if nb == prev || nfs < 0 {
				continue
			}
			board[blank], board[nb] = board[nb], board[blank]
			walk(nb, blank, g+1, nfs)
			board[blank], board[nb] = board[nb], board[blank]
		}
	}
	walk(start, -1, 0, m.start[start])
	return best, paths
}

// TestFSMKeepsShortestPaths checks, from every cell of the 3x3, 2x4 and
// 3x4 boards, that the paths the move-pruning automaton keeps reach every
// board within a number of moves at its shortest distance (those of all
// the paths without the move back), with fewer paths; and that the trivial
// automaton keeps them all.
func TestFSMKeepsShortestPaths(t *testing.T) {
	for _, c := range []struct{ rows, cols, depth, limit int }{{3, 3, 10, 16}, {2, 4, 8, 16}, {3, 4, 8, 13}} {
		m := buildFSM(c.rows, c.cols, c.depth)
		if m.patterns == 0 {
			t.Fatalf("%dx%d: no redundant sequence found", c.rows, c.cols)
		}
		for start := range c.rows * c.cols {
			want, all := fsmReach(c.rows, c.cols, start, c.limit, trivialFSM(c.rows, c.cols))
			got, kept := fsmReach(c.rows, c.cols, start, c.limit, m)
			if len(got) != len(want) {
				t.Fatalf("%dx%d from cell %d: %d boards within %d moves, want %d", c.rows, c.cols, start, len(got), c.limit, len(want))
			}
			for b, d := range want {
				if got[b] != d {
					t.Fatalf("%dx%d from cell %d: a board at %d moves reached at %d", c.rows, c.cols, start, d, got[b])
				}
			}
			if kept >= all {
				t.Fatalf("%dx%d from cell %d: %d paths kept of %d", c.rows, c.cols, start, kept, all)
			}
			if start == 0 {
				t.Logf("%dx%d, depth %d, within %d moves: %d paths of %d kept, %d states, %d patterns", c.rows, c.cols, c.depth, c.limit, kept, all, len(m.next), m.patterns)
			}
		}
	}
}

// TestMovePruningOptimal checks that IDA* with move pruning finds
// shortest solutions with fewer nodes: on 100 random 3x3 boards with
// Manhattan distance and a pattern database, and on Korf's 15-puzzles
// with Manhattan distance (the easier ones) and 5-5-5, where the parallel
// iterations find the same solution with the same counts as one goroutine.
func TestMovePruningOptimal(t *testing.T) {
	defer func(m int64) { parallelMin = m }(parallelMin)
	parallelMin = 0
	dist := distances(t, Size{3, 3}, BlankFirst)
	part, _ := ParsePartition("1,2,3,4/5,6,7,8+zero", Size{3, 3}, BlankFirst)
	d3, err := LoadPDB(t.Context(), part, PDBOptions{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for range 300 {
		b := Random(Size{3, 3}, BlankFirst, rng)
		for _, ida := range []IDAStar{{Heuristic: Manhattan, MovePruning: 8}, {Heuristic: PatternDB, PDB: d3, MovePruning: DefaultFSMDepth}} {
			sol, err := ida.Solve(t.Context(), b, BlankFirst)
			if err != nil || len(sol.Moves) != dist[string(b.cells)] {
				t.Fatalf("%v %q: %d moves (%v), shortest %d", ida, b.Line(), len(sol.Moves), err, dist[string(b.cells)])
			}
			if end, err := Replay(b, sol.Moves); err != nil || !end.IsSolved(BlankFirst) {
				t.Fatalf("%v %q: the moves do not solve it", ida, b.Line())
			}
		}
	}

	boards, optimal, nodes := korf(t)
	part, _ = ParsePartition("5-5-5", Size{}, BlankFirst)
	d, err := LoadPDB(t.Context(), part, PDBOptions{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for i, b := range boards {
		if nodes[i] > 30_000_000 {
			continue
		}
		for _, h := range []Heuristic{Manhattan, PatternDB} {
			plain, err := IDAStar{Heuristic: h, PDB: d}.Solve(t.Context(), b, BlankFirst)
			if err != nil {
				t.Fatal(err)
			}
			ida := IDAStar{Heuristic: h, PDB: d, MovePruning: DefaultFSMDepth}
			want, err := ida.Solve(t.Context(), b, BlankFirst)
			if err != nil || len(want.Moves) != optimal[i] {
				t.Fatalf("instance %d, %v: %d moves (%v), optimal %d", i+1, h, len(want.Moves), err, optimal[i])
			}
			if end, err := Replay(b, want.Moves); err != nil || !end.IsSolved(BlankFirst) {
				t.Fatalf("instance %d, %v: the moves do not solve it", i+1, h)
			}
			if want.Stats.Generated >= plain.Stats.Generated {
				t.Fatalf("instance %d, %v: %d nodes with move pruning, %d without", i+1, h, want.Stats.Generated, plain.Stats.Generated)
			}
			ida.Workers = 2
			got, err := ida.Solve(t.Context(), b, BlankFirst)
			if err != nil || FormatMoves(got.Moves) != FormatMoves(want.Moves) || got.Stats.Generated != want.Stats.Generated ||
				got.Stats.Expanded != want.Stats.Expanded {
				t.Fatalf("instance %d, %v, 2 workers: %d moves %+v (%v); one: %+v", i+1, h, len(got.Moves), got.Stats, err, want.Stats)
			}
			checked++
		}
	}
	if checked < 10 {
		t.Fatalf("only %d solves checked", checked)
	}
	if _, err := (IDAStar{MovePruning: MaxFSMDepth + 1, Heuristic: Manhattan}).Solve(t.Context(), boards[0], BlankFirst); err == nil {
		t.Fatal("move pruning past MaxFSMDepth: no error")
	}
}

package exact

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"tessera/edgematch"
	"tessera/internal/emtest"
)

// splitPuzzles are small puzzles with many solutions and few: framed and
// coloured-frame, with and without identical pieces.
func splitPuzzles(t *testing.T) []*edgematch.Puzzle {
	var ps []*edgematch.Puzzle
	for i, o := range []edgematch.GenerateOptions{
		{Kind: edgematch.Framed, Rows: 3, Cols: 3, Colours: 1, Frame: 2, Seed: 0},
		{Kind: edgematch.Framed, Rows: 4, Cols: 4, Colours: 2, Frame: 1, Seed: 3},
		{Kind: edgematch.Framed, Rows: 4, Cols: 5, Colours: 3, Frame: 2, Seed: 4},
		{Kind: edgematch.Framed, Rows: 5, Cols: 5, Colours: 4, Frame: 2, Seed: 5},
		{Kind: edgematch.Kovalsky, Rows: 3, Cols: 4, Colours: 2, Rotate: true, Seed: 6},
		{Kind: edgematch.Kovalsky, Rows: 3, Cols: 3, Colours: 2, Seed: 7},
	} {
		p, _, err := edgematch.Generate(o)
		if err != nil {
			t.Fatalf("puzzle %d: %v", i, err)
		}
		ps = append(ps, p)
	}
	return ps
}

// TestSplitCountsEqualDFS: the solutions counted over the subtrees, at
// every depth and on any number of workers, are DFS.Solve's count (and
// brute force's on the tiny ones); the first solution of the first subtree
// that has one is DFS.Solve's solution.
func TestSplitCountsEqualDFS(t *testing.T) {
	ctx := context.Background()
	for i, p := range splitPuzzles(t) {
		for _, sym := range []bool{false, true} {
			d := DFS{Count: true, NoSymmetry: sym, Workers: 1}
			want, err := d.Solve(ctx, p)
			if err != nil {
				t.Fatalf("puzzle %d: %v", i, err)
			}
			if p.Cells() <= 9 {
				if bc := emtest.BruteCount(p); bc != want.Stats.Solutions {
					t.Fatalf("puzzle %d: DFS counts %d, brute force %d", i, want.Stats.Solutions, bc)
				}
			}
			if want.Stats.Solutions < 2 {
				t.Fatalf("puzzle %d: only %d solutions, the test wants several", i, want.Stats.Solutions)
			}
			n, _ := d.Steps(p)
			for _, depth := range []int{1, 2, 3, n - 1, n + 5} {
				for _, workers := range []int{1, 3} {
					s := Split{DFS: d, Depth: depth, Workers: workers}
					var gotDepth, gotSubtrees int
					s.OnSplit = func(d, n int) { gotDepth, gotSubtrees = d, n }
					res, err := s.Solve(ctx, p)
					if err != nil || res.Stats.Solutions != want.Stats.Solutions {
						t.Fatalf("puzzle %d, depth %d, %d workers, no symmetry %v: %d solutions (%v), DFS %d",
							i, depth, workers, sym, res.Stats.Solutions, err, want.Stats.Solutions)
					}
					if gotDepth != min(depth, n-1) || gotSubtrees != res.Stats.Subtrees || gotSubtrees == 0 {
						t.Fatalf("puzzle %d: split at depth %d into %d (asked %d, %d subtrees)", i, gotDepth, gotSubtrees, depth, res.Stats.Subtrees)
					}
					if !slices.Equal(res.Board.Cells, want.Board.Cells) {
						t.Fatalf("puzzle %d, depth %d: first solution differs from DFS's", i, depth)
					}
					if res.Stats.Nodes != want.Stats.Nodes {
						// Every node is visited once: by the split above
						// the depth, by one subtree below.
						t.Fatalf("puzzle %d, depth %d: %d placements, DFS %d", i, depth, res.Stats.Nodes, want.Stats.Nodes)
					}
				}
			}
		}
	}
}

// TestSplitFirstSolution: with one worker the split search returns
// DFS.Solve's solution; with several, a valid solution; a puzzle without
// one gives ErrNoSolution after every subtree.
func TestSplitFirstSolution(t *testing.T) {
	ctx := context.Background()
	for i, o := range []edgematch.GenerateOptions{
		{Kind: edgematch.Framed, Rows: 5, Cols: 5, Colours: 6, Seed: 1},
		{Kind: edgematch.Framed, Rows: 6, Cols: 6, Colours: 7, Seed: 2},
		{Kind: edgematch.Framed, Rows: 4, Cols: 7, Colours: 5, Frame: 2, Seed: 3},
	} {
		p, _ := emtest.Generate(t, o)
		want, err := DFS{}.Solve(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 2, 4} {
			res, err := Split{Depth: 2, Workers: workers}.Solve(ctx, p)
			if err != nil || !res.Score.Solved() || p.Verify(res.Board) != nil || res.Stats.Solutions != 1 {
				t.Fatalf("puzzle %d, %d workers: %v %v", i, workers, res.Score, err)
			}
			if workers == 1 && !slices.Equal(res.Board.Cells, want.Board.Cells) {
				t.Fatalf("puzzle %d: one worker's solution differs from DFS's", i)
			}
		}
	}
	// No solution: two copies of a corner make a 2x2 framed puzzle unsolvable.
	p := &edgematch.Puzzle{Rows: 2, Cols: 2, Tiles: []edgematch.Tile{{0, 1, 2, 0}, {0, 0, 1, 2}, {1, 2, 0, 0}, {2, 0, 0, 2}}}
	if _, err := (Split{Depth: 1}).Solve(ctx, p); !errors.Is(err, edgematch.ErrNoSolution) {
		t.Fatalf("unsolvable: %v", err)
	}
}

// recordingExec runs LocalSubtrees and records what it reports.
type recordingExec struct {
	LocalSubtrees
	mu      sync.Mutex
	done    map[int]error
	started int
}

func (r *recordingExec) RunSubtrees(ctx context.Context, p *edgematch.Puzzle, d DFS, prefixes [][]edgematch.Placement, report func(SubtreeReport)) error {
	r.done = map[int]error{}
	return r.LocalSubtrees.RunSubtrees(ctx, p, d, prefixes, func(rep SubtreeReport) {
		if rep.Done {
			r.mu.Lock()
			r.done[rep.Index] = rep.Err
			r.mu.Unlock()
		}
		report(rep)
	})
}

// TestSplitCancellation: the first solution stops the other subtrees
// (they report the cancellation, not an exhausted tree, and later ones
// never start); a cancelled context stops every subtree and is returned.
func TestSplitCancellation(t *testing.T) {
	ctx := context.Background()
	p, _ := emtest.Generate(t, edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: 4, Cols: 4, Colours: 2, Frame: 1, Seed: 3})
	exec := &recordingExec{LocalSubtrees: LocalSubtrees{Workers: 2}}
	res, err := Split{Depth: 3, Exec: exec}.Solve(ctx, p)
	if err != nil || !res.Score.Solved() {
		t.Fatalf("%v %v", res.Score, err)
	}
	if len(exec.done) >= res.Stats.Subtrees {
		t.Fatalf("all %d subtrees ran after the first solution", len(exec.done))
	}

	// A context cancelled while the subtrees of an 8x8 with 9 colours run:
	// every subtree that started reports, and the search returns the
	// context's error with the deepest board so far.
	hard, _ := emtest.Generate(t, edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: 10, Cols: 10, Colours: 9, Frame: 3, Seed: 9})
	cctx, cancel := context.WithCancel(ctx)
	exec = &recordingExec{LocalSubtrees: LocalSubtrees{Workers: 3}}
	s := Split{Depth: 2, Exec: exec}
	s.DFS.Progress = func(edgematch.Stats) {}
	progressed := make(chan struct{})
	var once sync.Once
	s.DFS.Progress = func(st edgematch.Stats) {
		if st.Nodes > 0 {
			once.Do(func() { close(progressed) })
		}
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		<-progressed
		cancel()
	}()
	res, err = s.Solve(cctx, hard)
	once.Do(func() { close(progressed) })
	wg.Wait()
	cancel()
	if !errors.Is(err, context.Canceled) || res.Board == nil || res.Stats.Nodes == 0 {
		t.Fatalf("cancelled: %v, %+v", err, res.Stats)
	}
	cancelled := 0
	for _, e := range exec.done {
		if errors.Is(e, context.Canceled) {
			cancelled++
		}
	}
	if cancelled == 0 || len(exec.done) == res.Stats.Subtrees {
		t.Fatalf("%d subtrees reported (%d cancelled) of %d", len(exec.done), cancelled, res.Stats.Subtrees)
	}
}

// TestSplitResumes: a count stopped by a budget and resumed with the
// subtrees its OnSearched reported gives the whole count, the placements
// and the first solution of one uninterrupted run, searching each subtree
// once; a run with every subtree searched runs none; a searched subtree
// that is not in the list, given twice, or whose board is no solution, is
// an error.
func TestSplitResumes(t *testing.T) {
	ctx := context.Background()
	for i, p := range splitPuzzles(t) {
		d := DFS{Count: true}
		full, err := Split{DFS: d, Depth: 2, Workers: 1}.Solve(ctx, p)
		if err != nil {
			t.Fatalf("puzzle %d: %v", i, err)
		}
		var searched []SearchedSubtree
		seen := map[int]bool{}
		note := func(ss SearchedSubtree) {
			if seen[ss.Index] {
				t.Errorf("puzzle %d: subtree %d searched twice", i, ss.Index)
			}
			seen[ss.Index] = true
			searched = append(searched, ss)
		}
		first := Split{DFS: d, Depth: 2, Workers: 1, OnSearched: note}
		first.DFS.MaxNodes = full.Stats.Nodes / 3
		if _, err := first.Solve(ctx, p); !errors.Is(err, edgematch.ErrBudget) || len(searched) == 0 || len(searched) == full.Stats.Subtrees {
			t.Fatalf("puzzle %d: the budget run: %v, %d of %d subtrees searched", i, err, len(searched), full.Stats.Subtrees)
		}
		before := len(searched)
		exec := &recordingExec{LocalSubtrees: LocalSubtrees{Workers: 2}}
		res, err := Split{DFS: d, Depth: 2, Exec: exec, Searched: slices.Clone(searched), OnSearched: note}.Solve(ctx, p)
		if err != nil || res.Stats.Solutions != full.Stats.Solutions || res.Stats.Nodes != full.Stats.Nodes {
			t.Fatalf("puzzle %d: resumed: %d solutions, %d placements (%v); uninterrupted: %d, %d",
				i, res.Stats.Solutions, res.Stats.Nodes, err, full.Stats.Solutions, full.Stats.Nodes)
		}
		if len(exec.done) != len(searched)-before || len(searched) != full.Stats.Subtrees {
			t.Fatalf("puzzle %d: the resumed run searched %d subtrees, %d of %d in all", i, len(exec.done), len(searched), full.Stats.Subtrees)
		}
		if !slices.Equal(res.Board.Cells, full.Board.Cells) {
			t.Fatalf("puzzle %d: resumed: first solution differs", i)
		}

		// Every subtree searched: nothing runs, the count is the same.
		none := failingExec{t}
		res, err = Split{DFS: d, Depth: 2, Exec: none, Searched: searched}.Solve(ctx, p)
		if err != nil || res.Stats.Solutions != full.Stats.Solutions || res.Stats.Subtrees != full.Stats.Subtrees {
			t.Fatalf("puzzle %d: all searched: %d solutions (%v), want %d", i, res.Stats.Solutions, err, full.Stats.Solutions)
		}

		// Searched subtrees that cannot be: a prefix of another depth, one
		// given twice, a board that is not a solution, solutions without a
		// board.
		refused := func(what string, bad []SearchedSubtree) {
			t.Helper()
			if _, err := (Split{DFS: d, Depth: 2, Exec: none, Searched: bad}).Solve(ctx, p); err == nil {
				t.Fatalf("puzzle %d: %s accepted", i, what)
			}
		}
		short := slices.Clone(searched)
		short[0].Prefix = short[0].Prefix[:1]
		refused("a prefix of depth 1", short)
		refused("a subtree twice", append(slices.Clone(searched), searched[0]))
		checked := false
		for j, ss := range searched {
			if ss.Result.Stats.Solutions == 0 {
				continue
			}
			wrong := ss.Result.Board.Clone()
			wrong.Cells[0], wrong.Cells[1] = wrong.Cells[1], wrong.Cells[0]
			if p.Verify(wrong) == nil && p.Score(wrong).Solved() {
				continue // identical pieces: still a solution
			}
			checked = true
			bad := slices.Clone(searched)
			bad[j].Result = edgematch.Result{Board: wrong, Stats: ss.Result.Stats}
			refused("a board that is no solution", bad)
			bad[j].Result = edgematch.Result{Stats: ss.Result.Stats}
			refused("solutions without a board", bad)
			break
		}
		if !checked {
			t.Fatalf("puzzle %d: no searched subtree to spoil", i)
		}
	}
}

// failingExec fails the test when it is asked to run a subtree.
type failingExec struct{ t *testing.T }

func (f failingExec) RunSubtrees(ctx context.Context, p *edgematch.Puzzle, d DFS, prefixes [][]edgematch.Placement, report func(SubtreeReport)) error {
	f.t.Errorf("asked to run %d subtrees", len(prefixes))
	return nil
}

// TestSubtreePrefixesChecked: SolveSubtree refuses a prefix that the
// backtracker would not have placed.
func TestSubtreePrefixesChecked(t *testing.T) {
	ctx := context.Background()
	p, _ := emtest.Generate(t, edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: 4, Cols: 4, Colours: 3, Frame: 2, Seed: 1})
	d := DFS{Workers: 1}
	pre, err := d.Subtrees(ctx, p, 2)
	if err != nil || len(pre) == 0 {
		t.Fatal(len(pre), err)
	}
	good := pre[0]
	if _, err := d.SolveSubtree(ctx, p, good); err != nil && !errors.Is(err, edgematch.ErrNoSolution) {
		t.Fatalf("listed prefix: %v", err)
	}
	for _, bad := range [][]edgematch.Placement{
		{good[0], good[0]},    // a piece twice
		{{Piece: 99, Rot: 0}}, // no such piece
		{good[0], {Piece: good[0].Piece, Rot: (good[0].Rot + 1) % 4}}, // placed twice, turned
		make([]edgematch.Placement, p.Cells()),                        // too long
	} {
		if _, err := d.SolveSubtree(ctx, p, bad); err == nil || errors.Is(err, edgematch.ErrNoSolution) {
			t.Fatalf("prefix %v accepted: %v", bad, err)
		}
	}
}

// TestSplitBrendanCounts counts the solutions of Brendan Owen's small
// puzzles split into subtrees and compares with the single search.
func TestSplitBrendanCounts(t *testing.T) {
	dir := emtest.SharedData(t)
	ctx := context.Background()
	for _, name := range []string{"03x03", "04x04", "05x04", "05x05"} {
		p := emtest.MustPuzzle(t, filepath.Join(dir, "brendan_set1", name+".txt"))
		want, err := DFS{Count: true}.Solve(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Split{DFS: DFS{Count: true}, Depth: 3, Workers: 2}.Solve(ctx, p)
		if err != nil || res.Stats.Solutions != want.Stats.Solutions || want.Stats.Solutions == 0 {
			t.Fatalf("%s: split counts %d (%v), DFS %d", name, res.Stats.Solutions, err, want.Stats.Solutions)
		}
		t.Logf("%s: %d solutions in %d subtrees", name, res.Stats.Solutions, res.Stats.Subtrees)
	}
}

package dist

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"tessera/edgematch"
	"tessera/edgematch/exact"
	"tessera/edgematch/partial"
	"tessera/internal/datadir"
	"tessera/internal/emtest"
	"tessera/internal/jobs"
	"tessera/samegame"
)

// embedded starts an embedded server on loopback with workers in-process
// workers.
func embedded(t *testing.T, workers int) *jobs.Client {
	t.Helper()
	c, err := jobs.StartEmbedded(context.Background(), jobs.ServerOptions{Dir: t.TempDir(), Addr: "127.0.0.1:0"}, workers)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func generate(t *testing.T, o edgematch.GenerateOptions) *edgematch.Puzzle {
	t.Helper()
	p, _ := emtest.Generate(t, o)
	return p
}

// TestSubtreeJobsCount: the solutions counted by subtree jobs are the
// single search's, on generated puzzles and (with the shared data) on
// Brendan Owen's 5x4 and 5x5; the first solution is the single search's
// with one worker.
func TestSubtreeJobsCount(t *testing.T) {
	ctx := context.Background()
	c := embedded(t, 3)
	puzzles := []*edgematch.Puzzle{
		generate(t, edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: 4, Cols: 4, Colours: 2, Frame: 1, Seed: 3}),
		generate(t, edgematch.GenerateOptions{Kind: edgematch.Kovalsky, Rows: 3, Cols: 4, Colours: 2, Rotate: true, Seed: 6}),
	}
	if dir, err := datadir.Path("edgematch"); err == nil {
		for _, name := range []string{"05x04", "05x05"} {
			f, err := os.Open(filepath.Join(dir, "brendan_set1", name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			p, err := edgematch.ParsePuzzle(f)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			puzzles = append(puzzles, p)
		}
	} else {
		t.Logf("Brendan's puzzles skipped: %v", err)
	}
	for i, p := range puzzles {
		want, err := exact.DFS{Count: true}.Solve(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		res, err := exact.Split{DFS: exact.DFS{Count: true}, Depth: 2, Exec: Subtrees{Client: c}}.Solve(ctx, p)
		if err != nil || res.Stats.Solutions != want.Stats.Solutions || res.Stats.Nodes != want.Stats.Nodes {
			t.Fatalf("puzzle %d: jobs count %d in %d placements (%v), DFS %d in %d", i, res.Stats.Solutions, res.Stats.Nodes, err,
				want.Stats.Solutions, want.Stats.Nodes)
		}
		if !slices.Equal(res.Board.Cells, want.Board.Cells) {
			t.Fatalf("puzzle %d: first solution differs", i)
		}
	}
}

// TestSubtreeJobsFirstSolution: a first solution found by a job cancels
// the others: every job ends (done or canceled), none stays queued or
// running, and fewer jobs ran than there are subtrees.
func TestSubtreeJobsFirstSolution(t *testing.T) {
	ctx := context.Background()
	c := embedded(t, 2)
	p := generate(t, edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: 6, Cols: 6, Colours: 7, Seed: 2})
	res, err := exact.Split{Depth: 3, Exec: Subtrees{Client: c, InFlight: 8}}.Solve(ctx, p)
	if err != nil || !res.Score.Solved() || p.Verify(res.Board) != nil {
		t.Fatalf("%v %v", res.Score, err)
	}
	all := waitAllFinal(t, c)
	if len(all) >= res.Stats.Subtrees {
		t.Fatalf("%d jobs for %d subtrees: the first solution did not stop the rest", len(all), res.Stats.Subtrees)
	}
}

// waitAllFinal waits (up to a minute) until every job is final and returns
// them.
func waitAllFinal(t *testing.T, c *jobs.Client) []jobs.Status {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		all, err := c.List(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		open := 0
		for _, st := range all {
			if !st.State.Final() {
				open++
			}
		}
		if open == 0 {
			return all
		}
		if time.Now().After(deadline) {
			for _, st := range all {
				if !st.State.Final() {
					t.Logf("open: %+v", st)
				}
			}
			t.Fatalf("%d of %d jobs still open a minute after the search", open, len(all))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSubtreeJobsCancel: cancelling the caller's context cancels every
// subtree job, running or queued.
func TestSubtreeJobsCancel(t *testing.T) {
	c := embedded(t, 2)
	p := generate(t, edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: 10, Cols: 10, Colours: 9, Frame: 3, Seed: 9})
	ctx, cancel := context.WithCancel(context.Background())
	s := exact.Split{Depth: 2, Exec: Subtrees{Client: c, InFlight: 6}}
	started := make(chan struct{}, 1)
	s.DFS.Progress = func(st edgematch.Stats) {
		if st.Nodes > 0 {
			select {
			case started <- struct{}{}:
			default:
			}
		}
	}
	go func() {
		<-started
		cancel()
	}()
	res, err := s.Solve(ctx, p)
	cancel()
	if !errors.Is(err, context.Canceled) || res.Stats.Nodes == 0 {
		t.Fatalf("%v, %d placements", err, res.Stats.Nodes)
	}
	all := waitAllFinal(t, c)
	canceled := 0
	for _, st := range all {
		if st.State == jobs.Canceled {
			canceled++
		}
	}
	if canceled == 0 || len(all) > 6 {
		t.Fatalf("%d jobs, %d canceled", len(all), canceled)
	}
}

// TestPartialJobs: seeded partial searches as jobs give the best board of
// the same searches run in process (a move budget makes each lns search a
// function of its seed, a node budget each break and tiles search), with
// the same work, and every option travels with the job.
func TestPartialJobs(t *testing.T) {
	ctx := context.Background()
	c := embedded(t, 2)
	p, sol := emtest.Generate(t, edgematch.GenerateOptions{Rows: 8, Cols: 8, Colours: 8, Seed: 1})
	scan, err := edgematch.ParseScan("columns from the bottom right")
	if err != nil {
		t.Fatal(err)
	}
	// A saved board below the maximum: the planted solution with two
	// inner pieces exchanged.
	start := sol.Clone()
	start.Cells[9], start.Cells[18] = start.Cells[18], start.Cells[9]
	if sc := p.Score(start); sc.Solved() || sc.FrameErrors != 0 {
		t.Fatalf("start %v", sc)
	}
	for _, base := range []partial.SeededSearch{
		partial.Partial{DFSNodes: 1000, MaxMoves: 300},
		partial.Breaks{MaxNodes: 100_000},
		partial.Breaks{MaxNodes: 100_000, Scan: scan, Schedule: []int{40, 50, 60}, Heuristic: []edgematch.Colour{3, 4}, RestartNodes: 30_000, PolishMoves: 20},
		partial.Tiles{MaxNodes: 100_000, ReserveFrom: 40, GroupIters: 100},
		partial.Breaks{MaxNodes: 100_000, Start: start, PolishMoves: -1},
	} {
		want, err := partial.DistPartial{Search: base, Seed: 5, Searches: 3}.Solve(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		var reported []int
		d := partial.DistPartial{Search: base, Seed: 5, Searches: 3, Exec: Partial{Client: c},
			OnBest: func(_ *edgematch.Board, s edgematch.Score) { reported = append(reported, s.Matched) }}
		got, err := d.Solve(ctx, p)
		if err != nil || got.Score != want.Score || p.Verify(got.Board) != nil || got.Stats.Nodes != want.Stats.Nodes || got.Stats.Moves != want.Stats.Moves {
			t.Fatalf("%+v: jobs %v (%v, %d placements, %d moves), in process %v (%d, %d)", base, got.Score, err,
				got.Stats.Nodes, got.Stats.Moves, want.Score, want.Stats.Nodes, want.Stats.Moves)
		}
		if got.Stats.Completed != want.Stats.Completed || !slices.Equal(got.Stats.Top, want.Stats.Top) {
			t.Fatalf("%+v: jobs completed %d boards, top %v; in process %d, %v", base, got.Stats.Completed, got.Stats.Top,
				want.Stats.Completed, want.Stats.Top)
		}
		if len(reported) == 0 || reported[len(reported)-1] != want.Score.Matched {
			t.Fatalf("%+v: reported %v", base, reported)
		}
		if b, ok := base.(partial.Breaks); ok && b.Start != nil && got.Score.Matched < p.Score(start).Matched {
			t.Fatalf("resumed from %v, got %v", p.Score(start), got.Score)
		}
	}
}

// TestNRPAJobs: the distributed NRPA on jobs returns the clicks of the
// in-process run with the same seed (the policy travels exactly), and they
// replay to the reported score.
func TestNRPAJobs(t *testing.T) {
	ctx := context.Background()
	c := embedded(t, 3)
	f, err := os.Open("../../samegame/testdata/standard20.txt")
	if err != nil {
		t.Fatal(err)
	}
	set, err := samegame.ParseSet(f, samegame.Standard)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	b := set[0].Board
	s := samegame.DistNRPA{Level: 2, Iterations: 10, Parallel: 4, Seed: 3}
	want, err := s.Solve(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	s.Exec = NRPA{Client: c}
	got, err := s.Solve(ctx, b)
	if err != nil || !slices.Equal(got.Moves, want.Moves) || got.Score != want.Score {
		t.Fatalf("jobs: %d points (%v), in process %d", got.Score, err, want.Score)
	}
	if r, err := samegame.Replay(b, got.Moves); err != nil || r.Score != got.Score || got.Playouts != 100 {
		t.Fatalf("replayed %d (%v), reported %d, %d playouts", r.Score, err, got.Score, got.Playouts)
	}
	// The colour kept for last travels too: position 11's restarts keep
	// its five tied colours in turn, on jobs as in process.
	b = set[10].Board
	s = samegame.DistNRPA{Level: 2, Iterations: 4, Parallel: 2, Seed: 5, TabuColors: 5, MaxPlayouts: 5 * 16}
	want, _ = s.Solve(ctx, b)
	s.Exec = NRPA{Client: c}
	got, _ = s.Solve(ctx, b)
	if !slices.Equal(got.Moves, want.Moves) || got.Playouts != 5*16 || len(want.Moves) == 0 {
		t.Fatalf("position 11, -tabu-colors 5: jobs %d points, in process %d; %d playouts", got.Score, want.Score, got.Playouts)
	}
}

// TestBadInputsFail: malformed inputs fail their jobs with an error, at
// once (no retry).
func TestBadInputsFail(t *testing.T) {
	ctx := context.Background()
	c := embedded(t, 1)
	for _, tc := range []struct {
		kind string
		in   any
	}{
		{SubtreeKind, SubtreeInput{Puzzle: "2 2\n1 2 3\n"}},
		{SubtreeKind, SubtreeInput{Puzzle: formatPuzzle(generate(t, edgematch.GenerateOptions{Rows: 3, Cols: 3, Colours: 2, Seed: 1})), Prefix: [][2]int{{0, 0}, {0, 0}}}},
		{PartialKind, PartialInput{Puzzle: "x"}},
		{PartialKind, PartialInput{Puzzle: formatPuzzle(generate(t, edgematch.GenerateOptions{Rows: 4, Cols: 4, Colours: 3, Seed: 1})), Algo: "nope"}},
		{PartialKind, PartialInput{Puzzle: formatPuzzle(generate(t, edgematch.GenerateOptions{Rows: 4, Cols: 4, Colours: 3, Seed: 1})), Heuristic: []int{99}}},
		{PartialKind, PartialInput{Puzzle: formatPuzzle(generate(t, edgematch.GenerateOptions{Rows: 4, Cols: 4, Colours: 3, Seed: 1})), Schedule: []int{5, 3}}},
		{NRPAKind, NRPAInput{Board: "1 2/3", Rules: "standard"}},
		{NRPAKind, NRPAInput{Board: "1 2/2 1", Rules: "standard", Call: samegame.NRPACall{Level: 99}}},
	} {
		if _, err := run(ctx, c, tc.kind, tc.in, 0, nil); err == nil || errors.Is(err, errCanceled) {
			t.Fatalf("%s %+v: %v", tc.kind, tc.in, err)
		}
	}
}

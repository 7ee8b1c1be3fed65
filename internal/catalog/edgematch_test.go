package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"tessera/edgematch"
	"tessera/edgematch/exact"
	"tessera/edgematch/sat"
	"tessera/internal/emtest"
	"tessera/lp"
)

// solveWithProgress builds the solver id from the table with o and a
// progress hook, and solves p with it: the result, the solve's error and
// the number of progress lines.
func solveWithProgress(t *testing.T, id string, o EdgeMatchOptions, p *edgematch.Puzzle) (edgematch.Result, int, error) {
	t.Helper()
	var lines int
	s, err := EdgeMatch.New(id, EdgeMatchRun{EdgeMatchOptions: o, Hooks: EdgeMatchHooks{Progress: func(string, ...any) { lines++ }}})
	if err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	res, err := s.Solve(context.Background(), p)
	return res, lines, err
}

// TestEdgeMatchTable builds every edge-matching solver from the table and
// solves a small generated puzzle with it.
func TestEdgeMatchTable(t *testing.T) {
	p, sol := emtest.Generate(t, edgematch.GenerateOptions{Rows: 4, Cols: 4, Colours: 4, Seed: 2})
	for _, id := range []string{"dfs", "partial", "lns", "lp"} {
		res, _, err := solveWithProgress(t, id, EdgeMatchOptions{Workers: 1, Order: "spiral", Seed: 3}, p)
		if err != nil || !res.Score.Solved() || p.Verify(res.Board) != nil {
			t.Errorf("%s: %v %v", id, err, res.Score)
		}
		if (id == "lp") != (res.LP != nil) {
			t.Errorf("%s: LP statistics %v", id, res.LP)
		}
	}
	// Count with dfs, and the options each solver refuses.
	s, err := EdgeMatch.New("dfs", EdgeMatchRun{EdgeMatchOptions: EdgeMatchOptions{Count: true, Workers: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := s.Solve(context.Background(), p); err != nil || res.Stats.Solutions < 1 {
		t.Errorf("count: %v %d", err, res.Stats.Solutions)
	}
	// The options a solver does not read (from the entries' Reads).
	for _, c := range []struct{ id, flag string }{
		{"partial", "count"}, {"lns", "count"}, {"lns", "max-nodes"}, {"lns", "order"}, {"partial", "max-moves"},
		{"partial", "split"}, {"lp", "count"}, {"sat", "max-nodes"}, {"sat", "max-moves"}, {"dfs", "max-moves"},
		{"lp", "max-moves"}, {"dfs", "lp-iter"}, {"dfs", "max-solutions"}, {"sat", "workers"},
	} {
		if err := emApplies(c.id, c.flag); err == nil {
			t.Errorf("-%s applies to %s", c.flag, c.id)
		}
	}
	for _, c := range []struct{ id, flag string }{
		{"dfs", "count"}, {"dfs", "split"}, {"sat", "count"}, {"partial", "max-nodes"}, {"tiles", "order"},
		{"lns", "max-moves"}, {"lp", "lp-max-mem"}, {"lp", "max-nodes"}, {"dfs", "seed"}, {"sat", "sat-solver"},
	} {
		if err := emApplies(c.id, c.flag); err != nil {
			t.Errorf("%s: %v", c.id, err)
		}
	}
	// What New refuses: a start board where none is taken, a bad order or
	// backend.
	for _, c := range []struct {
		id string
		o  EdgeMatchRun
	}{
		{"dfs", EdgeMatchRun{Start: sol}},
		{"lp", EdgeMatchRun{Start: sol}},
		{"sat", EdgeMatchRun{Start: sol}},
		{"dfs", EdgeMatchRun{EdgeMatchOptions: EdgeMatchOptions{Order: "zigzag"}}},
		{"partial", EdgeMatchRun{EdgeMatchOptions: EdgeMatchOptions{Order: "zigzag"}}},
		{"lp", EdgeMatchRun{EdgeMatchOptions: EdgeMatchOptions{EdgeMatchLPOptions: EdgeMatchLPOptions{LPBackend: "simplex"}}}},
	} {
		if _, err := EdgeMatch.New(c.id, c.o); err == nil {
			t.Errorf("%s accepted %+v", c.id, c.o)
		}
	}
	if _, err := lp.Lookup("clp"); errors.Is(err, lp.ErrNotBuilt) {
		if _, err := EdgeMatch.New("lp", EdgeMatchRun{EdgeMatchOptions: EdgeMatchOptions{EdgeMatchLPOptions: EdgeMatchLPOptions{LPBackend: "clp"}}}); !errors.Is(err, lp.ErrNotBuilt) {
			t.Errorf("clp without the build tag: %v", err)
		}
	}
}

// TestEdgeMatchRefusesNegatives: negative counts and budgets are mistakes
// (main accepted them silently: a negative -max-nodes meant no limit).
func TestEdgeMatchRefusesNegatives(t *testing.T) {
	for _, c := range []struct {
		id string
		o  EdgeMatchOptions
	}{
		{"dfs", EdgeMatchOptions{Workers: -1}},
		{"dfs", EdgeMatchOptions{MaxNodes: -5}},
		{"lp", EdgeMatchOptions{EdgeMatchLPOptions: EdgeMatchLPOptions{LPIter: -1}}},
		{"lp", EdgeMatchOptions{EdgeMatchLPOptions: EdgeMatchLPOptions{LPTime: -time.Second}}},
		{"lp", EdgeMatchOptions{EdgeMatchLPOptions: EdgeMatchLPOptions{LPMaxMiB: -1}}},
		{"lns", EdgeMatchOptions{MaxMoves: -1}},
		{"lns", EdgeMatchOptions{Workers: -2}},
		{"partial", EdgeMatchOptions{MaxNodes: -1}},
		{"partial", EdgeMatchOptions{Workers: -2}},
		{"lp", EdgeMatchOptions{EdgeMatchLPOptions: EdgeMatchLPOptions{LPMaxMiB: 1 << 50}}},
	} {
		if _, err := EdgeMatch.New(c.id, EdgeMatchRun{EdgeMatchOptions: c.o}); err == nil {
			t.Errorf("%s accepted %+v", c.id, c.o)
		}
	}
}

// TestEdgeMatchLNSMaxMoves: with a move budget, lns gives
// the same board twice for the same seed and worker count, two workers
// included (main had no way to give it one: -timeout was its only budget).
func TestEdgeMatchLNSMaxMoves(t *testing.T) {
	p, sol := emtest.Generate(t, edgematch.GenerateOptions{Rows: 10, Cols: 10, Colours: 10, Seed: 5})
	// Start from the planted solution with its inner pieces shuffled and
	// turned (no frame errors), so that the workers build nothing.
	start := &edgematch.Board{Rows: sol.Rows, Cols: sol.Cols, Cells: slices.Clone(sol.Cells)}
	var inner []int
	for i := range start.Cells {
		if r, c := i/sol.Cols, i%sol.Cols; r > 0 && r < sol.Rows-1 && c > 0 && c < sol.Cols-1 {
			inner = append(inner, i)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for k, i := range inner {
		j := inner[rng.IntN(k+1)]
		start.Cells[i], start.Cells[j] = start.Cells[j], start.Cells[i]
		start.Cells[i].Rot = rng.IntN(4)
	}
	var boards []string
	for range 2 {
		s, err := EdgeMatch.New("lns", EdgeMatchRun{EdgeMatchOptions: EdgeMatchOptions{Workers: 2, Seed: 3, MaxMoves: 300}, Start: start})
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Solve(context.Background(), p)
		if err != nil {
			t.Fatalf("the move budget is not an error: %v", err)
		}
		t.Logf("score %v (start %v), %d moves", res.Score, p.Score(start), res.Stats.Moves)
		if res.Stats.Moves != 600 || res.Score.Solved() {
			t.Fatalf("%d moves, want 300 per worker, and no solution (pick a harder start)", res.Stats.Moves)
		}
		boards = append(boards, res.Board.String())
	}
	if boards[0] != boards[1] {
		t.Fatalf("two runs with seed 3 and -max-moves differ:\n%s\n%s", boards[0], boards[1])
	}
}

// TestEdgeMatchSAT builds sat from the table, solves and counts with it
// (skipped without a SAT solver on the PATH), and checks the options it
// refuses.
func TestEdgeMatchSAT(t *testing.T) {
	for _, o := range []EdgeMatchOptions{{EdgeMatchSATOptions: EdgeMatchSATOptions{MaxSolutions: 3}}, {Count: true, EdgeMatchSATOptions: EdgeMatchSATOptions{MaxSolutions: -1}}} {
		if _, err := EdgeMatch.New("sat", EdgeMatchRun{EdgeMatchOptions: o}); err == nil {
			t.Errorf("sat accepted %+v", o)
		}
	}
	if _, err := sat.FindSATSolver(""); err != nil {
		t.Skipf("no SAT solver on the PATH (%v); CI installs cadical", err)
	}
	p, _ := emtest.Generate(t, edgematch.GenerateOptions{Rows: 4, Cols: 4, Colours: 6, Frame: 2, Seed: 1})
	want, err := exact.DFS{Count: true}.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	for _, count := range []bool{false, true} {
		s, err := EdgeMatch.New("sat", EdgeMatchRun{EdgeMatchOptions: EdgeMatchOptions{Count: count}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Solve(context.Background(), p)
		if err != nil || !res.Score.Solved() || p.Verify(res.Board) != nil {
			t.Fatalf("count %v: %v %v", count, err, res.Score)
		}
		if count && res.Stats.Solutions != want.Stats.Solutions {
			t.Errorf("sat counts %d solutions, dfs %d", res.Stats.Solutions, want.Stats.Solutions)
		}
	}
}

// TestSplitLeft checks the split search's estimate of the time left: this
// run's time per subtree it finished times the subtrees left.
func TestSplitLeft(t *testing.T) {
	for _, c := range []struct {
		finished, total, resumed int
		elapsed                  time.Duration
		want                     string
	}{
		{150, 1000, 100, 100 * time.Second, ", about 28m left"},    // 2 s each, 850 left
		{5000, 12548, 0, 8000 * time.Second, ", about 3h21m left"}, // 1.6 s each, 7548 left
		{999, 1000, 0, 999 * time.Minute, ", about 1m left"},
		{999, 1000, 0, 20 * time.Second, ", under a minute left"},
		{100, 1000, 100, time.Minute, ""}, // none finished by this run yet
		{1000, 1000, 0, time.Minute, ""},  // all finished
		{0, 0, 0, 0, ""},                  // before the split
	} {
		st := edgematch.Stats{Subtrees: c.finished, Elapsed: c.elapsed}
		if got := splitLeft(st, c.total, c.resumed); got != c.want {
			t.Errorf("splitLeft(%d finished of %d, %d resumed, %v) = %q, want %q", c.finished, c.total, c.resumed, c.elapsed, got, c.want)
		}
	}
}

// emApplies is Applies for one flag given to the solver id.
func emApplies(id, flag string) error {
	return EdgeMatch.Applies(Options(EdgeMatchOptions{}), []string{flag}, id)
}

// TestEdgeMatchJob: the job kind edgematch.solve solves the puzzle's text,
// improves a start board's text (lns), returns the record, and refuses a
// SAT solver command and a board that does not fit.
func TestEdgeMatchJob(t *testing.T) {
	p, sol := emtest.Generate(t, edgematch.GenerateOptions{Rows: 4, Cols: 4, Colours: 4, Seed: 2})
	var pb strings.Builder
	p.WriteTo(&pb)
	run := JobKinds()[EdgeMatchKind]
	call := func(j EdgeMatchJob) EdgeMatchRecord {
		t.Helper()
		in, _ := json.Marshal(j)
		out, err := run(context.Background(), in, nil)
		if err != nil {
			t.Fatal(err)
		}
		return out.(EdgeMatchRecord)
	}
	spec := func(id string, o EdgeMatchOptions) Spec[EdgeMatchOptions] {
		return Spec[EdgeMatchOptions]{Solver: id, Options: o, Budget: Budget{Timeout: time.Minute}}
	}
	if r := call(EdgeMatchJob{Spec: spec("dfs", EdgeMatchOptions{Workers: 1, Count: true}), Name: "g", Puzzle: pb.String()}); !r.Solved || r.Solutions < 1 || r.Algo != "dfs" || r.Puzzle != "g" || r.Error != "" {
		t.Errorf("dfs: %+v", r)
	}
	start := edgematch.Format(sol)
	if r := call(EdgeMatchJob{Spec: spec("lns", EdgeMatchOptions{Workers: 1, MaxMoves: 10, Seed: 2}), Name: "g", Puzzle: pb.String(), Start: string(start)}); !r.Solved || r.StoppedBy != "target" || r.Error != "" {
		t.Errorf("lns from the solution: %+v", r)
	}
	for _, j := range []EdgeMatchJob{
		{Spec: spec("sat", EdgeMatchOptions{EdgeMatchSATOptions: EdgeMatchSATOptions{SATSolver: "/bin/sh"}}), Puzzle: pb.String()},
		{Spec: spec("lns", EdgeMatchOptions{}), Puzzle: pb.String(), Start: "2 2\n1/0 2/0\n3/0 4/0\n"},
		{Spec: spec("dfs", EdgeMatchOptions{}), Puzzle: pb.String(), Start: string(start)},
		{Spec: spec("dfs", EdgeMatchOptions{}), Puzzle: "3 3\n"},
	} {
		if r := call(j); r.Error == "" {
			t.Errorf("accepted %+v: %+v", j.Spec, r)
		}
	}
}

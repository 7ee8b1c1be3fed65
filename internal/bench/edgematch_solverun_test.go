package bench

import (
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tessera/edgematch"
	"tessera/internal/catalog"
	"tessera/internal/progress"
)

// EdgeMatchSolveRun solves a planted puzzle and saves the board it
// reports; a split count with a journal, run twice, counts the same
// solutions the second time from the journal alone; the options a solver
// does not take and a journal of another run are usage errors.
func TestEdgeMatchSolveRun(t *testing.T) {
	p, _, err := edgematch.Generate(edgematch.GenerateOptions{Rows: 4, Cols: 4, Colours: 4, Frame: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pr := progress.New(io.Discard, false)
	solve := func(r EdgeMatchSolveRun) (*EdgeMatchSolved, error) {
		r.Name, r.Puzzle, r.Progress, r.Timeout = "p.txt", p, pr, time.Minute
		return r.Solve(t.Context())
	}
	out := filepath.Join(dir, "b.board")
	s, err := solve(EdgeMatchSolveRun{Algo: "dfs", Out: out})
	if err != nil || !s.Result.Score.Solved() || s.Saved != out || s.Backend != "pdhg" {
		t.Fatalf("dfs: %v %+v", err, s)
	}
	if b, err := edgematch.ReadBoard(out, p); err != nil || p.Score(b) != s.Result.Score {
		t.Fatalf("saved board: %v", err)
	}

	journal := filepath.Join(dir, "split.jsonl")
	count := catalog.EdgeMatchRun{EdgeMatchOptions: catalog.EdgeMatchOptions{Split: 2, Count: true, Workers: 1}}
	first, err := solve(EdgeMatchSolveRun{Algo: "dfs", Run: count, Journal: journal})
	if err != nil || first.SplitDepth != 2 || first.Resumed != 0 || first.Result.Stats.Solutions < 1 {
		t.Fatalf("first count: %v %+v", err, first)
	}
	again, err := solve(EdgeMatchSolveRun{Algo: "dfs", Run: count, Journal: journal})
	if err != nil || again.Resumed == 0 || again.Result.Stats.Solutions != first.Result.Stats.Solutions ||
		again.Result.Stats.Nodes != first.Result.Stats.Nodes || again.ResumedNodes < 1 {
		t.Fatalf("count again: %v %+v, first %+v", err, again.EdgeMatchOutcome, first.EdgeMatchOutcome)
	}

	var ue *UsageError
	other := count
	other.Split = 3
	if _, err := solve(EdgeMatchSolveRun{Algo: "dfs", Run: other, Journal: journal}); !errors.As(err, &ue) {
		t.Errorf("a journal of another split depth: %v", err)
	}
	resume := catalog.EdgeMatchRun{Start: edgematch.NewBoard(4, 4)}
	if _, err := solve(EdgeMatchSolveRun{Algo: "dfs", Run: resume}); !errors.As(err, &ue) || !strings.Contains(err.Error(), "-resume") {
		t.Errorf("dfs -resume: %v", err)
	}
}

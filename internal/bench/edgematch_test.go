package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tessera/edgematch"
	"tessera/edgematch/exact"
	"tessera/edgematch/partial"
	"tessera/edgematch/relax"
	"tessera/edgematch/sat"
	"tessera/internal/catalog"
	"tessera/internal/emtest"
	"tessera/internal/flock"
	"tessera/internal/jobs"
	"tessera/internal/journal"
	"tessera/internal/progress"
)

// TestEdgeMatchBench runs a generated LP bench and checks its lines, its
// summary (keys in their historical order) and its text table.
func TestEdgeMatchBench(t *testing.T) {
	items, err := EdgeMatchGenerated(edgematch.GenerateOptions{Kind: edgematch.Kovalsky, Seed: 1}, "4x4, 5x4", "12", 2)
	if err != nil || len(items) != 4 || items[0].Name != "kovalsky 4x4 c12 seed 1" || items[3].Group != "5x4 c12" {
		t.Fatalf("%v %+v", err, items)
	}
	b := EdgeMatch{Items: items, Algo: "lp", Solver: relax.LP{NoSearch: true}, Timeout: time.Minute}
	var out bytes.Buffer
	if err := b.Run(context.Background(), &Writer{W: &out, JSON: true}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[4], `{"algo":"lp",`) || !strings.HasSuffix(lines[4], `"summary":true}`) {
		t.Fatalf("%q", out.String())
	}
	var rec catalog.EdgeMatchRecord
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil || !rec.Solved || rec.Iterations < 1 || rec.Method != "lp" || rec.Group != "4x4 c12" {
		t.Fatalf("%v %+v", err, rec)
	}
	var sum EdgeMatchSummary
	if err := json.Unmarshal([]byte(lines[4]), &sum); err != nil || sum.Puzzles != 4 || sum.Solved != 4 || len(sum.Groups) != 2 || sum.Groups[1].Puzzles != 2 {
		t.Fatalf("%v %+v", err, sum)
	}
	out.Reset()
	if err := b.Run(context.Background(), &Writer{W: &out}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"LPs  permutation  method", "4 puzzles, 4 solved", "P a permutation", "5x4 c12"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in %q", want, out.String())
		}
	}
	for _, bad := range [][3]string{{"9", "8"}, {"4x4", "a"}} {
		if _, err := EdgeMatchGenerated(edgematch.GenerateOptions{}, bad[0], bad[1], 1); err == nil {
			t.Errorf("sizes %q colours %q accepted", bad[0], bad[1])
		}
	}
	if _, err := EdgeMatchGenerated(edgematch.GenerateOptions{Rotate: true}, "4x4", "4", 1); err == nil {
		t.Error("-rotate accepted for framed puzzles")
	}
}

// TestEdgeMatchSet reads a set by folder, by pattern and from the data
// folder.
func TestEdgeMatchSet(t *testing.T) {
	data := t.TempDir()
	dir := filepath.Join(data, "set")
	os.Mkdir(dir, 0o755)
	for _, s := range []uint64{1, 2} {
		p, _, _ := edgematch.Generate(edgematch.GenerateOptions{Rows: 3, Cols: 3, Colours: 3, Seed: s})
		os.WriteFile(filepath.Join(dir, "g"+string(rune('0'+s))+".txt"), edgematch.Format(p), 0o644)
	}
	for _, list := range [][]string{{dir}, {filepath.Join(dir, "g*.txt")}, {"set"}} {
		items, err := EdgeMatchSet(list, data, "", 0)
		if err != nil || len(items) != 2 || items[0].Name != "g1" || items[1].Puzzle.Rows != 3 {
			t.Errorf("%q: %v %+v", list, err, items)
		}
	}
	if _, err := EdgeMatchSet([]string{"none*.txt"}, data, "", 0); err == nil || !strings.Contains(err.Error(), "no puzzle files") {
		t.Errorf("an empty pattern: %v", err)
	}
}

// TestEdgeMatchSolveDeadline: a partial search that its deadline ends has
// succeeded; an exact search has not.
func TestEdgeMatchSolveDeadline(t *testing.T) {
	p, _, _ := edgematch.Generate(edgematch.GenerateOptions{Rows: 12, Cols: 12, Colours: 10, Seed: 1})
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	<-ctx.Done()
	if res, err := EdgeMatchSolve(ctx, "lns", partial.Partial{Workers: 1}, p); err != nil || res.Board == nil {
		t.Errorf("partial: %v", err)
	}
	if _, err := EdgeMatchSolve(ctx, "dfs", exact.DFS{}, p); err == nil {
		t.Error("dfs after the deadline: no error")
	}
}

// TestEdgeMatchBenchFailed: a bench where an item failed writes every
// record and the summary, then returns ErrEdgeMatchFailed (main: nil, so
// the command exited 0).
func TestEdgeMatchBenchFailed(t *testing.T) {
	good, _, _ := edgematch.Generate(edgematch.GenerateOptions{Rows: 4, Cols: 4, Colours: 4, Seed: 1})
	big, _, _ := edgematch.Generate(edgematch.GenerateOptions{Rows: 16, Cols: 16, Colours: 8, Seed: 1})
	items := []EdgeMatchItem{{Name: "good", Puzzle: good}, {Name: "big", Puzzle: big}}
	b := EdgeMatch{Items: items, Algo: "lp", Solver: relax.LP{MaxMemory: 1 << 20}, Timeout: time.Minute}
	var out bytes.Buffer
	err := b.Run(context.Background(), &Writer{W: &out, JSON: true})
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if !errors.Is(err, ErrEdgeMatchFailed) || !strings.Contains(err.Error(), "1 of 2") || len(lines) != 3 || !strings.Contains(lines[1], "LP.MaxMemory") {
		t.Fatalf("err %v, output %q", err, out.String())
	}
}

// TestEdgeMatchBenchBestSeconds: an anytime solver's lines say when its
// best score came; the exact solver's do not.
func TestEdgeMatchBenchBestSeconds(t *testing.T) {
	p, _, _ := edgematch.Generate(edgematch.GenerateOptions{Rows: 7, Cols: 7, Colours: 6, Seed: 2})
	items := []EdgeMatchItem{{Name: "g", Puzzle: p}}
	for _, c := range []struct {
		algo   string
		solver edgematch.Solver
		best   bool
	}{
		{"partial", partial.Breaks{Workers: 1, Seed: 1, MaxNodes: 200_000}, true},
		{"dfs", exact.DFS{Workers: 1}, false},
	} {
		var out bytes.Buffer
		b := EdgeMatch{Items: items, Algo: c.algo, Solver: c.solver, Timeout: time.Minute}
		if err := b.Run(context.Background(), &Writer{W: &out, JSON: true}); err != nil {
			t.Fatal(err)
		}
		line, _, _ := strings.Cut(out.String(), "\n")
		var rec catalog.EdgeMatchRecord
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(line, `"best_seconds"`); got != c.best || (c.best && (rec.BestSeconds <= 0 || rec.BestSeconds > rec.Seconds)) {
			t.Errorf("%s: best_seconds %v of %v s in %s", c.algo, rec.BestSeconds, rec.Seconds, line)
		}
	}
}

// FuzzSplitJournal: no journal makes its reader panic or hang; what it
// accepts is a prefix of complete lines, each subtree with a prefix of the
// pieces of the puzzle, no deeper than the split.
func FuzzSplitJournal(f *testing.F) {
	p, _, err := edgematch.Generate(edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: 3, Cols: 3, Colours: 2, Frame: 1, Seed: 1})
	if err != nil {
		f.Fatal(err)
	}
	head := SplitJournalHeader{Journal: journalKind, Puzzle: PuzzleDigest(p), Order: "auto", Depth: 2, Count: true}
	line, _ := json.Marshal(head)
	line = append(line, '\n')
	f.Add(line)
	f.Add(append(bytes.Clone(line), `{"subtree":1,"prefix":"1/0 2/3","placements":10,"solutions":0,"max_depth":4,"seconds":0.1}`+"\n"...))
	f.Add(append(bytes.Clone(line), `{"subtree":1,"prefix":"1/0 2/3","placements":10,"solutions":1,"max_depth":9,"seconds":0.1,"board":"3 3\n1/0 2/0 3/0\n4/0 5/0 6/0\n7/0 8/0 9/0\n"}`+"\n"...))
	f.Add(append(bytes.Clone(line), `{"subtree":1,"prefix":"1/0`...))
	f.Add([]byte("not a journal\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		searched, good, err := readSplitJournal(bytes.NewReader(data), head, p)
		if err != nil {
			return
		}
		if good > int64(len(data)) || good > 0 && data[good-1] != '\n' {
			t.Fatalf("%d good bytes of %d", good, len(data))
		}
		for _, ss := range searched {
			if len(ss.Prefix) > head.Depth {
				t.Fatalf("a prefix of %d at depth %d", len(ss.Prefix), head.Depth)
			}
			for _, pl := range ss.Prefix {
				if pl.Piece < 0 || pl.Piece >= len(p.Tiles) || pl.Rot < 0 || pl.Rot > 3 {
					t.Fatalf("placement %+v", pl)
				}
			}
		}
	})
}

// TestSplitJournalLocked: while a run holds a journal, a second run given
// it is refused (it would search the same subtrees again and record them
// twice); once the first closes it, the journal opens again.
func TestSplitJournalLocked(t *testing.T) {
	if !flock.Supported {
		t.Skip("no flock(2) here: journals are not locked")
	}
	p, _ := emtest.Generate(t, edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: 3, Cols: 3, Colours: 2, Frame: 1, Seed: 1})
	path := filepath.Join(t.TempDir(), "j.jsonl")
	head := SplitJournalHeader{Puzzle: PuzzleDigest(p), Order: "auto", Depth: 2, Count: true}
	j, _, err := OpenSplitJournal(path, head, p)
	if err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := OpenSplitJournal(path, head, p); !errors.Is(err, journal.ErrBusy) {
		t.Fatalf("a second open of a journal in use: %v, want %v", err, journal.ErrBusy)
	}
	if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, before) {
		t.Fatalf("the refused open changed the journal: %q, was %q (%v)", after, before, err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	j, _, err = OpenSplitJournal(path, head, p)
	if err != nil {
		t.Fatalf("the journal after its run closed it: %v", err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestSplitJournalOneSolution: without -count, a subtree has at most one
// solution.
func TestSplitJournalOneSolution(t *testing.T) {
	p, _ := emtest.Generate(t, edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: 4, Cols: 4, Colours: 3, Seed: 1})
	// Without -count, a subtree has at most one solution.
	head := SplitJournalHeader{Journal: journalKind, Puzzle: "x", Order: "auto", Depth: 2}
	line, _ := json.Marshal(head)
	bad := append(line, "\n"+`{"subtree":1,"prefix":"1/0 2/3","placements":10,"solutions":2,"max_depth":16,"seconds":0.1}`+"\n"...)
	if _, _, err := readSplitJournal(bytes.NewReader(bad), head, p); err == nil || !strings.Contains(err.Error(), "2 solutions") {
		t.Errorf("two solutions in a search for one: %v", err)
	}
}

// planted returns a framed rows x cols puzzle of rows colours (2 on the
// frame) generated from seed, and its planted solution.
func planted(t *testing.T, rows, cols int, seed uint64) (*edgematch.Puzzle, *edgematch.Board) {
	t.Helper()
	p, sol, err := edgematch.Generate(edgematch.GenerateOptions{Rows: rows, Cols: cols, Colours: rows, Frame: 2, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return p, sol
}

// The puzzle and board readers of the front ends: a file or stdin, its
// hints, and every bad input a UsageError that names the file.
func TestReadEdgeMatchInput(t *testing.T) {
	p, sol := planted(t, 3, 3, 2)
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	text := edgematch.Format(p, "test")
	pf, bf := write("p.txt", text), write("s.board", edgematch.Format(sol, "planted"))
	c := sol.Cells[0]
	hints := write("hints.txt", fmt.Appendf(nil, "%d 0 0 %d\n%d 0 1 %d\n", c.Piece+1, c.Rot, sol.Cells[1].Piece+1, sol.Cells[1].Rot))
	got, err := ReadEdgeMatchPuzzle(pf, nil, EdgeMatchHints{File: hints, N: 1})
	if err != nil || len(got.Tiles) != len(p.Tiles) || len(got.Hints) != 1 {
		t.Fatalf("file with a hint: %v", err)
	}
	if got, err = ReadEdgeMatchPuzzle("-", strings.NewReader(string(text)), EdgeMatchHints{}); err != nil || len(got.Tiles) != len(p.Tiles) {
		t.Fatalf("stdin: %v", err)
	}
	if b, err := ReadEdgeMatchBoard(bf, got); err != nil || !got.Score(b).Solved() {
		t.Fatalf("board: %v", err)
	}
	var ue *UsageError
	for name, err := range map[string]error{
		"missing":        second(ReadEdgeMatchPuzzle(filepath.Join(dir, "none.txt"), nil, EdgeMatchHints{})),
		"folder":         second(ReadEdgeMatchPuzzle(dir, nil, EdgeMatchHints{})),
		"malformed":      second(ReadEdgeMatchPuzzle(write("bad.txt", []byte("3 3\n1 2\n")), nil, EdgeMatchHints{})),
		"stdin":          second(ReadEdgeMatchPuzzle("-", strings.NewReader("x"), EdgeMatchHints{})),
		"-nhints alone":  second(ReadEdgeMatchPuzzle(pf, nil, EdgeMatchHints{N: 1})),
		"-nhints -1":     second(ReadEdgeMatchPuzzle(pf, nil, EdgeMatchHints{File: hints, N: -1})),
		"missing hints":  second(ReadEdgeMatchPuzzle(pf, nil, EdgeMatchHints{File: filepath.Join(dir, "none")})),
		"board of other": second(ReadEdgeMatchBoard(write("o.board", []byte("2 2\n1/0 2/0\n3/0 4/0\n")), p)),
	} {
		if !errors.As(err, &ue) {
			t.Errorf("%s: %v, want a usage error", name, err)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// The scans of estimate: the four orders, one order, the 16 corner
// scans; an unknown order and an order with the corners are usage errors.
func TestEdgeMatchScans(t *testing.T) {
	for _, c := range []struct {
		order   string
		corners bool
		n       int
	}{{"all", false, 4}, {"spiral", false, 1}, {"all", true, 16}} {
		if s, err := EdgeMatchScans(c.order, c.corners); err != nil || len(s) != c.n {
			t.Errorf("%+v: %d scans, %v", c, len(s), err)
		}
	}
	var ue *UsageError
	for _, c := range [][2]string{{"diagonal", ""}, {"rows", "corners"}} {
		if _, err := EdgeMatchScans(c[0], c[1] != ""); !errors.As(err, &ue) {
			t.Errorf("%q: %v", c, err)
		}
	}
}

// WriteEdgeMatchCNF writes a formula whose header names it, and refuses
// one above its clause bound with the bound that would allow it.
func TestWriteEdgeMatchCNF(t *testing.T) {
	p, _ := planted(t, 3, 3, 2)
	var out strings.Builder
	if err := WriteEdgeMatchCNF(t.Context(), &out, "", "p3", p, sat.SATEncodeOptions{MaxClauses: sat.DefaultSATMaxClauses}); err != nil ||
		!strings.Contains(out.String(), "p cnf ") || !strings.Contains(out.String(), "p3") {
		t.Fatalf("%v\n%.300s", err, out.String())
	}
	path := filepath.Join(t.TempDir(), "f.cnf")
	if err := WriteEdgeMatchCNF(t.Context(), nil, path, "p3", p, sat.SATEncodeOptions{MaxClauses: sat.DefaultSATMaxClauses}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != out.String() {
		t.Errorf("the file differs from stdout's formula: %v", err)
	}
	if err := WriteEdgeMatchCNF(t.Context(), &out, "", "p3", p, sat.SATEncodeOptions{MaxClauses: 10}); err == nil || !strings.Contains(err.Error(), "-max-clauses") {
		t.Errorf("10 clauses: %v", err)
	}
}

// EdgeMatchSolveRun solves a planted puzzle and saves the board it
// reports; a split count with a journal, run twice, counts the same
// solutions the second time from the journal alone; the options a solver
// does not take and a journal of another run are usage errors.
func TestEdgeMatchSolveRun(t *testing.T) {
	p, _ := planted(t, 4, 4, 3)
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

// A split count on the workers of a job server counts what it counts in
// process; the runs that cannot go to workers are usage errors.
func TestEdgeMatchSolveRunOnJobs(t *testing.T) {
	p, _ := planted(t, 4, 4, 3)
	c, err := jobs.StartEmbedded(t.Context(), jobs.ServerOptions{Dir: t.TempDir()}, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	count := catalog.EdgeMatchRun{EdgeMatchOptions: catalog.EdgeMatchOptions{Split: 2, Count: true}}
	var solutions []int64
	for _, on := range []*jobs.Client{nil, c} {
		r := EdgeMatchSolveRun{Name: "p.txt", Puzzle: p, Algo: "dfs", Run: count, Progress: progress.New(io.Discard, false), Jobs: on}
		s, err := r.Solve(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		solutions = append(solutions, s.Result.Stats.Solutions)
	}
	if solutions[0] < 1 || solutions[0] != solutions[1] {
		t.Errorf("solutions in process and on jobs: %v", solutions)
	}
	var ue *UsageError
	for _, c := range []struct {
		algo  string
		split int
	}{{"dfs", 0}, {"lp", 0}, {"sat", 2}} {
		if err := EdgeMatchOnJobs(c.algo, c.split); !errors.As(err, &ue) {
			t.Errorf("%+v on jobs: %v", c, err)
		}
	}
	if err := EdgeMatchOnJobs("lns", 0); err != nil {
		t.Errorf("lns on jobs: %v", err)
	}
}

// GenerateEdgeMatch writes a puzzle and its planted solution that read
// back as a solved board, which RenderEdgeMatch draws; bad kinds, sizes
// and -rotate on a framed puzzle are usage errors.
func TestGenerateAndRenderEdgeMatch(t *testing.T) {
	puzzle, solution, err := GenerateEdgeMatch("framed", "4x5", edgematch.GenerateOptions{Colours: 4, Frame: 2, Seed: 7})
	if err != nil || !strings.Contains(string(puzzle), "# tessera edgematch generate") {
		t.Fatalf("%v\n%s", err, puzzle)
	}
	dir := t.TempDir()
	pf, bf := filepath.Join(dir, "p.txt"), filepath.Join(dir, "s.board")
	os.WriteFile(pf, puzzle, 0o644)
	os.WriteFile(bf, solution, 0o644)
	p, b, err := ReadEdgeMatchBoardOf(pf, bf, nil, EdgeMatchHints{})
	if err != nil || !p.Score(b).Solved() {
		t.Fatalf("the planted solution: %v", err)
	}
	var out strings.Builder
	png := filepath.Join(dir, "b.png")
	var w, h int
	if err := RenderEdgeMatch(&out, png, p, b, edgematch.RenderOptions{Cell: 10}); err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Sscanf(out.String(), png+": %dx%d pixels, score 31/31", &w, &h); err != nil || w < 5*10 || h < 4*10 {
		t.Errorf("render: %v %q", err, out.String())
	}
	var ue *UsageError
	for _, c := range []struct {
		kind, size string
		o          edgematch.GenerateOptions
	}{{"round", "4x4", edgematch.GenerateOptions{Colours: 4}}, {"framed", "4", edgematch.GenerateOptions{Colours: 4}},
		{"framed", "4x4", edgematch.GenerateOptions{Colours: 4, Rotate: true}}, {"framed", "4x4", edgematch.GenerateOptions{}}} {
		if _, _, err := GenerateEdgeMatch(c.kind, c.size, c.o); !errors.As(err, &ue) {
			t.Errorf("%+v: %v", c, err)
		}
	}
}

package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tessera/edgematch"
	"tessera/edgematch/exact"
	"tessera/edgematch/partial"
	"tessera/edgematch/relax"
	"tessera/internal/catalog"
	"tessera/internal/emtest"
	"tessera/internal/flock"
	"tessera/internal/journal"
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

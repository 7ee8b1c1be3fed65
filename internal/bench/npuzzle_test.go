package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"tessera/internal/catalog"
	"tessera/npuzzle"
)

func TestNpuzzleCompare(t *testing.T) {
	var out bytes.Buffer
	done := 0
	c := NpuzzleCompare{Size: npuzzle.Size{Rows: 3, Cols: 3}, Boards: 3, Seed: 5, Uniform: true, JSON: true, Done: func() { done++ }}
	if err := c.Run(t.Context(), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	k := len(NpuzzleMethods)
	if len(lines) != 3*k+1 || done != 3*k {
		t.Fatalf("%d lines, %d done; want %d", len(lines), done, 3*k+1)
	}
	var first NpuzzleCompareRecord
	var sum NpuzzleCompareSummary
	if json.Unmarshal([]byte(lines[0]), &first) != nil || json.Unmarshal([]byte(lines[3*k]), &sum) != nil {
		t.Fatal("bad JSON")
	}
	if first.Instance != 1 || first.Board == "" || first.Solver != "bfs" || first.Method != "BFS" || !first.Optimal || !sum.Summary || len(sum.Methods) != k || sum.Methods[0].Solved != 3 {
		t.Fatalf("first %+v, summary %+v", first, sum)
	}
	// Optimal solvers agree on every board; weighted A* does not prove it.
	for _, m := range []int{1, 3, 4} {
		if sum.Methods[m].MeanLength != sum.Methods[0].MeanLength || sum.Methods[m].Optimal != 3 {
			t.Errorf("%s: %+v", sum.Methods[m].Method, sum.Methods[m])
		}
	}
	if sum.Methods[2].Optimal != 0 {
		t.Errorf("weighted A* said optimal: %+v", sum.Methods[2])
	}
	out.Reset()
	c.JSON, c.Boards = false, 1
	if err := c.Run(t.Context(), &out); err != nil || !strings.Contains(out.String(), "3x3, 1 uniformly random boards, seed 5") ||
		!strings.Contains(out.String(), "A* (Manhattan x 5)") {
		t.Fatalf("%v: %q", err, out.String())
	}
}

func TestNpuzzleSet(t *testing.T) {
	set, err := npuzzle.ParseSet(strings.NewReader("# goal blank-last\n1 2 3 4 0 6 7 5 8 2\n8 6 7 2 5 4 3 0 1 30\n"), "eight.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	s := NpuzzleSet{Title: "eight", Set: "eight.txt", Instances: set.Instances, Goal: set.Goal, Algo: "idastar",
		Options: catalog.NpuzzleOptions{Heuristic: "manhattan"}}
	if err := s.Run(t.Context(), &out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"eight, IDA*, Manhattan distance, setup 0.0 s", "instance  length  published  match", "  yes ", "  no ", "solved 2 of 2, mean length 16.50; 1 at the published length"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q: %q", want, text)
		}
	}
	out.Reset()
	s.JSON = true
	if err := s.Run(t.Context(), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var rec catalog.NpuzzleRecord
	var sum NpuzzleSetSummary
	if len(lines) != 3 || json.Unmarshal([]byte(lines[1]), &rec) != nil || json.Unmarshal([]byte(lines[2]), &sum) != nil {
		t.Fatalf("%q", out.String())
	}
	if rec.Instance != 2 || rec.Length != 31 || rec.Matched || !rec.Optimal || rec.Generated == 0 || len(rec.Moves) != 31 ||
		sum.Instances != 2 || sum.Matched != 1 || sum.Solved != 2 || sum.Goal != "blank-last" || sum.Solver != "IDA*, Manhattan distance" {
		t.Fatalf("record %+v, summary %+v", rec, sum)
	}
	// A run cut short says so, not as a failed instance.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := s.Run(ctx, &out); err == nil {
		t.Error("a cancelled run returned no error")
	}
}

// Issue 22, item 2: the count of boards is bounded before anything is
// allocated, and the boards are drawn as the solves reach them.
func TestNpuzzleCompareBoundsBoards(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	c := NpuzzleCompare{Size: npuzzle.Size{Rows: 3, Cols: 3}, Boards: NpuzzleMaxBoards + 1, Uniform: true}
	err := c.Run(ctx, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "want 1 to") {
		t.Fatalf("%d boards: %v, want a refusal naming the bound", c.Boards, err)
	}
	// Drawn one at a time, the boards are those of NpuzzleRandom.
	set := NpuzzleRandom(npuzzle.Size{Rows: 3, Cols: 3}, npuzzle.BlankLast, 5, false, 7)
	d := newNpuzzleDraw(npuzzle.Size{Rows: 3, Cols: 3}, npuzzle.BlankLast, false, 7)
	for i, inst := range set {
		if d.board(i).Line() != inst.Board.Line() {
			t.Fatalf("board %d differs", i+1)
		}
	}
}

// Issue 22, item 12: a bench where a solve failed prints everything, then
// fails.
func TestNpuzzleBenchFailedItems(t *testing.T) {
	var out bytes.Buffer
	c := NpuzzleCompare{Size: npuzzle.Size{Rows: 3, Cols: 3}, Boards: 1, Seed: 5, Uniform: true, JSON: true, Timeout: time.Nanosecond}
	err := c.Run(t.Context(), &out)
	if err == nil || !strings.Contains(err.Error(), "failed") || !strings.Contains(out.String(), `"summary":true`) {
		t.Fatalf("compare with failed solves: %v\n%s", err, out.String())
	}
	s := NpuzzleSet{Instances: NpuzzleRandom(npuzzle.Size{Rows: 3, Cols: 3}, npuzzle.BlankLast, 2, true, 1),
		Algo: "bfs", Options: catalog.NpuzzleOptions{MaxStates: 2}}
	out.Reset()
	err = s.Run(t.Context(), &out)
	if err == nil || !strings.Contains(err.Error(), "2 of 2 instances failed") || !strings.Contains(out.String(), "solved 0 of 2") {
		t.Fatalf("set with failed instances: %v\n%s", err, out.String())
	}
}

// A set file's goal comes from its goal line, -instances keeps the numbers
// listed, and a bad list or a folder is a usage error.
func TestNpuzzleReadSet(t *testing.T) {
	path := writeTemp(t, "set.txt", "# goal blank-last\n1 2 3 4 5 6 0 7 8 2\n1 2 3 4 5 6 7 0 8 1\n1 2 3 4 0 5 7 8 6 2\n")
	var s NpuzzleSet
	all, err := s.ReadSet(path, "auto", "1,3")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 3 || len(s.Instances) != 2 || s.Instances[1].Number != 3 || s.Goal != npuzzle.BlankLast ||
		!strings.Contains(s.Title, "goal blank-last (from the goal line)") {
		t.Fatalf("%d instances, kept %+v, goal %v, title %q", len(all), s.Instances, s.Goal, s.Title)
	}
	if _, err := s.ReadSet(path, "blank-first", ""); err != nil || s.Goal != npuzzle.BlankFirst || len(s.Instances) != 3 {
		t.Fatalf("-goal blank-first: %v, goal %v, %d instances", err, s.Goal, len(s.Instances))
	}
	for _, bad := range [][2]string{{path, "4"}, {t.TempDir(), ""}} {
		if _, err := s.ReadSet(bad[0], "auto", bad[1]); !isUsage(err) {
			t.Errorf("%q -instances %q: %v, want a usage error", bad[0], bad[1], err)
		}
	}
}

// Reference counts: "INSTANCE NODES" lines and comments; a malformed line
// is named by its number.
func TestNpuzzleReadReference(t *testing.T) {
	var s NpuzzleSet
	if err := s.ReadReference(writeTemp(t, "ref.txt", "# counts\n1 100\n\n7 2500\n")); err != nil || len(s.Reference) != 2 || s.Reference[7] != 2500 {
		t.Fatalf("%v, %v", err, s.Reference)
	}
	if err := s.ReadReference(writeTemp(t, "bad.txt", "1 100\n2 x\n")); err == nil || !strings.Contains(err.Error(), "bad.txt:2:") {
		t.Fatalf("bad line: %v", err)
	}
	if err := s.ReadReference(t.TempDir()); !isUsage(err) {
		t.Fatalf("a folder: %v", err)
	}
}

// The solve report for people names the solver, the moves and the setup
// of a pattern database only when one was used.
func TestWriteNpuzzleSolve(t *testing.T) {
	rec := catalog.NpuzzleRecord{Board: "1 2 3/4 5 6/7 0 8", Size: "3x3", Goal: "blank-last", Moves: "L", Length: 1, Solved: true, Optimal: true, Expanded: 1}
	var out bytes.Buffer
	WriteNpuzzleSolve(&out, rec, "A*", false)
	want := "board    1 2 3/4 5 6/7 0 8 (3x3, goal blank-last)\nsolver   A*\nmoves    L\nlength   1 (optimal)\n" +
		"search   1 expanded, 0 generated, 0 stored at peak, 0.000 s\n"
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
	if joinInts([]int{1, 2, 13}) != "1,2,13" || joinInts(nil) != "" {
		t.Fatalf("joinInts: %q", joinInts([]int{1, 2, 13}))
	}
}

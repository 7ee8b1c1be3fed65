package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/npuzzle"
)

func TestPDBBuildListAndSolve(t *testing.T) {
	cache := t.TempDir()
	build := func() []npuzzle.TableInfo {
		t.Helper()
		code, out, errOut := runCmd(t, "", "npuzzle", "pdb", "build", "-size", "3x3", "-partition", "1,2,3,4/5,6,7,8", "-cache", cache, "-json")
		if code != 0 {
			t.Fatalf("build: exit %d: %s", code, errOut)
		}
		var got struct{ Tables []npuzzle.TableInfo }
		if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Tables) != 2 {
			t.Fatalf("build: %v in %q", err, out)
		}
		return got.Tables
	}
	if tb := build(); !tb[0].Built || tb[0].Reason != "missing" || tb[0].Entries != 9*8*7*6 {
		t.Fatalf("first build: %+v", tb[0])
	}
	if tb := build(); tb[0].Built || tb[1].Built {
		t.Fatalf("second build did not use the cache: %+v", tb)
	}
	code, out, _ := runCmd(t, "", "npuzzle", "pdb", "list", "-cache", cache)
	if code != 0 || strings.Count(out, " ok") != 2 || !strings.Contains(out, "not built (tessera npuzzle pdb build -partition 7-8)") {
		t.Fatalf("list: %d %q", code, out)
	}

	// The optimal solver with the PDB: 8 6 7/2 5 4/3 0 1 is 31 moves away.
	code, out, errOut := runCmd(t, "", "npuzzle", "solve", "-algo", "idastar", "-h", "pdb", "-partition", "1,2,3,4/5,6,7,8",
		"-cache", cache, "-json", "8 6 7/2 5 4/3 0 1")
	if code != 0 {
		t.Fatalf("solve: exit %d: %s", code, errOut)
	}
	var sol struct {
		Moves, Heuristic, Partition string
		Length                      int
		Optimal                     bool
		Expanded, Generated         int64
		Seconds                     *float64
	}
	if err := json.Unmarshal([]byte(out), &sol); err != nil {
		t.Fatal(err)
	}
	if sol.Length != 31 || len(sol.Moves) != 31 || !sol.Optimal || sol.Heuristic != "pdb" || sol.Partition != "1,2,3,4/5,6,7,8" ||
		sol.Expanded == 0 || sol.Generated == 0 || sol.Seconds == nil {
		t.Fatalf("solve: %+v", sol)
	}
	code, out, _ = runCmd(t, "", "npuzzle", "solve", "-algo", "idastar", "-h", "pdb", "-partition", "1,2,3,4/5,6,7,8",
		"-cache", cache, "8 6 7/2 5 4/3 0 1")
	if code != 0 || !strings.Contains(out, "length   31 (optimal)") || !strings.Contains(out, "pattern database 1,2,3,4/5,6,7,8 (3x3) + reflection") {
		t.Fatalf("solve: %q", out)
	}
}

func TestBenchRandomOneSolver(t *testing.T) {
	code, out, errOut := runCmd(t, "", "npuzzle", "bench", "-size", "7x9", "-n", "3", "-algo", "fast", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var sum bench.NpuzzleSetSummary
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil || len(lines) != 4 || sum.Solved != 3 || sum.Size != "7x9" ||
		sum.Goal != "blank-last" || sum.MeanLength < 100 {
		t.Fatalf("%v: %q", err, out)
	}
}

func TestSolveFastLargeBoard(t *testing.T) {
	code, out, errOut := runCmd(t, "", "npuzzle", "solve", "-algo", "fast", "-shuffle", "10x10", "-uniform", "-seed", "3", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var sol struct {
		Solved, Optimal bool
		Length          int
	}
	if err := json.Unmarshal([]byte(out), &sol); err != nil || !sol.Solved || sol.Optimal || sol.Length < 500 {
		t.Fatalf("%v: %q", err, out)
	}
}

func TestBenchSet(t *testing.T) {
	// Instances 2, 5 and 9 with Manhattan distance: Korf counted 15,300,442,
	// 11,020,325 and 1,650,696 nodes with the root (the last iterations of
	// 2 and 5 are searched in parallel, with the same counts).
	code, out, errOut := runCmd(t, "", "npuzzle", "bench", "-set", "testdata/korf10.txt", "-h", "manhattan", "-instances", "2,5,9", "-workers", "3", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines: %q", len(lines), out)
	}
	want := map[int]int64{2: 15_300_442, 5: 11_020_325, 9: 1_650_696}
	for _, l := range lines[:3] {
		var r catalog.NpuzzleRecord
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if !r.Matched || r.Length != r.Published || r.Generated+1 != want[r.Instance] {
			t.Errorf("instance %d: %+v, want %d nodes with the root", r.Instance, r, want[r.Instance])
		}
	}
	var sum bench.NpuzzleSetSummary
	if err := json.Unmarshal([]byte(lines[3]), &sum); err != nil || !sum.Summary || sum.Instances != 3 || sum.Matched != 3 ||
		sum.Goal != "blank-first" || sum.Workers != 3 || sum.Nodes != 15_300_441+11_020_324+1_650_695 {
		t.Fatalf("summary %+v: %v", sum, err)
	}

	// The human table; the goal of Korf's boards comes from the boards
	// (each 4x4 board is solvable for one goal only); a 3x3 set without a
	// goal line or a goal in its name needs -goal.
	code, out, _ = runCmd(t, "", "npuzzle", "bench", "-set", "testdata/korf10.txt", "-h", "manhattan", "-instances", "9")
	if code != 0 || !strings.Contains(out, "goal blank-first (from the boards)") || !strings.Contains(out, "1 at the published length") {
		t.Fatalf("table: %q", out)
	}
	code, _, errOut = runCmd(t, "", "npuzzle", "bench", "-set", "testdata/eight.txt", "-h", "manhattan")
	if code != 2 || !strings.Contains(errOut, "cannot tell the goal") {
		t.Fatalf("eight.txt without -goal: %d %q", code, errOut)
	}
	code, out, _ = runCmd(t, "", "npuzzle", "bench", "-set", "testdata/eight.txt", "-goal", "blank-last", "-algo", "fast")
	if code != 0 || !strings.Contains(out, "solved 2 of 2") {
		t.Fatalf("eight.txt: %d %q", code, out)
	}
	// A goal line decides it.
	eight, err := os.ReadFile("testdata/eight.txt")
	if err != nil {
		t.Fatal(err)
	}
	withGoal := filepath.Join(t.TempDir(), "eight.txt")
	if err := os.WriteFile(withGoal, append([]byte("# goal blank-first\n"), eight...), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCmd(t, "", "npuzzle", "bench", "-set", withGoal, "-algo", "astar")
	if code != 0 || !strings.Contains(out, "goal blank-first (from the goal line)") || !strings.Contains(out, "solved 2 of 2") {
		t.Fatalf("eight.txt with a goal line: %d %q", code, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-set", "testdata/nosuch.txt"}, "no such file"},
		{[]string{"-set", "testdata/korf10.txt", "-instances", "0-3"}, "not a number or range"},
		{[]string{"-set", "testdata/korf10.txt", "-partition", "6-6-6-6"}, "is for 5x5 boards"},
		{[]string{"-instances", "3"}, "-instances applies to -set only"},
		{[]string{"-set", "testdata/korf10.txt", "-workers", "0"}, "want at least 1"},
	} {
		code, _, errOut := runCmd(t, "", append([]string{"npuzzle", "bench"}, c.args...)...)
		if code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, %q; want %q", c.args, code, errOut, c.want)
		}
	}
}

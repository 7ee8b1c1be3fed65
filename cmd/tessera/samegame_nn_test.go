package main

import (
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/samegame"
)

const solvedFile = "../../samegame/policy/testdata/solved.txt"

func TestSamegameDataset(t *testing.T) {
	out := filepath.Join(t.TempDir(), "data.txt")
	code, stdout, errOut := runCmd(t, "", "samegame", "dataset", "-n", "3", "-seed", "4", "-size", "4x3", "-colors", "3", "-o", out)
	if code != 0 || !strings.Contains(stdout, "3 boards, 3 solved optimally") {
		t.Fatalf("exit %d: %s %s", code, stdout, errOut)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := samegame.ParseSet(strings.NewReader(string(data)), samegame.Dust)
	if err != nil || len(entries) != 3 {
		t.Fatalf("%d entries, %v", len(entries), err)
	}
	for _, e := range entries {
		moves := make([]samegame.Move, len(e.Moves))
		for i, r := range e.Moves {
			moves[i] = r.Move
		}
		res, err := samegame.Replay(e.Board, moves)
		if err != nil || !res.Cleared || res.Clicks != e.Optimal {
			t.Fatalf("%s: %d clicks, optimal %d, %v", e.Name, res.Clicks, e.Optimal, err)
		}
	}
	if code, _, _ := runCmd(t, "", "samegame", "dataset", "-n", "1", "-solver", "nrpa", "-o", out); code != 2 {
		t.Errorf("-solver nrpa: exit %d, want 2", code)
	}
}

// TestSamegameDatasetLabels writes labelled positions of two boards, checks
// that every good click of each stays on a line of the stated length (the
// beam's), and trains a few steps on them.
func TestSamegameDatasetLabels(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "labels.txt")
	code, stdout, errOut := runCmd(t, "", "samegame", "dataset", "-n", "2", "-seed", "5", "-solver", "beam", "-width", "300",
		"-labels", "2", "-o", out)
	if code != 0 || !strings.Contains(stdout, "2 boards") || !strings.Contains(stdout, "labelled positions") {
		t.Fatalf("exit %d: %s %s", code, stdout, errOut)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := samegame.ParseSet(strings.NewReader(string(data)), samegame.Dust)
	if err != nil || len(entries) < 2*10 {
		t.Fatalf("%d entries, %v", len(entries), err)
	}
	for _, e := range entries[:6] {
		left, err := strconv.Atoi(e.Info["left"])
		if err != nil || left < e.Board.ColorsLeft() {
			t.Fatalf("%s: left %q", e.Name, e.Info["left"])
		}
		for f := range strings.SplitSeq(e.Info["good"], ";") {
			var m samegame.Move
			if _, err := fmt.Sscanf(f, "%d,%d", &m.X, &m.Y); err != nil {
				t.Fatalf("%s: good %q", e.Name, f)
			}
			child := e.Board.Clone()
			if _, err := child.Play(m); err != nil {
				t.Fatalf("%s: good click %v: %v", e.Name, m, err)
			}
			// A wider beam from the child finds a line of left-1 clicks
			// (the labels' beam found one).
			sol, err := samegame.Beam{Width: 5000}.Solve(t.Context(), child)
			if err != nil || sol.Clicks != left-1 {
				t.Fatalf("%s: after good click %v: %d clicks (left %d), %v", e.Name, m, sol.Clicks, left, err)
			}
		}
	}
	model := filepath.Join(dir, "m.nn")
	code, stdout, errOut = runCmd(t, "", "samegame", "train", "-data", out, "-steps", "3", "-batch", "8",
		"-conv", "4", "-hidden", "16", "-o", model)
	if code != 0 || !strings.Contains(stdout, "3 steps") {
		t.Fatalf("train: exit %d: %s %s", code, stdout, errOut)
	}
	// An afterstate network from the cell policy's layers, then greedy
	// play with it.
	after := filepath.Join(dir, "after.nn")
	code, stdout, errOut = runCmd(t, "", "samegame", "train", "-data", out, "-after", "6", "-init", model, "-steps", "3",
		"-batch", "4", "-o", after)
	if code != 0 || !strings.Contains(stdout, "3 steps") || !strings.Contains(stdout, "afterstate") {
		t.Fatalf("train -after: exit %d: %s %s", code, stdout, errOut)
	}
	code, js, errOut := runCmd(t, "", "samegame", "solve", "-json", "-algo", "nn", "-model", after, blogFile+":1")
	var got catalog.SameGameRecord
	if code != 0 || json.Unmarshal([]byte(js), &got) != nil || !got.Cleared || got.Clicks < 11 {
		t.Fatalf("solve with the afterstate network: exit %d: %s %s", code, js, errOut)
	}
	for _, bad := range [][]string{{"-after", "1"}, {"-init", after}} {
		args := append([]string{"samegame", "train", "-data", out, "-steps", "1", "-o", filepath.Join(dir, "x.nn")}, bad...)
		if code, _, _ := runCmd(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
	if code, _, _ := runCmd(t, "", "samegame", "dataset", "-n", "1", "-solver", "exact", "-labels", "2", "-o", out); code != 2 {
		t.Errorf("-labels with -solver exact: exit %d, want 2", code)
	}
	code, stdout, _ = runCmd(t, "", "samegame", "dataset", "-n", "2", "-solver", "beam", "-width", "5000", "-labels", "2",
		"-timeout", "1ns", "-o", out)
	if code != 0 || !strings.Contains(stdout, "0 boards, 0 labelled positions") || !strings.Contains(stdout, "2 boards left out") {
		t.Errorf("-timeout 1ns: exit %d: %s", code, stdout)
	}
}

// TestSamegameTrainAndSolve trains a few steps, then plays with the result
// and with the shipped network.
func TestSamegameTrainAndSolve(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.nn")
	code, stdout, errOut := runCmd(t, "", "samegame", "train", "-data", solvedFile, "-all", "-steps", "3", "-batch", "8",
		"-conv", "4", "-hidden", "16", "-o", model)
	if code != 0 || !strings.Contains(stdout, "3 steps") {
		t.Fatalf("exit %d: %s %s", code, stdout, errOut)
	}
	for _, args := range [][]string{
		{"-algo", "nn", "-model", model},
		{"-algo", "nn"},
		{"-algo", "nn-beam", "-width", "16"},
		{"-algo", "nn-after", "-views", "2"},
	} {
		code, out, errOut := runCmd(t, "", append(append([]string{"samegame", "solve", "-json"}, args...), blogFile+":1")...)
		var got catalog.SameGameRecord
		if code != 0 || json.Unmarshal([]byte(out), &got) != nil {
			t.Fatalf("%v: exit %d: %s %s", args, code, out, errOut)
		}
		// A network proves nothing: its line is optimal only by reaching the
		// file's proven optimum.
		if !got.Cleared || got.Clicks < 11 || got.Solver != args[1] || got.Proven() != (got.Clicks == got.Known) {
			t.Fatalf("%v: %+v", args, got)
		}
	}
	code, out, errOut := runCmd(t, "", "samegame", "bench", "-set", solvedFile, "-algo", "nn", "-json")
	if code != 0 || !strings.Contains(out, `"algo":"nn"`) || !strings.Contains(out, `"summary":true`) {
		t.Fatalf("bench: exit %d: %s %s", code, out, errOut)
	}
	if code, _, _ := runCmd(t, "", "samegame", "solve", "-algo", "nn", "-model", model+".missing", blogFile+":1"); code != 1 {
		t.Errorf("missing model: exit %d, want 1", code)
	}
	if code, _, errOut := runCmd(t, "", "samegame", "solve", "-algo", "nn-after", "-model", model, blogFile+":1"); code != 1 || !strings.Contains(errOut, "not an afterstate network") {
		t.Errorf("nn-after with a cell policy: exit %d, %s", code, errOut)
	}
}

// TestSamegameBenchCompare runs two algorithms on fresh boards and checks
// the comparison: exact proves every small board, the table counts every
// board once per algorithm, and the plot is a PNG.
func TestSamegameBenchCompare(t *testing.T) {
	plot := filepath.Join(t.TempDir(), "cmp.png")
	code, out, errOut := runCmd(t, "", "samegame", "bench", "-rules", "dust", "-algo", "dfs,exact", "-n", "6", "-seed", "3",
		"-size", "5x4", "-colors", "3", "-plot", plot, "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 7 {
		t.Fatalf("%d lines, want 6 boards and a summary:\n%s", len(lines), out)
	}
	var sum bench.SameGameCompareSummary
	if err := json.Unmarshal([]byte(lines[6]), &sum); err != nil || !sum.Summary {
		t.Fatalf("summary %q: %v", lines[6], err)
	}
	if sum.Proven != 6 || sum.AtBest["exact"] != 6 || sum.AtOptimum["dfs"] > 6 || sum.MeanExcess["exact"] != 0 {
		t.Fatalf("summary %+v", sum)
	}
	for _, a := range []string{"dfs", "exact"} {
		n := 0
		for _, k := range sum.Excess[a] {
			n += k
		}
		if n != 6 {
			t.Errorf("%s: the excess table counts %d boards", a, n)
		}
	}
	f, err := os.Open(plot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if cfg, err := png.DecodeConfig(f); err != nil || cfg.Width < 500 {
		t.Fatalf("plot: %+v, %v", cfg, err)
	}
	code, out, _ = runCmd(t, "", "samegame", "bench", "-algo", "nn,nn-value,beam", "-width", "50", "-n", "2", "-seed", "1")
	if code != 0 || !strings.Contains(out, "mean excess") || !strings.Contains(out, "nn-value") {
		t.Fatalf("exit %d: %s", code, out)
	}
	if code, _, _ := runCmd(t, "", "samegame", "bench", "-algo", "nn,nn", "-n", "2"); code != 2 {
		t.Errorf("-algo nn,nn: exit %d, want 2", code)
	}
	if code, _, _ := runCmd(t, "", "samegame", "bench", "-algo", "nn,dfs", "-n", "2", "-o", plot+".txt"); code != 2 {
		t.Errorf("-o with two algorithms: exit %d, want 2", code)
	}
}

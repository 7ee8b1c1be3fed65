package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	} {
		code, out, errOut := runCmd(t, "", append(append([]string{"samegame", "solve", "-json"}, args...), blogFile+":1")...)
		var got sgSolveJSON
		if code != 0 || json.Unmarshal([]byte(out), &got) != nil {
			t.Fatalf("%v: exit %d: %s %s", args, code, out, errOut)
		}
		if !got.Cleared || got.Clicks < 11 || got.Algo != args[1] || got.Optimal {
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
}

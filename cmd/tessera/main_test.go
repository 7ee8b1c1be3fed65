package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/npuzzle"
)

// runCmd runs a command line and returns its exit status and outputs.
// generateFiles runs "FAMILY generate ARGS" into a new temporary folder,
// with the planted solution in the file named solution ("": none), and
// returns the folder and the puzzle's and the solution's paths.
func generateFiles(t *testing.T, family, solution string, args ...string) (dir, puzzle, sol string) {
	t.Helper()
	dir = t.TempDir()
	puzzle = filepath.Join(dir, "p.txt")
	args = append([]string{family, "generate", "-o", puzzle}, args...)
	if solution != "" {
		sol = filepath.Join(dir, solution)
		args = append(args, "-solution", sol)
	}
	mustRunCmd(t, args...)
	return dir, puzzle, sol
}

// mustRunCmd runs a command line that must succeed (exit 0) and returns
// its stdout.
func mustRunCmd(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errOut := runCmd(t, "", args...)
	if code != 0 {
		t.Fatalf("%q: exit %d: %s", args, code, errOut)
	}
	return out
}

func runCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(t.Context(), args, &Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut})
	return code, out.String(), errOut.String()
}

func TestHelp(t *testing.T) {
	code, out, _ := runCmd(t, "", "help")
	if code != 0 || !strings.Contains(out, "npuzzle") {
		t.Fatalf("help: %d %q", code, out)
	}
	code, out, _ = runCmd(t, "", "help", "npuzzle")
	for _, verb := range []string{"solve", "shuffle", "play", "bench"} {
		if code != 0 || !strings.Contains(out, verb) {
			t.Fatalf("help npuzzle lacks %s: %q", verb, out)
		}
	}
	code, out, _ = runCmd(t, "", "help", "npuzzle", "solve")
	if code != 0 || !strings.Contains(out, "-algo") || !strings.Contains(out, "-timeout") {
		t.Fatalf("help npuzzle solve: %q", out)
	}
	for _, id := range catalog.Npuzzle.IDs() { // the catalogue's solvers
		if !strings.Contains(out, "\n  "+id+" ") {
			t.Errorf("help npuzzle solve lacks solver %s: %q", id, out)
		}
	}
	if code, _, errOut := runCmd(t, "", "nosuch"); code != 2 || !strings.Contains(errOut, "unknown command") {
		t.Fatalf("unknown command: %d %q", code, errOut)
	}
	if code, _, _ := runCmd(t, ""); code != 2 {
		t.Fatalf("no arguments: exit %d, want 2", code)
	}
}

func TestSolveJSON(t *testing.T) {
	code, out, errOut := runCmd(t, "", "npuzzle", "solve", "-algo", "idastar", "-json", "1 2 3/4 0 6/7 5 8")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Moves     string
		Length    int
		Optimal   bool
		Expanded  int64
		Generated int64
		Seconds   *float64
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	if got.Moves != "UL" || got.Length != 2 || !got.Optimal || got.Expanded == 0 || got.Generated == 0 || got.Seconds == nil {
		t.Fatalf("got %+v", got)
	}
}

func TestSolveFlagsAfterBoardAndStdin(t *testing.T) {
	code, out, _ := runCmd(t, "1 2 3\n4 0 6\n7 5 8\n", "npuzzle", "solve", "-", "-algo", "bibfs")
	if code != 0 || !strings.Contains(out, "moves    UL") || !strings.Contains(out, "(optimal)") {
		t.Fatalf("exit %d, %q", code, out)
	}
}

func TestSolveErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"npuzzle", "solve", "2 1 3/4 5 6/7 8 0"}, 1, "not solvable"},
		{[]string{"npuzzle", "solve", "1 2 3/4 5 6/7 8 8"}, 2, "appears twice"}, // bad input named on the command line
		{[]string{"npuzzle", "solve", "1 2 3 x"}, 2, ""},
		{[]string{"npuzzle", "solve", "-timeout", "-1s", "1 2 3 4 5 6 7 0 8"}, 2, "-timeout"},
		{[]string{"npuzzle", "solve", "-max-mem", "-5", "1 2 3 4 5 6 7 0 8"}, 2, "-max-mem"},
		{[]string{"npuzzle", "solve", "-max-states", "-5", "1 2 3 4 5 6 7 0 8"}, 2, "-max-states"},
		{[]string{"npuzzle", "bench", "-n", "1000000000"}, 2, "-n 1000000000 out of range"},
		{[]string{"npuzzle", "bench", "-timeout", "-1s"}, 2, "-timeout"},
		{[]string{"npuzzle", "bench", "-n", "1", "-timeout", "1ns"}, 1, "5 of 5 solves failed"},
		{[]string{"npuzzle", "solve"}, 2, "no board given"},
		{[]string{"npuzzle", "solve", "-algo", "dfs", "1 2 3 4 5 6 7 0 8"}, 2, "unknown solver"},
		{[]string{"npuzzle", "solve", "-w", "0.5", "1 2 3 4 5 6 7 0 8"}, 2, "at least 1"},
		{[]string{"npuzzle", "solve", "-nosuchflag"}, 2, "flag provided but not defined"},
		{[]string{"npuzzle", "solve", "-algo", "bfs", "-max-states", "1000", "-goal", "blank-first",
			"14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"}, 1, "budget exhausted"},
		{[]string{"npuzzle", "solve", "-algo", "idastar", "-timeout", "20ms", "-goal", "blank-first",
			"14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"}, 1, "no solution within -timeout"},
	}
	for _, c := range cases {
		code, out, errOut := runCmd(t, "", c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want exit %d and %q", c.args, code, errOut, out, c.code, c.want)
		}
	}
}

func TestShuffleIsRepeatableAndSolvable(t *testing.T) {
	_, a, _ := runCmd(t, "", "npuzzle", "shuffle", "-size", "4x4", "-seed", "7")
	_, b, _ := runCmd(t, "", "npuzzle", "shuffle", "-size", "4x4", "-seed", "7", "-uniform")
	_, a2, _ := runCmd(t, "", "npuzzle", "shuffle", "-size", "4x4", "-seed", "7")
	if a != a2 || a == b || strings.Count(a, "\n") != 4 {
		t.Fatalf("shuffles: %q %q %q", a, a2, b)
	}
	// A 3x3 shuffle solves in milliseconds; a 4x4 one can take the generic
	// IDA* a minute on a loaded machine.
	_, small, _ := runCmd(t, "", "npuzzle", "shuffle", "-size", "3x3", "-seed", "7")
	code, out, errOut := runCmd(t, small, "npuzzle", "solve", "-algo", "idastar", "-")
	if code != 0 || !strings.Contains(out, "optimal") {
		t.Fatalf("solving the shuffle: %d %q %q", code, out, errOut)
	}
}

func TestBenchJSON(t *testing.T) {
	code, out, errOut := runCmd(t, "", "npuzzle", "bench", "-size", "3x3", "-n", "3", "-seed", "5", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3*len(bench.NpuzzleMethods)+1 {
		t.Fatalf("%d lines, want %d", len(lines), 3*len(bench.NpuzzleMethods)+1)
	}
	var sum struct {
		Summary bool
		Methods []bench.NpuzzleMethodSummary
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil || !sum.Summary || len(sum.Methods) != len(bench.NpuzzleMethods) {
		t.Fatalf("summary %q: %v", lines[len(lines)-1], err)
	}
	// BFS, bidirectional BFS, A* (Manhattan) and IDA* are optimal; they
	// agree on the mean length.
	for _, i := range []int{1, 3, 4} {
		if sum.Methods[i].MeanLength != sum.Methods[0].MeanLength || sum.Methods[i].Optimal != 3 {
			t.Errorf("%s: mean length %v, BFS %v", sum.Methods[i].Method, sum.Methods[i].MeanLength, sum.Methods[0].MeanLength)
		}
	}
	code, out, _ = runCmd(t, "", "npuzzle", "bench", "-n", "2")
	if code != 0 || !strings.Contains(out, "A* (Manhattan x 5)") || !strings.Contains(out, "~100,000") {
		t.Fatalf("table: %q", out)
	}
}

func TestPlayScripted(t *testing.T) {
	// A hint, then auto-solve to the victory message (internal/play tests
	// the game itself).
	code, out, errOut := runCmd(t, "h"+"a"+"q", "npuzzle", "play", "-size", "3x3", "-seed", "3", "-delay", "0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"hint: ", "moves to go", "auto: move 1 of", "Solved in", "bye"} {
		if !strings.Contains(out, want) {
			t.Errorf("play output lacks %q", want)
		}
	}
}

func mustSize(t *testing.T, s string) npuzzle.Size {
	t.Helper()
	sz, err := npuzzle.ParseSize(s)
	if err != nil {
		t.Fatal(err)
	}
	return sz
}

// TestNegativeDurationsRefused: every -timeout (and -think) refuses a
// negative duration as a usage error, before any input is read (issue 22,
// item 14: main accepted them silently in several verbs).
func TestNegativeDurationsRefused(t *testing.T) {
	for _, args := range [][]string{
		{"npuzzle", "solve", "-timeout", "-1s", "1 2 3/4 5 6/7 0 8"},
		{"npuzzle", "bench", "-size", "3x3", "-n", "1", "-timeout", "-1s"},
		{"jigsaw", "solve", "-timeout", "-1s", "missing.png"},
		{"jigsaw", "scramble", "-timeout", "-2m", "missing.png"},
		{"jigsaw", "bench", "-set", "missing", "-timeout", "-1s"},
		{"edgematch", "solve", "-timeout", "-5s", "missing.txt"},
		{"samegame", "solve", "-timeout", "-1s", "missing.txt"},
		{"samegame", "play", "-think", "-1s"},
		{"tangram", "solve", "-timeout", "-1s", "missing.txt"},
	} {
		code, _, errOut := runCmd(t, "", args...)
		if code != exitUsage || !strings.Contains(errOut, "negative duration") {
			t.Errorf("%v: exit %d, stderr %q; want a usage error naming the negative duration", args, code, errOut)
		}
	}
}

// TestFloatFlagsFinite: every float flag refuses NaN and the infinities
// when the flags are parsed, a usage error (issue 38, item 7: -w NaN
// passed the weight's check, -lr NaN wrote a model of NaN weights).
func TestFloatFlagsFinite(t *testing.T) {
	for _, args := range [][]string{
		{"npuzzle", "solve", "-w", "NaN", "1 2 3/4 0 6/7 5 8"},
		{"npuzzle", "solve", "-w", "+Inf", "1 2 3/4 0 6/7 5 8"},
		{"jigsaw", "neural", "train", "-lr", "NaN", "-train", "nowhere", "-o", "nowhere.model"},
		{"jigsaw", "neural", "solve", "-cpuct", "NaN"},
		{"jigsaw", "solve", "-mutation", "-Inf"},
		{"samegame", "train", "-lr", "nan", "-data", "nowhere", "-o", "nowhere.model"},
		{"tangram", "render", "-scale", "Inf", "p.txt", "-o", "x.png"},
	} {
		code, out, errOut := runCmd(t, "", args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, "is not a finite number") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want a usage error", args, code, out, errOut)
		}
	}
}

// An unsolvable board's message names the goal assumed and the other goals
// (issue 39 item 10: the textbook 8-puzzle was "not solvable", no more).
func TestUnsolvableNamesTheGoal(t *testing.T) {
	code, _, errOut := runCmd(t, "", "npuzzle", "solve", "2 8 3/1 6 4/7 0 5")
	if code != exitFailed || !strings.Contains(errOut, "for the goal blank-last (1 2 3/4 5 6/7 8 0)") || !strings.Contains(errOut, "-goal") {
		t.Fatalf("exit %d, %q", code, errOut)
	}
}

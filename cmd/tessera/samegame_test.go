package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/samegame"
)

const (
	blogFile     = "../../samegame/testdata/dust_blog_examples.txt"
	standardFile = "../../samegame/testdata/standard20.txt"
)

func TestSamegameHelp(t *testing.T) {
	code, out, _ := runCmd(t, "", "help", "samegame")
	for _, verb := range []string{"solve", "play", "generate", "bench"} {
		if code != 0 || !strings.Contains(out, verb) {
			t.Fatalf("help samegame lacks %s: %q", verb, out)
		}
	}
	// help samegame solve lists the catalogue.
	code, out, _ = runCmd(t, "", "help", "samegame", "solve")
	for _, id := range []string{"exact", "nrpa", "nn-after", "nn-mcts"} {
		if code != 0 || !strings.Contains(out, "\n  "+id+" ") {
			t.Fatalf("help samegame solve lacks %s: %q", id, out)
		}
	}
}

func TestSamegameSolveExact(t *testing.T) {
	code, out, errOut := runCmd(t, "", "samegame", "solve", "-algo", "exact", "-json", blogFile+":1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got catalog.SameGameRecord
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	if got.Clicks != 11 || !got.Proven() || !got.Cleared || got.Rules != "dust" || got.Name != "example dfs-post" {
		t.Fatalf("got %+v", got)
	}
	// The printed clicks replay.
	b, _ := samegame.ParseBoard("GGGGBOYO/RORGYGBY/RRBGOORG/BRBOBYRG/BRYBBRGG/OYGGRORG", samegame.Dust)
	moves, err := samegame.ParseMoves(got.Moves)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := samegame.Replay(b, moves); err != nil || !res.Cleared || res.Clicks != 11 {
		t.Fatalf("replay: %+v %v", res, err)
	}
}

// Without -algo a dust board is proved by exact, and when the proof runs
// out its best line is the answer (exit 0, not proven); -algo exact fails
// there. A standard board gets NRPA.
func TestSamegameSolveDefault(t *testing.T) {
	for _, c := range []struct {
		args          []string
		code          int
		solver        string
		proven, error bool
	}{
		{[]string{blogFile + ":1"}, 0, "exact", true, false},
		{[]string{"-timeout", "5ms", blogFile + ":2"}, 0, "exact", false, false},
		{[]string{"-algo", "exact", "-timeout", "5ms", blogFile + ":2"}, 1, "exact", false, true},
		{[]string{"-timeout", "300ms", standardFile + ":1"}, 0, "nrpa", false, false},
	} {
		code, out, errOut := runCmd(t, "", append([]string{"samegame", "solve", "-json"}, c.args...)...)
		var got catalog.SameGameRecord
		if code != c.code || json.Unmarshal([]byte(out), &got) != nil {
			t.Fatalf("%v: exit %d, %s %s", c.args, code, out, errOut)
		}
		if got.Solver != c.solver || got.Proven() != c.proven || (got.Error != "") != c.error || got.Moves == "" {
			t.Errorf("%v: %+v", c.args, got)
		}
	}
}

func TestSamegameSolveStandard(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "moves.txt")
	code, stdout, errOut := runCmd(t, "", "samegame", "solve", standardFile+":16", "-algo", "nrpa", "-level", "1", "-timeout", "300ms", "-o", out)
	if code != 0 || !strings.Contains(stdout, "stopped by -timeout") || !strings.Contains(stdout, "score ") {
		t.Fatalf("exit %d: %s %s", code, stdout, errOut)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	moves, err := samegame.ParseMoves(string(data))
	if err != nil || len(moves) == 0 {
		t.Fatalf("moves file: %v %q", err, data)
	}
}

func TestSamegameSolveErrors(t *testing.T) {
	dir := t.TempDir()
	ragged := filepath.Join(dir, "ragged.txt")
	os.WriteFile(ragged, []byte("position 1\n1 2 3\n1 2\n"), 0o644)
	huge := filepath.Join(dir, "huge.txt") // sparse: 1 GiB that costs no disk
	if f, err := os.Create(huge); err == nil {
		f.Truncate(1 << 30)
		f.Close()
	}
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"samegame", "solve"}, 2, "want one FILE"},
		{[]string{"samegame", "solve", "-algo", "magic", blogFile}, 2, `unknown solver "magic"`},
		{[]string{"samegame", "solve", blogFile + ":3"}, 2, "has 2 boards"},
		{[]string{"samegame", "solve", blogFile + ":0"}, 2, "at least 1"},
		{[]string{"samegame", "solve", filepath.Join(dir, "none.txt")}, 1, "no such file"},
		{[]string{"samegame", "solve", ragged}, 2, "line 3"},
		{[]string{"samegame", "solve", huge}, 2, "at most 16 MiB"},
		{[]string{"samegame", "solve", "-timeout", "-1s", blogFile}, 2, "-timeout"},
		{[]string{"samegame", "bench", "-n", "2", "-timeout", "-1s"}, 2, "-timeout"},
		{[]string{"samegame", "bench", "-n", "2", "-algo", "exact", "-timeout", "1ns"}, 1, "2 of 2"},
		{[]string{"samegame", "solve", "-algo", "exact", standardFile}, 2, "-algo exact does not play standard rules"},
		{[]string{"samegame", "bench", "-n", "2", "-rules", "standard", "-algo", "exact,nrpa"}, 2, "-algo exact does not play standard rules"},
		{[]string{"samegame", "solve", "-algo", "exact", "-level", "3", blogFile}, 2, "-level applies to -algo nrpa, nmcs, not exact"},
		{[]string{"samegame", "solve", "-algo", "beam", "-dist", "3", blogFile}, 2, "-dist applies to -algo nrpa, not beam"},
		{[]string{"samegame", "bench", "-n", "2", "-algo", "beam,dfs", "-iterations", "3"}, 2, "-iterations applies to -algo nrpa, nn-mcts, not beam, dfs"},
		{[]string{"samegame", "solve", "-algo", "dfs", "-lookahead", "-1", blogFile}, 2, "-lookahead must not be negative"},
		{[]string{"samegame", "solve", "-rules", "chess", blogFile}, 2, "unknown rules"},
		{[]string{"samegame", "solve", "-algo", "exact", "-timeout", "1ms", blogFile + ":2"}, 1, "stopped by -timeout 1ms"},
	}
	for _, c := range cases {
		code, _, errOut := runCmd(t, "", c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
}

func TestSamegameGenerate(t *testing.T) {
	code, a, _ := runCmd(t, "", "samegame", "generate", "-n", "3", "-seed", "4")
	_, b, _ := runCmd(t, "", "samegame", "generate", "-n", "3", "-seed", "4")
	_, c, _ := runCmd(t, "", "samegame", "generate", "-n", "3", "-seed", "5")
	if code != 0 || a != b || a == c {
		t.Fatalf("generate is not a function of the seed:\n%s\n%s", a, c)
	}
	entries, err := samegame.ParseSet(strings.NewReader(a), samegame.Dust)
	if err != nil || len(entries) != 3 || entries[2].Name != "position 3" || entries[0].Board.Width() != 8 || entries[0].Board.Height() != 6 {
		t.Fatalf("%v %+v", err, entries)
	}
	code, std, _ := runCmd(t, "", "samegame", "generate", "-rules", "standard", "-size", "10x4", "-colors", "3")
	if e, err := samegame.ParseSet(strings.NewReader(std), samegame.Standard); code != 0 || err != nil || e[0].Board.Width() != 10 || e[0].Board.Colors() > 3 {
		t.Fatalf("standard: %v %q", err, std)
	}
	if code, _, _ := runCmd(t, "", "samegame", "generate", "-size", "21x3"); code != 2 {
		t.Fatalf("size 21x3: exit %d", code)
	}
}

func TestSamegameBench(t *testing.T) {
	dir := t.TempDir()
	set := filepath.Join(dir, "set.txt")
	if code, _, errOut := runCmd(t, "", "samegame", "generate", "-n", "4", "-size", "6x4", "-seed", "2", "-o", set); code != 0 {
		t.Fatal(errOut)
	}
	solved := filepath.Join(dir, "solved.txt")
	code, out, errOut := runCmd(t, "", "samegame", "bench", "-set", set, "-algo", "exact", "-json", "-workers", "2", "-o", solved)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines: %q", len(lines), out)
	}
	total := 0
	for i, l := range lines[:4] {
		var r struct {
			Board   int
			Clicks  int
			Optimal *bool
			Seconds *float64
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r.Board != i+1 || r.Optimal == nil || !*r.Optimal || r.Seconds == nil || r.Clicks == 0 {
			t.Fatalf("line %d: %s", i, l)
		}
		total += r.Clicks
	}
	var s bench.SameGameSummary
	if err := json.Unmarshal([]byte(lines[4]), &s); err != nil || !s.Summary || s.Boards != 4 || s.Total != total || s.Proven != 4 {
		t.Fatalf("summary %s (%v)", lines[4], err)
	}
	// DFS on the solved file, boards 2 and 4: compared with the optima.
	code, out, errOut = runCmd(t, "", "samegame", "bench", "-set", solved, "-algo", "dfs", "-boards", "2,4", "-timeout", "2s")
	if code != 0 || !strings.Contains(out, "2 boards, dust rules, dfs") || !strings.Contains(out, "of 2 at the known optimum") {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	if code, _, errOut := runCmd(t, "", "samegame", "bench", "-set", set, "-boards", "5"); code != 2 || !strings.Contains(errOut, "from 1 to 4") {
		t.Fatalf("-boards 5: %d %s", code, errOut)
	}
}

func TestSamegamePlay(t *testing.T) {
	// Move right, click (a dust click always works), undo, hint, auto, quit.
	code, out, errOut := runCmd(t, "d uh"+"aq", "samegame", "play", "-think", "500ms", "-delay", "1ms", blogFile+":1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"removed", "undone", "hint: click", "Cleared in", "bye"} {
		if !strings.Contains(out, want) {
			t.Fatalf("play output lacks %q:\n%s", want, out[max(0, len(out)-2000):])
		}
	}
	code, out, _ = runCmd(t, "q", "samegame", "play", "-rules", "standard", "-size", "5x5", "-seed", "3")
	if code != 0 || !strings.Contains(out, "standard: score 0") {
		t.Fatalf("standard play: %d %s", code, out)
	}
}

// TestSamegameScore replays a solve's clicks with samegame score (argument
// and stdin) and gets the solve's score; an illegal click fails naming it.
func TestSamegameScore(t *testing.T) {
	code, out, errOut := runCmd(t, "", "samegame", "solve", "-algo", "nrpa", "-level", "1", "-nodes", "50", "-timeout", "0", "-json", standardFile+":3")
	var rec catalog.SameGameRecord
	if err := json.Unmarshal([]byte(out), &rec); err != nil || rec.Moves == "" {
		t.Fatalf("solve: exit %d, %v, %s %s", code, err, out, errOut)
	}
	for _, c := range []struct{ stdin, arg string }{{"", rec.Moves}, {strings.ReplaceAll(rec.Moves, " ", "\n"), "-"}} {
		code, out, errOut = runCmd(t, c.stdin, "samegame", "score", "-json", standardFile+":3", c.arg)
		var got struct {
			Score, Clicks, Left int
		}
		if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
			t.Fatalf("score: exit %d, %v, %s %s", code, err, out, errOut)
		}
		if got.Score != rec.Score || got.Clicks != rec.Clicks || got.Left != rec.Left {
			t.Fatalf("score gives %+v, solve said score %d, %d clicks, %d left", got, rec.Score, rec.Clicks, rec.Left)
		}
	}
	if code, _, errOut := runCmd(t, "", "samegame", "score", standardFile+":3", strings.Repeat("0,0 ", 120)); code != 1 || !strings.Contains(errOut, "move ") {
		t.Fatalf("illegal clicks: exit %d, %s", code, errOut)
	}
}

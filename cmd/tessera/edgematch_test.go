package main

import (
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tessera/internal/catalog"
)

func TestEdgematchGenerateSolveScoreRender(t *testing.T) {
	dir, puzzle, sol := generateFiles(t, "edgematch", "planted.board", "-size", "5x6", "-colors", "5", "-seed", "3")
	code, out, _ := runCmd(t, "", "edgematch", "score", puzzle, sol)
	if code != 0 || !strings.Contains(out, "49/49") || !strings.Contains(out, "solved") {
		t.Fatalf("score of the planted solution: %d %q", code, out)
	}
	board := filepath.Join(dir, "b.board")
	out = mustRunCmd(t, "edgematch", "solve", puzzle, "-json", "-o", board)
	var got struct {
		Score, Max int
		Solved     bool
		Nodes      int64
		Seconds    *float64
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || !got.Solved || got.Score != 49 || got.Max != 49 || got.Nodes == 0 || got.Seconds == nil {
		t.Fatalf("solve -json: %v %q", err, out)
	}
	code, out, _ = runCmd(t, "", "edgematch", "score", "-json", puzzle, board)
	if code != 0 || !strings.Contains(out, `"solved":true`) || !strings.Contains(out, `"complete":true`) {
		t.Fatalf("score -json: %q", out)
	}
	img := filepath.Join(dir, "b.png")
	mustRunCmd(t, "edgematch", "render", puzzle, board, "-o", img, "-cell", "16")
	f, err := os.Open(img)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if im, err := png.Decode(f); err != nil || im.Bounds().Dx() < 6*16 {
		t.Fatalf("png: %v", err)
	}
	// The same puzzle by the LP and by the partial searches.
	if out = mustRunCmd(t, "edgematch", "solve", "-algo", "lp", puzzle); !strings.Contains(out, "(solved)") || !strings.Contains(out, "LPs (pdhg)") {
		t.Fatalf("lp: %q", out)
	}
	best := filepath.Join(dir, "best.board")
	if out = mustRunCmd(t, "edgematch", "solve", "-algo", "partial", "-timeout", "3s", "-seed", "2", "-o", best, puzzle); !strings.Contains(out, "seed 2") {
		t.Fatalf("partial: %q", out)
	}
	saved, err := os.ReadFile(best)
	if err != nil || !strings.Contains(string(saved), "-seed 2") || !strings.Contains(string(saved), "viewer: https://e2.bucas.name/") {
		t.Fatalf("saved best: %v %q", err, saved)
	}
	mustRunCmd(t, "edgematch", "solve", "-algo", "partial", "-timeout", "1s", "-resume", best, puzzle)
	if out = mustRunCmd(t, "edgematch", "solve", "-algo", "lns", "-timeout", "3s", "-seed", "2", "-o", best, puzzle); !strings.Contains(out, "seed 2") {
		t.Fatalf("lns: %q", out)
	}
	if saved, err = os.ReadFile(best); err != nil || !strings.Contains(string(saved), "-algo lns -seed 2") {
		t.Fatalf("saved best: %v %q", err, saved)
	}
	mustRunCmd(t, "edgematch", "solve", "-algo", "lns", "-timeout", "1s", "-resume", best, puzzle)
}

func TestEdgematchCount(t *testing.T) {
	dir := t.TempDir()
	puzzle := writeTestFile(t, dir, "p.txt", solvable2x2)
	code, out, _ := runCmd(t, "", "edgematch", "solve", "-count", puzzle)
	// Trying all 4! * 4^4 placements finds 8 solutions (the package tests
	// compare counts with such brute force).
	if code != 0 || !strings.Contains(out, "count    8 solutions") {
		t.Fatalf("%d %q", code, out)
	}
}

func TestEdgematchEstimate(t *testing.T) {
	_, puzzle, _ := generateFiles(t, "edgematch", "", "-size", "4x4", "-colors", "3", "-frame", "2", "-seed", "1")
	code, out, errOut := runCmd(t, "", "edgematch", "solve", "-count", "-workers", "1", "-order", "rows", "-json", puzzle)
	var count struct{ Nodes int64 }
	if err := json.Unmarshal([]byte(out), &count); code != 0 || err != nil || count.Nodes == 0 {
		t.Fatalf("count: %d %q %s", code, out, errOut)
	}
	code, out, errOut = runCmd(t, "", "edgematch", "estimate", "-order", "rows", "-probes", "20000", "-json", puzzle)
	var est struct {
		Order         string
		Nodes, Stderr float64
		Probes        int
	}
	if err := json.Unmarshal([]byte(out), &est); code != 0 || err != nil || est.Order != "rows" || est.Probes != 20000 {
		t.Fatalf("estimate: %d %q %s", code, out, errOut)
	}
	// The package tests check the estimator itself; here only that the
	// command estimates the tree that solve searches.
	if d := est.Nodes - float64(count.Nodes); d > 4*est.Stderr+0.02*float64(count.Nodes) || -d > 4*est.Stderr+0.02*float64(count.Nodes) {
		t.Fatalf("estimate %v ± %v, the exhaustive count made %d placements", est.Nodes, est.Stderr, count.Nodes)
	}
	code, out, _ = runCmd(t, "", "edgematch", "estimate", puzzle)
	if code != 0 || strings.Count(out, "\n") != 6 || !strings.Contains(out, "spiral") {
		t.Fatalf("table: %d %q", code, out)
	}
	if code, _, _ = runCmd(t, "", "edgematch", "estimate", "-order", "zigzag", puzzle); code != 2 {
		t.Fatalf("bad order: exit %d", code)
	}
	if code, _, _ = runCmd(t, "", "edgematch", "estimate", "-scans", "-order", "rows", puzzle); code != 2 {
		t.Fatalf("-scans with -order: exit %d", code)
	}

	// A scan from another corner: solve searches it, estimate -scans
	// estimates it among 16.
	const scan = "columns from the bottom right"
	code, out, errOut = runCmd(t, "", "edgematch", "solve", "-count", "-workers", "1", "-order", scan, "-json", puzzle)
	if err := json.Unmarshal([]byte(out), &count); code != 0 || err != nil || count.Nodes == 0 {
		t.Fatalf("count in %s: %d %q %s", scan, code, out, errOut)
	}
	code, out, errOut = runCmd(t, "", "edgematch", "estimate", "-scans", "-probes", "20000", "-json", puzzle)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 16 {
		t.Fatalf("estimate -scans: %d %q %s", code, out, errOut)
	}
	found := false
	for _, l := range lines {
		if err := json.Unmarshal([]byte(l), &est); err != nil {
			t.Fatal(err)
		}
		if est.Order != scan {
			continue
		}
		found = true
		if d := est.Nodes - float64(count.Nodes); d > 4*est.Stderr+0.02*float64(count.Nodes) || -d > 4*est.Stderr+0.02*float64(count.Nodes) {
			t.Fatalf("%s: estimate %v ± %v, the exhaustive count made %d placements", scan, est.Nodes, est.Stderr, count.Nodes)
		}
	}
	if !found {
		t.Fatalf("no %q in %q", scan, out)
	}
}

func TestEdgematchBench(t *testing.T) {
	dir := t.TempDir()
	for _, s := range []string{"1", "2"} {
		runCmd(t, "", "edgematch", "generate", "-size", "4x4", "-colors", "4", "-seed", s, "-o", filepath.Join(dir, "g"+s+".txt"))
	}
	out := mustRunCmd(t, "edgematch", "bench", "-set", filepath.Join(dir, "g*.txt"), "-algo", "dfs", "-json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines: %q", len(lines), out)
	}
	var rec catalog.EdgeMatchRecord
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil || rec.Puzzle != "g1" || !rec.Solved || rec.Max != 24 {
		t.Fatalf("record %q: %v", lines[0], err)
	}
	var sum struct {
		Summary         bool
		Puzzles, Solved int
		Seconds         *float64
	}
	if err := json.Unmarshal([]byte(lines[2]), &sum); err != nil || !sum.Summary || sum.Puzzles != 2 || sum.Solved != 2 || sum.Seconds == nil {
		t.Fatalf("summary %q: %v", lines[2], err)
	}
	if out = mustRunCmd(t, "edgematch", "bench", "-kind", "kovalsky", "-size", "4x4,5x5", "-colors", "12", "-n", "2", "-algo", "lp", "-no-search"); !strings.Contains(out, "P a permutation") || !strings.Contains(out, "5x5 c12") {
		t.Fatalf("lp bench: %q", out)
	}
}

// solvable2x2 and unsolvable2x2 are 2x2 edge-matching puzzles, the second
// with a colour no other edge has.
const (
	solvable2x2   = "2 2\n0 1 2 0\n0 0 2 1\n2 1 0 0\n2 0 0 1\n"
	unsolvable2x2 = "2 2\n0 1 2 0\n0 0 2 1\n2 1 0 0\n2 0 0 3\n"
)

// writeTestFile writes text to the file name of dir and returns its path.
func writeTestFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestEdgematchErrors(t *testing.T) {
	dir := t.TempDir()
	bad := writeTestFile(t, dir, "bad.txt", "2 2\n0 1 2 0\n0 0 2 x\n")
	good := writeTestFile(t, dir, "good.txt", solvable2x2)
	dup := writeTestFile(t, dir, "dup.board", "2 2\n1/0 2/0\n2/0 4/0\n")
	unsolvable := writeTestFile(t, dir, "unsolvable.txt", unsolvable2x2)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"edgematch", "solve", bad}, 2, "bad.txt: edgematch: puzzle line 3: piece 2: colour \"x\""},
		{[]string{"edgematch", "solve", filepath.Join(dir, "missing.txt")}, 2, "missing.txt"},
		{[]string{"edgematch", "bench", "-algo", "dfs", bad}, 2, "bad.txt: edgematch: puzzle line 3"},
		{[]string{"edgematch", "score", bad, dup}, 2, "puzzle line 3"},
		{[]string{"edgematch", "score", good, bad}, 2, "board line"},
		{[]string{"edgematch", "solve", "-timeout", "-1s", good}, 2, "negative duration"},
		{[]string{"edgematch", "bench", "-timeout", "-1s", good}, 2, "negative duration"},
		{[]string{"edgematch", "solve", "-hints", good, "-nhints", "-1", good}, 2, "-nhints -1"},
		{[]string{"edgematch", "solve", "-max-nodes", "-1", good}, 2, "-max-nodes must not be negative"},
		{[]string{"edgematch", "solve", "-workers", "-3", good}, 2, "-workers must not be negative"},
		{[]string{"edgematch", "solve", "-algo", "lp", "-lp-iter", "-1", good}, 2, "-lp-iter must not be negative"},
		{[]string{"edgematch", "solve", "-algo", "lp", "-lp-time", "-1s", good}, 2, "-lp-time must not be negative"},
		{[]string{"edgematch", "solve", "-algo", "lp", "-lp-max-mem", "-1", good}, 2, "-lp-max-mem -1"},
		{[]string{"edgematch", "solve", "-algo", "lns", "-max-moves", "-5", good}, 2, "-max-moves must not be negative"},
		{[]string{"edgematch", "solve", "-algo", "dfs", "-max-moves", "5", good}, 2, "-max-moves applies to -algo lns"},
		{[]string{"edgematch", "solve", "-algo", "partial", "-max-moves", "5", good}, 2, "-max-moves applies to -algo lns"},
		{[]string{"edgematch", "solve", "-algo", "lns", "-max-nodes", "5", good}, 2, "-max-nodes applies to -algo dfs, partial, tiles, lp, not lns"},
		{[]string{"edgematch", "solve", "-algo", "sat", "-lp-iter", "3", good}, 2, "-lp-iter applies to -algo lp, not sat"},
		{[]string{"edgematch", "solve", "-algo", "breaks", good}, 2, "unknown -algo"},
		{[]string{"edgematch", "solve", "-algo", "sat", "-nats", "nats://127.0.0.1:1", good}, 2, "-nats applies to -algo dfs -split K and -algo partial, tiles and lns"},
		{[]string{"edgematch", "solve", "-algo", "anneal", good}, 2, "unknown -algo"},
		{[]string{"edgematch", "solve", "-algo", "partial", "-count", good}, 2, "-count applies to -algo dfs"},
		{[]string{"edgematch", "solve", "-resume", dup, good}, 2, "dup.board: edgematch: board line 3: column 1: piece 2 is also at row 1, column 2"},
		{[]string{"edgematch", "solve", "-algo", "lp", "-lp", "simplex", good}, 2, "unknown backend"},
		{[]string{"edgematch", "bench", "-algo", "lp", "-order", "zigzag", good}, 2, "unknown scan order"},
		{[]string{"edgematch", "solve"}, 2, "want one puzzle file"},
		{[]string{"edgematch", "solve", "-nhints", "1", good}, 2, "-nhints needs -hints"},
		{[]string{"edgematch", "solve", unsolvable}, 1, "no solution"},
		{[]string{"edgematch", "score", good, dup}, 2, "dup.board: edgematch: board line 3: column 1: piece 2 is also at row 1, column 2"},
		{[]string{"edgematch", "generate", "-size", "9"}, 2, "want ROWSxCOLS"},
		{[]string{"edgematch", "generate", "-rotate"}, 2, "-rotate applies to -kind kovalsky"},
		{[]string{"edgematch", "render", good, dup}, 2, "-o out.png is required"},
		{[]string{"edgematch", "bench", "-set", filepath.Join(dir, "none*.txt")}, 2, "no puzzle files"},
	}
	for _, c := range cases {
		code, out, errOut := runCmd(t, "", c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want exit %d and %q", c.args, code, errOut, out, c.code, c.want)
		}
	}
}

// TestEdgematchHelpListsCatalogue: help edgematch solve lists every
// solver of the catalogue with its doc line.
func TestEdgematchHelpListsCatalogue(t *testing.T) {
	code, out, _ := runCmd(t, "", "help", "edgematch", "solve")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, m := range catalog.EdgeMatch.Menu() {
		if !strings.Contains(out, m.ID) || !strings.Contains(out, m.Doc) {
			t.Errorf("help lacks %s (%s): %q", m.ID, m.Doc, out)
		}
	}
}

// TestEdgematchBenchFailedItems: a bench where some puzzle failed prints
// every record and the summary, then exits with status 1 (main: 0).
func TestEdgematchBenchFailedItems(t *testing.T) {
	dir := t.TempDir()
	good := writeTestFile(t, dir, "a.txt", solvable2x2)
	unsolvable := writeTestFile(t, dir, "b.txt", unsolvable2x2)
	code, out, errOut := runCmd(t, "", "edgematch", "bench", "-algo", "dfs", "-json", good, unsolvable)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) != 3 || !strings.Contains(lines[2], `"summary":true`) || !strings.Contains(errOut, "1 of 2 puzzles") {
		t.Fatalf("exit %d, stdout %q, stderr %q; want 1 after three lines", code, out, errOut)
	}
}

// TestEdgematchLPTooLarge: lp refuses a puzzle whose LP exceeds
// -lp-max-mem, at once, naming the need and the flag (main built it until
// it ran out of memory).
func TestEdgematchLPTooLarge(t *testing.T) {
	_, puzzle, _ := generateFiles(t, "edgematch", "", "-size", "16x16", "-colors", "8")
	code, _, errOut := runCmd(t, "", "edgematch", "solve", "-algo", "lp", "-lp-max-mem", "1", puzzle)
	if code != 1 || !strings.Contains(errOut, "over the bound of 1 MiB") || !strings.Contains(errOut, "-lp-max-mem") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

// TestEdgematchLNSMaxMoves: -max-moves makes the large neighbourhood
// search reproducible, and the report says which budget ended it (main had
// no such flag: -timeout gave a different board on each run).
func TestEdgematchLNSMaxMoves(t *testing.T) {
	_, puzzle, _ := generateFiles(t, "edgematch", "", "-size", "6x6", "-colors", "6", "-seed", "4")
	var boards []string
	for range 2 {
		code, out, errOut := runCmd(t, "", "edgematch", "solve", "-algo", "lns", "-seed", "3", "-workers", "2", "-max-moves", "50", "-timeout", "0", "-json", puzzle)
		var rec catalog.EdgeMatchRecord
		if err := json.Unmarshal([]byte(out), &rec); code != 0 || err != nil {
			t.Fatalf("exit %d: %v %q %s", code, err, out, errOut)
		}
		if rec.StoppedBy != "max-moves" && rec.StoppedBy != "target" {
			t.Fatalf("stopped by %q", rec.StoppedBy)
		}
		boards = append(boards, rec.Board)
	}
	if boards[0] != boards[1] {
		t.Fatalf("-max-moves: two runs differ:\n%s\n%s", boards[0], boards[1])
	}
	code, out, _ := runCmd(t, "", "edgematch", "solve", "-algo", "lns", "-max-moves", "50", "-timeout", "0", puzzle)
	if code != 0 || !strings.Contains(out, "ended by -max-moves 50 (reproducible") && !strings.Contains(out, "(solved)") {
		t.Fatalf("exit %d: %q", code, out)
	}
	code, out, _ = runCmd(t, "", "help", "edgematch", "solve")
	if !strings.Contains(out, "Budgets and reproducibility") {
		t.Fatalf("help: %q", out)
	}
}

// TestEdgematchSolveSnapshots: solve -algo lp -snapshots DIR writes the
// board and P after every LP and the strip; other solvers refuse the flag.
func TestEdgematchSolveSnapshots(t *testing.T) {
	dir, puzzle, _ := generateFiles(t, "edgematch", "", "-kind", "kovalsky", "-size", "4x4", "-colors", "8", "-rotate", "-seed", "2")
	snaps := filepath.Join(dir, "snaps")
	// The LP alone, as published: two LPs on this puzzle.
	code, out, errOut := runCmd(t, "", "edgematch", "solve", "-algo", "lp", "-lp-plain", "-no-search", "-snapshots", snaps, "-json", puzzle)
	var got struct {
		LPIterations int `json:"lp_iterations"`
	}
	if err := json.Unmarshal([]byte(out), &got); code > 1 || err != nil || got.LPIterations < 1 {
		t.Fatalf("solve -snapshots: %d %v %q %s", code, err, out, errOut)
	}
	size := func(name string) (int, int) {
		t.Helper()
		f, err := os.Open(filepath.Join(snaps, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return img.Bounds().Dx(), img.Bounds().Dy()
	}
	// 32-pixel cells and a 4-pixel margin; P: 16 cells x 16 pieces, 8
	// pixels an entry, a 1-pixel border.
	const board, pm = 4*32 + 2*4, 16*8 + 2
	for k := 1; k <= got.LPIterations; k++ {
		if w, h := size(fmt.Sprintf("lp-%02d-board.png", k)); w != board || h != board {
			t.Errorf("board %d: %dx%d", k, w, h)
		}
		if w, h := size(fmt.Sprintf("lp-%02d-P.png", k)); w != pm || h != pm {
			t.Errorf("P %d: %dx%d", k, w, h)
		}
	}
	if _, err := os.Stat(filepath.Join(snaps, fmt.Sprintf("lp-%02d-P.png", got.LPIterations+1))); err == nil {
		t.Errorf("more P pictures than the %d LPs", got.LPIterations)
	}
	if w, h := size("iterates.png"); w != got.LPIterations*(board+8)-8 || h != board+8+pm {
		t.Errorf("strip of %d LPs: %dx%d", got.LPIterations, w, h)
	}
	code, _, errOut = runCmd(t, "", "edgematch", "solve", "-algo", "dfs", "-snapshots", snaps, puzzle)
	if code != 2 || !strings.Contains(errOut, "-snapshots applies to -algo lp") {
		t.Errorf("dfs -snapshots: exit %d %q", code, errOut)
	}
}

// TestJournalCountsNotTrusted: a count resumed from a journal whose
// solution counts were edited reports the true count: subtrees recorded
// with solutions are searched again (issue 38, item 7: editing one number
// reported 343 solutions instead of 260).
func TestJournalCountsNotTrusted(t *testing.T) {
	dir := t.TempDir()
	puzzle, journal := filepath.Join(dir, "p.txt"), filepath.Join(dir, "j.jsonl")
	if code, _, errOut := runCmd(t, "", "edgematch", "generate", "-size", "4x4", "-colors", "3", "-seed", "1", "-o", puzzle); code != 0 {
		t.Fatal(errOut)
	}
	count := func() int64 {
		t.Helper()
		code, out, errOut := runCmd(t, "", "edgematch", "solve", "-count", "-split", "2", "-journal", journal, "-json", puzzle)
		var r struct{ Solutions int64 }
		if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil {
			t.Fatalf("exit %d %v: %s %s", code, err, out, errOut)
		}
		return r.Solutions
	}
	want := count()
	data, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	lines, edits := strings.Split(string(data), "\n"), 0
	for i, l := range lines {
		var e struct{ Solutions int64 }
		if json.Unmarshal([]byte(l), &e) == nil && e.Solutions > 0 {
			lines[i] = strings.Replace(l, fmt.Sprintf(`"solutions":%d`, e.Solutions), `"solutions":999999`, 1)
			edits++
		}
	}
	if edits == 0 {
		t.Fatalf("no subtree with solutions in %s", data)
	}
	edited := []byte(strings.Join(lines, "\n"))
	if err := os.WriteFile(journal, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := count(); got != want {
		t.Fatalf("resumed from an edited journal: %d solutions, want %d", got, want)
	}
}

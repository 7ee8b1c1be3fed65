package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEdgematchEmitAndComplete runs solve -emit on a generated puzzle,
// rescores every board it wrote, then empties cells of one and has score
// -complete fill them back.
func TestEdgematchEmitAndComplete(t *testing.T) {
	dir, puzzle, _ := generateFiles(t, "edgematch", "planted.board", "-size", "8x8", "-colors", "10", "-seed", "4")
	emit := filepath.Join(dir, "boards.jsonl")
	out := mustRunCmd(t, "edgematch", "solve", "-algo", "partial", "-workers", "1", "-seed", "2", "-max-nodes", "300000", "-timeout", "0",
		"-emit", emit, "-emit-at", "80", "-json", puzzle)
	var res struct{ Score int }
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(emit)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var last string
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e struct {
			N, Score int
			Board    string
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Score < 80 || seen[e.Board] {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		seen[e.Board] = true
		last = filepath.Join(dir, "e.board")
		if err := os.WriteFile(last, []byte(e.Board), 0o644); err != nil {
			t.Fatal(err)
		}
		var s struct {
			Score    int
			Complete bool
		}
		if err := json.Unmarshal([]byte(mustRunCmd(t, "edgematch", "score", "-json", puzzle, last)), &s); err != nil || s.Score != e.Score || !s.Complete {
			t.Fatalf("board %d: written %d, rescored %+v (%v)", e.N, e.Score, s, err)
		}
	}
	if len(seen) == 0 {
		t.Fatalf("no board of 80 or more written (best %d)", res.Score)
	}
	// The last board with its top row empty: -complete restores at least
	// its score.
	text, _ := os.ReadFile(last)
	lines := strings.Split(string(text), "\n")
	lines[1] = strings.TrimSpace(strings.Repeat("0/0 ", 8))
	part := filepath.Join(dir, "part.board")
	os.WriteFile(part, []byte(strings.Join(lines, "\n")), 0o644)
	done := filepath.Join(dir, "done.board")
	code, out, errOut := runCmd(t, "", "edgematch", "score", "-json", "-complete", "-o", done, puzzle, part)
	var s struct {
		Score    int
		Complete bool
	}
	if err := json.Unmarshal([]byte(out), &s); code != 0 || err != nil || !s.Complete || s.Score < 80 || !strings.Contains(errOut, "completed 8 empty cells: proven the best") {
		t.Fatalf("score -complete: %d %q %q", code, out, errOut)
	}
	if out = mustRunCmd(t, "edgematch", "score", "-json", puzzle, done); !strings.Contains(out, `"complete":true`) {
		t.Fatalf("the saved completion: %q", out)
	}
	// Usage errors.
	for _, args := range [][]string{
		{"edgematch", "solve", "-algo", "lns", "-emit", emit, puzzle},
		{"edgematch", "score", "-o", done, puzzle, part},
	} {
		if code, _, _ := runCmd(t, "", args...); code != 2 {
			t.Fatalf("%v: exit %d, want 2", args, code)
		}
	}
}

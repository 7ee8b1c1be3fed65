package bench

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tessera/internal/catalog"
	"tessera/npuzzle"
	"tessera/samegame"
)

// isUsage reports whether err is a UsageError (exit status 2).
func isUsage(err error) bool {
	var ue *UsageError
	return errors.As(err, &ue)
}

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
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
	for _, bad := range [][2]string{{path, "4"}, {filepath.Dir(path), ""}} {
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

// FILE:N picks the N-th board; N out of range, or 0, is a usage error;
// a name with a colon but no number is a file name.
func TestReadSameGameBoard(t *testing.T) {
	path := writeTemp(t, "b.txt", "position 1\n1 1\n2 2\n\nposition 2\n1 2\n1 2\n")
	e, rules, file, n, err := ReadSameGameBoard(nil, path+":2", "")
	if err != nil || n != 2 || file != path || rules != samegame.Standard || samegame.Line(e.Board, e.Notation) != "1 2/1 2" {
		t.Fatalf("%v: board %q, %v, %q, %d", err, samegame.Line(e.Board, e.Notation), rules, file, n)
	}
	if _, _, _, n, err := ReadSameGameBoard(nil, path, "dust"); err != nil || n != 1 {
		t.Fatalf("no :N: %v, %d", err, n)
	}
	for _, bad := range []string{path + ":3", path + ":0"} {
		if _, _, _, _, err := ReadSameGameBoard(nil, bad, ""); !isUsage(err) {
			t.Errorf("%s: %v, want a usage error", bad, err)
		}
	}
	stdin := strings.NewReader("GGB\nGBB\n")
	if e, rules, _, _, err := ReadSameGameBoard(stdin, "-", ""); err != nil || rules != samegame.Dust || e.Board.Width() != 3 {
		t.Fatalf("stdin: %v, %v", err, rules)
	}
}

// Score replays clicks: the score and cells left of a line, a usage error
// for clicks that do not parse, an error naming an illegal click.
func TestWriteSameGameScore(t *testing.T) {
	entries, err := samegame.ParseSet(strings.NewReader("position 1\n1 1\n2 2\n"), samegame.Standard)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteSameGameScore(&out, entries[0], "f", 1, "0,0\t0,0", false); err != nil ||
		out.String() != "f #1: score 1000, 2 clicks, 0 cells left, over true\n" {
		t.Fatalf("%v: %q", err, out.String())
	}
	if err := WriteSameGameScore(&out, entries[0], "f", 1, "a,b", false); !isUsage(err) {
		t.Fatalf("bad clicks: %v", err)
	}
	if err := WriteSameGameScore(&out, entries[0], "f", 1, "5,5", true); err == nil || isUsage(err) {
		t.Fatalf("illegal click: %v", err)
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

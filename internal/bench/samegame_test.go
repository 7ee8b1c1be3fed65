package bench

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"tessera/samegame"
)

// TestPrintCompareNotCleared: the means are over the boards an algorithm
// cleared, and one that cleared none shows no mean.
func TestPrintCompareNotCleared(t *testing.T) {
	s := SameGameCompareSummary{Boards: 4, Rules: "dust", Algos: []string{"a", "b"},
		Cleared: map[string]int{"a": 4, "b": 0}, MeanClicks: map[string]float64{"a": 12.5},
		MeanExcess: map[string]float64{"a": 0.25}, AtBest: map[string]int{"a": 3}, AtOptimum: map[string]int{},
		MeanSeconds: map[string]float64{"a": 0.1}, MsPerMove: map[string]float64{"a": 8}, Excess: map[string][]int{"a": {3, 1}}}
	var buf bytes.Buffer
	s.Print(&buf, time.Second)
	words := strings.Join(strings.Fields(buf.String()), " ")
	for _, want := range []string{"not cleared 0 4", "mean clicks 12.50 –", "0 (best) 3 0"} {
		if !strings.Contains(words, want) {
			t.Errorf("missing %q in:\n%s", want, buf.String())
		}
	}
}

// Issue 22, item 12: a samegame bench where a board failed prints every
// board and the summary, then returns ErrSameGameFailed (exit 1).
func TestSameGameBenchFailedBoards(t *testing.T) {
	entries := SameGameBoards(2, 1, 8, 6, 5, samegame.Dust, 0)
	for _, algos := range [][]string{{"exact"}, {"exact", "dfs"}} {
		var out bytes.Buffer
		b := &SameGame{Entries: entries, List: []int{1, 2}, Rules: samegame.Dust, Algos: algos, Timeout: time.Nanosecond, Workers: 1, JSON: true}
		_, err := b.Run(t.Context(), &out)
		if !errors.Is(err, ErrSameGameFailed) || !strings.Contains(out.String(), `"summary":true`) {
			t.Errorf("%v: %v\n%s", algos, err, out.String())
		}
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

// isUsage reports whether err is a UsageError (exit status 2).
func isUsage(err error) bool {
	var ue *UsageError
	return errors.As(err, &ue)
}

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	path := t.TempDir() + "/" + name
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"tessera/internal/catalog"
	"tessera/internal/progress"
	"tessera/npuzzle"
)

// TestNpuzzleSolver builds solvers as the command line does and checks
// their records: a known optimal length, the message of an unsolvable
// board, and the usage errors found before any database is loaded.
func TestNpuzzleSolver(t *testing.T) {
	ctx := context.Background()
	rep := progress.New(io.Discard, false)
	s3 := npuzzle.Size{Rows: 3, Cols: 3}
	sv := &NpuzzleSolver{Algo: "astar"}
	if err := sv.Build(ctx, s3, npuzzle.BlankLast, rep, io.Discard, 0, catalog.NpuzzleHooks{}); err != nil {
		t.Fatal(err)
	}
	b, err := npuzzle.Parse("8 6 7/2 5 4/3 0 1", s3)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := sv.Solve(ctx, b, npuzzle.BlankLast, 0)
	if err != nil || rec.Length != 31 || !rec.Optimal || rec.Size != "3x3" || rec.Solver != "astar" {
		t.Errorf("got %+v, %v: want the 31 moves of the hardest 8-puzzle board", rec, err)
	}
	u, _ := npuzzle.Parse("2 1 3/4 5 6/7 8 0", s3)
	if _, err := sv.Solve(ctx, u, npuzzle.BlankLast, 0); !errors.Is(err, npuzzle.ErrUnsolvable) || !strings.Contains(err.Error(), "blank-last and blank-first") {
		t.Errorf("unsolvable board: %v", err)
	}
	bad := &NpuzzleSolver{Algo: "idastar", Options: catalog.NpuzzleOptions{Heuristic: "pdb", Partition: "6-6-6-6"}}
	if err := bad.Build(ctx, npuzzle.Size{Rows: 4, Cols: 4}, npuzzle.BlankLast, rep, io.Discard, 0, catalog.NpuzzleHooks{}); !isUsage(err) {
		t.Errorf("a 5x5 partition on a 4x4 board: %v, want a usage error", err)
	}
	if _, err := NpuzzlePartition("", npuzzle.Size{}, npuzzle.BlankLast); !isUsage(err) {
		t.Errorf("no partition and no size: %v", err)
	}
}

// TestReadNpuzzleBoard reads boards from arguments and from stdin.
func TestReadNpuzzleBoard(t *testing.T) {
	b, err := ReadNpuzzleBoard(strings.NewReader("1 2 3\n4 5 6\n7 0 8\n"), []string{"-"}, npuzzle.Size{})
	if err != nil || b.Line() != "1 2 3/4 5 6/7 0 8" {
		t.Errorf("stdin: %v, %v", b, err)
	}
	if b, err = ReadNpuzzleBoard(nil, []string{"1 2 3 4", "5 6 0 7"}, npuzzle.Size{Rows: 2, Cols: 4}); err != nil || b.Size().String() != "2x4" {
		t.Errorf("arguments: %v, %v", b, err)
	}
	if _, err := ReadNpuzzleBoard(nil, []string{"1 2 3"}, npuzzle.Size{}); !isUsage(err) {
		t.Errorf("a board of three tiles: %v, want a usage error", err)
	}
}

// TestNpuzzleBoard checks the two sources of a board: the arguments or
// -shuffle, never both nor neither.
func TestNpuzzleBoard(t *testing.T) {
	ctx := context.Background()
	b, err := NpuzzleBoard(ctx, nil, nil, npuzzle.Size{}, npuzzle.BlankLast, "4x4", false, 3)
	want, _ := npuzzle.Shuffle(ctx, npuzzle.Size{Rows: 4, Cols: 4}, npuzzle.BlankLast, false, 160, 3)
	if err != nil || b.Line() != want.Line() {
		t.Errorf("-shuffle 4x4: %v, %v; want %s", b, err, want.Line())
	}
	for _, c := range []struct {
		args    []string
		shuffle string
	}{{[]string{"1 2 3/4 5 6/7 8 0"}, "3x3"}, {nil, ""}, {nil, "0x3"}} {
		if _, err := NpuzzleBoard(ctx, nil, c.args, npuzzle.Size{}, npuzzle.BlankLast, c.shuffle, false, 1); !isUsage(err) {
			t.Errorf("%q -shuffle %q: %v, want a usage error", c.args, c.shuffle, err)
		}
	}
}

// TestNpuzzleBenchCheck checks the bench's size and count, and that -n's
// help states the bound.
func TestNpuzzleBenchCheck(t *testing.T) {
	b := DefaultNpuzzleBench()
	if s, err := b.Check(); err != nil || s != (npuzzle.Size{Rows: 3, Cols: 3}) {
		t.Errorf("defaults: %v, %v", s, err)
	}
	for _, bad := range []NpuzzleBench{{Size: "0x3", N: 1}, {Size: "3x3", N: 0}, {Size: "3x3", N: NpuzzleMaxBoards + 1}} {
		if _, err := bad.Check(); !isUsage(err) {
			t.Errorf("%+v: %v, want a usage error", bad, err)
		}
	}
	for _, o := range catalog.Options(&b) {
		if o.Flag == "n" && !strings.Contains(o.Help, fmt.Sprintf("(at most %d)", NpuzzleMaxBoards)) {
			t.Errorf("-n's help %q does not state NpuzzleMaxBoards", o.Help)
		}
	}
}

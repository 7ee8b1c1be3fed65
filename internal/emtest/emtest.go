// Package emtest holds the test helpers that the edge-matching packages
// share: generating puzzles, reading the test puzzles and boards of edgematch/testdata and
// of the shared data folder, replaying recorded search runs (golden
// runs), a brute-force solution count, and the process's CPU time. Only
// tests import it.
package emtest

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"tessera/edgematch"
	"tessera/internal/datadir"
)

// testdata resolves a path "testdata/..." against edgematch/testdata, so
// that the tests of every sub-package read the same files.
func testdata(path string) string {
	if !strings.HasPrefix(path, "testdata/") {
		return path
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "edgematch", path)
}

// Generate generates a puzzle with o and returns it with its planted
// solution, failing t when o is refused.
func Generate(t testing.TB, o edgematch.GenerateOptions) (*edgematch.Puzzle, *edgematch.Board) {
	t.Helper()
	p, sol, err := edgematch.Generate(o)
	if err != nil {
		t.Fatal(err)
	}
	return p, sol
}

// MustPuzzle reads a piece set ("testdata/..." names edgematch/testdata).
func MustPuzzle(t testing.TB, path string) *edgematch.Puzzle {
	t.Helper()
	f, err := os.Open(testdata(path))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := edgematch.ParsePuzzle(f)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// MustBoard reads a board of p and checks it.
func MustBoard(t testing.TB, path string, p *edgematch.Puzzle) *edgematch.Board {
	t.Helper()
	f, err := os.Open(testdata(path))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := edgematch.ParseBoard(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(b); err != nil {
		t.Fatal(err)
	}
	return b
}

// E2 returns Eternity II with its first clues hints.
func E2(t testing.TB, clues int) *edgematch.Puzzle {
	t.Helper()
	p := MustPuzzle(t, "testdata/eternity2.txt")
	f, err := os.Open(testdata("testdata/eternity2_clues.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if p.Hints, err = edgematch.ParseHints(f, p, clues); err != nil {
		t.Fatal(err)
	}
	return p
}

// OpenT opens a file or fails the test.
func OpenT(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(testdata(path))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// SharedData returns the shared edge-matching folder or skips the test.
func SharedData(t *testing.T) string {
	t.Helper()
	dir, err := datadir.Path("edgematch")
	if err != nil {
		t.Skip(err)
	}
	return dir
}

// SharedFiles returns the files of the shared edge-matching folder that
// match the patterns (filepath.Match syntax, slash-separated, relative to
// the folder), pattern by pattern. It skips the test without the folder
// and fails it when a pattern matches nothing.
func SharedFiles(t *testing.T, patterns ...string) []string {
	t.Helper()
	dir := SharedData(t)
	var files []string
	for _, pat := range patterns {
		m, err := filepath.Glob(filepath.Join(dir, filepath.FromSlash(pat)))
		if err != nil || len(m) == 0 {
			t.Fatalf("no shared file matches %s in %s (%v)", pat, dir, err)
		}
		files = append(files, m...)
	}
	return files
}

// MustHints reads the first n hints of a clues file for p.
func MustHints(t *testing.T, path string, p *edgematch.Puzzle, n int) []edgematch.Hint {
	t.Helper()
	f := OpenT(t, path)
	defer f.Close()
	h, err := edgematch.ParseHints(f, p, n)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// BoardHash is an FNV-1a hash of a board's placements.
func BoardHash(b *edgematch.Board) uint64 {
	h := fnv.New64a()
	if b != nil {
		for _, c := range b.Cells {
			fmt.Fprintf(h, "%d/%d ", c.Piece, c.Rot)
		}
	}
	return h.Sum64()
}

// GoldenRun is what a recorded search run must repeat: placements,
// solutions, depth, score and board.
type GoldenRun struct {
	Name      string
	Nodes     int64
	Solutions int64
	Depth     int
	Score     int
	Board     uint64
}

func (g GoldenRun) String() string {
	return fmt.Sprintf("{%q, %d, %d, %d, %d, %#x}", g.Name, g.Nodes, g.Solutions, g.Depth, g.Score, g.Board)
}

// GoldenOf is the run of a result.
func GoldenOf(name string, res edgematch.Result) GoldenRun {
	return GoldenRun{name, res.Stats.Nodes, res.Stats.Solutions, res.Stats.MaxDepth, res.Score.Matched, BoardHash(res.Board)}
}

// MustGolden is GoldenOf for a solve that must succeed: it fails t when
// err is not nil.
func MustGolden(t testing.TB, name string, res edgematch.Result, err error) GoldenRun {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	return GoldenOf(name, res)
}

// CheckGolden wants got to repeat want run by run.
func CheckGolden(t *testing.T, want []GoldenRun, got []GoldenRun) {
	t.Helper()
	if len(want) != len(got) {
		for _, g := range got {
			t.Logf("%v,", g)
		}
		t.Fatalf("%d runs, want %d", len(got), len(want))
	}
	for i := range want {
		if want[i] != got[i] {
			t.Errorf("got  %v\nwant %v", got[i], want[i])
		}
	}
}

// BruteCount counts the solutions of a tiny puzzle by trying every
// placement cell by cell in reading order, checking each cell against the
// frame and its left and upper neighbours.
func BruteCount(p *edgematch.Puzzle) int64 {
	n := p.Cells()
	b := edgematch.NewBoard(p.Rows, p.Cols)
	used := make([]bool, n)
	rots := 4
	if p.FixedOrientation {
		rots = 1
	}
	ok := func(i int) bool {
		r, c := i/p.Cols, i%p.Cols
		cell := b.Cells[i]
		for d := range 4 {
			e := p.Edge(cell, d)
			if edgematch.FrameIndex(p.Rows, p.Cols, r, c, d) >= 0 {
				if e != p.FrameColour(r, c, d) {
					return false
				}
			} else if e == edgematch.Grey {
				return false
			}
		}
		if c > 0 && p.Edge(b.Cells[i-1], edgematch.East) != p.Edge(cell, edgematch.West) {
			return false
		}
		return r == 0 || p.Edge(b.Cells[i-p.Cols], edgematch.South) == p.Edge(cell, edgematch.North)
	}
	var count int64
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			count++
			return
		}
		for pc := range n {
			if used[pc] {
				continue
			}
			used[pc] = true
			seen := map[edgematch.Tile]bool{}
			for r := range rots {
				rt := p.Tiles[pc].Rotate(r)
				if seen[rt] {
					continue
				}
				seen[rt] = true
				b.Cells[i] = edgematch.Placement{Piece: pc, Rot: r}
				if ok(i) {
					rec(i + 1)
				}
			}
			used[pc] = false
		}
		b.Cells[i].Piece = edgematch.NoPiece
	}
	rec(0)
	return count
}

// BenchPlacements runs solve, which returns the placements of one run,
// in b's loop and reports placements per second of wall-clock time and
// of the process's CPU time.
func BenchPlacements(b *testing.B, solve func() int64) {
	b.ReportAllocs()
	var nodes int64
	cpu0 := ProcessCPU()
	for b.Loop() {
		nodes += solve()
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "placements/s")
	if cpu := ProcessCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(nodes)/cpu.Seconds(), "placements/cpu-s")
	}
}

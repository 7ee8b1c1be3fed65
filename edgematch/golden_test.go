package edgematch

import (
	"context"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"testing"
)

// The placement counts, solution counts and boards below were recorded by
// the backtrackers as they were at commit df51fee, before their inner loops
// were rewritten for speed (issue 26). A faster loop must walk the same
// tree in the same order: the same placements, the same solutions, the
// same boards.

// boardHash is an FNV-1a hash of a board's placements.
func boardHash(b *Board) uint64 {
	h := fnv.New64a()
	if b != nil {
		for _, c := range b.Cells {
			fmt.Fprintf(h, "%d/%d ", c.Piece, c.Rot)
		}
	}
	return h.Sum64()
}

type goldenRun struct {
	name      string
	nodes     int64
	solutions int64
	depth     int
	score     int
	board     uint64
}

func (g goldenRun) String() string {
	return fmt.Sprintf("{%q, %d, %d, %d, %d, %#x}", g.name, g.nodes, g.solutions, g.depth, g.score, g.board)
}

func goldenOf(name string, res Result) goldenRun {
	return goldenRun{name, res.Stats.Nodes, res.Stats.Solutions, res.Stats.MaxDepth, res.Score.Matched, boardHash(res.Board)}
}

func checkGolden(t *testing.T, want []goldenRun, got []goldenRun) {
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

// TestGoldenDFS replays exact searches: solution counts on generated
// puzzles (with and without identical pieces, fixed orientation, every
// scan order) and on Brendan's 6x6 and 7x7, the first solution of the
// 7x7, and budgeted searches of Eternity II.
func TestGoldenDFS(t *testing.T) {
	ctx := context.Background()
	var got []goldenRun
	gen := []GenerateOptions{
		{Kind: Framed, Rows: 5, Cols: 5, Colours: 3, Seed: 1},
		{Kind: Framed, Rows: 6, Cols: 5, Colours: 4, Seed: 2},
		{Kind: Framed, Rows: 6, Cols: 6, Colours: 6, Seed: 3},
		{Kind: Kovalsky, Rows: 4, Cols: 4, Colours: 3, Rotate: true, Seed: 4},
		{Kind: Kovalsky, Rows: 4, Cols: 5, Colours: 3, Seed: 5},
	}
	for gi, o := range gen {
		p, _, err := Generate(o)
		if err != nil {
			t.Fatal(err)
		}
		orders := []Order{OrderRows, OrderSpiral, OrderFrameFirst}
		if gi == 1 || gi == 2 {
			orders = orders[:1] // the other orders take 50 to 200 million placements
		}
		for _, ord := range orders {
			res, err := DFS{Order: ord, Count: true, Workers: 1}.Solve(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, goldenOf(fmt.Sprintf("gen%d/%v", gi, ord), res))
		}
	}
	p6 := mustPuzzle(t, "testdata/06x06.txt")
	res6, err := DFS{Count: true, Workers: 1}.Solve(ctx, p6)
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, goldenOf("06x06/count", res6))
	// Two workers split the tree but place the same pieces in all, and
	// keep the same first solution.
	g2, _, err := Generate(gen[2])
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		res, err := DFS{Count: true, Workers: 2}.Solve(ctx, g2)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, goldenOf("gen2/rows/w2", res))
	}
	p7 := mustPuzzle(t, "testdata/07x07.txt")
	res, err := DFS{Workers: 1}.Solve(ctx, p7)
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, goldenOf("07x07/first", res))
	for _, clues := range []int{1, 5} {
		res, _ := DFS{Workers: 1, MaxNodes: 3_000_000}.Solve(ctx, e2(t, clues))
		got = append(got, goldenOf(fmt.Sprintf("e2/%d clues/3M", clues), res))
	}
	want := []goldenRun{
		{"gen0/rows", 102779, 8228044800, 25, 40, 0xd48f6a6784b09f0f},
		{"gen0/spiral", 869657, 8228044800, 25, 40, 0x3565975bab1ec819},
		{"gen0/frame", 1027648, 8228044800, 25, 40, 0xbc341dd2e951213},
		{"gen1/rows", 5081168, 18279198720, 30, 49, 0xe4f063c0d873fdc6},
		{"gen2/rows", 499662, 11520, 36, 60, 0x9a0af886756128e1},
		{"gen3/rows", 137446, 1776, 16, 24, 0x3e13f3f871ddf2a8},
		{"gen3/spiral", 34429, 1776, 16, 24, 0x9dd9eb408a5c70ae},
		{"gen3/frame", 34491, 1776, 16, 24, 0x9dd9eb408a5c70ae},
		{"gen4/rows", 841, 2, 20, 31, 0xfd5d5e03f91033eb},
		{"gen4/spiral", 286, 2, 20, 31, 0xfd5d5e03f91033eb},
		{"gen4/frame", 288, 2, 20, 31, 0xfd5d5e03f91033eb},
		{"06x06/count", 52936854, 260, 36, 60, 0xa0a66ed9c3a2f37e},
		{"gen2/rows/w2", 499662, 11520, 36, 60, 0x9a0af886756128e1},
		{"gen2/rows/w2", 499662, 11520, 36, 60, 0x9a0af886756128e1},
		{"gen2/rows/w2", 499662, 11520, 36, 60, 0x9a0af886756128e1},
		{"07x07/first", 8639424, 1, 49, 84, 0x347619e417659356},
		{"e2/1 clues/3M", 3014656, 0, 201, 373, 0xa0a0c77b44b33a34},
		{"e2/5 clues/3M", 3014656, 0, 196, 359, 0xa8c582ae9548729d},
	}
	checkGolden(t, want, got)
}

// TestGoldenDFSShared counts the solutions of Brendan's puzzles up to 6x5
// from the shared data (the 6x6 is in testdata).
func TestGoldenDFSShared(t *testing.T) {
	dir := sharedData(t)
	files, _ := filepath.Glob(filepath.Join(dir, "brendan_set1", "0[3-6]x0[3-5].txt"))
	var got []goldenRun
	for _, f := range files {
		p := mustPuzzle(t, f)
		res, err := DFS{Count: true, Workers: 1}.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, goldenOf(filepath.Base(f), res))
	}
	want := []goldenRun{
		{"03x03.txt", 85, 16, 9, 12, 0x33e7aa146ddeb3ea},
		{"04x03.txt", 563, 32, 12, 17, 0x262ee193ce3bba54},
		{"04x04.txt", 3230, 36, 16, 24, 0x2d7084086317f2e7},
		{"05x03.txt", 1630, 78, 15, 22, 0x59eb96097f5c6144},
		{"05x04.txt", 132396, 1952, 20, 31, 0x4e9a8f41ca6036dc},
		{"05x05.txt", 88368, 16, 25, 40, 0x5d095cea4e5c2715},
		{"06x03.txt", 27276, 1380, 18, 27, 0x2ae6125410b42979},
		{"06x04.txt", 13659, 8, 24, 38, 0x9e4617d3d496a413},
		{"06x05.txt", 167428, 4, 30, 49, 0xea6509165bd6c4f5},
	}
	checkGolden(t, want, got)
}

// TestGoldenBreaks replays the break search and the tileability search
// for fixed seeds and node budgets on one worker. The runs were recorded
// before restarts set their own completion bar, so they carry it
// (CarryBar): the tree walked is the same either way.

package exact

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"tessera/edgematch"
	"tessera/internal/emtest"
)

// The placement counts, solution counts and boards below were recorded by
// the backtrackers as they were at commit df51fee, before their inner loops
// were rewritten for speed (issue 26). A faster loop must walk the same
// tree in the same order: the same placements, the same solutions, the
// same boards.

// TestGoldenDFS replays exact searches: solution counts on generated
// puzzles (with and without identical pieces, fixed orientation, every
// scan order) and on Brendan's 6x6 and 7x7, the first solution of the
// 7x7, and budgeted searches of Eternity II.
func TestGoldenDFS(t *testing.T) {
	ctx := context.Background()
	var got []emtest.GoldenRun
	gen := []edgematch.GenerateOptions{
		{Kind: edgematch.Framed, Rows: 5, Cols: 5, Colours: 3, Seed: 1},
		{Kind: edgematch.Framed, Rows: 6, Cols: 5, Colours: 4, Seed: 2},
		{Kind: edgematch.Framed, Rows: 6, Cols: 6, Colours: 6, Seed: 3},
		{Kind: edgematch.Kovalsky, Rows: 4, Cols: 4, Colours: 3, Rotate: true, Seed: 4},
		{Kind: edgematch.Kovalsky, Rows: 4, Cols: 5, Colours: 3, Seed: 5},
	}
	for gi, o := range gen {
		p, _ := emtest.Generate(t, o)
		orders := []edgematch.Order{edgematch.OrderRows, edgematch.OrderSpiral, edgematch.OrderFrameFirst}
		if gi == 1 || gi == 2 {
			orders = orders[:1] // the other orders take 50 to 200 million placements
		}
		for _, ord := range orders {
			res, err := DFS{Order: ord, Count: true, Workers: 1}.Solve(ctx, p)
			got = append(got, emtest.MustGolden(t, fmt.Sprintf("gen%d/%v", gi, ord), res, err))
		}
	}
	p6 := emtest.MustPuzzle(t, "testdata/06x06.txt")
	res6, err := DFS{Count: true, Workers: 1}.Solve(ctx, p6)
	got = append(got, emtest.MustGolden(t, "06x06/count", res6, err))
	// Two workers split the tree but place the same pieces in all, and
	// keep the same first solution.
	g2, _ := emtest.Generate(t, gen[2])
	for range 3 {
		res, err := DFS{Count: true, Workers: 2}.Solve(ctx, g2)
		got = append(got, emtest.MustGolden(t, "gen2/rows/w2", res, err))
	}
	p7 := emtest.MustPuzzle(t, "testdata/07x07.txt")
	res, err := DFS{Workers: 1}.Solve(ctx, p7)
	got = append(got, emtest.MustGolden(t, "07x07/first", res, err))
	for _, clues := range []int{1, 5} {
		res, _ := DFS{Workers: 1, MaxNodes: 3_000_000}.Solve(ctx, emtest.E2(t, clues))
		got = append(got, emtest.GoldenOf(fmt.Sprintf("e2/%d clues/3M", clues), res))
	}
	want := []emtest.GoldenRun{
		{Name: "gen0/rows", Nodes: 102779, Solutions: 8228044800, Depth: 25, Score: 40, Board: 0xd48f6a6784b09f0f},
		{Name: "gen0/spiral", Nodes: 869657, Solutions: 8228044800, Depth: 25, Score: 40, Board: 0x3565975bab1ec819},
		{Name: "gen0/frame", Nodes: 1027648, Solutions: 8228044800, Depth: 25, Score: 40, Board: 0xbc341dd2e951213},
		{Name: "gen1/rows", Nodes: 5081168, Solutions: 18279198720, Depth: 30, Score: 49, Board: 0xe4f063c0d873fdc6},
		{Name: "gen2/rows", Nodes: 499662, Solutions: 11520, Depth: 36, Score: 60, Board: 0x9a0af886756128e1},
		{Name: "gen3/rows", Nodes: 137446, Solutions: 1776, Depth: 16, Score: 24, Board: 0x3e13f3f871ddf2a8},
		{Name: "gen3/spiral", Nodes: 34429, Solutions: 1776, Depth: 16, Score: 24, Board: 0x9dd9eb408a5c70ae},
		{Name: "gen3/frame", Nodes: 34491, Solutions: 1776, Depth: 16, Score: 24, Board: 0x9dd9eb408a5c70ae},
		{Name: "gen4/rows", Nodes: 841, Solutions: 2, Depth: 20, Score: 31, Board: 0xfd5d5e03f91033eb},
		{Name: "gen4/spiral", Nodes: 286, Solutions: 2, Depth: 20, Score: 31, Board: 0xfd5d5e03f91033eb},
		{Name: "gen4/frame", Nodes: 288, Solutions: 2, Depth: 20, Score: 31, Board: 0xfd5d5e03f91033eb},
		{Name: "06x06/count", Nodes: 52936854, Solutions: 260, Depth: 36, Score: 60, Board: 0xa0a66ed9c3a2f37e},
		{Name: "gen2/rows/w2", Nodes: 499662, Solutions: 11520, Depth: 36, Score: 60, Board: 0x9a0af886756128e1},
		{Name: "gen2/rows/w2", Nodes: 499662, Solutions: 11520, Depth: 36, Score: 60, Board: 0x9a0af886756128e1},
		{Name: "gen2/rows/w2", Nodes: 499662, Solutions: 11520, Depth: 36, Score: 60, Board: 0x9a0af886756128e1},
		{Name: "07x07/first", Nodes: 8639424, Solutions: 1, Depth: 49, Score: 84, Board: 0x347619e417659356},
		{Name: "e2/1 clues/3M", Nodes: 3014656, Solutions: 0, Depth: 201, Score: 373, Board: 0xa0a0c77b44b33a34},
		{Name: "e2/5 clues/3M", Nodes: 3014656, Solutions: 0, Depth: 196, Score: 359, Board: 0xa8c582ae9548729d},
	}
	emtest.CheckGolden(t, want, got)
}

// TestGoldenDFSShared counts the solutions of Brendan's puzzles up to 6x5
// from the shared data (the 6x6 is in testdata).
func TestGoldenDFSShared(t *testing.T) {
	files := emtest.SharedFiles(t, "brendan_set1/0[3-6]x0[3-5].txt")
	var got []emtest.GoldenRun
	for _, f := range files {
		p := emtest.MustPuzzle(t, f)
		res, err := DFS{Count: true, Workers: 1}.Solve(context.Background(), p)
		got = append(got, emtest.MustGolden(t, filepath.Base(f), res, err))
	}
	want := []emtest.GoldenRun{
		{Name: "03x03.txt", Nodes: 85, Solutions: 16, Depth: 9, Score: 12, Board: 0x33e7aa146ddeb3ea},
		{Name: "04x03.txt", Nodes: 563, Solutions: 32, Depth: 12, Score: 17, Board: 0x262ee193ce3bba54},
		{Name: "04x04.txt", Nodes: 3230, Solutions: 36, Depth: 16, Score: 24, Board: 0x2d7084086317f2e7},
		{Name: "05x03.txt", Nodes: 1630, Solutions: 78, Depth: 15, Score: 22, Board: 0x59eb96097f5c6144},
		{Name: "05x04.txt", Nodes: 132396, Solutions: 1952, Depth: 20, Score: 31, Board: 0x4e9a8f41ca6036dc},
		{Name: "05x05.txt", Nodes: 88368, Solutions: 16, Depth: 25, Score: 40, Board: 0x5d095cea4e5c2715},
		{Name: "06x03.txt", Nodes: 27276, Solutions: 1380, Depth: 18, Score: 27, Board: 0x2ae6125410b42979},
		{Name: "06x04.txt", Nodes: 13659, Solutions: 8, Depth: 24, Score: 38, Board: 0x9e4617d3d496a413},
		{Name: "06x05.txt", Nodes: 167428, Solutions: 4, Depth: 30, Score: 49, Board: 0xea6509165bd6c4f5},
	}
	emtest.CheckGolden(t, want, got)
}

// TestGoldenBreaks replays the break search and the tileability search
// for fixed seeds and node budgets on one worker. The runs were recorded
// before restarts set their own completion bar, so they carry it
// (CarryBar): the tree walked is the same either way.

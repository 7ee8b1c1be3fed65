package partial

import (
	"context"
	"fmt"
	"testing"

	"tessera/edgematch"
	"tessera/internal/emtest"
)

func TestGoldenBreaks(t *testing.T) {
	ctx := context.Background()
	var got []emtest.GoldenRun
	p := emtest.E2(t, 1)
	for _, seed := range []uint64{1, 5} {
		res, err := Breaks{Seed: seed, Workers: 1, MaxNodes: 3_000_000, RestartNodes: 1_000_000, PolishMoves: 200, CarryBar: true}.Solve(ctx, p)
		got = append(got, emtest.MustGolden(t, fmt.Sprintf("breaks/e2/seed%d", seed), res, err))
	}
	res, err := Tiles{Seed: 4, Workers: 1, MaxNodes: 3_000_000, RestartNodes: 1_500_000, PolishMoves: 200, GroupIters: 500, CarryBar: true}.Solve(ctx, p)
	got = append(got, emtest.MustGolden(t, "tiles/e2/seed4", res, err))
	g, _ := emtest.Generate(t, edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: 10, Cols: 10, Colours: 8, Seed: 7})
	res, err = Breaks{Seed: 3, Workers: 1, MaxNodes: 2_000_000, RestartNodes: 500_000, PolishMoves: 100, CarryBar: true}.Solve(ctx, g)
	if err != nil && res.Board == nil {
		t.Fatal(err)
	}
	got = append(got, emtest.GoldenOf("breaks/gen10x10/seed3", res))
	// The partial solver's start board comes from the exact backtracker.
	res, _ = Partial{Seed: 2, Workers: 1, DFSNodes: 1_000_000, MaxMoves: 300}.Solve(ctx, g)
	got = append(got, emtest.GoldenOf("partial/gen10x10/seed2", res))
	want := []emtest.GoldenRun{
		{Name: "breaks/e2/seed1", Nodes: 3014656, Solutions: 0, Depth: 119, Score: 389, Board: 0xad45384b44f5104f},
		{Name: "breaks/e2/seed5", Nodes: 3014656, Solutions: 0, Depth: 235, Score: 450, Board: 0x688935b98a159f71},
		{Name: "tiles/e2/seed4", Nodes: 3014656, Solutions: 0, Depth: 156, Score: 412, Board: 0x31e77a7014c717d2},
		// The exact fill (the default since issue 43) completes this run's
		// near-full boards otherwise: the same placements, depth and score
		// as without it (board 0x3b5f47a8a2d57d8d), another board.
		{Name: "breaks/gen10x10/seed3", Nodes: 2031616, Solutions: 0, Depth: 96, Score: 175, Board: 0xf5cd6d511b2c9cbf},
		{Name: "partial/gen10x10/seed2", Nodes: 1172152, Solutions: 0, Depth: 100, Score: 173, Board: 0xe1b5764b5f2d0ab3},
	}
	emtest.CheckGolden(t, want, got)
}

package edgematch

import (
	"context"
	"fmt"
	"testing"
)

func TestGoldenBreaks(t *testing.T) {
	ctx := context.Background()
	var got []goldenRun
	p := e2(t, 1)
	for _, seed := range []uint64{1, 5} {
		res, err := Breaks{Seed: seed, Workers: 1, MaxNodes: 3_000_000, RestartNodes: 1_000_000, PolishMoves: 200, CarryBar: true}.Solve(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, goldenOf(fmt.Sprintf("breaks/e2/seed%d", seed), res))
	}
	res, err := Tiles{Seed: 4, Workers: 1, MaxNodes: 3_000_000, RestartNodes: 1_500_000, PolishMoves: 200, GroupIters: 500, CarryBar: true}.Solve(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, goldenOf("tiles/e2/seed4", res))
	g, _, err := Generate(GenerateOptions{Kind: Framed, Rows: 10, Cols: 10, Colours: 8, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	res, err = Breaks{Seed: 3, Workers: 1, MaxNodes: 2_000_000, RestartNodes: 500_000, PolishMoves: 100, CarryBar: true}.Solve(ctx, g)
	if err != nil && res.Board == nil {
		t.Fatal(err)
	}
	got = append(got, goldenOf("breaks/gen10x10/seed3", res))
	// The partial solver's start board comes from the exact backtracker.
	res, _ = Partial{Seed: 2, Workers: 1, DFSNodes: 1_000_000, MaxMoves: 300}.Solve(ctx, g)
	got = append(got, goldenOf("partial/gen10x10/seed2", res))
	want := []goldenRun{
		{"breaks/e2/seed1", 3014656, 0, 119, 389, 0xad45384b44f5104f},
		{"breaks/e2/seed5", 3014656, 0, 235, 450, 0x688935b98a159f71},
		{"tiles/e2/seed4", 3014656, 0, 156, 412, 0x31e77a7014c717d2},
		{"breaks/gen10x10/seed3", 2031616, 0, 96, 175, 0x3b5f47a8a2d57d8d},
		{"partial/gen10x10/seed2", 1172152, 0, 100, 173, 0xe1b5764b5f2d0ab3},
	}
	checkGolden(t, want, got)
}

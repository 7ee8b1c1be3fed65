package greedy_test

import (
	"context"
	"fmt"

	"tessera/jigsaw"
	"tessera/jigsaw/greedy"
)

// One picture of 6 x 8 pieces, pieces turned, its size told.
func Example() {
	g, err := jigsaw.CutFile("../testdata/bgu10-crop.png", 28, jigsaw.CutOptions{})
	if err != nil {
		panic(err)
	}
	pz, truth := jigsaw.Scramble([]*jigsaw.Grid{g}, jigsaw.ScrambleOptions{Rotate: true, Seed: 2})
	res, err := greedy.Solver{}.Solve(context.Background(), &jigsaw.Problem{Puzzle: pz, Rows: g.Rows, Cols: g.Cols})
	if err != nil {
		panic(err)
	}
	acc, _ := jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{})
	fmt.Println(res.Placed, "placed;", acc)
	// Output:
	// 48 placed; direct 100.00%, neighbour 100.00%, perfect true
}

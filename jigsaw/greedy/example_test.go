package greedy_test

import (
	"context"
	"fmt"

	"tessera/jigsaw"
	"tessera/jigsaw/greedy"
)

// A mixed bag of two pictures, pieces turned, sizes unknown.
func Example() {
	var grids []*jigsaw.Grid
	for _, name := range []string{"../testdata/mit5-crop.png", "../testdata/bgu10-crop.png"} {
		g, err := jigsaw.CutFile(name, 28, jigsaw.CutOptions{})
		if err != nil {
			panic(err)
		}
		grids = append(grids, g)
	}
	bag, truth := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Rotate: true, Seed: 2})
	res, err := greedy.Solver{}.Solve(context.Background(), &jigsaw.Problem{Puzzle: bag, Images: 2})
	if err != nil {
		panic(err)
	}
	acc, _ := jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{})
	fmt.Println(res.Placed, "placed in", res.Placement.Images, "pictures;", acc)
	// Output:
	// 96 placed in 2 pictures; direct 100.00%, neighbour 100.00%, perfect true
}

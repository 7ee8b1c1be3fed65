package bag_test

import (
	"context"
	"fmt"

	"tessera/jigsaw"
	"tessera/jigsaw/bag"
	"tessera/jigsaw/ga"
)

// A mixed bag of two pictures, pieces turned, sizes and count unknown.
func Example() {
	var grids []*jigsaw.Grid
	for _, name := range []string{"../testdata/mit5-crop.png", "../testdata/bgu10-crop.png"} {
		g, err := jigsaw.CutFile(name, 28, jigsaw.CutOptions{})
		if err != nil {
			panic(err)
		}
		grids = append(grids, g)
	}
	pieces, truth := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Rotate: true, Seed: 2})
	s := bag.Solver{Solver: ga.Solver{Pop: 50, Gens: 10, Seed: 1}, Mend: ga.Solver{Pop: 50, Gens: 2, Seed: 1}}
	res, err := s.Solve(context.Background(), &jigsaw.Problem{Puzzle: pieces}) // Images 0: count them
	if err != nil {
		panic(err)
	}
	acc, _ := jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{})
	fmt.Println(len(res.Placement.Pieces), "placed in", res.Placement.Images, "pictures;", acc)
	// Output:
	// 96 placed in 2 pictures; direct 100.00%, neighbour 100.00%, perfect true
}

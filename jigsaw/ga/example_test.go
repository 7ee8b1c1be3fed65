package ga_test

import (
	"context"
	"fmt"

	"tessera/jigsaw"
	"tessera/jigsaw/ga"
)

// One picture, pieces turned, size unknown.
func Example() {
	g, err := jigsaw.CutFile("../testdata/bgu10-crop.png", 28, jigsaw.CutOptions{})
	if err != nil {
		panic(err)
	}
	pz, truth := jigsaw.Scramble([]*jigsaw.Grid{g}, jigsaw.ScrambleOptions{Rotate: true, Seed: 2})
	s := ga.Solver{Pop: 50, Gens: 10, Seed: 1} // a jigsaw.Solver
	res, err := s.Solve(context.Background(), &jigsaw.Problem{Puzzle: pz})
	if err != nil {
		panic(err)
	}
	acc, _ := jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{})
	fmt.Println(res.Placed, "placed in a", res.Frame, "frame;", acc, "; generations:", len(res.History))
	// Output:
	// 48 placed in a [6 8] frame; direct 100.00%, neighbour 100.00%, perfect true ; generations: 11
}

package ga_test

import (
	"context"
	"fmt"

	"tessera/imageio"
	"tessera/jigsaw"
	"tessera/jigsaw/ga"
)

// One picture, pieces turned, size unknown.
func Example() {
	var grids []*jigsaw.Grid
	for _, name := range []string{"../testdata/bgu10-crop.png"} {
		img, err := imageio.Load(name, imageio.Options{})
		if err != nil {
			panic(err)
		}
		g, err := jigsaw.Cut(img.Pix, 28, jigsaw.CutOptions{Depth: img.Depth})
		if err != nil {
			panic(err)
		}
		grids = append(grids, g)
	}
	pz, truth := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Rotate: true, Seed: 2})
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

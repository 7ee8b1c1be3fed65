package jigsaw_test

import (
	"context"
	"fmt"

	"tessera/jigsaw"
	"tessera/jigsaw/greedy"
)

func Example() {
	g, err := jigsaw.CutFile("testdata/mit5-crop.png", 28, jigsaw.CutOptions{})
	if err != nil {
		panic(err)
	}
	pz, truth := jigsaw.Scramble([]*jigsaw.Grid{g}, jigsaw.ScrambleOptions{Rotate: true, Seed: 1})
	fmt.Println(len(pz.Pieces), "pieces,", g.Rows, "x", g.Cols)

	// compatibilities: the true right-hand neighbour of the top-left piece
	c, err := jigsaw.NewCompat(context.Background(), pz, jigsaw.CompatOptions{})
	if err != nil {
		panic(err)
	}
	var first, second int
	for k, o := range truth.Pieces {
		switch {
		case o.Row == 0 && o.Col == 0:
			first = k
		case o.Row == 0 && o.Col == 1:
			second = k
		}
	}
	a := jigsaw.SideAt(jigsaw.Right, truth.Pieces[first].Rotation.Inverse())
	b := jigsaw.SideAt(jigsaw.Left, truth.Pieces[second].Rotation.Inverse())
	best, buddies := c.BestBuddy(first, a)
	fmt.Println("best buddies:", buddies && int(best.Piece) == second && best.Side == b)

	res, err := greedy.Solver{}.Solve(context.Background(), &jigsaw.Problem{Puzzle: pz, Compat: c})
	if err != nil {
		panic(err)
	}
	acc, err := jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(acc)
	// Output:
	// 48 pieces, 6 x 8
	// best buddies: true
	// direct 100.00%, neighbour 100.00%, perfect true
}

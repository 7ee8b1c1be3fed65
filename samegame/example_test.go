package samegame_test

import (
	"context"
	"fmt"

	"tessera/samegame"
)

func Example() {
	// The dust board of the source blog's first post.
	b, err := samegame.ParseBoard("GGGGBOYO/RORGYGBY/RRBGOORG/BRBOBYRG/BRYBBRGG/OYGGRORG", samegame.Dust)
	if err != nil {
		panic(err)
	}
	// The blog's first click removes the five greens at the right edge.
	g := samegame.NewGame(b)
	grp, _ := g.Play(samegame.Move{X: 7, Y: 0})
	fmt.Printf("removed %c x%d\n%s", samegame.LetterColors[grp.Color], grp.Size, samegame.Format(g.Board(), samegame.Letters))

	sol, err := samegame.Exact{}.Solve(context.Background(), b)
	if err != nil {
		panic(err)
	}
	res, _ := samegame.Replay(b, sol.Moves)
	fmt.Println(sol.Clicks, sol.Optimal, res.Cleared)
	// Output:
	// removed G x5
	// GGGGBO..
	// RORGYGY.
	// RRBGOOB.
	// BRBOBYR.
	// BRYBBRRO
	// OYGGRORY
	// 11 true true
}

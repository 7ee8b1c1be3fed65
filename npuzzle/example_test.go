package npuzzle_test

import (
	"context"
	"fmt"

	"tessera/npuzzle"
)

func Example() {
	b, err := npuzzle.Parse("1 2 3/4 0 6/7 5 8", npuzzle.Size{})
	if err != nil {
		panic(err)
	}
	sol, err := npuzzle.Solve(context.Background(), b, npuzzle.Options{Algorithm: npuzzle.IDAStar})
	if err != nil {
		panic(err)
	}
	fmt.Println(npuzzle.FormatMoves(sol.Moves), len(sol.Moves), sol.Optimal)
	end, _ := npuzzle.Replay(b, sol.Moves)
	fmt.Println(end)
	// Output:
	// UL 2 true
	// 1 2 3
	// 4 5 6
	// 7 8 0
}

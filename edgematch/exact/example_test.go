package exact_test

import (
	"context"
	"fmt"

	"tessera/edgematch"
	"tessera/edgematch/exact"
)

// ExampleDFS solves a generated puzzle, then counts its solutions.
func ExampleDFS() {
	p, _, _ := edgematch.Generate(edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: 4, Cols: 4, Colours: 3, Seed: 1})
	res, err := exact.DFS{Workers: 1}.Solve(context.Background(), p)
	fmt.Println(res.Score, res.Score.Solved(), err)
	res, err = exact.DFS{Workers: 1, Count: true}.Solve(context.Background(), p)
	fmt.Println(res.Stats.Solutions, "solutions", err)
	// Output:
	// 24/24 true <nil>
	// 27648 solutions <nil>
}

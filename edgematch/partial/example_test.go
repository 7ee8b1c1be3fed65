package partial_test

import (
	"context"
	"fmt"

	"tessera/edgematch"
	"tessera/edgematch/partial"
)

// ExamplePartial runs the large neighbourhood search on a generated
// puzzle with one worker and a budget of moves, so that the run repeats;
// on a puzzle this small its start board is already a solution.
func ExamplePartial() {
	p, _, _ := edgematch.Generate(edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: 6, Cols: 6, Colours: 4, Seed: 3})
	res, err := partial.Partial{Seed: 1, Workers: 1, MaxMoves: 200}.Solve(context.Background(), p)
	fmt.Println(res.Score, err)
	// Output:
	// 60/60 <nil>
}

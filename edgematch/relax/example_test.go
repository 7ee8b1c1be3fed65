package relax_test

import (
	"context"
	"fmt"

	"tessera/edgematch"
	"tessera/edgematch/relax"
)

// ExampleLP solves a Kovalsky puzzle with fixed orientation by Algorithm
// 1: here the LP alone reaches a permutation.
func ExampleLP() {
	p, _, _ := edgematch.Generate(edgematch.GenerateOptions{Kind: edgematch.Kovalsky, Rows: 4, Cols: 4, Colours: 9, Seed: 2})
	res, err := relax.LP{}.Solve(context.Background(), p)
	fmt.Println(res.Score, err, res.LP.Iterations, "LP, method", res.LP.Method)
	// Output:
	// 24/24 <nil> 1 LP, method lp
}

// ExampleSDP solves a small Kovalsky puzzle by Algorithm 2, with no
// preset locations.
func ExampleSDP() {
	p, _, _ := edgematch.Generate(edgematch.GenerateOptions{Kind: edgematch.Kovalsky, Rows: 3, Cols: 3, Colours: 4, Seed: 1})
	res, st, err := relax.SDP{}.SolveSDP(context.Background(), p)
	fmt.Println(res.Score, err, st.Iterations, "SDP")
	// Output:
	// 12/12 <nil> 1 SDP
}

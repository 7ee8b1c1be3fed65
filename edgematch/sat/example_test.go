package sat_test

import (
	"context"
	"fmt"

	"tessera/edgematch"
	"tessera/edgematch/sat"
)

// ExampleEncodeSAT writes a generated puzzle as CNF without running a
// solver: the size of the formula.
func ExampleEncodeSAT() {
	p, _, _ := edgematch.Generate(edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: 3, Cols: 3, Colours: 2, Seed: 1})
	e, err := sat.EncodeSAT(context.Background(), p, sat.SATEncodeOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(e.Placements, "placement variables,", e.Vars, "variables,", e.Clauses, "clauses")
	// Output:
	// 36 placement variables, 53 variables, 269 clauses
}

package lp_test

import (
	"context"
	"fmt"

	"tessera/lp"
)

// Example minimises 2x + 3y subject to x + y >= 1 and x, y >= 0 with the
// pure-Go backend.
func Example() {
	p := lp.NewProblem(2)
	p.AddRow([]int{0, 1}, []float64{1, 1}, 1, lp.Inf)
	p.SetObjective([]float64{2, 3})
	b, err := lp.Lookup("pdhg")
	if err != nil {
		panic(err)
	}
	sol, err := lp.Solve(context.Background(), b, p)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%v x=%.3f y=%.3f objective %.3f\n", sol.Status, sol.X[0], sol.X[1], sol.Objective)
	// Output: optimal x=1.000 y=0.000 objective 2.000
}

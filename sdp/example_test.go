package sdp_test

import (
	"context"
	"fmt"
	"log"
	"math"

	"tessera/sdp"
)

// The Lovász theta number of the 5-cycle is sqrt 5 (Lovász 1979):
// theta = max <J, X> subject to tr X = 1, X_ij = 0 for the edges ij, X ⪰ 0.
func Example() {
	const n = 5
	p := &sdp.Problem{Blocks: []sdp.Block{{Size: n}}}
	for i := range n {
		for j := i; j < n; j++ {
			p.AddObjective(sdp.E(0, i, j, 1)) // J: an entry stands for (i, j) and (j, i)
		}
	}
	var trace []sdp.Entry
	for i := range n {
		trace = append(trace, sdp.E(0, i, i, 1))
	}
	p.AddConstraint(1, trace...)
	for i := range n {
		p.AddConstraint(0, sdp.E(0, i, (i+1)%n, 1)) // 2 X_{i,i+1} = 0
	}
	sol, err := sdp.IPM{}.Solve(context.Background(), p)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("theta(C5) = %.6f (sqrt 5 = %.6f), %v\n", sol.PrimalObjective, math.Sqrt(5), sol.Status)
	fmt.Printf("dual %.6f, gap under 1e-8: %v\n", sol.DualObjective, sol.RelativeGap < 1e-8)
	// Output:
	// theta(C5) = 2.236068 (sqrt 5 = 2.236068), optimal
	// dual 2.236068, gap under 1e-8: true
}

// A linear program is a problem with one diagonal block: max 3x + 2y s.t.
// x + y <= 4, x + 3y <= 6, x <= 3 with slacks, optimum 11 at (3, 1).
func ExampleProblem_lp() {
	p := &sdp.Problem{Blocks: []sdp.Block{{Size: 5, Diagonal: true}}} // x, y, three slacks
	p.AddObjective(sdp.E(0, 0, 0, 3), sdp.E(0, 1, 1, 2))
	p.AddConstraint(4, sdp.E(0, 0, 0, 1), sdp.E(0, 1, 1, 1), sdp.E(0, 2, 2, 1))
	p.AddConstraint(6, sdp.E(0, 0, 0, 1), sdp.E(0, 1, 1, 3), sdp.E(0, 3, 3, 1))
	p.AddConstraint(3, sdp.E(0, 0, 0, 1), sdp.E(0, 4, 4, 1))
	sol, err := sdp.IPM{}.Solve(context.Background(), p)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%.6f at x = %.6f, y = %.6f\n", sol.PrimalObjective, sol.X[0].At(0, 0), sol.X[0].At(1, 1))
	// Output: 11.000000 at x = 3.000000, y = 1.000000
}

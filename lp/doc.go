// Package lp solves sparse linear programs
//
//	minimise c'x  subject to  RowLo <= A x <= RowHi,  ColLo <= x <= ColHi
//
// with interchangeable backends: "pdhg", a pure-Go primal-dual hybrid
// gradient method (PDLP with cuPDLP's restarts; no factorisation, memory
// O(nnz(A)), accurate to a tolerance, no infeasibility detection), always
// built; and "clp", COIN-OR Clp's simplex through cgo, built only with the
// build tag clp (Debian coinor-libclp-dev). It is an engine: it imports
// nothing of the project. Kovalsky, Glasner and Basri's LP relaxation of
// edge-matching puzzles (package edgematch) is its main user.
//
// Build a Problem with NewProblem, SetBounds, AddRow and SetObjective, pick
// a Backend by name with Lookup (or NewPDHG with options), and Solve it; a
// Model loaded once can be solved again with a new objective, warm-started
// from the last solution (the iterative LP of Algorithm 1 does this). The
// context stops a solve between iterations with Status Stopped and the last
// iterate.
//
//	p := lp.NewProblem(2)                       // x, y >= 0
//	p.AddRow([]int{0, 1}, []float64{1, 1}, 1, lp.Inf) // x + y >= 1
//	p.SetObjective([]float64{2, 3})              // minimise 2x + 3y
//	b, _ := lp.Lookup("pdhg")
//	sol, err := lp.Solve(ctx, b, p)             // sol.X ~ [1 0], sol.Objective ~ 2
//
// Tests check both backends agree on random feasible LPs and on the
// edge-matching relaxations (go test -tags clp ./lp/... ./edgematch/...).
package lp

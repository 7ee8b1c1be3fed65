package edgematch

import "time"

// LPStep reports one LP of Algorithm 1.
type LPStep struct {
	Iteration  int     // 1 for the first LP
	Fractional int     // entries of P strictly between Tol and 1-Tol
	Objective  float64 // <P(n-1), P(n)>
	Change     float64 // largest |P(n) - P(n-1)|
	Backend    int     // the backend's iterations for this LP
	Elapsed    time.Duration
}

// LPStats describes the LP iteration of an LP solve (Result.LP).
type LPStats struct {
	// Iterations is the number of LPs solved.
	Iterations int
	// Permutation reports that P became a permutation matrix: the LP alone
	// solved the puzzle.
	Permutation bool
	// Fractional counts the entries of the last P strictly between Tol
	// and 1-Tol.
	Fractional int
	// Fixed is the number of cells fixed from P for the finishing search.
	Fixed int
	// Method is "lp" (solved by the LP alone), "lp+search" (rounding, the
	// confident cells fixed, search), "search" (the search without fixed
	// cells) or "" when unsolved.
	Method string
	// Variables, Constraints and Nonzeros describe the LP.
	Variables, Constraints, Nonzeros int
	// LPTime is the time spent in the LPs.
	LPTime time.Duration
}

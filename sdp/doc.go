// Package sdp solves semidefinite programs: block-diagonal, with linear
// equality constraints and non-negative (LP) blocks. It is an engine of
// the first floor: it imports nothing of Tessera.
//
// # The problem
//
// A Problem is in CSDP's convention (SDPA's "dual" form):
//
//	primal:  maximise <C, X>  subject to  <A_i, X> = b_i (i = 1..m),  X ⪰ 0
//	dual:    minimise b'y     subject to  Z = sum_i y_i A_i - C ⪰ 0
//
// X, Z, C and the A_i are symmetric and block-diagonal with the same
// Blocks; <A, X> = trace(A X) = sum_jk A_jk X_jk. A matrix block must be
// positive semidefinite, a Diagonal block is a vector of non-negative
// numbers (a linear program is a problem with one diagonal block). Set
// Minimize to minimise <C, X> instead; the dual is then maximise b'y with
// Z = C - sum_i y_i A_i ⪰ 0.
//
// Matrices are given by their entries, E(block, i, j, v), 0-based. An entry
// stands for both (i, j) and (j, i): off the diagonal it adds 2 v X_ij to
// <A, X>. Give it in one triangle, or in both with the same value (a
// full matrix; different values are refused as not symmetric); entries
// repeated at the same place add up. A short tutorial, the Lovász theta
// number of the 5-cycle (max <J, X> s.t. tr X = 1, X_ij = 0 on the edges):
//
//	p := &sdp.Problem{Blocks: []sdp.Block{{Size: 5}}}
//	for i := range 5 {
//		for j := i; j < 5; j++ {
//			p.AddObjective(sdp.E(0, i, j, 1)) // J, all ones
//		}
//	}
//	p.AddConstraint(1, sdp.E(0, 0, 0, 1), sdp.E(0, 1, 1, 1), sdp.E(0, 2, 2, 1), sdp.E(0, 3, 3, 1), sdp.E(0, 4, 4, 1))
//	for i := range 5 {
//		p.AddConstraint(0, sdp.E(0, i, (i+1)%5, 1)) // 2 X_{i,i+1} = 0
//	}
//	sol, err := sdp.IPM{}.Solve(ctx, p) // sol.PrimalObjective = sqrt 5
//
// # Solvers
//
// A Solver has one method, Solve(ctx, problem). IPM is the pure-Go
// default: a primal-dual interior-point method with the HKM direction and
// Mehrotra's predictor-corrector, as CSDP and SDPT3 (see IPM for the
// details, costs and references). CSDP is Borchers' C library through cgo,
// built with the tag csdp and Debian's libsdp-dev:
//
//	apt-get install coinor-csdp libsdp-dev
//	CGO_ENABLED=1 go test -tags csdp ./sdp/...
//
// Without the tag CSDP.Solve returns ErrNotBuilt, so code that names it
// builds everywhere; Lookup("go") and Lookup("csdp") pick one by name.
// Both backends return the same Solution: X, y, Z, both objectives, the
// iterations and CSDP's relative measures (primal and dual infeasibility,
// gap), computed by this package for both.
//
// # Errors and budgets
//
// Every input is checked before any work (Validate): block sizes, indexes
// within blocks, diagonal entries only in diagonal blocks, finite values,
// symmetric matrices, at least one constraint, none empty. Data-dependent ends are sentinel
// errors returned with a Solution: ErrInfeasible (with a Farkas
// certificate y: b'y = -1, sum y_i A_i ⪰ 0), ErrUnbounded (with a ray X:
// A(X) = 0, X ⪰ 0, improving the objective by 1), ErrBudget (MaxIter or
// the context; the last iterate), ErrNumerical (the last iterate).
// Solve refuses, with ErrBudget and before allocating, a problem whose
// dense Schur complement and blocks would need more than MaxBytes
// (DefaultMaxBytes, 1 GiB): roughly 16 m^2 + 192 sum n_b^2 bytes for m
// constraints and blocks of sizes n_b.
//
// Infeasibility is detected from diverging iterates, as CSDP does, not by
// a self-dual embedding: problems with a strict certificate are found
// within a few iterations; weakly infeasible or unbounded problems (no
// certificate) end with ErrBudget or ErrNumerical. CSDP, on such a
// problem, may even report "optimal" with a huge objective (see
// TestWeaklyUnbounded).
//
// # Files
//
// ReadSDPA and WriteSDPA read and write the SDPA sparse format (.dat-s) of
// SDPLIB and the csdp command, so a problem can be checked with
// "csdp file.dat-s".
//
// # Rank-one relaxations (Algorithm 2)
//
// Algorithm 2 of Kovalsky, Glasner and Basri, which the tangram and
// edge-matching families both run, shares its engine here: Monomials and
// SegmentExp, the test functions' path integrals; ExpEquations, the
// equations (9) of the pieces' and the frame's edges; MomentSDP, one
// Hankel moment matrix per piece with its box bounds, the SDP (23); and
// Reweighting, the iteration that pushes every block towards rank one
// (RankOneWeight, eq. 24) with random restarts (MomentSDP.Projector) when
// it stalls (and, with RankOneRestart, when it reaches rank one at an
// iterate the family rejects), calling the family back after every SDP to
// round and check the iterate. A family keeps its geometry, its rounding and its errors.
//
//	m := sdp.NewMomentSDP(pieces, K)
//	rows, rhs := sdp.ExpEquations(pieceEdges, frameEdges, classes, m.Mons)
//	m.Build(rows, rhs, bound)
//	err := sdp.Reweighting{Restart: random}.Run(ctx, m, func(it sdp.Iterate) (bool, error) {
//		return solved(it.Solution.X), nil // read the first moments (FirstMoments)
//	})
//
// # Speed
//
// CPU times on one core of the development machine (TestMeasure in
// measure_test.go; IPM against CSDP 6.2 with Debian's reference BLAS): the
// small test problems (theta, max cut, LP, moments; blocks up to 10) take
// 6 to 10 iterations and 0.02 to 0.22 ms with IPM, 9 to 19 iterations and
// 0.1 to 0.4 ms with CSDP. At the sizes Algorithm 2 of the tangram family
// needs: BenchmarkIPM (30 blocks of 20 and an LP block of 40, 300 sparse
// constraints touching about two blocks each) takes 14 iterations and
// 0.10 s with IPM, 18 and 0.25 s with CSDP; BenchmarkIPMLocal (30 blocks
// of 10, 20 constraints local to each block and 20 over all of them)
// takes 13 iterations and 0.07 s with IPM, 19 and 0.77 s with CSDP, whose
// dense factorisation of the 620 x 620 Schur complement dominates.
package sdp

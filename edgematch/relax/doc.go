// Package relax solves edge-matching puzzles by the convex relaxations of
// Kovalsky, Glasner and Basri ("A global approach for solving
// edge-matching puzzles", SIAM J. Imaging Sciences 8(2), 2015): LP, their
// Algorithm 1 over preset locations, and SDP, their Algorithm 2 without.
//
// # Tutorial
//
//	p, _, _ := edgematch.Generate(edgematch.GenerateOptions{Kind: edgematch.Kovalsky, Rows: 4, Cols: 4, Colours: 9, Seed: 2})
//	res, err := relax.LP{}.Solve(ctx, p)
//	// res.LP.Iterations LPs; res.LP.Method says whether the LP alone
//	// reached a permutation ("lp") or rounding and search finished it
//
// LP.OnLP receives every iterate (an edgematch.LPIterate, which
// edgematch.RenderP draws); SDP.SolveSDP returns Algorithm 2's statistics.
//
// # Algorithm 1
//
// LP runs Algorithm 1 of Kovalsky, Glasner and Basri (SIAM J. Imaging
// Sciences 2015) over the LP backends of package lp (pure-Go PDHG by
// default, COIN-OR Clp with the clp build tag) and, when the LP stalls
// before reaching a permutation, rounds, fixes and finishes by search (the
// hybrid; NoSearch keeps the LP alone). Result.LP holds its statistics.
//
// # Algorithm 2
//
// SDP runs their Algorithm 2 instead, with no preset locations (the
// rank-one SDP relaxation over moment matrices of the pieces'
// translations, as tangram.SDP; fixed orientation only); it is compared
// with Algorithm 1 in docs/results/tangram.md.
//
// Before the first LP, the LP solver removes the (cell, piece) pairs that the
// colour-balance rows force to zero, to a fixed point (arc consistency: the
// feasible set is unchanged, the LP much smaller), and it breaks a stall on a
// fractional P once by a small perturbation; LP.Plain turns both off
// and runs Algorithm 1 as published. When P is not a permutation it rounds P
// by an assignment, fixes the confident cells and tries the backtracker: for
// at most 2 million placements after every LP, without a limit after the
// last one. Before building anything it estimates the memory of the LP
// (the candidate pairs before pruning, then the pruned LP: about 40 bytes
// per nonzero, 120 per variable, 24 n^2 for the rounding) and refuses a
// puzzle over LP.MaxMemory (default 1 GiB) with an *LPSizeError naming the
// need and the bound; building checks the context, so a deadline covers it.
// Partial, Breaks and Tiles hand every new best board to OnBest
// ("tessera edgematch solve -algo partial|tiles|lns -o" saves it
// atomically, with the seed, and -resume continues from a saved board:
// Partial improves it; Breaks and Tiles keep it as the board to beat,
// polish it once and draw their restarts from the seed and the board, so
// a resumed run does not repeat the first one's restarts).
//
// LP.OnLP receives every iterate of Algorithm 1 (edgematch.LPIterate): the
// matrix P (cells x pieces x rotations, a copy), the LP's objective and
// the board P rounds to. LP.MaxTime is wall-clock time. The moment
// matrices, the equations of the path integrals and the reweighting of
// Algorithm 2 are package sdp's (MomentSDP, ExpEquations, Reweighting),
// shared with tangram.SDP.
package relax

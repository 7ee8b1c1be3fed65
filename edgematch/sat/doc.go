// Package sat solves edge-matching puzzles with an external SAT solver.
//
// # Tutorial
//
//	res, err := sat.SAT{}.Solve(ctx, p) // cadical on the PATH
//	// errors.Is(err, sat.ErrNoSATSolver): none found (FindSATSolver)
//
// EncodeSAT alone writes the CNF, which any solver reads in DIMACS form
// (SATEncoding.WriteDIMACS), and SATEncoding.Decode reads a model back as a
// board.
//
// SAT hands the puzzle to an external SAT solver (cadical by default,
// found on the PATH): EncodeSAT writes it as CNF (placement, piece-in-cell
// and edge-colour variables, at-most-one by Sinz's sequential counter,
// board rotations folded away as in DFS; the encoding is documented on
// SATEncoding), the solver runs under the context (killed, with its
// process group, at the deadline), its output is parsed with bounds, and
// the model is decoded and verified before it is returned. Count counts by
// blocking clauses, one run per solution. SATEncoding.WriteDIMACS writes
// the formula with its variables named ("tessera edgematch export -format
// dimacs").
package sat

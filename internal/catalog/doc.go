// Package catalog names Tessera's solvers: one table per family, each entry
// an id, a name, a one-line doc, whether it proves optimality, and a
// constructor that builds the family's solver value from options. The
// command line's -algo, `tessera help FAMILY solve`, the web app's solver
// menus, bench method names and job specs all come from these tables and
// nowhere else, so a solver added here appears everywhere at once.
//
//	s, err := catalog.SameGame.New("nrpa", catalog.SameGameOptions{Level: 3, Iterations: 100})
//	sol, err := s.Solve(ctx, board)
//
// The family files (npuzzle.go, jigsaw.go, edgematch.go, samegame.go) hold
// the tables and the options their constructors read.
package catalog

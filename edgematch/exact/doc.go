// Package exact searches edge-matching puzzles exactly: the backtracker
// DFS, which finds the first solution in scan order or counts them all,
// Split, the same search cut into subtrees that can run on many machines,
// and Knuth's estimate of the size of its tree.
//
// # Tutorial
//
// Read a puzzle with package edgematch and hand it to a DFS; the zero
// value finds one solution in the automatic scan order on every core:
//
//	p, _ := edgematch.ReadPuzzleFile("06x06.txt")
//	res, err := exact.DFS{}.Solve(ctx, p)
//	// err == nil: res.Board is a solution, res.Score.Solved()
//	// errors.Is(err, edgematch.ErrNoSolution): the search proved there is none
//
// DFS{Count: true} counts the solutions (Result.Stats.Solutions); MaxNodes
// and the context's deadline are budgets (an error wrapping
// edgematch.ErrBudget, with the deepest board seen); Scan or Order choose
// the scan, and EstimateScan predicts which scan searches the smallest
// tree.
//
// # DFS
//
// DFS is the exact backtracker: candidate tables keyed by the colours of
// two known sides of each cell (left and top in row-scan), a word per
// candidate list marking the candidates whose piece is free (the next one
// by a trailing-zero count), identical pieces taken in order, board
// rotations folded away, no allocation and no bounds check in the loop.
// The tables, the worker and its inner loop (in assembly on amd64) are
// edgematch/internal/kernel's, which the partial searches and the LP share.
// Scans are rows, columns, frame first and spiral, from any corner
// (edgematch.Scan, edgematch.Scans); Count counts solutions; all cores
// work on subtrees split off the top of the tree by ordered work stealing,
// with a result that does not depend on scheduling. EstimateTree and
// EstimateScan predict the size of its tree per scan by Knuth's random
// probes. DFS.MaxNodes counts placements, reproducibly with one worker
// (several share the count); a context deadline is wall-clock time, and a
// search it ends depends on the machine and its load.
//
// # Split
//
// Split is the exact search split into independent subtrees that can run
// on many machines: DFS.Subtrees lists the placements of the first cells
// of the scan at every node of a depth, in scan order, and
// DFS.SolveSubtree searches below one (checking it first); a
// SubtreeExecutor runs them (LocalSubtrees: goroutines; jobs elsewhere).
// The first solution cancels the rest, or with Count the subtrees' counts
// add up to DFS's count (and their placements to DFS's). With one worker
// the solution is DFS's. A split search resumes: OnSearched reports each
// subtree searched to its end, and a later run given them as Searched
// (matched by prefix) searches only the others (the command line keeps
// them in a journal file).
package exact

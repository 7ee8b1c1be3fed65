// Package npuzzle models sliding-tile puzzles (the 8-, 15- and 24-puzzle
// and any board from 2x2 to 10x10) and solves them.
//
// A Board holds the tiles 1 .. n-1 and the blank, 0, row-major. Two goals
// are supported: BlankLast (1 2 ... n-1 then the blank, as games show it)
// and BlankFirst (the blank top-left, as in Korf's benchmark data). Sizes
// are written ROWSxCOLS. A Move names the direction the tile slides into the
// blank: Up moves the tile below the blank up. Move lists are written as
// letters, "RDLU".
//
// Text format: tile numbers separated by spaces or commas, 0 or "_" for the
// blank, rows on separate lines or separated by "/":
//
//	1 2 3/4 5 6/7 8 0
//
// Solvable decides by parity, in O(n), whether a board can reach its goal;
// Solve rejects the others with ErrUnsolvable before any search. Random
// draws uniformly among solvable boards; RandomWalk is the source game's
// shuffle of WalkLength(size) = 10 random moves per cell.
//
// Solve runs breadth-first search, bidirectional breadth-first search, A*
// (weighted with Options.Search.Weight: the source's choice is Manhattan
// distance x 5) or IDA*, from package search, with the misplaced-tiles,
// Manhattan or linear-conflict heuristic. Every solver honours the
// context and the limits of Options.Search and reports search.Stats.
//
//	b, _ := npuzzle.Parse("1 2 3/4 0 6/7 5 8", npuzzle.Size{})
//	sol, err := npuzzle.Solve(ctx, b, npuzzle.Options{Algorithm: npuzzle.IDAStar})
//	// sol.Moves = [U L], sol.Optimal = true
package npuzzle

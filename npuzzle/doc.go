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
// every solver rejects the others with ErrUnsolvable before any search.
// Random draws uniformly among solvable boards; RandomWalk is the source
// game's shuffle of WalkLength(size) = 10 random moves per cell.
//
// # Solvers
//
// A Solver is a value that carries its parameters and has one method,
// Solve(ctx, board, goal). BFS, BidirectionalBFS, AStar (weighted with its
// Weight: the source's choice is Manhattan distance x 5) and IDAStar run
// the searches of package search, with the misplaced-tiles, Manhattan,
// linear-conflict or pattern-database heuristic; Fast answers large boards.
// Every solver honours the context and its Limits and reports search.Stats.
// The zero values are sensible: AStar{} and IDAStar{} use linear conflict.
//
//	b, _ := npuzzle.Parse("1 2 3/4 0 6/7 5 8", npuzzle.Size{})
//	sol, err := npuzzle.IDAStar{}.Solve(ctx, b, npuzzle.BlankLast)
//	// sol.Moves = [U L], sol.Optimal = true
//
// # Optimal solving at scale
//
// IDAStar with Manhattan distance or with PatternDB runs a solver
// specialised for the puzzle (in place, incremental, no allocation while it
// searches); its node counts follow search.IDAStar's, which reproduce Korf's
// 1985 counts exactly. With IDAStar.Workers above 1 it searches iterations
// of millions of nodes on that many goroutines (AIDA*: the tree is cut at
// depth 12 and the subtrees searched in order), with the same solution and
// the same counts as on one. PatternDB is an additive pattern database (Korf and
// Felner 2002): a Partition splits the tiles into patterns (the standard
// 5-5-5, 6-6-3 and 7-8 of the 4x4 board and 6-6-6-6 of the 5x5, or any
// other), LoadPDB builds one table per pattern by a breadth-first search
// that tracks the blank, or reads it from the cache, and lookups also use
// the board reflected about the main diagonal:
//
//	part, _ := npuzzle.ParsePartition("7-8", npuzzle.Size{}, npuzzle.BlankLast)
//	pdb, err := npuzzle.LoadPDB(ctx, part, npuzzle.PDBOptions{}) // minutes the first time
//	sol, err := npuzzle.IDAStar{Heuristic: npuzzle.PatternDB, PDB: pdb}.Solve(ctx, b, npuzzle.BlankFirst)
//
// Tables are cached in DefaultCacheDir (os.UserCacheDir()/tessera), one file
// per pattern, "npuzzle-4x4-1.2.3.4.5.6.7.pdb": a header (magic, format
// version, shape, tiles, counts), the entries at 4 bits each, and a CRC-32C
// of it all. A file that does not match exactly is rebuilt, never used. A
// table that cannot be written is used from memory, and TableInfo.NotCached
// says why. PDBOptions.MaxBytes bounds the memory of a load: a table whose
// construction would go over it (TableBuildBytes: 519 MB for the 8-tile
// table of 7-8) is refused before any work, and the context stops a build.
//
// # Memory
//
// Limits.MaxBytes bounds the memory of BFS, BidirectionalBFS and AStar in
// bytes: the generic searches count the bytes of their stored states, and
// each solver divides the bound by the ratio of peak resident memory to
// that count measured for it (maps and slices grow by doubling, and the
// garbage collector lets the heap reach twice the live data), so that the
// process stops at 0.8 to 1.1 times the bound.
//
// The databases and the specialised solvers work in the blank-first frame;
// a blank-last board is solved rotated by 180 degrees with its tiles renamed
// (tile t becomes n-t), a symmetry that keeps every distance.
//
// # Large boards
//
// Fast answers any board up to 10x10 quickly with a short solution: it
// fixes the last row or column tile by tile with small exact searches, then
// finishes a 4x4 region with IDA* (optimal unless its node budget runs out)
// or, given a 6-6-6-6 database, a 5x5 region with weighted IDA*.
//
// # Benchmark sets
//
// ParseSet reads a set file such as Korf's 100 random 15-puzzles: one
// board per line, optionally with its published optimal length. The goal
// comes from the file itself: a "# goal blank-first" line, its name, or the
// boards (the one goal every board can reach: this decides every set of
// even width, Korf's 100 included, but not the 24-puzzles, whose file needs
// its goal line or -goal on the command line).
//
// # How the databases are built
//
// Each table is built by a breadth-first search over the placements of its
// pattern's tiles and the region of the blank, where only moves of pattern
// tiles cost (Korf and Felner), on every core. An entry holds the excess
// over the Manhattan distance of the pattern's tiles, halved, in 4 bits.
// Patterns that a rotation or reflection of the board maps onto another share
// its table, so 6-6-6-6 needs two tables. A partition of one's own (tiles
// such as "1,2,3/4,5,6") works on any board of up to 32 cells. The parallel
// search is Reinefeld and Schnecke's AIDA*.
//
// Two stronger forms (Clausecker and Reinefeld, SoCS 2021): a name ending in
// "+zero" makes zero-aware tables, with an entry for every placement and
// cell of the blank (the region of the blank matters when the pattern's
// tiles close off a corner), 8 bytes a placement, in ".zpdb" files (see
// pdbzero.go); and partitions joined by ";" make a catalogue, whose
// heuristic is the largest of their sums, each with its reflection.
// PDBOptions.Sparse (`-sparse`) keeps zero-aware tables sparse, indexed by
// the tiles' cells as the digits of a number in base 25 instead of the
// placement's rank (pdbsparse.go): twice the memory (1.95 GB a 6-tile
// table), the same nodes, and an index that the search moves by one
// product a move, for about a third less CPU on the 24-puzzles.
//
// # Move pruning
//
// IDAStar.MovePruning (`-fsm 12` on the command line) makes the specialised
// solver skip the moves that complete a redundant sequence of the blank: one
// that an earlier sequence from the same cell (shorter, or as long and first
// in Korf's order of the moves) matches in effect, such as going round a
// 2x2 block the other way (Taylor and Korf 1993; clausecker/24puzzle's
// finite-state machine). The sequences up to the given length are
// enumerated once per board size and process, and an Aho-Corasick automaton
// over the redundant ones follows the search (fsm.go: 52,603 states for 12
// moves on the 5x5 board, built in a few CPU-seconds). Solutions stay
// shortest; the node counts fall below Korf's, by 1.6 to 1.9 times on the
// 24-puzzles measured.
//
// Measured figures (Korf's 100, Korf and Felner's 24-puzzles, the fast solver
// on random boards up to 10x10) are in docs/results/npuzzle.md.
package npuzzle

// Package edgematch models apictorial edge-matching puzzles (the Eternity
// II family) and solves them: exactly by backtracking, approximately by
// large neighbourhood search when a complete solution is out of reach, and
// by the iterative LP relaxation of Kovalsky, Glasner and Basri.
//
// # Model
//
// A Puzzle has Rows x Cols cells and as many Tiles; a Tile lists the
// colours of its edges clockwise from the top (N E S W). Colour 0 is grey,
// the frame: on a solved board every outward edge shows the frame colour
// (grey unless Puzzle.Frame says otherwise) and every internal edge joins
// two equal colours other than grey. Pieces are numbered from 0 in the API
// and from 1 in files. A Board holds a Placement (piece and clockwise
// quarter turns) per cell; side d of a piece turned r times shows listed
// edge (d-r) mod 4. Hints fix pieces before the search (Eternity II's
// starter piece 139 at I8).
//
// Puzzle.Score recomputes a board's score from the pieces alone, never
// from a solver: the matched internal edges (480 for a solved 16x16
// board), the outward edges that break the frame, the empty cells.
// Puzzle.Verify checks that every piece is placed exactly once with the
// hints in place.
//
// # Formats
//
// Piece sets (ParsePuzzle, Puzzle.WriteTo) are the shared text format:
// comments from '#', a "ROWS COLS" line, then one "N E S W" line per piece.
// Three extension lines are documented on ParsePuzzle: "frame C1 ... Ck"
// (a coloured frame), "hint P R C T" and "orientation fixed". Boards
// (ParseBoard, Board.WriteTo) are a "ROWS COLS" line and ROWS lines of
// "PIECE/ROT" cells, 0/0 for an empty cell. ParseHints reads
// eternity2_clues.txt. Puzzle.BucasURL and ParseBucasURL convert boards to
// and from the e2.bucas.name viewer URLs the community shares.
// ReadPuzzleFile, ReadBoard (a board file or a viewer URL) and
// Puzzle.AddHintsFile read them from files; ParseSize reads a "ROWSxCOLS"
// size and Puzzle.Describe names a puzzle's shape for people.
//
// # Solvers
//
// A Solver is a value that carries its parameters and has one method,
// Solve(ctx, puzzle); the context's deadline is the time budget, and the
// Result holds the best board, its score and the statistics. These types
// implement it:
//
// DFS is the exact backtracker: candidate tables keyed by the colours of
// two known sides of each cell (left and top in row-scan), a word per
// candidate list marking the candidates whose piece is free (the next one
// by a trailing-zero count), identical pieces taken in order, board
// rotations folded away, no allocation and no bounds check in the loop
// (index_fast.go; the tessera_checked build tag puts the checks back),
// and on amd64 the inner loop in assembly (maskrun_amd64.s, checked
// against its Go twin maskRunGo, which the purego and tessera_checked
// builds and other architectures use);
// scan orders rows, columns, frame first
// and spiral, from any corner (Scan, Scans); solution counting (Count);
// all cores on subtrees split off the top of the tree by ordered work
// stealing, with a result that does not depend on scheduling.
// EstimateTree and EstimateScan predict the size of its tree per scan by
// Knuth's random probes.
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
//
// Partial maximises the score of complete boards: a start board from the
// backtracker completed under a break schedule, then window repairs by
// branch and bound, assignment repairs by the Hungarian method and kicks,
// on every core, reporting every new best board (the catalogue's "lns").
// DistPartial runs many searches of any SeededSearch (Breaks, Tiles or
// Partial), one seed and one worker each, on a PartialExecutor
// (goroutines, or jobs on other machines), checks and rescores every board
// they report and keeps the best as it improves.
//
// Breaks is the break-schedule search of the Eternity II record boards
// (Blackwood's 468-470) as the whole search: a backtracker in a fixed fill
// order (BreakOrder: rows from the bottom, the last four rows column by
// column) that may leave one mismatched edge per placement, but only after
// the fill indices of a schedule (DefaultSchedule: 201, 206, ..., 239 on
// Eternity II, ten breaks), with Blackwood's heuristic colours
// (HeuristicColours) whose sides must be placed at a set pace early on,
// candidate lists reshuffled at every restart, and every board deeper
// than the restart's earlier ones completed (assignment, then Partial's
// repairs) and scored; it is the
// catalogue's "partial", the default partial search. Tiles runs
// the same engine with the idea of Verhaard's 2008 prize solver instead of
// the heuristic colours: before every restart a good group of inner pieces
// of high 2x3 tileability, kept for the end of the fill.
//
// LP runs Algorithm 1 of Kovalsky, Glasner and Basri (SIAM J. Imaging
// Sciences 2015) over the LP backends of package lp (pure-Go PDHG by
// default, COIN-OR Clp with the clp build tag) and, when the LP stalls
// before reaching a permutation, rounds, fixes and finishes by search (the
// hybrid; NoSearch keeps the LP alone). Result.LP holds its statistics.
// SDP runs their Algorithm 2 instead, with no preset locations (the
// rank-one SDP relaxation over moment matrices of the pieces'
// translations, as tangram.SDP; fixed orientation only); it is compared
// with Algorithm 1 in docs/results/tangram.md.
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
//
// Generate makes random puzzles with planted solutions: framed puzzles
// like Eternity II, and the source's random puzzles with a coloured frame.
// Puzzle.Render draws a board as an image with its mismatches marked.
//
//	p, _ := edgematch.ParsePuzzle(file)
//	res, err := edgematch.DFS{}.Solve(ctx, p)
//	// res.Board is a solution; res.Score.Solved() == true
//
// # Details
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
// Budgets and reproducibility: Partial.MaxMoves counts each worker's moves,
// so a partial search it ends gives the same board for the same seed and
// worker count; Breaks.MaxNodes and Tiles.MaxNodes count each worker's
// placements, likewise with one worker (several share their best score,
// which decides which completed boards are polished); DFS.MaxNodes counts placements, reproducibly with
// one worker (several share the count); a context deadline (and LP.MaxTime) is
// wall-clock time, and a search it ends depends on the machine and its load.
//
// LP.OnLP receives every iterate of Algorithm 1 (LPIterate): the matrix P
// (cells x pieces x rotations, a copy), the LP's objective and the board P
// rounds to. RenderP draws P as a heat map (a row per cell, a column per
// piece, black 0 to white 1 as in the paper) and Puzzle.RenderIterates the strip of boards
// over matrices of the paper's Figure 4c ("tessera edgematch solve -algo lp
// -snapshots DIR"; an example in docs/results/edgematch.md).
//
// Measured figures (Brendan Owen's puzzles, Eternity II, the LP on random
// puzzles) are in docs/results/edgematch.md; variants measured and dropped in
// docs/notes/edgematch.md.
package edgematch

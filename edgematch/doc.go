// Package edgematch models apictorial edge-matching puzzles (the Eternity
// II family): pieces, boards, their formats, scoring and rendering. Its
// sub-packages solve them: exactly by backtracking (exact), approximately
// by break schedules and large neighbourhood search when a complete
// solution is out of reach (partial), by the LP and SDP relaxations of
// Kovalsky, Glasner and Basri (relax), and by a SAT solver (sat).
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
// Result holds the best board, its score and the statistics. The solvers
// live in sub-packages by method, each with its own tutorial:
//
//   - exact: the backtracker DFS (counting with Count), Split (the same
//     search cut into subtrees that can run on many machines, resumable),
//     EstimateTree and EstimateScan (Knuth's estimate of the tree).
//   - partial: the best score when a solution is out of reach: Breaks
//     (Blackwood's break schedules), Tiles (Verhaard's tile groups),
//     Partial (large neighbourhood search from a backtracker's board) and
//     DistPartial (many seeded searches on any executor).
//   - relax: the relaxations of Kovalsky, Glasner and Basri: LP
//     (Algorithm 1, over package lp) and SDP (Algorithm 2, over package
//     sdp, whose moment matrices and reweighting it shares with tangram).
//   - sat: SAT hands the puzzle to an external SAT solver; EncodeSAT
//     writes the CNF.
//
// They share one engine, edgematch/internal/kernel: the candidate tables a
// puzzle compiles to, the backtracker's worker with its candidate masks
// (the inner loop in assembly on amd64, maskrun_amd64.s, checked against
// its Go twin, which the purego and tessera_checked builds and other
// architectures use; the tessera_checked tag puts the bounds checks back
// into the loops) and the Hungarian method. A sub-package imports
// edgematch; edgematch imports none of them.
//
// This package keeps what every method reads: Puzzle.Score and
// Puzzle.Verify, Puzzle.Edge (the colour a placement shows on a side),
// FrameIndex and OutwardMask (the frame sides of a cell), Order and Scan
// (scan orders, from any corner: Scans, ParseScan), and the statistics
// types, Stats, Result and, for the LP, LPStats, LPStep and LPIterate.
//
// Generate makes random puzzles with planted solutions: framed puzzles
// like Eternity II, and the source's random puzzles with a coloured frame.
// Puzzle.Render draws a board as an image with its mismatches marked;
// RenderP draws an LP iterate's matrix P as a heat map (a row per cell, a
// column per piece, black 0 to white 1 as in the paper) and
// Puzzle.RenderIterates the strip of boards over matrices of the paper's
// Figure 4c ("tessera edgematch solve -algo lp -snapshots DIR").
//
//	p, _ := edgematch.ParsePuzzle(file)
//	res, err := exact.DFS{}.Solve(ctx, p)
//	// res.Board is a solution; res.Score.Solved() == true
//
// Measured figures (Brendan Owen's puzzles, Eternity II, the LP on random
// puzzles) are in docs/results/edgematch.md; variants measured and dropped in
// docs/notes/edgematch.md.
package edgematch

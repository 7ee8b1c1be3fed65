package main

import (
	"context"
	"flag"

	"tessera/edgematch"
	"tessera/internal/bench"
)

func init() {
	register(&Command{
		Name:  "edgematch",
		Short: "edge-matching puzzles (Eternity II): generate, solve, score, render, bench",
		Long: `Edge-matching puzzles: square pieces with a colour on each edge, placed in
a ROWSxCOLS frame, rotated as needed, so that abutting edges match and grey
(colour 0) faces out. Eternity II is the 16x16 one with 22 colours.

Puzzles are piece-set files: a "ROWS COLS" line, then one "N E S W" line per
piece (colours clockwise from the top; pieces are numbered from 1 in file
order). Boards are files of ROWS lines of "PIECE/ROT" cells (ROT clockwise
quarter turns, 0/0 an empty cell), or e2.bucas.name viewer URLs. Both formats
are those of the shared data folder; see "go doc tessera/edgematch".`,
		Commands: []*Command{emGenerateCmd, emSolveCmd, emEstimateCmd, emScoreCmd, emRenderCmd, emBenchCmd, emExportCmd},
	})
}

// hintFlags define -hints and -nhints, the hints added to the puzzles.
func hintFlags(fs *flag.FlagSet, h *bench.EdgeMatchHints) {
	fs.StringVar(&h.File, "hints", "", "fix the pieces listed in this hints file (\"PIECE ROW COL ROT\" lines, as eternity2_clues.txt)")
	fs.IntVar(&h.N, "nhints", 0, "use only the first N hints of -hints (0: all; 1: Eternity II's starter piece)")
}

var emGenerateCmd = &Command{
	Name:      "generate",
	UsageLine: "[-kind framed|kovalsky] -size RxC [-frame F] -colors C [-rotate] [-seed S] [-o P.txt] [-solution B.board]",
	Short:     "write a random puzzle with a planted solution",
	Long: `Generate writes a random puzzle whose solution is planted: the edge colours
are drawn for the solved board, then the pieces are shuffled and turned.

-kind framed (the default): a grey frame, -frame F colours on the edges
between border cells and -colors C inner colours elsewhere, like Eternity II
(5 and 17) and Brendan Owen's sets. -kind kovalsky: the random puzzles of
Kovalsky, Glasner and Basri: every edge, the frame's included, takes one of
-colors C colours; the outward colours are written as the file's "frame" line.
Their pieces keep their orientation ("orientation fixed") unless -rotate.`,
	NoArgs: true,
	Flags: func(fs *flag.FlagSet) Runner {
		kind := fs.String("kind", "framed", "framed or kovalsky")
		size := fs.String("size", "8x8", "board size ROWSxCOLS")
		frame := fs.Int("frame", 0, "frame colours of a framed puzzle (0: about a third of -colors)")
		colors := fs.Int("colors", 8, "inner colours (framed) or all colours (kovalsky)")
		rotate := fs.Bool("rotate", false, "kovalsky: turn the pieces at random (unknown orientation)")
		seed := seedFlag(fs)
		out := outFlag(fs, "the puzzle (default stdout)")
		solution := fs.String("solution", "", "write the planted solution board to this file")
		return func(ctx context.Context, env *Env, args []string) error {
			o := edgematch.GenerateOptions{Colours: *colors, Frame: *frame, Rotate: *rotate, Seed: *seed}
			puzzle, sol, err := bench.GenerateEdgeMatch(*kind, *size, o)
			if err != nil {
				return err
			}
			if err := writeOut(env, *out, puzzle); err != nil || *solution == "" {
				return err
			}
			return writeOut(env, *solution, sol)
		}
	},
}

var emEstimateCmd = &Command{
	Name:      "estimate",
	UsageLine: "[-order O|all] [-scans] [-probes N] [-seed S] [-hints FILE [-nhints K]] [-json] P.txt",
	Short:     "estimate the size of the exact search tree per scan order",
	Long: `Estimate predicts the placements that an exhaustive "solve -algo dfs" makes
in each scan order, by Knuth's estimator: random walks from the root, each
choosing among the pieces the backtracker would try. A first solution
typically comes after a fraction of the tree, so the numbers compare the
orders and bound the work rather than predict it. The estimate is unbiased
but has a large variance on deep trees: read it as an order of magnitude
(the ± is one standard error over the probes). -scans estimates the 16 scans
that start from each corner (rows, columns, and spirals in both directions)
instead of the orders from the top left corner.`,
	Args: want(1, "want one puzzle file"),
	Flags: func(fs *flag.FlagSet) Runner {
		var hints bench.EdgeMatchHints
		hintFlags(fs, &hints)
		orderName := fs.String("order", "all", "scan order: all, rows, columns, frame or spiral")
		allScans := fs.Bool("scans", false, "estimate the 16 scans from every corner (rows, columns, spirals both ways)")
		probes := fs.Int("probes", 100000, "random walks per order")
		seed := seedFlag(fs)
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			scans, err := bench.EdgeMatchScans(*orderName, *allScans)
			if err != nil {
				return err
			}
			if *probes < 1 {
				return usagef("-probes must be at least 1")
			}
			p, err := bench.ReadEdgeMatchPuzzle(args[0], env.Stdin, hints)
			if err != nil {
				return err
			}
			e := bench.EdgeMatchEstimate{Name: args[0], Puzzle: p, Scans: scans, Corners: *allScans, Probes: *probes, Seed: *seed}
			return e.Run(ctx, env.Stdout, *asJSON)
		}
	},
}

var emScoreCmd = &Command{
	Name:      "score",
	UsageLine: "[-hints FILE [-nhints K]] [-url] [-json] P.txt B.board|URL",
	Short:     "rescore a board independently of any solver",
	Long: `Score recomputes a board's score from the pieces: the matched internal edges
(480 for a complete Eternity II board), the outward edges that do not show the
frame colour, empty cells, and whether every piece is placed once with the
hints in place. The board is a board file or an e2.bucas.name viewer URL. It
exits with status 2 when a file cannot be read or is malformed, or the board
does not fit the puzzle (a piece placed twice, out of range, a wrong size):
the message names the file and the line.

-complete first completes a partial board in the best way: the pieces it leaves
out go to its empty cells in the arrangement that scores the most (the placed
pieces stay), by branch and bound for at most -complete-nodes placements; the
score is then the completed board's, and stderr says whether the arrangement
is proven the best. -o saves the completed board. It scores the deepest
partial boards of a backtracker (Blackwood's solver and its ports) as
complete boards.`,
	Args: want(2, "want a puzzle file and a board"),
	Flags: func(fs *flag.FlagSet) Runner {
		var hints bench.EdgeMatchHints
		hintFlags(fs, &hints)
		url := fs.Bool("url", false, "print the board as an e2.bucas.name viewer URL")
		asJSON := jsonFlag(fs)
		complete := fs.Bool("complete", false, "complete a partial board in the best way before scoring it (the placed pieces stay)")
		nodes := fs.Int("complete-nodes", 100_000_000, "-complete: at most this many placements of its branch and bound")
		atLeast := fs.Int("complete-min", 0, "-complete: seek only completions of this score or more (much faster; below it the board is the assignment's and stderr says whether none reaches it)")
		out := outFlag(fs, "the completed board (-complete)")
		return func(ctx context.Context, env *Env, args []string) error {
			if *out != "" && !*complete {
				return usagef("-o applies to -complete")
			}
			if *nodes <= 0 {
				return usagef("-complete-nodes must be positive")
			}
			p, b, err := bench.ReadEdgeMatchBoardOf(args[0], args[1], env.Stdin, hints)
			if err != nil {
				return err
			}
			if *complete {
				if b, err = bench.CompleteEdgeMatchBoard(env.Stderr, p, b, *nodes, *atLeast, args[1], *out); err != nil {
					return err
				}
			}
			return bench.PrintEdgeMatchScore(env.Stdout, args[0], p, b, *url, *asJSON)
		}
	},
}

var emRenderCmd = &Command{
	Name:      "render",
	UsageLine: "[-cell PX] [-no-highlight] P.txt B.board|URL -o out.png",
	Short:     "draw a board as a PNG, mismatches highlighted",
	Long: `Render draws the board: each piece as four coloured triangles, empty cells
dark, and a red bar on every mismatched edge and every outward edge that is
not the frame colour.`,
	Args: want(2, "want a puzzle file and a board"),
	Flags: func(fs *flag.FlagSet) Runner {
		cell := fs.Int("cell", 48, "cell size in pixels")
		plain := fs.Bool("no-highlight", false, "do not mark the mismatches")
		out := outFlag(fs, "the PNG")
		return func(ctx context.Context, env *Env, args []string) error {
			if *out == "" {
				return usagef("-o out.png is required")
			}
			if *cell < 8 || *cell > 512 {
				return usagef("-cell %d: want 8..512 pixels", *cell)
			}
			p, b, err := bench.ReadEdgeMatchBoardOf(args[0], args[1], env.Stdin, bench.EdgeMatchHints{})
			if err != nil {
				return err
			}
			return bench.RenderEdgeMatch(env.Stdout, *out, p, b, edgematch.RenderOptions{Cell: *cell, NoHighlight: *plain})
		}
	},
}

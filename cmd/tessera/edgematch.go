package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"tessera/edgematch"
	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/lp"
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
		Commands: []*Command{emGenerateCmd, emSolveCmd, emEstimateCmd, emScoreCmd, emRenderCmd, emBenchCmd},
	})
}

// readPuzzle reads a piece-set file ("-" for stdin).
func readPuzzle(env *Env, path string) (*edgematch.Puzzle, error) {
	r := env.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	p, err := edgematch.ParsePuzzle(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// readEdgeBoard reads a board file or a bucas viewer URL for p.
func readEdgeBoard(arg string, p *edgematch.Puzzle) (*edgematch.Board, error) {
	if strings.Contains(arg, "board_edges=") {
		return edgematch.ParseBucasURL(arg, p)
	}
	f, err := os.Open(arg)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := edgematch.ParseBoard(f)
	if err == nil {
		err = p.Check(b)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", arg, err)
	}
	return b, nil
}

// hintFlags add the hints of a file to a puzzle.
type hintFlags struct {
	file string
	n    int
}

func (h *hintFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&h.file, "hints", "", "fix the pieces listed in this hints file (\"PIECE ROW COL ROT\" lines, as eternity2_clues.txt)")
	fs.IntVar(&h.n, "nhints", 0, "use only the first N hints of -hints (0: all; 1: Eternity II's starter piece)")
}

// read reads a puzzle file and adds the hints of -hints.
func (h *hintFlags) read(env *Env, path string) (*edgematch.Puzzle, error) {
	if h.file == "" && h.n != 0 {
		return nil, usagef("-nhints needs -hints")
	}
	p, err := readPuzzle(env, path)
	if err != nil || h.file == "" {
		return p, err
	}
	f, err := os.Open(h.file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	hints, err := edgematch.ParseHints(f, p, h.n)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", h.file, err)
	}
	p.Hints = append(p.Hints, hints...)
	return p, p.Validate()
}

// parseEMSize parses "RxC".
func parseEMSize(s string) (int, int, error) {
	a, b, ok := strings.Cut(strings.ToLower(s), "x")
	r, err1 := strconv.Atoi(a)
	c, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || r < 1 || c < 1 {
		return 0, 0, usagef("size %q: want ROWSxCOLS such as 8x8", s)
	}
	return r, c, nil
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
			if len(args) > 0 {
				return usagef("unexpected arguments %q", args)
			}
			k, err := edgematch.ParseKind(*kind)
			if err != nil {
				return usagef("%v", err)
			}
			o := edgematch.GenerateOptions{Kind: k, Colours: *colors, Frame: *frame, Rotate: *rotate, Seed: *seed}
			if o.Rows, o.Cols, err = parseEMSize(*size); err != nil {
				return err
			}
			if *rotate && k != edgematch.Kovalsky {
				return usagef("-rotate applies to -kind kovalsky (framed puzzles are always rotated)")
			}
			p, sol, err := edgematch.Generate(o)
			if err != nil {
				return usagef("%v", err)
			}
			header := fmt.Sprintf("tessera edgematch generate -kind %s -size %dx%d -colors %d", k, o.Rows, o.Cols, o.Colours)
			if k == edgematch.Framed {
				header += fmt.Sprintf(" -frame %d", cmp.Or(o.Frame, edgematch.DefaultFrame(o.Colours)))
			}
			if *rotate {
				header += " -rotate"
			}
			header += fmt.Sprintf(" -seed %d", *seed)
			text := edgematch.Format(p, header, "format: \"ROWS COLS\", then one piece per line \"N E S W\" (clockwise from the top); colour 0 = grey")
			if *out == "" {
				_, err = env.Stdout.Write(text)
			} else {
				err = writeFileAtomic(*out, text)
			}
			if err != nil || *solution == "" {
				return err
			}
			return writeFileAtomic(*solution, edgematch.Format(sol, "planted solution of: "+header))
		}
	},
}

// solveFlags are the solver flags of solve and bench: the catalogue id and
// its options.
type solveFlags struct {
	algo string
	o    catalog.EdgeMatchOptions
}

func (s *solveFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&s.algo, "algo", "dfs", "solver: "+strings.Join(catalog.EdgeMatch.IDs(), ", ")+" (listed by tessera help edgematch solve)")
	fs.StringVar(&s.o.Order, "order", "auto", "dfs scan order: auto, rows, columns, frame, spiral, or a scan from a corner as listed by estimate -scans")
	fs.IntVar(&s.o.Workers, "workers", 0, "goroutines (0: one per core)")
	fs.Int64Var(&s.o.MaxNodes, "max-nodes", 0, "dfs: stop after this many placements (0: no limit)")
	fs.StringVar(&s.o.LPBackend, "lp", "pdhg", "lp backend: pdhg (pure Go) or clp (needs a build with -tags clp)")
	fs.IntVar(&s.o.LPIter, "lp-iter", 20, "lp: at most this many LPs")
	fs.DurationVar(&s.o.LPTime, "lp-time", 0, "lp: stop the LP iteration after this long and round (0: only -timeout)")
	fs.BoolVar(&s.o.NoSearch, "no-search", false, "lp: stop after the LP iteration (no rounding and search)")
	fs.BoolVar(&s.o.LPPlain, "lp-plain", false, "lp: Algorithm 1 as published (no pruning of the LP, no perturbation on stalls)")
}

// check reports an unknown -algo.
func (s *solveFlags) check() error {
	if _, err := catalog.EdgeMatch.Lookup(s.algo); err != nil {
		return usagef("unknown -algo %q (have %s)", s.algo, strings.Join(catalog.EdgeMatch.IDs(), ", "))
	}
	return nil
}

// solver builds the solver from the catalogue: an option that does not suit
// it is a usage error, a backend missing from this build a failure.
func (s *solveFlags) solver() (edgematch.Solver, error) {
	solver, err := catalog.EdgeMatch.New(s.algo, s.o)
	if err != nil && !errors.Is(err, lp.ErrNotBuilt) {
		err = usagef("%v", err)
	}
	return solver, err
}

// emSolveJSON is the -json output of edgematch solve.
type emSolveJSON struct {
	Puzzle      string  `json:"puzzle"`
	Algo        string  `json:"algo"`
	Score       int     `json:"score"`
	Max         int     `json:"max"`
	Solved      bool    `json:"solved"`
	FrameErrors int     `json:"frame_errors,omitempty"`
	Empty       int     `json:"empty,omitempty"`
	Seconds     float64 `json:"seconds"`
	Nodes       int64   `json:"nodes"`
	NodesPerSec float64 `json:"nodes_per_second,omitempty"`
	Moves       int64   `json:"moves,omitempty"`
	Solutions   int64   `json:"solutions,omitempty"`
	Seed        uint64  `json:"seed,omitempty"`
	Iterations  int     `json:"lp_iterations,omitempty"`
	Permutation bool    `json:"lp_permutation,omitempty"`
	Method      string  `json:"lp_method,omitempty"`
	Board       string  `json:"board"`
	URL         string  `json:"url,omitempty"`
	Error       string  `json:"error,omitempty"`
}

var emSolveCmd = &Command{
	Name:      "solve",
	UsageLine: "[-algo " + strings.Join(catalog.EdgeMatch.IDs(), "|") + "] [-order O] [-count] [-hints FILE [-nhints K]] [-timeout D] [-seed S] [-resume B.board] [-json] P.txt [-o B.board]",
	Short:     "solve a puzzle, or find the best partial board",
	Long: `Solve searches the puzzle in P.txt with the solver -algo and prints the board
with its score (matched internal edges, recomputed from the pieces, never
taken from the solver). The solvers:

` + catalog.EdgeMatch.Help() + `
-algo dfs is the exact backtracker: candidate tables by the colours of two
known sides, a bitset of used pieces, every core on subtrees split off the top
of the tree (the earliest first); -count counts the solutions. It exits with status 1 when it proves that
there is no solution or stops at -timeout or -max-nodes.

-algo partial maximises the score of complete boards (Eternity II): a start
board from the backtracker, then large neighbourhood search (window and
assignment repairs, kicks) on every core until -timeout. With -o it saves
every new best board at once (atomically), with the seed in its comments;
-resume B.board continues from a saved board.

-algo lp is the iterative LP relaxation of Kovalsky, Glasner and Basri: it
reports the LPs solved and whether P became a permutation, then (unless
-no-search) rounds P, fixes the confident cells and finishes with the
backtracker.`,
	Flags: func(fs *flag.FlagSet) Runner {
		var sf solveFlags
		var hf hintFlags
		sf.define(fs)
		hf.define(fs)
		fs.BoolVar(&sf.o.Count, "count", false, "dfs: count all solutions instead of stopping at the first")
		resume := fs.String("resume", "", "partial: start from this board (a saved best)")
		url := fs.Bool("url", false, "print the board as an e2.bucas.name viewer URL")
		seed := seedFlag(fs)
		timeout := timeoutFlag(fs, time.Minute)
		out := outFlag(fs, "the board (partial: every new best, atomically)")
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) != 1 {
				return usagef("want one puzzle file")
			}
			if err := sf.check(); err != nil {
				return err
			}
			p, err := hf.read(env, args[0])
			if err != nil {
				return err
			}
			if *resume != "" {
				if sf.o.Start, err = readEdgeBoard(*resume, p); err != nil {
					return err
				}
			}
			pr := newProgress(env, *prog)
			defer pr.Done()
			name := filepath.Base(args[0])
			t0 := time.Now()
			var saveErr error
			sf.o.Seed, sf.o.Progress = *seed, pr.Printf
			sf.o.OnBest = func(b *edgematch.Board, s edgematch.Score) {
				pr.Logf("new best %v after %.1f s", s, time.Since(t0).Seconds())
				if *out != "" {
					if err := writeFileAtomic(*out, boardFile(b, name, p, s, "partial", *seed, time.Since(t0))); err != nil && saveErr == nil {
						saveErr = err
					}
				}
			}
			solver, err := sf.solver()
			if err != nil {
				return err
			}
			pr.Logf("%s: %s; algo %s, seed %d", name, p.Describe(), sf.algo, *seed)
			sctx, cancel := withTimeout(ctx, *timeout)
			defer cancel()
			res, err := bench.EdgeMatchSolve(sctx, solver, p)
			pr.Done()
			if saveErr != nil {
				return saveErr
			}
			if res.Board == nil {
				return err
			}
			if *out != "" && sf.algo != "partial" {
				if err := writeFileAtomic(*out, boardFile(res.Board, name, p, res.Score, sf.algo, *seed, res.Stats.Elapsed)); err != nil {
					return err
				}
			}
			if errors.Is(err, context.DeadlineExceeded) {
				err = fmt.Errorf("stopped by -timeout %v: %w", *timeout, err)
			}
			r := emSolved{name: name, p: p, res: res, sf: &sf, seed: *seed, out: *out, showURL: *url}
			if *url {
				r.url, _ = p.BucasURL(res.Board, strings.TrimSuffix(name, filepath.Ext(name)))
			}
			if *asJSON {
				if werr := r.writeJSON(env.Stdout, err); werr != nil {
					return werr
				}
				return err
			}
			r.print(env.Stdout)
			return err
		}
	},
}

// emSolved is what edgematch solve prints.
type emSolved struct {
	name, url, out string
	p              *edgematch.Puzzle
	res            edgematch.Result
	sf             *solveFlags
	seed           uint64
	showURL        bool
}

func (r *emSolved) writeJSON(w io.Writer, err error) error {
	res, partial := r.res, r.sf.algo == "partial"
	j := emSolveJSON{Puzzle: r.name, Algo: r.sf.algo, Score: res.Score.Matched, Max: res.Score.Max, Solved: res.Score.Solved(),
		FrameErrors: res.Score.FrameErrors, Empty: res.Score.Empty, Seconds: seconds(res.Stats.Elapsed), Nodes: res.Stats.Nodes,
		NodesPerSec: res.Stats.NodesPerSecond(), Board: strings.TrimSpace(strings.ReplaceAll(res.Board.String(), "\n", "/")), URL: r.url}
	if r.sf.o.Count {
		j.Solutions = res.Stats.Solutions
	}
	if partial {
		j.Seed, j.Moves, j.NodesPerSec = r.seed, res.Stats.Moves, 0
	}
	if l := res.LP; l != nil {
		j.Iterations, j.Permutation, j.Method = l.Iterations, l.Permutation, l.Method
	}
	if err != nil {
		j.Error = err.Error()
	}
	return writeJSON(w, j)
}

func (r *emSolved) print(w io.Writer) {
	res := r.res
	fmt.Fprintf(w, "puzzle   %s: %s\n", r.name, r.p.Describe())
	if res.Board.Filled() > 0 {
		fmt.Fprintf(w, "board\n\t%s\n", strings.ReplaceAll(strings.TrimSuffix(res.Board.String(), "\n"), "\n", "\n\t"))
	}
	state := "solved"
	if !res.Score.Solved() {
		state = fmt.Sprintf("%d mismatches", res.Score.Mismatches())
	}
	fmt.Fprintf(w, "score    %v (%s)\n", res.Score, state)
	if r.sf.o.Count {
		fmt.Fprintf(w, "count    %d solutions\n", res.Stats.Solutions)
	}
	if l := res.LP; l != nil {
		fmt.Fprintf(w, "lp       %d LPs (%s), %d variables, %d constraints; permutation: %v; %d fractional entries left; %.2f s in LPs\n",
			l.Iterations, r.sf.o.LPBackend, l.Variables, l.Constraints, l.Permutation, l.Fractional, l.LPTime.Seconds())
		switch l.Method {
		case "lp+search":
			fmt.Fprintf(w, "method   %s (%d cells fixed from P, then the backtracker)\n", l.Method, l.Fixed)
		case "search":
			fmt.Fprintf(w, "method   %s (the backtracker alone, after fixing cells from P failed or was not possible)\n", l.Method)
		case "lp":
			fmt.Fprintf(w, "method   lp (P is a permutation: the LP alone solved the puzzle)\n")
		}
	}
	st := res.Stats
	if r.sf.algo == "partial" {
		fmt.Fprintf(w, "search   %d placements for the start boards, %d improvement moves, %.2f s, seed %d\n", st.Nodes, st.Moves, st.Elapsed.Seconds(), r.seed)
	} else {
		fmt.Fprintf(w, "search   %d placements (%.1f M/s), %.2f s\n", st.Nodes, st.NodesPerSecond()/1e6, st.Elapsed.Seconds())
	}
	if r.showURL {
		fmt.Fprintf(w, "viewer   %s\n", r.url)
	}
	if r.out != "" {
		fmt.Fprintf(w, "saved    %s\n", r.out)
	}
}

// boardFile is a board file with comments saying where it comes from.
func boardFile(b *edgematch.Board, puzzle string, p *edgematch.Puzzle, s edgematch.Score, algo string, seed uint64, elapsed time.Duration) []byte {
	comments := []string{
		fmt.Sprintf("%s, score %v, tessera edgematch solve -algo %s -seed %d, found after %.1f s", puzzle, s, algo, seed, elapsed.Seconds()),
		"format: \"ROWS COLS\", then ROWS lines of \"PIECE/ROT\" (row 1 = top; ROT = clockwise quarter turns; 0/0 = empty)",
	}
	if url, err := p.BucasURL(b, strings.TrimSuffix(puzzle, filepath.Ext(puzzle))); err == nil {
		comments = append(comments, "viewer: "+url)
	}
	return edgematch.Format(b, comments...)
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
	Flags: func(fs *flag.FlagSet) Runner {
		var hf hintFlags
		hf.define(fs)
		orderName := fs.String("order", "all", "scan order: all, rows, columns, frame or spiral")
		allScans := fs.Bool("scans", false, "estimate the 16 scans from every corner (rows, columns, spirals both ways)")
		probes := fs.Int("probes", 100000, "random walks per order")
		seed := seedFlag(fs)
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) != 1 {
				return usagef("want one puzzle file")
			}
			var scans []edgematch.Scan
			for _, o := range []edgematch.Order{edgematch.OrderRows, edgematch.OrderColumns, edgematch.OrderFrameFirst, edgematch.OrderSpiral} {
				scans = append(scans, edgematch.Scan{Order: o})
			}
			switch {
			case *allScans && *orderName != "all":
				return usagef("-scans and -order exclude each other")
			case *allScans:
				scans = edgematch.Scans()
			case *orderName != "all":
				o, err := edgematch.ParseOrder(*orderName)
				if err != nil {
					return usagef("%v", err)
				}
				scans = []edgematch.Scan{{Order: o}}
			}
			if *probes < 1 {
				return usagef("-probes must be at least 1")
			}
			p, err := hf.read(env, args[0])
			if err != nil {
				return err
			}
			w := env.Stdout
			width := 8
			if *allScans {
				width = 46
			}
			if !*asJSON {
				fmt.Fprintf(w, "%s: %s\n", args[0], p.Describe())
				fmt.Fprintf(w, "%-*s %12s %10s %10s\n", width, "order", "tree nodes", "± (1 se)", "complete")
			}
			for _, sc := range scans {
				est, err := edgematch.EstimateScan(ctx, p, sc, *probes, *seed)
				if err != nil {
					return err
				}
				name := sc.String()
				if !*allScans {
					name = sc.Order.String()
				}
				if *asJSON {
					if err := writeJSON(w, map[string]any{"order": name, "nodes": est.Nodes, "stderr": est.StdErr,
						"probes": est.Probes, "complete": est.Complete, "seconds": seconds(est.Elapsed)}); err != nil {
						return err
					}
					continue
				}
				fmt.Fprintf(w, "%-*s %12.3g %10.2g %10d\n", width, name, est.Nodes, est.StdErr, est.Complete)
			}
			return nil
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
exits with status 1 when the board does not fit the puzzle (a piece placed
twice, out of range, a wrong size).`,
	Flags: func(fs *flag.FlagSet) Runner {
		var hf hintFlags
		hf.define(fs)
		url := fs.Bool("url", false, "print the board as an e2.bucas.name viewer URL")
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) != 2 {
				return usagef("want a puzzle file and a board")
			}
			p, err := hf.read(env, args[0])
			if err != nil {
				return err
			}
			b, err := readEdgeBoard(args[1], p)
			if err != nil {
				return err
			}
			s := p.Score(b)
			verr := p.Verify(b)
			viewer, _ := p.BucasURL(b, strings.TrimSuffix(filepath.Base(args[0]), filepath.Ext(args[0])))
			if *asJSON {
				j := map[string]any{"score": s.Matched, "max": s.Max, "solved": s.Solved(), "frame_errors": s.FrameErrors,
					"empty": s.Empty, "complete": verr == nil}
				if verr != nil {
					j["problem"] = verr.Error()
				}
				if *url {
					j["url"] = viewer
				}
				return writeJSON(env.Stdout, j)
			}
			w := env.Stdout
			fmt.Fprintf(w, "score    %v (%d mismatches)\n", s, s.Mismatches())
			switch {
			case s.Solved() && verr == nil:
				fmt.Fprintln(w, "status   solved: every piece once, hints in place, every edge matches")
			case verr == nil:
				fmt.Fprintln(w, "status   complete: every piece once, hints in place")
			default:
				fmt.Fprintf(w, "status   not a complete placement: %v\n", strings.TrimPrefix(verr.Error(), "edgematch: "))
			}
			if *url {
				fmt.Fprintf(w, "viewer   %s\n", viewer)
			}
			return nil
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
	Flags: func(fs *flag.FlagSet) Runner {
		cell := fs.Int("cell", 48, "cell size in pixels")
		plain := fs.Bool("no-highlight", false, "do not mark the mismatches")
		out := outFlag(fs, "the PNG")
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) != 2 {
				return usagef("want a puzzle file and a board")
			}
			if *out == "" {
				return usagef("-o out.png is required")
			}
			if *cell < 8 || *cell > 512 {
				return usagef("-cell %d: want 8..512 pixels", *cell)
			}
			p, err := readPuzzle(env, args[0])
			if err != nil {
				return err
			}
			b, err := readEdgeBoard(args[1], p)
			if err != nil {
				return err
			}
			img := p.Render(b, edgematch.RenderOptions{Cell: *cell, NoHighlight: *plain})
			var buf bytes.Buffer
			if err := png.Encode(&buf, img); err != nil {
				return err
			}
			if err := writeFileAtomic(*out, buf.Bytes()); err != nil {
				return err
			}
			fmt.Fprintf(env.Stdout, "%s: %dx%d pixels, score %v\n", *out, img.Bounds().Dx(), img.Bounds().Dy(), p.Score(b))
			return nil
		}
	},
}

package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"path/filepath"
	"strings"
	"time"

	"tessera/edgematch"
	"tessera/edgematch/relax"
	"tessera/edgematch/sat"
	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/internal/dist"
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
		Commands: []*Command{emGenerateCmd, emSolveCmd, emEstimateCmd, emScoreCmd, emRenderCmd, emBenchCmd, emExportCmd},
	})
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

// read reads a puzzle file ("-" for stdin) and adds the hints of -hints.
// A puzzle, hints or board file that cannot be read or parsed is bad input
// named on the command line: a usage error (exit status 2) whose message
// names the file and, for a malformed one, the line.
func (h *hintFlags) read(env *Env, path string) (*edgematch.Puzzle, error) {
	if err := h.check(); err != nil {
		return nil, err
	}
	p, err := readPuzzle(env, path)
	if err == nil && h.file != "" {
		if err = p.AddHintsFile(h.file, h.n); err != nil {
			err = emBadInput(err)
		}
	}
	return p, err
}

// check rejects -nhints without -hints and a negative -nhints.
func (h *hintFlags) check() error {
	switch {
	case h.n < 0:
		return usagef("-nhints %d: want a count (0: all the hints)", h.n)
	case h.file == "" && h.n != 0:
		return usagef("-nhints needs -hints")
	}
	return nil
}

// readPuzzle reads a piece-set file ("-" for stdin).
func readPuzzle(env *Env, path string) (*edgematch.Puzzle, error) {
	if path != "-" {
		if err := regularFile(path); err != nil {
			return nil, emBadInput(err)
		}
		p, err := edgematch.ReadPuzzleFile(path)
		return p, emBadInput(err)
	}
	p, err := edgematch.ParsePuzzle(env.Stdin)
	if err != nil {
		return nil, emBadInput(fmt.Errorf("-: %w", err))
	}
	return p, nil
}

// emReadBoard reads a board file or viewer URL of p named on the command
// line: one that cannot be read, is malformed or does not fit p is a usage
// error.
func emReadBoard(path string, p *edgematch.Puzzle) (*edgematch.Board, error) {
	if err := regularFile(path); err != nil { // a viewer URL does not exist: it passes
		return nil, emBadInput(err)
	}
	b, err := edgematch.ReadBoard(path, p)
	return b, emBadInput(err)
}

// emBadInput makes the error of reading a file named on the command line a
// usage error (nil stays nil).
func emBadInput(err error) error {
	if err == nil {
		return nil
	}
	return usagef("%v", err)
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
			if o.Rows, o.Cols, err = edgematch.ParseSize(*size); err != nil {
				return usagef("%v", err)
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
	algo     string
	o        catalog.EdgeMatchOptions
	lpMaxMiB int64
}

func (s *solveFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&s.algo, "algo", "dfs", "solver: "+strings.Join(catalog.EdgeMatch.IDs(), ", ")+" (listed by tessera help edgematch solve)")
	fs.StringVar(&s.o.Order, "order", "auto", "dfs scan order: auto, rows, columns, frame, spiral, or a scan from a corner as listed by estimate -scans")
	fs.IntVar(&s.o.Workers, "workers", 0, "goroutines (0: one per core)")
	fs.Int64Var(&s.o.MaxNodes, "max-nodes", 0, "dfs: stop after this many placements; partial, tiles: after this many per worker, reproducibly with -workers 1 (0: no limit)")
	fs.StringVar(&s.o.LPBackend, "lp", "pdhg", "lp backend: pdhg (pure Go) or clp (needs a build with -tags clp)")
	fs.IntVar(&s.o.LPIter, "lp-iter", 20, "lp: at most this many LPs")
	fs.DurationVar(&s.o.LPTime, "lp-time", 0, "lp: stop the LP iteration after this long and round (0: only -timeout)")
	fs.BoolVar(&s.o.NoSearch, "no-search", false, "lp: stop after the LP iteration (no rounding and search)")
	fs.BoolVar(&s.o.LPPlain, "lp-plain", false, "lp: Algorithm 1 as published (no pruning of the LP, no perturbation on stalls)")
	fs.Int64Var(&s.lpMaxMiB, "lp-max-mem", relax.DefaultLPMemory>>20, "lp: refuse a puzzle whose LP would need more than about this many MiB (estimated before building it)")
	fs.Int64Var(&s.o.MaxMoves, "max-moves", 0, "lns: stop each worker after this many improvement moves (0: no limit); reproducible, unlike -timeout")
	fs.StringVar(&s.o.SATSolver, "sat-solver", "", "sat: the SAT solver, a name on the PATH or a path (default: the first of "+strings.Join(sat.SATSolvers, ", ")+")")
	fs.Int64Var(&s.o.MaxSolutions, "max-solutions", 0, "sat -count: stop after this many solutions (0: no limit)")
}

// check reports an unknown -algo and a -lp-max-mem that is not positive.
func (s *solveFlags) check() error {
	if _, err := catalog.EdgeMatch.Lookup(s.algo); err != nil {
		return usagef("unknown -algo %q (have %s)", s.algo, strings.Join(catalog.EdgeMatch.IDs(), ", "))
	}
	if s.lpMaxMiB < 1 {
		return usagef("-lp-max-mem %d: want at least 1 MiB", s.lpMaxMiB)
	}
	s.o.LPMaxMemory = s.lpMaxMiB << 20
	return nil
}

// lpTooLarge adds to an *relax.LPSizeError the flag that raises the
// bound.
func lpTooLarge(err error) error {
	var se *relax.LPSizeError
	if errors.As(err, &se) {
		return fmt.Errorf("%w; -lp-max-mem %d would allow it", err, (se.Need+1<<20-1)>>20)
	}
	return err
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

var emSolveCmd = &Command{
	Name:      "solve",
	UsageLine: "[-algo " + strings.Join(catalog.EdgeMatch.IDs(), "|") + "] [-order O] [-count] [-split K] [-nats URL] [-hints FILE [-nhints K]] [-timeout D] [-max-nodes N] [-max-moves N] [-lp-max-mem MiB] [-seed S] [-resume B.board] [-snapshots DIR] [-json] P.txt [-o B.board]",
	Short:     "solve a puzzle, or find the best partial board",
	Long: `Solve searches the puzzle in P.txt with the solver -algo and prints the board
with its score (matched internal edges, recomputed from the pieces, never
taken from the solver). The solvers:

` + catalog.EdgeMatch.Help() + `
dfs, lp and sat exit with status 1 when they prove that there is no solution or
stop at -timeout or -max-nodes; sat runs the SAT solver -sat-solver (default:
cadical, found on the PATH) on the CNF that "edgematch export" writes, and
verifies the board it decodes; sat -count re-runs it with each solution
blocked, up to -max-solutions; lp reports the LPs solved and whether P became
a permutation. lp first estimates the memory of its LP and refuses a puzzle
that would need more than -lp-max-mem MiB (default 1024: a framed 24x24 puzzle
with 100 colours needs about 300, a 32x32 one about 1100); -timeout covers
building the LP too.

partial, the partial search for boards out of exact reach (Eternity II), is
the break-schedule search of the record boards, on -workers cores until
-timeout or -max-nodes placements per worker; tiles is the same search with
a group of well-tiling pieces kept for the end; lns is the large
neighbourhood search, until -timeout or -max-moves. All three save every new
best board with -o at once (atomically), with the algorithm and seed in its
comments. -resume B.board: lns improves the saved board; partial and tiles
keep it as the floor (the result is never worse; one worker first spends
repair moves on it) and restart their backtracker on random streams drawn
from -seed and the board, so a resumed run continues the search with new
restarts rather than repeating the first run's (the same -seed, board and
-max-nodes give the same result again with -workers 1). partial and tiles
count the boards their backtracker completes: -progress and -json give how
many, and how many scored each score within 20 of the maximum ("near", keyed
by the score), which tells how fast the boards thin out towards the top.

-split K (dfs) splits the search into the subtrees below the placements of
the first K cells of the scan, independent tasks taken in scan order by
-workers goroutines: the first solution found stops the others (with one
worker it is the plain search's), or with -count the subtrees' counts are
added. Choose K so that there are many more subtrees than workers (the report
gives their number). With -nats URL the subtrees are jobs (128 queued ahead,
in scan order) for the workers of that NATS server ("tessera worker -nats
URL" on each machine); the first solution cancels the rest. -journal FILE
makes a long split search resumable: each subtree searched to its end is
appended to FILE as a JSON line (its prefix, placements, solutions and first
solution), and a later run with the same puzzle, -order, -split and -count
skips the subtrees FILE records and adds their counts, so a count of hours
can run in pieces (stop it with Ctrl-C or -timeout; the subtrees running
then are searched again next time).

With -nats URL, partial, tiles and lns run -workers seeded searches (seeds
-seed, -seed+1, ...), each a job with one worker; the best board of all is
kept, printed as it improves (-progress) and saved with -o; -timeout ends
them all.

Budgets and reproducibility: -max-moves (lns) counts each worker's moves, so
a run it ends gives the same board every time for the same -seed and
-workers (also on another machine); -max-nodes counts placements: per worker
for partial and tiles, in all for dfs and lp's search, reproducibly with
-workers 1 (partial's workers share their best score, which decides which
boards they polish) and with -nats, whose searches have one worker each. -timeout and -lp-time are wall-clock time: a
run they end depends on the machine and its load, so for a reproducible
partial search give -max-nodes (lns: -max-moves) with -timeout 0 (or a
-timeout long enough not to end it first; the report says which ended it).

With -algo lp, -snapshots DIR writes the board that P rounds to and the matrix
P (a row per cell, a column per piece, white 1 to black 0 as in the paper's
Figure 4c) after every LP (lp-NN-board.png, lp-NN-P.png) and all of them side
by side (iterates.png).`,
	Flags: func(fs *flag.FlagSet) Runner {
		var sf solveFlags
		var hf hintFlags
		sf.define(fs)
		hf.define(fs)
		fs.BoolVar(&sf.o.Count, "count", false, "dfs, sat: count all solutions instead of stopping at the first")
		fs.IntVar(&sf.o.Split, "split", 0, "dfs: split the search into independent subtrees below the placements of the first K cells of the scan, run on -workers goroutines (0: no split, work stealing on every core)")
		resume := fs.String("resume", "", "partial, tiles: keep this board (a saved best) as the one to beat and restart from -seed and it; lns: improve it")
		url := fs.Bool("url", false, "print the board as an e2.bucas.name viewer URL")
		seed := seedFlag(fs)
		timeout := timeoutFlag(fs, time.Minute)
		out := outFlag(fs, "the board (partial, tiles, lns: every new best, atomically)")
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
		snapDir := fs.String("snapshots", "", "lp: write the board and the matrix P after every LP as pictures to this folder")
		natsURL := solveNATSFlag(fs, "dfs -split's subtrees or the -workers seeded searches of partial, tiles or lns")
		journal := fs.String("journal", "", "dfs -split: record each subtree searched to its end in this file, and skip the subtrees it records (a long search or count goes on where it stopped; one run at a time per file)")
		return func(ctx context.Context, env *Env, args []string) (err error) {
			if len(args) != 1 {
				return usagef("want one puzzle file")
			}
			if err := sf.check(); err != nil {
				return err
			}
			if *natsURL != "" {
				switch {
				case sf.algo == "dfs" && sf.o.Split == 0:
					return usagef("-nats with -algo dfs needs -split K (the subtrees are the jobs)")
				case sf.algo != "dfs" && !partialAlgo(sf.algo):
					return usagef("-nats applies to -algo dfs -split K and -algo partial, tiles and lns")
				}
				client, closeClient, err := solveClient(ctx, *natsURL)
				if err != nil {
					return err
				}
				defer closeClient()
				if sf.algo == "dfs" {
					sf.o.Subtrees = dist.Subtrees{Client: client}
				} else {
					sf.o.Searches = dist.Partial{Client: client}
				}
			}
			if *snapDir != "" && sf.algo != "lp" {
				return usagef("-snapshots applies to -algo lp")
			}
			p, err := hf.read(env, args[0])
			if err != nil {
				return err
			}
			snaps, err := bench.NewLPSnapshots(*snapDir, p)
			if err != nil {
				return err
			}
			if snaps != nil {
				sf.o.OnLP = snaps.Add
			}
			if *resume != "" {
				if sf.o.Start, err = emReadBoard(*resume, p); err != nil {
					return err
				}
			}
			pr := newProgress(env, *prog)
			defer pr.Done()
			var resumed int
			var resumedNodes int64
			if *journal != "" {
				if sf.algo != "dfs" || sf.o.Split <= 0 {
					return usagef("-journal applies to -algo dfs -split K")
				}
				j, searched, err := openSplitJournal(*journal, journalHeader{Puzzle: puzzleDigest(p), Order: sf.o.Order,
					Depth: sf.o.Split, Count: sf.o.Count}, p)
				if err != nil {
					return emBadInput(err)
				}
				var sols int64
				for _, ss := range searched {
					resumedNodes += ss.Result.Stats.Nodes
					sols += ss.Result.Stats.Solutions
				}
				resumed = len(searched)
				pr.Logf("journal %s: %d subtrees searched before (%d placements, %d solutions); %d recorded with solutions are counted again", *journal, resumed, resumedNodes, sols, len(j.recount))
				sf.o.SplitSearched, sf.o.OnSearched = searched, j.add
				defer func() {
					if cerr := j.Close(); cerr != nil && err == nil {
						err = fmt.Errorf("journal %s: %w", *journal, cerr)
					}
				}()
			}
			name := filepath.Base(args[0])
			t0 := time.Now()
			var saveErr error
			sf.o.Seed, sf.o.Progress = *seed, pr.Printf
			sf.o.OnBest = func(b *edgematch.Board, s edgematch.Score) {
				pr.Logf("new best %v after %.1f s", s, time.Since(t0).Seconds())
				if *out != "" {
					if err := writeFileAtomic(*out, boardFile(b, name, p, s, sf.algo, *seed, time.Since(t0))); err != nil && saveErr == nil {
						saveErr = err
					}
				}
			}
			splitDepth := 0
			sf.o.OnSplit = func(depth, n int) {
				splitDepth = depth
				pr.Logf("split into %d subtrees below the first %d cells of the scan", n, depth)
			}
			solver, err := sf.solver()
			if err != nil {
				return err
			}
			pr.Logf("%s: %s; algo %s, seed %d", name, p.Describe(), sf.algo, *seed)
			sctx, cancel := withTimeout(ctx, *timeout)
			defer cancel()
			res, err := bench.EdgeMatchSolve(sctx, solver, p)
			timedOut := sctx.Err() != nil && ctx.Err() == nil
			err = lpTooLarge(err)
			pr.Done()
			if serr := snaps.Finish(); serr != nil {
				return serr
			}
			if saveErr != nil {
				return saveErr
			}
			if res.Board == nil {
				return err
			}
			if *out != "" && !bench.EdgeMatchAnytime(solver) {
				if err := writeFileAtomic(*out, boardFile(res.Board, name, p, res.Score, sf.algo, *seed, res.Stats.Elapsed)); err != nil {
					return err
				}
			}
			if errors.Is(err, context.DeadlineExceeded) {
				err = fmt.Errorf("stopped by -timeout %v: %w", *timeout, err)
			}
			r := bench.EdgeMatchSolved{Name: name, Puzzle: p, Algo: sf.algo, Backend: sf.o.LPBackend, Result: res, Err: err,
				Count: sf.o.Count, Seed: *seed, ShowURL: *url, Saved: *out, TimedOut: timedOut, MaxMoves: sf.o.MaxMoves, MaxNodes: sf.o.MaxNodes,
				SplitDepth: splitDepth, Resumed: resumed, ResumedNodes: resumedNodes}
			if *asJSON {
				if werr := writeJSON(env.Stdout, r.Record()); werr != nil {
					return werr
				}
			} else {
				r.Print(env.Stdout)
			}
			return err
		}
	},
}

// partialAlgo reports whether algo is one of the partial searches, which
// -nats runs as seeded jobs.
func partialAlgo(algo string) bool {
	return algo == "partial" || algo == "tiles" || algo == "lns"
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
the message names the file and the line.`,
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
			b, err := emReadBoard(args[1], p)
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
			b, err := emReadBoard(args[1], p)
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

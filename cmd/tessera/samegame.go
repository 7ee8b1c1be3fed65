package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/internal/dist"
	"tessera/internal/play"
	"tessera/samegame"
)

func init() {
	register(&Command{
		Name:  "samegame",
		Short: "cluster-clearing games (SameGame, the dust game): solve, play, generate, bench",
		Long: `Cluster-clearing games: clicking a cell removes its group of same-coloured
neighbours, the cells above fall, and the board closes up.

Two rule sets (-rules): standard SameGame (groups of two or more score
(n-2)^2, +1000 for an empty board, columns close up to the left; higher
scores are better) and the source blog's dust game (any group, even one
cell; each row is packed toward the centre; the fewest clicks wins).

Board files hold one or more boards, top row first: rows of digits
separated by spaces ("3 1 1 4", the standard set) or words of the letters
GORYB... ("GGGGBOYO", the blog), with '.' for an empty cell, each board
after a "position N" or "example NAME"/"board" line or a blank line. FILE:N
names the N-th board of a file (from 1). Clicks are written x,y: x the
column from the left, y the row from the bottom. Sizes are COLSxROWS.`,
		Commands: []*Command{samegameSolveCmd, samegamePlayCmd, samegameGenerateCmd, samegameBenchCmd, samegameDatasetCmd, samegameTrainCmd},
	})
}

// readSetFile reads the boards of a set file ("-" for stdin), at most
// samegame.MaxSetBytes of it. rulesName is the -rules flag: "" chooses dust
// for boards written in letters and standard for digits. A file too large
// or malformed is bad input named on the command line (exit 2).
func readSetFile(env *Env, name, rulesName string) ([]samegame.Entry, samegame.Rules, error) {
	r := env.Stdin
	if name != "-" {
		if err := regularFile(name); err != nil {
			return nil, 0, usagef("%v", err)
		}
		f, err := os.Open(name)
		if err != nil {
			return nil, 0, err
		}
		defer f.Close()
		r = f
	}
	data, err := samegame.ReadSet(r)
	if errors.Is(err, samegame.ErrTooLarge) {
		return nil, 0, usagef("%s: %v", name, err)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", name, err)
	}
	var rules samegame.Rules
	switch {
	case rulesName != "":
		if rules, err = samegame.ParseRules(rulesName); err != nil {
			return nil, 0, usagef("%v", err)
		}
	case samegame.DetectNotation(string(data)) == samegame.Letters:
		rules = samegame.Dust
	}
	entries, err := samegame.ParseSet(bytes.NewReader(data), rules)
	if err != nil {
		return nil, 0, usagef("%s: %v", name, err)
	}
	return entries, rules, nil
}

// readBoardArg reads the board named by FILE[:N] (the first without :N),
// and returns it with its rules, the file and N.
func readBoardArg(env *Env, arg, rulesName string) (samegame.Entry, samegame.Rules, string, int, error) {
	file, n, err := splitBoardArg(arg)
	if err != nil {
		return samegame.Entry{}, 0, "", 0, err
	}
	entries, rules, err := readSetFile(env, file, rulesName)
	if err != nil {
		return samegame.Entry{}, 0, "", 0, err
	}
	n = max(n, 1)
	if n > len(entries) {
		return samegame.Entry{}, 0, "", 0, usagef("%s has %d boards, not %d", file, len(entries), n)
	}
	return entries[n-1], rules, file, n, nil
}

// splitBoardArg splits FILE:N into the file and the 1-based board number
// (0 when not given).
func splitBoardArg(arg string) (string, int, error) {
	if i := strings.LastIndexByte(arg, ':'); i > 0 {
		if n, err := strconv.Atoi(arg[i+1:]); err == nil {
			if n < 1 {
				return "", 0, usagef("board number %d in %q must be at least 1", n, arg)
			}
			return arg[:i], n, nil
		}
	}
	return arg, 0, nil
}

// sgSolverFlags are the flags that choose and tune a samegame solver.
type sgSolverFlags struct {
	rules, algo, ordering string
	opts                  catalog.SameGameOptions
}

func (f *sgSolverFlags) define(fs *flag.FlagSet, defAlgo string) {
	o := &f.opts
	fs.StringVar(&f.rules, "rules", "", "rules: standard or dust (default: dust for boards written in letters, else standard)")
	fs.StringVar(&f.algo, "algo", defAlgo, "solver: "+strings.Join(catalog.SameGame.IDs(), ", ")+" ('tessera help samegame solve' describes them)")
	fs.StringVar(&o.Model, "model", "", "nn, nn-after, nn-value, nn-beam, nn-mcts: the network file (default: the shipped dust network, for nn-after the shipped afterstate network; nn-beam -width defaults to 2000)")
	fs.IntVar(&o.Views, "views", 1, "with an afterstate -model: symmetric views of each board whose ratings are averaged (2: and its mirror image; up to 10)")
	fs.StringVar(&f.ordering, "order", "shortlook", "dfs move order: shortlook, largest or lookahead")
	fs.Uint64Var(&o.Seed, "seed", 1, "random seed: the same seed gives the same result")
	fs.Int64Var(&o.Nodes, "nodes", 0, "stop after this many nodes (dfs, exact, beam) or playouts (mcts, nmcs, nrpa); 0: no limit")
	fs.IntVar(&o.Level, "level", 0, "nesting level of nmcs (default 2) and nrpa (default 3)")
	fs.IntVar(&o.Iterations, "iterations", 0, "nrpa iterations per level (default 100); nn-mcts tree iterations per click (default 200)")
	fs.IntVar(&o.Width, "width", 0, "beam width (default 1000)")
	fs.IntVar(&o.TableBits, "table-bits", 0, "exact (default 23) and dfs on dust boards (default 22): a table of 2^N entries of 8 bytes")
	fs.BoolVar(&o.NoTabu, "no-tabu", false, "standard rules: let the Monte-Carlo searches break up the largest colour")
	fs.IntVar(&o.Dist, "dist", 0, "nrpa: distributed NRPA (Negrevergne and Cazenave): the root level here, N level-(L-1) searches at a time on N goroutines (0: the single-process NRPA)")
}

// options checks the flags and returns the solvers' options.
func (f *sgSolverFlags) options() (catalog.SameGameOptions, error) {
	o := f.opts
	var err error
	if o.Order, err = samegame.ParseOrdering(f.ordering); err != nil {
		return o, usagef("-order: %v", err)
	}
	if o.Level < 0 || o.Level > 10 || o.Iterations < 0 || o.Width < 0 || o.Nodes < 0 || o.Dist < 0 {
		return o, usagef("-level, -iterations, -width, -nodes and -dist must not be negative (and -level at most 10)")
	}
	if o.Dist > 0 && !strings.EqualFold(strings.TrimSpace(f.algo), "nrpa") {
		return o, usagef("-dist applies to -algo nrpa")
	}
	if o.TableBits != 0 && (o.TableBits < 10 || o.TableBits > 32) {
		return o, usagef("-table-bits %d out of range (10 to 32)", o.TableBits)
	}
	return o, nil
}

// algos reads the -algo list: catalogue ids, each at most once.
func (f *sgSolverFlags) algos() ([]string, error) {
	var ids []string
	for id := range strings.SplitSeq(f.algo, ",") {
		id = strings.ToLower(strings.TrimSpace(id))
		if _, err := catalog.SameGame.Lookup(id); err != nil {
			return nil, usagef("-algo: %v", err)
		}
		if slices.Contains(ids, id) {
			return nil, usagef("-algo names %s twice", id)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// sgSolveJSON is the -json output of samegame solve.
type sgSolveJSON struct {
	File     string  `json:"file"`
	Board    int     `json:"board"`
	Name     string  `json:"name"`
	Rules    string  `json:"rules"`
	Algo     string  `json:"algo"`
	Moves    string  `json:"moves"`
	Score    int     `json:"score"`
	Clicks   int     `json:"clicks"`
	Cleared  bool    `json:"cleared"`
	Left     int     `json:"left"`
	Optimal  bool    `json:"optimal"`
	Nodes    int64   `json:"nodes"`
	Playouts int64   `json:"playouts"`
	Seconds  float64 `json:"seconds"`
	Stopped  string  `json:"stopped,omitempty"`
	Error    string  `json:"error,omitempty"`
}

var samegameSolveCmd = &Command{
	Name:      "solve",
	UsageLine: "[-rules standard|dust] [-algo ID] [-timeout D] [-seed S] [-dist N [-nats URL]] [-json] FILE[:N]",
	Short:     "solve a board and print the clicks",
	Long: `Solve runs a solver on the N-th board of FILE (the first without :N; FILE
may be "-" for stdin) and prints the clicks, the score (standard) or the
number of clicks (dust), and whether the result is proven optimal.

-timeout is the search budget: the anytime solvers (all but exact) print
the best solution found when it ends and succeed; exact fails (exit 1) when
it ends before the proof.

-algo nrpa -dist N is the distributed NRPA of Negrevergne and Cazenave: the
root level runs here and adapts its policy, and N level-(L-1) searches at a
time, each from a copy of the root's policy with its own seed, run on N
goroutines, or with -nats URL as jobs on the workers of that NATS server
("tessera worker -nats URL"). The clicks depend on -seed, -level,
-iterations and -dist, not on the machines (unless -timeout ends the run);
-progress prints the best score as it improves. Without -dist, nrpa is the
single-process search.

Solvers (-algo; "optimal": a finished run proves its answer optimal):
` + catalog.SameGame.Help(),
	Flags: func(fs *flag.FlagSet) Runner {
		var sf sgSolverFlags
		sf.define(fs, "dfs")
		timeout := timeoutFlag(fs, time.Minute)
		cpu := cpuFlag(fs)
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
		out := outFlag(fs, "the clicks (x y per line)")
		natsURL := solveNATSFlag(fs, "nrpa -dist's level-(L-1) searches")
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) != 1 {
				return usagef("want one FILE[:N]")
			}
			if *natsURL != "" {
				if sf.opts.Dist == 0 {
					return usagef("-nats needs -algo nrpa -dist N (N searches at a time are the jobs)")
				}
				client, closeClient, err := solveClient(ctx, *natsURL)
				if err != nil {
					return err
				}
				defer closeClient()
				sf.opts.NRPAExec = dist.NRPA{Client: client}
			}
			entry, err := catalog.SameGame.Lookup(strings.ToLower(sf.algo))
			if err != nil {
				return usagef("-algo: %v", err)
			}
			opts, err := sf.options()
			if err != nil {
				return err
			}
			if *cpu && opts.Dist > 0 {
				return usagef("-cpu counts the time of one thread and -dist searches on several: give -dist a wall-clock -timeout")
			}
			e, rules, file, n, err := readBoardArg(env, args[0], sf.rules)
			if err != nil {
				return err
			}
			p := newProgress(env, *prog)
			defer p.Done()
			opts.Progress = func(s samegame.Solution) {
				p.Printf("searching: %s, %d nodes, %d playouts", describeBest(rules, s), s.Nodes, s.Playouts)
			}
			opts.Restart = *timeout > 0 // the anytime searches use the whole budget
			solver, err := entry.New(opts)
			if err != nil {
				return err
			}
			var sol samegame.Solution
			bench.WithBudget(ctx, *timeout, *cpu, func(ctx context.Context) { sol, err = solver.Solve(ctx, e.Board) })
			p.Done()
			stopped := ""
			if err != nil && errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
				stopped = fmt.Sprintf("-timeout %v", *timeout)
				if bench.SameGameAnytime(entry.ID) && len(sol.Moves) > 0 {
					err = nil
				} else {
					err = fmt.Errorf("stopped by -timeout %v before %s", *timeout, map[bool]string{true: "the proof", false: "any solution"}[len(sol.Moves) > 0])
				}
			}
			if *out != "" && len(sol.Moves) > 0 {
				var sb strings.Builder
				for _, m := range sol.Moves {
					fmt.Fprintf(&sb, "%d %d\n", m.X, m.Y)
				}
				if werr := writeFileAtomic(*out, []byte(sb.String())); werr != nil {
					return werr
				}
			}
			left := e.Board.Cells()
			if res, rerr := samegame.Replay(e.Board, sol.Moves); rerr == nil {
				left = res.Board.Cells()
			}
			if *asJSON {
				o := sgSolveJSON{File: file, Board: n, Name: e.Name, Rules: rules.String(), Algo: entry.ID,
					Moves: samegame.FormatMoves(sol.Moves), Score: sol.Score, Clicks: sol.Clicks, Cleared: sol.Cleared,
					Left: left, Optimal: sol.Optimal, Nodes: sol.Nodes, Playouts: sol.Playouts,
					Seconds: seconds(sol.Elapsed), Stopped: stopped}
				if err != nil {
					o.Error = err.Error()
				}
				if werr := writeJSON(env.Stdout, o); werr != nil {
					return werr
				}
				return err
			}
			w := env.Stdout
			fmt.Fprintf(w, "board    %s #%d (%s, %dx%d, %d colours, %s rules)\n", file, n, e.Name, e.Board.Width(), e.Board.Height(), e.Board.Colors(), rules)
			fmt.Fprint(w, indent(samegame.Format(e.Board, e.Notation), "         "))
			fmt.Fprintf(w, "solver   %s\n", entry.ID)
			if len(sol.Moves) > 0 || sol.Cleared {
				fmt.Fprintf(w, "clicks   %s\n", samegame.FormatMoves(sol.Moves))
				proof := "optimal"
				if !sol.Optimal {
					proof = "not proven optimal"
				}
				if rules == samegame.Dust {
					fmt.Fprintf(w, "result   %d clicks (%s)\n", sol.Clicks, proof)
				} else {
					fmt.Fprintf(w, "result   score %d, %d clicks, %d cells left (%s)\n", sol.Score, sol.Clicks, left, proof)
				}
			}
			fmt.Fprintf(w, "search   %d nodes, %d playouts, %.3f s", sol.Nodes, sol.Playouts, sol.Elapsed.Seconds())
			if stopped != "" {
				fmt.Fprintf(w, ", stopped by %s", stopped)
			}
			fmt.Fprintln(w)
			return err
		}
	},
}

// describeBest describes the best solution so far for a progress line.
func describeBest(rules samegame.Rules, s samegame.Solution) string {
	if rules == samegame.Dust {
		if !s.Cleared && len(s.Moves) == 0 {
			return "no solution yet"
		}
		return fmt.Sprintf("best %d clicks", s.Clicks)
	}
	return fmt.Sprintf("best score %d", max(s.Score, 0))
}

func indent(s, prefix string) string {
	var sb strings.Builder
	for line := range strings.Lines(s) {
		sb.WriteString(prefix + line)
	}
	return sb.String()
}

// cpuFlag defines -cpu.
func cpuFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("cpu", false, "count -timeout in CPU time of the solving thread, not wall-clock time (fair budgets on a loaded machine; Linux)")
}

// parseWxH reads COLSxROWS.
func parseWxH(s string) (int, int, error) {
	a, b, ok := strings.Cut(strings.ToLower(s), "x")
	w, err1 := strconv.Atoi(a)
	h, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || w < 1 || h < 1 || w > samegame.MaxSize || h > samegame.MaxSize {
		return 0, 0, usagef("bad size %q: want COLSxROWS, each from 1 to %d", s, samegame.MaxSize)
	}
	return w, h, nil
}

// sgRandomFlags are the flags of random boards: rules, size, colours, count.
type sgRandomFlags struct {
	rules, size string
	colors, n   int
}

func (f *sgRandomFlags) define(fs *flag.FlagSet, rules string, n int) {
	fs.StringVar(&f.rules, "rules", rules, "rules: standard or dust")
	fs.StringVar(&f.size, "size", "8x6", "board size COLSxROWS")
	fs.IntVar(&f.colors, "colors", 5, "number of colours (1 to 10)")
	fs.IntVar(&f.n, "n", n, "number of boards")
}

// parse checks the flags and returns the rules and size.
func (f *sgRandomFlags) parse() (rules samegame.Rules, w, h int, err error) {
	if rules, err = samegame.ParseRules(f.rules); err != nil {
		return 0, 0, 0, usagef("%v", err)
	}
	if w, h, err = parseWxH(f.size); err != nil {
		return 0, 0, 0, err
	}
	if f.colors < 1 || f.colors > samegame.MaxColors || f.n < 1 || f.n > 1000000 {
		return 0, 0, 0, usagef("-colors (1 to %d) or -n (1 to 1,000,000) out of range", samegame.MaxColors)
	}
	return rules, w, h, nil
}

var samegameGenerateCmd = &Command{
	Name:      "generate",
	UsageLine: "[-rules standard|dust] [-size COLSxROWS] [-colors K] [-n N] [-seed S] [-o FILE] [-json]",
	Short:     "print random boards in the set-file format",
	Long: `Generate prints N full boards whose cells are drawn uniformly from K colours,
in the format that solve and bench read: dust boards in the blog's letters,
standard boards in digits, each after a "position I" line. The same seed
gives the same boards. The defaults are the dust game's: 8x6, 5 colours.`,
	Flags: func(fs *flag.FlagSet) Runner {
		var rf sgRandomFlags
		rf.define(fs, "dust", 1)
		seed := seedFlag(fs)
		out := outFlag(fs, "the boards")
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) > 0 {
				return usagef("unexpected arguments %q", args)
			}
			rules, w, h, err := rf.parse()
			if err != nil {
				return err
			}
			var sb strings.Builder
			if !*asJSON {
				fmt.Fprintf(&sb, "# tessera samegame generate -rules %s -size %dx%d -colors %d -n %d -seed %d\n", rules, w, h, rf.colors, rf.n, *seed)
			}
			for i, e := range bench.SameGameBoards(rf.n, *seed, w, h, rf.colors, rules, 0) {
				if *asJSON {
					writeJSON(&sb, map[string]any{"board": i + 1, "rules": rules.String(), "size": fmt.Sprintf("%dx%d", w, h),
						"colors": rf.colors, "seed": *seed, "rows": samegame.Line(e.Board, e.Notation)})
					continue
				}
				fmt.Fprintf(&sb, "\nposition %d\n%s", i+1, samegame.Format(e.Board, e.Notation))
			}
			if *out != "" {
				return writeFileAtomic(*out, []byte(sb.String()))
			}
			_, err = io.WriteString(env.Stdout, sb.String())
			return err
		}
	},
}

// parseBoardList reads -boards "1,2,11" or ranges "1-5,11" (all for "").
func parseBoardList(s string, n int) ([]int, error) {
	list, err := bench.ParseList(s, n)
	if err != nil {
		return nil, usagef("bad -boards: %v; want numbers from 1 to %d, like 1,2,11 or 1-5", err, n)
	}
	return list, nil
}

var samegameBenchCmd = &Command{
	Name:      "bench",
	UsageLine: "-set FILE | -n K [-seed S] [-algo A[,A...]] [-timeout D] [-boards 1,2,11] [-workers K] [-plot PNG] [-o FILE] [-json] [-nats URL]",
	Short:     "solve every board of a set file and total the results",
	Long: `Bench solves the boards of a set file (all, or those -boards names by their
1-based number in the file), each with the -timeout budget and one core,
running -workers boards at a time (default: every core), and prints each
board's score (standard) or clicks (dust), whether it is proven optimal,
and the totals. When the file states an optimum ("optimal N", as the blog
examples and the files bench -o writes do), it also counts the boards solved
at the optimum and within one click of it.

With -json: one line per board, {"board": i, "score": s, "clicks": c,
"optimal": true|false|null, "seconds": t, ...} (optimal is null for the
searches that cannot prove optimality), in board order, then
{"summary": true, "boards": k, "total": T, "seconds": t, ...} where T is the
total score (standard) or the total clicks (dust) and t the wall-clock time.

-o FILE writes the boards with the solutions found, in the set format
("optimal N" for the proven ones): run exact with -o, then dfs on its output
to measure how far dfs is from the optimum.

-n K (instead of -set) draws K fresh boards as generate does with the same
-seed, -size and -colors (default: the dust game's 8x6 of 5 colours).

Several algorithms (-algo nn,dfs,exact) run on every board, each with the
-timeout budget, and are compared: the reference of a board is its optimum
when exact proves it (or the file states it), else the fewest clicks any
of them found. The table gives, per algorithm, how many boards end 0, 1,
2, ... clicks over the reference, the mean clicks, the mean excess and the
time per board and per click; with -json one line per board {"board",
"clicks": {algo: n}, "best", "proven", "seconds": {algo: s}} and then
{"summary": true, "boards", "proven", "mean_clicks", "mean_excess",
"at_best", "at_proven_optimum", "excess": {algo: [boards at +0, +1, ...]},
"ms_per_move", ...}. -plot PNG draws the source blog's figures: a 2-D
histogram of the first algorithm's clicks against the second's, with the
diagonal, and the histograms of clicks over the reference.`,
	Flags: func(fs *flag.FlagSet) Runner {
		var sf sgSolverFlags
		sf.define(fs, "nrpa")
		set := fs.String("set", "", "the set file (or -n)")
		n := fs.Int("n", 0, "instead of -set: this many random boards (as generate draws them with -seed)")
		size := fs.String("size", "8x6", "with -n: board size COLSxROWS")
		colors := fs.Int("colors", 5, "with -n: number of colours")
		plot := fs.String("plot", "", "several -algo: draw the comparison to this PNG file")
		boards := fs.String("boards", "", "boards to run, by 1-based number: 1,2,11 or 1-5 (default all)")
		workers := fs.Int("workers", runtime.NumCPU(), "boards solved at once")
		timeout := timeoutFlag(fs, time.Minute)
		cpu := cpuFlag(fs)
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
		out := outFlag(fs, "the boards with their solutions")
		natsURL := natsFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) > 0 {
				return usagef("unexpected arguments %q", args)
			}
			if (*set == "") == (*n == 0) {
				return usagef("give -set FILE or -n K")
			}
			algos, err := sf.algos()
			if err != nil {
				return err
			}
			opts, err := sf.options()
			if err != nil {
				return err
			}
			if *cpu && opts.Dist > 0 {
				return usagef("-cpu counts the time of one thread and -dist searches on several: give -dist a wall-clock -timeout")
			}
			if *workers < 1 {
				return usagef("-workers must be at least 1")
			}
			b := &bench.SameGame{Algos: algos, Options: opts, Timeout: *timeout, CPU: *cpu, Workers: *workers, JSON: *asJSON}
			if *set != "" {
				if b.Entries, b.Rules, err = readSetFile(env, *set, sf.rules); err != nil {
					return err
				}
			} else {
				rf := sgRandomFlags{rules: cmp.Or(sf.rules, "dust"), size: *size, colors: *colors, n: *n}
				rules, w, h, err := rf.parse()
				if err != nil {
					return err
				}
				b.Rules, b.Entries = rules, bench.SameGameBoards(*n, opts.Seed, w, h, *colors, rules, 0)
			}
			if b.List, err = parseBoardList(*boards, len(b.Entries)); err != nil {
				return err
			}
			if slices.Contains(algos, "exact") && b.Rules != samegame.Dust {
				return usagef("-algo exact needs dust rules")
			}
			if (len(algos) > 1 || *plot != "") && *out != "" {
				return usagef("-o needs a single -algo")
			}
			if *plot != "" {
				b.Plot = func(png []byte) error { return writeFileAtomic(*plot, png) }
			}
			remote, closeRemote, err := benchRemote(ctx, *natsURL)
			if err != nil {
				return err
			}
			defer closeRemote()
			b.Remote = remote
			p := newProgress(env, *prog)
			defer p.Done()
			count := p.Counter(map[bool]string{true: "solves", false: "boards"}[len(algos) > 1 || *plot != ""], len(b.List)*len(algos))
			b.Done = func() { count.Add(1) }
			recs, err := b.Run(ctx, env.Stdout)
			if (err != nil && !errors.Is(err, bench.ErrSameGameFailed)) || *out == "" {
				return err // a bench where a board failed exits 1, after -o
			}
			if werr := writeFileAtomic(*out, []byte(bench.SameGameSet(b.Entries, b.List, recs, b.Rules, algos[0], *timeout))); werr != nil {
				return werr
			}
			return err
		}
	},
}

var samegamePlayCmd = &Command{
	Name:      "play",
	UsageLine: "[-rules standard|dust] [-size COLSxROWS] [-colors K] [-seed S] [FILE[:N]]",
	Short:     "play in the terminal, with hints",
	Long: `Play a board in the terminal: the N-th board of FILE, or a random board
(standard: 15x15, dust: 8x6, 5 colours unless -size and -colors say
otherwise).

Keys: arrows or W A S D move the cursor; space or enter clicks the group
under it; u undoes a click; r restarts; n draws a new random board; h
hints the next click (a short search: exact or DFS for dust, NRPA for
standard) and moves the cursor there; a plays the hinted line to the end;
q quits.`,
	Flags: func(fs *flag.FlagSet) Runner {
		rulesName := fs.String("rules", "", "rules: standard or dust (default: from the file, else standard)")
		size := fs.String("size", "", "random board size COLSxROWS (default 15x15 standard, 8x6 dust)")
		colors := fs.Int("colors", 5, "colours of a random board (1 to 10)")
		seed := seedFlag(fs)
		think := durationFlag(fs, "think", 2*time.Second, "thinking time (a `duration`) for a hint")
		delay := fs.Duration("delay", 300*time.Millisecond, "pause between the clicks of a")
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) > 1 {
				return usagef("want at most one FILE[:N]")
			}
			if *colors < 1 || *colors > samegame.MaxColors {
				return usagef("-colors %d out of range (1 to %d)", *colors, samegame.MaxColors)
			}
			g := play.SameGame{Colors: *colors, Seed: *seed, Think: *think, Delay: *delay, W: 15, H: 15}
			if len(args) == 1 {
				e, _, _, _, err := readBoardArg(env, args[0], *rulesName)
				if err != nil {
					return err
				}
				g.Board = e.Board
			} else {
				if *rulesName != "" {
					r, err := samegame.ParseRules(*rulesName)
					if err != nil {
						return usagef("%v", err)
					}
					g.Rules = r
				}
				if g.Rules == samegame.Dust {
					g.W, g.H = 8, 6
				}
				if *size != "" {
					var err error
					if g.W, g.H, err = parseWxH(*size); err != nil {
						return err
					}
				}
			}
			return g.Run(ctx, env.Stdin, env.Stdout)
		}
	},
}

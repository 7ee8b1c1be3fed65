package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"tessera/internal/bench"
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

// readSetFile reads the boards of a set file ("-" for stdin). rulesName is
// the -rules flag: "" chooses dust for boards written in letters and
// standard for digits.
func readSetFile(env *Env, name, rulesName string) ([]samegame.Entry, samegame.Rules, error) {
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(io.LimitReader(env.Stdin, 16<<20))
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return nil, 0, err
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
		return nil, 0, fmt.Errorf("%s: %w", name, err)
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

// solverFlags are the flags that choose and tune a samegame solver.
type sgSolverFlags struct {
	rules, algo, ordering string
	seed                  *uint64
	nodes                 int64
	level, iterations     int
	width, tableBits      int
	noTabu                bool
}

func (f *sgSolverFlags) define(fs *flag.FlagSet, defAlgo string) {
	fs.StringVar(&f.rules, "rules", "", "rules: standard or dust (default: dust for boards written in letters, else standard)")
	fs.StringVar(&f.algo, "algo", defAlgo, "solver: dfs, exact (dust only), beam, mcts (SP-MCTS), nmcs, nrpa, or with the dust network nn (greedy policy), nn-after (greedy on the afterstate network), nn-value (greedy on the value head, one step ahead), nn-beam or nn-mcts (PUCT, -iterations, default 2000)")
	defineNNFlags(fs)
	fs.StringVar(&f.ordering, "order", "shortlook", "dfs move order: shortlook, largest or lookahead")
	f.seed = seedFlag(fs)
	fs.Int64Var(&f.nodes, "nodes", 0, "stop after this many nodes (dfs, exact, beam) or playouts (mcts, nmcs, nrpa); 0: no limit")
	fs.IntVar(&f.level, "level", 0, "nesting level of nmcs (default 2) and nrpa (default 3)")
	fs.IntVar(&f.iterations, "iterations", 0, "nrpa iterations per level (default 100); nn-mcts tree iterations (default 2000)")
	fs.IntVar(&f.width, "width", 0, "beam width (default 1000)")
	fs.IntVar(&f.tableBits, "table-bits", 0, "exact (default 23) and dfs on dust boards (default 22): a table of 2^N entries of 8 bytes")
	fs.BoolVar(&f.noTabu, "no-tabu", false, "standard rules: let the Monte-Carlo searches break up the largest colour")
}

func (f *sgSolverFlags) options() (samegame.Options, error) {
	algo, err := sgParseAlgorithm(f.algo)
	if err != nil {
		return samegame.Options{}, usagef("%v", err)
	}
	var ord samegame.Ordering
	switch f.ordering {
	case "shortlook":
		ord = samegame.ShortLook
	case "largest", "standard":
		ord = samegame.Largest
	case "lookahead":
		ord = samegame.Lookahead
	default:
		return samegame.Options{}, usagef("unknown -order %q (want shortlook, largest or lookahead)", f.ordering)
	}
	if f.level < 0 || f.level > 10 || f.iterations < 0 || f.width < 0 || f.nodes < 0 {
		return samegame.Options{}, usagef("-level, -iterations, -width and -nodes must not be negative (and -level at most 10)")
	}
	if f.tableBits != 0 && (f.tableBits < 10 || f.tableBits > 32) {
		return samegame.Options{}, usagef("-table-bits %d out of range (10 to 32)", f.tableBits)
	}
	return samegame.Options{Algorithm: algo, Seed: *f.seed, MaxNodes: f.nodes, Ordering: ord, Level: f.level,
		Iterations: f.iterations, BeamWidth: f.width, TableBits: f.tableBits, NoTabu: f.noTabu}, nil
}

// proves reports whether an algorithm's stop means failure: exact must
// prove, the others are anytime searches whose -timeout is their budget.
func proves(a samegame.Algorithm) bool { return a == samegame.Exact }

// stoppedByTimeout reports whether err is the end of a time budget.
func stoppedByTimeout(err error) bool { return errors.Is(err, context.DeadlineExceeded) }

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
	UsageLine: "[-rules standard|dust] [-algo dfs|exact|beam|mcts|nmcs|nrpa] [-timeout D] [-seed S] [-json] FILE[:N]",
	Short:     "solve a board and print the clicks",
	Long: `Solve runs a solver on the N-th board of FILE (the first without :N; FILE
may be "-" for stdin) and prints the clicks, the score (standard) or the
number of clicks (dust), and whether the result is proven optimal.

Solvers: dfs, the source blog's depth-first branch-and-bound (move order
-order, bound "clicks + colours left"); exact, which proves the fewest clicks
of a dust board (IDA* with a transposition table); beam (-width); mcts
(SP-MCTS); nmcs (-level) and nrpa (-level, -iterations), which under
standard rules keep the largest colour for last (tabu colour).

-timeout is the search budget: the anytime solvers (all but exact) print
the best solution found when it ends and succeed; exact fails (exit 1) when
it ends before the proof.`,
	Flags: func(fs *flag.FlagSet) Runner {
		var sf sgSolverFlags
		sf.define(fs, "dfs")
		timeout := timeoutFlag(fs, time.Minute)
		cpu := cpuFlag(fs)
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
		out := outFlag(fs, "the clicks (x y per line)")
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) != 1 {
				return usagef("want one FILE[:N]")
			}
			opts, err := sf.options()
			if err != nil {
				return err
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
			var sol samegame.Solution
			opts.Restart = *timeout > 0 // the anytime searches use the whole budget
			bench.WithBudget(ctx, *timeout, *cpu, func(ctx context.Context) { sol, err = sgSolve(ctx, e.Board, opts) })
			p.Done()
			stopped := ""
			if err != nil && stoppedByTimeout(err) && ctx.Err() == nil {
				stopped = fmt.Sprintf("-timeout %v", *timeout)
				if !proves(opts.Algorithm) && len(sol.Moves) > 0 {
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
				o := sgSolveJSON{File: file, Board: n, Name: e.Name, Rules: rules.String(), Algo: sgAlgoName(opts.Algorithm),
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
			fmt.Fprintf(w, "solver   %s\n", sgAlgoName(opts.Algorithm))
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

var samegameGenerateCmd = &Command{
	Name:      "generate",
	UsageLine: "[-rules standard|dust] [-size COLSxROWS] [-colors K] [-n N] [-seed S] [-o FILE] [-json]",
	Short:     "print random boards in the set-file format",
	Long: `Generate prints N full boards whose cells are drawn uniformly from K colours,
in the format that solve and bench read: dust boards in the blog's letters,
standard boards in digits, each after a "position I" line. The same seed
gives the same boards. The defaults are the dust game's: 8x6, 5 colours.`,
	Flags: func(fs *flag.FlagSet) Runner {
		rulesName := fs.String("rules", "dust", "rules: standard or dust")
		size := fs.String("size", "8x6", "board size COLSxROWS")
		colors := fs.Int("colors", 5, "number of colours (1 to 10)")
		n := fs.Int("n", 1, "number of boards")
		seed := seedFlag(fs)
		out := outFlag(fs, "the boards")
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) > 0 {
				return usagef("unexpected arguments %q", args)
			}
			rules, err := samegame.ParseRules(*rulesName)
			if err != nil {
				return usagef("%v", err)
			}
			w, h, err := parseWxH(*size)
			if err != nil {
				return err
			}
			if *colors < 1 || *colors > samegame.MaxColors {
				return usagef("-colors %d out of range (1 to %d)", *colors, samegame.MaxColors)
			}
			if *n < 1 || *n > 1000000 {
				return usagef("-n %d out of range (1 to 1,000,000)", *n)
			}
			notation := samegame.Digits
			if rules == samegame.Dust {
				notation = samegame.Letters
			}
			rng := rand.New(rand.NewPCG(*seed, 0x67656e))
			var sb strings.Builder
			if !*asJSON {
				fmt.Fprintf(&sb, "# tessera samegame generate -rules %s -size %dx%d -colors %d -n %d -seed %d\n", rules, w, h, *colors, *n, *seed)
			}
			for i := range *n {
				b := samegame.Random(w, h, *colors, rules, rng)
				if *asJSON {
					b, _ := jsonLine(map[string]any{"board": i + 1, "rules": rules.String(), "size": fmt.Sprintf("%dx%d", w, h),
						"colors": *colors, "seed": *seed, "rows": samegame.Line(b, notation)})
					sb.Write(b)
					continue
				}
				fmt.Fprintf(&sb, "\nposition %d\n%s", i+1, samegame.Format(b, notation))
			}
			if *out != "" {
				return writeFileAtomic(*out, []byte(sb.String()))
			}
			_, err = io.WriteString(env.Stdout, sb.String())
			return err
		}
	},
}

// jsonLine is writeJSON into a byte slice.
func jsonLine(v any) ([]byte, error) {
	var buf bytes.Buffer
	err := writeJSON(&buf, v)
	return buf.Bytes(), err
}

// sgBenchRecord is one -json line of samegame bench.
type sgBenchRecord struct {
	Board   int     `json:"board"`
	Name    string  `json:"name"`
	Score   int     `json:"score"`
	Clicks  int     `json:"clicks"`
	Optimal *bool   `json:"optimal"`
	Seconds float64 `json:"seconds"`
	// CPUSeconds is the CPU time of the solve, measured with -cpu.
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
	Cleared    bool    `json:"cleared"`
	Known      int     `json:"known_optimum,omitempty"`
	Nodes      int64   `json:"nodes"`
	Playouts   int64   `json:"playouts"`
	Moves      string  `json:"moves"`
	Error      string  `json:"error,omitempty"`

	sol samegame.Solution
}

// sgBenchSummary is the last -json line of samegame bench.
type sgBenchSummary struct {
	Summary       bool    `json:"summary"`
	Boards        int     `json:"boards"`
	Total         int     `json:"total"`
	Seconds       float64 `json:"seconds"`
	Rules         string  `json:"rules"`
	Algo          string  `json:"algo"`
	Timeout       float64 `json:"timeout"`
	Workers       int     `json:"workers"`
	Proven        int     `json:"proven"`
	Cleared       int     `json:"cleared"`
	CPUSeconds    float64 `json:"cpu_seconds,omitempty"`
	MedianSeconds float64 `json:"median_seconds"`
	MedianCPU     float64 `json:"median_cpu_seconds,omitempty"`
	MaxCPU        float64 `json:"max_cpu_seconds,omitempty"`
	MaxSeconds    float64 `json:"max_seconds"`
	Known         int     `json:"known_optima,omitempty"`
	AtOptimum     int     `json:"at_optimum,omitempty"`
	WithinOne     int     `json:"within_one,omitempty"`
	Failed        int     `json:"failed,omitempty"`
}

// parseBoardList reads -boards "1,2,11" or ranges "1-5,11".
func parseBoardList(s string, n int) ([]int, error) {
	if s == "" {
		list := make([]int, n)
		for i := range list {
			list[i] = i + 1
		}
		return list, nil
	}
	var list []int
	for part := range strings.SplitSeq(s, ",") {
		a, b, isRange := strings.Cut(strings.TrimSpace(part), "-")
		lo, err1 := strconv.Atoi(a)
		hi, err2 := lo, error(nil)
		if isRange {
			hi, err2 = strconv.Atoi(b)
		}
		if err1 != nil || err2 != nil || lo < 1 || hi < lo || hi > n {
			return nil, usagef("bad -boards entry %q: want numbers from 1 to %d, like 1,2,11 or 1-5", part, n)
		}
		for i := lo; i <= hi; i++ {
			if !slices.Contains(list, i) {
				list = append(list, i)
			}
		}
	}
	return list, nil
}

var samegameBenchCmd = &Command{
	Name:      "bench",
	UsageLine: "-set FILE | -n K [-seed S] [-algo A[,A...]] [-timeout D] [-boards 1,2,11] [-workers K] [-plot PNG] [-o FILE] [-json]",
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
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) > 0 {
				return usagef("unexpected arguments %q", args)
			}
			if (*set == "") == (*n == 0) {
				return usagef("give -set FILE or -n K")
			}
			algos, err := parseAlgos(sf.algo)
			if err != nil {
				return err
			}
			sf.algo, _, _ = strings.Cut(sf.algo, ",")
			opts, err := sf.options()
			if err != nil {
				return err
			}
			if *workers < 1 {
				return usagef("-workers must be at least 1")
			}
			var entries []samegame.Entry
			var rules samegame.Rules
			if *set != "" {
				entries, rules, err = readSetFile(env, *set, sf.rules)
				if err != nil {
					return err
				}
			} else {
				if sf.rules == "" {
					sf.rules = "dust"
				}
				if rules, err = samegame.ParseRules(sf.rules); err != nil {
					return usagef("%v", err)
				}
				w, h, err := parseWxH(*size)
				if err != nil {
					return err
				}
				if *colors < 1 || *colors > samegame.MaxColors || *n < 1 || *n > 1000000 {
					return usagef("-colors (1 to %d) or -n (1 to 1,000,000) out of range", samegame.MaxColors)
				}
				entries = randomEntries(*n, *sf.seed, w, h, *colors, rules)
			}
			list, err := parseBoardList(*boards, len(entries))
			if err != nil {
				return err
			}
			if slices.Contains(algos, samegame.Exact) && rules != samegame.Dust {
				return usagef("-algo exact needs dust rules")
			}
			if len(algos) > 1 || *plot != "" {
				if *out != "" {
					return usagef("-o needs a single -algo")
				}
				return runCompare(ctx, env, entries, list, rules, algos, opts, *timeout, *cpu, *workers, *asJSON, *plot, *prog)
			}
			p := newProgress(env, *prog)
			defer p.Done()
			count := p.Counter("boards", len(list))
			start := time.Now()
			cpuStart, _ := bench.ProcessCPU()
			recs := make([]sgBenchRecord, len(list))
			// Boards go to the workers in order; results are printed in
			// board order as soon as every earlier board is done.
			var (
				mu      sync.Mutex
				done    = make([]bool, len(list))
				printed = 0
				werr    error
				next    = 0
				wg      sync.WaitGroup
			)
			flush := func() {
				for printed < len(list) && done[printed] {
					if *asJSON && werr == nil {
						werr = writeJSON(env.Stdout, recs[printed])
					}
					printed++
				}
			}
			for range min(*workers, len(list)) {
				wg.Go(func() {
					for {
						mu.Lock()
						i := next
						next++
						mu.Unlock()
						if i >= len(list) || ctx.Err() != nil {
							return
						}
						rec := benchOne(ctx, entries[list[i]-1], list[i], rules, opts, *timeout, *cpu)
						mu.Lock()
						recs[i] = rec
						done[i] = true
						flush()
						mu.Unlock()
						count.Add(1)
					}
				})
			}
			wg.Wait()
			p.Done()
			if werr != nil {
				return werr
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			sum := summarizeBench(recs, rules, opts.Algorithm, *timeout, *workers, time.Since(start))
			if cpuEnd, ok := bench.ProcessCPU(); ok {
				sum.CPUSeconds = seconds(cpuEnd - cpuStart)
			}
			if *out != "" {
				if err := writeFileAtomic(*out, []byte(formatBenchSet(entries, list, recs, rules, opts, *timeout))); err != nil {
					return err
				}
			}
			if *asJSON {
				return writeJSON(env.Stdout, sum)
			}
			printSGBench(env.Stdout, recs, sum, rules)
			return nil
		}
	},
}

// benchOne solves one board of a bench.
func benchOne(ctx context.Context, e samegame.Entry, number int, rules samegame.Rules, opts samegame.Options, timeout time.Duration, cpu bool) sgBenchRecord {
	var sol samegame.Solution
	var err error
	opts.Restart = timeout > 0
	used := bench.WithBudget(ctx, timeout, cpu, func(ctx context.Context) { sol, err = sgSolve(ctx, e.Board, opts) })
	rec := sgBenchRecord{Board: number, Name: e.Name, Score: sol.Score, Clicks: sol.Clicks, Seconds: seconds(sol.Elapsed),
		Cleared: sol.Cleared, Known: e.Optimal, Nodes: sol.Nodes, Playouts: sol.Playouts, Moves: samegame.FormatMoves(sol.Moves),
		CPUSeconds: seconds(used), sol: sol}
	switch {
	case sol.Optimal:
		rec.Optimal = ptr(true)
	case rules == samegame.Dust && e.Optimal > 0 && sol.Cleared && sol.Clicks == e.Optimal:
		rec.Optimal = ptr(true) // reaches the file's proven optimum
	case opts.Algorithm == samegame.DFS || opts.Algorithm == samegame.Exact:
		rec.Optimal = ptr(false)
	}
	if err != nil && !(stoppedByTimeout(err) && !proves(opts.Algorithm) && len(sol.Moves) > 0) {
		rec.Error = err.Error()
	}
	return rec
}

func ptr[T any](v T) *T { return &v }

func summarizeBench(recs []sgBenchRecord, rules samegame.Rules, algo samegame.Algorithm, timeout time.Duration, workers int, wall time.Duration) sgBenchSummary {
	s := sgBenchSummary{Summary: true, Boards: len(recs), Seconds: seconds(wall), Rules: rules.String(), Algo: sgAlgoName(algo),
		Timeout: seconds(timeout), Workers: workers}
	var secs, cpus []float64
	for _, r := range recs {
		if r.CPUSeconds > 0 {
			cpus = append(cpus, r.CPUSeconds)
			s.MaxCPU = max(s.MaxCPU, r.CPUSeconds)
		}
		if rules == samegame.Dust {
			s.Total += r.Clicks
		} else {
			s.Total += r.Score
		}
		if r.Optimal != nil && *r.Optimal {
			s.Proven++
		}
		if r.Cleared {
			s.Cleared++
		}
		if r.Error != "" {
			s.Failed++
		}
		if r.Known > 0 && rules == samegame.Dust {
			s.Known++
			if r.Cleared && r.Clicks == r.Known {
				s.AtOptimum++
			}
			if r.Cleared && r.Clicks <= r.Known+1 {
				s.WithinOne++
			}
		}
		secs = append(secs, r.Seconds)
		s.MaxSeconds = max(s.MaxSeconds, r.Seconds)
	}
	s.MedianSeconds = median(secs)
	s.MedianCPU = median(cpus)
	return s
}

func printSGBench(w io.Writer, recs []sgBenchRecord, s sgBenchSummary, rules samegame.Rules) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	if rules == samegame.Dust {
		fmt.Fprintln(tw, "board\tname\tclicks\toptimal\tknown\tnodes\tseconds\t")
	} else {
		fmt.Fprintln(tw, "board\tname\tscore\tclicks\tcleared\tplayouts\tseconds\t")
	}
	for _, r := range recs {
		opt := "-"
		if r.Optimal != nil {
			opt = map[bool]string{true: "proven", false: "no"}[*r.Optimal]
		}
		note := ""
		if r.Error != "" {
			note = "  " + r.Error
		}
		if rules == samegame.Dust {
			known := "-"
			if r.Known > 0 {
				known = strconv.Itoa(r.Known)
			}
			fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%s\t%d\t%.2f\t%s\n", r.Board, r.Name, r.Clicks, opt, known, r.Nodes, r.Seconds, note)
		} else {
			fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%v\t%d\t%.2f\t%s\n", r.Board, r.Name, r.Score, r.Clicks, r.Cleared, r.Playouts, r.Seconds, note)
		}
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%d boards, %s rules, %s, -timeout %gs, %d workers: ", s.Boards, rules, s.Algo, s.Timeout, s.Workers)
	if rules == samegame.Dust {
		fmt.Fprintf(w, "%d clicks in total (mean %.2f), %d proven optimal", s.Total, float64(s.Total)/float64(max(1, s.Boards)), s.Proven)
		if s.Known > 0 {
			fmt.Fprintf(w, ", %d of %d at the known optimum, %d within one click", s.AtOptimum, s.Known, s.WithinOne)
		}
	} else {
		fmt.Fprintf(w, "total score %d, %d boards cleared", s.Total, s.Cleared)
	}
	fmt.Fprintf(w, "; median %.2f s, max %.2f s per board", s.MedianSeconds, s.MaxSeconds)
	if s.MedianCPU > 0 {
		fmt.Fprintf(w, " (CPU: median %.2f s, max %.2f s)", s.MedianCPU, s.MaxCPU)
	}
	fmt.Fprintf(w, "; %.1f s wall, %.1f s CPU in all\n", s.Seconds, s.CPUSeconds)
	if s.Failed > 0 {
		fmt.Fprintf(w, "%d boards failed\n", s.Failed)
	}
}

// formatBenchSet writes the benched boards with their solutions as a set
// file: "optimal N" for the proven ones, then the moves.
func formatBenchSet(entries []samegame.Entry, list []int, recs []sgBenchRecord, rules samegame.Rules, opts samegame.Options, timeout time.Duration) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "# tessera samegame bench -algo %s -timeout %v: %d boards with their solutions\n", sgAlgoName(opts.Algorithm), timeout, len(list))
	for i, number := range list {
		e := entries[number-1]
		r := recs[i]
		name := e.Name
		if !strings.Contains(name, " ") {
			name = "board " + name
		}
		kind, label, _ := strings.Cut(name, " ")
		if kind != "position" && kind != "example" {
			kind, label = "position", strconv.Itoa(number)
		}
		notation := e.Notation
		fmt.Fprintf(&sb, "\n%s %s\nboard\n%s", kind, label, samegame.Format(e.Board, notation))
		switch {
		case rules == samegame.Dust && r.Optimal != nil && *r.Optimal:
			fmt.Fprintf(&sb, "optimal %d\n", r.Clicks)
		case e.Optimal > 0:
			fmt.Fprintf(&sb, "optimal %d\n", e.Optimal)
		}
		if rules == samegame.Standard {
			fmt.Fprintf(&sb, "score %d\n", r.Score)
		}
		if res, err := samegame.Replay(e.Board, r.sol.Moves); err == nil {
			fmt.Fprintf(&sb, "moves %d\n", len(r.sol.Moves))
			for k, m := range r.sol.Moves {
				g := res.Removed[k]
				color := strconv.Itoa(int(g.Color))
				if notation == samegame.Letters {
					color = string(samegame.LetterColors[g.Color])
				}
				fmt.Fprintf(&sb, "%d %d %s %d\n", m.X, m.Y, color, g.Size)
			}
		}
	}
	return sb.String()
}

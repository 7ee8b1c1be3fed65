package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"runtime"
	"slices"
	"strings"
	"time"

	"tessera/internal/bench"
	"tessera/internal/catalog"
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
		Commands: []*Command{samegameSolveCmd, samegameScoreCmd, samegamePlayCmd, samegameGenerateCmd, samegameBenchCmd, samegameDatasetCmd, samegameTrainCmd},
	})
}

// sgSolverFlags are the flags that choose and tune a samegame solver: -rules,
// -algo and a flag per option of catalog.SameGameOptions.
type sgSolverFlags struct {
	algoFlags[samegame.Solver, catalog.SameGameRun]
	rules string
	opts  catalog.SameGameOptions
}

func (f *sgSolverFlags) define(fs *flag.FlagSet, defAlgo string) {
	f.opts.Seed = 1 // the command line's seed, as every verb's
	fs.StringVar(&f.rules, "rules", "", "rules: standard or dust (default: dust for boards written in letters, else standard)")
	more := " ('tessera help samegame solve' describes them)"
	if defAlgo == "" {
		more += " (default exact on dust boards, its best line when the proof runs out; nrpa on standard ones)"
	}
	f.algoFlags.define(fs, catalog.SameGame, defAlgo, more, &f.opts)
}

// options checks the flags for the solvers ids, with -cpu (a budget of CPU
// time) when cpu, and returns the options.
func (f *sgSolverFlags) options(cpu bool, ids ...string) (catalog.SameGameOptions, error) {
	if err := f.checkOptions(ids...); err != nil {
		return f.opts, err
	}
	if cpu && f.opts.Dist > 0 {
		return f.opts, usagef("-cpu counts the time of one thread and -dist searches on several: give -dist a wall-clock -timeout")
	}
	return f.opts, nil
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

// cpuFlag defines -cpu.
func cpuFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("cpu", false, "count -timeout in CPU time of the solving thread, not wall-clock time (fair budgets on a loaded machine; Linux)")
}

var samegameGenerateCmd = &Command{
	Name:      "generate",
	UsageLine: "[-rules standard|dust] [-size COLSxROWS] [-colors K] [-n N] [-seed S] [-o FILE] [-json]",
	Short:     "print random boards in the set-file format",
	Long: `Generate prints N full boards whose cells are drawn uniformly from K colours,
in the format that solve and bench read: dust boards in the blog's letters,
standard boards in digits, each after a "position I" line. The same seed
gives the same boards. The defaults are the dust game's: 8x6, 5 colours.`,
	NoArgs: true,
	Flags: func(fs *flag.FlagSet) Runner {
		rf := bench.SameGameRandom{Rules: "dust", Size: "8x6", Colors: 5, N: 1}
		catalog.BindFlags(fs, &rf)
		seed := seedFlag(fs)
		out := outFlag(fs, "the boards")
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			rules, w, h, err := rf.Parse()
			if err != nil {
				return err
			}
			return writeOut(env, *out, []byte(bench.SameGameGenerate(rf.N, *seed, w, h, rf.Colors, rules, *asJSON)))
		}
	},
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
	NoArgs: true,
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
			if (*set == "") == (*n == 0) {
				return usagef("give -set FILE or -n K")
			}
			algos, err := sf.algos()
			if err != nil {
				return err
			}
			opts, err := sf.options(*cpu, algos...)
			if err != nil {
				return err
			}
			b := &bench.SameGame{Algos: algos, Options: opts, Timeout: *timeout, CPU: *cpu, Workers: *workers, JSON: *asJSON}
			random := bench.SameGameRandom{Rules: cmp.Or(sf.rules, "dust"), Size: *size, Colors: *colors, N: *n}
			if err := b.Prepare(env.Stdin, *set, sf.rules, random, *boards); err != nil {
				return err
			}
			unit, err := b.Outputs(*plot, *out)
			if err != nil {
				return err
			}
			p := newProgress(env, *prog)
			defer p.Done()
			count := p.Counter(unit, len(b.List)*len(algos))
			b.Done = func() { count.Add(1) }
			return withRemote(ctx, *natsURL, func(remote bench.Remote) error {
				b.Remote = remote
				recs, err := b.Run(ctx, env.Stdout)
				if (err != nil && !errors.Is(err, bench.ErrSameGameFailed)) || *out == "" {
					return err // a bench where a board failed exits 1, after -o
				}
				return cmp.Or(b.WriteSet(*out, recs), err)
			})
		}
	},
}

var samegamePlayCmd = &Command{
	Name:      "play",
	UsageLine: "[-rules standard|dust] [-size COLSxROWS] [-colors K] [-seed S] [-certainty] [FILE[:N]]",
	Short:     "play in the terminal, with hints",
	Long: `Play a board in the terminal: the N-th board of FILE, or a random board
(standard: 15x15, dust: 8x6, 5 colours unless -size and -colors say
otherwise).

Keys: arrows or W A S D move the cursor; space or enter clicks the group
under it; u undoes a click; r restarts; n draws a new random board; h
hints the next click (a short search: exact or DFS for dust, NRPA for
standard) and moves the cursor there; a plays the hinted line to the end;
p shows the certainty board (dust boards of 8x6 and up to 5 colours: each
cell marked with the shipped network's probability, in percent, that its
group is the click to make, as in the source blog's figure; -certainty
starts with it shown); q quits.`,
	Flags: func(fs *flag.FlagSet) Runner {
		rulesName := fs.String("rules", "", "rules: standard or dust (default: from the file, else standard)")
		size := fs.String("size", "", "random board size COLSxROWS (default 15x15 standard, 8x6 dust)")
		colors := fs.Int("colors", 5, "colours of a random board (1 to 10)")
		seed := seedFlag(fs)
		think := durationFlag(fs, "think", 2*time.Second, "thinking time (a `duration`) for a hint")
		delay := fs.Duration("delay", 300*time.Millisecond, "pause between the clicks of a")
		certainty := fs.Bool("certainty", false, "dust: start with the certainty board shown (the p key)")
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) > 1 {
				return usagef("want at most one FILE[:N]")
			}
			if *colors < 1 || *colors > samegame.MaxColors {
				return usagef("-colors %d out of range (1 to %d)", *colors, samegame.MaxColors)
			}
			g := play.SameGame{Colors: *colors, Seed: *seed, Think: *think, Delay: *delay, Certainty: *certainty}
			var err error
			switch {
			case len(args) == 1:
				e, _, _, _, err := bench.ReadSameGameBoard(env.Stdin, args[0], *rulesName)
				if err != nil {
					return err
				}
				g.Board = e.Board
			case *rulesName != "":
				if g.Rules, err = samegame.ParseRules(*rulesName); err != nil {
					return usagef("%v", err)
				}
			}
			if *size != "" && len(args) == 0 {
				if g.W, g.H, err = bench.ParseSameGameSize(*size); err != nil {
					return err
				}
			}
			return g.Run(ctx, env.Stdin, env.Stdout)
		}
	},
}

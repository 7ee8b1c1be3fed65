package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/internal/progress"
	"tessera/sdp"
	"tessera/tangram"
)

// tgSolveFlags are the solver flags of solve and bench: -algo and a flag
// per option of catalog.TangramOptions.
type tgSolveFlags struct {
	algoFlags[tangram.Solver, catalog.TangramRun]
	o catalog.TangramOptions
}

func (s *tgSolveFlags) define(fs *flag.FlagSet) {
	s.o.Seed = 1
	s.algoFlags.define(fs, catalog.Tangram, "sdp", "", &s.o)
}

// check refuses an unknown solver, options out of range or an option the
// solver does not read (usage errors), and a backend missing from this
// build (a failure).
func (s *tgSolveFlags) check() error {
	if _, err := catalog.Tangram.Lookup(s.algo); err != nil {
		return usagef("-algo: %v", err)
	}
	if err := s.checkOptions(); err != nil {
		return err
	}
	if s.o.SDPBackend != "" {
		if _, err := sdp.Lookup(s.o.SDPBackend); err != nil {
			if errors.Is(err, sdp.ErrNotBuilt) {
				return err
			}
			return usagef("-sdp: %v", err)
		}
	}
	return nil
}

var tgBenchCmd = &Command{
	Name:      "bench",
	UsageLine: "-set FILES | -n N [-seed S] [-pieces tans] -algo " + strings.Join(catalog.Tangram.IDs(), "|") + " [-sdp go|csdp] [-timeout D] [-json]",
	Short:     "solve a set of puzzles and report the share solved and the times",
	Long: `Bench solves every puzzle of -set (a comma-separated list of files, folders,
glob patterns and classic:NAME for the classic figures, also given as
arguments), or -n generated puzzles from seeds -seed, -seed+1, ..., with
-algo, each bounded by -timeout, and prints per puzzle whether it is solved,
the seconds and the SDPs, then the totals. With -json: one object per puzzle
({"puzzle", "solved", "seconds", "iterations", "objective", ...}), then
{"summary": true, "solved", "instances", "seconds", ...}. The exit status is
1 when some puzzle is not solved.`,
	Flags: func(fs *flag.FlagSet) Runner {
		var sf tgSolveFlags
		var bf benchFlags
		sf.define(fs)
		bf.define(fs, "puzzle files, folders, glob patterns or classic:NAME, comma-separated")
		n := fs.Int("n", 0, "generate this many puzzles instead of -set (at most 100,000)")
		pieces := fs.String("pieces", "tans", "with -n: the piece set")
		return func(ctx context.Context, env *Env, args []string) error {
			if err := sf.check(); err != nil {
				return err
			}
			items, err := benchItems(&bf, args, "-n N", *n > 0, func() ([]bench.TangramItem, error) {
				return bench.TangramGenerated(ctx, *pieces, *n, int64(sf.o.Seed))
			}, bench.TangramSet)
			if err != nil {
				return err
			}
			return bf.run(ctx, env, func(pr *progress.Reporter, remote bench.Remote, w *bench.Writer) error {
				b := bench.Tangram{Items: items, Algo: sf.algo, Options: sf.o, Timeout: *bf.timeout, Log: pr.Logf, Remote: remote}
				if err := b.Run(ctx, w); err != nil {
					return err
				}
				if b.Unsolved > 0 {
					return fmt.Errorf("%d of %d puzzles not solved", b.Unsolved, len(items))
				}
				return nil
			})
		}
	},
}

var tgFiguresCmd = &Command{
	Name:      "figures",
	UsageLine: "[-category C | -hard N [-seed S]] [-solve] [-count N] [-pictures] [-max-nodes N] [-timeout D] [-json]",
	Short:     "list the figure set, or solve and count it with the exact solver and report the times",
	Long: `Figures lists the tangram figure set (tangram.Figures: name, category, source,
parts and holes of the silhouette). With -solve each figure is solved by the
exact solver from its silhouette alone, the seven tans turned and mirrored,
each bounded by -timeout and -max-nodes, and the summary gives the count
solved, the mean, median, 99th percentile and worst seconds. With -count N
the search goes on past the first solution and counts the distinct tilings
up to N ("N+" when it stopped there); the summary says how many figures
have exactly one. -hard N takes instead N hard random figures
(tangram.GenerateHard, seeds -seed, -seed+1, ...: many reflex corners, no
edge longer than 2). -pictures draws each figure as a picture (25 to 90 pixels
a unit, turned, with 0 to 2% of the pixels flipped, all from the figure's
index and -seed), traces it back (tangram.Trace) and reports whether it snaps,
whether it is the figure drawn and whether the exact solver fills it. Run it
under GOMAXPROCS=1 to measure one core. The exit
status is 1 when some figure is not solved.`,
	NoArgs: true,
	Flags: func(fs *flag.FlagSet) Runner {
		category := fs.String("category", "", "only the figures of this category")
		hard := fs.Int("hard", 0, "take this many hard random figures instead of the set (at most 10,000)")
		seed := seedFlag(fs)
		solve := fs.Bool("solve", false, "solve every figure with the exact solver")
		pictures := fs.Bool("pictures", false, "draw, trace and solve every figure")
		count := fs.Int64("count", 0, "count distinct solutions up to this many (implies -solve; 0: no count)")
		maxNodes := fs.Int64("max-nodes", 10_000_000, "stop a figure's search after this many placements")
		timeout := timeoutFlag(fs, time.Minute)
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if *count < 0 || *maxNodes < 0 {
				return usagef("-count and -max-nodes must be at least 0")
			}
			figs, err := bench.TangramFigureSet(*category, *hard, int64(*seed))
			switch {
			case err != nil:
				return usagef("%v", err)
			case *pictures:
				return bench.TangramPictures{Figures: figs, Seed: int64(*seed), Timeout: *timeout}.Run(ctx, env.Stdout, *asJSON)
			case !*solve && *count == 0:
				return bench.ListTangramFigures(env.Stdout, figs, *asJSON)
			}
			b := bench.TangramFigures{Figures: figs, Exact: tangram.Exact{MaxNodes: *maxNodes}, Count: *count, Timeout: *timeout}
			return b.Run(ctx, env.Stdout, *asJSON)
		}
	},
}

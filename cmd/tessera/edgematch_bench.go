package main

import (
	"context"
	"flag"
	"strings"

	"tessera/edgematch"
	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/internal/datadir"
	"tessera/internal/progress"
)

var emBenchCmd = &Command{
	Name:      "bench",
	UsageLine: "-set FILES -algo " + strings.Join(catalog.EdgeMatch.IDs(), "|") + " [-timeout D] [-json] | -kind K -size S1,S2 -colors C1,C2 [-rotate] -n N -algo lp",
	Short:     "solve a set of puzzles and report scores, times and placements",
	Long: `Bench solves every puzzle of -set (a comma-separated list of files, folders
and glob patterns, also given as arguments; relative names not found are
looked up in the data folder, so "edgematch/brendan_set1/0[3-8]x0*.txt" works)
with -algo, each bounded by -timeout, and prints per puzzle the score, whether
it is solved, the seconds and the placements, then the totals.

With -kind, -size and -colors (comma-separated lists) it generates -n puzzles
for every size and colour count from -seed instead, and adds a table per
group: for -algo lp the share of puzzles where P became a permutation and the
mean number of LPs, as in Kovalsky, Glasner and Basri's experiments.

With -json: one object per puzzle, the record "edgematch solve -json" prints
({"puzzle", "algo", "score", "max", "solved", "seconds", "nodes", "board",
...}; for partial, tiles and lns also "best_seconds", when the best score was
first reached, and "stopped_by"), then {"summary": true, "puzzles", "solved",
"seconds", ...}. With -nats URL each puzzle is an edgematch.solve job for the
workers of that NATS server (-sat-solver stays here: a job runs the worker's).

Bench exits with status 1, after printing every puzzle and the summary, when
some puzzle failed: dfs or lp found no solution within its budget (or proved
there is none), or lp refused its LP (-lp-max-mem); partial search ending at
its -timeout or -max-moves has not failed. A puzzle file of -set that cannot
be read or parsed is a usage error (status 2).`,
	Flags: func(fs *flag.FlagSet) Runner {
		var sf solveFlags
		var bf benchFlags
		sf.define(fs)
		bf.define(fs, "puzzle files, folders or glob patterns, comma-separated")
		kind := fs.String("kind", "", "generate puzzles of this kind (framed or kovalsky) instead of -set")
		sizes := fs.String("size", "8x8", "with -kind: sizes, comma-separated")
		colors := fs.String("colors", "8", "with -kind: colour counts, comma-separated")
		frame := fs.Int("frame", 0, "with -kind framed: frame colours (0: about a third of the inner colours)")
		rotate := fs.Bool("rotate", false, "with -kind kovalsky: unknown orientation")
		n := fs.Int("n", 10, "with -kind: puzzles per size and colour count")
		data := dataFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if err := sf.check(); err != nil {
				return err
			}
			items, err := benchItems(&bf, args, "-kind", *kind != "", func() ([]bench.EdgeMatchItem, error) {
				k, err := edgematch.ParseKind(*kind)
				if err != nil {
					return nil, err
				}
				return bench.EdgeMatchGenerated(edgematch.GenerateOptions{Kind: k, Frame: *frame, Rotate: *rotate, Seed: sf.o.Seed}, *sizes, *colors, *n)
			}, func(list []string) ([]bench.EdgeMatchItem, error) {
				if err := sf.hints.Check(); err != nil {
					return nil, err
				}
				// A bad pattern, a name that matches nothing, a file that
				// cannot be read or parsed: all bad input named on the
				// command line.
				dir := *data
				if dir == "" {
					dir, _ = datadir.Dir()
				}
				return bench.EdgeMatchSet(list, dir, sf.hints.File, sf.hints.N)
			})
			if err != nil {
				return err
			}
			if *bf.nats != "" && sf.o.SATSolver != "" {
				return usagef("-sat-solver with -nats: a job does not choose the worker's SAT solver")
			}
			return bf.run(ctx, env, func(pr *progress.Reporter, remote bench.Remote, w *bench.Writer) error {
				sf.o.Hooks.Progress = pr.Printf
				solver, err := sf.solver()
				if err != nil {
					return err
				}
				count := pr.Counter("puzzles", len(items))
				b := bench.EdgeMatch{Items: items, Algo: sf.algo, Solver: solver, Timeout: *bf.timeout, Log: pr.Logf, Done: func() { count.Add(1) },
					Remote: remote, Options: sf.o.EdgeMatchOptions}
				return b.Run(ctx, w)
			})
		}
	},
}

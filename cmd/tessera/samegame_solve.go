package main

import (
	"context"
	"flag"
	"time"

	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/internal/dist"
	"tessera/samegame"
)

var samegameSolveCmd = &Command{
	Name:      "solve",
	UsageLine: "[-rules standard|dust] [-algo ID] [-timeout D] [-seed S] [-dist N [-nats URL]] [-json] FILE[:N]",
	Short:     "solve a board and print the clicks",
	Long: `Solve runs a solver on the N-th board of FILE (the first without :N; FILE
may be "-" for stdin) and prints the clicks, the score (standard) or the
number of clicks (dust), and whether the result is proven optimal.

Without -algo, dust boards are proved by exact (its best line, marked not
proven, is the answer when -timeout ends the proof first) and standard
boards searched by nrpa.

-timeout is the search budget: the anytime solvers (all but exact) print
the best solution found when it ends and succeed; -algo exact fails (exit 1)
when it ends before the proof.

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
	Args: want(1, "want one FILE[:N]"),
	Flags: func(fs *flag.FlagSet) Runner {
		var sf sgSolverFlags
		sf.define(fs, "")
		timeout := timeoutFlag(fs, time.Minute)
		cpu := cpuFlag(fs)
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
		out := outFlag(fs, "the clicks (x y per line)")
		natsURL := solveNATSFlag(fs, "nrpa -dist's level-(L-1) searches")
		return func(ctx context.Context, env *Env, args []string) error {
			var hooks catalog.SameGameHooks
			if *natsURL != "" {
				if sf.opts.Dist == 0 {
					return usagef("-nats needs -algo nrpa -dist N (N searches at a time are the jobs)")
				}
				client, closeClient, err := solveClient(ctx, *natsURL)
				if err != nil {
					return err
				}
				defer closeClient()
				hooks.NRPAExec = dist.NRPA{Client: client}
			}
			e, rules, file, n, err := bench.ReadSameGameBoard(env.Stdin, args[0], sf.rules)
			if err != nil {
				return err
			}
			id, best, err := bench.SameGameDefault(sf.algo, rules)
			if err != nil {
				return err
			}
			opts, err := sf.options(*cpu, id)
			if err != nil {
				return err
			}
			p := newProgress(env, *prog)
			defer p.Done()
			hooks.Progress = func(s samegame.Solution) {
				p.Printf("%s", bench.SameGameProgress(rules, s))
			}
			spec := catalog.Spec[catalog.SameGameOptions]{Solver: id, Options: opts, Budget: catalog.Budget{Timeout: *timeout, CPU: *cpu}}
			rec := bench.SolveSameGame(ctx, e, file, n, spec, hooks, best)
			p.Done()
			if err := ctx.Err(); err != nil {
				return err
			}
			return bench.WriteSameGameSolve(env.Stdout, rec, e, *timeout, *out, *asJSON)
		}
	},
}

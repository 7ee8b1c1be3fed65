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
	"tessera/sdp"
	"tessera/tangram"
)

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
		sf.define(fs)
		set := fs.String("set", "", "puzzle files, folders, glob patterns or classic:NAME, comma-separated")
		n := fs.Int("n", 0, "generate this many puzzles instead of -set (at most 100,000)")
		pieces := fs.String("pieces", "tans", "with -n: the piece set")
		seed := seedFlag(fs)
		timeout := timeoutFlag(fs, time.Minute)
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
		natsURL := natsFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			solver, err := sf.solver(*seed)
			if err != nil {
				return err
			}
			var list []string
			for s := range strings.SplitSeq(*set, ",") {
				if s = strings.TrimSpace(s); s != "" {
					list = append(list, s)
				}
			}
			list = append(list, args...)
			var items []bench.TangramItem
			switch {
			case *n > 0 && len(list) > 0:
				return usagef("give either -n or -set, not both")
			case *n > 0:
				items, err = bench.TangramGenerated(ctx, *pieces, *n, int64(*seed))
			case len(list) > 0:
				items, err = bench.TangramSet(list)
			default:
				return usagef("no puzzles: give -set FILES or -n N")
			}
			switch {
			case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
				return err
			case err != nil:
				return usagef("%v", err)
			}
			pr := newProgress(env, *prog)
			defer pr.Done()
			remote, closeRemote, err := benchRemote(ctx, *natsURL)
			if err != nil {
				return err
			}
			defer closeRemote()
			b := bench.Tangram{Items: items, Algo: sf.algo, Solver: solver, Timeout: *timeout, Log: pr.Logf, Remote: remote, Options: sf.o}
			w := &bench.Writer{W: env.Stdout, JSON: *asJSON}
			if err := b.Run(ctx, w); err != nil {
				return err
			}
			if b.Unsolved > 0 {
				return fmt.Errorf("%d of %d puzzles not solved", b.Unsolved, len(items))
			}
			return nil
		}
	},
}

// tgSolveFlags are the solver flags of solve and bench.
type tgSolveFlags struct {
	algo, backend string
	o             catalog.TangramOptions
}

func (s *tgSolveFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&s.algo, "algo", "sdp", "solver: "+strings.Join(catalog.Tangram.IDs(), ", "))
	fs.StringVar(&s.backend, "sdp", "", "sdp backend: go (pure Go, the default) or csdp (a build with -tags csdp)")
	fs.IntVar(&s.o.K, "k", 0, "sdp: degree of the moment matrices (0: 3)")
	fs.IntVar(&s.o.MaxIter, "max-iter", 0, "sdp: at most this many SDPs (0: 40)")
	fs.BoolVar(&s.o.Plain, "plain", false, "sdp: Algorithm 2 as published (no random restart when the objective stalls)")
	fs.Int64Var(&s.o.MaxNodes, "max-nodes", 0, "exact: stop after this many placements (0: no limit)")
}

// solver builds the solver: an option that does not suit it is a usage
// error, a backend missing from this build a failure.
func (s *tgSolveFlags) solver(seed uint64) (tangram.Solver, error) {
	s.o.SDPBackend, s.o.Seed = s.backend, seed
	solver, err := catalog.Tangram.New(s.algo, s.o)
	if err != nil && !errors.Is(err, sdp.ErrNotBuilt) {
		err = usagef("%v", err)
	}
	return solver, err
}

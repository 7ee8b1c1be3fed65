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
		timeout := timeoutFlag(fs, time.Minute)
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
		natsURL := natsFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if err := sf.check(); err != nil {
				return err
			}
			var list []string
			for s := range strings.SplitSeq(*set, ",") {
				if s = strings.TrimSpace(s); s != "" {
					list = append(list, s)
				}
			}
			list = append(list, args...)
			var (
				items []bench.TangramItem
				err   error
			)
			switch {
			case *n > 0 && len(list) > 0:
				return usagef("give either -n or -set, not both")
			case *n > 0:
				items, err = bench.TangramGenerated(ctx, *pieces, *n, int64(sf.o.Seed))
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
			b := bench.Tangram{Items: items, Algo: sf.algo, Options: sf.o, Timeout: *timeout, Log: pr.Logf, Remote: remote}
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

// tgSolveFlags are the solver flags of solve and bench: -algo and a flag
// per option of catalog.TangramOptions.
type tgSolveFlags struct {
	fs   *flag.FlagSet
	algo string
	o    catalog.TangramOptions
	list []catalog.Option
}

func (s *tgSolveFlags) define(fs *flag.FlagSet) {
	s.fs = fs
	s.o.Seed = 1
	fs.StringVar(&s.algo, "algo", "sdp", "solver: "+strings.Join(catalog.Tangram.IDs(), ", "))
	s.list = catalog.BindFlags(fs, &s.o)
}

// check refuses an unknown solver, options out of range or an option the
// solver does not read (usage errors), and a backend missing from this
// build (a failure).
func (s *tgSolveFlags) check() error {
	if _, err := catalog.Tangram.Lookup(s.algo); err != nil {
		return usagef("-algo: %v", err)
	}
	if err := s.o.Check(); err != nil {
		return usagef("%v", err)
	}
	if err := catalog.Tangram.Applies(s.list, catalog.SetFlags(s.fs, s.list), s.algo); err != nil {
		return usagef("%v", err)
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

package main

import (
	"context"
	"flag"
	"slices"
	"time"

	"tessera/internal/bench"
	"tessera/internal/catalog"
)

var npuzzleBenchCmd = &Command{
	Name:      "bench",
	UsageLine: "[-size RxC] [-n N] [-seed S] [-uniform=false] [-timeout D] [-json] | -set FILE [-algo A] [-h H] [-partition P] [-goal G] [-instances LIST] [-timeout D] [-json]",
	Short:     "compare the solvers on random boards, or run a benchmark set such as Korf's 100",
	Long: `Bench solves N random boards of one size with breadth-first search,
bidirectional BFS, A* with Manhattan distance x 5 (the source game's AI),
A* with Manhattan distance and IDA* with linear conflict, and prints the mean
and median states searched (expanded), time and solution length of each, next
to the source's figures for the 3x3 board.

Boards are uniformly random solvable boards by default, or with -uniform=false
the game's random-walk shuffle. -timeout bounds each solve. With -json: one
line per board and method (the catalogue's record, as npuzzle solve -json
prints it, with the method's label), then a summary line.

With -set FILE, bench runs one solver (-algo, -h, -partition; default IDA*
with the size's standard pattern database) on the boards of a set file, one
board per line (tiles row-major, 0 for the blank, then optionally the
published optimal length), such as ../shared/data/sliding/korf100.txt, and
prints for each its solution length, the published length, the nodes
generated (the root not counted) and the seconds of search, then the totals;
the pattern database's load or build is reported apart as setup. The goal
comes from -goal, or by default from the file: a line "# goal blank-first"
(or blank-last), else its name (blank-last, blank-first), else its boards
(the one goal that makes every board solvable with lengths of the parity of
Manhattan distance: this decides Korf's 100, not 3x3 or 5x5 sets).
-instances 1-10,38 runs some of them. With -json: one line per instance,
the catalogue's record {"instance", "board", "length", "published",
"generated", "seconds", ...}, then
{"summary": true, "instances", "matched", "nodes", "seconds",
"setup_seconds", ...}. IDA* with Manhattan distance or a pattern database
searches iterations of millions of nodes with -workers goroutines (default:
one per core), with the same solutions and node counts as one. On Linux the
CPU time of the search is reported too (cpu_seconds: of the solving thread,
or of the process with -workers above 1), a fairer measure on a busy
machine.

With -journal FILE a run of a set can stop and go on, for days and over
many workers (-nats): the journal names the set, goal, solver and options;
instances it records as solved (their moves replayed and checked) are
reported and not solved again, the others are solved and recorded.
-reference FILE (lines "INSTANCE NODES", such as Korf and Felner's counts
in korf-felner-24-kf2002-nodes.txt) projects the CPU time of the instances
not solved yet, from their reference counts scaled by this solver's nodes
and rate on those solved.

Given -algo, -h or -partition without -set, bench runs that one solver on
the N random boards in the same way, for example -size 10x10 -algo fast.`,
	NoArgs: true,
	Flags: func(fs *flag.FlagSet) Runner {
		b := bench.DefaultNpuzzleBench()
		catalog.BindFlags(fs, &b)
		seed := seedFlag(fs)
		timeout := timeoutFlag(fs, 30*time.Second)
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
		var sf solverFlags
		sf.define(fs, "idastar", true)
		natsURL := natsFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			b.Seed, b.Timeout, b.JSON = *seed, *timeout, *asJSON
			if _, err := b.Check(); err != nil {
				return err
			}
			for _, name := range []string{"reference", "journal", "instances"} { // of several, the message names the last by name
				if b.Set == "" && isSet(fs, name) {
					return usagef("-%s applies to -set only", name)
				}
			}
			oneSolver := b.Set != "" || slices.ContainsFunc([]string{"algo", "h", "partition", "cache", "w", "max-states", "max-mem", "goal", "fsm"},
				func(name string) bool { return isSet(fs, name) })
			p := newProgress(env, *prog)
			defer p.Done()
			if !oneSolver {
				return withRemote(ctx, *natsURL, func(remote bench.Remote) error { return b.Compare(ctx, env.Stdout, p, remote) })
			}
			sv, err := sf.solver()
			if err != nil {
				return err
			}
			return withRemote(ctx, *natsURL, func(remote bench.Remote) error {
				return b.Run(ctx, env.Stdout, env.Stderr, p, sv, sf.opts.Workers, remote)
			})
		}
	},
}

package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"time"

	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/npuzzle"
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
		sizeText := fs.String("size", "3x3", "board size ROWSxCOLS")
		n := fs.Int("n", 100, fmt.Sprintf("number of boards (at most %d)", bench.NpuzzleMaxBoards))
		uniform := fs.Bool("uniform", true, "uniformly random boards (false: the game's random walk)")
		seed := seedFlag(fs)
		timeout := timeoutFlag(fs, 30*time.Second)
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
		path := fs.String("set", "", "run the boards of this set file instead of random boards (a file, or a set of the shared data: korf100, korf-felner50, ...)")
		goalText := fs.String("goal", "auto", "blank-last, blank-first or auto: from the -set file, blank-last for random boards")
		instances := fs.String("instances", "", "with -set: the instances to run, such as 1-10,38,40 (default all)")
		journalPath := fs.String("journal", "", "with -set: a journal file of the run (created if missing): instances it records as solved are reported, not solved again, and this run's are added, so a run of days can stop and go on")
		reference := fs.String("reference", "", "with -set: a file of published node counts, lines \"INSTANCE NODES\" (such as korf-felner-24-kf2002-nodes.txt), to project the CPU time of the instances not solved")
		var sf solverFlags
		sf.define(fs, "idastar", true)
		natsURL := natsFlag(fs)
		return func(ctx context.Context, env *Env, args []string) (err error) {
			s, err := npuzzle.ParseSize(*sizeText)
			if err != nil {
				return usagef("%v", err)
			}
			if *n < 1 || *n > bench.NpuzzleMaxBoards {
				return usagef("-n %d out of range: from 1 to %d boards", *n, bench.NpuzzleMaxBoards)
			}
			oneSolver := *path != ""
			fs.Visit(func(f *flag.Flag) {
				switch f.Name {
				case "algo", "h", "partition", "cache", "w", "max-states", "max-mem", "goal":
					oneSolver = true
				case "instances", "journal", "reference":
					if *path == "" {
						err = usagef("-%s applies to -set only", f.Name)
					}
				}
			})
			if err != nil {
				return err
			}
			p := newProgress(env, *prog)
			defer p.Done()
			if !oneSolver {
				count := p.Counter("solves", *n*len(bench.NpuzzleMethods))
				return withRemote(ctx, *natsURL, func(remote bench.Remote) error {
					return bench.NpuzzleCompare{Size: s, Boards: *n, Seed: *seed, Uniform: *uniform, Timeout: *timeout, JSON: *asJSON,
						Done: func() { count.Add(1) }, Remote: remote}.Run(ctx, env.Stdout)
				})
			}
			b := bench.NpuzzleSet{Set: *path, Timeout: *timeout, JSON: *asJSON, Workers: sf.opts.Workers, Algo: sf.algo}
			var set []npuzzle.Instance
			if *path == "" {
				err = b.Random(s, *n, *uniform, *seed, *goalText)
			} else if set, err = b.ReadSet(*path, *goalText, *instances); err == nil && *reference != "" {
				err = b.ReadReference(*reference)
			}
			if opts, oerr := sf.options(); err == nil && oerr == nil && *journalPath != "" {
				head := bench.NewNpuzzleJournalHeader(set, b.Goal, sf.algo, opts)
				if b.Journal, err = bench.OpenNpuzzleJournal(*journalPath, head, set, b.Goal); err == nil {
					defer func() { err = cmp.Or(err, b.Journal.Close()) }()
					p.Logf("journal %s: %d instances solved by earlier runs", *journalPath, b.Journal.Len())
				}
			}
			if err != nil {
				return err
			}
			sv, err := sf.solver(ctx, b.Instances[0].Board.Size(), b.Goal, p, env.Stderr, 0, catalog.NpuzzleHooks{})
			if err != nil {
				return err
			}
			b.Options, b.PDB, b.Setup = sv.Options, sv.PDB, sv.Setup
			count := p.Counter("instances", len(b.Instances))
			b.Done = func() { count.Add(1) }
			return withRemote(ctx, *natsURL, func(remote bench.Remote) error {
				b.Remote = remote
				return b.Run(ctx, env.Stdout)
			})
		}
	},
}

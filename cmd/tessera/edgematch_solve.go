package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"path/filepath"
	"strings"
	"time"

	"tessera/edgematch"
	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/lp"
)

// solveFlags are the solver flags of solve and bench: -algo, a flag per
// option of catalog.EdgeMatchOptions (catalog.BindFlags), and -hints.
type solveFlags struct {
	algoFlags[edgematch.Solver, catalog.EdgeMatchRun]
	o     catalog.EdgeMatchRun
	hints bench.EdgeMatchHints
}

func (s *solveFlags) define(fs *flag.FlagSet) {
	s.o.Seed = 1 // the command line's seed, as every verb's
	s.algoFlags.define(fs, catalog.EdgeMatch, "dfs", " (listed by tessera help edgematch solve)", &s.o.EdgeMatchOptions)
	hintFlags(fs, &s.hints)
}

// check reports an unknown -algo, options out of range and an option the
// solver does not read (the entries' Reads): usage errors.
func (s *solveFlags) check() error {
	if _, err := catalog.EdgeMatch.Lookup(s.algo); err != nil {
		return usagef("unknown -algo %q (have %s)", s.algo, strings.Join(catalog.EdgeMatch.IDs(), ", "))
	}
	return s.checkOptions()
}

// solver builds the solver from the catalogue: an option that does not suit
// it is a usage error, a backend missing from this build a failure.
func (s *solveFlags) solver() (edgematch.Solver, error) {
	solver, err := catalog.EdgeMatch.New(s.algo, s.o)
	if err != nil && !errors.Is(err, lp.ErrNotBuilt) {
		err = usagef("%v", err)
	}
	return solver, err
}

var emSolveCmd = &Command{
	Name:      "solve",
	UsageLine: "[-algo " + strings.Join(catalog.EdgeMatch.IDs(), "|") + "] [-order O] [-count] [-split K] [-nats URL] [-hints FILE [-nhints K]] [-timeout D] [-max-nodes N] [-max-moves N] [-lp-max-mem MiB] [-seed S] [-resume B.board] [-snapshots DIR] [-json] P.txt [-o B.board]",
	Short:     "solve a puzzle, or find the best partial board",
	Long: `Solve searches the puzzle in P.txt with the solver -algo and prints the board
with its score (matched internal edges, recomputed from the pieces, never
taken from the solver). The solvers:

` + catalog.EdgeMatch.Help() + `
dfs, lp and sat exit with status 1 when they prove that there is no solution or
stop at -timeout or -max-nodes; sat runs the SAT solver -sat-solver (default:
cadical, found on the PATH) on the CNF that "edgematch export" writes, and
verifies the board it decodes; sat -count re-runs it with each solution
blocked, up to -max-solutions; lp reports the LPs solved and whether P became
a permutation. lp first estimates the memory of its LP and refuses a puzzle
that would need more than -lp-max-mem MiB (default 1024: a framed 24x24 puzzle
with 100 colours needs about 300, a 32x32 one about 1100); -timeout covers
building the LP too.

partial, the partial search for boards out of exact reach (Eternity II), is
the break-schedule search of the record boards, on -workers cores until
-timeout or -max-nodes placements per worker; tiles is the same search with
a group of well-tiling pieces kept for the end; lns is the large
neighbourhood search, until -timeout or -max-moves. All three save every new
best board with -o at once (atomically), with the algorithm and seed in its
comments. -resume B.board: lns improves the saved board; partial and tiles
keep it as the floor (the result is never worse; one worker first spends
repair moves on it) and restart their backtracker on random streams drawn
from -seed and the board, so a resumed run continues the search with new
restarts rather than repeating the first run's (the same -seed, board and
-max-nodes give the same result again with -workers 1). partial and tiles
count the boards their backtracker completes: -progress and -json give how
many, and how many scored each score within 20 of the maximum ("near", keyed
by the score), which tells how fast the boards thin out towards the top.
partial -emit FILE appends every distinct complete board it completes from
-emit-at up (default: the maximum less 20), not only the new best ones, to
FILE as JSON lines (n, score, after_s, board), at most -emit-max of them: the
boards of a score per CPU-hour, each to rescore with "edgematch score".

-split K (dfs) splits the search into the subtrees below the placements of
the first K cells of the scan, independent tasks taken in scan order by
-workers goroutines: the first solution found stops the others (with one
worker it is the plain search's), or with -count the subtrees' counts are
added. Choose K so that there are many more subtrees than workers (the report
gives their number). With -nats URL the subtrees are jobs (128 queued ahead,
in scan order) for the workers of that NATS server ("tessera worker -nats
URL" on each machine); the first solution cancels the rest. -journal FILE
makes a long split search resumable: each subtree searched to its end is
appended to FILE as a JSON line (its prefix, placements, solutions and first
solution), and a later run with the same puzzle, -order, -split and -count
skips the subtrees FILE records and adds their counts, so a count of hours
can run in pieces (stop it with Ctrl-C or -timeout; the subtrees running
then are searched again next time).

With -nats URL, partial, tiles and lns run -workers seeded searches (seeds
-seed, -seed+1, ...), each a job with one worker; the best board of all is
kept, printed as it improves (-progress) and saved with -o; -timeout ends
them all.

Budgets and reproducibility: -max-moves (lns) counts each worker's moves, so
a run it ends gives the same board every time for the same -seed and
-workers (also on another machine); -max-nodes counts placements: per worker
for partial and tiles, in all for dfs and lp's search, reproducibly with
-workers 1 (partial's workers share their best score, which decides which
boards they polish) and with -nats, whose searches have one worker each. -timeout and -lp-time are wall-clock time: a
run they end depends on the machine and its load, so for a reproducible
partial search give -max-nodes (lns: -max-moves) with -timeout 0 (or a
-timeout long enough not to end it first; the report says which ended it).

With -algo lp, -snapshots DIR writes the board that P rounds to and the matrix
P (a row per cell, a column per piece, white 1 to black 0 as in the paper's
Figure 4c) after every LP (lp-NN-board.png, lp-NN-P.png) and all of them side
by side (iterates.png).`,
	Args: want(1, "want one puzzle file"),
	Flags: func(fs *flag.FlagSet) Runner {
		var sf solveFlags
		sf.define(fs)
		resume := fs.String("resume", "", "partial, tiles: keep this board (a saved best) as the one to beat and restart from -seed and it; lns: improve it")
		url := fs.Bool("url", false, "print the board as an e2.bucas.name viewer URL")
		timeout := timeoutFlag(fs, time.Minute)
		out := outFlag(fs, "the board (partial, tiles, lns: every new best, atomically)")
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
		snapDir := fs.String("snapshots", "", "lp: write the board and the matrix P after every LP as pictures to this folder")
		natsURL := solveNATSFlag(fs, "dfs -split's subtrees or the -workers seeded searches of partial, tiles or lns")
		journal := fs.String("journal", "", "dfs -split: record each subtree searched to its end in this file, and skip the subtrees it records (a long search or count goes on where it stopped; one run at a time per file)")
		emit := fs.String("emit", "", "partial: append every distinct complete board of -emit-at or more that the search completes (not only the new best ones) to this file, a JSON line each")
		emitAt := fs.Int("emit-at", 0, "partial -emit: the lowest score of the boards written (0: the puzzle's maximum less 20)")
		emitMax := fs.Int("emit-max", 100_000, "partial -emit: write at most this many boards")
		return func(ctx context.Context, env *Env, args []string) error {
			if err := sf.check(); err != nil {
				return err
			}
			if *emit != "" && (sf.algo != "partial" || *natsURL != "") {
				return usagef("-emit applies to -algo partial without -nats")
			}
			if *emitMax <= 0 || *emitAt < 0 {
				return usagef("-emit-max must be positive and -emit-at not negative")
			}
			if *natsURL != "" {
				if err := bench.EdgeMatchOnJobs(sf.algo, sf.o.Split); err != nil {
					return err
				}
			}
			client, closeClient, err := solveClient(ctx, *natsURL) // nil without -nats
			if err != nil {
				return err
			}
			defer closeClient()
			if *snapDir != "" && sf.algo != "lp" {
				return usagef("-snapshots applies to -algo lp")
			}
			if *journal != "" && (sf.algo != "dfs" || sf.o.Split <= 0) {
				return usagef("-journal applies to -algo dfs -split K")
			}
			p, err := bench.ReadEdgeMatchPuzzle(args[0], env.Stdin, sf.hints)
			if err != nil {
				return err
			}
			if *resume != "" {
				if sf.o.Start, err = bench.ReadEdgeMatchBoard(*resume, p); err != nil {
					return err
				}
			}
			pr := newProgress(env, *prog)
			defer pr.Done()
			run := bench.EdgeMatchSolveRun{Name: filepath.Base(args[0]), Puzzle: p, Algo: sf.algo, Run: sf.o, Timeout: *timeout, Out: *out,
				Snapshots: *snapDir, Journal: *journal, ShowURL: *url, Progress: pr, Jobs: client}
			var em *bench.EdgeMatchEmitter
			if *emit != "" {
				if em, err = bench.NewEdgeMatchEmitter(*emit); err != nil {
					return err
				}
				h := &run.Run.Hooks
				h.OnComplete, h.EmitAt, h.EmitMax = em.Add, cmp.Or(*emitAt, p.MaxScore()-20), *emitMax
			}
			r, err := run.Solve(ctx)
			err = cmp.Or(err, em.Close())
			if r == nil {
				return err
			}
			return cmp.Or(r.Write(env.Stdout, *asJSON), err)
		}
	},
}

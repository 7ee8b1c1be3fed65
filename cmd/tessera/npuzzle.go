package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/internal/play"
	"tessera/npuzzle"
	"tessera/search"
)

func init() {
	register(&Command{
		Name:  "npuzzle",
		Short: "sliding-tile puzzles: solve, shuffle, play, bench, pattern databases",
		Long: `Sliding-tile puzzles (8-, 15-, 24-puzzle, any board from 2x2 to 10x10).

Boards are written as tile numbers with 0 for the blank, rows separated by
newlines or "/", for example "1 2 3/4 5 6/7 8 0". Sizes are ROWSxCOLS. Moves
name the direction the tile slides: U, D, L, R. The goal has the blank last
(the game's convention) or, with -goal blank-first, first (Korf's data).

Optimal solving of the 4x4 and 5x5 boards uses additive pattern databases
(-algo idastar -h pdb -partition 7-8), built once and cached: see
'tessera help npuzzle pdb'. -algo fast answers any board up to 10x10 with
a short solution in well under a second of CPU time.`,
		Commands: []*Command{npuzzleSolveCmd, npuzzleShuffleCmd, npuzzlePlayCmd, npuzzleBenchCmd, npuzzlePDBCmd},
	})
}

// boardFlags are the flags that describe the board and the goal.
type boardFlags struct {
	size, goal string
	need       bool // a -size default: "" is refused
}

func (b *boardFlags) define(fs *flag.FlagSet, size, sizeUsage, goalUsage string) {
	b.need = size != ""
	fs.StringVar(&b.size, "size", size, sizeUsage)
	fs.StringVar(&b.goal, "goal", "blank-last", goalUsage)
}

// runner is the verb's runner: f, given the size (zero when -size is
// optional and not given) and the goal, after they are parsed.
func (b *boardFlags) runner(f func(ctx context.Context, env *Env, args []string, size npuzzle.Size, goal npuzzle.Goal) error) Runner {
	return func(ctx context.Context, env *Env, args []string) error {
		var size npuzzle.Size
		if b.size != "" || b.need {
			var err error
			if size, err = npuzzle.ParseSize(b.size); err != nil {
				return usagef("%v", err)
			}
		}
		goal, err := npuzzle.ParseGoal(b.goal)
		if err != nil {
			return usagef("%v", err)
		}
		return f(ctx, env, args, size, goal)
	}
}

// solverFlags choose a catalog.Npuzzle entry (-algo) and its options (a
// flag per field of catalog.NpuzzleOptions), with the pattern databases'
// cache folder (-cache, of this machine only).
type solverFlags struct {
	algoFlags[npuzzle.Solver, catalog.NpuzzleRun]
	opts   catalog.NpuzzleOptions
	cache  *string
	idaPDB bool // -algo idastar without -h means -h pdb (bench)
}

// define defines the flags, with the default solver algo; idaPDB makes pdb
// the default heuristic of idastar.
func (s *solverFlags) define(fs *flag.FlagSet, algo string, idaPDB bool) {
	s.idaPDB = idaPDB
	s.opts.MaxMem, s.opts.Workers = catalog.DefaultMiB, runtime.GOMAXPROCS(0)
	s.algoFlags.define(fs, catalog.Npuzzle, algo, " (see 'tessera help npuzzle solve')", &s.opts)
	if idaPDB {
		f := fs.Lookup("h")
		f.Usage = strings.Replace(f.Usage, "(default linear; manhattan for wastar)", "(default pdb for idastar, linear for astar, manhattan for wastar, none for fast)", 1)
	}
	s.cache = cacheFlag(fs)
}

// solver checks the flags and returns -algo's solver with its options,
// to be built.
func (s *solverFlags) solver() (*bench.NpuzzleSolver, error) {
	if s.opts.Heuristic == "" && s.algo == "idastar" && s.idaPDB {
		s.opts.Heuristic = "pdb"
	}
	if s.opts.Workers < 1 {
		return nil, usagef("-workers %d: want at least 1", s.opts.Workers)
	}
	e, err := catalog.Npuzzle.Lookup(s.algo)
	if err != nil {
		return nil, usagef("-algo %s: %v", s.algo, err)
	}
	if err := s.checkOptions(); err != nil {
		return nil, err
	}
	sv := &bench.NpuzzleSolver{Algo: s.algo, Options: s.opts, Cache: *s.cache}
	if !slices.Contains(e.Reads, "workers") {
		sv.Options.Workers = 0 // the flag's default, one per core, is idastar's
	}
	return sv, nil
}

var npuzzleSolveCmd = &Command{
	Name:      "solve",
	UsageLine: "[-algo ID] [-h misplaced|manhattan|linear|pdb] [-partition P] [-w W] [-size RxC] [-goal G] [-timeout D] [-json] BOARD | -shuffle RxC [-seed S] [-uniform]",
	Short:     "solve a board and print the moves",
	Long: `Solve finds moves that take BOARD (or, with -shuffle, a shuffled board) to
the goal, and prints them with their count, whether they are proven shortest,
and the search statistics. BOARD may be "-" to read it from stdin.

Unsolvable boards are rejected at once by their parity. A search that hits
-timeout, -max-states or -max-mem reports how far it got and exits with
status 1.

-algo idastar -h pdb runs the specialised optimal solver with an additive
pattern database (-partition, default 6-6-3 on the 4x4 board and 6-6-6-6 on
the 5x5), loaded from the cache or built first (see 'tessera help npuzzle
pdb'); with -h manhattan it is the same solver with Manhattan distance.
-timeout and -max-mem cover that build too: a table that would need more
memory than -max-mem is not built (7-8 needs 548 MB), and the message says
to build it once with 'tessera npuzzle pdb build'. A table that cannot be
written to the cache is warned of on stderr.
-algo fast answers any board up to 10x10 with a short solution: it fixes
rows and columns, then finishes a 4x4 region (optimal when it can) or, with
-h pdb and a 5x5 partition, a 5x5 region.

Solvers (-algo; "optimal" marks those that prove their answers shortest):
` + catalog.Npuzzle.Help(),
	Flags: func(fs *flag.FlagSet) Runner {
		var bf boardFlags
		var sf solverFlags
		bf.define(fs, "", "board size ROWSxCOLS (for boards written on one line that are not square)", "goal: blank-last or blank-first")
		sf.define(fs, "astar", false)
		shuffle := fs.String("shuffle", "", "solve a board of this size (ROWSxCOLS) shuffled from -seed instead of BOARD")
		uniform := fs.Bool("uniform", false, "with -shuffle: a uniformly random solvable board instead of the game's random walk")
		seed := seedFlag(fs)
		timeout := timeoutFlag(fs, time.Minute)
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
		return bf.runner(func(ctx context.Context, env *Env, args []string, size npuzzle.Size, goal npuzzle.Goal) error {
			b, err := bench.NpuzzleBoard(ctx, env.Stdin, args, size, goal, *shuffle, *uniform, *seed)
			if err != nil {
				return err
			}
			p := newProgress(env, *prog)
			defer p.Done()
			ctx, cancel := catalog.WithTimeout(ctx, *timeout) // the budget covers the pattern database's load or build
			defer cancel()
			sv, err := sf.solver()
			if err == nil {
				err = sv.Build(ctx, b.Size(), goal, p, env.Stderr, *timeout, catalog.NpuzzleHooks{Progress: func(s search.Stats) {
					p.Printf("searching: %d expanded, %d stored, %.1f s", s.Expanded, s.PeakStored, s.Elapsed.Seconds())
				}})
			}
			if err != nil {
				return err
			}
			rec, err := sv.Solve(ctx, b, goal, *timeout)
			p.Done()
			return cmp.Or(bench.WriteNpuzzleSolve(env.Stdout, rec, fmt.Sprint(sv.Solver), *asJSON), err)
		})
	},
}

// maxShuffleMoves bounds shuffle -moves: a walk of that length takes one or two
// seconds, and mixes any board the command accepts.
const maxShuffleMoves = 100_000_000

var npuzzleShuffleCmd = &Command{
	Name:      "shuffle",
	UsageLine: "-size RxC [-moves K | -uniform] [-seed S] [-goal G] [-json]",
	Short:     "print a shuffled, always solvable board",
	Long: `Shuffle prints a board of the given size: by default the source game's
random walk of 10 moves per cell from the goal (never undoing the previous
move), with -moves K a walk of K moves, or with -uniform a board drawn
uniformly from all solvable boards.`,
	NoArgs: true,
	Flags: func(fs *flag.FlagSet) Runner {
		var bf boardFlags
		bf.define(fs, "3x3", "board size ROWSxCOLS", "goal: blank-last or blank-first")
		moves := fs.Int("moves", 0, "random-walk length, at most 100,000,000 (default 10 per cell)")
		uniform := fs.Bool("uniform", false, "draw uniformly among solvable boards")
		seed := seedFlag(fs)
		asJSON := jsonFlag(fs)
		return bf.runner(func(ctx context.Context, env *Env, args []string, s npuzzle.Size, goal npuzzle.Goal) error {
			steps := npuzzle.WalkLength(s)
			if isSet(fs, "moves") {
				switch {
				case *uniform:
					return usagef("give -moves or -uniform, not both")
				case *moves < 0 || *moves > maxShuffleMoves:
					return usagef("-moves %d: want 0 to %d moves", *moves, maxShuffleMoves)
				}
				steps = *moves
			}
			b, err := npuzzle.Shuffle(ctx, s, goal, *uniform, steps, *seed)
			if err != nil {
				return err
			}
			return bench.WriteNpuzzleShuffle(env.Stdout, b, goal, *seed, *uniform, steps, *asJSON)
		})
	},
}

var npuzzlePlayCmd = &Command{
	Name:      "play",
	UsageLine: "[-size RxC] [-seed S] [-delay D]",
	Short:     "play in the terminal, with hints and auto-solve",
	Long: `Play a shuffled board in the terminal.

Keys: arrows or W A S D slide a tile into the blank (the tile moves in the
key's direction); n shuffles a new board; r restarts the current one; u undoes
a move; h hints the next move of a shortest solution; a solves the board and
plays the solution move by move; q quits.`,
	NoArgs: true,
	Flags: func(fs *flag.FlagSet) Runner {
		sizeText := fs.String("size", "3x3", "board size ROWSxCOLS")
		seed := seedFlag(fs)
		delay := fs.Duration("delay", 250*time.Millisecond, "pause between the moves of an auto-solve")
		return func(ctx context.Context, env *Env, args []string) error {
			s, err := npuzzle.ParseSize(*sizeText)
			if err != nil {
				return usagef("%v", err)
			}
			return play.Npuzzle{Size: s, Seed: *seed, Delay: *delay}.Run(ctx, env.Stdin, env.Stdout)
		}
	},
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"tessera/internal/progress"
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
	size string
	goal string
}

func (b *boardFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&b.size, "size", "", "board size ROWSxCOLS (for boards written on one line that are not square)")
	fs.StringVar(&b.goal, "goal", "blank-last", "goal: blank-last or blank-first")
}

func (b *boardFlags) parse() (npuzzle.Size, npuzzle.Goal, error) {
	var size npuzzle.Size
	if b.size != "" {
		var err error
		if size, err = npuzzle.ParseSize(b.size); err != nil {
			return size, 0, usagef("%v", err)
		}
	}
	goal, err := npuzzle.ParseGoal(b.goal)
	if err != nil {
		return size, 0, usagef("%v", err)
	}
	return size, goal, nil
}

// solverFlags select and bound a solver.
type solverFlags struct {
	algo, heuristic string
	weight          float64
	maxStates       int64
	maxMB           int64
	workers         int
	pdb             pdbFlags
}

// define defines the flags, with the default solver algo and heuristic h.
func (s *solverFlags) define(fs *flag.FlagSet, algo, h string) {
	fs.StringVar(&s.algo, "algo", algo, "solver: bfs, bibfs, astar, idastar or fast (any board up to 10x10, short but not always shortest)")
	usage := "heuristic for astar and idastar: misplaced, manhattan, linear or pdb (pattern database; -algo fast uses it when given)"
	if h == "" {
		usage += " (default pdb for idastar, linear for astar, none for fast)"
	}
	fs.StringVar(&s.heuristic, "h", h, usage)
	fs.Float64Var(&s.weight, "w", 1, "A* weight on the heuristic (1 is optimal; the source game uses 5 with manhattan)")
	fs.Int64Var(&s.maxStates, "max-states", 0, "stop after storing this many states (0: no count limit)")
	fs.Int64Var(&s.maxMB, "max-mem", 2048, "stop when the stored states need about this many MiB")
	fs.IntVar(&s.workers, "workers", runtime.GOMAXPROCS(0), "goroutines of IDA* with -h manhattan or pdb on iterations of millions of nodes (the solution and the counts do not depend on it)")
	s.pdb.define(fs)
}

func (s *solverFlags) options(goal npuzzle.Goal) (npuzzle.Options, error) {
	algo, err := npuzzle.ParseAlgorithm(s.algo)
	if err != nil {
		return npuzzle.Options{}, usagef("%v", err)
	}
	name := s.heuristic
	if name == "" {
		name = "linear"
		if algo == npuzzle.IDAStar {
			name = "pdb"
		}
	}
	h, err := npuzzle.ParseHeuristic(name)
	if err != nil {
		return npuzzle.Options{}, usagef("%v", err)
	}
	if s.weight < 1 {
		return npuzzle.Options{}, usagef("-w %g: the weight must be at least 1", s.weight)
	}
	if s.weight != 1 && algo != npuzzle.AStar {
		return npuzzle.Options{}, usagef("-w applies to -algo astar only")
	}
	if h == npuzzle.PatternDB && (algo == npuzzle.BFS || algo == npuzzle.BidirectionalBFS) {
		return npuzzle.Options{}, usagef("-h pdb applies to -algo idastar, astar and fast")
	}
	if s.pdb.partition != "" && h != npuzzle.PatternDB {
		return npuzzle.Options{}, usagef("-partition applies to -h pdb only")
	}
	if s.workers < 1 {
		return npuzzle.Options{}, usagef("-workers %d: want at least 1", s.workers)
	}
	return npuzzle.Options{Algorithm: algo, Heuristic: h, Goal: goal, Workers: s.workers, Search: search.Options{
		MaxStates: s.maxStates,
		MaxBytes:  s.maxMB << 20,
		Weight:    s.weight,
	}}, nil
}

// loadPDB loads the pattern database that opts needs for boards of size
// s, if any, into opts.PDB, and returns the seconds it took.
func (s *solverFlags) loadPDB(ctx context.Context, opts *npuzzle.Options, size npuzzle.Size, rep *progress.Reporter) (float64, error) {
	if opts.Heuristic != npuzzle.PatternDB {
		return 0, nil
	}
	if opts.Algorithm == npuzzle.Fast && s.pdb.partition == "" && (size.Rows < 4 || size.Cols < 4) {
		return 0, nil // no region of a standard partition's size: fast goes without
	}
	part, err := s.pdb.resolve(size, opts.Goal)
	if err != nil {
		return 0, err
	}
	if opts.Algorithm != npuzzle.Fast && part.Size != size {
		return 0, usagef("partition %v does not fit a %v board", part, size)
	}
	d, secs, err := s.pdb.load(ctx, part, rep, false, 0)
	opts.PDB = d
	return secs, err
}

// heuristicNames are the heuristics' names for people.
var heuristicNames = map[npuzzle.Heuristic]string{
	npuzzle.LinearConflict: "linear conflict", npuzzle.Manhattan: "Manhattan distance", npuzzle.Misplaced: "misplaced tiles",
	npuzzle.PatternDB: "pattern database",
}

// describe names a solver configuration for people.
func describe(o npuzzle.Options) string {
	h := heuristicNames[o.Heuristic]
	if o.PDB != nil {
		h = fmt.Sprintf("pattern database %s", o.PDB.Partition())
		if o.PDB.Reflected() {
			h += " + reflection"
		}
	}
	switch o.Algorithm {
	case npuzzle.BFS:
		return "breadth-first search"
	case npuzzle.BidirectionalBFS:
		return "bidirectional breadth-first search"
	case npuzzle.IDAStar:
		return "IDA*, " + h
	case npuzzle.Fast:
		if o.PDB != nil {
			return "fast (reduction, then search with the " + h + ")"
		}
		return "fast (reduction, then search)"
	}
	if o.Search.Weight > 1 {
		return fmt.Sprintf("A*, %s x %g", h, o.Search.Weight)
	}
	return "A*, " + h
}

// readBoard reads the board from the arguments ("-" for stdin).
func readBoard(env *Env, args []string, size npuzzle.Size) (*npuzzle.Board, error) {
	text := strings.Join(args, " ")
	if len(args) == 1 && args[0] == "-" {
		b, err := io.ReadAll(io.LimitReader(env.Stdin, 1<<16))
		if err != nil {
			return nil, err
		}
		text = string(b)
	}
	return npuzzle.Parse(text, size)
}

// solveJSON is the -json output of npuzzle solve.
type solveJSON struct {
	Board      string  `json:"board"`
	Size       string  `json:"size"`
	Goal       string  `json:"goal"`
	Algo       string  `json:"algo"`
	Heuristic  string  `json:"heuristic,omitempty"`
	Partition  string  `json:"partition,omitempty"`
	Weight     float64 `json:"weight,omitempty"`
	Moves      string  `json:"moves"`
	Length     int     `json:"length"`
	Solved     bool    `json:"solved"`
	Optimal    bool    `json:"optimal"`
	Expanded   int64   `json:"expanded"`
	Generated  int64   `json:"generated"`
	PeakStored int64   `json:"peak_stored"`
	Seconds    float64 `json:"seconds"`
	// SetupSeconds is the time to load or build the pattern database.
	SetupSeconds float64 `json:"setup_seconds,omitempty"`
	Error        string  `json:"error,omitempty"`
}

var npuzzleSolveCmd = &Command{
	Name:      "solve",
	UsageLine: "[-algo bfs|bibfs|astar|idastar|fast] [-h misplaced|manhattan|linear|pdb] [-partition P] [-w W] [-size RxC] [-goal G] [-timeout D] [-json] BOARD | -shuffle RxC [-seed S] [-uniform]",
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
-algo fast answers any board up to 10x10 with a short solution: it fixes
rows and columns, then finishes a 4x4 region (optimal when it can) or, with
-h pdb and a 5x5 partition, a 5x5 region.`,
	Flags: func(fs *flag.FlagSet) Runner {
		var bf boardFlags
		var sf solverFlags
		bf.define(fs)
		sf.define(fs, "astar", "linear")
		shuffle := fs.String("shuffle", "", "solve a board of this size (ROWSxCOLS) shuffled from -seed instead of BOARD")
		uniform := fs.Bool("uniform", false, "with -shuffle: a uniformly random solvable board instead of the game's random walk")
		seed := seedFlag(fs)
		timeout := timeoutFlag(fs, time.Minute)
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			size, goal, err := bf.parse()
			if err != nil {
				return err
			}
			opts, err := sf.options(goal)
			if err != nil {
				return err
			}
			var b *npuzzle.Board
			switch {
			case *shuffle != "" && len(args) > 0:
				return usagef("give either BOARD or -shuffle, not both")
			case *shuffle != "":
				s, err := npuzzle.ParseSize(*shuffle)
				if err != nil {
					return usagef("%v", err)
				}
				b = shuffled(s, goal, *uniform, -1, *seed)
			case len(args) == 0:
				return usagef("no board given")
			default:
				if b, err = readBoard(env, args, size); err != nil {
					return err
				}
			}
			p := newProgress(env, *prog)
			defer p.Done()
			setup, err := sf.loadPDB(ctx, &opts, b.Size(), p)
			if err != nil {
				return err
			}
			opts.Search.Progress = func(s search.Stats) {
				p.Printf("searching: %d expanded, %d stored, %.1f s", s.Expanded, s.PeakStored, s.Elapsed.Seconds())
			}
			ctx, cancel := withTimeout(ctx, *timeout)
			defer cancel()
			sol, err := npuzzle.Solve(ctx, b, opts)
			p.Done()
			if errors.Is(err, context.DeadlineExceeded) {
				err = fmt.Errorf("no solution within -timeout %v: %w", *timeout, err)
			}
			if *asJSON {
				out := solveJSON{
					Board: b.Line(), Size: b.Size().String(), Goal: goal.String(), Algo: opts.Algorithm.String(),
					Moves: npuzzle.FormatMoves(sol.Moves), Length: len(sol.Moves), Solved: err == nil, Optimal: sol.Optimal,
					Expanded: sol.Stats.Expanded, Generated: sol.Stats.Generated, PeakStored: sol.Stats.PeakStored,
					Seconds: seconds(sol.Stats.Elapsed), SetupSeconds: setup,
				}
				if opts.Algorithm == npuzzle.AStar || opts.Algorithm == npuzzle.IDAStar || opts.PDB != nil {
					out.Heuristic = opts.Heuristic.String()
				}
				if opts.PDB != nil {
					out.Partition = opts.PDB.Partition().Name
				}
				if opts.Algorithm == npuzzle.AStar {
					out.Weight = opts.Search.Weight
				}
				if err != nil {
					out.Error = err.Error()
				}
				if werr := writeJSON(env.Stdout, out); werr != nil {
					return werr
				}
				return err
			}
			w := env.Stdout
			fmt.Fprintf(w, "board    %s (%v, goal %v)\n", b.Line(), b.Size(), goal)
			fmt.Fprintf(w, "solver   %s\n", describe(opts))
			if err == nil {
				fmt.Fprintf(w, "moves    %s\n", npuzzle.FormatMoves(sol.Moves))
				proof := "optimal"
				if !sol.Optimal {
					proof = "not proven optimal"
				}
				fmt.Fprintf(w, "length   %d (%s)\n", len(sol.Moves), proof)
			}
			st := sol.Stats
			fmt.Fprintf(w, "search   %d expanded, %d generated, %d stored at peak, %.3f s\n", st.Expanded, st.Generated, st.PeakStored, st.Elapsed.Seconds())
			if opts.PDB != nil {
				fmt.Fprintf(w, "setup    %.3f s to load the pattern database\n", setup)
			}
			return err
		}
	},
}

// shuffled returns a board of size s: uniformly random, or the game's random
// walk of moves steps (-1: the game's 10 per cell).
func shuffled(s npuzzle.Size, goal npuzzle.Goal, uniform bool, moves int, seed uint64) *npuzzle.Board {
	rng := rand.New(rand.NewPCG(seed, 0x6e70757a7a6c65))
	if uniform {
		return npuzzle.Random(s, goal, rng)
	}
	if moves < 0 {
		moves = npuzzle.WalkLength(s)
	}
	return npuzzle.RandomWalk(s, goal, moves, rng)
}

var npuzzleShuffleCmd = &Command{
	Name:      "shuffle",
	UsageLine: "-size RxC [-moves K | -uniform] [-seed S] [-goal G] [-json]",
	Short:     "print a shuffled, always solvable board",
	Long: `Shuffle prints a board of the given size: by default the source game's
random walk of 10 moves per cell from the goal (never undoing the previous
move), with -moves K a walk of K moves, or with -uniform a board drawn
uniformly from all solvable boards.`,
	Flags: func(fs *flag.FlagSet) Runner {
		sizeText := fs.String("size", "3x3", "board size ROWSxCOLS")
		goalText := fs.String("goal", "blank-last", "goal: blank-last or blank-first")
		moves := fs.Int("moves", -1, "random-walk length (default 10 per cell)")
		uniform := fs.Bool("uniform", false, "draw uniformly among solvable boards")
		seed := seedFlag(fs)
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) > 0 {
				return usagef("unexpected arguments %q", args)
			}
			s, err := npuzzle.ParseSize(*sizeText)
			if err != nil {
				return usagef("%v", err)
			}
			goal, err := npuzzle.ParseGoal(*goalText)
			if err != nil {
				return usagef("%v", err)
			}
			if *uniform && *moves >= 0 {
				return usagef("give -moves or -uniform, not both")
			}
			steps := *moves
			if steps < 0 {
				steps = npuzzle.WalkLength(s)
			}
			b := shuffled(s, goal, *uniform, steps, *seed)
			if *asJSON {
				out := map[string]any{"board": b.Line(), "size": s.String(), "goal": goal.String(), "seed": *seed}
				if *uniform {
					out["uniform"] = true
				} else {
					out["moves"] = steps
				}
				return writeJSON(env.Stdout, out)
			}
			fmt.Fprintln(env.Stdout, b)
			return nil
		}
	},
}

// benchMethod is one solver compared by npuzzle bench.
type benchMethod struct {
	name   string
	source string // the source's figure for states searched, if any
	opts   npuzzle.Options
}

// sourceMethods are the source's comparison plus IDA* with linear conflict.
var sourceMethods = []benchMethod{
	{"BFS", "~100,000", npuzzle.Options{Algorithm: npuzzle.BFS}},
	{"bidirectional BFS", "~3,500", npuzzle.Options{Algorithm: npuzzle.BidirectionalBFS}},
	{"A* (Manhattan x 5)", "~300", npuzzle.Options{Algorithm: npuzzle.AStar, Heuristic: npuzzle.Manhattan, Search: search.Options{Weight: 5}}},
	{"A* (Manhattan)", "", npuzzle.Options{Algorithm: npuzzle.AStar, Heuristic: npuzzle.Manhattan}},
	{"IDA* (linear conflict)", "", npuzzle.Options{Algorithm: npuzzle.IDAStar, Heuristic: npuzzle.LinearConflict}},
}

// benchRecord is one -json line of npuzzle bench.
type benchRecord struct {
	Board     int     `json:"board"`
	Tiles     string  `json:"tiles"`
	Method    string  `json:"method"`
	Length    int     `json:"length"`
	Optimal   bool    `json:"optimal"`
	Expanded  int64   `json:"expanded"`
	Generated int64   `json:"generated"`
	Seconds   float64 `json:"seconds"`
	Error     string  `json:"error,omitempty"`
}

// methodSummary aggregates one method over the boards.
type methodSummary struct {
	Method         string  `json:"method"`
	Solved         int     `json:"solved"`
	Optimal        int     `json:"optimal"`
	MeanExpanded   float64 `json:"mean_expanded"`
	MedianExpanded float64 `json:"median_expanded"`
	MeanGenerated  float64 `json:"mean_generated"`
	MeanSeconds    float64 `json:"mean_seconds"`
	MedianSeconds  float64 `json:"median_seconds"`
	MeanLength     float64 `json:"mean_length"`
	Source         string  `json:"source_states,omitempty"`
}

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
line per board and method, then a summary line.

With -set FILE, bench runs one solver (-algo, -h, -partition; default IDA*
with the size's standard pattern database) on the boards of a set file, one
board per line (tiles row-major, 0 for the blank, then optionally the
published optimal length), such as ../shared/data/sliding/korf100.txt, and
prints for each its solution length, the published length, the nodes
generated (the root not counted) and the seconds of search, then the totals;
the pattern database's load or build is reported apart as setup. The goal
comes from -goal, or by default from the file's name (blank-last,
blank-first), a README.md beside it, or the boards (the one goal that makes
every board solvable with lengths of the parity of Manhattan distance).
-instances 1-10,38 runs some of them. With -json: one line per instance
{"instance", "length", "published", "nodes", "seconds", ...}, then
{"summary": true, "instances", "matched", "nodes", "seconds",
"setup_seconds", ...}. IDA* with Manhattan distance or a pattern database
searches iterations of millions of nodes with -workers goroutines (default:
one per core), with the same solutions and node counts as one. On Linux the
CPU time of the search is reported too (cpu_seconds: of the solving thread,
or of the process with -workers above 1), a fairer measure on a busy
machine.

Given -algo, -h or -partition without -set, bench runs that one solver on
the N random boards in the same way, for example -size 10x10 -algo fast.`,
	Flags: func(fs *flag.FlagSet) Runner {
		sizeText := fs.String("size", "3x3", "board size ROWSxCOLS")
		n := fs.Int("n", 100, "number of boards")
		uniform := fs.Bool("uniform", true, "uniformly random boards (false: the game's random walk)")
		seed := seedFlag(fs)
		timeout := timeoutFlag(fs, 30*time.Second)
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
		sb := setBench{}
		fs.StringVar(&sb.path, "set", "", "run the boards of this set file instead of random boards")
		fs.StringVar(&sb.goal, "goal", "auto", "blank-last, blank-first or auto: from the -set file, blank-last for random boards")
		fs.StringVar(&sb.instances, "instances", "", "with -set: the instances to run, such as 1-10,38,40 (default all)")
		sb.solver.define(fs, "idastar", "")
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) > 0 {
				return usagef("unexpected arguments %q", args)
			}
			sb.timeout, sb.asJSON, sb.progress = *timeout, *asJSON, *prog
			s, err := npuzzle.ParseSize(*sizeText)
			if err != nil {
				return usagef("%v", err)
			}
			if *n < 1 {
				return usagef("-n must be at least 1")
			}
			if sb.path != "" {
				return sb.runFile(ctx, env)
			}
			oneSolver := false
			fs.Visit(func(f *flag.Flag) {
				switch f.Name {
				case "algo", "h", "partition", "cache", "w", "max-states", "max-mem", "goal":
					oneSolver = true
				case "instances":
					err = usagef("-instances applies to -set only")
				}
			})
			if err != nil {
				return err
			}
			if oneSolver {
				return sb.runRandom(ctx, env, s, *n, *uniform, *seed)
			}
			p := newProgress(env, *prog)
			defer p.Done()
			count := p.Counter("boards", *n)
			rng := rand.New(rand.NewPCG(*seed, 0x6e70757a7a6c65))
			results := make([][]benchRecord, len(sourceMethods))
			optimalLen := 0
			for i := range *n {
				var b *npuzzle.Board
				if *uniform {
					b = npuzzle.Random(s, npuzzle.BlankLast, rng)
				} else {
					b = npuzzle.RandomWalk(s, npuzzle.BlankLast, npuzzle.WalkLength(s), rng)
				}
				for m, method := range sourceMethods {
					if err := ctx.Err(); err != nil {
						return err
					}
					sctx, cancel := withTimeout(ctx, *timeout)
					sol, err := npuzzle.Solve(sctx, b, method.opts)
					cancel()
					rec := benchRecord{Board: i + 1, Tiles: b.Line(), Method: method.name, Length: len(sol.Moves),
						Optimal: sol.Optimal, Expanded: sol.Stats.Expanded, Generated: sol.Stats.Generated,
						Seconds: seconds(sol.Stats.Elapsed)}
					if err != nil {
						rec.Error = err.Error()
					} else if sol.Optimal && m == 0 {
						optimalLen += len(sol.Moves)
					}
					results[m] = append(results[m], rec)
					if *asJSON {
						if err := writeJSON(env.Stdout, rec); err != nil {
							return err
						}
					}
				}
				count.Add(1)
			}
			p.Done()
			summaries := make([]methodSummary, len(sourceMethods))
			for m, recs := range results {
				summaries[m] = summarize(sourceMethods[m], recs)
			}
			if *asJSON {
				return writeJSON(env.Stdout, map[string]any{"summary": true, "size": s.String(), "boards": *n,
					"seed": *seed, "uniform": *uniform, "methods": summaries})
			}
			kind := "uniformly random"
			if !*uniform {
				kind = "random-walk"
			}
			fmt.Fprintf(env.Stdout, "%v, %d %s boards, seed %d, mean optimal length %.2f\n\n", s, *n, kind, *seed,
				float64(optimalLen)/float64(max(1, summaries[0].Solved)))
			printBenchTable(env.Stdout, summaries)
			return nil
		}
	},
}

// summarize aggregates the records of one method.
func summarize(m benchMethod, recs []benchRecord) methodSummary {
	s := methodSummary{Method: m.name, Source: m.source}
	var exp, secs []float64
	for _, r := range recs {
		if r.Error != "" {
			continue
		}
		s.Solved++
		if r.Optimal {
			s.Optimal++
		}
		exp = append(exp, float64(r.Expanded))
		secs = append(secs, r.Seconds)
		s.MeanGenerated += float64(r.Generated)
		s.MeanLength += float64(r.Length)
	}
	if s.Solved > 0 {
		k := float64(s.Solved)
		s.MeanExpanded, s.MedianExpanded = mean(exp), median(exp)
		s.MeanSeconds, s.MedianSeconds = mean(secs), median(secs)
		s.MeanGenerated /= k
		s.MeanLength /= k
	}
	return s
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t / float64(len(xs))
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func printBenchTable(w io.Writer, rows []methodSummary) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "method\tsolved\texpanded mean\texpanded median\tgenerated mean\tms mean\tms median\tlength mean\toptimal\tsource states\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%.0f\t%.0f\t%.2f\t%.2f\t%.2f\t%d\t%s\t\n", r.Method, r.Solved, r.MeanExpanded, r.MedianExpanded,
			r.MeanGenerated, 1000*r.MeanSeconds, 1000*r.MedianSeconds, r.MeanLength, r.Optimal, r.Source)
	}
	tw.Flush()
}

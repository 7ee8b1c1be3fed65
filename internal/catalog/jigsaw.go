package catalog

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"

	"tessera/jigsaw"
	"tessera/jigsaw/bag"
	"tessera/jigsaw/ga"
	"tessera/jigsaw/greedy"
	"tessera/jigsaw/neural"
)

// JigsawOptions are the square-piece jigsaw solvers' options: plain data
// that travels as JSON, each field's json tag its name and, with '-' for
// '_', its flag (BindFlags); the zero value gives every solver its
// defaults (MGC, 16 candidates per edge, the paper's genetic algorithm).
// Each solver reads the fields its entry's Reads lists.
type JigsawOptions struct {
	Metric jigsaw.Metric `json:"metric,omitempty" help:"edge dissimilarity: mgc (Gallagher) or ssd (L*a*b* distance, Sholomon et al.)"`
	K      int           `json:"k,omitempty" help:"candidates kept per edge (0: 16)"`
	Pop    int           `json:"pop,omitempty" help:"ga: chromosomes per generation (0: 300)"`
	// Gens, Elite and Mutation are 0 for the defaults and -1 for none
	// (ga.Solver's encoding); their flags keep the command line's: 0 is
	// none there (GACount, GARate).
	Gens       GACount `json:"gens,omitempty" help:"ga: generations after the first (0: the first alone, which holds the greedy solution)"`
	Elite      GACount `json:"elite,omitempty" help:"ga: best chromosomes copied to the next generation"`
	Mutation   GARate  `json:"mutation,omitempty" help:"ga: probability of skipping a relation both parents share"`
	FreeSeed   bool    `json:"free_seed,omitempty" help:"ga, size unknown: also seed from the greedy assembly without a frame when it has clearly more best buddies"`
	NoFrame    bool    `json:"no_frame,omitempty" help:"ga, size unknown: no frame at all (chromosomes of any shape, seeded by the frameless greedy assembly): for very large pictures of several scenes"`
	RandomInit bool    `json:"random_init,omitempty" help:"ga: start from random chromosomes only (as the paper), not from greedy solutions"`
	Seed       uint64  `json:"seed,string,omitempty" applies:"all" help:"random seed: the same seed gives the same result, unless a wall-clock -timeout ends the work first"`
}

// GACount is a count of the genetic algorithm (generations, elite): 0
// its default, -1 none, as ga.Solver reads it. As text (a flag) it is the
// count itself, 0 meaning none, as the command line has always read it;
// as JSON a number in the options' encoding.
type GACount int

// MarshalText writes the count as a flag gives it ("" for the default).
func (c GACount) MarshalText() ([]byte, error) { return gaText(int(c), strconv.Itoa), nil }

// UnmarshalText reads a count as a flag gives it: 0 is none.
func (c *GACount) UnmarshalText(b []byte) error {
	return gaRead(b, c, func(s string) (GACount, error) {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%q: want a count, 0 or more", b)
		}
		return GACount(n), nil
	})
}

// MarshalJSON and UnmarshalJSON keep the options' encoding in JSON.
func (c GACount) MarshalJSON() ([]byte, error) { return json.Marshal(int(c)) }

func (c *GACount) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, (*int)(c)) }

// Flag returns the count as the flag reads it (none: 0), with def for
// the default.
func (c GACount) Flag(def int) int { return gaFlag(int(c), def) }

// GARate is the genetic algorithm's mutation rate: 0 its default, -1
// never; as text (a flag) the rate itself, 0 meaning never.
type GARate float64

// MarshalText writes the rate as a flag gives it ("" for the default).
func (r GARate) MarshalText() ([]byte, error) {
	return gaText(float64(r), func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }), nil
}

// UnmarshalText reads a rate as a flag gives it: 0 is never.
func (r *GARate) UnmarshalText(b []byte) error {
	return gaRead(b, r, func(s string) (GARate, error) {
		x, err := strconv.ParseFloat(s, 64)
		if err == nil && (math.IsNaN(x) || math.IsInf(x, 0)) {
			return 0, fmt.Errorf("%q is not a finite number", b)
		}
		if err != nil || x < 0 || x > 1 {
			return 0, fmt.Errorf("%q: want a probability, 0 to 1", b)
		}
		return GARate(x), nil
	})
}

// MarshalJSON and UnmarshalJSON keep the options' encoding in JSON.
func (r GARate) MarshalJSON() ([]byte, error) { return json.Marshal(float64(r)) }

func (r *GARate) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, (*float64)(r)) }

// Flag returns the rate as the flag reads it (never: 0), def for the
// default.
func (r GARate) Flag(def float64) float64 { return gaFlag(float64(r), def) }

// gaText, gaRead and gaFlag are the encoding GACount and GARate share: 0
// the default, -1 none; as text the value itself, 0 meaning none and ""
// the default. gaText writes v with format.
func gaText[T int | float64](v T, format func(T) string) []byte {
	switch {
	case v == 0:
		return nil
	case v < 0:
		return []byte("0")
	}
	return []byte(format(v))
}

// gaRead reads b with parse, which refuses what is not a valid value,
// into *dst (left as it is on an error).
func gaRead[T ~int | ~float64](b []byte, dst *T, parse func(string) (T, error)) error {
	var v T
	if len(b) > 0 {
		var err error
		if v, err = parse(string(b)); err != nil {
			return err
		}
		if v == 0 {
			v = -1
		}
	}
	*dst = v
	return nil
}

// gaFlag returns v as its flag reads it (none: 0), def for the default.
func gaFlag[T int | float64](v, def T) T {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// Check reports options out of range, naming the flags.
func (o JigsawOptions) Check() error {
	if o.K < 0 || o.K == 1 {
		return fmt.Errorf("-k %d: at least 2", o.K)
	}
	if _, err := o.Metric.MarshalText(); err != nil {
		return fmt.Errorf("-metric: %w", err)
	}
	d := o.Defaults()
	if o.Pop < 0 || o.Pop == 1 || o.Gens < -1 || o.Elite < -1 || d.Elite.Flag(0) >= d.Pop || o.Mutation < -1 || o.Mutation > 1 ||
		o.Mutation < 0 && o.Mutation != -1 {
		return fmt.Errorf("-pop %d -gens %d -elite %d -mutation %g: want pop >= 2, gens >= 0, 0 <= elite < pop, 0 <= mutation <= 1",
			d.Pop, d.Gens.Flag(0), d.Elite.Flag(0), d.Mutation.Flag(0))
	}
	return nil
}

// Defaults returns o with its defaults written out (K, Pop, Gens, Elite
// and Mutation), as reports show them.
func (o JigsawOptions) Defaults() JigsawOptions {
	if o.K == 0 {
		o.K = jigsaw.DefaultK
	}
	if o.Pop == 0 {
		o.Pop = ga.DefaultPopulation
	}
	if o.Gens == 0 {
		o.Gens = ga.DefaultGenerations
	}
	if o.Elite == 0 {
		o.Elite = ga.DefaultElite
	}
	if o.Mutation == 0 {
		o.Mutation = ga.DefaultMutation
	}
	return o
}

// JigsawHooks are what a square-piece solve needs at run time and never
// sends: they become the jigsaw.Problem's.
type JigsawHooks struct {
	// Progress, when set, sees every generation of a genetic search.
	Progress func(jigsaw.Generation)
	// Snapshot, when set, receives the best layout of every generation.
	Snapshot func(jigsaw.Generation, *jigsaw.Placement)
	// Workers bounds the goroutines of a genetic search (0: every core;
	// the answer does not depend on it).
	Workers int
	// OnResult, when set, receives the solver's result and error when it
	// returns (JigsawJob.Run), the placement included.
	OnResult func(jigsaw.Result, error)
	// Scrambled, when set, receives the puzzle and its truth before the
	// solve (JigsawJob.Run).
	Scrambled func(*jigsaw.Puzzle, *jigsaw.Truth)
}

// JigsawRun is what a jigsaw entry's New reads: the options and the hooks.
type JigsawRun struct {
	JigsawOptions
	Hooks JigsawHooks
}

// What the jigsaw entries play (Plays): a single picture, a mixed bag
// whose count of pictures the solver is told, a bag whose count it finds.
const (
	JigsawOne      = "picture"
	JigsawBag      = "bag"
	JigsawBagCount = "bag-count"
)

// mendGenerations divides the generations of the genetic searches that
// solve a mixed bag's mended pictures again (bag.Solver.Mend): they start
// from the bag's solved pieces, moved.
const mendGenerations = 4

// GA returns the genetic solver of o.
func (o JigsawOptions) GA() (ga.Solver, error) {
	if err := o.Check(); err != nil {
		return ga.Solver{}, err
	}
	d := o.Defaults()
	return ga.Solver{Pop: d.Pop, Gens: int(d.Gens), Elite: int(d.Elite), Mutation: float64(d.Mutation),
		RandomInit: o.RandomInit, FreeSeed: o.FreeSeed, NoFrame: o.NoFrame, CompatOptions: o.compat(), Seed: o.Seed}, nil
}

// compat returns the compatibility options.
func (o JigsawOptions) compat() jigsaw.CompatOptions {
	return jigsaw.CompatOptions{Metric: o.Metric, K: o.Defaults().K}
}

// none maps a count of 0 to ga.Solver's "none" (-1).
func none(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

var jigsawCompatReads = []string{"metric", "k"}

// Jigsaw is the table of square-piece jigsaw solvers (-algo of `tessera
// jigsaw solve` and `bench`).
var Jigsaw = Table[jigsaw.Solver, JigsawRun]{
	{ID: "greedy", Name: "greedy (Paikin & Tal)", Doc: "constructive, fast: best-buddy first placement; a mixed bag must be told its count",
		Plays: []string{JigsawOne, JigsawBag}, Reads: jigsawCompatReads,
		New: func(o JigsawRun) (jigsaw.Solver, error) {
			if err := o.Check(); err != nil {
				return nil, err
			}
			// A bag told its count goes through jigsaw/bag too, so that
			// every picture comes back as a rectangle; the greedy
			// assembly of the whole bag stays the pictures' own.
			g := greedy.Solver{CompatOptions: o.compat()}
			return bag.Solver{Solver: g, CompatOptions: g.CompatOptions, KeepSplit: true}, nil
		}},
	{ID: "ga", Name: "genetic algorithm (Sholomon et al.)", Doc: "slower, more accurate, seeded by greedy; counts and splits mixed bags (jigsaw/bag)",
		Plays: []string{JigsawOne, JigsawBag, JigsawBagCount},
		Reads: append(slices.Clip(jigsawCompatReads), "pop", "gens", "elite", "mutation", "free_seed", "no_frame", "random_init"),
		New: func(o JigsawRun) (jigsaw.Solver, error) {
			s, err := o.GA()
			if err != nil {
				return nil, err
			}
			s.Workers = o.Hooks.Workers
			m := s
			m.Gens = none(max(s.Gens, 0) / mendGenerations)
			return bag.Solver{Solver: s, Mend: m, CompatOptions: s.CompatOptions}, nil
		}},
}

// CountsPictures reports whether solver id finds how many pictures a
// mixed bag holds (jigsaw.Problem.Images 0): its entry plays JigsawBagCount.
func CountsPictures(id string) bool {
	e, err := Jigsaw.Lookup(id)
	return err == nil && slices.Contains(e.Plays, JigsawBagCount)
}

// Generational reports whether solver id searches in generations, which
// jigsaw.Problem.Progress and Snapshot see: its entry reads "gens".
func Generational(id string) bool {
	e, err := Jigsaw.Lookup(id)
	return err == nil && slices.Contains(e.Reads, "gens")
}

// GapOptions are the learned gap-puzzle solvers' options (Alphazzle,
// jigsaw/neural): plain data that travels as JSON, each field's json tag
// its name and flag; the zero value gives the defaults (the predicted
// reward, 100 simulations, c_puct 1.5, batches of 8, mean backup, the
// most visited action, one attempt, P's priors, V's values, PUCT, a fixed
// order, no hints, the shipped model). The enumerations are names, which
// Check validates ("" for each: the first).
type GapOptions struct {
	Reward   string  `json:"reward,omitempty" help:"reward of a complete reassembly: predicted (by V), or an oracle's: gt (1 when right), neighbours or patches (the share right)"`
	Sims     int     `json:"sims,omitempty" help:"simulations before each placement (0: 100)"`
	CPuct    float64 `json:"cpuct,omitempty" help:"c_puct, the weight of P's prior in PUCT (0: 1.5)"`
	Batch    int     `json:"batch,omitempty" help:"leaves evaluated per network call (0: 8)"`
	Backup   string  `json:"backup,omitempty" help:"backup of values, mean or max"`
	Choose   string  `json:"choose,omitempty" help:"action played, by visits or by value"`
	Attempts int     `json:"attempts,omitempty" help:"attempts with reshuffled patch orders, the best by -judge (0: 1)"`
	Judge    string  `json:"judge,omitempty" help:"what compares the attempts: v (V's value), pairs (the pair network's likelihood of the answer's adjacencies) or both"`
	Hybrid   float64 `json:"hybrid,omitempty" help:"weight of the classic compatibilities (MGC across the gap) multiplied into P's prior (0: purely learned)"`
	// Model is a model folder written by `tessera jigsaw neural train`
	// ("": the shipped one for the puzzle's patch and gap): a file, so a
	// job refuses it.
	Model  string  `json:"model,omitempty" help:"model folder written by 'jigsaw neural train' (default: the shipped one)"`
	Prior  string  `json:"prior,omitempty" help:"priors from P (p), or uniform"`
	Value  string  `json:"value,omitempty" help:"values from V (v), or the constant 1 at the end (const-end), during the game (const-game) or both (const)"`
	Select string  `json:"select,omitempty" help:"selection rule, puct, uct or spmcts (these two ignore the priors)"`
	C      float64 `json:"c,omitempty" help:"exploration constant of uct and spmcts (0: 0.7 and 0.5)"`
	Order  string  `json:"order,omitempty" help:"patches placed in a fixed order, or free (the search chooses the patch and its cell)"`
	Hints  string  `json:"hints,omitempty" help:"patches placed in their true cell before the game (needs the truth), or central (the central cell's patch)"`
	// Seed seeds the search; the front ends set it (the puzzle's seed, or
	// the bench's per puzzle).
	Seed uint64 `json:"seed,string,omitempty" flag:"-"`
}

// Check reports options out of range or unknown names, naming the flag.
func (o GapOptions) Check() error {
	_, err := o.Neural(0)
	return err
}

// enums parses a series of enumeration options, each with parseEnum, until
// one fails: err says which.
type enums struct{ err error }

// parseEnum sets *dst to parse(s), the value s of the flag -name, unless an
// earlier option failed; a name that parse does not know (but "", each
// enumeration's default) fails, the error listing want.
func parseEnum[T any](e *enums, dst *T, name, s string, parse func(string) (T, error), want string) {
	if e.err != nil {
		return
	}
	var err error
	if *dst, err = parse(s); err != nil && s != "" {
		e.err = fmt.Errorf("-%s %q: want %s", name, s, want)
	}
}

// Neural returns the search's options for puzzles of grid cells per side
// (0: not known yet, the hints' range unchecked), or an error naming the
// flag at fault.
func (o GapOptions) Neural(grid int) (neural.Options, error) {
	n := neural.Options{Sims: o.Sims, CPuct: o.CPuct, Batch: o.Batch, Attempts: o.Attempts, Seed: o.Seed, Hybrid: o.Hybrid, C: o.C}
	if o.Sims < 0 || o.Batch < 0 || o.Attempts < 0 || o.CPuct < 0 || o.Hybrid < 0 || o.C < 0 {
		return n, fmt.Errorf("-sims, -batch, -attempts and -cpuct must be positive, -hybrid, -c and -hints not negative")
	}
	var e enums
	parseEnum(&e, &n.Reward, "reward", o.Reward, neural.ParseReward, "predicted, gt, neighbours or patches")
	parseEnum(&e, &n.Prior, "prior", o.Prior, neural.ParsePrior, "p or uniform")
	parseEnum(&e, &n.Value, "value", o.Value, neural.ParseValueMode, "v, const-end, const-game or const")
	parseEnum(&e, &n.Selection, "select", o.Select, neural.ParseSelection, "puct, uct or spmcts")
	parseEnum(&e, &n.Judge, "judge", o.Judge, neural.ParseJudge, "v, pairs or both")
	parseEnum(&e, &n.Order, "order", o.Order, neural.ParseOrder, "fixed or free")
	if e.err != nil {
		return n, e.err
	}
	cells := grid * grid
	switch o.Hints {
	case "", "0":
	case "central":
		n.Hints, n.CentralHint = 1, true
	default:
		if _, err := fmt.Sscanf(o.Hints, "%d", &n.Hints); err != nil || n.Hints < 0 || grid > 0 && n.Hints >= cells || fmt.Sprint(n.Hints) != o.Hints {
			if grid == 0 {
				return n, fmt.Errorf("-hints %q: want a number of patches, or central", o.Hints)
			}
			return n, fmt.Errorf("-hints %q: want 0 to %d, or central", o.Hints, cells-1)
		}
	}
	if n.CentralHint && grid > 0 && grid%2 == 0 {
		return n, fmt.Errorf("-hints central: a %dx%d grid has no central cell", grid, grid)
	}
	if !n.Value.EndByV() && n.Reward != neural.Predicted {
		return n, fmt.Errorf("-value %s replaces the predicted reward: not with -reward %s", n.Value, n.Reward)
	}
	var ok bool
	if n.Backup, ok = map[string]neural.Backup{"": neural.MeanBackup, "mean": neural.MeanBackup, "max": neural.MaxBackup}[o.Backup]; !ok {
		return n, fmt.Errorf("-backup %q: want mean or max", o.Backup)
	}
	if n.Choice, ok = map[string]neural.Choice{"": neural.ByVisits, "visits": neural.ByVisits, "value": neural.ByValue}[o.Choose]; !ok {
		return n, fmt.Errorf("-choose %q: want visits or value", o.Choose)
	}
	return n, nil
}

// GapHooks are what a gap solve needs at run time and never sends.
type GapHooks struct {
	// Model is the loaded model (nil: LoadGapModel of the options' Model
	// for the puzzle's geometry, which a front end does first).
	Model *neural.Model
	// OnStep, when set, sees every placement of the tree search
	// (neural.Options.OnStep).
	OnStep func(neural.Step)
	// OnResult, when set, receives each puzzle, its answer and the
	// solver's error when the solver returns (GapsJob.Run).
	OnResult func(*neural.Puzzle, neural.Result, error)
}

// GapRun is what a gap entry's New reads: the options, the puzzles' grid
// (for the hints' range) and the hooks.
type GapRun struct {
	GapOptions
	Grid  int
	Hooks GapHooks
}

// LoadGapModel loads the model in folder dir ("": the one shipped for
// g's patch and gap sizes, neural.For) and checks that it fits puzzles of
// geometry g.
func LoadGapModel(dir string, g neural.Geometry) (*neural.Model, error) {
	var m *neural.Model
	var err error
	if dir == "" {
		m, _, err = neural.For(g)
	} else {
		m, _, err = neural.Load(dir)
	}
	if err != nil {
		return nil, err
	}
	return m, m.Fits(g)
}

// learned checks the options and builds a learned solver with build.
func (o GapRun) learned(build func(*neural.Model, neural.Options) neural.Solver) (neural.Solver, error) {
	if o.Hooks.Model == nil {
		return nil, fmt.Errorf("no model")
	}
	n, err := o.Neural(o.Grid)
	if err != nil {
		return nil, err
	}
	n.OnStep = o.Hooks.OnStep
	return build(o.Hooks.Model, n), nil
}

// The options the learned solvers read: every one the tree search's,
// the greedy ones and the Deepzzle baseline all but the tree's.
var (
	gapReads     = []string{"reward", "batch", "attempts", "judge", "hybrid", "model", "prior", "value", "order", "hints"}
	gapTreeReads = append(slices.Clip(gapReads), "sims", "cpuct", "backup", "choose", "select", "c")
)

// Gaps is the table of solvers of jigsaws with gaps between the pieces
// (`tessera jigsaw solve -algo mcts`, `jigsaw neural bench -algo`).
var Gaps = Table[neural.Solver, GapRun]{
	{ID: "mcts", Name: "Alphazzle MCTS", Doc: "gap puzzles: Monte-Carlo tree search guided by the learned P and V networks", Reads: gapTreeReads,
		New: func(o GapRun) (neural.Solver, error) {
			return o.learned(func(m *neural.Model, n neural.Options) neural.Solver { return neural.MCTS{Model: m, Options: n} })
		}},
	{ID: "greedy-p", Name: "greedy on P", Doc: "gap puzzles: every patch in the cell the policy network P prefers", Reads: gapReads,
		New: func(o GapRun) (neural.Solver, error) {
			return o.learned(func(m *neural.Model, n neural.Options) neural.Solver { return neural.GreedyP{Model: m, Options: n} })
		}},
	{ID: "greedy-v", Name: "greedy on V", Doc: "gap puzzles: every patch in the cell whose reassembly the value network V rates best", Reads: gapReads,
		New: func(o GapRun) (neural.Solver, error) {
			return o.learned(func(m *neural.Model, n neural.Options) neural.Solver { return neural.GreedyV{Model: m, Options: n} })
		}},
	{ID: "deepzzle", Name: "Deepzzle-style shortest path", Doc: "gap puzzles: the pair network's scores and a shortest path over raster placements (a baseline after Deepzzle; no P, V or MCTS)",
		Reads: gapReads,
		New: func(o GapRun) (neural.Solver, error) {
			return o.learned(func(m *neural.Model, n neural.Options) neural.Solver { return neural.Deepzzle{Model: m, Options: n} })
		}},
}

func init() {
	register("jigsaw", Jigsaw.Menu)
	register("jigsaw-gaps", Gaps.Menu)
}

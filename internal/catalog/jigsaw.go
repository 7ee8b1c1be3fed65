package catalog

import (
	"cmp"
	"fmt"

	"tessera/jigsaw"
	"tessera/jigsaw/bag"
	"tessera/jigsaw/ga"
	"tessera/jigsaw/greedy"
	"tessera/jigsaw/neural"
)

// JigsawOptions are the settings of the square-piece jigsaw solvers, the
// values of the flags of `tessera jigsaw solve` and `bench`; each solver
// reads those it knows. The zero value is not the command line's
// defaults: see DefaultJigsawOptions.
type JigsawOptions struct {
	// Metric and K configure the compatibilities (K: candidates kept per
	// edge, at least 2).
	Metric jigsaw.Metric
	K      int
	// Pop, Gens, Elite and Mutation are the genetic algorithm's settings
	// as the flags give them: Gens 0 is the first generation alone, Elite
	// 0 none, Mutation 0 never.
	Pop, Gens, Elite int
	Mutation         float64
	// RandomInit, FreeSeed and NoFrame: see ga.Solver.
	RandomInit, FreeSeed, NoFrame bool
	Seed                          uint64
}

// DefaultJigsawOptions are the command line's defaults: MGC, the paper's
// genetic algorithm.
func DefaultJigsawOptions() JigsawOptions {
	return JigsawOptions{Metric: jigsaw.MGC, K: jigsaw.DefaultK, Pop: ga.DefaultPopulation, Gens: ga.DefaultGenerations,
		Elite: ga.DefaultElite, Mutation: ga.DefaultMutation}
}

// compat returns the compatibility options, or an error for a bad K.
func (o JigsawOptions) compat() (jigsaw.CompatOptions, error) {
	if o.K < 2 {
		return jigsaw.CompatOptions{}, fmt.Errorf("-k %d: at least 2", o.K)
	}
	return jigsaw.CompatOptions{Metric: o.Metric, K: o.K}, nil
}

// mendGenerations divides the generations of the genetic searches that
// solve a mixed bag's mended pictures again (bag.Solver.Mend): they start
// from the bag's solved pieces, moved.
const mendGenerations = 4

// GA returns the genetic solver of o (its flags' zeros mean none, where
// ga.Solver's mean the defaults).
func (o JigsawOptions) GA() (ga.Solver, error) {
	co, err := o.compat()
	if err != nil {
		return ga.Solver{}, err
	}
	if o.Pop < 2 || o.Gens < 0 || o.Elite < 0 || o.Elite >= o.Pop || o.Mutation < 0 || o.Mutation > 1 {
		return ga.Solver{}, fmt.Errorf("-pop %d -gens %d -elite %d -mutation %g: want pop >= 2, gens >= 0, 0 <= elite < pop, 0 <= mutation <= 1",
			o.Pop, o.Gens, o.Elite, o.Mutation)
	}
	return ga.Solver{Pop: o.Pop, Gens: none(o.Gens), Elite: none(o.Elite), Mutation: cmp.Or(o.Mutation, -1),
		RandomInit: o.RandomInit, FreeSeed: o.FreeSeed, NoFrame: o.NoFrame, CompatOptions: co, Seed: o.Seed}, nil
}

// none maps a count of 0 to ga.Solver's "none" (-1).
func none(n int) int { return cmp.Or(n, -1) }

// Jigsaw is the table of square-piece jigsaw solvers (-algo of `tessera
// jigsaw solve` and `bench`).
var Jigsaw = Table[jigsaw.Solver, JigsawOptions]{
	{ID: "greedy", Name: "greedy (Paikin & Tal)", Doc: "constructive, fast: best-buddy first placement; a mixed bag must be told its count",
		New: func(o JigsawOptions) (jigsaw.Solver, error) {
			co, err := o.compat()
			return greedy.Solver{CompatOptions: co}, err
		}},
	{ID: "ga", Name: "genetic algorithm (Sholomon et al.)", Doc: "slower, more accurate, seeded by greedy; counts and splits mixed bags (jigsaw/bag)",
		New: func(o JigsawOptions) (jigsaw.Solver, error) {
			s, err := o.GA()
			if err != nil {
				return nil, err
			}
			m := s
			m.Gens = none(max(s.Gens, 0) / mendGenerations)
			return bag.Solver{Solver: s, Mend: m, CompatOptions: s.CompatOptions}, nil
		}},
}

// NewJigsaw builds the solver algo of the table with o and the metric
// named metric (mgc or ssd), and returns it with o, its Metric set. The
// errors name the flag at fault.
func NewJigsaw(algo, metric string, o JigsawOptions) (jigsaw.Solver, JigsawOptions, error) {
	m, err := jigsaw.ParseMetric(metric)
	if err != nil {
		return nil, o, err
	}
	o.Metric = m
	s, err := Jigsaw.New(algo, o)
	if err != nil {
		return nil, o, fmt.Errorf("-algo %s: %w", algo, err)
	}
	return s, o, nil
}

// CountsPictures reports whether s finds how many pictures a mixed bag
// holds (jigsaw.Problem.Images 0); the others read 0 as one picture.
func CountsPictures(s jigsaw.Solver) bool {
	_, ok := s.(bag.Solver)
	return ok
}

// Generational reports whether s searches in generations, which
// jigsaw.Problem.Progress and Snapshot see (the genetic solver, alone or
// solving a bag's pictures).
func Generational(s jigsaw.Solver) bool {
	switch v := s.(type) {
	case ga.Solver:
		return true
	case bag.Solver:
		return Generational(v.Solver)
	}
	return false
}

// GapOptions are the settings of the learned gap-puzzle solvers (Alphazzle,
// jigsaw/neural), the values of the flags of `tessera jigsaw solve -algo
// mcts` and `jigsaw neural bench`.
type GapOptions struct {
	Model                 *neural.Model
	Reward                neural.Reward
	Backup                neural.Backup
	Choice                neural.Choice
	Sims, Batch, Attempts int
	CPuct, Hybrid         float64
	Seed                  uint64
	// The search's parts (Alphazzle's ablations): priors, values,
	// selection rule (with C, its exploration constant for UCT and
	// SP-MCTS), the unordered game and the hints.
	Prior       neural.Prior
	Value       neural.ValueMode
	Selection   neural.Selection
	C           float64
	Order       neural.Order
	Hints       int
	CentralHint bool
}

// GapSettings are the settings of the learned gap-puzzle solvers as a
// command line (or a form, or a job spec) gives them: the puzzles'
// geometry, the enumerations by name and the model by folder.
type GapSettings struct {
	Grid, Patch, Gap int
	// Reward is "predicted", "gt", "neighbours" or "patches", Backup
	// "mean" or "max", Choose "visits" or "value"; Prior "p" or
	// "uniform", Value "v", "const-end", "const-game" or "const", Select
	// "puct", "uct" or "spmcts", Order "fixed" or "free" ("" for each:
	// the first); Hints a number or "central".
	Reward, Backup, Choose             string
	Prior, Value, Select, Order, Hints string
	Sims, Batch, Attempts              int
	CPuct, Hybrid, C                   float64
	// Model is a model folder written by `tessera jigsaw neural train`
	// ("": the shipped model); see LoadGapModel.
	Model string
}

// Options checks s and returns the puzzles' geometry and the solvers'
// options with seed, but no model (LoadGapModel loads s.Model). The
// errors name the flag at fault.
func (s GapSettings) Options(seed uint64) (neural.Geometry, GapOptions, error) {
	g := neural.Geometry{Grid: s.Grid, Patch: s.Patch, Gap: s.Gap}
	o := GapOptions{Sims: s.Sims, CPuct: s.CPuct, Batch: s.Batch, Attempts: s.Attempts, Seed: seed, Hybrid: s.Hybrid, C: s.C}
	if err := g.Validate(); err != nil {
		return g, o, err
	}
	var err error
	if o.Reward, err = neural.ParseReward(s.Reward); err != nil {
		return g, o, fmt.Errorf("-reward %q: want predicted, gt, neighbours or patches", s.Reward)
	}
	if o.Prior, err = neural.ParsePrior(s.Prior); err != nil {
		return g, o, fmt.Errorf("-prior %q: want p or uniform", s.Prior)
	}
	if o.Value, err = neural.ParseValueMode(s.Value); err != nil {
		return g, o, fmt.Errorf("-value %q: want v, const-end, const-game or const", s.Value)
	}
	if o.Selection, err = neural.ParseSelection(s.Select); err != nil {
		return g, o, fmt.Errorf("-select %q: want puct, uct or spmcts", s.Select)
	}
	if o.Order, err = neural.ParseOrder(s.Order); err != nil {
		return g, o, fmt.Errorf("-order %q: want fixed or free", s.Order)
	}
	switch s.Hints {
	case "", "0":
	case "central":
		o.Hints, o.CentralHint = 1, true
	default:
		if _, err := fmt.Sscanf(s.Hints, "%d", &o.Hints); err != nil || o.Hints < 0 || o.Hints >= g.Cells() || fmt.Sprint(o.Hints) != s.Hints {
			return g, o, fmt.Errorf("-hints %q: want 0 to %d, or central", s.Hints, g.Cells()-1)
		}
	}
	if o.CentralHint && g.Grid%2 == 0 {
		return g, o, fmt.Errorf("-hints central: a %dx%d grid has no central cell", g.Grid, g.Grid)
	}
	if !o.Value.EndByV() && o.Reward != neural.Predicted {
		return g, o, fmt.Errorf("-value %s replaces the predicted reward: not with -reward %s", o.Value, o.Reward)
	}
	var ok bool
	if o.Backup, ok = map[string]neural.Backup{"mean": neural.MeanBackup, "max": neural.MaxBackup}[s.Backup]; !ok {
		return g, o, fmt.Errorf("-backup %q: want mean or max", s.Backup)
	}
	if o.Choice, ok = map[string]neural.Choice{"visits": neural.ByVisits, "value": neural.ByValue}[s.Choose]; !ok {
		return g, o, fmt.Errorf("-choose %q: want visits or value", s.Choose)
	}
	return g, o, o.check()
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

// check checks the search's settings.
func (o GapOptions) check() error {
	if o.Sims < 1 || o.Batch < 1 || o.Attempts < 1 || o.CPuct <= 0 || o.Hybrid < 0 || o.C < 0 || o.Hints < 0 {
		return fmt.Errorf("-sims, -batch, -attempts and -cpuct must be positive, -hybrid, -c and -hints not negative")
	}
	return nil
}

// learned checks the options and builds a learned solver with build.
func (o GapOptions) learned(build func(*neural.Model, neural.Options) neural.Solver) (neural.Solver, error) {
	if o.Model == nil {
		return nil, fmt.Errorf("no model")
	}
	if err := o.check(); err != nil {
		return nil, err
	}
	return build(o.Model, neural.Options{Reward: o.Reward, Sims: o.Sims, CPuct: o.CPuct,
		Batch: o.Batch, Backup: o.Backup, Choice: o.Choice, Attempts: o.Attempts, Seed: o.Seed, Hybrid: o.Hybrid,
		Prior: o.Prior, Value: o.Value, Selection: o.Selection, C: o.C, Order: o.Order, Hints: o.Hints, CentralHint: o.CentralHint}), nil
}

// Gaps is the table of solvers of jigsaws with gaps between the pieces
// (`tessera jigsaw solve -algo mcts`, `jigsaw neural bench -algo`).
var Gaps = Table[neural.Solver, GapOptions]{
	{ID: "mcts", Name: "Alphazzle MCTS", Doc: "gap puzzles: Monte-Carlo tree search guided by the learned P and V networks",
		New: func(o GapOptions) (neural.Solver, error) {
			return o.learned(func(m *neural.Model, n neural.Options) neural.Solver { return neural.MCTS{Model: m, Options: n} })
		}},
	{ID: "greedy-p", Name: "greedy on P", Doc: "gap puzzles: every patch in the cell the policy network P prefers",
		New: func(o GapOptions) (neural.Solver, error) {
			return o.learned(func(m *neural.Model, n neural.Options) neural.Solver { return neural.GreedyP{Model: m, Options: n} })
		}},
	{ID: "greedy-v", Name: "greedy on V", Doc: "gap puzzles: every patch in the cell whose reassembly the value network V rates best",
		New: func(o GapOptions) (neural.Solver, error) {
			return o.learned(func(m *neural.Model, n neural.Options) neural.Solver { return neural.GreedyV{Model: m, Options: n} })
		}},
	{ID: "deepzzle", Name: "Deepzzle-style shortest path", Doc: "gap puzzles: the pair network's scores and a shortest path over raster placements (a baseline after Deepzzle; no P, V or MCTS)",
		New: func(o GapOptions) (neural.Solver, error) {
			return o.learned(func(m *neural.Model, n neural.Options) neural.Solver { return neural.Deepzzle{Model: m, Options: n} })
		}},
}

func init() {
	register("jigsaw", Jigsaw.Menu)
	register("jigsaw-gaps", Gaps.Menu)
}

package ga

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"tessera/jigsaw"
	"tessera/jigsaw/greedy"
)

// Defaults of Options.
const (
	DefaultPopulation  = 300
	DefaultGenerations = 100
	DefaultElite       = 4
	DefaultMutation    = 0.001
)

// Options configure Solve. The zero value is the paper's settings
// (population 300, 100 generations, the best 4 kept, mutation 0.001) on a
// single image of unknown size, with the population seeded by the greedy
// solver, on every core.
type Options struct {
	Population  int // chromosomes per generation (0: DefaultPopulation)
	Generations int // generations after the first (0: DefaultGenerations)
	Elite       int // best chromosomes copied unchanged (0: DefaultElite; negative: none)
	// Mutation is the probability of skipping a relation common to both
	// parents (0: DefaultMutation; negative: never).
	Mutation float64
	// Rows and Cols give the size of the picture in pieces when it is
	// known (both or neither; a single image): every chromosome then fits
	// that frame (either way round with rotations).
	Rows, Cols int
	// Images is the number of pictures in the bag: 0 finds it from the
	// best chromosome, k > 0 splits it into exactly k output images.
	Images int
	// RandomInit starts from random chromosomes only, as the paper does;
	// by default the first generation holds the greedy solver's solution
	// and variants of it.
	RandomInit bool
	// NoneCost is the fitness cost of an edge that touches nothing
	// (0: twice the mean dissimilarity of all pairings, the paper's choice).
	NoneCost float64
	// Compat holds precomputed compatibilities of the puzzle; when nil,
	// Solve computes them with CompatOptions.
	Compat        *jigsaw.Compat
	CompatOptions jigsaw.CompatOptions
	// Workers is the number of goroutines building and rating children
	// (0: GOMAXPROCS). The result does not depend on it.
	Workers int
	// Seed selects every random choice: the same seed gives the same
	// result.
	Seed uint64
	// Progress, when set, is called after every generation.
	Progress func(Generation)
	// Snapshot, when set, is called with the best chromosome of every
	// generation as a placement (one image); it must not keep p.
	Snapshot func(gen int, p *jigsaw.Placement)
}

// Generation reports the state of the search after one generation.
type Generation struct {
	Index int // 0 is the initial population
	// Best is the fitness of the best chromosome (lower is better).
	Best    float64
	Elapsed time.Duration
}

// Result is a solution with its statistics.
type Result struct {
	Placement *jigsaw.Placement
	// Fitness is the best chromosome's fitness, History the best fitness
	// of every generation, starting with the initial population.
	Fitness float64
	History []float64
	// SeedFitness is the fitness of the greedy solution in the initial
	// population (0 with RandomInit).
	SeedFitness float64
	// BestBuddies is the fraction of the solution's adjacencies whose two
	// edges are best buddies: a quality estimate without ground truth.
	BestBuddies float64
	// Frame is the rows x cols estimated for a single picture of unknown
	// size, or zero.
	Frame [2]int
	// CompatTime is the time spent computing compatibilities, SeedTime in
	// the greedy solver, Elapsed the whole solve.
	CompatTime, SeedTime, Elapsed time.Duration
}

// seed runs the greedy solver: in the known frame, or for a single picture
// of unknown size in every frame of exactly n cells with an aspect ratio
// up to 4 (see chooseFrame), or else without a frame. For several
// pictures, the greedy solver assembles one (which the genetic search then
// improves and splits).
func seed(ctx context.Context, pz *jigsaw.Puzzle, c *jigsaw.Compat, opts Options) (rows, cols int, p *jigsaw.Placement, err error) {
	solve := func(rows, cols int) (*jigsaw.Placement, error) {
		g, err := greedy.Solve(ctx, pz, greedy.Options{Compat: c, Rows: rows, Cols: cols})
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, nil
		}
		return g.Placement, nil
	}
	if opts.Rows > 0 || opts.Images != 1 {
		p, err = solve(opts.Rows, opts.Cols)
		return opts.Rows, opts.Cols, p, err
	}
	best := math.Inf(-1)
	fs := frames(c.N(), c.Rotated())
	for _, f := range fs {
		q, err := solve(f[0], f[1])
		if err != nil {
			return 0, 0, nil, err
		}
		if q == nil {
			continue
		}
		if v := frameScore(c.Fit(q), f, fs[0]); v > best {
			best, rows, cols, p = v, f[0], f[1], q
		}
	}
	if p == nil {
		p, err = solve(0, 0)
		return 0, 0, p, err
	}
	return rows, cols, p, nil
}

// frameScore rates the greedy assembly of a picture in frame f: the share
// of its adjacencies that are best buddies, less half the relative excess
// of f's perimeter over the most nearly square frame's (sq), so that a
// longer frame must be clearly better. On the standard sets this picks the
// true size of all but the hardest pictures.
func frameScore(fit jigsaw.Fit, f, sq [2]int) float64 {
	excess := float64(f[0]+f[1])/float64(sq[0]+sq[1]) - 1
	return fit.BestBuddyShare() - excess/2
}

// frames returns the rows x cols rectangles of exactly n cells whose
// aspect ratio is at most 4, most nearly square first; both ways round
// when pieces cannot turn (Type 1), one way otherwise.
func frames(n int, rotated bool) [][2]int {
	var out [][2]int
	for r := 1; r*r <= n; r++ {
		if n%r != 0 || n/r > 4*r {
			continue
		}
		out = append(out, [2]int{r, n / r})
		if !rotated && r != n/r {
			out = append(out, [2]int{n / r, r})
		}
	}
	slices.Reverse(out)
	return out
}

// ErrTooLarge is returned for puzzles beyond the solver's coordinates.
var ErrTooLarge = errors.New("ga: too many pieces")

// Solve reassembles a puzzle with the genetic algorithm of Sholomon, David
// and Netanyahu ("A generalized genetic algorithm-based solver for very
// large jigsaw puzzles of complex types", AAAI 2014). A chromosome says,
// for every edge of every piece, which edge it touches (or none); it is
// always a valid layout of all pieces in one plane, of any shape. Fitness
// is the sum of the dissimilarities of touching edges plus NoneCost per
// free edge, minimised. Each generation keeps the Elite best and fills the
// rest with children of parents drawn by roulette wheel (weight
// 1/fitness); see the builder for the crossover. Children are built and
// rated on Workers goroutines, each child from its own generator seeded
// by (Seed, generation, index), so the result does not depend on the
// schedule.
//
// Time O(n^2 p) for the compatibilities (see jigsaw.NewCompat) plus about
// O(Population * Generations * n) for the search; memory O(Population * n)
// plus the compatibilities. If ctx ends, Solve returns the best solution
// so far with ctx.Err().
func Solve(ctx context.Context, pz *jigsaw.Puzzle, opts Options) (Result, error) {
	start := time.Now()
	var res Result
	n := len(pz.Pieces)
	if n == 0 {
		return res, jigsaw.ErrNoPieces
	}
	if n > maxPieces {
		return res, fmt.Errorf("%w: %d (at most %d)", ErrTooLarge, n, maxPieces)
	}
	if (opts.Rows > 0) != (opts.Cols > 0) || opts.Rows < 0 || opts.Cols < 0 {
		return res, fmt.Errorf("ga: give both Rows and Cols, or neither (got %dx%d)", opts.Rows, opts.Cols)
	}
	if opts.Rows > 0 && opts.Rows*opts.Cols < n {
		return res, fmt.Errorf("ga: %d pieces do not fit %dx%d", n, opts.Rows, opts.Cols)
	}
	if opts.Rows > 0 && opts.Images > 1 {
		return res, errors.New("ga: a known size applies to a single image")
	}
	if opts.Images < 0 || opts.Images > n {
		return res, fmt.Errorf("ga: %d images of %d pieces", opts.Images, n)
	}
	popSize := cmp.Or(opts.Population, DefaultPopulation)
	gens := cmp.Or(opts.Generations, DefaultGenerations)
	elite := cmp.Or(opts.Elite, DefaultElite)
	mutation := cmp.Or(opts.Mutation, DefaultMutation)
	if popSize < 2 || gens < 0 {
		return res, fmt.Errorf("ga: population %d, %d generations", popSize, gens)
	}
	elite = max(0, min(elite, popSize-1))
	mutation = max(mutation, 0)
	c := opts.Compat
	if c == nil {
		var err error
		if c, err = jigsaw.NewCompat(ctx, pz, opts.CompatOptions); err != nil {
			return res, err
		}
		res.CompatTime = c.Elapsed()
	}
	if c.N() != n || c.Rotated() != pz.Rotated {
		return res, errors.New("ga: Options.Compat was computed for another puzzle")
	}
	none := opts.NoneCost
	if none <= 0 {
		none = 2 * c.Mean()
	}
	rows, cols := opts.Rows, opts.Cols
	var seedPlacement *jigsaw.Placement
	if !opts.RandomInit || (opts.Images == 1 && rows == 0) {
		t0 := time.Now()
		var err error
		rows, cols, seedPlacement, err = seed(ctx, pz, c, opts)
		res.SeedTime = time.Since(t0)
		if err != nil {
			return res, err
		}
		if opts.Rows == 0 && rows > 0 {
			res.Frame = [2]int{rows, cols}
		}
	}
	pr := newProblem(c, rows, cols, none)
	workers := cmp.Or(opts.Workers, runtime.GOMAXPROCS(0))
	workers = max(1, min(workers, popSize))
	builders := make([]*builder, workers)
	for w := range builders {
		builders[w] = newBuilder(pr)
	}
	s := &search{pr: pr, builders: builders, seed: opts.Seed}
	s.pop, s.next = make([]*chromosome, popSize), make([]*chromosome, popSize)
	for i := range s.pop {
		s.pop[i], s.next[i] = pr.newChromosome(), pr.newChromosome()
	}

	// the first generation
	var seeds []*chromosome
	if seedPlacement != nil && !opts.RandomInit {
		ch, err := pr.fromPlacement(seedPlacement)
		if err != nil {
			return res, fmt.Errorf("ga: the greedy seed: %w", err)
		}
		seeds = append(seeds, ch)
		res.SeedFitness = ch.fit
	}
	s.initial(seeds)
	s.sort()
	report := func(gen int) {
		best := s.pop[0]
		res.History = append(res.History, best.fit)
		if opts.Progress != nil {
			opts.Progress(Generation{Index: gen, Best: best.fit, Elapsed: time.Since(start)})
		}
		if opts.Snapshot != nil {
			opts.Snapshot(gen, pr.placement(best, nil, 1))
		}
	}
	report(0)
	var err error
	for gen := 1; gen <= gens; gen++ {
		if err = ctx.Err(); err != nil {
			break
		}
		s.generation(gen, elite, mutation)
		s.sort()
		report(gen)
	}
	best := s.pop[0]
	res.Fitness = best.fit
	image, images := pr.split(best, opts.Images)
	res.Placement = pr.placement(best, image, images)
	res.BestBuddies = c.Fit(res.Placement).BestBuddyShare()
	res.Elapsed = time.Since(start)
	return res, err
}

// search is the population and the workers.
type search struct {
	pr        *problem
	builders  []*builder
	seed      uint64
	pop, next []*chromosome
	weights   []float64 // cumulative roulette weights
}

// parallel calls f(builder, k) for k in [from, to) on every worker.
func (s *search) parallel(from, to int, f func(x *builder, k int)) {
	var next atomic.Int64
	next.Store(int64(from))
	var wg sync.WaitGroup
	for _, x := range s.builders {
		wg.Go(func() {
			for {
				k := int(next.Add(1) - 1)
				if k >= to {
					return
				}
				f(x, k)
			}
		})
	}
	wg.Wait()
}

// childSeed derives the generator of child k of generation gen.
func (s *search) childSeed(gen, k int) (uint64, uint64) {
	return s.seed, uint64(gen)<<32 ^ uint64(k) ^ 0x6761206a69677361
}

// initial fills the first generation: the seeds given, variants of the
// first seed (its relations, each dropped with a probability up to 0.3,
// completed by the crossover's later phases), constructions from the
// best-buddy relations alone, and random chromosomes; only random ones
// without seeds.
func (s *search) initial(seeds []*chromosome) {
	for i, ch := range seeds {
		s.pop[i].copyFrom(ch)
	}
	s.parallel(len(seeds), len(s.pop), func(x *builder, k int) {
		x.reset(s.childSeed(0, k))
		ch := s.pop[k]
		switch {
		case len(seeds) == 0 || k%4 == 3:
			x.random(ch)
		case k%4 == 2:
			x.crossover(s.pr.bbChrom, s.pr.bbChrom, 0.5*x.rng.Float64(), ch)
		default:
			x.crossover(seeds[0], seeds[0], 0.02+0.28*x.rng.Float64(), ch)
		}
		s.pr.rate(ch)
	})
}

// sort orders the population by fitness, best first (ties by position, so
// the order does not depend on the schedule).
func (s *search) sort() {
	slices.SortStableFunc(s.pop, func(a, b *chromosome) int { return cmp.Compare(a.fit, b.fit) })
}

// generation replaces the population by the next one: the elite copied,
// the others children of roulette-wheel parents.
func (s *search) generation(gen, elite int, mutation float64) {
	if cap(s.weights) < len(s.pop) {
		s.weights = make([]float64, len(s.pop))
	}
	w := s.weights[:len(s.pop)]
	// Roulette wheel on the fitness above the floor that the population's
	// fewest free edges set: with the paper's cost of a free edge, the
	// costs of the free edges dwarf the dissimilarities, and weights
	// 1/fitness would not tell apart layouts of one shape.
	fewest := s.pop[0].free
	for _, ch := range s.pop {
		fewest = min(fewest, ch.free)
	}
	floor := float64(fewest) * s.pr.none
	eps := 1e-9*(s.pop[0].fit-floor) + 1e-300
	best, total := s.pop[0].fit-floor+eps, 0.0
	for i, ch := range s.pop {
		total += best / (ch.fit - floor + eps)
		w[i] = total
	}
	for i := range elite {
		s.next[i].copyFrom(s.pop[i])
	}
	s.parallel(elite, len(s.pop), func(x *builder, k int) {
		x.reset(s.childSeed(gen, k))
		i := s.spin(x, total)
		j := s.spin(x, total)
		for try := 0; j == i && try < 3; try++ {
			j = s.spin(x, total)
		}
		ch := s.next[k]
		x.crossover(s.pop[i], s.pop[j], mutation, ch)
		s.pr.rate(ch)
	})
	s.pop, s.next = s.next, s.pop
}

// spin draws a parent from the roulette wheel.
func (s *search) spin(x *builder, total float64) int {
	v := x.rng.Float64() * total
	i, _ := slices.BinarySearch(s.weights[:len(s.pop)], v)
	return min(i, len(s.pop)-1)
}

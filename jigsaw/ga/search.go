package ga

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"sync/atomic"
)

// config is the validated Solver settings that the search needs.
type config struct {
	population, generations, elite, workers int
	stall                                   int // generations without a better best before stopping, 0 never
	mutation                                float64
	seed                                    uint64
	randomInit                              bool
	noneCost                                float64
}

// stallGain is the share by which the best fitness must fall within
// cfg.stall generations for the search to go on.
const stallGain = 1e-4

// search is a population and its workers.
type search struct {
	pr        *problem
	cfg       config
	builders  []*builder
	pop, next []*chromosome
	weights   []float64 // cumulative roulette weights
}

func newSearch(pr *problem, cfg config) *search {
	s := &search{pr: pr, cfg: cfg, builders: make([]*builder, max(1, min(cfg.workers, cfg.population)))}
	for w := range s.builders {
		s.builders[w] = newBuilder(pr)
	}
	s.pop, s.next = make([]*chromosome, cfg.population), make([]*chromosome, cfg.population)
	for i := range s.pop {
		s.pop[i], s.next[i] = pr.newChromosome(), pr.newChromosome()
	}
	s.weights = make([]float64, cfg.population)
	return s
}

// evolve runs the genetic algorithm from the given seeds and returns the
// best chromosome, calling report with the best of every generation
// (generation 0 is the first population). It stops early after cfg.stall
// generations in a row that together lowered the best fitness by less
// than stallGain (0: never). Loose seeds (layouts outside the
// frame) only parent variants. If ctx ends it returns the best so far and
// ctx.Err().
func (s *search) evolve(ctx context.Context, seeds, loose []*chromosome, report func(gen int, best *chromosome)) (*chromosome, error) {
	s.initial(seeds, loose)
	s.sort()
	report(0, s.pop[0])
	best, still := s.pop[0].fit, 0
	for gen := 1; gen <= s.cfg.generations; gen++ {
		if err := ctx.Err(); err != nil {
			return s.pop[0], err
		}
		s.generation(gen)
		s.sort()
		report(gen, s.pop[0])
		if s.pop[0].fit < best*(1-stallGain) {
			best, still = s.pop[0].fit, 0
		} else if still++; s.cfg.stall > 0 && still >= s.cfg.stall {
			break
		}
	}
	return s.pop[0], nil
}

// parallel calls f(builder, k) for k in [from, to) on every worker; what
// f does with k must depend on k alone.
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
	return s.cfg.seed, uint64(gen)<<32 ^ uint64(k) ^ 0x6761206a69677361
}

// initial fills the first generation: the seeds given, then in turn
// variants of the seeds and of the loose seeds (their relations, each
// dropped with a probability from 0.02 to 0.3, completed by the
// crossover's later phases), constructions from the best-buddy relations
// alone (each dropped with a probability up to 0.5) and random
// chromosomes; only random ones without seeds or with RandomInit.
func (s *search) initial(seeds, loose []*chromosome) {
	if s.cfg.randomInit {
		seeds, loose = nil, nil
	}
	parents := append(slices.Clip(seeds), loose...)
	for i, ch := range seeds[:min(len(seeds), len(s.pop))] {
		s.pop[i].copyFrom(ch)
	}
	s.parallel(len(seeds), len(s.pop), func(x *builder, k int) {
		x.reset(s.childSeed(0, k))
		ch := s.pop[k]
		switch {
		case len(parents) == 0 || k%4 == 3:
			x.random(ch)
		case k%4 == 2:
			x.crossover(s.pr.bbChrom, s.pr.bbChrom, 0.5*x.rng.Float64(), ch)
		default:
			p := parents[k%len(parents)]
			x.crossover(p, p, 0.02+0.28*x.rng.Float64(), ch)
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
// the others children of parents drawn by roulette wheel.
func (s *search) generation(gen int) {
	// The wheel's weights are 1/fitness, with fitness counted above the
	// floor that the population's fewest free edges set: with the paper's
	// cost of a free edge, those costs dwarf the dissimilarities, and
	// plain 1/fitness would hardly tell apart layouts of one shape.
	fewest := s.pop[0].free
	for _, ch := range s.pop {
		fewest = min(fewest, ch.free)
	}
	floor := float64(fewest) * s.pr.none
	eps := 1e-9*(s.pop[0].fit-floor) + 1e-300
	best, total := s.pop[0].fit-floor+eps, 0.0
	for i, ch := range s.pop {
		total += best / (ch.fit - floor + eps)
		s.weights[i] = total
	}
	elite := s.cfg.elite
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
		x.crossover(s.pop[i], s.pop[j], s.cfg.mutation, ch)
		s.pr.rate(ch)
	})
	s.pop, s.next = s.next, s.pop
}

// spin draws a parent from the roulette wheel.
func (s *search) spin(x *builder, total float64) int {
	i, _ := slices.BinarySearch(s.weights, x.rng.Float64()*total)
	return min(i, len(s.pop)-1)
}

package ga

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"

	"tessera/jigsaw"
	"tessera/jigsaw/greedy"
)

// Defaults of Solver.
const (
	DefaultPopulation  = 300
	DefaultGenerations = 100
	DefaultElite       = 4
	DefaultMutation    = 0.001
	// DefaultStall is Solver.Stall for puzzles of StallPieces pieces and
	// more.
	DefaultStall = 10
	StallPieces  = 8000
)

// Solver is the genetic algorithm's settings. The zero value is the
// paper's settings (population 300, 100 generations, the best 4 kept,
// mutation 0.001), with the first generation seeded by the greedy solver,
// on every core.
type Solver struct {
	Pop  int // chromosomes per generation (0: DefaultPopulation)
	Gens int // generations after the first (0: DefaultGenerations; negative: none)
	// Elite is the number of best chromosomes copied unchanged (0:
	// DefaultElite; negative: none).
	Elite int
	// Mutation is the probability of skipping a relation common to both
	// parents (0: DefaultMutation; negative: never).
	Mutation float64
	// RandomInit starts from random chromosomes only, as the paper does;
	// by default the first generation holds the greedy solver's solution
	// and variants of it.
	RandomInit bool
	// FreeSeed, for a picture of unknown size, also runs the greedy
	// solver without a frame and, when its assembly has clearly more
	// best-buddy adjacencies (looseMargin) than the one in the estimated
	// frame, adds variants of it, completed inside the frame, to the
	// first generation. It helps where the frame breaks the greedy
	// assembly up, as on large pictures of several scenes.
	FreeSeed bool
	// NoFrame, for a picture of unknown size, gives it no frame:
	// chromosomes may take any shape, and the greedy solver's assembly
	// without a frame seeds them. For very large pictures of several
	// scenes, where the estimated frame breaks the assembly up.
	NoFrame bool
	// NoneCost is the fitness cost of an edge that touches nothing
	// (0: twice the mean dissimilarity of all pairings, the paper's choice).
	NoneCost float64
	// Stall stops the search after this many generations in a row that
	// together lowered the best fitness by less than 0.01% (0: DefaultStall for puzzles of at least
	// StallPieces pieces, never for smaller ones; negative: never). On
	// large pictures the greedy seed is often nearly right, and the
	// generations after it change nothing.
	Stall int
	// CompatOptions configure the compatibilities, when the Problem does
	// not bring them.
	CompatOptions jigsaw.CompatOptions
	// Pred is the weight of the prediction term
	// (jigsaw.CompatOptions.Pred) that the search adds to MGC (0:
	// jigsaw.PredWeight; negative: none, Gallagher's MGC alone). The frame
	// of a picture of unknown size is found with MGC alone, as before
	// (the term moves the best buddies that rate the frames: it picked
	// 18 x 30 instead of 20 x 27 for McGill's 3.jpg); the greedy seed in
	// it and the search use a second table with the term. Only when
	// the solver computes the compatibilities itself, with MGC and
	// CompatOptions.Pred unset (which applies it throughout), for
	// pictures under 5,000 pieces (a second table would take minutes) of
	// Type 2 (rotations unknown; in Type 1 it cost the MIT set a perfect
	// picture) without holes (Problem.Holes). On the MIT set (seed 1) it makes
	// 7.png perfect (15 of 20), whose tree's branches MGC alone lays out
	// wrong; with seeds 2 and 3 two of its pieces stay swapped.
	Pred float64
	// Workers is the number of goroutines building and rating children
	// (0: GOMAXPROCS). The result does not depend on it.
	Workers int
	// holeEdges: the search of a picture with holes (solveHoles) charges
	// each free edge its best candidate's dissimilarity (problem.holeEdges).
	holeEdges bool
	// Seed selects every random choice: the same seed gives the same
	// result.
	Seed uint64
}

// looseMargin is how much larger a share of best-buddy adjacencies the
// free greedy assembly of a picture of unknown size must have than the
// assembly in the estimated frame for variants of it to join the first
// generation (Solver.FreeSeed).
const looseMargin = 0.05

// compatProgressPieces: from this many pieces on, Problem.Progress also
// follows the computation of the compatibilities (a minute and more).
var compatProgressPieces = 2000

// ErrTooLarge is returned for puzzles beyond the solver's coordinates.
var ErrTooLarge = errors.New("ga: too many pieces")

// Solve reassembles the problem's puzzle, a single picture, with the
// genetic algorithm of Sholomon, David and Netanyahu ("A generalized
// genetic algorithm-based solver for very large jigsaw puzzles of complex
// types", AAAI 2014). A chromosome says, for every edge of every piece,
// which edge it touches (or none); it is always a valid layout of all
// pieces in one plane, of any shape. Fitness is the sum of the
// dissimilarities of touching edges plus NoneCost per free edge,
// minimised. Each generation keeps the Elite best and fills the rest with
// children of parents drawn by roulette wheel; see the builder for the
// crossover. Children are built and rated on Workers goroutines, each
// child from its own generator seeded by (Seed, generation, index), so the
// result does not depend on the schedule. With elitism, the answer is
// never less fit than the best seed.
//
// A picture of unknown size is first assembled by the greedy solver in
// every frame of n cells (aspect ratio up to 4), and the frame whose
// assembly has the most best-buddy adjacencies (longer frames must win
// clearly) is kept: every chromosome then fits it. A part of a mixed bag
// (Problem.Part) is solved in that frame only when its unframed greedy
// assembly nearly fills one (partCover), else without a frame.
// Problem.Seed joins the seeds of the first generation. A mixed bag
// (Problem.Images > 1) is refused: bag.Solver splits one into pictures
// and solves each with this solver.
//
// Time O(n^2 p) for the compatibilities (see jigsaw.NewCompat) plus about
// O(Pop * Gens * n) for the search; memory O(Pop * n) plus the
// compatibilities. If ctx ends, Solve returns the best solution so far
// with ctx.Err().
func (s Solver) Solve(ctx context.Context, p *jigsaw.Problem) (jigsaw.Result, error) {
	start := time.Now()
	var res jigsaw.Result
	pz := p.Puzzle
	if pz == nil || len(pz.Pieces) == 0 {
		return res, jigsaw.ErrNoPieces
	}
	n := len(pz.Pieces)
	if n > maxPieces {
		return res, fmt.Errorf("%w: %d (at most %d)", ErrTooLarge, n, maxPieces)
	}
	if (p.Rows > 0) != (p.Cols > 0) || p.Rows < 0 || p.Cols < 0 {
		return res, fmt.Errorf("ga: give both Rows and Cols, or neither (got %dx%d)", p.Rows, p.Cols)
	}
	if p.Rows > 0 && p.Rows*p.Cols < n && !p.Holes {
		return res, fmt.Errorf("ga: %d pieces do not fit %dx%d", n, p.Rows, p.Cols)
	}
	if p.Images < 0 || p.Images > n {
		return res, fmt.Errorf("ga: %d images of %d pieces", p.Images, n)
	}
	if p.Images > 1 {
		return res, fmt.Errorf("ga: a mixed bag of %d pictures: solve it with bag.Solver", p.Images)
	}
	cfg := config{population: cmp.Or(s.Pop, DefaultPopulation), generations: cmp.Or(s.Gens, DefaultGenerations),
		elite: cmp.Or(s.Elite, DefaultElite), mutation: cmp.Or(s.Mutation, DefaultMutation),
		workers: cmp.Or(s.Workers, runtime.GOMAXPROCS(0)), seed: s.Seed, randomInit: s.RandomInit, noneCost: s.NoneCost}
	switch {
	case s.Stall > 0:
		cfg.stall = s.Stall
	case s.Stall == 0 && n >= StallPieces:
		cfg.stall = DefaultStall
	}
	if cfg.population < 2 {
		return res, fmt.Errorf("ga: population %d, at least 2", cfg.population)
	}
	cfg.generations = max(cfg.generations, 0)
	cfg.elite = max(0, min(cfg.elite, cfg.population-1))
	cfg.mutation = max(cfg.mutation, 0)
	opts := s.CompatOptions
	if p.Progress != nil && opts.Progress == nil && n >= compatProgressPieces {
		opts.Progress = func(cp jigsaw.CompatProgress) {
			p.Progress(jigsaw.Generation{Stage: jigsaw.StageCompat, Done: cp.Done, Total: cp.Total, Elapsed: time.Since(start)})
		}
	}
	c, err := p.CompatOf(ctx, opts, &res, "ga")
	if err != nil {
		return res, err
	}
	if p.Holes {
		res, err := s.solveHoles(ctx, p, c, res, start)
		res.Finish(c, start)
		return res, err
	}
	search := c
	if w := s.pred(p, opts, n); w > 0 {
		po := opts
		po.Pred = w
		if search, err = jigsaw.NewCompat(ctx, pz, po); err != nil {
			return res, err
		}
		res.CompatTime += search.Elapsed()
	}
	sv := &solver{cfg: cfg, s: s, p: p, start: start}
	rows, cols := p.Rows, p.Cols
	switch {
	case p.Part && rows == 0:
		rows, cols = framePart, framePart
	case s.NoFrame && rows == 0:
		rows, cols = frameNone, frameNone
	}
	err = sv.single(ctx, pz, c, search, rows, cols, &res, p.Seed)
	res.Finish(c, start)
	return res, err
}

// predPieces: from this many pieces on, the search keeps MGC alone
// (Solver.Pred): its compatibilities would be computed twice, which takes
// minutes there.
var predPieces = 5000

// pred returns the weight of the prediction term that the search's
// compatibilities add to MGC, or 0 when the search uses those of the
// frame and the seeds (see Solver.Pred).
func (s Solver) pred(p *jigsaw.Problem, opts jigsaw.CompatOptions, n int) float64 {
	if s.Pred < 0 || p.Compat != nil || p.Holes || !p.Puzzle.Rotated || opts.Metric != jigsaw.MGC || opts.Pred != 0 || n >= predPieces {
		return 0
	}
	return cmp.Or(s.Pred, jigsaw.PredWeight)
}

// solver holds what the stages of one Solve share.
type solver struct {
	cfg   config
	s     Solver
	p     *jigsaw.Problem
	start time.Time
}

// evolve runs one search and records its history in res. Seeds that do
// not fit pr's frame only parent variants of the first generation.
func (sv *solver) evolve(ctx context.Context, pr *problem, seeds []*chromosome, res *jigsaw.Result) (*chromosome, error) {
	s := newSearch(pr, sv.cfg)
	var fit, loose []*chromosome
	for _, ch := range seeds {
		if pr.fits(ch) {
			fit = append(fit, ch)
		} else {
			loose = append(loose, ch)
		}
	}
	return s.evolve(ctx, fit, loose, func(gen int, best *chromosome) {
		res.History = append(res.History, best.fit)
		g := jigsaw.Generation{Index: gen, Best: best.fit, Elapsed: time.Since(sv.start)}
		if sv.p.Progress != nil {
			sv.p.Progress(g)
		}
		if sv.p.Snapshot != nil {
			sv.p.Snapshot(g, pr.placement(best, nil, 1))
		}
	})
}

// noneCost returns the cost of a free edge for compatibilities c.
func (sv *solver) noneCost(c *jigsaw.Compat) float64 {
	if sv.cfg.noneCost > 0 {
		return sv.cfg.noneCost
	}
	return 2 * c.Mean()
}

// partCover: a part of a mixed bag (Problem.Part) is solved in a frame
// when a frame of its size covers this share of its unframed greedy
// assembly.
const partCover = 0.9

// Frames single can be told instead of a size: frameNone (no frame) and
// framePart (a part of a mixed bag).
const (
	frameNone = -1
	framePart = -2
)

// single solves one picture, in the frame rows x cols or, without one
// (rows 0), in a frame it estimates, or with rows frameNone in none (the
// chromosomes may take any shape). With rows framePart it solves a part of
// a mixed bag, which may hold pieces of other pictures or miss some of its
// own, so that no rectangle of its size fits: in the estimated frame only
// when the unframed greedy assembly nearly fills one (partCover), else in
// none. Seeds: the greedy solver's assembly and extra (a placement of all
// pieces, or nil).
func (sv *solver) single(ctx context.Context, pz *jigsaw.Puzzle, c, search *jigsaw.Compat, rows, cols int, res *jigsaw.Result, extra *jigsaw.Placement) error {
	t0 := time.Now()
	known := rows > 0
	var seed *jigsaw.Placement
	var err error
	if rows < 0 {
		// No frame, or a part of a bag: unframed unless its greedy
		// assembly is nearly a rectangle of its size.
		part := rows == framePart
		rows, cols = 0, 0
		if part || !sv.cfg.randomInit {
			var g jigsaw.Result
			g, err = greedy.Solver{NoFrame: true}.Solve(ctx, &jigsaw.Problem{Puzzle: pz, Compat: c})
			seed = g.Placement
		}
		if err == nil && part {
			if _, _, cov := coverFrame(seed, len(pz.Pieces), c.Rotated()); float64(cov) >= partCover*float64(len(pz.Pieces)) {
				rows, cols, seed, err = frameAndSeed(ctx, pz, c, 0, 0, sv.cfg.randomInit)
			} else if sv.cfg.randomInit {
				seed = nil
			}
		}
	} else {
		rows, cols, seed, err = frameAndSeed(ctx, pz, c, rows, cols, sv.cfg.randomInit)
		if err == nil && search != c && seed != nil && rows > 0 {
			// the greedy assembly in that frame by the search's measure
			var g jigsaw.Result
			if g, err = (greedy.Solver{}).Solve(ctx, &jigsaw.Problem{Puzzle: pz, Compat: search, Rows: rows, Cols: cols}); err == nil {
				seed = g.Placement
			} else if ctx.Err() == nil {
				err = nil // no room: keep the first assembly
			}
		}
	}
	res.SeedTime += time.Since(t0)
	if err != nil {
		// The budget ended before the first generation: the greedy
		// assembly so far (perhaps partial) is the best there is.
		if seed != nil && len(seed.Pieces) > 0 {
			res.Placement = seed
			if !known && rows > 0 {
				res.Frame = [2]int{rows, cols}
			}
		}
		return err
	}
	if !known {
		res.Frame = [2]int{rows, cols}
	}
	pr := newProblem(search, rows, cols, sv.noneCost(search))
	if sv.s.holeEdges {
		pr.holeEdges()
	}
	var free *jigsaw.Placement
	if sv.s.FreeSeed && !known && seed != nil && rows > 0 {
		t0 = time.Now()
		g, err := greedy.Solver{NoFrame: true}.Solve(ctx, &jigsaw.Problem{Puzzle: pz, Compat: c})
		res.SeedTime += time.Since(t0)
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		if err == nil && c.Fit(g.Placement).BestBuddyShare() > c.Fit(seed).BestBuddyShare()+looseMargin {
			free = g.Placement
		}
	}
	var seeds []*chromosome
	for _, p := range []*jigsaw.Placement{seed, extra, free} {
		if p == nil {
			continue
		}
		ch, err := pr.fromPlacement(p)
		if err != nil {
			return fmt.Errorf("ga: a seed: %w", err)
		}
		if p == seed {
			res.SeedFitness = ch.fit
		}
		seeds = append(seeds, ch)
	}
	best, err := sv.evolve(ctx, pr, seeds, res)
	res.Fitness = best.fit
	res.Placement = pr.placement(best, nil, 1)
	return err
}

// coverFrame returns the frame of exactly n cells (aspect ratio up to 4,
// either way round) whose best position covers the most pieces of image 0
// of p, and how many it covers.
func coverFrame(p *jigsaw.Placement, n int, rotated bool) (rows, cols, covered int) {
	cells, _, b := p.Grid(0)
	bh, bw := b.Dy(), b.Dx()
	ps := make([]int, (bh+1)*(bw+1)) // prefix sums of occupied cells
	for r := range bh {
		for c := range bw {
			v := 0
			if cells[r*bw+c] >= 0 {
				v = 1
			}
			ps[(r+1)*(bw+1)+c+1] = v + ps[r*(bw+1)+c+1] + ps[(r+1)*(bw+1)+c] - ps[r*(bw+1)+c]
		}
	}
	for _, f := range frames(n, false) {
		h, w := f[0], f[1]
		for r := 0; r <= max(0, bh-h); r++ {
			for c := 0; c <= max(0, bw-w); c++ {
				r1, c1 := min(r+h, bh), min(c+w, bw)
				if v := ps[r1*(bw+1)+c1] - ps[r*(bw+1)+c1] - ps[r1*(bw+1)+c] + ps[r*(bw+1)+c]; v > covered {
					rows, cols, covered = h, w, v
				}
			}
		}
	}
	if rotated && rows > cols {
		rows, cols = cols, rows
	}
	return rows, cols, covered
}

// frameAndSeed runs the greedy solver in the known frame, or for a picture
// of unknown size in every frame of exactly n cells with an aspect ratio
// up to 4, returning the frame whose assembly rates best (frameScore) and
// that assembly; without such a frame, unframed. With randomInit, only the
// frame is wanted.
func frameAndSeed(ctx context.Context, pz *jigsaw.Puzzle, c *jigsaw.Compat, rows, cols int, randomInit bool) (int, int, *jigsaw.Placement, error) {
	solve := func(rows, cols int) (*jigsaw.Placement, error) {
		g, err := greedy.Solver{}.Solve(ctx, &jigsaw.Problem{Puzzle: pz, Compat: c, Rows: rows, Cols: cols})
		if err != nil && ctx.Err() != nil {
			return g.Placement, ctx.Err() // the pieces placed so far
		}
		if err != nil {
			return nil, nil // no room in the frame
		}
		return g.Placement, nil
	}
	if rows > 0 {
		if randomInit {
			return rows, cols, nil, nil
		}
		p, err := solve(rows, cols)
		return rows, cols, p, err
	}
	fs := frames(c.N(), c.Rotated())
	var best *jigsaw.Placement
	bestScore := math.Inf(-1)
	for _, f := range fs {
		p, err := solve(f[0], f[1])
		if err != nil {
			// The budget ended: the best complete assembly so far, else
			// this partial one.
			if best != nil {
				return rows, cols, best, err
			}
			return f[0], f[1], p, err
		}
		if p == nil {
			continue
		}
		if v := frameScore(c.Fit(p), f, fs[0]); v > bestScore {
			bestScore, rows, cols, best = v, f[0], f[1], p
		}
	}
	if best == nil && !randomInit {
		p, err := solve(0, 0)
		return 0, 0, p, err
	}
	return rows, cols, best, nil
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

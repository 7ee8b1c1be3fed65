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

// Defaults of Options.
const (
	DefaultPopulation  = 300
	DefaultGenerations = 100
	DefaultElite       = 4
	DefaultMutation    = 0.001
)

// Options configure Solve. The zero value is the paper's settings
// (population 300, 100 generations, the best 4 kept, mutation 0.001) on a
// bag of pictures whose number and sizes Solve finds, with the first
// generation seeded by the greedy solver, on every core; Images: 1 says
// the puzzle is one picture, which is faster and surer.
type Options struct {
	Population  int // chromosomes per generation (0: DefaultPopulation)
	Generations int // generations after the first (0: DefaultGenerations; negative: none)
	Elite       int // best chromosomes copied unchanged (0: DefaultElite; negative: none)
	// Mutation is the probability of skipping a relation common to both
	// parents (0: DefaultMutation; negative: never).
	Mutation float64
	// Rows and Cols give the size of the picture in pieces when it is
	// known (both or neither; a single picture): every chromosome then
	// fits that frame (either way round with rotations).
	Rows, Cols int
	// Images is the number of pictures in the bag: 1 (or 0 with Rows and
	// Cols) for a single picture, k > 1 for exactly k output images, 0 to
	// find how many.
	Images int
	// RandomInit starts from random chromosomes only, as the paper does;
	// by default the first generation holds the greedy solver's solution
	// and variants of it.
	RandomInit bool
	// FreeSeed, for a single picture of unknown size, also runs the
	// greedy solver without a frame and, when its assembly has clearly
	// more best-buddy adjacencies (looseMargin) than the one in the
	// estimated frame, adds variants of it, completed inside the frame, to
	// the first generation. It helps where the frame breaks the greedy
	// assembly up, as on large pictures of several scenes.
	FreeSeed bool
	// NoFrame, for a single picture of unknown size, gives it no frame:
	// chromosomes may take any shape, and the greedy solver's assembly
	// without a frame seeds them. For very large pictures of several
	// scenes, where the estimated frame breaks the assembly up.
	NoFrame bool
	// NoneCost is the fitness cost of an edge that touches nothing
	// (0: twice the mean dissimilarity of all pairings, the paper's choice).
	NoneCost float64
	// Compat holds precomputed compatibilities of the puzzle; when nil,
	// Solve computes them with CompatOptions (also used for the pictures
	// of a bag).
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
	// Snapshot, when set, is called after every generation with its best
	// chromosome as a placement of one image (of the stage's pieces); it
	// must not keep p.
	Snapshot func(g Generation, p *jigsaw.Placement)
}

// Generation reports the state of the search after one generation.
type Generation struct {
	// Picture is 0 for a single picture and k while picture k (of
	// Pictures) of a mixed bag is solved.
	Picture, Pictures int
	Index             int // 0 is the first generation
	// Best is the fitness of the best chromosome (lower is better).
	Best    float64
	Elapsed time.Duration
}

// Result is a solution with its statistics.
type Result struct {
	Placement *jigsaw.Placement
	// Fitness is the fitness of the best chromosome (for a mixed bag, the
	// sum over its pictures), History the best fitness of every
	// generation, starting with the first, and SeedFitness that of the
	// greedy solution (0 if none); a bag's histories are in Pictures.
	Fitness, SeedFitness float64
	History              []float64
	// Frame is the rows x cols estimated for a single picture of unknown
	// size, or zero.
	Frame [2]int
	// Pictures describes, for a mixed bag, each output image and its own
	// search.
	Pictures []Picture
	// BestBuddies is the fraction of the solution's adjacencies whose two
	// edges are best buddies: a quality estimate without ground truth.
	BestBuddies float64
	// CompatTime is the time spent computing compatibilities, SeedTime in
	// the greedy solver, Elapsed the whole solve.
	CompatTime, SeedTime, Elapsed time.Duration
}

// Picture is one output image of a mixed bag, refined as a puzzle of its
// own.
type Picture struct {
	Pieces  int
	Frame   [2]int
	Fitness float64
	History []float64
}

// looseMargin is how much larger a share of best-buddy adjacencies the
// free greedy assembly of a picture of unknown size must have than the
// assembly in the estimated frame for variants of it to join the first
// generation (Options.FreeSeed).
const looseMargin = 0.05

// ErrTooLarge is returned for puzzles beyond the solver's coordinates.
var ErrTooLarge = errors.New("ga: too many pieces")

// Solve reassembles a puzzle with the genetic algorithm of Sholomon, David
// and Netanyahu ("A generalized genetic algorithm-based solver for very
// large jigsaw puzzles of complex types", AAAI 2014). A chromosome says,
// for every edge of every piece, which edge it touches (or none); it is
// always a valid layout of all pieces in one plane, of any shape. Fitness
// is the sum of the dissimilarities of touching edges plus NoneCost per
// free edge, minimised. Each generation keeps the Elite best and fills the
// rest with children of parents drawn by roulette wheel; see the builder
// for the crossover. Children are built and rated on Workers goroutines,
// each child from its own generator seeded by (Seed, generation, index),
// so the result does not depend on the schedule. With elitism, the answer
// is never less fit than the best seed.
//
// A single picture of unknown size is first assembled by the greedy
// solver in every frame of n cells (aspect ratio up to 4), and the frame
// whose assembly has the most best-buddy adjacencies (longer frames must
// win clearly) is kept: every chromosome then fits it. In a mixed bag the
// pictures are counted (see countPictures; Options.Images skips this),
// the greedy solver told the count splits the pieces among them, and each
// part is solved as a single picture of unknown size, without a frame
// unless its greedy assembly nearly fills one, its greedy assembly among
// the seeds; pictures that come out other than rectangles are then mended
// where the bag's fitness falls without losing best buddies (repair).
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
	cfg := config{population: cmp.Or(opts.Population, DefaultPopulation), generations: cmp.Or(opts.Generations, DefaultGenerations),
		elite: cmp.Or(opts.Elite, DefaultElite), mutation: cmp.Or(opts.Mutation, DefaultMutation),
		workers: cmp.Or(opts.Workers, runtime.GOMAXPROCS(0)), seed: opts.Seed, randomInit: opts.RandomInit, noneCost: opts.NoneCost}
	if cfg.population < 2 {
		return res, fmt.Errorf("ga: population %d, at least 2", cfg.population)
	}
	cfg.generations = max(cfg.generations, 0)
	cfg.elite = max(0, min(cfg.elite, cfg.population-1))
	cfg.mutation = max(cfg.mutation, 0)
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
	sv := &solver{cfg: cfg, opts: opts, start: start}
	var err error
	if opts.Images == 1 || opts.Rows > 0 {
		rows, cols := opts.Rows, opts.Cols
		if opts.NoFrame && rows == 0 {
			rows, cols = frameNone, frameNone
		}
		err = sv.single(ctx, pz, c, rows, cols, &res, nil, Generation{})
	} else {
		err = sv.bag(ctx, pz, c, &res)
	}
	res.CompatTime += sv.compatTime
	if res.Placement != nil {
		res.BestBuddies = c.Fit(res.Placement).BestBuddyShare()
	}
	res.Elapsed = time.Since(start)
	return res, err
}

// solver holds what the stages of one Solve share.
type solver struct {
	cfg        config
	opts       Options
	start      time.Time
	compatTime time.Duration
}

// evolve runs one search and records its history in res. Seeds that do
// not fit pr's frame only parent variants of the first generation.
func (sv *solver) evolve(ctx context.Context, pr *problem, seeds []*chromosome, stage Generation, pieces []int32, res *Result) (*chromosome, error) {
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
		g := stage
		g.Index, g.Best, g.Elapsed = gen, best.fit, time.Since(sv.start)
		if sv.opts.Progress != nil {
			sv.opts.Progress(g)
		}
		if sv.opts.Snapshot != nil {
			p := pr.placement(best, nil, 1)
			if pieces != nil {
				for i := range p.Pieces {
					p.Pieces[i].Piece = int(pieces[p.Pieces[i].Piece])
				}
			}
			sv.opts.Snapshot(g, p)
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

// partCover: a part of a mixed bag is solved in a frame when a frame of
// its size covers this share of its unframed greedy assembly.
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
// pieces, or nil). pieces maps the puzzle's pieces to the caller's (none:
// the same).
func (sv *solver) single(ctx context.Context, pz *jigsaw.Puzzle, c *jigsaw.Compat, rows, cols int, res *Result, extra *jigsaw.Placement, stage Generation, pieces ...int32) error {
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
			var g greedy.Result
			g, err = greedy.Solve(ctx, pz, greedy.Options{Compat: c, NoFrame: true})
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
	}
	res.SeedTime += time.Since(t0)
	if err != nil {
		return err
	}
	if !known {
		res.Frame = [2]int{rows, cols}
	}
	pr := newProblem(c, rows, cols, sv.noneCost(c))
	var free *jigsaw.Placement
	if sv.opts.FreeSeed && !known && seed != nil && rows > 0 {
		t0 = time.Now()
		g, err := greedy.Solve(ctx, pz, greedy.Options{Compat: c, NoFrame: true})
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
	best, err := sv.evolve(ctx, pr, seeds, stage, pieces, res)
	res.Fitness = best.fit
	res.Placement = pr.placement(best, nil, 1)
	return err
}

// bag solves a mixed bag: it counts the pictures (unless Options.Images
// says how many, see countPictures), splits the pieces among them with
// the greedy solver told that count, moves cores of best-buddy loops
// whole into one part (relabelCores), and solves each part as a single
// picture of unknown size, unframed unless nearly rectangular (see
// single), its greedy assembly among the seeds, and last mends the
// pictures that are not rectangles (repair). A bag found to hold one
// picture is solved as one.
func (sv *solver) bag(ctx context.Context, pz *jigsaw.Puzzle, c *jigsaw.Compat, res *Result) error {
	t0 := time.Now()
	k, split := sv.opts.Images, (*jigsaw.Placement)(nil)
	if k == 0 {
		var err error
		k, split, err = countPictures(ctx, pz, c)
		if err != nil {
			res.SeedTime += time.Since(t0)
			return err
		}
	}
	if k == 1 {
		res.SeedTime += time.Since(t0)
		return sv.single(ctx, pz, c, 0, 0, res, nil, Generation{})
	}
	if split == nil {
		g, err := greedy.Solve(ctx, pz, greedy.Options{Compat: c, Images: k})
		if err != nil {
			res.SeedTime += time.Since(t0)
			return err
		}
		split = g.Placement
	}
	res.SeedTime += time.Since(t0)
	res.Placement = split // until the pictures are solved
	labels := make([]int, len(pz.Pieces))
	for _, q := range split.Pieces {
		labels[q.Piece] = q.Image
	}
	changed := relabelCores(c, labels, k)
	pieces := make([][]int32, k)
	for p, l := range labels {
		pieces[l] = append(pieces[l], int32(p))
	}
	out := &jigsaw.Placement{Images: k}
	res.Fitness = 0
	for img, ps := range pieces {
		slices.Sort(ps)
		_, part := subPuzzle(pz, ps, split, img)
		if changed != nil && changed[img] {
			part = nil // the split's assembly lacks pieces moved in
		}
		pic, placed, err := sv.part(ctx, pz, ps, img, k, framePart, framePart, part, res)
		if placed == nil {
			return err // only when ctx ended: keep the greedy split
		}
		res.Fitness += pic.Fitness
		res.Pictures = append(res.Pictures, pic)
		out.Pieces = append(out.Pieces, placed...)
		if err != nil {
			return err
		}
	}
	out.Normalize()
	res.Placement = out
	return sv.repair(ctx, pz, c, res)
}

// part solves the pieces ps of a bag as output image img of k, in the
// frame rows x cols (or framePart, see single), with seed among the
// seeds (a placement of ps as numbered in the part, or nil). It returns
// the part's pieces placed as bag pieces, nil only when ctx ended.
func (sv *solver) part(ctx context.Context, pz *jigsaw.Puzzle, ps []int32, img, k, rows, cols int, seed *jigsaw.Placement, res *Result) (Picture, []jigsaw.Placed, error) {
	sub, _ := subPuzzle(pz, ps, &jigsaw.Placement{}, 0)
	t1 := time.Now()
	sc, err := jigsaw.NewCompat(ctx, sub, sv.opts.CompatOptions)
	sv.compatTime += time.Since(t1)
	if err != nil {
		return Picture{}, nil, err
	}
	var one Result
	err = sv.single(ctx, sub, sc, rows, cols, &one, seed, Generation{Picture: img + 1, Pictures: k}, ps...)
	res.SeedTime += one.SeedTime
	if one.Placement == nil {
		return Picture{}, nil, err
	}
	frame := one.Frame
	if rows > 0 {
		frame = [2]int{rows, cols}
	}
	placed := make([]jigsaw.Placed, 0, len(ps))
	for _, q := range one.Placement.Pieces {
		q.Piece, q.Image = int(ps[q.Piece]), img
		placed = append(placed, q)
	}
	return Picture{Pieces: len(ps), Frame: frame, Fitness: one.Fitness, History: one.History}, placed, err
}

// repair mends a solved bag in res whose pictures are not all rectangles
// (see rectPlans). Each of the cheapest plans is carried out by fill;
// those whose filled layout is fitter than the bag (bagFitness: the
// pictures measured alike) and keeps all but a share repairLoss of its
// best-buddy adjacencies are tried, fittest first, up to repairTries: mend
// solves each changed picture again in its rectangle, seeded with the
// filled layout, and the first result that is fitter than the bag and
// keeps at least as many best-buddy adjacencies replaces it.
func (sv *solver) repair(ctx context.Context, pz *jigsaw.Puzzle, c *jigsaw.Compat, res *Result) error {
	out := res.Placement
	k := out.Images
	count := make([]int, k)
	for _, q := range out.Pieces {
		count[q.Image]++
	}
	rectangles := true
	for img := range k {
		b := out.Bounds(img)
		rectangles = rectangles && b.Dx()*b.Dy() == count[img]
	}
	if rectangles {
		return nil
	}
	none, n := sv.noneCost(c), len(out.Pieces)
	fo := c.Fit(out)
	current := bagFitness(fo, n, none)
	type candidate struct {
		pl      plan
		filled  *jigsaw.Placement
		fitness float64
	}
	var cands []candidate
	for _, w := range bbWeights {
		for _, p := range rectPlans(c, out, w) {
			if slices.ContainsFunc(cands, func(q candidate) bool { return slices.Equal(p.frame, q.pl.frame) }) {
				continue
			}
			f := fill(c, out, p)
			ff := c.Fit(f)
			if v := bagFitness(ff, n, none); v < current && float64(ff.BestBuddies) >= (1-repairLoss)*float64(fo.BestBuddies) {
				cands = append(cands, candidate{p, f, v})
			}
		}
	}
	slices.SortStableFunc(cands, func(a, b candidate) int { return cmp.Compare(a.fitness, b.fitness) })
	saved := sv.cfg
	defer func() { sv.cfg = saved }()
	sv.cfg.generations /= repairGenerations
	for _, cd := range cands[:min(len(cands), repairTries)] {
		if ok, err := sv.mend(ctx, pz, c, res, cd.pl, cd.filled, count, fo.BestBuddies, current, none); ok || err != nil {
			return err
		}
	}
	return nil
}

// mend solves again, in their rectangles of plan pl, the parts of the bag
// in res that the filled layout changes, and replaces the bag when the
// result is fitter than current and keeps at least bb best-buddy
// adjacencies (count: the pieces of each part).
func (sv *solver) mend(ctx context.Context, pz *jigsaw.Puzzle, c *jigsaw.Compat, res *Result, pl plan, filled *jigsaw.Placement, count []int, bb int, current, none float64) (bool, error) {
	out := res.Placement
	k := out.Images
	after := make([][]int32, k)
	for _, q := range filled.Pieces {
		after[q.Image] = append(after[q.Image], int32(q.Piece))
	}
	next := &jigsaw.Placement{Images: k}
	pics := slices.Clone(res.Pictures)
	fitness := res.Fitness
	for img := range k {
		ps := after[img]
		slices.Sort(ps)
		r, b := pl.frame[img], out.Bounds(img)
		if count[img] == r.area() && r == (rect{b.Min.Y, b.Min.X, b.Max.Y, b.Max.X}) {
			// already this rectangle, full: unchanged
			for _, q := range out.Pieces {
				if q.Image == img {
					next.Pieces = append(next.Pieces, q)
				}
			}
			continue
		}
		_, seed := subPuzzle(pz, ps, filled, img)
		pic, placed, err := sv.part(ctx, pz, ps, img, k, r.rows(), r.cols(), seed, res)
		if placed == nil || err != nil {
			return false, err // keep the bag as it was
		}
		fitness += pic.Fitness - pics[img].Fitness
		pics[img] = pic
		next.Pieces = append(next.Pieces, placed...)
	}
	next.Normalize()
	if fn := c.Fit(next); fn.BestBuddies < bb || bagFitness(fn, len(next.Pieces), none) >= current {
		return false, nil
	}
	res.Placement, res.Pictures, res.Fitness = next, pics, fitness
	return true, nil
}

// subPuzzle returns the puzzle of pieces ps and output image img of p as
// a placement of those of its pieces that are in ps.
func subPuzzle(pz *jigsaw.Puzzle, ps []int32, p *jigsaw.Placement, img int) (*jigsaw.Puzzle, *jigsaw.Placement) {
	sub := &jigsaw.Puzzle{PieceSize: pz.PieceSize, Rotated: pz.Rotated, Depth: pz.Depth, Pieces: make([]jigsaw.Piece, len(ps))}
	index := make(map[int]int, len(ps))
	for i, q := range ps {
		sub.Pieces[i] = pz.Pieces[q]
		index[int(q)] = i
	}
	part := &jigsaw.Placement{Images: 1}
	for _, q := range p.Pieces {
		if i, ok := index[q.Piece]; ok && q.Image == img {
			q.Piece, q.Image = i, 0
			part.Pieces = append(part.Pieces, q)
		}
	}
	return sub, part
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
		g, err := greedy.Solve(ctx, pz, greedy.Options{Compat: c, Rows: rows, Cols: cols})
		if err != nil {
			return nil, ctx.Err() // nil unless the context ended: no room in the frame
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
			return 0, 0, nil, err
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

package bag

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"tessera/jigsaw"
	"tessera/jigsaw/greedy"
)

// Solver solves mixed bags of pieces of several pictures with a
// single-picture solver. It is itself a jigsaw.Solver: a problem of one
// picture (Problem.Images 1, or a known size) goes to Solver unchanged.
// The zero value counts the pictures and solves each with the greedy
// solver.
type Solver struct {
	// Solver solves each picture (nil: greedy.Solver{}). It is given the
	// part's pieces with Problem.Part set, its compatibilities, and the
	// split's assembly of the part as Problem.Seed.
	Solver jigsaw.Solver
	// Mend solves the pictures that repair changes again, in their
	// rectangles, seeded with the pieces as moved (nil: Solver). Those
	// searches start near their answer, so a quicker setting suits: the
	// command line's ga gives it a quarter of the generations.
	Mend jigsaw.Solver
	// CompatOptions configure the compatibilities of the bag and of each
	// part, when the Problem does not bring the bag's.
	CompatOptions jigsaw.CompatOptions
	// NoneCost is the cost of a free edge in the fitness by which repair
	// compares bags (0: twice the mean dissimilarity of all pairings, the
	// genetic solver's default).
	NoneCost float64
	// KeepSplit keeps the split's assembly of each picture (the greedy
	// solver told the count) instead of solving the parts again with
	// Solver: for a solver that cannot start from that assembly (the
	// greedy solver assembles each part anew, which on the MIT bag 13-16
	// fell from 91.8% to 79.9% direct accuracy). The pictures that are
	// not rectangles are mended as usual.
	KeepSplit bool
}

// Solve reassembles a mixed bag: it counts the pictures (unless
// Problem.Images says how many; see countPictures and splitSegments),
// splits the pieces among them with the greedy solver told that count (or
// by the segments that counted them), moves cores of best-buddy loops
// whole into one part (relabelCores), and solves each part with Solver as
// a picture of unknown size (Problem.Part), the split's assembly of it as
// the seed; last it mends the pictures that are not rectangles (repair,
// square), frames those still not (frame) and, when some still is not,
// gives every picture a rectangle at once (reframe). A bag found to hold one
// picture is solved by Solver as one. The answer's Fitness sums the
// parts' and Pictures describes them.
//
// Time: the compatibilities (O(n^2 p), see jigsaw.NewCompat), about k + 1
// greedy assemblies to count k pictures, then Solver on each part and, in
// repair, on up to repairTries sets of changed parts. If ctx ends, Solve
// returns the best placement it has (the greedy split while the parts are
// being solved) with ctx.Err().
func (s Solver) Solve(ctx context.Context, p *jigsaw.Problem) (jigsaw.Result, error) {
	start := time.Now()
	var res jigsaw.Result
	pz := p.Puzzle
	if pz == nil || len(pz.Pieces) == 0 {
		return res, jigsaw.ErrNoPieces
	}
	n := len(pz.Pieces)
	if p.Images < 0 || p.Images > n {
		return res, fmt.Errorf("bag: %d images of %d pieces", p.Images, n)
	}
	if p.Rows > 0 && p.Images > 1 {
		return res, errors.New("bag: a known size applies to a single image")
	}
	b := bagger{s: s, p: p, start: start}
	if b.s.Solver == nil {
		b.s.Solver = greedy.Solver{}
	}
	if b.s.Mend == nil {
		b.s.Mend = b.s.Solver
	}
	if p.Images == 1 || p.Rows > 0 {
		return b.s.Solver.Solve(ctx, p)
	}
	c, err := p.CompatOf(ctx, s.CompatOptions, &res, "bag")
	if err != nil {
		return res, err
	}
	err = b.bag(ctx, pz, c, &res)
	res.CompatTime += b.compatTime
	res.Finish(c, start)
	return res, err
}

// bagger holds what the stages of one Solve share.
type bagger struct {
	s          Solver
	p          *jigsaw.Problem
	start      time.Time
	compatTime time.Duration
	// refused holds, per output image, the rectangle square solved and
	// refused (its last resort takes it).
	refused map[int]wholeAnswer
}

// noneCost returns the cost of a free edge for compatibilities c.
func (b *bagger) noneCost(c *jigsaw.Compat) float64 {
	if b.s.NoneCost > 0 {
		return b.s.NoneCost
	}
	return 2 * c.Mean()
}

// bag solves the bag pz with compatibilities c into res (see Solve).
func (b *bagger) bag(ctx context.Context, pz *jigsaw.Puzzle, c *jigsaw.Compat, res *jigsaw.Result) error {
	t0 := time.Now()
	k, split := b.p.Images, (*jigsaw.Placement)(nil)
	var labels []int // the segments' split (splitSegments), when they count more
	if k == 0 {
		var err error
		k, split, err = countPictures(ctx, pz, c)
		if err != nil {
			res.SeedTime += time.Since(t0)
			return err
		}
		if sk, sl := splitSegments(c, k); sl != nil {
			k, split, labels = sk, unsolved(sl, sk), sl
		}
	}
	if k == 1 {
		one, err := b.s.Solver.Solve(ctx, &jigsaw.Problem{Puzzle: pz, Compat: c, Images: 1, Progress: b.p.Progress, Snapshot: b.p.Snapshot})
		one.SeedTime += time.Since(t0) - one.Elapsed
		one.CompatTime += res.CompatTime
		*res = one
		return err
	}
	if split == nil {
		g, err := greedy.Solver{}.Solve(ctx, &jigsaw.Problem{Puzzle: pz, Compat: c, Images: k})
		if err != nil {
			res.SeedTime += time.Since(t0)
			return err
		}
		split = g.Placement
		if sk, sl := splitSegments(c, k-1); sk == k && degenerate(split, k) {
			split, labels = unsolved(sl, sk), sl
		}
	}
	res.SeedTime += time.Since(t0)
	res.Placement = split // until the pictures are solved
	if b.s.KeepSplit && labels == nil {
		out := &jigsaw.Placement{Images: k, Pieces: slices.Clone(split.Pieces)}
		out.Normalize()
		res.Placement = out
		fit, count := pictureFitness(c, out, b.noneCost(c)), make([]int, k)
		for _, q := range out.Pieces {
			count[q.Image]++
		}
		for img := range k {
			r := out.Bounds(img)
			res.Pictures = append(res.Pictures, jigsaw.Picture{Pieces: count[img], Frame: [2]int{r.Dy(), r.Dx()}, Fitness: fit[img]})
			res.Fitness += fit[img]
		}
		return b.finish(ctx, pz, c, res)
	}
	var changed []bool
	if labels == nil {
		labels = make([]int, len(pz.Pieces))
		for _, q := range split.Pieces {
			labels[q.Piece] = q.Image
		}
		changed = relabelCores(c, labels, k)
	} else {
		changed = slices.Repeat([]bool{true}, k) // no assembly to seed from
	}
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
		pic, placed, err := b.part(ctx, b.s.Solver, pz, ps, img, k, 0, 0, part, res)
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
	return b.finish(ctx, pz, c, res)
}

// finish mends the solved bag in res where its pictures are not
// rectangles: repair, square, frame, reframe, for a picture still no
// rectangle resplit and, last, square again taking any rectangle.
func (b *bagger) finish(ctx context.Context, pz *jigsaw.Puzzle, c *jigsaw.Compat, res *jigsaw.Result) error {
	if err := b.repair(ctx, pz, c, res); err != nil {
		return err
	}
	if err := b.square(ctx, pz, c, res, false); err != nil {
		return err
	}
	b.frame(c, res, repairLoss)
	if err := b.reframe(ctx, pz, c, res); err != nil {
		return err
	}
	for img := range res.Placement.Images {
		if rectangles(res.Placement) {
			break
		}
		if one := imageOf(res.Placement, img); rectangles(one) {
			continue
		}
		if _, err := b.resplit(ctx, pz, c, res, img); err != nil {
			return err
		}
	}
	if err := b.square(ctx, pz, c, res, true); err != nil {
		return err
	}
	return b.seamSolve(ctx, pz, c, res)
}

// frame gives every picture of the solved bag in res that is still not
// a rectangle after square one (frameImage): its core stays, the other
// blocks and the loose pieces move into the frame around it. It keeps
// the rectangle only when the picture's fitness falls and it loses at
// most a share loss of its best-buddy adjacencies (repairLoss, as in
// repair, but for reframe's last resort): the sunset's lake, moved back
// under its sky, loses 1 of 73; the pictures of the MIT bag 13-16, which
// hold pieces of each other, would lose 18% to 64% of theirs (torn to
// fit frames of their counts; reframe mends them).
func (b *bagger) frame(c *jigsaw.Compat, res *jigsaw.Result, loss float64) {
	out := res.Placement
	none := b.noneCost(c)
	count := make([]int, out.Images)
	for _, q := range out.Pieces {
		count[q.Image]++
	}
	changed := false
	for img := range out.Images {
		if r := out.Bounds(img); r.Dx()*r.Dy() == count[img] {
			continue
		}
		placed := frameImage(c, out, img, none)
		if placed == nil {
			continue
		}
		one := &jigsaw.Placement{Images: out.Images}
		for _, q := range out.Pieces {
			if q.Image == img {
				one.Pieces = append(one.Pieces, q)
			}
		}
		fo := c.Fit(one)
		before := bagFitness(fo, count[img], none)
		one.Pieces = placed
		fn := c.Fit(one)
		after := bagFitness(fn, count[img], none)
		if after >= before || float64(fn.BestBuddies) < (1-loss)*float64(fo.BestBuddies) {
			continue // a picture with pieces of another, or missing some, is torn
		}
		kept := out.Pieces[:0:0]
		for _, q := range out.Pieces {
			if q.Image != img {
				kept = append(kept, q)
			}
		}
		out.Pieces = append(kept, placed...)
		if img < len(res.Pictures) {
			r := one.Bounds(img)
			res.Pictures[img].Frame = [2]int{r.Dy(), r.Dx()}
			res.Pictures[img].Fitness += after - before
			res.Fitness += after - before
		}
		changed = true
	}
	if changed {
		out.Normalize()
	}
}

// square solves again, as a whole picture of unknown size (the frames of
// exactly its number of pieces, not a Part), every picture of the solved
// bag in res that is still not a rectangle after repair, and takes the
// answer when it is one: a picture with a featureless sky or sea, which
// no best buddy holds together, otherwise comes back strewn over a canvas
// with holes, where a person would expect the picture's rectangle. As
// mend, it keeps the answer only when the bag's fitness falls and no
// best-buddy adjacency is lost: a part
// that holds pieces of another picture, or misses some of its own, has no
// rectangle of its size, and forcing it into one tears it.
//
// With last (the last resort, after frame, reframe and resplit) it takes
// the answer whatever it costs, and reuses the answer it refused before
// for the same pieces. A picture can come out of every other step still
// no rectangle though every one of its pieces is its own: Wood, the
// photograph of the seven-photograph bag whose grain is alike edge for
// edge (3,072 pieces of 40 px, 48x64 of them), came back as a canvas with
// holes whose largest block of best buddies is 65 pieces wide; frame fits
// that block only in 32x96, which tears the rest (more than 10% of its
// best buddies), and square's first answer, the picture solved again in
// the frame the solver estimates for its pieces alone (its true 48x64),
// loses some too. A rectangle per picture is what a person expects. A
// count with no frame of aspect up to 4 (a prime) stays as it is.
func (b *bagger) square(ctx context.Context, pz *jigsaw.Puzzle, c *jigsaw.Compat, res *jigsaw.Result, last bool) error {
	out := res.Placement
	none := b.noneCost(c)
	pieces := make([][]int32, out.Images)
	for _, q := range out.Pieces {
		pieces[q.Image] = append(pieces[q.Image], int32(q.Piece))
	}
	changed := false
	for img, ps := range pieces {
		if r := out.Bounds(img); r.Dx()*r.Dy() == len(ps) || len(ps) < 4 {
			continue
		}
		slices.Sort(ps)
		w, ok := b.refused[img]
		if !last || !ok || !slices.Equal(w.ps, ps) {
			_, seed := subPuzzle(pz, ps, out, img)
			pic, placed, err := b.part(ctx, b.s.Solver, pz, ps, img, out.Images, wholePicture, 0, seed, res)
			if placed == nil || err != nil {
				return err // keep the picture as it was
			}
			w = wholeAnswer{ps, pic, placed}
		}
		if w.pic.Frame[0]*w.pic.Frame[1] != len(ps) {
			continue // no frame of its size: not a rectangle
		}
		kept := out.Pieces[:0:0]
		for _, q := range out.Pieces {
			if q.Image != img {
				kept = append(kept, q)
			}
		}
		next := &jigsaw.Placement{Images: out.Images, Pieces: append(kept, w.placed...)}
		if !last {
			fo, fn := c.Fit(out), c.Fit(next)
			if bagFitness(fn, len(next.Pieces), none) >= bagFitness(fo, len(out.Pieces), none) ||
				fn.BestBuddies < fo.BestBuddies {
				if b.refused == nil {
					b.refused = map[int]wholeAnswer{}
				}
				b.refused[img] = w
				continue
			}
		}
		out.Pieces = next.Pieces
		if img < len(res.Pictures) {
			res.Fitness += w.pic.Fitness - res.Pictures[img].Fitness
			res.Pictures[img] = w.pic
		}
		changed = true
	}
	if changed {
		out.Normalize()
	}
	return nil
}

// wholeAnswer is a picture solved again as a whole by square: its pieces
// (sorted) and the answer, a full rectangle.
type wholeAnswer struct {
	ps     []int32
	pic    jigsaw.Picture
	placed []jigsaw.Placed
}

// wholePicture, as the rows given to part, solves the pieces as a whole
// picture of unknown size rather than a Part.
const wholePicture = -1

// part solves the pieces ps of a bag with s as output image img of k, in
// the frame rows x cols or, with rows 0, as a part of unknown size
// (Problem.Part), or with rows wholePicture as a picture of unknown size, with seed as Problem.Seed (a placement of ps as
// numbered in the part, or nil). It returns the part's pieces placed as
// bag pieces, nil only when ctx ended.
func (b *bagger) part(ctx context.Context, s jigsaw.Solver, pz *jigsaw.Puzzle, ps []int32, img, k, rows, cols int, seed *jigsaw.Placement, res *jigsaw.Result) (jigsaw.Picture, []jigsaw.Placed, error) {
	sub, _ := subPuzzle(pz, ps, &jigsaw.Placement{}, 0)
	t1 := time.Now()
	sc, err := jigsaw.NewCompat(ctx, sub, b.s.CompatOptions)
	b.compatTime += time.Since(t1)
	if err != nil {
		return jigsaw.Picture{}, nil, err
	}
	sp := &jigsaw.Problem{Puzzle: sub, Compat: sc, Rows: rows, Cols: cols, Part: rows == 0, Images: 1, Seed: seed}
	if rows == wholePicture {
		sp.Rows, sp.Cols, rows = 0, 0, 0
	}
	stage := func(g jigsaw.Generation) jigsaw.Generation {
		g.Picture, g.Pictures, g.Elapsed = img+1, k, time.Since(b.start)
		return g
	}
	if f := b.p.Progress; f != nil {
		sp.Progress = func(g jigsaw.Generation) { f(stage(g)) }
	}
	if f := b.p.Snapshot; f != nil {
		sp.Snapshot = func(g jigsaw.Generation, p *jigsaw.Placement) {
			for i := range p.Pieces {
				p.Pieces[i].Piece = int(ps[p.Pieces[i].Piece])
			}
			f(stage(g), p)
		}
	}
	one, err := s.Solve(ctx, sp)
	res.SeedTime += one.SeedTime
	if one.Placement == nil {
		return jigsaw.Picture{}, nil, err
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
	return jigsaw.Picture{Pieces: len(ps), Frame: frame, Fitness: one.Fitness, History: one.History}, placed, err
}

// repair mends a solved bag in res whose pictures are not all rectangles
// (see rectPlans). Each of the cheapest plans is carried out by fill;
// those whose filled layout is fitter than the bag (bagFitness: the
// pictures measured alike) and keeps all but a share repairLoss of its
// best-buddy adjacencies are tried, fittest first, up to repairTries: mend
// solves each changed picture again in its rectangle, seeded with the
// filled layout, and the first result that is fitter than the bag and
// keeps at least as many best-buddy adjacencies replaces it.
func (b *bagger) repair(ctx context.Context, pz *jigsaw.Puzzle, c *jigsaw.Compat, res *jigsaw.Result) error {
	out := res.Placement
	k := out.Images
	count := make([]int, k)
	for _, q := range out.Pieces {
		count[q.Image]++
	}
	rectangles := true
	for img := range k {
		r := out.Bounds(img)
		rectangles = rectangles && r.Dx()*r.Dy() == count[img]
	}
	if rectangles {
		return nil
	}
	none, n := b.noneCost(c), len(out.Pieces)
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
	for _, cd := range cands[:min(len(cands), repairTries)] {
		if ok, err := b.mend(ctx, pz, c, res, cd.pl, cd.filled, count, fo.BestBuddies, current, none); ok || err != nil {
			return err
		}
	}
	return nil
}

// mend solves again with Solver.Mend, in their rectangles of plan pl,
// the parts of the bag in res that the filled layout changes, and
// replaces the bag when the result is fitter than current and keeps at
// least bb best-buddy adjacencies (count: the pieces of each part).
func (b *bagger) mend(ctx context.Context, pz *jigsaw.Puzzle, c *jigsaw.Compat, res *jigsaw.Result, pl plan, filled *jigsaw.Placement, count []int, bb int, current, none float64) (bool, error) {
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
		r, bounds := pl.frame[img], out.Bounds(img)
		if count[img] == r.area() && r == (rect{bounds.Min.Y, bounds.Min.X, bounds.Max.Y, bounds.Max.X}) {
			// already this rectangle, full: unchanged
			for _, q := range out.Pieces {
				if q.Image == img {
					next.Pieces = append(next.Pieces, q)
				}
			}
			continue
		}
		_, seed := subPuzzle(pz, ps, filled, img)
		pic, placed, err := b.part(ctx, b.s.Mend, pz, ps, img, k, r.rows(), r.cols(), seed, res)
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

// degenerate reports whether the smallest picture of the split p of k
// pictures holds less than minMeanShare of the mean picture.
func degenerate(p *jigsaw.Placement, k int) bool {
	size := make([]int, k)
	for _, q := range p.Pieces {
		size[q.Image]++
	}
	return float64(slices.Min(size)) < minMeanShare*float64(len(p.Pieces))/float64(k)
}

package bag

import (
	"context"

	"tessera/jigsaw"
)

// A picture that frame leaves without a rectangle holds pieces of another
// picture, or lacks some of its own: no frame of its own number of pieces
// fits it (the MIT bag 13-16 came back with 434, 455, 406 and 433 pieces
// for 432 each). reframe gives every picture a rectangle at once, the
// areas adding up to the bag (rectPlans), and moves the pieces outside the
// rectangles into the empty cells of all of them (fill): the surplus of
// one picture goes where another lacks pieces.

// reframeLoss is the largest share of the bag's best-buddy adjacencies
// that reframe's rectangles may lose: more tears pictures (a greedy
// split of the MIT bag 9-12 whose rectangles lose 11% of them fell from
// 93.7% to 54.4% neighbour accuracy on one picture).
const reframeLoss = 0.10

// rectangles reports whether every output image of p is a full rectangle.
func rectangles(p *jigsaw.Placement) bool {
	count := make([]int, p.Images)
	for _, q := range p.Pieces {
		count[q.Image]++
	}
	for img, n := range count {
		if r := p.Bounds(img); r.Dx()*r.Dy() != n {
			return false
		}
	}
	return true
}

// reframe makes every picture of the solved bag in res a full rectangle
// when some is not. Of the plans of rectPlans (at each of bbWeights)
// carried out by fill, it takes the fittest of those that make the bag
// fitter and keep all but a share repairLoss of its best-buddy
// adjacencies, or, when none does, the fittest of those that lose at
// most a share reframeLoss (a rectangle per picture is what a person
// expects; the pieces inside the rectangles stay where they are). Then it solves the changed pictures again in their
// rectangles with Mend (see mend) and keeps that when it is fitter still
// and keeps the filled layout's best buddies. When rectPlans has no plan
// (a canvas too large for its work bound, or pictures that would move
// more than half a mean picture), it frames each picture in a rectangle
// of its own count (frame), allowing it to lose a share reframeLoss of
// its best buddies. A bag whose rectangles would tear it more stays as
// it is.
func (b *bagger) reframe(ctx context.Context, pz *jigsaw.Puzzle, c *jigsaw.Compat, res *jigsaw.Result) error {
	out := res.Placement
	if rectangles(out) {
		return nil
	}
	none, n := b.noneCost(c), len(out.Pieces)
	fo := c.Fit(out)
	current := bagFitness(fo, n, none)
	var (
		best              plan
		filled            *jigsaw.Placement
		bestFit           float64
		bestKept, anyPlan bool
	)
	for _, w := range bbWeights {
		for _, p := range rectPlans(c, out, w) {
			f := fill(c, out, p)
			if !rectangles(f) {
				continue
			}
			ff := c.Fit(f)
			v := bagFitness(ff, n, none)
			if float64(ff.BestBuddies) < (1-reframeLoss)*float64(fo.BestBuddies) {
				continue // tears pictures
			}
			kept := v < current && float64(ff.BestBuddies) >= (1-repairLoss)*float64(fo.BestBuddies)
			if !anyPlan || kept && !bestKept || kept == bestKept && v < bestFit {
				best, filled, bestFit, bestKept, anyPlan = p, f, v, kept, true
			}
		}
	}
	if !anyPlan {
		b.frame(c, res, reframeLoss) // a rectangle of each picture's count
		return nil
	}
	count := make([]int, out.Images)
	for _, q := range out.Pieces {
		count[q.Image]++
	}
	if ok, err := b.mend(ctx, pz, c, res, best, filled, count, c.Fit(filled).BestBuddies, bestFit, none); ok || err != nil {
		return err
	}
	before, after := pictureFitness(c, out, none), pictureFitness(c, filled, none)
	for img := range min(out.Images, len(res.Pictures)) {
		r := best.frame[img]
		res.Pictures[img].Pieces = r.area()
		res.Pictures[img].Frame = [2]int{r.rows(), r.cols()}
		res.Pictures[img].Fitness += after[img] - before[img]
		res.Fitness += after[img] - before[img]
	}
	res.Placement = filled
	return nil
}

// pictureFitness returns bagFitness of each output image of p alone.
func pictureFitness(c *jigsaw.Compat, p *jigsaw.Placement, none float64) []float64 {
	parts := make([]*jigsaw.Placement, p.Images)
	for i := range parts {
		parts[i] = &jigsaw.Placement{Images: p.Images}
	}
	for _, q := range p.Pieces {
		parts[q.Image].Pieces = append(parts[q.Image].Pieces, q)
	}
	f := make([]float64, p.Images)
	for i, one := range parts {
		f[i] = bagFitness(c.Fit(one), len(one.Pieces), none)
	}
	return f
}

package bag

import (
	"context"
	"slices"

	"tessera/jigsaw"
)

// A picture that even reframe leaves without a rectangle is most often a
// split gone wrong across a featureless sky: the greedy split of two
// crops of MIT pictures 13 and 15 (80 and 72 pieces) joined the dome of
// 15 to the roofs of 13 along their white skies, 128 pieces, and left
// 15's columns alone, 24. No rectangle of 128 holds that without tearing
// both. resplit splits such a picture again along the blocks its best
// buddies hold together: its largest block stays, each other large block
// stays or moves to another picture, the loose pieces (the sky, which
// fits anywhere) are shared out so that both pictures have a number of
// pieces with a rectangle of a plausible aspect, and both are solved
// again as whole pictures. The fittest outcome of two full rectangles is
// kept: a rectangle per picture is what a person expects.

// resplitMaxPieces bounds the pictures resplit solves again (the two
// together); resplitBlocks is how many large blocks besides the largest
// it places; it tries, for each placing, up to resplitCounts shares of
// the loose pieces, fewer for larger pictures and more placings (about
// resplitWork pieces solved in all, at least two shares each); a large
// block holds at least resplitMinBlock of the picture.
const (
	resplitMaxPieces = 1000
	resplitBlocks    = 3
	resplitCounts    = 48
	resplitWork      = 6000
	resplitMinBlock  = 0.05
)

// plausible reports whether n pieces have a rectangle of aspect up to
// maxAspect.
func plausible(n int) bool {
	for h := 1; h*h <= n; h++ {
		if n%h == 0 && n/h <= maxAspect*h {
			return true
		}
	}
	return false
}

// resplit re-splits output image a of the solved bag in res, which is no
// rectangle, with one other image (see above) and keeps the fittest
// outcome in which both are full rectangles (the other pictures are left
// as they are, rectangles or not: finish tries each in turn). It reports
// whether it changed res. It works only when the bag's count of pictures was told:
// a count found by countPictures that leaves pictures without
// rectangles is most often too high (the genetic solver not told the
// count made 3 to 5 pictures of the sky crops), which moving blocks
// between two pictures does not mend, and trying it all costs a minute.
func (b *bagger) resplit(ctx context.Context, pz *jigsaw.Puzzle, c *jigsaw.Compat, res *jigsaw.Result, a int) (bool, error) {
	out := res.Placement
	k := out.Images
	if k < 2 || k != b.p.Images || len(res.Pictures) != k {
		return false, nil
	}
	count := make([]int, k)
	for _, q := range out.Pieces {
		count[q.Image]++
	}
	bls := blocks(c, out, a, [][2]int{{len(out.Pieces), len(out.Pieces)}})
	var large [][]int32
	var loose []int32
	for i, bl := range bls {
		ps := make([]int32, len(bl.cells))
		for j, q := range bl.cells {
			ps[j] = int32(q.Piece)
		}
		switch {
		case i == 0:
			// the largest stays: it is held with the others below
		case len(large) < resplitBlocks && float64(len(ps)) >= resplitMinBlock*float64(count[a]) && len(ps) >= 4:
			large = append(large, ps)
		default:
			loose = append(loose, ps...)
		}
	}
	if len(bls) == 0 {
		return false, nil
	}
	core := make([]int32, 0, len(bls[0].cells))
	for _, q := range bls[0].cells {
		core = append(core, int32(q.Piece))
	}
	none, n := b.noneCost(c), len(out.Pieces)
	var (
		best    *jigsaw.Placement
		bestPic [2]jigsaw.Picture
		bestImg int
		bestFit float64
	)
	for o := range k {
		if o == a || count[a]+count[o] > resplitMaxPieces {
			continue
		}
		placings := (k - 1) * (1<<len(large) - min(1, len(large)))
		most := max(2, min(resplitCounts, resplitWork/(count[a]+count[o])/placings))
		var mine []int32
		for _, q := range out.Pieces {
			if q.Image == o {
				mine = append(mine, int32(q.Piece))
			}
		}
		for mask := min(1, len(large)); mask < 1<<len(large); mask++ { // the blocks that move to o: one at least, when there is one
			heldA, heldO := slices.Clone(core), slices.Clone(mine)
			for i, bl := range large {
				if mask&(1<<i) != 0 {
					heldO = append(heldO, bl...)
				} else {
					heldA = append(heldA, bl...)
				}
			}
			order := byAffinity(c, loose, heldA, heldO)
			for _, na := range shares(len(heldA), len(heldA)+len(loose), count[a]+count[o], most) {
				if err := ctx.Err(); err != nil {
					return false, err
				}
				psA := append(slices.Clone(heldA), order[:na-len(heldA)]...)
				psO := append(slices.Clone(heldO), order[na-len(heldA):]...)
				next := &jigsaw.Placement{Images: k}
				for _, q := range out.Pieces {
					if q.Image != a && q.Image != o {
						next.Pieces = append(next.Pieces, q)
					}
				}
				var pics [2]jigsaw.Picture
				for i, ps := range [2][]int32{psA, psO} {
					slices.Sort(ps)
					pic, placed, err := b.part(ctx, b.s.Solver, pz, ps, [2]int{a, o}[i], k, wholePicture, 0, nil, res)
					if placed == nil || err != nil {
						return false, err
					}
					if pic.Frame[0]*pic.Frame[1] != len(ps) {
						break // no frame of its size
					}
					pics[i] = pic
					next.Pieces = append(next.Pieces, placed...)
				}
				next.Normalize()
				if len(next.Pieces) != n || !rectangles(imageOf(next, a)) || !rectangles(imageOf(next, o)) {
					continue
				}
				if v := bagFitness(c.Fit(next), n, none); best == nil || v < bestFit {
					best, bestPic, bestImg, bestFit = next, pics, o, v
				}
			}
		}
	}
	if best == nil {
		return false, nil
	}
	for i, img := range [2]int{a, bestImg} {
		res.Fitness += bestPic[i].Fitness - res.Pictures[img].Fitness
		res.Pictures[img] = bestPic[i]
	}
	res.Placement = best
	return true, nil
}

// shares returns up to most numbers of pieces na from lo to hi for
// which both na and total-na are plausible, spread evenly.
func shares(lo, hi, total, most int) []int {
	var all []int
	for na := lo; na <= hi; na++ {
		if na > 0 && na < total && plausible(na) && plausible(total-na) {
			all = append(all, na)
		}
	}
	if len(all) <= most {
		return all
	}
	out := make([]int, most)
	for i := range out {
		out[i] = all[i*(len(all)-1)/(most-1)]
	}
	return out
}

// byAffinity orders the loose pieces from those likeliest to belong with
// the pieces a to those likeliest to belong with o: a piece's candidate
// neighbours (Compat.Candidates) vote, on each side the first of them
// held by a or o.
func byAffinity(c *jigsaw.Compat, loose, a, o []int32) []int32 {
	side := make(map[int32]int, len(a)+len(o))
	for _, p := range a {
		side[p] = 1
	}
	for _, p := range o {
		side[p] = -1
	}
	vote := make(map[int32]int, len(loose))
	for _, p := range loose {
		for s := range jigsaw.Side(4) {
			for _, cd := range c.Candidates(int(p), s) {
				if v, ok := side[cd.Piece]; ok {
					vote[p] += v
					break
				}
			}
		}
	}
	order := slices.Clone(loose)
	slices.SortStableFunc(order, func(x, y int32) int { return vote[y] - vote[x] })
	return order
}

// imageOf returns the pieces of output image img of p alone.
func imageOf(p *jigsaw.Placement, img int) *jigsaw.Placement {
	one := &jigsaw.Placement{Images: p.Images}
	for _, q := range p.Pieces {
		if q.Image == img {
			one.Pieces = append(one.Pieces, q)
		}
	}
	return one
}

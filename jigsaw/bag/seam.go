package bag

import (
	"cmp"
	"context"
	"image"
	"maps"
	"slices"

	"tessera/jigsaw"
)

// cell is a cell of one output image.
type cell struct{ row, col int }

// straightStrips returns the strips that a straight seam cuts off the
// full rectangle grid (bounds r): for each row or column boundary, the
// pieces on either side of it.
func straightStrips(grid map[cell]jigsaw.Placed, r image.Rectangle) [][]jigsaw.Placed {
	var strips [][]jigsaw.Placed
	take := func(in func(row, col int) bool) {
		var s []jigsaw.Placed
		for row := r.Min.Y; row < r.Max.Y; row++ {
			for col := r.Min.X; col < r.Max.X; col++ {
				if in(row, col) {
					s = append(s, grid[cell{row, col}])
				}
			}
		}
		strips = append(strips, s)
	}
	for i := r.Min.Y + 1; i < r.Max.Y; i++ {
		take(func(row, _ int) bool { return row < i })
		take(func(row, _ int) bool { return row >= i })
	}
	for i := r.Min.X + 1; i < r.Max.X; i++ {
		take(func(_, col int) bool { return col < i })
		take(func(_, col int) bool { return col >= i })
	}
	return strips
}

// attachments returns strip turned by t quarter turns and set, as
// pieces of output image img, along each side of the rectangle r that
// is as long as the turned strip's side.
func attachments(strip []jigsaw.Placed, t jigsaw.Rotation, r image.Rectangle, img int) [][]jigsaw.Placed {
	turned := make([]jigsaw.Placed, len(strip))
	var sr image.Rectangle
	for i, q := range strip {
		q.Row, q.Col = jigsaw.RotateCell(q.Row, q.Col, t)
		q.Rotation, q.Image = q.Rotation.Add(t), img
		turned[i] = q
		c := image.Rect(q.Col, q.Row, q.Col+1, q.Row+1)
		if i == 0 {
			sr = c
		} else {
			sr = sr.Union(c)
		}
	}
	var at []image.Point // where the strip's top left cell goes
	if sr.Dx() == r.Dx() {
		at = append(at, image.Pt(r.Min.X, r.Min.Y-sr.Dy()), image.Pt(r.Min.X, r.Max.Y))
	}
	if sr.Dy() == r.Dy() {
		at = append(at, image.Pt(r.Min.X-sr.Dx(), r.Min.Y), image.Pt(r.Max.X, r.Min.Y))
	}
	var out [][]jigsaw.Placed
	for _, p := range at {
		moved := make([]jigsaw.Placed, len(turned))
		for i, q := range turned {
			q.Row += p.Y - sr.Min.Y
			q.Col += p.X - sr.Min.X
			moved[i] = q
		}
		out = append(out, moved)
	}
	return out
}

// contact measures the edges where the pieces of strip touch those of
// grid (cells of one output image; strip's cells not in it), as
// jigsaw.Compat.Fit measures a placement's.
func contact(c *jigsaw.Compat, grid map[cell]jigsaw.Placed, strip []jigsaw.Placed) jigsaw.Fit {
	var f jigsaw.Fit
	for _, q := range strip {
		for d := jigsaw.Top; d <= jigsaw.Left; d++ {
			dr, dc := jigsaw.Offset(d)
			o, ok := grid[cell{q.Row + dr, q.Col + dc}]
			if !ok {
				continue
			}
			x, y, dx := q, o, d // measured from the top or left piece, as Fit does
			if d == jigsaw.Top || d == jigsaw.Left {
				x, y, dx = o, q, d.Opposite()
			}
			sa, sb := jigsaw.SideAt(dx, x.Rotation), jigsaw.SideAt(dx.Opposite(), y.Rotation)
			f.Adjacencies++
			f.Dissimilarity += float64(c.D(x.Piece, sa, y.Piece, sb))
			if bb, ok := c.BestBuddy(x.Piece, sa); ok && int(bb.Piece) == y.Piece && bb.Side == sb {
				f.BestBuddies++
			}
		}
	}
	return f
}

// seamTries bounds the strips seamSolve tries in one bag.
const seamTries = 2

// seamSolve moves a strip that a straight seam cuts off one rectangle
// of the solved bag in res to a smaller picture when that makes the two
// of one size, and solves the smaller picture with the strip again as a
// whole picture with Solver: a strip of another picture's featureless
// sky, stuck to a rectangle, has no place in the smaller picture's
// rectangle as it stands, only after the picture is solved again. Only
// seams with less than half the bag's share of best-buddy adjacencies
// are cut, the weakest (fewest best buddies, then the dearest) first,
// up to seamTries; a move is kept when the answer is a rectangle, the
// bag's fitness falls and it loses no best-buddy adjacency but those
// across the seam cut.
func (b *bagger) seamSolve(ctx context.Context, pz *jigsaw.Puzzle, c *jigsaw.Compat, res *jigsaw.Result) error {
	out := res.Placement
	if !rectangles(out) {
		return nil
	}
	k := out.Images
	count := make([]int, k)
	grids := make([]map[cell]jigsaw.Placed, k)
	for img := range k {
		grids[img] = map[cell]jigsaw.Placed{}
	}
	for _, q := range out.Pieces {
		count[q.Image]++
		grids[q.Image][cell{q.Row, q.Col}] = q
	}
	type candidate struct {
		a, to int
		strip []jigsaw.Placed
		cut   jigsaw.Fit
	}
	none := b.noneCost(c)
	fo := c.Fit(out)
	current := bagFitness(fo, len(out.Pieces), none)
	var cands []candidate
	for a := range k {
		for _, strip := range straightStrips(grids[a], out.Bounds(a)) {
			for to := range k {
				if to == a || count[a]-len(strip) != count[to]+len(strip) {
					continue
				}
				rest := maps.Clone(grids[a])
				for _, q := range strip {
					delete(rest, cell{q.Row, q.Col})
				}
				cut := contact(c, rest, strip)
				if 2*cut.BestBuddies*fo.Adjacencies > cut.Adjacencies*fo.BestBuddies {
					continue // a seam of the picture: half the bag's share of best buddies or more
				}
				cands = append(cands, candidate{a, to, strip, cut})
			}
		}
	}
	slices.SortStableFunc(cands, func(x, y candidate) int {
		return cmp.Or(cmp.Compare(x.cut.BestBuddies*y.cut.Adjacencies, y.cut.BestBuddies*x.cut.Adjacencies),
			cmp.Compare(y.cut.Dissimilarity/float64(y.cut.Adjacencies), x.cut.Dissimilarity/float64(x.cut.Adjacencies)))
	})
	for _, cd := range cands[:min(len(cands), seamTries)] {
		inStrip := map[int]bool{}
		for _, q := range cd.strip {
			inStrip[q.Piece] = true
		}
		var kept, seedPl []jigsaw.Placed
		var ps []int32
		for _, q := range out.Pieces {
			switch {
			case q.Image == cd.to:
				ps = append(ps, int32(q.Piece))
				seedPl = append(seedPl, q)
			case !inStrip[q.Piece]:
				kept = append(kept, q)
			}
		}
		for _, q := range cd.strip {
			ps = append(ps, int32(q.Piece))
		}
		slices.Sort(ps)
		var seed *jigsaw.Placement
		for t := range 4 {
			if at := attachments(cd.strip, jigsaw.Rotation(t), out.Bounds(cd.to), cd.to); len(at) > 0 && (t == 0 || c.Rotated()) {
				_, seed = subPuzzle(pz, ps, &jigsaw.Placement{Images: k, Pieces: append(slices.Clone(seedPl), at[0]...)}, cd.to)
				break
			}
		}
		pic, placed, err := b.part(ctx, b.s.Solver, pz, ps, cd.to, k, wholePicture, 0, seed, res)
		if placed == nil || err != nil {
			return err
		}
		if pic.Frame[0]*pic.Frame[1] != len(ps) {
			continue
		}
		next := &jigsaw.Placement{Images: k, Pieces: append(kept, placed...)}
		next.Normalize()
		fn := c.Fit(next)
		if !rectangles(next) || bagFitness(fn, len(next.Pieces), none) >= current || fn.BestBuddies < fo.BestBuddies-cd.cut.BestBuddies {
			continue
		}
		before := pictureFitness(c, out, none)
		after := pictureFitness(c, next, none)
		if cd.a < len(res.Pictures) && cd.to < len(res.Pictures) {
			res.Fitness += after[cd.a] - before[cd.a] + pic.Fitness - res.Pictures[cd.to].Fitness
			r := next.Bounds(cd.a)
			res.Pictures[cd.a].Pieces = count[cd.a] - len(cd.strip)
			res.Pictures[cd.a].Frame = [2]int{r.Dy(), r.Dx()}
			res.Pictures[cd.a].Fitness += after[cd.a] - before[cd.a]
			res.Pictures[cd.to] = pic
		}
		res.Placement = next
		return b.seamRest(ctx, pz, c, res, cd.a)
	}
	return nil
}

// seamRest solves picture img of the bag in res, which seamSolve cut
// along a straight seam, again as a whole picture with Solver (the
// rectangle left by the cut need not be the picture's own), and keeps
// the answer when it is a rectangle, the bag's fitness falls and no
// best-buddy adjacency is lost.
func (b *bagger) seamRest(ctx context.Context, pz *jigsaw.Puzzle, c *jigsaw.Compat, res *jigsaw.Result, img int) error {
	out := res.Placement
	var ps []int32
	var kept []jigsaw.Placed
	for _, q := range out.Pieces {
		if q.Image == img {
			ps = append(ps, int32(q.Piece))
		} else {
			kept = append(kept, q)
		}
	}
	slices.Sort(ps)
	_, seed := subPuzzle(pz, ps, out, img)
	pic, placed, err := b.part(ctx, b.s.Solver, pz, ps, img, out.Images, wholePicture, 0, seed, res)
	if placed == nil || err != nil || pic.Frame[0]*pic.Frame[1] != len(ps) {
		return err
	}
	next := &jigsaw.Placement{Images: out.Images, Pieces: append(kept, placed...)}
	next.Normalize()
	none := b.noneCost(c)
	fo, fn := c.Fit(out), c.Fit(next)
	if bagFitness(fn, len(next.Pieces), none) >= bagFitness(fo, len(out.Pieces), none) || fn.BestBuddies < fo.BestBuddies {
		return nil
	}
	if img < len(res.Pictures) {
		res.Fitness += pic.Fitness - res.Pictures[img].Fitness
		res.Pictures[img] = pic
	}
	res.Placement = next
	return nil
}

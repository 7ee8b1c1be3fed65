package bag

import (
	"math"
	"slices"
	"sort"

	"tessera/jigsaw"
)

// A solved mixed bag can still hold pieces in the wrong picture: where two
// pictures have featureless areas (white sky, grey snow), their pieces are
// alike edge for edge and one picture's part may take the other's. The
// evidence is geometric: every picture is a rectangle, so a part that took
// foreign pieces shows pieces strewn around a clean rectangle or a strip
// beside it, and the part that lost them shows holes or a notch, or is a
// rectangle that grows into a larger one by the right number of pieces.
// rectPlans reads that evidence, fill carries it out, and the bag's
// repair keeps the result only when the bag's fitness falls without losing
// best buddies.

// rect is a rectangle of cells of one output image: rows r0 to r1-1 and
// columns c0 to c1-1.
type rect struct{ r0, c0, r1, c1 int }

func (r rect) rows() int { return r.r1 - r.r0 }
func (r rect) cols() int { return r.c1 - r.c0 }
func (r rect) area() int { return r.rows() * r.cols() }
func (r rect) has(row, col int) bool {
	return row >= r.r0 && row < r.r1 && col >= r.c0 && col < r.c1
}

// maxAspect bounds the ratio of a rectangle's long side to its short one.
const maxAspect = 4

// A plan moves the pieces outside each part's rectangle (pool) into the
// empty cells of the parts' new rectangles (frame).
type plan struct {
	frame []rect
	pool  []int
}

// rectPlans returns up to maxPlans plans for the bag placement p, the
// cheapest first. A plan gives each output image a rectangle, their areas
// adding up to the number of pieces; the pieces outside the rectangles
// form its pool, which fill moves into their empty cells. A plan costs,
// summed over the images, the pieces it moves out plus the cells it fills
// plus bbWeight for every best-buddy adjacency a rectangle's border cuts
// (see rectOptions). Plans that move nothing, or more than half a mean
// picture (that is no longer mending), are left out.
func rectPlans(c *jigsaw.Compat, p *jigsaw.Placement, bbWeight int) []plan {
	k, n := p.Images, len(p.Pieces)
	opts := make([][]rectOption, k)
	work := 0
	for img := range k {
		opts[img] = rectOptions(c, p, img, bbWeight)
		work += len(opts[img])
	}
	if work*n*maxPlans > maxPlanWork {
		return nil
	}
	// dp[i][s]: the cheapest ways (up to maxPlans, cheapest first) of
	// giving images 0..i-1 rectangles whose areas add up to s
	type way struct {
		cost, opt, prev int // prev: index in dp[i-1][s - area]
	}
	dp := make([][][]way, k+1)
	for i := range dp {
		dp[i] = make([][]way, n+1)
	}
	dp[0][0] = []way{{}}
	for i := range k {
		for s, ws := range dp[i] {
			for wi, w := range ws {
				for oi, o := range opts[i] {
					t := s + o.r.area()
					if t > n {
						break
					}
					nw := way{w.cost + o.cost, oi, wi}
					l := dp[i+1][t]
					if len(l) == maxPlans && nw.cost >= l[maxPlans-1].cost {
						continue
					}
					at := sort.Search(len(l), func(j int) bool { return l[j].cost > nw.cost })
					l = slices.Insert(l, at, nw)
					if len(l) > maxPlans {
						l = l[:maxPlans]
					}
					dp[i+1][t] = l
				}
			}
		}
	}
	var out []plan
	for wi := range dp[k][n] {
		pl := plan{frame: make([]rect, k)}
		for i, s, j := k, n, wi; i > 0; i-- {
			w := dp[i][s][j]
			o := opts[i-1][w.opt]
			pl.frame[i-1] = o.r
			s, j = s-o.r.area(), w.prev
		}
		for _, q := range p.Pieces {
			if !pl.frame[q.Image].has(q.Row, q.Col) {
				pl.pool = append(pl.pool, q.Piece)
			}
		}
		if len(pl.pool) > 0 && len(pl.pool) <= n/(2*k) {
			out = append(out, pl)
		}
	}
	return out
}

// repairLoss is the largest share of the bag's best-buddy adjacencies a
// filled layout may lose for repair to try it.
const repairLoss = 0.03

// repairTries is how many plans repair solves at most, fittest filling
// first, until one is kept.
const repairTries = 3

// maxPlans is how many of the cheapest plans rectPlans returns (repair
// asks for them at each of bbWeights), maxPlanWork bounds rectPlans' work
// (options x pieces x plans) and maxRectWork rectOptions' (rectangles
// looked at).
const (
	maxPlans    = 8
	maxPlanWork = 1 << 30
	maxRectWork = 1 << 28
)

// bbWeights are the costs of cutting a best-buddy adjacency that repair
// tries in rectPlans, in pieces moved.
var bbWeights = []int{8, 64}

// rectOption is a rectangle of one image and its cost in rectPlans.
type rectOption struct {
	r    rect
	cost int
}

// rectOptions returns, for each area, the cheapest rectangle of that area
// for output image img of p (see rectPlans), by increasing area: among
// those within its bounds grown by a third of their larger side, with both
// sides at least 2 and an aspect ratio up to maxAspect.
func rectOptions(c *jigsaw.Compat, p *jigsaw.Placement, img, bbWeight int) []rectOption {
	cells, rots, b := p.Grid(img)
	bh, bw := b.Dy(), b.Dx()
	m := max(bh, bw) / 3
	gh, gw := bh+2*m, bw+2*m
	if gh*gh*gw*gw/4 > maxRectWork {
		return nil
	}
	at := func(y, x int) int { // piece at grid cell (y, x), or -1
		y, x = y-m, x-m
		if y < 0 || x < 0 || y >= bh || x >= bw {
			return -1
		}
		return cells[y*bw+x]
	}
	bb := func(y, x int, d jigsaw.Side) int { // 1 if (y, x) and its neighbour in d are best buddies
		dy, dx := jigsaw.Offset(d)
		i, j := at(y, x), at(y+dy, x+dx)
		if i < 0 || j < 0 {
			return 0
		}
		if buddies(c, i, rots[(y-m)*bw+x-m], j, rots[(y+dy-m)*bw+x+dx-m], d) {
			return 1
		}
		return 0
	}
	// occ: prefix sums of occupied cells; hcut[x][y]: prefix over rows of
	// best-buddy adjacencies between columns x-1 and x; vcut[y][x]: prefix
	// over columns of those between rows y-1 and y.
	occ := make([]int, (gh+1)*(gw+1))
	hcut := make([][]int, gw+1)
	for x := range hcut {
		hcut[x] = make([]int, gh+1)
		for y := range gh {
			v := 0
			if x > 0 && x < gw {
				v = bb(y, x-1, jigsaw.Right)
			}
			hcut[x][y+1] = hcut[x][y] + v
		}
	}
	vcut := make([][]int, gh+1)
	for y := range vcut {
		vcut[y] = make([]int, gw+1)
		for x := range gw {
			v := 0
			if y > 0 && y < gh {
				v = bb(y-1, x, jigsaw.Bottom)
			}
			vcut[y][x+1] = vcut[y][x] + v
		}
	}
	n := 0
	for y := range gh {
		for x := range gw {
			v := 0
			if at(y, x) >= 0 {
				v = 1
				n++
			}
			occ[(y+1)*(gw+1)+x+1] = v + occ[y*(gw+1)+x+1] + occ[(y+1)*(gw+1)+x] - occ[y*(gw+1)+x]
		}
	}
	best := map[int]rectOption{}
	for h := 2; h <= gh; h++ {
		for w := 2; w <= gw; w++ {
			if h > maxAspect*w || w > maxAspect*h {
				continue
			}
			for y := 0; y+h <= gh; y++ {
				for x := 0; x+w <= gw; x++ {
					in := occ[(y+h)*(gw+1)+x+w] - occ[y*(gw+1)+x+w] - occ[(y+h)*(gw+1)+x] + occ[y*(gw+1)+x]
					cut := hcut[x][y+h] - hcut[x][y] + hcut[x+w][y+h] - hcut[x+w][y] +
						vcut[y][x+w] - vcut[y][x] + vcut[y+h][x+w] - vcut[y+h][x]
					cost := n - in + h*w - in + bbWeight*cut
					if o, ok := best[h*w]; !ok || cost < o.cost {
						best[h*w] = rectOption{rect{b.Min.Y + y - m, b.Min.X + x - m, b.Min.Y + y - m + h, b.Min.X + x - m + w}, cost}
					}
				}
			}
		}
	}
	out := make([]rectOption, 0, len(best))
	for _, o := range best {
		out = append(out, o)
	}
	slices.SortFunc(out, func(a, b rectOption) int { return a.r.area() - b.r.area() })
	return out
}

// fill returns p with the pool's pieces moved into the empty cells of the
// plan's rectangles: cells with the most placed neighbours first, each
// taking the pool piece and rotation of lowest summed dissimilarity to
// them. Every image of the result fills its rectangle when the pool
// holds a piece for every empty cell.
func fill(c *jigsaw.Compat, p *jigsaw.Placement, pl plan) *jigsaw.Placement {
	k := p.Images
	at := make([]map[[2]int]jigsaw.Placed, k)
	for i := range at {
		at[i] = map[[2]int]jigsaw.Placed{}
	}
	for _, q := range p.Pieces {
		if pl.frame[q.Image].has(q.Row, q.Col) {
			at[q.Image][[2]int{q.Row, q.Col}] = q
		}
	}
	type cell struct{ img, row, col int }
	var empty []cell
	for img, r := range pl.frame {
		for row := r.r0; row < r.r1; row++ {
			for col := r.c0; col < r.c1; col++ {
				if _, ok := at[img][[2]int{row, col}]; !ok {
					empty = append(empty, cell{img, row, col})
				}
			}
		}
	}
	pool := slices.Clone(pl.pool)
	rots := 1
	if c.Rotated() {
		rots = 4
	}
	for len(empty) > 0 && len(pool) > 0 {
		bi, bn := 0, -1
		for i, e := range empty {
			nb := 0
			for d := range jigsaw.Side(4) {
				dr, dc := jigsaw.Offset(d)
				if _, ok := at[e.img][[2]int{e.row + dr, e.col + dc}]; ok {
					nb++
				}
			}
			if nb > bn {
				bi, bn = i, nb
			}
		}
		e := empty[bi]
		empty = slices.Delete(empty, bi, bi+1)
		type side struct {
			d     jigsaw.Side // towards the neighbour
			piece int
			s     jigsaw.Side // the neighbour's side facing e
		}
		var nbs []side
		for d := range jigsaw.Side(4) {
			dr, dc := jigsaw.Offset(d)
			if o, ok := at[e.img][[2]int{e.row + dr, e.col + dc}]; ok {
				nbs = append(nbs, side{d, o.Piece, jigsaw.SideAt(d.Opposite(), o.Rotation)})
			}
		}
		bp, br, bc := 0, jigsaw.Rotation(0), math.Inf(1)
		for i, q := range pool {
			for r := range jigsaw.Rotation(rots) {
				var cost float64
				for _, nb := range nbs {
					cost += float64(c.D(q, jigsaw.SideAt(nb.d, r), nb.piece, nb.s))
				}
				if cost < bc {
					bp, br, bc = i, r, cost
				}
			}
		}
		at[e.img][[2]int{e.row, e.col}] = jigsaw.Placed{Piece: pool[bp], Image: e.img, Row: e.row, Col: e.col, Rotation: br}
		pool = slices.Delete(pool, bp, bp+1)
	}
	out := &jigsaw.Placement{Images: k}
	for _, m := range at {
		for _, q := range m {
			out.Pieces = append(out.Pieces, q)
		}
	}
	out.Normalize()
	return out
}

// bagFitness is the genetic solver's fitness of a placement of n pieces whose fit f
// was measured with the bag's compatibilities: the dissimilarities of
// touching edges plus none per free edge.
func bagFitness(f jigsaw.Fit, n int, none float64) float64 {
	return f.Dissimilarity + none*float64(4*n-2*f.Adjacencies)
}

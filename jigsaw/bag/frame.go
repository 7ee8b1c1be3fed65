package bag

import (
	"cmp"
	"slices"

	"tessera/jigsaw"
)

// A picture of a solved bag can still be no rectangle after repair and
// square: a featureless sky or sea that no best buddy holds together is
// strewn over a canvas with holes, or a block of it (the sunset's lake)
// sits beside its place. frameImage gives such a picture the rectangle a
// person expects: the picture's confident core (the largest set of pieces
// that its best-buddy adjacencies hold together) stays as it is, a frame
// of exactly its number of pieces is put around it, the other blocks held
// together by best buddies move whole into the frame's empty cells where
// their seams fit best, and the loose pieces fill the cells left (fill).

// maxFrameLayouts is how many placings of the core in a frame frameImage
// carries out, those that keep the most pieces where they are first;
// maxFrameWork bounds the dissimilarities one placing may look up for
// its blocks.
const (
	maxFrameLayouts = 16
	maxFrameWork    = 1 << 22
)

// buddies reports whether piece i turned ri and piece j turned rj, j the
// neighbour of i in direction d, touch along best-buddy sides.
func buddies(c *jigsaw.Compat, i int, ri jigsaw.Rotation, j int, rj jigsaw.Rotation, d jigsaw.Side) bool {
	a, s := jigsaw.SideAt(d, ri), jigsaw.SideAt(d.Opposite(), rj)
	x, ok := c.BestBuddy(i, a)
	return ok && int(x.Piece) == j && x.Side == s
}

// block is a set of placed pieces that best buddies hold together, in the
// coordinates of the picture's grid.
type block struct {
	cells      []jigsaw.Placed
	r0, c0     int // the top left corner of its bounds
	rows, cols int
}

// blocks returns the pieces of output image img of p grouped by the
// best-buddy adjacencies between them, the largest first. The
// adjacencies join their pieces strongest first (the lower confidence of
// the two sides, Compat.Confidence), and one is left out when the block
// it makes would fit in none of the frames of sizes: a featureless seam
// that holds a block beside its place is weaker than the block's own.
func blocks(c *jigsaw.Compat, p *jigsaw.Placement, img int, sizes [][2]int) []block {
	cells, rots, b := p.Grid(img)
	w := b.Dx()
	parent := make([]int, len(cells))
	bounds := make([]rect, len(cells))
	for i := range parent {
		parent[i] = i
		bounds[i] = rect{i / w, i % w, i/w + 1, i%w + 1}
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	type link struct {
		i, j     int
		strength float32
	}
	var links []link
	for i, pc := range cells {
		if pc < 0 {
			continue
		}
		for _, d := range [2]jigsaw.Side{jigsaw.Right, jigsaw.Bottom} {
			j := i + w
			if d == jigsaw.Right {
				if i%w+1 == w {
					continue
				}
				j = i + 1
			}
			if j >= len(cells) || cells[j] < 0 || !buddies(c, pc, rots[i], cells[j], rots[j], d) {
				continue
			}
			s := min(c.Confidence(pc, jigsaw.SideAt(d, rots[i])), c.Confidence(cells[j], jigsaw.SideAt(d.Opposite(), rots[j])))
			links = append(links, link{i, j, s})
		}
	}
	slices.SortStableFunc(links, func(a, b link) int { return cmp.Compare(b.strength, a.strength) })
	for _, l := range links {
		ri, rj := find(l.i), find(l.j)
		if ri == rj {
			continue
		}
		a, o := bounds[ri], bounds[rj]
		u := rect{min(a.r0, o.r0), min(a.c0, o.c0), max(a.r1, o.r1), max(a.c1, o.c1)}
		if !slices.ContainsFunc(sizes, func(s [2]int) bool { return s[0] >= u.rows() && s[1] >= u.cols() }) {
			continue
		}
		parent[rj], bounds[ri] = ri, u
	}
	byRoot := map[int]int{}
	var out []block
	for i, pc := range cells {
		if pc < 0 {
			continue
		}
		r := find(i)
		k, ok := byRoot[r]
		if !ok {
			k = len(out)
			byRoot[r] = k
			out = append(out, block{r0: b.Min.Y + bounds[r].r0, c0: b.Min.X + bounds[r].c0, rows: bounds[r].rows(), cols: bounds[r].cols()})
		}
		out[k].cells = append(out[k].cells, jigsaw.Placed{Piece: pc, Image: img, Row: b.Min.Y + i/w, Col: b.Min.X + i%w, Rotation: rots[i]})
	}
	slices.SortStableFunc(out, func(a, b block) int { return cmp.Compare(len(b.cells), len(a.cells)) })
	return out
}

// frameSizes returns the sizes rows x cols of exactly n cells, with an
// aspect ratio up to maxAspect when n has any such.
func frameSizes(n int) [][2]int {
	var sizes [][2]int
	for aspect := maxAspect; len(sizes) == 0; aspect = n {
		for h := 1; h <= n; h++ {
			if w := n / h; n%h == 0 && h <= aspect*w && w <= aspect*h {
				sizes = append(sizes, [2]int{h, w})
			}
		}
	}
	return sizes
}

// frames returns the rectangles of sizes that hold the core block at
// its place, at every offset, those that keep the most of the picture's
// pieces (placed) where they are first, at most maxFrameLayouts.
func frames(core block, sizes [][2]int, placed []jigsaw.Placed) []rect {
	type option struct {
		r    rect
		kept int
	}
	var opts []option
	for _, s := range sizes {
		if s[0] < core.rows || s[1] < core.cols {
			continue
		}
		for y := core.r0 + core.rows - s[0]; y <= core.r0; y++ {
			for x := core.c0 + core.cols - s[1]; x <= core.c0; x++ {
				r := rect{y, x, y + s[0], x + s[1]}
				kept := 0
				for _, q := range placed {
					if r.has(q.Row, q.Col) {
						kept++
					}
				}
				opts = append(opts, option{r, kept})
			}
		}
	}
	slices.SortStableFunc(opts, func(a, b option) int { return cmp.Compare(b.kept, a.kept) })
	out := make([]rect, 0, min(len(opts), maxFrameLayouts))
	for _, o := range opts[:min(len(opts), maxFrameLayouts)] {
		out = append(out, o.r)
	}
	return out
}

// frameImage returns the pieces of output image img of p placed in a
// full rectangle of exactly their number, the picture's largest block
// fixed (see blocks), or nil when no rectangle holds it. Of the frames
// around it (frames), it returns the one of lowest fitness (the
// dissimilarities of touching edges plus none per free edge).
func frameImage(c *jigsaw.Compat, p *jigsaw.Placement, img int, none float64) []jigsaw.Placed {
	var placed []jigsaw.Placed
	for _, q := range p.Pieces {
		if q.Image == img {
			placed = append(placed, q)
		}
	}
	n := len(placed)
	if n == 0 {
		return nil
	}
	sizes := frameSizes(n)
	bls := blocks(c, p, img, sizes)
	var best []jigsaw.Placed
	bestFit := 0.0
	for _, fr := range frames(bls[0], sizes, placed) {
		out := placeBlocks(c, fr, bls, none)
		if v := bagFitness(c.Fit(out), n, none); best == nil || v < bestFit {
			best, bestFit = out.Pieces, v
		}
	}
	for i := range best {
		best[i].Image = img
	}
	return best
}

// placeBlocks lays out the blocks bls of a picture in frame fr:
// the first where it is, then each other block of at least two pieces,
// largest first, moved whole (its pieces as turned) to the free cells
// where the fitness of its seams with the pieces placed (the
// dissimilarity of each touching pair less twice none, the free edges it
// closes) is lowest; blocks that fit nowhere and single pieces fill the
// cells left (fill). The result is a placement of one image, normalized.
func placeBlocks(c *jigsaw.Compat, fr rect, bls []block, none float64) *jigsaw.Placement {
	at := map[[2]int]jigsaw.Placed{}
	for _, q := range bls[0].cells {
		at[[2]int{q.Row, q.Col}] = q
	}
	var pool []int
	for _, bl := range bls[1:] {
		if len(bl.cells) < 2 || len(bl.cells)*fr.area()*4 > maxFrameWork {
			for _, q := range bl.cells {
				pool = append(pool, q.Piece)
			}
			continue
		}
		bestY, bestX, bestCost, found := 0, 0, 0.0, false
		for y := fr.r0; y+bl.rows <= fr.r1; y++ {
			for x := fr.c0; x+bl.cols <= fr.c1; x++ {
				dy, dx := y-bl.r0, x-bl.c0
				cost, fits := 0.0, true
				for _, q := range bl.cells {
					if _, ok := at[[2]int{q.Row + dy, q.Col + dx}]; ok {
						fits = false
						break
					}
				}
				if !fits {
					continue
				}
				touches := false
				for _, q := range bl.cells {
					for d := range jigsaw.Side(4) {
						or, oc := jigsaw.Offset(d)
						o, ok := at[[2]int{q.Row + dy + or, q.Col + dx + oc}]
						if !ok {
							continue
						}
						touches = true
						cost += float64(c.D(q.Piece, jigsaw.SideAt(d, q.Rotation), o.Piece, jigsaw.SideAt(d.Opposite(), o.Rotation))) - 2*none
					}
				}
				if touches && (!found || cost < bestCost) {
					bestY, bestX, bestCost, found = y, x, cost, true
				}
			}
		}
		if !found {
			for _, q := range bl.cells {
				pool = append(pool, q.Piece)
			}
			continue
		}
		for _, q := range bl.cells {
			q.Row += bestY - bl.r0
			q.Col += bestX - bl.c0
			at[[2]int{q.Row, q.Col}] = q
		}
	}
	p := &jigsaw.Placement{Images: 1}
	for _, q := range at {
		q.Image = 0
		p.Pieces = append(p.Pieces, q)
	}
	return fill(c, p, plan{frame: []rect{fr}, pool: pool})
}

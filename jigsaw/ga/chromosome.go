package ga

import (
	"fmt"
	"math"

	"tessera/jigsaw"
)

// problem is what every worker shares, read-only.
type problem struct {
	c          *jigsaw.Compat
	n          int
	rotated    bool
	rows, cols int32 // known frame, or 0
	bb         []int32
	kth        []float32 // the dissimilarity of each edge's last candidate
	none       float64   // the cost of an edge without neighbour
	// free, when set (pictures with holes), is the cost of each edge
	// without neighbour instead of none: its best candidate's
	// dissimilarity, what its missing neighbour would likely have cost.
	free []float32
	// bbChrom holds the best-buddy relations as a pseudo-parent: every
	// best-buddy pair of edges, placed or not.
	bbChrom *chromosome
}

func newProblem(c *jigsaw.Compat, rows, cols int, none float64) *problem {
	n := c.N()
	pr := &problem{c: c, n: n, rotated: c.Rotated(), rows: int32(rows), cols: int32(cols),
		bb: make([]int32, 4*n), kth: make([]float32, 4*n), none: none}
	pr.bbChrom = pr.newChromosome()
	for i := range n {
		for a := range jigsaw.Side(4) {
			e := 4*i + int(a)
			pr.bb[e] = -1
			if x, ok := c.BestBuddy(i, a); ok {
				pr.bb[e] = 4*x.Piece + int32(x.Side)
			}
			pr.bbChrom.rel[e] = pr.bb[e]
			pr.kth[e] = float32(math.Inf(1))
			if cs := c.Candidates(i, a); len(cs) == c.K() {
				pr.kth[e] = cs[len(cs)-1].D
			}
		}
	}
	return pr
}

// holeEdges makes every edge without neighbour cost its best candidate's
// dissimilarity, for a picture with holes:
// leaving a hole beside a piece then costs about what its lost neighbour
// would have, and two edges are joined rather than left free only when
// they fit about as well as their best candidates.
func (pr *problem) holeEdges() {
	pr.free, pr.none = make([]float32, 4*pr.n), 0
	for e := range pr.free {
		if cs := pr.c.Candidates(e>>2, jigsaw.Side(e&3)); len(cs) > 0 {
			pr.free[e] = cs[0].D
		}
	}
}

// freeCost returns the cost of edge e touching nothing.
func (pr *problem) freeCost(e int32) float64 {
	if pr.free != nil {
		return float64(pr.free[e])
	}
	return pr.none
}

// d returns the cost of edges e and f touching. With a dense table it is
// their dissimilarity, a lookup. Without one (large puzzles) it is the
// dissimilarity found in e's or f's candidate list; for a pair in neither
// list, in a frame, the larger of both edges' K-th candidates' (a lower
// bound that needs no O(PieceSize) computation), and without a frame the
// dissimilarity itself. The bound flattens the cost of poor adjacencies,
// which suits a frame (every chromosome fills it; on bgu3300, 97.5%
// neighbour accuracy with it, 94.1% with true costs), but without a frame
// it makes poor adjacencies cheaper than free edges, and a compact
// scramble beats the true assembly (neighbour accuracy 0 on a 6,600-piece
// picture). O(1) dense, else O(K), or O(PieceSize) without a frame.
func (pr *problem) d(e, f int32) float32 {
	if pr.c.Dense() {
		return pr.c.D(int(e>>2), jigsaw.Side(e&3), int(f>>2), jigsaw.Side(f&3))
	}
	if x, ok := pr.find(e, f); ok {
		return x
	}
	if x, ok := pr.find(f, e); ok {
		return x
	}
	if pr.rows == 0 {
		return pr.c.D(int(e>>2), jigsaw.Side(e&3), int(f>>2), jigsaw.Side(f&3))
	}
	return max(pr.kth[e], pr.kth[f])
}

// find looks edge f up in the candidate list of edge e.
func (pr *problem) find(e, f int32) (float32, bool) {
	for _, x := range pr.c.Candidates(int(e>>2), jigsaw.Side(e&3)) {
		if x.Piece == f>>2 && x.Side == jigsaw.Side(f&3) {
			return x.D, true
		}
	}
	return 0, false
}

// chromosome is one solution: for every edge 4*piece+side the edge it
// touches, or -1 (the relation matrix of Sholomon et al.), with the cell
// and rotation of every piece in one plane that the relations imply.
type chromosome struct {
	rel  []int32
	at   []pos
	fit  float64
	free int // edges that touch nothing
}

func (pr *problem) newChromosome() *chromosome {
	ch := &chromosome{rel: make([]int32, 4*pr.n), at: make([]pos, pr.n)}
	for e := range ch.rel {
		ch.rel[e] = -1
	}
	return ch
}

func (ch *chromosome) copyFrom(o *chromosome) {
	copy(ch.rel, o.rel)
	copy(ch.at, o.at)
	ch.fit, ch.free = o.fit, o.free
}

// rate sets ch's fitness: the sum of the dissimilarities of all touching
// edges plus pr.none for every edge that touches nothing (Sholomon et al.
// 2014), lower is better. O(n) lookups.
func (pr *problem) rate(ch *chromosome) {
	sum, free := 0.0, 0
	for e, f := range ch.rel {
		switch {
		case f < 0:
			free++
			if pr.free != nil {
				sum += float64(pr.free[e])
			}
		case int32(e) < f:
			sum += float64(pr.d(int32(e), f))
		}
	}
	ch.fit, ch.free = sum+float64(free)*pr.none, free
}

// placement converts ch to a placement; image[p] names the output image of
// piece p (nil: all in image 0, of images in all).
func (pr *problem) placement(ch *chromosome, image []int32, images int) *jigsaw.Placement {
	p := &jigsaw.Placement{Images: max(images, 1), Pieces: make([]jigsaw.Placed, pr.n)}
	for k, at := range ch.at {
		img := 0
		if image != nil {
			img = int(image[k])
		}
		p.Pieces[k] = jigsaw.Placed{Piece: k, Image: img, Row: int(at.r), Col: int(at.c), Rotation: at.rot}
	}
	p.Normalize()
	return p
}

// fromPlacement converts a placement of every piece into a chromosome, its
// output images side by side with an empty column between them.
func (pr *problem) fromPlacement(p *jigsaw.Placement) (*chromosome, error) {
	if len(p.Pieces) != pr.n {
		return nil, fmt.Errorf("ga: a seed places %d of %d pieces", len(p.Pieces), pr.n)
	}
	if err := p.Validate(pr.n, pr.rotated); err != nil {
		return nil, err
	}
	shift := make([]int, p.Images)
	left := 0
	for img := range p.Images {
		b := p.Bounds(img)
		shift[img] = left - b.Min.X
		left += b.Dx() + 1
	}
	ch := pr.newChromosome()
	cells := make(map[[2]int32]int32, pr.n)
	for _, q := range p.Pieces {
		at := pos{int32(q.Row), int32(q.Col + shift[q.Image]), q.Rotation}
		ch.at[q.Piece] = at
		cells[[2]int32{at.r, at.c}] = int32(q.Piece)
	}
	for k, at := range ch.at {
		for d := range jigsaw.Side(4) {
			if o, ok := cells[[2]int32{at.r + step[d][0], at.c + step[d][1]}]; ok {
				ch.rel[4*k+int(jigsaw.SideAt(d, at.rot))] = 4*o + int32(jigsaw.SideAt(d.Opposite(), ch.at[o].rot))
			}
		}
	}
	pr.rate(ch)
	return ch, nil
}

// fits reports whether ch's layout fits the known frame (either way round
// with rotations); without a frame, every layout fits.
func (pr *problem) fits(ch *chromosome) bool {
	if pr.rows == 0 {
		return true
	}
	b := box{ch.at[0].r, ch.at[0].r, ch.at[0].c, ch.at[0].c}
	for _, at := range ch.at {
		b = b.add(at.r, at.c)
	}
	h, w := b.r1-b.r0+1, b.c1-b.c0+1
	return h <= pr.rows && w <= pr.cols || pr.rotated && h <= pr.cols && w <= pr.rows
}

// check verifies that ch is a valid chromosome: every piece in its own
// cell, rotations allowed, relations symmetric and exactly those of the
// layout, and the layout inside the known frame.
func (pr *problem) check(ch *chromosome) error {
	cells := make(map[[2]int32]int, pr.n)
	var b box
	for k, at := range ch.at {
		key := [2]int32{at.r, at.c}
		if o, dup := cells[key]; dup {
			return fmt.Errorf("pieces %d and %d share cell (%d, %d)", o, k, at.r, at.c)
		}
		cells[key] = k
		if at.rot > 3 || (!pr.rotated && at.rot != 0) {
			return fmt.Errorf("piece %d turned by %d", k, at.rot)
		}
		if k == 0 {
			b = box{at.r, at.r, at.c, at.c}
		}
		b = b.add(at.r, at.c)
	}
	for e, f := range ch.rel {
		if f >= 0 && (int(f) >= len(ch.rel) || ch.rel[f] != int32(e)) {
			return fmt.Errorf("relation %d -> %d is not symmetric", e, f)
		}
	}
	for k, at := range ch.at {
		for d := range jigsaw.Side(4) {
			e := 4*k + int(jigsaw.SideAt(d, at.rot))
			want := int32(-1)
			if o, ok := cells[[2]int32{at.r + step[d][0], at.c + step[d][1]}]; ok {
				want = 4*int32(o) + int32(jigsaw.SideAt(d.Opposite(), ch.at[o].rot))
			}
			if ch.rel[e] != want {
				return fmt.Errorf("edge %d: relation %d, layout says %d", e, ch.rel[e], want)
			}
		}
	}
	if !pr.fits(ch) {
		return fmt.Errorf("layout %dx%d outgrows the %dx%d frame", b.r1-b.r0+1, b.c1-b.c0+1, pr.rows, pr.cols)
	}
	return nil
}

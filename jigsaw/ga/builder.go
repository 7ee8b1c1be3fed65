package ga

import (
	"math"
	"math/rand/v2"
	"slices"

	"tessera/jigsaw"
)

// pos is a piece's cell and rotation in the frame of its group.
type pos struct {
	r, c int32
	rot  jigsaw.Rotation
}

// box is a bounding box of cells, bounds inclusive.
type box struct{ r0, r1, c0, c1 int32 }

func (b box) add(r, c int32) box {
	return box{min(b.r0, r), max(b.r1, r), min(b.c0, c), max(b.c1, c)}
}

func (b box) union(o box) box {
	return box{min(b.r0, o.r0), max(b.r1, o.r1), min(b.c0, o.c0), max(b.c1, o.c1)}
}

// turn returns the cell offset (r, c) turned by rho quarter turns
// clockwise: (r, c) -> (c, -r) per turn, rows growing downwards.
func turn(r, c int32, rho jigsaw.Rotation) (int32, int32) {
	switch rho & 3 {
	case 1:
		return c, -r
	case 2:
		return -r, -c
	case 3:
		return -c, r
	}
	return r, c
}

// step is jigsaw.Offset as int32.
var step = [4][2]int32{{-1, 0}, {0, 1}, {1, 0}, {0, -1}}

// builder assembles one chromosome at a time from relations ("side a of
// piece p touches side b of piece q"): each relation starts a group of two
// pieces, inserts a piece into a group, or merges two groups, turning and
// shifting the smaller one; a relation that would put two pieces in one
// cell (or outgrow a known frame) is discarded. All its arrays are reused
// from one chromosome to the next, so building allocates nothing.
type builder struct {
	pr   *problem
	n    int
	grp  []int32 // group of each piece (the id of its first piece), -1 when not placed
	at   []pos   // cell in the group's frame
	next []int32 // next member of the same group, -1 at the end
	// per group id:
	tail, size []int32
	bbox       []box
	joins      int // successful joins; n-1 means one group
	t          cellTable
	rng        *rand.Rand
	src        *rand.PCG
	perm       []int32
	list       []int32
	singles    []int32
	holes      []hole
	holeAt     []int32
}

func newBuilder(pr *problem) *builder {
	n := pr.n
	x := &builder{pr: pr, n: n, grp: make([]int32, n), at: make([]pos, n), next: make([]int32, n),
		tail: make([]int32, n), size: make([]int32, n), bbox: make([]box, n), t: newCellTable(n),
		perm: make([]int32, n), list: make([]int32, 0, n)}
	x.src = rand.NewPCG(0, 0)
	x.rng = rand.New(x.src)
	return x
}

// reset empties the builder and reseeds its generator: what it builds
// next depends on the seed alone.
func (x *builder) reset(seed1, seed2 uint64) {
	x.src.Seed(seed1, seed2)
	for i := range x.grp {
		x.grp[i] = -1
		x.perm[i] = int32(i)
	}
	x.joins = 0
	x.t.reset()
}

func (x *builder) shuffle() {
	x.rng.Shuffle(len(x.perm), func(i, j int) { x.perm[i], x.perm[j] = x.perm[j], x.perm[i] })
}

// lookup returns the piece in cell (r, c) of group g, or -1.
func (x *builder) lookup(g, r, c int32) int32 {
	key := cellKey(g, r, c)
	t := &x.t
	for i := t.home(key); ; i = (i + 1) & t.mask {
		s := &t.slots[i]
		if s.stamp != t.stamp {
			return -1
		}
		if s.key == key {
			if p := s.piece; x.grp[p] == g && x.at[p].r == r && x.at[p].c == c {
				return p
			}
		}
	}
}

// live reports whether a slot still describes where its piece is.
func (x *builder) live(s *tableSlot) bool {
	p := s.piece
	return x.grp[p] >= 0 && s.key == cellKey(x.grp[p], x.at[p].r, x.at[p].c)
}

// insert records piece p in its current cell.
func (x *builder) insert(p int32) {
	t := &x.t
	if t.full() {
		x.rehash()
	}
	key := cellKey(x.grp[p], x.at[p].r, x.at[p].c)
	for i := t.home(key); ; i = (i + 1) & t.mask {
		s := &t.slots[i]
		if s.stamp != t.stamp {
			*s = tableSlot{key, p, t.stamp}
			t.used++
			return
		}
		if !x.live(s) {
			*s = tableSlot{key, p, t.stamp}
			return
		}
	}
}

// rehash rebuilds the table from the placed pieces, dropping stale entries.
func (x *builder) rehash() {
	x.t.reset()
	for p := range x.n {
		if x.grp[p] >= 0 {
			x.insert(int32(p))
		}
	}
}

// fits reports whether a group with bounding box b fits the known frame.
func (x *builder) fits(b box) bool {
	rows, cols := x.pr.rows, x.pr.cols
	if rows == 0 {
		return true
	}
	h, w := b.r1-b.r0+1, b.c1-b.c0+1
	return h <= rows && w <= cols || x.pr.rotated && h <= cols && w <= rows
}

// start makes piece p a group of its own, at cell (0, 0), not turned.
func (x *builder) start(p int32) {
	x.grp[p], x.at[p], x.next[p] = p, pos{}, -1
	x.tail[p], x.size[p], x.bbox[p] = p, 1, box{}
	x.insert(p)
}

// neighbourCell returns the cell that side a of placed piece p faces and
// the direction it faces.
func (x *builder) neighbourCell(p int32, a jigsaw.Side) (r, c int32, d jigsaw.Side) {
	at := x.at[p]
	d = a.Turn(at.rot)
	return at.r + step[d][0], at.c + step[d][1], d
}

// free reports whether side a of piece p touches no piece yet.
func (x *builder) free(p int32, a jigsaw.Side) bool {
	g := x.grp[p]
	if g < 0 {
		return true
	}
	r, c, _ := x.neighbourCell(p, a)
	return x.lookup(g, r, c) < 0
}

// join assigns the relation "side a of piece p touches side b of piece q"
// and reports whether it joined two groups (or pieces). It is discarded
// when both pieces are already in one group, when a cell would hold two
// pieces, or when the result would outgrow the known frame.
func (x *builder) join(p int32, a jigsaw.Side, q int32, b jigsaw.Side) bool {
	gp, gq := x.grp[p], x.grp[q]
	switch {
	case p == q:
		return false
	case gp < 0 && gq < 0:
		x.start(p)
		if !x.attach(p, a, q, b) {
			x.grp[p] = -1
			return false
		}
		return true
	case gq < 0:
		return x.attach(p, a, q, b)
	case gp < 0:
		return x.attach(q, b, p, a)
	case gp == gq:
		return false
	}
	if x.size[gp] < x.size[gq] {
		p, a, q, b = q, b, p, a
	}
	return x.merge(p, a, q, b)
}

// target returns where piece q must go, and turned how, for its side b to
// touch side a of placed piece p.
func (x *builder) target(p int32, a jigsaw.Side, b jigsaw.Side) (r, c int32, rot jigsaw.Rotation) {
	r, c, d := x.neighbourCell(p, a)
	return r, c, jigsaw.Rotation((d + 2 - b) & 3)
}

// attach puts unplaced piece q next to placed piece p.
func (x *builder) attach(p int32, a jigsaw.Side, q int32, b jigsaw.Side) bool {
	r, c, rot := x.target(p, a, b)
	if !x.pr.rotated && rot != 0 {
		return false
	}
	g := x.grp[p]
	if x.lookup(g, r, c) >= 0 {
		return false
	}
	nb := x.bbox[g].add(r, c)
	if !x.fits(nb) {
		return false
	}
	x.grp[q], x.at[q], x.next[q] = g, pos{r, c, rot}, -1
	x.next[x.tail[g]] = q
	x.tail[g] = q
	x.size[g]++
	x.bbox[g] = nb
	x.insert(q)
	x.joins++
	return true
}

// merge moves the group of q into the group of p, turned and shifted so
// that side b of q touches side a of p, unless a cell would hold two
// pieces or the frame would be outgrown. O(size of q's group).
func (x *builder) merge(p int32, a jigsaw.Side, q int32, b jigsaw.Side) bool {
	r, c, rot := x.target(p, a, b)
	rho := jigsaw.Rotation((rot - x.at[q].rot) & 3)
	if !x.pr.rotated && rho != 0 {
		return false
	}
	g, s := x.grp[p], x.grp[q]
	q0 := x.at[q]
	move := func(at pos) pos {
		dr, dc := turn(at.r-q0.r, at.c-q0.c, rho)
		return pos{r + dr, c + dc, at.rot.Add(rho)}
	}
	sb := x.bbox[s]
	c0, c1 := move(pos{r: sb.r0, c: sb.c0}), move(pos{r: sb.r1, c: sb.c1})
	nb := x.bbox[g].union(box{min(c0.r, c1.r), max(c0.r, c1.r), min(c0.c, c1.c), max(c0.c, c1.c)})
	if !x.fits(nb) {
		return false
	}
	for k := s; k >= 0; k = x.next[k] {
		m := move(x.at[k])
		if x.lookup(g, m.r, m.c) >= 0 {
			return false
		}
	}
	for k := s; k >= 0; k = x.next[k] {
		x.at[k] = move(x.at[k])
		x.grp[k] = g
		x.insert(k)
	}
	x.next[x.tail[g]] = s
	x.tail[g] = x.tail[s]
	x.size[g] += x.size[s]
	x.bbox[g] = nb
	x.joins++
	return true
}

// done reports that all pieces form one group.
func (x *builder) done() bool { return x.joins >= x.n-1 }

// crossover builds a child of parents pa and pb into out (Sholomon, David
// and Netanyahu, AAAI 2014): relations common to both parents (each
// skipped with probability mutation), then relations of either parent
// whose edges are best buddies, then each free edge's most compatible free
// edge, edges taken in random order, then random relations joining what
// is left into one group (or, with a known frame, filling it). pb may be
// pa, and with mutation 1 the child owes nothing to its parents.
func (x *builder) crossover(pa, pb *chromosome, mutation float64, out *chromosome) {
	x.shuffle()
	ra, rb := pa.rel, pb.rel
	// phase 1: common relations
	for _, p := range x.perm {
		for a := range jigsaw.Side(4) {
			e := 4*p + int32(a)
			f := ra[e]
			if f < e || rb[e] != f || (mutation > 0 && x.rng.Float64() < mutation) {
				continue
			}
			x.join(p, a, f>>2, jigsaw.Side(f&3))
		}
	}
	// phase 2: best-buddy relations of either parent
	bb := x.pr.bb
	for _, p := range x.perm {
		if x.done() {
			break
		}
		for a := range jigsaw.Side(4) {
			e := 4*p + int32(a)
			if f := bb[e]; f > e && (ra[e] == f || rb[e] == f) {
				x.join(p, a, f>>2, jigsaw.Side(f&3))
			}
		}
	}
	x.shuffle()
	x.phase3()
	x.phase4()
	x.finish(out)
}

// phase3 assigns to each free edge, in random order, its most compatible
// free edge whose relation can be assigned.
func (x *builder) phase3() {
	c := x.pr.c
	for _, p := range x.perm {
		for a := range jigsaw.Side(4) {
			if x.done() {
				return
			}
			if !x.free(p, a) {
				continue
			}
			for _, cd := range c.Candidates(int(p), a) {
				if x.free(cd.Piece, cd.Side) && x.join(p, a, cd.Piece, cd.Side) {
					break
				}
			}
		}
	}
}

// randomMember returns a random piece of group g.
func (x *builder) randomMember(g int32) int32 {
	if sz := int(x.size[g]); 4*sz >= x.n {
		for {
			if p := int32(x.rng.IntN(x.n)); x.grp[p] == g {
				return p
			}
		}
	}
	k := g
	for i := x.rng.IntN(int(x.size[g])); i > 0; i-- {
		k = x.next[k]
	}
	return k
}

// randomFreeSide returns a random side of p that touches nothing, or false.
func (x *builder) randomFreeSide(p int32) (jigsaw.Side, bool) {
	a0 := jigsaw.Side(x.rng.IntN(4))
	for i := range jigsaw.Side(4) {
		if a := (a0 + i) & 3; x.free(p, a) {
			return a, true
		}
	}
	return 0, false
}

// randomSideFacing returns a side of piece s (placed or not) to put
// against a neighbour in direction d, free, and, without rotations, the
// one that faces d+2 as s stands.
func (x *builder) randomSideFacing(s int32, d jigsaw.Side) (jigsaw.Side, bool) {
	if !x.pr.rotated {
		b := jigsaw.SideAt(d.Opposite(), x.at[s].rot)
		if x.grp[s] < 0 {
			b = d.Opposite()
		}
		return b, x.free(s, b)
	}
	return x.randomFreeSide(s)
}

// tryRandom tries a few random relations between group (or unplaced
// piece) o and group main.
func (x *builder) tryRandom(main, o int32, tries int) bool {
	for range tries {
		m := x.randomMember(main)
		a, ok := x.randomFreeSide(m)
		if !ok {
			continue
		}
		s := o
		if x.grp[o] >= 0 {
			s = x.randomMember(o)
		}
		if b, ok := x.randomSideFacing(s, a.Turn(x.at[m].rot)); ok && x.join(m, a, s, b) {
			return true
		}
	}
	return false
}

// phase4 joins what is left into one group: random relations between the
// largest group and each other group or piece, in random order. Without a
// frame, a group that fails them is attached beyond the largest group's
// right-hand side, where it collides with nothing; with a frame, it is
// broken up and its pieces fill the frame's empty cells.
func (x *builder) phase4() {
	if x.done() {
		return
	}
	main := int32(-1)
	x.list = x.list[:0]
	for _, p := range x.perm {
		switch g := x.grp[p]; {
		case g < 0:
			x.list = append(x.list, p)
		case g == p:
			x.list = append(x.list, p)
			if main < 0 || x.size[p] > x.size[main] {
				main = p
			}
		}
	}
	if main < 0 {
		main = x.list[0]
		x.start(main)
	}
	singles := x.singles[:0]
	for _, o := range x.list {
		if o == main {
			continue
		}
		if x.tryRandom(main, o, 8) {
			continue
		}
		if x.pr.rows == 0 {
			x.attachRight(main, o)
			continue
		}
		if x.grp[o] < 0 {
			singles = append(singles, o)
			continue
		}
		x.joins -= int(x.size[o]) - 1
		for k := o; k >= 0; k = x.next[k] {
			x.grp[k] = -1
			singles = append(singles, k)
		}
	}
	x.singles = singles
	if len(singles) > 0 {
		x.fillFrame(main)
	}
}

// attachRight puts group (or piece) o beyond the right-hand side of group
// main, which cannot collide.
func (x *builder) attachRight(main, o int32) {
	m := main
	for k := main; k >= 0; k = x.next[k] {
		if x.at[k].c == x.bbox[main].c1 {
			m = k
			break
		}
	}
	s := o
	if x.grp[o] >= 0 {
		for k := o; k >= 0; k = x.next[k] {
			if x.at[k].c == x.bbox[o].c0 {
				s = k
				break
			}
		}
	}
	a := jigsaw.SideAt(jigsaw.Right, x.at[m].rot)
	b := jigsaw.SideAt(jigsaw.Left, x.at[s].rot)
	if !x.join(m, a, s, b) {
		panic("ga: attaching beyond the bounding box collided")
	}
}

// fillFrame puts the pieces of x.singles into the empty cells of the frame
// around group g: the frame is laid over g's bounding box (at random where
// it leaves room), then the empty cell with the most placed neighbours
// takes the piece and rotation that fits them best, the candidates of the
// neighbours' edges first, until no piece is left.
func (x *builder) fillFrame(g int32) {
	b := x.bbox[g]
	h, w := b.r1-b.r0+1, b.c1-b.c0+1
	rows, cols := x.pr.rows, x.pr.cols
	if !(h <= rows && w <= cols) || x.pr.rotated && h <= cols && w <= rows && x.rng.IntN(2) == 1 {
		rows, cols = cols, rows
	}
	r0 := b.r1 - rows + 1 + int32(x.rng.IntN(int(rows-h+1)))
	c0 := b.c1 - cols + 1 + int32(x.rng.IntN(int(cols-w+1)))
	if len(x.holeAt) < int(rows*cols) {
		x.holeAt = make([]int32, rows*cols)
	}
	x.holes = x.holes[:0]
	for r := range rows {
		for c := range cols {
			x.holeAt[r*cols+c] = -1
			if x.lookup(g, r0+r, c0+c) < 0 {
				x.holeAt[r*cols+c] = int32(len(x.holes))
				x.holes = append(x.holes, hole{r: r0 + r, c: c0 + c})
			}
		}
	}
	for i := range x.holes {
		h := &x.holes[i]
		for d := range 4 {
			if x.lookup(g, h.r+step[d][0], h.c+step[d][1]) >= 0 {
				h.nb++
			}
		}
	}
	for len(x.singles) > 0 {
		best := -1
		for i, h := range x.holes {
			if h.nb >= 0 && (best < 0 || h.nb > x.holes[best].nb) {
				best = i
			}
		}
		h := x.holes[best]
		k, rot := x.bestForHole(g, h.r, h.c)
		p := x.singles[k]
		x.singles[k] = x.singles[len(x.singles)-1]
		x.singles = x.singles[:len(x.singles)-1]
		x.grp[p], x.at[p], x.next[p] = g, pos{h.r, h.c, rot}, -1
		x.next[x.tail[g]] = p
		x.tail[g] = p
		x.size[g]++
		x.bbox[g] = x.bbox[g].add(h.r, h.c)
		x.insert(p)
		x.joins++
		x.holes[best].nb = -1
		for d := range 4 {
			r, c := h.r+step[d][0]-r0, h.c+step[d][1]-c0
			if r >= 0 && r < rows && c >= 0 && c < cols {
				if i := x.holeAt[r*cols+c]; i >= 0 && x.holes[i].nb >= 0 {
					x.holes[i].nb++
				}
			}
		}
	}
}

// hole is an empty cell of the frame and its number of placed neighbours
// (-1 once filled).
type hole struct {
	r, c int32
	nb   int32
}

// bestForHole returns the index in x.singles of the piece, and its
// rotation, whose edges fit the pieces around cell (r, c) of group g best
// (least mean dissimilarity): among the candidates of the neighbours'
// edges when one of them is unplaced, else among all of x.singles.
func (x *builder) bestForHole(g, r, c int32) (int, jigsaw.Rotation) {
	var nb [4]neighbour
	m := 0
	for d := range jigsaw.Side(4) {
		if q := x.lookup(g, r+step[d][0], c+step[d][1]); q >= 0 {
			nb[m] = neighbour{d, q, jigsaw.SideAt(d.Opposite(), x.at[q].rot)}
			m++
		}
	}
	bestCost, bestK, bestRot := float32(math.Inf(1)), -1, jigsaw.Rotation(0)
	try := func(k int, rot jigsaw.Rotation) {
		p := x.singles[k]
		cost := float32(0)
		for _, o := range nb[:m] {
			cost += x.pr.d(4*p+int32(jigsaw.SideAt(o.dir, rot)), 4*o.piece+int32(o.side))
		}
		if cost < bestCost || bestK < 0 {
			bestCost, bestK, bestRot = cost, k, rot
		}
	}
	// the singles are few: find the candidates' positions by a scan
	for _, o := range nb[:m] {
		for _, cd := range x.pr.c.Candidates(int(o.piece), o.side) {
			if x.grp[cd.Piece] >= 0 {
				continue
			}
			rot := jigsaw.Rotation((o.dir - cd.Side) & 3)
			if !x.pr.rotated && rot != 0 {
				continue
			}
			if k := slices.Index(x.singles, cd.Piece); k >= 0 {
				try(k, rot)
			}
		}
	}
	if bestK >= 0 {
		return bestK, bestRot
	}
	for k := range x.singles {
		if x.pr.rotated {
			for rot := range jigsaw.Rotation(4) {
				try(k, rot)
			}
		} else {
			try(k, 0)
		}
	}
	return bestK, bestRot
}

// neighbour is a placed piece next to a cell: in direction dir from the
// cell, with its side that faces the cell.
type neighbour struct {
	dir   jigsaw.Side
	piece int32
	side  jigsaw.Side
}

// finish records the child: every piece's cell and rotation, and the
// relations implied by the layout.
func (x *builder) finish(out *chromosome) {
	for p := range x.n {
		at := x.at[p]
		out.at[p] = at
		g := x.grp[p]
		for d := range jigsaw.Side(4) {
			a := jigsaw.SideAt(d, at.rot)
			q := x.lookup(g, at.r+step[d][0], at.c+step[d][1])
			if q < 0 {
				out.rel[4*p+int(a)] = -1
				continue
			}
			out.rel[4*p+int(a)] = 4*q + int32(jigsaw.SideAt(d.Opposite(), x.at[q].rot))
		}
	}
}

// random lays the pieces out in random order, turned at random when the
// puzzle allows it, row by row in the known frame or else in a
// near-square rectangle (the paper's random chromosome).
func (x *builder) random(out *chromosome) {
	x.shuffle()
	w := int(x.pr.cols)
	if w == 0 {
		for w*w < x.n {
			w++
		}
	} else if x.pr.rotated && x.rng.IntN(2) == 1 {
		w = int(x.pr.rows)
	}
	g := x.perm[0]
	for k, p := range x.perm {
		var rot jigsaw.Rotation
		if x.pr.rotated {
			rot = jigsaw.Rotation(x.rng.IntN(4))
		}
		x.grp[p], x.at[p] = g, pos{int32(k / w), int32(k % w), rot}
		x.insert(p)
	}
	x.joins = x.n - 1
	x.finish(out)
}

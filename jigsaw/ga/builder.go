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
	singleAt   []int32 // index of a piece in singles, or -1
	holes      []hole
	holeAt     []int32 // index in holes of a cell of the frame, or -1
	cell       []int32 // the piece in each cell of the frame, or -1
	buckets    [5][]int32
	bucketed   bool // the empty cells are in buckets
	fr         box  // the frame laid over the layout
}

func newBuilder(pr *problem) *builder {
	n := pr.n
	x := &builder{pr: pr, n: n, grp: make([]int32, n), at: make([]pos, n), next: make([]int32, n),
		tail: make([]int32, n), size: make([]int32, n), bbox: make([]box, n), t: newCellTable(n),
		perm: make([]int32, n), list: make([]int32, 0, n), singleAt: make([]int32, n)}
	for i := range x.singleAt {
		x.singleAt[i] = -1
	}
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
		dr, dc := jigsaw.RotateCell(at.r-q0.r, at.c-q0.c, rho)
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

// phase4 joins what is left into one group. Without a frame: random
// relations between the largest group and each other group or piece, in
// random order, and a group that fails them is attached beyond the
// largest group's right-hand side, where it collides with nothing. With a
// frame, see fillFrame.
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
	if x.pr.rows > 0 {
		x.fillFrame(main)
		return
	}
	for _, o := range x.list {
		if o != main && !x.tryRandom(main, o, 8) {
			x.attachRight(main, o)
		}
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
	b := jigsaw.Left // an unplaced piece goes unturned (its x.at is stale)
	if x.grp[s] >= 0 {
		b = jigsaw.SideAt(jigsaw.Left, x.at[s].rot)
	}
	if !x.join(m, a, s, b) {
		panic("ga: attaching beyond the bounding box collided")
	}
}

// hole is an empty cell of the frame, with its number of placed
// neighbours (-1 once filled) and its place in its bucket.
type hole struct {
	r, c   int32
	nb, at int32
}

// fillFrame completes a child in a known frame. The frame is laid over
// group g's bounding box (at random where it leaves room); the other
// groups, largest first, go where all their cells land on empty cells of
// the frame and their new adjacencies cost least (fitness-wise: a
// dissimilarity less two free edges each), or are broken up when they
// fit nowhere; then the empty cell with the most placed neighbours takes,
// in turn, the left-over piece and rotation that fits those neighbours
// best. Every piece finds a cell: the frame has at least n cells.
func (x *builder) fillFrame(g int32) {
	b := x.bbox[g]
	h, w := b.r1-b.r0+1, b.c1-b.c0+1
	rows, cols := x.pr.rows, x.pr.cols
	if !(h <= rows && w <= cols) || x.pr.rotated && h <= cols && w <= rows && x.rng.IntN(2) == 1 {
		rows, cols = cols, rows
	}
	x.fr = box{r0: b.r1 - rows + 1 + int32(x.rng.IntN(int(rows-h+1))), c0: b.c1 - cols + 1 + int32(x.rng.IntN(int(cols-w+1)))}
	x.fr.r1, x.fr.c1 = x.fr.r0+rows-1, x.fr.c0+cols-1
	if len(x.holeAt) < int(rows*cols) {
		x.holeAt, x.cell = make([]int32, rows*cols), make([]int32, rows*cols)
	}
	x.holes = x.holes[:0]
	for r := x.fr.r0; r <= x.fr.r1; r++ {
		for c := x.fr.c0; c <= x.fr.c1; c++ {
			i := x.frameIndex(r, c)
			x.holeAt[i] = -1
			if x.cell[i] = x.lookup(g, r, c); x.cell[i] < 0 {
				x.holeAt[i] = int32(len(x.holes))
				x.holes = append(x.holes, hole{r: r, c: c})
			}
		}
	}
	// the other groups, largest first; the pieces left over
	x.bucketed = false
	x.singles = x.singles[:0]
	groups := x.list[:0] // filtered in place
	for _, o := range x.list {
		switch {
		case o == g:
		case x.grp[o] < 0:
			x.singles = append(x.singles, o)
		default:
			groups = append(groups, o)
		}
	}
	slices.SortStableFunc(groups, func(a, b int32) int { return int(x.size[b] - x.size[a]) })
	for _, o := range groups {
		if x.placeGroup(g, o) {
			continue
		}
		x.joins -= int(x.size[o]) - 1
		for k := o; k >= 0; k = x.next[k] {
			x.grp[k] = -1
			x.singles = append(x.singles, k)
		}
	}
	if len(x.singles) == 0 {
		return
	}
	// the empty cells in buckets by their number of placed neighbours
	for i := range x.buckets {
		x.buckets[i] = x.buckets[i][:0]
	}
	for i := range x.holes {
		hl := &x.holes[i]
		if hl.nb < 0 {
			continue
		}
		hl.nb = 0
		for d := range 4 {
			if x.occupied(g, hl.r+step[d][0], hl.c+step[d][1]) {
				hl.nb++
			}
		}
		hl.at = int32(len(x.buckets[hl.nb]))
		x.buckets[hl.nb] = append(x.buckets[hl.nb], int32(i))
	}
	x.bucketed = true
	for i, p := range x.singles {
		x.singleAt[p] = int32(i)
	}
	for len(x.singles) > 0 {
		k := 4
		for len(x.buckets[k]) == 0 {
			k--
		}
		i := x.buckets[k][len(x.buckets[k])-1]
		hl := x.holes[i]
		j, rot := x.bestForHole(hl.r, hl.c)
		p := x.singles[j]
		last := x.singles[len(x.singles)-1]
		x.singles[j], x.singleAt[last] = last, int32(j)
		x.singles = x.singles[:len(x.singles)-1]
		x.singleAt[p] = -1
		x.put(g, p, pos{hl.r, hl.c, rot})
		x.joins++
	}
}

// frameIndex returns the index of cell (r, c) of the frame in holeAt.
func (x *builder) frameIndex(r, c int32) int32 {
	return (r-x.fr.r0)*(x.fr.c1-x.fr.c0+1) + c - x.fr.c0
}

// inFrame returns the piece in cell (r, c) of the frame, or -1: in
// fillFrame, x.lookup(g, r, c) for the group g that fills the frame, in
// O(1).
func (x *builder) inFrame(r, c int32) int32 {
	if r < x.fr.r0 || r > x.fr.r1 || c < x.fr.c0 || c > x.fr.c1 {
		return -1
	}
	return x.cell[x.frameIndex(r, c)]
}

// occupied reports whether cell (r, c) holds a piece of group g.
func (x *builder) occupied(g, r, c int32) bool {
	if r < x.fr.r0 || r > x.fr.r1 || c < x.fr.c0 || c > x.fr.c1 {
		return false
	}
	i := x.holeAt[x.frameIndex(r, c)]
	return i < 0 || x.holes[i].nb < 0
}

// put places piece p in an empty cell of the frame, in group g, and
// updates the empty cells around it.
func (x *builder) put(g, p int32, at pos) {
	x.grp[p], x.at[p], x.next[p] = g, at, -1
	x.next[x.tail[g]] = p
	x.tail[g] = p
	x.size[g]++
	x.bbox[g] = x.bbox[g].add(at.r, at.c)
	x.insert(p)
	x.cell[x.frameIndex(at.r, at.c)] = p
	i := x.holeAt[x.frameIndex(at.r, at.c)]
	x.unbucket(i)
	x.holes[i].nb = -1
	for d := range 4 {
		r, c := at.r+step[d][0], at.c+step[d][1]
		if r < x.fr.r0 || r > x.fr.r1 || c < x.fr.c0 || c > x.fr.c1 {
			continue
		}
		if j := x.holeAt[x.frameIndex(r, c)]; j >= 0 && x.holes[j].nb >= 0 && x.bucketed {
			x.unbucket(j)
			x.holes[j].nb++
			x.holes[j].at = int32(len(x.buckets[x.holes[j].nb]))
			x.buckets[x.holes[j].nb] = append(x.buckets[x.holes[j].nb], j)
		}
	}
}

// unbucket takes empty cell i out of its bucket, once they are made.
func (x *builder) unbucket(i int32) {
	hl := x.holes[i]
	if !x.bucketed {
		return
	}
	bk := x.buckets[hl.nb]
	last := bk[len(bk)-1]
	bk[hl.at] = last
	x.holes[last].at = hl.at
	x.buckets[hl.nb] = bk[:len(bk)-1]
}

// placeGroup moves group o into empty cells of the frame around group g,
// turned and shifted where its new adjacencies cost least, and reports
// whether any position fits. O(empty cells * rotations) positions, most
// rejected at the first piece that does not land on an empty cell.
func (x *builder) placeGroup(g, o int32) bool {
	at0 := x.at[o]
	bestCost, found := 0.0, false
	var bestHole int32
	var bestRho jigsaw.Rotation
	rhos := jigsaw.Rotation(1)
	if x.pr.rotated {
		rhos = 4
	}
	for hi := range x.holes {
		anchor := x.holes[hi]
		if anchor.nb < 0 {
			continue
		}
		for rho := range rhos {
			ok := true
			for k := o; k >= 0; k = x.next[k] {
				dr, dc := jigsaw.RotateCell(x.at[k].r-at0.r, x.at[k].c-at0.c, rho)
				r, c := anchor.r+dr, anchor.c+dc
				if r < x.fr.r0 || r > x.fr.r1 || c < x.fr.c0 || c > x.fr.c1 {
					ok = false
					break
				}
				if i := x.holeAt[x.frameIndex(r, c)]; i < 0 || x.holes[i].nb < 0 {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			cost := 0.0
			for k := o; k >= 0; k = x.next[k] {
				dr, dc := jigsaw.RotateCell(x.at[k].r-at0.r, x.at[k].c-at0.c, rho)
				r, c := anchor.r+dr, anchor.c+dc
				rot := x.at[k].rot.Add(rho)
				for d := range jigsaw.Side(4) {
					q := x.inFrame(r+step[d][0], c+step[d][1])
					if q < 0 {
						continue
					}
					e := 4*k + int32(jigsaw.SideAt(d, rot))
					f := 4*q + int32(jigsaw.SideAt(d.Opposite(), x.at[q].rot))
					if x.pr.free != nil {
						cost += float64(x.pr.d(e, f)) - x.pr.freeCost(e) - x.pr.freeCost(f)
					} else {
						cost += float64(x.pr.d(e, f)) - 2*x.pr.none
					}
				}
			}
			if !found || cost < bestCost {
				bestCost, bestHole, bestRho, found = cost, int32(hi), rho, true
			}
		}
	}
	if !found {
		return false
	}
	anchor := x.holes[bestHole]
	for k := o; k >= 0; {
		next := x.next[k]
		dr, dc := jigsaw.RotateCell(x.at[k].r-at0.r, x.at[k].c-at0.c, bestRho)
		x.put(g, k, pos{anchor.r + dr, anchor.c + dc, x.at[k].rot.Add(bestRho)})
		k = next
	}
	x.joins++
	return true
}

// fallbackTries bounds the left-over pieces that bestForHole tries when
// none of them is a candidate of the neighbours' edges.
const fallbackTries = 16

// bestForHole returns the index in x.singles of the piece, and its
// rotation, whose edges fit the pieces around cell (r, c) of the frame best
// (least total dissimilarity): among the candidates of the neighbours'
// edges when one of them is left over, else among at most fallbackTries of the
// left-over pieces.
func (x *builder) bestForHole(r, c int32) (int, jigsaw.Rotation) {
	var nb [4]neighbour
	m := 0
	for d := range jigsaw.Side(4) {
		if q := x.inFrame(r+step[d][0], c+step[d][1]); q >= 0 {
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
	for _, o := range nb[:m] {
		for _, cd := range x.pr.c.Candidates(int(o.piece), o.side) {
			rot := jigsaw.Rotation((o.dir - cd.Side) & 3)
			if k := x.singleAt[cd.Piece]; k >= 0 && (x.pr.rotated || rot == 0) {
				try(int(k), rot)
			}
		}
	}
	if bestK >= 0 {
		return bestK, bestRot
	}
	n := len(x.singles)
	from, count := 0, n
	if n > fallbackTries {
		from, count = x.rng.IntN(n), fallbackTries
	}
	for i := range count {
		k := (from + i) % n
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

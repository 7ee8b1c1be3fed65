package greedy

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"

	"tessera/jigsaw"
)

// Solver is the greedy solver's settings. The zero value assembles from
// DefaultStarts pieces with the default compatibilities (MGC) and, for a
// picture of unknown size, assembles again in the estimated frame.
type Solver struct {
	// CompatOptions configure the compatibilities, when the Problem does
	// not bring them.
	CompatOptions jigsaw.CompatOptions
	// NoFrame keeps an assembly of unknown size as it grew. By default
	// Solve estimates the frame from it (a rectangle of n cells covering
	// the most pieces) and assembles again inside that frame.
	NoFrame bool
	// Starts is the number of assemblies tried, from the most distinctive
	// pieces in turn (0: DefaultStarts); the one whose adjacencies are the
	// most compatible is kept.
	Starts int
	// Accept is, for a puzzle with missing and stray pieces
	// (Problem.Holes), the least fit of a piece placed (0: DefaultAccept).
	Accept float64
}

// DefaultStarts is the default number of assemblies tried.
const DefaultStarts = 4

// options are one Solve's settings and problem.
type options struct {
	Solver
	rows, cols, images int
	// holes: stop when no candidate fits better than accept (Problem.Holes)
	holes  bool
	accept float32
}

type cell struct{ img, row, col int32 }

type placed struct {
	cell
	rot jigsaw.Rotation
}

// slot is an empty cell next to placed pieces, with its best candidate.
type slot struct {
	version int32
	piece   int32
	rot     jigsaw.Rotation
	key     float32
}

type entry struct {
	key     float32
	c       cell
	version int32
}

// queue is a binary max-heap of entries (by key, then cell), typed so
// that pushing allocates nothing beyond the slice's growth.
type queue []entry

func (q queue) less(i, j int) bool {
	if q[i].key != q[j].key {
		return q[i].key > q[j].key
	}
	a, b := q[i].c, q[j].c
	if a.img != b.img {
		return a.img < b.img
	}
	if a.row != b.row {
		return a.row < b.row
	}
	return a.col < b.col
}

func (q *queue) push(e entry) {
	*q = append(*q, e)
	h := *q
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (q *queue) pop() {
	h := *q
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < n && h.less(l, m) {
			m = l
		}
		if l+1 < n && h.less(l+1, m) {
			m = l + 1
		}
		if m == i {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	*q = h
}

type solver struct {
	c       *jigsaw.Compat
	n       int
	rotated bool
	rows    int
	cols    int
	holes   bool
	accept  float32
	// order lists the pieces in the order placed; with holes, sure is
	// how many were placed before no candidate fitted Accept any more
	// (-1 until then).
	order    []int32
	sure     int
	pos      []placed
	isPlaced []bool
	grid     map[cell]int32
	slots    map[cell]slot
	q        queue
	unplaced []int32 // pieces not placed, in any order
	where    []int32 // index of a piece in unplaced
	// bounds per image: min/max row and column
	bounds [][4]int32
	second []float32 // SecondD per edge
}

// Solve assembles the problem's puzzle greedily in the manner of Paikin & Tal (CVPR
// 2015): it starts from a distinctive piece (best buddies on every side,
// whose best buddies have best buddies on every side) and repeatedly fills
// the empty cell next to the assembly whose best candidate piece (and
// rotation) fits best, preferring candidates that are best buddies of
// their neighbours; a candidate's fit is Paikin & Tal's compatibility
// (1 - D / second best D) averaged over both edges of every neighbour it
// would touch. Candidates come from each edge's best-K list; when those
// are used up, from all remaining pieces. With Problem.Rows and Cols the
// assembly stays inside that frame. With Problem.Images = k, a new image
// is started from a fresh distinctive piece whenever no candidate is a
// best buddy, until k are started.
//
// Solve assembles from the Solver.Starts most distinctive pieces in
// parallel and keeps the assembly with the highest mean compatibility
// over its adjacencies. For a single image of unknown size it then
// estimates the frame, the rows x cols = n rectangle (aspect ratio at most
// 4) that covers the most of that assembly, and, when it covers at least
// 90% of the pieces, assembles again inside it (unless Solver.NoFrame):
// without a frame, pieces of the picture's border tend to be attached
// outside it. When the first assembly is too sparse for that (a picture
// with large featureless areas), it assembles in every such frame and keeps
// the one that rates best (best-buddy share less half the excess
// perimeter, as the GA chooses), so the answer is a full rectangle rather
// than a canvas with gaps.
//
// Time O(n^2 p) for the compatibilities (see jigsaw.NewCompat) plus about
// O(n K log n) per assembly. The result does not depend on the number of
// cores. If ctx ends, Solve returns the pieces placed so far and
// ctx.Err().
func (sv Solver) Solve(ctx context.Context, p *jigsaw.Problem) (jigsaw.Result, error) {
	start := time.Now()
	pz := p.Puzzle
	if pz == nil || len(pz.Pieces) == 0 {
		return jigsaw.Result{}, jigsaw.ErrNoPieces
	}
	n := len(pz.Pieces)
	if (p.Rows > 0) != (p.Cols > 0) || p.Rows < 0 || p.Cols < 0 {
		return jigsaw.Result{}, fmt.Errorf("greedy: give both Rows and Cols, or neither (got %dx%d)", p.Rows, p.Cols)
	}
	if p.Rows > 0 && p.Rows*p.Cols < n && !p.Holes {
		return jigsaw.Result{}, fmt.Errorf("greedy: %d pieces do not fit %dx%d", n, p.Rows, p.Cols)
	}
	if p.Images < 0 || p.Images > n {
		return jigsaw.Result{}, fmt.Errorf("greedy: %d images of %d pieces", p.Images, n)
	}
	images := max(p.Images, 1)
	if images > 1 && p.Rows > 0 {
		return jigsaw.Result{}, errors.New("greedy: a known size applies to a single image")
	}
	opts := options{Solver: sv, rows: p.Rows, cols: p.Cols, images: images}
	var res jigsaw.Result
	c, err := p.CompatOf(ctx, opts.CompatOptions, &res, "greedy")
	if err != nil {
		return res, err
	}
	if p.Holes {
		if images > 1 {
			return res, errors.New("greedy: missing and stray pieces (Problem.Holes) in a mixed bag")
		}
		return sv.solveHoles(ctx, c, opts, res, start)
	}
	s, err := assemble(ctx, c, opts, images)
	if err == nil && images == 1 && opts.rows == 0 && !opts.NoFrame {
		// Unknown size: estimate the frame from the first assembly and
		// assemble again inside it, which keeps pieces of the picture's
		// border from being attached outside it.
		if h, w, ok := estimateFrame(s); ok {
			framed := opts
			framed.rows, framed.cols = h, w
			if s2, err2 := assemble(ctx, c, framed, 1); err2 == nil {
				s = s2
				res.Frame = [2]int{h, w}
			}
		} else if s2, f, ok := searchFrame(ctx, c, opts); ok {
			// Too sparse to read a frame from (a picture with large
			// featureless areas): the best assembly among the frames of
			// exactly n cells, rather than a canvas full of gaps.
			s, res.Frame = s2, f
		}
	}
	res.Placement = s.placement(images)
	res.Finish(c, start)
	return res, err
}

// assemble runs the assembly from opts.Starts seeds, each on its own
// goroutine (they are independent, so the result does not depend on the
// schedule), and keeps the one whose adjacencies are the most compatible.
func assemble(ctx context.Context, c *jigsaw.Compat, opts options, images int) (*solver, error) {
	starts := opts.Starts
	if starts <= 0 {
		starts = DefaultStarts
	}
	seeds := newSolver(c, opts).seeds(starts)
	type outcome struct {
		s     *solver
		score float64
		err   error
	}
	outs := make([]outcome, len(seeds))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	for i, seed := range seeds {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			s := newSolver(c, opts)
			err := s.run(ctx, images, seed)
			outs[i] = outcome{s, s.objective(), err}
		})
	}
	wg.Wait()
	best := 0
	for i := range outs {
		if outs[i].err == nil && (outs[best].err != nil || outs[i].score > outs[best].score) {
			best = i
		}
	}
	return outs[best].s, outs[best].err
}

// searchFrame assembles the pieces in every rows x cols frame of exactly n
// cells with an aspect ratio of at most 4 and returns the assembly that
// rates best: the share of its adjacencies that are best buddies, less half
// the relative excess of its perimeter over the most nearly square frame's
// (as the GA chooses its frame). ok is false when no frame holds an
// assembly or ctx ends. Cost: one assembly per frame (the divisors of n).
func searchFrame(ctx context.Context, c *jigsaw.Compat, opts options) (best *solver, frame [2]int, ok bool) {
	n := c.N()
	var fs [][2]int
	for r := 1; r*r <= n; r++ {
		if n%r != 0 || n/r > 4*r {
			continue
		}
		fs = append(fs, [2]int{r, n / r})
		if !c.Rotated() && r != n/r {
			fs = append(fs, [2]int{n / r, r})
		}
	}
	if len(fs) == 0 {
		return nil, frame, false
	}
	sq := fs[len(fs)-1] // the most nearly square
	bestScore := math.Inf(-1)
	for _, f := range fs {
		framed := opts
		framed.rows, framed.cols = f[0], f[1]
		s, err := assemble(ctx, c, framed, 1)
		if ctx.Err() != nil {
			return nil, frame, false
		}
		if err != nil {
			continue // no room in this frame
		}
		excess := float64(f[0]+f[1])/float64(sq[0]+sq[1]) - 1
		if v := c.Fit(s.placement(1)).BestBuddyShare() - excess/2; v > bestScore {
			best, frame, bestScore = s, f, v
		}
	}
	return best, frame, best != nil
}

// estimateFrame returns the rows x cols of a rectangle of exactly n cells
// (aspect ratio at most 4) that covers the most pieces of the assembly,
// in its orientation; ok is false when there is no such rectangle or the
// assembly is too sparse to judge.
func estimateFrame(s *solver) (rows, cols int, ok bool) {
	b := s.bounds[0]
	bh, bw := int(b[1]-b[0])+1, int(b[3]-b[2])+1
	if bh*bw > 16*s.n {
		return 0, 0, false
	}
	// prefix sums of occupancy over the bounding box
	ps := make([]int32, (bh+1)*(bw+1))
	for k := range s.n {
		if s.isPlaced[k] {
			q := s.pos[k]
			ps[(int(q.row-b[0])+1)*(bw+1)+int(q.col-b[2])+1] = 1
		}
	}
	for r := 1; r <= bh; r++ {
		for c := 1; c <= bw; c++ {
			ps[r*(bw+1)+c] += ps[(r-1)*(bw+1)+c] + ps[r*(bw+1)+c-1] - ps[(r-1)*(bw+1)+c-1]
		}
	}
	cover := func(h, w int) int {
		best := 0
		for r := 0; r+h <= bh; r++ {
			for c := 0; c+w <= bw; c++ {
				v := ps[(r+h)*(bw+1)+c+w] - ps[r*(bw+1)+c+w] - ps[(r+h)*(bw+1)+c] + ps[r*(bw+1)+c]
				best = max(best, int(v))
			}
		}
		return best
	}
	bestCover := 0
	for h := 1; h <= s.n; h++ {
		if s.n%h != 0 {
			continue
		}
		w := s.n / h
		if h > 4*w || w > 4*h || h > bh || w > bw {
			continue
		}
		if v := cover(h, w); v > bestCover {
			rows, cols, bestCover = h, w, v
		}
	}
	return rows, cols, bestCover > 0 && 10*bestCover >= 9*s.n
}

func newSolver(c *jigsaw.Compat, opts options) *solver {
	n := c.N()
	s := &solver{c: c, n: n, rotated: c.Rotated(), rows: opts.rows, cols: opts.cols, holes: opts.holes, accept: opts.accept, sure: -1,
		pos: make([]placed, n), isPlaced: make([]bool, n), grid: make(map[cell]int32, 2*n),
		slots: make(map[cell]slot, n), unplaced: make([]int32, n), where: make([]int32, n),
		second: make([]float32, 4*n)}
	for i := range n {
		s.unplaced[i], s.where[i] = int32(i), int32(i)
		for a := range jigsaw.Side(4) {
			s.second[4*i+int(a)] = c.SecondD(i, a)
		}
	}
	return s
}

// run assembles the pieces, starting the first image from piece first.
func (s *solver) run(ctx context.Context, images, first int) error {
	started := 0
	for count := 0; len(s.unplaced) > 0; count++ {
		if count&63 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		e, ok := s.best()
		if s.holes && started > 0 && !ok {
			return nil // the frame is full: set the rest aside
		}
		if s.holes && started > 0 && e.key < s.accept && s.sure < 0 {
			// Nothing fits well any more: go on with what fits best,
			// remembering where the sure placements ended (setAside).
			s.sure = len(s.order)
		}
		if !ok || (started < images && e.key < bbBonus) {
			// start an image (from a distinctive piece) when there is none
			// yet, or when there are images to start and no candidate is a
			// best buddy
			if started >= images {
				return fmt.Errorf("greedy: %d pieces left with no room in the frame", len(s.unplaced))
			}
			seed := first
			if started > 0 {
				seed = s.seeds(1)[0]
			}
			s.place(seed, cell{img: int32(started)}, 0)
			started++
			continue
		}
		sl := s.slots[e.c]
		s.place(int(sl.piece), e.c, sl.rot)
	}
	return nil
}

// best returns, without removing it, the queued slot with the best
// current candidate, dropping stale entries and re-evaluating slots whose
// candidate was placed elsewhere.
func (s *solver) best() (entry, bool) {
	for len(s.q) > 0 {
		e := s.q[0]
		sl, ok := s.slots[e.c]
		if !ok || sl.version != e.version || !s.fits(e.c) {
			s.q.pop()
			continue
		}
		if s.isPlaced[sl.piece] {
			s.q.pop()
			s.evaluate(e.c)
			continue
		}
		return e, true
	}
	return entry{}, false
}

// place puts piece k at cell at with rotation r and updates the slots
// around it.
func (s *solver) place(k int, at cell, r jigsaw.Rotation) {
	s.isPlaced[k] = true
	s.order = append(s.order, int32(k))
	s.pos[k] = placed{at, r}
	s.grid[at] = int32(k)
	delete(s.slots, at)
	i := s.where[k]
	last := s.unplaced[len(s.unplaced)-1]
	s.unplaced[i], s.where[last] = last, i
	s.unplaced = s.unplaced[:len(s.unplaced)-1]
	for int(at.img) >= len(s.bounds) {
		s.bounds = append(s.bounds, [4]int32{at.row, at.row, at.col, at.col})
	}
	b := &s.bounds[at.img]
	b[0], b[1], b[2], b[3] = min(b[0], at.row), max(b[1], at.row), min(b[2], at.col), max(b[3], at.col)
	for d := range jigsaw.Side(4) {
		dr, dc := jigsaw.Offset(d)
		nc := cell{at.img, at.row + int32(dr), at.col + int32(dc)}
		if _, full := s.grid[nc]; !full {
			s.evaluate(nc)
		}
	}
}

// fits reports whether cell at keeps its image inside the known frame.
func (s *solver) fits(at cell) bool {
	if s.rows == 0 {
		return true
	}
	b := s.bounds[at.img]
	h := int(max(b[1], at.row)-min(b[0], at.row)) + 1
	w := int(max(b[3], at.col)-min(b[2], at.col)) + 1
	if h <= s.rows && w <= s.cols {
		return true
	}
	return s.rotated && h <= s.cols && w <= s.rows
}

type neighbour struct {
	dir   jigsaw.Side // direction from the slot to the neighbour
	piece int
	side  jigsaw.Side // the neighbour's own side that faces the slot
}

// bbBonus is added to the fit of a candidate that is the best buddy of
// every neighbour it touches, so that such candidates go first.
const bbBonus = 1

// evaluate finds the best candidate of an empty cell and queues it.
func (s *solver) evaluate(at cell) {
	sl := s.slots[at]
	sl.version++
	s.slots[at] = sl
	if !s.fits(at) {
		return
	}
	var nb [4]neighbour
	m := 0
	for d := range jigsaw.Side(4) {
		dr, dc := jigsaw.Offset(d)
		if k, ok := s.grid[cell{at.img, at.row + int32(dr), at.col + int32(dc)}]; ok {
			nb[m] = neighbour{d, int(k), jigsaw.SideAt(d.Opposite(), s.pos[k].rot)}
			m++
		}
	}
	if m == 0 {
		return
	}
	bestKey := float32(math.Inf(-1))
	bestPiece, bestRot := int32(-1), jigsaw.Rotation(0)
	try := func(j int32, r jigsaw.Rotation) {
		if key := s.fit(int(j), r, nb[:m]); key > bestKey {
			bestKey, bestPiece, bestRot = key, j, r
		}
	}
	for _, x := range nb[:m] {
		for _, cand := range s.c.Candidates(x.piece, x.side) {
			if !s.isPlaced[cand.Piece] {
				// cand.Side must face the neighbour: SideAt(x.dir, r) == cand.Side
				try(cand.Piece, jigsaw.Rotation((x.dir-cand.Side)&3))
			}
		}
	}
	if bestPiece < 0 {
		for _, j := range s.unplaced {
			if s.rotated {
				for r := range jigsaw.Rotation(4) {
					try(j, r)
				}
			} else {
				try(j, 0)
			}
		}
	}
	if bestPiece < 0 {
		return
	}
	sl.piece, sl.rot, sl.key = bestPiece, bestRot, bestKey
	s.slots[at] = sl
	s.q.push(entry{bestKey, at, sl.version})
}

// fit scores piece j turned by r against the given neighbours.
func (s *solver) fit(j int, r jigsaw.Rotation, nb []neighbour) float32 {
	sum := float32(0)
	allBuddies := true
	for _, x := range nb {
		side := jigsaw.SideAt(x.dir, r)
		d := s.c.D(j, side, x.piece, x.side)
		if math.IsInf(float64(d), 1) {
			return float32(math.Inf(-1))
		}
		s1, s2 := s.second[4*j+int(side)], s.second[4*x.piece+int(x.side)]
		sum += 1 - ((d+1e-6)/(s1+1e-6)+(d+1e-6)/(s2+1e-6))/2
		if allBuddies {
			b1, ok1 := s.c.BestBuddy(j, side)
			allBuddies = ok1 && int(b1.Piece) == x.piece && b1.Side == x.side
		}
	}
	key := sum / float32(len(nb))
	if allBuddies {
		key += bbBonus
	}
	return key
}

// seeds returns up to m unplaced pieces to start an image from, best
// first: those whose best buddies, and theirs, cover the most sides, ties
// broken by the confidence of their edges, then by index.
func (s *solver) seeds(m int) []int {
	type scored struct {
		piece int
		score float32
	}
	var all []scored
	for _, j32 := range s.unplaced {
		j := int(j32)
		score := float32(0)
		for a := range jigsaw.Side(4) {
			b, ok := s.c.BestBuddy(j, a)
			if !ok || s.isPlaced[b.Piece] {
				continue
			}
			score += 1 + s.c.Confidence(j, a)
			for a2 := range jigsaw.Side(4) {
				if b2, ok2 := s.c.BestBuddy(int(b.Piece), a2); ok2 && !s.isPlaced[b2.Piece] {
					score += 0.25
				}
			}
		}
		all = append(all, scored{j, score})
	}
	slices.SortFunc(all, func(a, b scored) int {
		if a.score != b.score {
			return cmp.Compare(b.score, a.score)
		}
		return cmp.Compare(a.piece, b.piece)
	})
	out := make([]int, 0, m)
	for _, x := range all[:min(m, len(all))] {
		out = append(out, x.piece)
	}
	return out
}

// objective rates a finished assembly without the truth: the mean, over
// its adjacencies, of Paikin & Tal's compatibility of the two edges.
func (s *solver) objective() float64 {
	sum, pairs := 0.0, 0
	for k := range s.n {
		if !s.isPlaced[k] {
			continue
		}
		q := s.pos[k]
		for _, d := range [2]jigsaw.Side{jigsaw.Right, jigsaw.Bottom} {
			dr, dc := jigsaw.Offset(d)
			o, ok := s.grid[cell{q.img, q.row + int32(dr), q.col + int32(dc)}]
			if !ok {
				continue
			}
			a, b := jigsaw.SideAt(d, q.rot), jigsaw.SideAt(d.Opposite(), s.pos[o].rot)
			sum += float64(s.c.Compatibility(k, a, int(o), b)+s.c.Compatibility(int(o), b, k, a)) / 2
			pairs++
		}
	}
	if pairs == 0 {
		return math.Inf(-1)
	}
	return sum / float64(pairs)
}

func (s *solver) placement(images int) *jigsaw.Placement {
	p := &jigsaw.Placement{Images: images}
	for k := range s.n {
		if s.isPlaced[k] {
			q := s.pos[k]
			p.Pieces = append(p.Pieces, jigsaw.Placed{Piece: k, Image: int(q.img), Row: int(q.row), Col: int(q.col), Rotation: q.rot})
		}
	}
	p.Normalize()
	return p
}

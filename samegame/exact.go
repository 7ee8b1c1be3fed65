package samegame

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
)

// The exact Dust solver: iterative-deepening A* on the number of clicks
// (Korf 1985) with a transposition table of learned lower bounds, on bit
// boards (so for boards of at most 64 cells, such as the dust game's 8x6).
//
// The bound h(b) is the number of colours left, plus one when no colour is
// a single group (then the next click cannot finish a colour, so at least
// colours+1 clicks remain). It is admissible: every colour needs a click,
// and a click removes one group of one colour. It also prunes inside a
// node: when the clicks so far plus one plus the colours exceed the bound,
// only clicks that remove a colour's last group can still succeed.
//
// A click's reach (bitGeom.reach) bounds the cells it can change, so a
// board's single groups after a click are known to lie among a few
// colours without playing it (maySingle): when no colour can become a
// single group, the child needs its colours plus one, and the click is
// pruned or given that bound before it is played (TestReach checks the
// lemma on every click of random games). Two clicks whose reaches are
// apart commute (TestCommute): the search keeps sleep sets (Godefroid
// 1996), so that such a pair is tried in one order only, and the chain
// test skips a first click that its own child's search covers.
//
// The half bound (exact_half.go) comes from the optima of the board's two
// halves in relaxed games of their own (no cell crosses the centre under
// Dust rules): it is taken for every child that the colours do not prune
// and that does not get the chain test (the chain test stands for the
// search only where the colours' bound is the child's). mayFresh, a test
// on the groups' shadows, spares maySingle most of its work. Measured on
// the issue 43 set: docs/results/samegame.md.
//
// The table maps a board's 64-bit hash to the best lower bound on its
// remaining clicks proved so far: when a depth-first iteration fails below
// a board, the least bound over its children plus one is stored. Later
// iterations and transpositions (the same board reached by clicks in
// another order) start from the learned bound, so each iteration mostly
// re-walks the parts that can still succeed. With a known solution of U
// clicks (from a beam search first), the search stops when the bound
// reaches U: failing at U-1 proves U optimal, so the costly last iteration
// is often never run. Each iteration costs about ten times the previous
// one, so a board whose optimum is two clicks above its neighbours' takes
// about a hundred times longer to prove.

// table is the transposition table: buckets of two entries, each packing
// the upper 58 bits of a hash with a 6-bit lower bound. The first entry of
// a bucket keeps the highest bound seen (bounds near the root stand for
// the largest searches), the second takes the rest.
type table struct {
	e     []uint64
	shift uint
}

func newTable(bits int) *table {
	return &table{e: make([]uint64, 1<<bits), shift: uint(64 - bits + 1)}
}

// get returns the stored lower bound for hash h, or 0.
func (t *table) get(h uint64) int {
	i := (h >> t.shift) << 1
	if v := t.e[i]; v>>6 == h>>6 {
		return int(v & 63)
	}
	if v := t.e[i+1]; v>>6 == h>>6 {
		return int(v & 63)
	}
	return 0
}

// put stores lower bound lb for hash h.
func (t *table) put(h uint64, lb int) {
	i := (h >> t.shift) << 1
	v := h&^63 | uint64(min(lb, 63))
	switch {
	case t.e[i]>>6 == h>>6:
		t.e[i] = max(t.e[i], v)
	case t.e[i+1]>>6 == h>>6 && lb <= int(t.e[i]&63):
		t.e[i+1] = max(t.e[i+1], v)
	case lb >= int(t.e[i]&63):
		t.e[i], t.e[i+1] = v, t.e[i]
	default:
		t.e[i+1] = v
	}
}

type exactSearch struct {
	ctx     context.Context
	geom    *bitGeom
	tt      *table
	nodes   int64 // boards expanded, including those of chain
	ticks   int64 // calls of search, for the periodic checks
	max     int64
	err     error
	path    []uint64       // the groups clicked from the root to the current board
	found   []uint64       // the solution, once found
	levels  [][]bitGroup   // per depth: the groups of the board being searched
	kids    [][]exactChild // per depth: the children worth a look
	reaches [][]uint64     // per depth: the reaches of the single groups
	shadows [][]uint64     // per depth: the groups' shadows (for mayFresh)
	sleep   [][]uint64     // per depth: the clicks not to make (sleep sets)
	pending Solution       // for Progress
	half    *halfSearch    // the half bound (nil where it does not apply)
	halves  [][2]int8      // per depth: the relaxed optima of the board's halves
	opts    *options
}

// exactChild is a child of a board in the exact search.
type exactChild struct {
	board    bitBoard
	hash     uint64
	mask     uint64
	reach    uint64 // the click's reach on the parent (for the sleep sets)
	lb, size int
	halves   [2]int8 // the relaxed optima of the child's halves
}

// solveExact proves the fewest clicks for a Dust board of at most 64 cells.
func solveExact(ctx context.Context, b *Board, opts options) (Solution, error) {
	if !fitsBits(b) {
		return Solution{}, fmt.Errorf("%w: exact handles boards of at most 64 cells, not %dx%d", ErrUnsupported, b.w, b.h)
	}
	if b.IsEmpty() {
		return Solution{Cleared: true, Optimal: true}, nil
	}
	// An upper bound from beam search: a narrow beam at once, then a wide
	// one (width 5,000 finds the optimum of about 9 random 8x6 boards in
	// 10). When it is optimal, the search ends with the failed iteration
	// below it.
	var upper Solution
	if opts.naiveUpper {
		for c := b.Clone(); !c.IsEmpty(); {
			g := c.Moves(nil)[0]
			c.PlayGroup(g)
			upper.Moves = append(upper.Moves, g.Move())
		}
		if err := finish(b, &upper); err != nil {
			return upper, err
		}
	} else {
		var err error
		if upper, err = solveBeam(ctx, b, options{BeamWidth: 200}); err != nil {
			return upper, err
		}
		if wide, err := solveBeam(ctx, b, options{BeamWidth: 5000}); err == nil && wide.Clicks < upper.Clicks {
			upper = wide
		}
	}
	bits := opts.TableBits
	if bits == 0 {
		bits = 23
	}
	if bits < 10 || bits > 32 {
		return Solution{}, fmt.Errorf("samegame: table bits %d out of range (10 to 32)", bits)
	}
	geom := newBitGeom(b)
	n := b.Cells() + 2
	e := &exactSearch{ctx: ctx, geom: geom, tt: newTable(bits), max: opts.MaxNodes, opts: &opts, half: newHalfSearch(geom),
		levels: make([][]bitGroup, n), kids: make([][]exactChild, n), reaches: make([][]uint64, n), shadows: make([][]uint64, n), halves: make([][2]int8, n), sleep: make([][]uint64, n), pending: upper}
	sol := upper
	sol.Optimal = false
	root := geom.toBits(b)
	bound := geom.colorsLeft(&root)
	if e.half != nil {
		e.halves[0] = e.half.optima(&root, geom.all, [2]int8{})
		bound = max(bound, e.half.bound(e.halves[0]))
	}
	rootLB := bound
	for bound < upper.Clicks {
		e.sleep[0] = e.sleep[0][:0]
		lb := e.search(&root, geom.hash(&root), rootLB, 0, bound)
		if e.found != nil {
			sol.Moves = e.moves(b)
			break
		}
		if e.err != nil {
			sol.Nodes += e.allNodes()
			if err := finish(b, &sol); err != nil {
				return sol, err
			}
			return sol, e.err
		}
		bound = max(bound+1, lb)
	}
	sol.Optimal = true
	sol.Nodes += e.allNodes()
	return sol, finish(b, &sol)
}

// allNodes returns the boards expanded, the half bound's included.
func (e *exactSearch) allNodes() int64 {
	if e.half == nil {
		return e.nodes
	}
	return e.nodes + e.half.nodes
}

// moves converts the found groups to clicks by replaying them on b.
func (e *exactSearch) moves(b *Board) []Move {
	moves := make([]Move, len(e.found))
	for i, m := range e.found {
		moves[i] = e.geom.move(m)
	}
	return moves
}

// search looks for a solution of at most bound clicks from s (at depth
// g, with hash h and a lower bound lb0 on its clicks left, from its colours
// and the table) and returns a lower bound on s's remaining clicks. It
// sets e.found when it finds one.
func (e *exactSearch) search(s *bitBoard, h uint64, lb0, g, bound int) int {
	geom := e.geom
	singles, k := e.colours(s, g)
	lb := lb0
	if len(singles) == 0 {
		lb = max(lb, k+1)
	}
	if g+lb > bound {
		return lb // cheap to find again: not worth a table entry
	}
	if e.tick() != nil {
		return lb
	}
	// A click that leaves every colour on the board leaves at least k
	// colours; when that alone exceeds the bound, only the clicks that
	// finish a colour (the single groups) need a look.
	groups := singles
	best := 1 << 30
	if g+1+k > bound {
		best = 1 + k
		if len(singles) == 1 {
			// All the groups, for maySingle below.
			groups = geom.groups(s, singles[len(singles):], 1)
		}
	} else {
		groups = geom.groups(s, singles[len(singles):], 1)
	}
	e.levels[g] = groups
	// span[c] .. span[c+1]: the groups of colour c (when groups are all).
	span := geom.spans(groups)
	if len(singles) > 0 && g+1+k == bound {
		// The reaches of the single groups, for the chain tests below.
		e.reaches[g] = e.reaches[g][:0]
		for _, y := range singles {
			e.reaches[g] = append(e.reaches[g], geom.reach(s, y.mask))
		}
	}
	// Children in three passes: play them (pruning those whose colours
	// alone exceed the bound), then look their bounds up in the table
	// (independent loads that the memory system overlaps), then search.
	kids := e.kids[g][:0]
	// The shadows of the groups, for mayFresh (0: not computed yet).
	shadows := append(e.shadows[g][:0], make([]uint64, len(groups))...)
	e.shadows[g] = shadows
	for i, grp := range groups {
		if slices.Contains(e.sleep[g], grp.mask) {
			// Searched from a sibling of this board: it failed there
			// with one click less to spare than this board has now.
			best = min(best, bound-g+1)
			continue
		}
		finishes := grp.mask == s.planes[grp.color]
		if !finishes && g+1+k > bound {
			continue
		}
		// When no colour but the clicked one is a single group, the
		// child's single groups are those that maySingle allows: with none,
		// the child needs its colours plus one.
		noSingle, skip := false, uint16(0)
		if len(singles) == 0 || len(singles) == 1 && grp.mask == singles[0].mask {
			left := k
			if finishes {
				left--
			}
			fresh := e.mayFresh(groups, shadows, &span, i) && e.maySingle(s, groups, &span, i)
			if noSingle = left > 0 && !fresh; noSingle && g+2+left > bound {
				best = min(best, 2+left)
				continue
			}
		} else if !finishes && g+1+k == bound {
			// The child gets the chain test. A chain that starts with a
			// single group Y of this board whose reach is apart from the
			// click's is the search below Y's own child (the two clicks
			// commute, TestCommute), so the test skips it; with nothing
			// else to start with, the click is not played.
			z := geom.reach(s, grp.mask)
			all := true
			for j, y := range singles {
				if e.reaches[g][j]&z == 0 {
					skip |= 1 << y.color
				} else {
					all = false
				}
			}
			if all && !(e.mayFresh(groups, shadows, &span, i) && e.maySingle(s, groups, &span, i)) {
				best = min(best, 2+k)
				continue
			}
		}
		kids = append(kids, exactChild{board: *s, mask: grp.mask, size: int(grp.size)})
		c := &kids[len(kids)-1]
		geom.play(&c.board, grp.mask, int(grp.color))
		if c.board.occ == 0 {
			e.found = append(append([]uint64(nil), e.path...), grp.mask)
			return 1
		}
		c.lb = geom.colorsLeft(&c.board)
		if noSingle {
			c.lb++
		}
		// A child with no click to spare by its colours gets the chain
		// test below; the others, the half bound.
		chain := g+1+c.lb == bound && !noSingle
		if e.half != nil && g+1+c.lb <= bound && !chain {
			c.halves = e.half.optima(&c.board, grp.mask, e.halves[g])
			c.lb = max(c.lb, e.half.bound(c.halves))
		}
		if g+1+c.lb > bound {
			best = min(best, 1+c.lb)
			kids = kids[:len(kids)-1]
			continue
		}
		if chain {
			// No click to spare below: only clicks that each remove a
			// whole colour can do. That small search is cheaper than a
			// table lookup (and most boards here fail it at once).
			e.path = append(e.path, grp.mask)
			if e.chain(&c.board, skip) {
				return 1 + c.lb
			}
			e.path = e.path[:len(e.path)-1]
			best = min(best, 2+c.lb)
			kids = kids[:len(kids)-1]
			continue
		}
		c.hash = geom.hash(&c.board)
	}
	e.kids[g] = kids
	best, stop := e.descend(s, g, bound, kids, best)
	if stop {
		return best
	}
	best = max(best, lb)
	e.tt.put(h, best)
	return best
}

// colours returns the number of colours on s and those of them that are
// a single group (in e.levels[g]'s storage): one flood fill per colour.
func (e *exactSearch) colours(s *bitBoard, g int) (singles []bitGroup, k int) {
	singles = e.levels[g][:0]
	for c := range e.geom.colors {
		p := s.planes[c]
		if p == 0 {
			continue
		}
		k++
		if e.geom.connected(p) {
			singles = append(singles, bitGroup{mask: p, color: int8(c), size: int8(bits.OnesCount64(p))})
		}
	}
	return singles, k
}

// tick counts a node; every 4,096 nodes it checks the budget and reports
// progress. It returns the search's error (set by the budget).
func (e *exactSearch) tick() error {
	e.nodes++
	if e.ticks++; e.ticks&4095 == 0 {
		e.err = checkBudget(e.ctx, e.nodes, e.max)
		if e.opts.Progress != nil {
			e.pending.Nodes = e.nodes
			e.opts.Progress(e.pending)
		}
	}
	return e.err
}

// spans returns where each colour's groups start in groups (ordered by
// colour): span[c] .. span[c+1] are colour c's.
func (g *bitGeom) spans(groups []bitGroup) (span [MaxColors + 1]int) {
	for _, grp := range groups {
		span[grp.color+1]++
	}
	for c := range g.colors {
		span[c+1] += span[c]
	}
	return span
}

// descend is search's last pass over the children of s (at depth g) that
// the first passes kept: it looks their bounds up in the table, orders
// them and searches each with its sleep set. It returns the least bound
// found with best, the bound so far, or the depth of a solution (or the
// bound at an error) with stop set.
func (e *exactSearch) descend(s *bitBoard, g, bound int, kids []exactChild, best int) (int, bool) {
	geom := e.geom
	for i := range kids {
		kids[i].lb = max(kids[i].lb, e.tt.get(kids[i].hash))
	}
	// Most promising first (lowest bound, then the larger group): this
	// only matters in the iteration that finds a solution.
	slices.SortStableFunc(kids, func(x, y exactChild) int {
		if x.lb != y.lb {
			return x.lb - y.lb
		}
		return y.size - x.size
	})
	for i := range kids {
		c := &kids[i]
		c.reach = geom.reach(s, c.mask)
		if g+1+c.lb > bound {
			best = min(best, 1+c.lb)
			continue
		}
		// The sleep set of the child: the clicks searched before it
		// that commute with it (reaches apart: TestCommute). Below the
		// child, such a click leads to a board already searched with the
		// same clicks to spare (the two clicks in the other order).
		sleep := e.sleep[g+1][:0]
		for _, o := range kids[:i] {
			if o.reach&c.reach == 0 {
				sleep = append(sleep, o.mask)
			}
		}
		// This board's own sleepers stay asleep while they commute.
		for _, z := range e.sleep[g] {
			if geom.reach(s, z)&c.reach == 0 {
				sleep = append(sleep, z)
			}
		}
		e.sleep[g+1] = sleep
		e.path = append(e.path, c.mask)
		e.halves[g+1] = c.halves
		d := 1 + e.search(&c.board, c.hash, c.lb, g+1, bound)
		e.path = e.path[:len(e.path)-1]
		if e.found != nil || e.err != nil {
			return d, true
		}
		best = min(best, d)
	}
	return best, false
}

// maySingle reports whether clicking groups[i] (groups: all the groups of
// a board, colour by colour) may leave as a single group a colour that is
// not one now, and returns the click's reach. For a colour with two
// groups or more besides the click, that needs every one of them to meet
// the reach: a group outside it is a group after the click as before, and
// another group of its colour stays on the board. A colour left with one
// group by the click (its own) may be one.
func (e *exactSearch) maySingle(s *bitBoard, groups []bitGroup, span *[MaxColors + 1]int, i int) bool {
	moved := e.geom.changes(s, groups[i].mask)
	z := moved | e.geom.neighbours(moved)
	moved &^= groups[i].mask
	d := int(groups[i].color)
	for c := range e.geom.colors {
		others := span[c+1] - span[c]
		if c == d {
			if others--; others == 1 {
				return true
			}
		}
		if others < 2 || s.planes[c]&moved == 0 {
			// With none of its cells moved, a colour keeps its groups.
			continue
		}
		// The groups of a colour come lowest first, the least likely to
		// meet a reach (it covers the cells above a click).
		all := true
		for j := span[c]; all && j < span[c+1]; j++ {
			all = j == i || groups[j].mask&z != 0
		}
		if all {
			return true
		}
	}
	return false
}

// mayFresh is a quick test that maySingle needs to pass: the click
// groups[i] may make a colour a single group only when its colour has two
// groups, or when it holds a cell of the shadow of every group of a colour
// of two groups or more (but itself): such a colour's groups must all meet
// the click's reach. shadows[j] caches shadow(groups[j].mask) (0: not
// computed yet).
func (e *exactSearch) mayFresh(groups []bitGroup, shadows []uint64, span *[MaxColors + 1]int, i int) bool {
	x := groups[i]
	d := int(x.color)
	if span[d+1]-span[d] == 2 {
		return true
	}
	for c := range e.geom.colors {
		if span[c+1]-span[c] < 2 {
			continue
		}
		all := true
		for j := span[c]; all && j < span[c+1]; j++ {
			if j == i {
				continue
			}
			if shadows[j] == 0 {
				shadows[j] = e.geom.shadow(groups[j].mask)
			}
			all = shadows[j]&x.mask != 0
		}
		if all {
			return true
		}
	}
	return false
}

// shadow returns the cells p such that a Dust click holding p may have a
// reach (bitGeom.reach) that meets grp: every click whose reach meets grp
// holds a cell of shadow(grp) (TestShadow).
//
// Proof: the reach is the changes ch and their neighbours, so a reach
// that meets grp holds a cell q of ch in grp or next to it (in D, grp and
// its neighbours). By changes, q = (qx, qy) lies, for a column x where the
// click has cells, the lowest at row y0, in column x or outward of it in
// its half (qx in out[x]), and qy >= y0: the removed cells of column x
// lie in rows y0 .. n-1 (n the column's height), so the band of rows
// n-r .. n-1 starts at y0 or above. The shadow holds every cell (x, y)
// with y <= qy and qx in out[x], for each q in D: D filled down, then
// spread toward the centre within each half. So it holds (x, y0), a cell
// of the click.
func (g *bitGeom) shadow(grp uint64) uint64 {
	d := grp | g.neighbours(grp)
	w := uint(g.w)
	for sh := w; sh < uint(g.w*g.h); sh <<= 1 {
		d |= d >> sh
	}
	for range g.w/2 - 1 {
		d |= (d & g.packRight) << 1
	}
	for range g.w - g.w/2 - 1 {
		d |= (d & g.packLeft) >> 1
	}
	return d
}

// chain reports whether s (not empty) can be cleared by clicks that each
// remove a colour's single group, and then sets e.found (e.path holds the
// clicks to s). The first click is none of the colours in skip, single
// groups whose lines are searched elsewhere.
//
// Two single colours whose reaches are apart commute (TestCommute), so
// after the lines that start with one, those that start with the other
// skip it as their next click (a sleep set: Godefroid 1996); a skipped
// colour stays skipped below while it commutes with the clicks made.
func (e *exactSearch) chain(s *bitBoard, skip uint16) bool {
	geom := e.geom
	e.nodes++
	var singles []int
	var all [MaxColors]int
	for c := range geom.colors {
		if p := s.planes[c]; p != 0 && geom.connected(p) {
			singles = append(all[:len(singles)], c)
		}
	}
	var reach [MaxColors]uint64
	if len(singles) > 1 {
		for _, c := range singles {
			reach[c] = geom.reach(s, s.planes[c])
		}
	}
	done := skip
	for _, c := range singles {
		if skip&(1<<c) != 0 {
			continue
		}
		p := s.planes[c]
		child := *s
		geom.play(&child, p, c)
		e.path = append(e.path, p)
		if child.occ == 0 {
			e.found = append([]uint64(nil), e.path...)
			return true
		}
		sleep := uint16(0)
		for _, y := range singles {
			if done&(1<<y) != 0 && reach[y]&reach[c] == 0 {
				sleep |= 1 << y
			}
		}
		if e.chain(&child, sleep) {
			return true
		}
		e.path = e.path[:len(e.path)-1]
		done |= 1 << c
	}
	return false
}

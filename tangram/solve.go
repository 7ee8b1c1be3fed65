package tangram

import (
	"context"
	"fmt"
	"time"
)

// Solver is what every tangram method provides (the shape DESIGN.md asks
// of every family): a value carrying its parameters with one method.
type Solver interface {
	Solve(ctx context.Context, p *Puzzle) (Result, error)
}

// Result is what a solver returns: a solution (complete when Solved, else
// the best partial one, the most area placed), with statistics.
type Result struct {
	Solution *Solution
	Solved   bool
	Nodes    int64 // pieces placed by the search, all branches
	Elapsed  time.Duration
	// SDP holds Algorithm 2's iterations and iterates (nil for others).
	SDP *SDPStats
}

// Exact is the reference solver: a complete backtracking search over
// exact geometry. The uncovered region U (silhouette minus the pieces
// placed so far) is kept as a cancelled boundary chain. Take a convex
// corner v of U (wedge less than a half-turn) and its outgoing boundary
// edge: in any completion, the piece covering the part of the wedge next
// to that edge has a vertex at v, its own outgoing edge along the edge
// and an angle that fits in the wedge. So the branches at v are just the
// remaining pieces (identical pieces tried once) in their allowed
// orientations with such a vertex, and the translation is forced: a piece
// vertex meets a vertex of U (of the silhouette or of a placed piece). A
// candidate is kept when no edge of U meets its interior (exact:
// separating axes for convex pieces, crossings and interior midpoints
// otherwise), which with the wedge puts it inside U. Areas add up by
// Puzzle.Validate, so placing every piece fills U, and the answer is
// checked by Check before it is returned.
//
// The corner: by default the convex corner of U with the fewest fitting
// placements, which also ends a branch at once when some corner has none
// (dead-end pruning on the whole boundary); with LowestLeft, always the
// lowest-leftmost point of U, which is a convex corner.
//
// Complexity: at most (pieces × orientations × vertices) branches per
// level, one level per piece; each candidate costs O(|U| · |piece|)
// predicates, and the default rule tries every corner of U per node.
type Exact struct {
	// MaxNodes bounds the pieces placed over the whole search; 0 means
	// no bound. Past it Solve returns ErrBudget with the best partial
	// solution.
	MaxNodes int64
	// LowestLeft branches always at the lowest-leftmost corner of U
	// instead of the most constrained corner: cheaper nodes, a larger
	// tree when pieces may turn or there are many (two sets of tans with
	// turns, 50 generated puzzles: median 605 nodes and all within 4 s by
	// default, median 15,484 nodes and one past a minute with LowestLeft).
	LowestLeft bool
}

// Solve searches for a solution. It returns ErrUnsolvable (wrapped) when
// the search completes without one, ErrBudget (wrapped) when MaxNodes or
// the context ends it first, with the best partial solution in Result
// either way.
func (e Exact) Solve(ctx context.Context, p *Puzzle) (Result, error) {
	start := time.Now()
	st, err := e.prepare(ctx, p)
	if err != nil {
		return Result{}, err
	}
	found := st.dfs(0)
	res := Result{Nodes: st.nodes, Elapsed: time.Since(start)}
	switch {
	case found:
		res.Solution, res.Solved = st.sol.Clone(), true
		if err := Check(p, res.Solution); err != nil {
			return res, fmt.Errorf("tangram: exact: internal error, the solution fails the check: %w", err)
		}
		return res, nil
	case st.stopped != nil:
		res.Solution = st.best
		return res, st.stopped
	default:
		res.Solution = st.best
		return res, fmt.Errorf("%w: exact search of %d nodes", ErrUnsolvable, st.nodes)
	}
}

// variant is one orientation of a piece, with what the search needs.
type variant struct {
	o      Orientation
	shape  Polygon
	convex bool
}

type search struct {
	ctx      context.Context
	p        *Puzzle
	maxNodes int64
	nodes    int64
	stopped  error

	mostConstrained bool
	// counting: go on past a solution, counting them up to limit.
	counting bool
	found    int64
	limit    int64
	first    *Solution

	variants [][]variant
	class    []int // pieces with equal class are interchangeable
	used     []bool
	u        chain // boundary of the uncovered region, counter-clockwise
	sol      *Solution
	best     *Solution
	bestArea float64
	area     float64
	areas    []float64
}

// prepare returns e's search of p, p checked first.
func (e Exact) prepare(ctx context.Context, p *Puzzle) (*search, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	st, err := newSearch(ctx, p, e.MaxNodes)
	if err != nil {
		return nil, err
	}
	st.mostConstrained = !e.LowestLeft
	return st, nil
}

func newSearch(ctx context.Context, p *Puzzle, maxNodes int64) (*search, error) {
	n := len(p.Pieces)
	st := &search{ctx: ctx, p: p, maxNodes: maxNodes, variants: make([][]variant, n), class: make([]int, n),
		used: make([]bool, n), sol: NewSolution(n), best: NewSolution(n), areas: make([]float64, n)}
	keys := map[string]int{}
	for k, pc := range p.Pieces {
		st.areas[k] = pc.Shape.Area().Float64()
		seen := map[string]bool{}
		key := ""
		for o := range Orientation(16) {
			if !p.Turns.Allows(o) {
				continue
			}
			sh, err := pc.Shape.Oriented(o)
			if err != nil {
				continue // a 45-degree turn that is not exact is not offered
			}
			norm := sh.Normalize()
			id := norm.Translate(norm[0].Neg()).String()
			if seen[id] {
				continue
			}
			seen[id] = true
			if key == "" || id < key {
				key = id
			}
			st.variants[k] = append(st.variants[k], variant{o, sh, convex(sh)})
		}
		if len(st.variants[k]) == 0 {
			return nil, fmt.Errorf("tangram: exact: piece %d (%s) has no exact orientation", k+1, pc.Name)
		}
		// pieces are interchangeable when their sets of shapes agree.
		all := ""
		for _, v := range st.variants[k] {
			nv := v.shape.Normalize()
			all += nv.Translate(nv[0].Neg()).String() + ";"
		}
		if _, ok := keys[all]; !ok {
			keys[all] = len(keys)
		}
		st.class[k] = keys[all]
	}
	p.addRegion(&st.u, 1)
	return st, nil
}

func (st *search) dfs(depth int) bool {
	if depth == len(st.p.Pieces) {
		if !st.u.empty() {
			return false
		}
		if !st.counting {
			return true
		}
		st.found++
		if st.first == nil {
			st.first = st.sol.Clone()
		}
		return st.limit > 0 && st.found >= st.limit
	}
	segs := st.u.segments()
	if len(segs) == 0 {
		return false
	}
	var cands []cand
	if st.mostConstrained {
		cands = st.fewest(segs)
	} else {
		// v: the lowest-leftmost point of U, and its first wedge.
		v := segs[0].a
		for _, s := range segs {
			if s.a.Less(v) {
				v = s.a
			}
		}
		out, end, ok := wedge(v, segs)
		if !ok {
			return false // not a closed boundary; cannot happen
		}
		cands = st.candidates(v, out, end, segs, -1)
	}
	for _, c := range cands {
		st.nodes++
		if st.maxNodes > 0 && st.nodes > st.maxNodes {
			st.stopped = fmt.Errorf("%w: %d nodes (MaxNodes)", ErrBudget, st.maxNodes)
			return false
		}
		if st.nodes&1023 == 0 {
			if err := st.ctx.Err(); err != nil {
				st.stopped = fmt.Errorf("%w: %v after %d nodes", ErrBudget, err, st.nodes)
				return false
			}
		}
		saved := st.u.clone()
		st.u.addPolygon(c.placed, -1)
		st.used[c.k] = true
		st.sol.Place(c.k, c.t, c.o)
		st.area += st.areas[c.k]
		if st.area > st.bestArea {
			st.bestArea = st.area
			st.best = st.sol.Clone()
		}
		if st.dfs(depth + 1) {
			return true
		}
		st.area -= st.areas[c.k]
		st.sol.Placements[c.k] = Placement{}
		st.used[c.k] = false
		st.u = saved
		if st.stopped != nil {
			return false
		}
	}
	return false
}

// CountResult is what Exact.Count returns.
type CountResult struct {
	// Solutions found: all of them when Complete, else at least this many.
	Solutions int64
	// Complete: the search ran to its end (Solutions is exact).
	Complete bool
	// First is the first solution found (nil when none).
	First   *Solution
	Nodes   int64
	Elapsed time.Duration
}

// Count runs the exact search to its end and counts the distinct
// solutions, stopping at limit (0: no limit) with Complete false. Two
// solutions are distinct when the sets of placed polygons differ: the
// search places one piece of each class of interchangeable pieces (the two
// large triangles, the two small ones) at a time and each polygon once, so
// swapping identical pieces is not counted, while a figure's symmetry (a
// tiling and its mirror image in a symmetric figure) is. MaxNodes and the
// context end it with ErrBudget and the count so far. The first solution
// is checked by Check.
func (e Exact) Count(ctx context.Context, p *Puzzle, limit int64) (CountResult, error) {
	start := time.Now()
	st, err := e.prepare(ctx, p)
	if err != nil {
		return CountResult{}, err
	}
	st.counting, st.limit = true, limit
	hitLimit := st.dfs(0)
	res := CountResult{Solutions: st.found, First: st.first, Nodes: st.nodes, Elapsed: time.Since(start)}
	res.Complete = !hitLimit && st.stopped == nil
	if res.First != nil {
		if err := Check(p, res.First); err != nil {
			return res, fmt.Errorf("tangram: exact: internal error, the solution fails the check: %w", err)
		}
	}
	return res, st.stopped
}

// cand is a placement that fits a corner of U.
type cand struct {
	k      int
	o      Orientation
	t      Point
	placed Polygon
}

// wedge returns, at the point v of U's boundary where the outgoing edge
// of smallest angle from the +x axis starts, that edge's direction and the
// first reversed incoming edge counter-clockwise from it.
func wedge(v Point, segs []seg) (out, end Point, ok bool) {
	haveOut := false
	for _, s := range segs {
		if s.a == v {
			d := s.b.Sub(s.a)
			if !haveOut || angleLess(Point{Int(1), Int(0)}, d, out) {
				out, haveOut = d, true
			}
		}
	}
	if !haveOut {
		return out, end, false
	}
	end, ok = wedgeEnd(v, out, segs)
	return out, end, ok
}

// wedgeEnd returns the first reversed incoming edge at v counter-clockwise
// from the outgoing direction out.
func wedgeEnd(v, out Point, segs []seg) (end Point, ok bool) {
	for _, s := range segs {
		if s.b == v {
			d := s.a.Sub(s.b)
			if !ok || angleLess(out, d, end) {
				end, ok = d, true
			}
		}
	}
	return end, ok
}

// candidates lists the placements of unused pieces (one per class of
// interchangeable pieces) with a vertex at v, an edge along out and an
// angle within the wedge from out to end, that fit in U. With limit >= 0
// it stops once it has more than limit.
func (st *search) candidates(v, out, end Point, segs []seg, limit int) []cand {
	var cs []cand
	tried := map[int]bool{}
	for k := range st.p.Pieces {
		if st.used[k] || tried[st.class[k]] {
			continue
		}
		tried[st.class[k]] = true
		for _, vr := range st.variants[k] {
			m := len(vr.shape)
			for j := range m {
				w, nx, pv := vr.shape[j], vr.shape[(j+1)%m], vr.shape[(j+m-1)%m]
				d := nx.Sub(w)
				if cross(out, d).sign() != 0 || dot(out, d).sign() <= 0 {
					continue
				}
				if angleLess(out, end, pv.Sub(w)) {
					continue // the piece's angle does not fit the wedge
				}
				t := v.Sub(w)
				placed := vr.shape.Translate(t)
				if !st.fits(placed, vr.convex, segs) {
					continue
				}
				cs = append(cs, cand{k, vr.o, t, placed})
				if limit >= 0 && len(cs) > limit {
					return cs
				}
			}
		}
	}
	return cs
}

// fewest returns the candidates of the convex corner of U that has the
// fewest (none when some corner cannot be filled: a dead end).
func (st *search) fewest(segs []seg) []cand {
	var best []cand
	have := false
	for _, s := range segs {
		out := s.b.Sub(s.a)
		end, ok := wedgeEnd(s.a, out, segs)
		if !ok || cross(out, end).sign() <= 0 {
			continue // not a convex corner
		}
		limit := -1
		if have {
			limit = len(best) - 1
		}
		cs := st.candidates(s.a, out, end, segs, limit)
		if !have || len(cs) < len(best) {
			best, have = cs, true
			if len(best) == 0 {
				return nil
			}
		}
	}
	return best
}

// fits reports whether no segment of U meets the interior of placed.
func (st *search) fits(placed Polygon, isConvex bool, segs []seg) bool {
	for _, s := range segs {
		if isConvex {
			if segMeetsConvex(s.a, s.b, placed) {
				return false
			}
		} else if segMeetsInterior(s.a, s.b, placed) {
			return false
		}
	}
	return true
}

// angleLess reports whether direction a comes strictly before direction b
// turning counter-clockwise from base (angles in [0, 2π), base at 0).
func angleLess(base, a, b Point) bool {
	ha, hb := halfFrom(base, a), halfFrom(base, b)
	if ha != hb {
		return ha < hb
	}
	return cross(a, b).sign() > 0
}

// halfFrom is 0 for directions at angle [0, π) from base, 1 for [π, 2π).
func halfFrom(base, d Point) int {
	c := cross(base, d).sign()
	if c > 0 || c == 0 && dot(base, d).sign() > 0 {
		return 0
	}
	return 1
}

// segMeetsConvex reports whether segment ab meets the interior of the
// convex counter-clockwise polygon pg: by separating axes, it does not
// exactly when ab lies on or right of an edge line of pg, or pg lies on
// one closed side of the line ab.
func segMeetsConvex(a, b Point, pg Polygon) bool {
	n := len(pg)
	for i := range n {
		c, d := pg[i], pg[(i+1)%n]
		if orient(c, d, a) <= 0 && orient(c, d, b) <= 0 {
			return false
		}
	}
	left, right := false, false
	for _, v := range pg {
		switch orient(a, b, v) {
		case 1:
			left = true
		case -1:
			right = true
		}
	}
	return left && right
}

// segMeetsInterior reports whether segment ab meets the interior of the
// simple counter-clockwise polygon pg: a proper crossing with an edge, or
// a piece of ab between consecutive vertices of pg lying on it whose
// midpoint is strictly inside pg.
func segMeetsInterior(a, b Point, pg Polygon) bool {
	n := len(pg)
	ab := b.Sub(a)
	cuts := []zr2{dot(Point{}, ab), dot(ab, ab)} // parameters of a and b (·4)
	pts := []Point{a, b}
	for i := range n {
		c, d := pg[i], pg[(i+1)%n]
		if properCross(a, b, c, d) {
			return true
		}
		if orient(a, b, c) == 0 && onSegment(a, b, c) && c != a && c != b {
			cuts = append(cuts, dot(c.Sub(a), ab))
			pts = append(pts, c)
		}
	}
	// sort the cut points along ab (few of them: insertion sort).
	for i := 1; i < len(cuts); i++ {
		for j := i; j > 0 && cuts[j].cmp(cuts[j-1]) < 0; j-- {
			cuts[j], cuts[j-1] = cuts[j-1], cuts[j]
			pts[j], pts[j-1] = pts[j-1], pts[j]
		}
	}
	dbl := make(Polygon, n)
	for i, v := range pg {
		dbl[i] = v.Add(v)
	}
	for i := 0; i+1 < len(pts); i++ {
		if dbl.inside(pts[i].Add(pts[i+1])) > 0 {
			return true
		}
	}
	return false
}

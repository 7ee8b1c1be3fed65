package tangram

import "slices"

// chain is a 1-chain of oriented segments with integer weights, kept
// cancelled: segments on one line add up interval by interval, so a
// segment and its reverse cancel, also when they are cut differently (an
// edge of length 2 against two of length 1). Only vertices ever become
// breakpoints, so no intersection point is computed and everything stays
// exact.
//
// The boundary of a union of interior-disjoint polygons is the sum of
// their boundaries as chains; pieces tile a silhouette exactly if and only
// if the chain Σ∂(piece) − ∂(silhouette) is zero (the winding number of
// the difference vanishes everywhere), which is the paper's edge-matching
// condition (6) and (26) for every f.
type chain struct {
	lines []cline
}

// cline is the part of a chain on one line o + s·d: breakpoints at
// parameters ts (sorted, ts = 4·(p−o)·d) with their points, and the weight
// ms[k] on [ts[k], ts[k+1]], positive along d.
type cline struct {
	o, d Point
	ts   []zr2
	pts  []Point
	ms   []int // len(ts)-1 entries
}

func (c *chain) clone() chain {
	out := chain{lines: make([]cline, len(c.lines))}
	for i, l := range c.lines {
		out.lines[i] = cline{o: l.o, d: l.d, ts: slices.Clone(l.ts), pts: slices.Clone(l.pts), ms: slices.Clone(l.ms)}
	}
	return out
}

// addPolygon adds the edges of pg with weight w.
func (c *chain) addPolygon(pg Polygon, w int) {
	n := len(pg)
	for i := range n {
		c.add(pg[i], pg[(i+1)%n], w)
	}
}

// add adds the oriented segment a→b with weight w.
func (c *chain) add(a, b Point, w int) {
	ab := b.Sub(a)
	li := -1
	for i := range c.lines {
		l := &c.lines[i]
		if cross(l.d, ab).sign() == 0 && cross(l.d, a.Sub(l.o)).sign() == 0 {
			li = i
			break
		}
	}
	if li < 0 {
		c.lines = append(c.lines, cline{o: a, d: ab})
		li = len(c.lines) - 1
	}
	l := &c.lines[li]
	ta, tb := dot(a.Sub(l.o), l.d), dot(b.Sub(l.o), l.d)
	if dot(ab, l.d).sign() < 0 {
		w = -w
		ta, tb = tb, ta
		a, b = b, a
	}
	i := l.split(ta, a)
	j := l.split(tb, b)
	for k := i; k < j; k++ {
		l.ms[k] += w
	}
	l.tidy()
}

// split makes t a breakpoint and returns its index.
func (l *cline) split(t zr2, p Point) int {
	k, found := slices.BinarySearchFunc(l.ts, t, func(x, y zr2) int { return x.cmp(y) })
	if found {
		return k
	}
	l.ts = slices.Insert(l.ts, k, t)
	l.pts = slices.Insert(l.pts, k, p)
	switch {
	case len(l.ts) == 1:
	case k == 0:
		l.ms = slices.Insert(l.ms, 0, 0)
	case k == len(l.ts)-1:
		l.ms = append(l.ms, 0)
	default:
		l.ms = slices.Insert(l.ms, k, l.ms[k-1])
	}
	return k
}

// tidy drops breakpoints with the same weight on both sides.
func (l *cline) tidy() {
	w := func(k int) int { // weight left of breakpoint k
		if k == 0 {
			return 0
		}
		return l.ms[k-1]
	}
	r := func(k int) int {
		if k == len(l.ts)-1 {
			return 0
		}
		return l.ms[k]
	}
	for k := 0; k < len(l.ts); {
		if w(k) == r(k) {
			l.ts = slices.Delete(l.ts, k, k+1)
			l.pts = slices.Delete(l.pts, k, k+1)
			switch {
			case len(l.ts) == 0:
				l.ms = l.ms[:0]
			case k == 0:
				l.ms = slices.Delete(l.ms, 0, 1)
			default:
				l.ms = slices.Delete(l.ms, k-1, k)
			}
			continue
		}
		k++
	}
}

// empty reports whether the chain is zero.
func (c *chain) empty() bool {
	for _, l := range c.lines {
		if len(l.ts) > 0 {
			return false
		}
	}
	return true
}

// seg is an oriented segment of a chain with its weight (its multiplicity
// along a→b, at least 1).
type seg struct {
	a, b Point
	w    int
}

// segments lists the chain's non-zero pieces as oriented segments.
func (c *chain) segments() []seg {
	var out []seg
	for _, l := range c.lines {
		for k, m := range l.ms {
			switch {
			case m > 0:
				out = append(out, seg{l.pts[k], l.pts[k+1], m})
			case m < 0:
				out = append(out, seg{l.pts[k+1], l.pts[k], -m})
			}
		}
	}
	return out
}

// boundaryPolygons walks a chain whose segments all have weight 1 and in
// which every point has as many segments in as out, and returns its
// cycles as polygons, collinear vertices removed. ok is false when some
// point has more than one segment out (the boundary touches itself).
func (c *chain) boundaryPolygons() (pgs []Polygon, ok bool) {
	segs := c.segments()
	next := map[Point]int{}
	for i, s := range segs {
		if s.w != 1 {
			return nil, false
		}
		if _, dup := next[s.a]; dup {
			return nil, false
		}
		next[s.a] = i
	}
	cs, ok := cycles(segs, func(k, _ int, _ []bool) (int, bool) {
		j, found := next[segs[k].b]
		return j, found
	})
	if !ok {
		return nil, false
	}
	for _, pg := range cs {
		pgs = append(pgs, dropCollinear(pg))
	}
	return pgs, true
}

// cycles walks segs into cycles: from each segment not yet used, on to
// next(k, start, used), the segment after segment k on the walk that
// started at segment start (false: the walk is stuck, and so is cycles),
// until it comes back to a used one. It returns each walk's points.
func cycles(segs []seg, next func(k, start int, used []bool) (int, bool)) ([]Polygon, bool) {
	var out []Polygon
	used := make([]bool, len(segs))
	for i := range segs {
		if used[i] {
			continue
		}
		var pg Polygon
		for k := i; !used[k]; {
			used[k] = true
			pg = append(pg, segs[k].a)
			j, ok := next(k, i, used)
			if !ok {
				return nil, false
			}
			k = j
		}
		out = append(out, pg)
	}
	return out, true
}

// dropCollinear removes vertices where the boundary goes straight on.
func dropCollinear(pg Polygon) Polygon {
	for changed := true; changed && len(pg) > 3; {
		changed = false
		n := len(pg)
		for i := range n {
			a, b, cc := pg[(i+n-1)%n], pg[i], pg[(i+1)%n]
			if orient(a, b, cc) == 0 && dot(b.Sub(a), cc.Sub(b)).sign() > 0 {
				pg = slices.Delete(pg, i, i+1)
				changed = true
				break
			}
		}
	}
	return pg
}

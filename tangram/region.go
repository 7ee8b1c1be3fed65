package tangram

import (
	"fmt"
	"slices"
)

// A figure's region is Silhouette, plus the polygons of Parts, minus
// those of Holes: every polygon simple and counter-clockwise, the outer
// ones (Silhouette and Parts) with disjoint interiors, each hole inside
// them. Outer polygons may touch each other and holes may touch the outer
// boundary, at single points (a figure whose pieces meet at one corner).
// The boundary chain of the region is Σ∂(outer) − Σ∂(hole), so the exact
// tests (Check, the Exact search) hold unchanged: they only ever read the
// chain.

// Outers returns the outer polygons of the region: Silhouette, then Parts.
func (p *Puzzle) Outers() []Polygon {
	return append([]Polygon{p.Silhouette}, p.Parts...)
}

// RegionArea returns the exact area of the region: the outer polygons'
// areas less the holes'.
func (p *Puzzle) RegionArea() Area {
	a := p.Silhouette.Area()
	for _, pg := range p.Parts {
		a = a.Add(pg.Area())
	}
	for _, pg := range p.Holes {
		h := pg.Area()
		a = a.Add(Area{-h.A, -h.B})
	}
	return a
}

// addRegion adds the region's boundary to c with weight w.
func (p *Puzzle) addRegion(c *chain, w int) {
	c.addPolygon(p.Silhouette, w)
	for _, pg := range p.Parts {
		c.addPolygon(pg, w)
	}
	for _, pg := range p.Holes {
		c.addPolygon(pg, -w)
	}
}

// insideRegion returns +1 if v is strictly inside the region, 0 if on its
// boundary, -1 if outside. Exact.
func (p *Puzzle) insideRegion(v Point) int {
	r := p.Silhouette.inside(v)
	for _, pg := range p.Parts {
		r = max(r, pg.inside(v))
	}
	if r < 0 {
		return -1
	}
	for _, pg := range p.Holes {
		switch pg.inside(v) {
		case 1:
			return -1
		case 0:
			r = 0
		}
	}
	return r
}

// validateRegion checks Parts and Holes (Silhouette is checked by the
// caller): each a valid counter-clockwise polygon; no edges of two
// polygons crossing or running along each other (two polygons meet at
// most at points); no vertex of an outer polygon strictly inside another,
// nor of a hole strictly inside another hole; every vertex of a hole
// inside or on an outer polygon. These are
// necessary conditions, cheap and exact; they catch nested or overlapping
// outer polygons and holes outside the figure. O(V²).
func (p *Puzzle) validateRegion() error {
	if len(p.Parts) == 0 && len(p.Holes) == 0 {
		return nil
	}
	if n := len(p.Parts) + len(p.Holes); n > MaxRegionPolygons {
		return fmt.Errorf("tangram: %d parts and holes, at most %d", n, MaxRegionPolygons)
	}
	for k, pg := range p.Parts {
		if err := checkPolygon(pg); err != nil {
			return wrap(err, fmt.Sprintf("part %d", k+1))
		}
	}
	for k, pg := range p.Holes {
		if err := checkPolygon(pg); err != nil {
			return wrap(err, fmt.Sprintf("hole %d", k+1))
		}
	}
	outers := p.Outers()
	all := append(slices.Clone(outers), p.Holes...)
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			if polygonsCross(all[i], all[j]) {
				return fmt.Errorf("%w: two polygons of the figure cross", ErrSelfIntersect)
			}
		}
	}
	for i, a := range outers {
		for j, b := range outers {
			if i != j && anyVertexInside(a, b) {
				return fmt.Errorf("%w: outer polygons %d and %d overlap", ErrSelfIntersect, i+1, j+1)
			}
		}
	}
	for i, h := range p.Holes {
		for j, g := range p.Holes {
			if i != j && anyVertexInside(h, g) {
				return fmt.Errorf("%w: holes %d and %d overlap", ErrSelfIntersect, i+1, j+1)
			}
		}
		for _, v := range h {
			in := -1
			for _, o := range outers {
				in = max(in, o.inside(v))
			}
			if in < 0 {
				return fmt.Errorf("%w: hole %d has vertex %v outside the figure", ErrSelfIntersect, i+1, v)
			}
		}
	}
	var c chain
	p.addRegion(&c, 1)
	for _, s := range c.segments() {
		if s.w != 1 {
			return fmt.Errorf("%w: two polygons of the figure share the edge %v-%v", ErrSelfIntersect, s.a, s.b)
		}
	}
	return nil
}

// polygonsCross reports whether an edge of a properly crosses one of b
// or runs along one of b for a positive length.
func polygonsCross(a, b Polygon) bool {
	for i := range a {
		p, q := a[i], a[(i+1)%len(a)]
		for j := range b {
			r, s := b[j], b[(j+1)%len(b)]
			if properCross(p, q, r, s) || collinearOverlap(p, q, r, s) {
				return true
			}
		}
	}
	return false
}

// collinearOverlap reports whether segments pq and rs lie on one line and
// share more than a point.
func collinearOverlap(p, q, r, s Point) bool {
	if orient(p, q, r) != 0 || orient(p, q, s) != 0 {
		return false
	}
	d := q.Sub(p)
	t := func(v Point) zr2 { return dot(v.Sub(p), d) }
	lo1, hi1 := t(p), t(q)
	lo2, hi2 := t(r), t(s)
	if lo2.cmp(hi2) > 0 {
		lo2, hi2 = hi2, lo2
	}
	lo, hi := lo1, hi1
	if lo2.cmp(lo) > 0 {
		lo = lo2
	}
	if hi2.cmp(hi) < 0 {
		hi = hi2
	}
	return lo.cmp(hi) < 0
}

// anyVertexInside reports whether some vertex of a is strictly inside b.
func anyVertexInside(a, b Polygon) bool {
	for _, v := range a {
		if b.inside(v) > 0 {
			return true
		}
	}
	return false
}

// RegionFromChain splits a boundary chain (every segment of weight one,
// as many segments into each point as out of it) into the polygons of a
// region: counter-clockwise cycles are outer polygons, clockwise ones
// holes (returned counter-clockwise). At a point where the boundary
// touches itself the walk takes the outgoing edge first clockwise from
// the way back (it follows one wedge of the region), and a walk that
// passes a point twice is cut there into loops, so every cycle is simple.
func regionFromChain(c *chain) (outers, holes []Polygon, ok bool) {
	segs := splitAtVertices(c.segments())
	outs := map[Point][]int{}
	for i, s := range segs {
		if s.w != 1 {
			return nil, nil, false
		}
		outs[s.a] = append(outs[s.a], i)
	}
	walks, ok := cycles(segs, func(k, start int, used []bool) (int, bool) {
		back := segs[k].a.Sub(segs[k].b)
		next := -1
		for _, j := range outs[segs[k].b] {
			if used[j] && j != start {
				continue
			}
			d := segs[j].b.Sub(segs[j].a)
			if next < 0 || angleLess(back, segs[next].b.Sub(segs[next].a), d) {
				next = j
			}
		}
		return next, next >= 0
	})
	if !ok {
		return nil, nil, false
	}
	for _, pg := range walks {
		for _, loop := range splitLoops(pg) {
			loop = dropCollinear(loop)
			if len(loop) < 3 {
				return nil, nil, false
			}
			if loop.area8().sign() > 0 {
				outers = append(outers, loop.Normalize())
			} else {
				holes = append(holes, loop.Normalize())
			}
		}
	}
	return outers, holes, true
}

// splitAtVertices cuts every segment at the ends of the others that lie
// inside it, so that a corner touching an edge becomes a point the walk
// can see.
func splitAtVertices(segs []seg) []seg {
	var pts []Point
	for _, s := range segs {
		pts = append(pts, s.a)
	}
	var out []seg
	for _, s := range segs {
		ab := s.b.Sub(s.a)
		var cuts []Point
		for _, p := range pts {
			if p != s.a && p != s.b && orient(s.a, s.b, p) == 0 && onSegment(s.a, s.b, p) {
				cuts = append(cuts, p)
			}
		}
		slices.SortFunc(cuts, func(p, q Point) int { return dot(p.Sub(s.a), ab).cmp(dot(q.Sub(s.a), ab)) })
		cuts = slices.Compact(cuts)
		a := s.a
		for _, p := range cuts {
			out = append(out, seg{a, p, s.w})
			a = p
		}
		out = append(out, seg{a, s.b, s.w})
	}
	return out
}

// splitLoops cuts a closed walk that passes a point twice into simple
// loops at that point (a hole touching the outer boundary at a corner).
func splitLoops(pg Polygon) []Polygon {
	for i := range pg {
		for j := i + 1; j < len(pg); j++ {
			if pg[i] == pg[j] {
				inner := slices.Clone(pg[i:j])
				rest := append(slices.Clone(pg[:i]), pg[j:]...)
				return append(splitLoops(inner), splitLoops(rest)...)
			}
		}
	}
	return []Polygon{pg}
}

// setRegion stores outers and holes in p, the outer polygon of largest
// area as the Silhouette.
func (p *Puzzle) setRegion(outers, holes []Polygon) {
	big := 0
	for k, pg := range outers {
		if pg.Area().Cmp(outers[big].Area()) > 0 {
			big = k
		}
	}
	p.Silhouette = outers[big]
	p.Parts = nil
	for k, pg := range outers {
		if k != big {
			p.Parts = append(p.Parts, pg)
		}
	}
	p.Holes = holes
}

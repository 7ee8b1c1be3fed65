package tangram

import (
	"fmt"
	"slices"
)

// Check verifies that the solution tiles the silhouette exactly: every
// piece placed once with an allowed orientation, no piece outside the
// silhouette, no two pieces overlapping with positive area, and no gap.
// Everything is exact.
//
// The proof it relies on is the paper's edge matching (Proposition 1 with
// the path integrals of section 6.2): with simple counter-clockwise
// polygons, the pieces cover the silhouette exactly, almost everywhere
// once, if and only if the boundary chain Σ∂(piece) − ∂(silhouette)
// cancels on every line (then the sum of winding numbers minus the
// silhouette's is zero everywhere). Before that final test Check looks for
// the faults it can name: a puzzle that is not valid (not polygons,
// self-intersecting, areas that do not add up: ErrAreas), unplaced pieces
// (ErrUnplaced), a piece vertex strictly outside the silhouette
// (ErrOutside), two pieces whose interiors meet (ErrOverlap, tested on
// convex parts by separating axes). A chain that still does not cancel
// means, with equal areas and no overlap, that some piece leaves the
// silhouette between its vertices (ErrOutside).
//
// O(V²) for V vertices in all.
func Check(p *Puzzle, s *Solution) error {
	if err := p.Validate(); err != nil {
		return err
	}
	placed, err := placeAll(p, s)
	if err != nil {
		return err
	}
	for i, pg := range placed {
		for _, v := range pg {
			if p.insideRegion(v) < 0 {
				return fmt.Errorf("%w: piece %d (%s) has vertex %v outside", ErrOutside, i+1, p.Pieces[i].Name, v)
			}
		}
	}
	parts := make([][]Polygon, len(placed))
	for i, pg := range placed {
		parts[i] = convexParts(pg)
	}
	for i := range placed {
		for j := i + 1; j < len(placed); j++ {
			if partsOverlap(parts[i], parts[j]) {
				return fmt.Errorf("%w: pieces %d (%s) and %d (%s)", ErrOverlap, i+1, p.Pieces[i].Name, j+1, p.Pieces[j].Name)
			}
		}
	}
	var c chain
	for _, pg := range placed {
		c.addPolygon(pg, 1)
	}
	p.addRegion(&c, -1)
	if !c.empty() {
		sg := c.segments()[0]
		return fmt.Errorf("%w: the boundaries do not match along %v-%v", ErrOutside, sg.a, sg.b)
	}
	return nil
}

// placeAll returns every piece as the solution places it.
func placeAll(p *Puzzle, s *Solution) ([]Polygon, error) {
	if s == nil || len(s.Placements) != len(p.Pieces) {
		n := 0
		if s != nil {
			n = len(s.Placements)
		}
		return nil, fmt.Errorf("tangram: solution has %d placements for %d pieces", n, len(p.Pieces))
	}
	out := make([]Polygon, len(p.Pieces))
	for i, pl := range s.Placements {
		if !p.Turns.Allows(pl.Orient) {
			return nil, fmt.Errorf("tangram: piece %d (%s): orientation %v not allowed (turns %v)", i+1, p.Pieces[i].Name, pl.Orient, p.Turns)
		}
		pg, err := p.Placed(s, i)
		if err != nil {
			return nil, err
		}
		for _, v := range pg {
			if !inRange2(v.X) || !inRange2(v.Y) {
				return nil, fmt.Errorf("tangram: piece %d (%s) placed beyond 2·MaxCoord", i+1, p.Pieces[i].Name)
			}
		}
		out[i] = pg
	}
	return out, nil
}

func inRange2(x Num) bool {
	return x.a2 >= -4*MaxCoord && x.a2 <= 4*MaxCoord && x.b2 >= -4*MaxCoord && x.b2 <= 4*MaxCoord
}

// convex reports whether a counter-clockwise polygon is convex.
func convex(pg Polygon) bool {
	n := len(pg)
	for i := range n {
		if orient(pg[i], pg[(i+1)%n], pg[(i+2)%n]) < 0 {
			return false
		}
	}
	return true
}

// convexParts splits a simple counter-clockwise polygon into convex
// polygons with disjoint interiors: itself when convex, else the triangles
// of an exact ear-clipping triangulation (O(n³) worst case).
func convexParts(pg Polygon) []Polygon {
	if convex(pg) {
		return []Polygon{pg}
	}
	v := slices.Clone(pg.Normalize())
	var out []Polygon
	for len(v) > 3 {
		n := len(v)
		clipped := false
		for i := range n {
			a, b, c := v[(i+n-1)%n], v[i], v[(i+1)%n]
			o := orient(a, b, c)
			if o == 0 {
				v = slices.Delete(v, i, i+1)
				clipped = true
				break
			}
			if o < 0 {
				continue
			}
			ear := true
			for _, q := range v {
				if q == a || q == b || q == c {
					continue
				}
				if orient(a, b, q) >= 0 && orient(b, c, q) >= 0 && orient(c, a, q) >= 0 {
					ear = false
					break
				}
			}
			if ear {
				out = append(out, Polygon{a, b, c})
				v = slices.Delete(v, i, i+1)
				clipped = true
				break
			}
		}
		if !clipped {
			panic("tangram: ear clipping found no ear in a simple polygon")
		}
	}
	if orient(v[0], v[1], v[2]) > 0 {
		out = append(out, v)
	}
	return out
}

// convexOverlap reports whether two convex counter-clockwise polygons have
// interiors that meet (positive-area intersection): by the separating axis
// theorem they do not exactly when all of one lies on or right of some
// edge line of the other.
func convexOverlap(p, q Polygon) bool {
	return !separates(p, q) && !separates(q, p)
}

func separates(p, q Polygon) bool {
	n := len(p)
	for i := range n {
		a, b := p[i], p[(i+1)%n]
		all := true
		for _, v := range q {
			if orient(a, b, v) > 0 {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

func partsOverlap(p, q []Polygon) bool {
	for _, a := range p {
		for _, b := range q {
			if convexOverlap(a, b) {
				return true
			}
		}
	}
	return false
}

// Overlap reports whether two polygons (any orientation) overlap with
// positive area, exactly. Both must be simple (Polygon.Validate); it
// panics otherwise. O(n³) worst case for non-convex polygons (ear
// clipping), O(n·m) for convex ones.
func Overlap(p, q Polygon) bool {
	return partsOverlap(convexParts(p.Normalize()), convexParts(q.Normalize()))
}

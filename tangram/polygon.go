package tangram

import (
	"errors"
	"fmt"
	"slices"
)

// Point is a point or a vector of the plane with exact coordinates.
type Point struct{ X, Y Num }

// Pt returns the point (x, y).
func Pt(x, y Num) Point { return Point{x, y} }

// Add returns p + q.
func (p Point) Add(q Point) Point { return Point{p.X.Add(q.X), p.Y.Add(q.Y)} }

// Sub returns p - q.
func (p Point) Sub(q Point) Point { return Point{p.X.Sub(q.X), p.Y.Sub(q.Y)} }

// Neg returns -p.
func (p Point) Neg() Point { return Point{p.X.Neg(), p.Y.Neg()} }

// Less orders points lowest first, then leftmost (y, then x).
func (p Point) Less(q Point) bool {
	if c := p.Y.Cmp(q.Y); c != 0 {
		return c < 0
	}
	return p.X.Cmp(q.X) < 0
}

func (p Point) String() string { return "(" + p.X.String() + ", " + p.Y.String() + ")" }

// cross returns 4·(u × v) exactly.
func cross(u, v Point) zr2 { return mul(u.X, v.Y).sub(mul(u.Y, v.X)) }

// dot returns 4·(u · v) exactly.
func dot(u, v Point) zr2 { return mul(u.X, v.X).add(mul(u.Y, v.Y)) }

// orient returns the sign of (b-a) × (c-a): +1 if a, b, c turn
// counter-clockwise, -1 clockwise, 0 collinear.
func orient(a, b, c Point) int { return cross(b.Sub(a), c.Sub(a)).sign() }

// Polygon is a closed polygon given by its vertices in order; the last
// vertex joins the first. Validate checks it and Normalize makes it
// counter-clockwise.
type Polygon []Point

// Errors of polygon validation; Validate wraps them with where the fault is.
var (
	ErrTooFewVertices = errors.New("tangram: polygon needs at least 3 vertices")
	ErrRepeatedVertex = errors.New("tangram: polygon repeats a vertex")
	ErrSelfIntersect  = errors.New("tangram: polygon is not simple (edges cross or touch)")
	ErrZeroArea       = errors.New("tangram: polygon has zero area")
)

// area8 returns eight times the signed area (positive when
// counter-clockwise), exactly, in Z[√2]: see Area.
func (pg Polygon) area8() zr2 {
	var s zr2
	n := len(pg)
	for i := range n {
		s = s.add(cross(pg[i], pg[(i+1)%n]))
	}
	return s // each cross is 4·(u × v); their sum is twice the area
}

// Area is an exact area: the value (A + B√2)/8. Areas of polygons with
// coordinates in ½Z[√2] are of this form.
type Area struct{ A, B int64 }

// Float64 returns the area as a float64.
func (a Area) Float64() float64 { return zr2{a.A, a.B}.float() / 8 }

// Cmp compares two areas exactly.
func (a Area) Cmp(b Area) int { return zr2{a.A, a.B}.cmp(zr2{b.A, b.B}) }

// Add returns a + b.
func (a Area) Add(b Area) Area { return Area{a.A + b.A, a.B + b.B} }

func (a Area) String() string {
	s := fmtEighths(a.A)
	if a.B == 0 {
		return s
	}
	b := fmtEighths(a.B) + "r2"
	if a.A == 0 {
		return b
	}
	if a.B > 0 {
		return s + "+" + b
	}
	return s + b
}

func fmtEighths(v int64) string {
	if v%8 == 0 {
		return fmt.Sprint(v / 8)
	}
	return fmt.Sprint(float64(v) / 8)
}

// Area returns the signed area of the polygon (positive when
// counter-clockwise), exactly. O(n).
func (pg Polygon) Area() Area {
	s := pg.area8()
	return Area{s.a, s.b}
}

// Validate checks that pg is a simple polygon: at least 3 vertices, no
// vertex repeated, no two edges meeting except consecutive edges at their
// shared vertex (so no crossing, touching or overlapping edges, and no
// spikes), and non-zero area. It does not require counter-clockwise order
// (Normalize provides it). Collinear consecutive edges are allowed.
// O(n²) exact predicates.
func (pg Polygon) Validate() error {
	n := len(pg)
	if n < 3 {
		return fmt.Errorf("%w (has %d)", ErrTooFewVertices, n)
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if pg[i] == pg[j] {
				return fmt.Errorf("%w: vertices %d and %d are both %v", ErrRepeatedVertex, i+1, j+1, pg[i])
			}
		}
	}
	for i := range n {
		a, b := pg[i], pg[(i+1)%n]
		for j := i + 1; j < n; j++ {
			c, d := pg[j], pg[(j+1)%n]
			switch {
			case j == i+1:
				// consecutive: they share b == c; they must not fold back.
				if orient(a, b, d) == 0 && dot(b.Sub(a), d.Sub(c)).sign() < 0 {
					return fmt.Errorf("%w: edges %d and %d fold back at %v", ErrSelfIntersect, i+1, j+1, b)
				}
			case i == 0 && j == n-1:
				// the closing edge d == a.
				if orient(c, d, b) == 0 && dot(d.Sub(c), b.Sub(a)).sign() < 0 {
					return fmt.Errorf("%w: edges %d and %d fold back at %v", ErrSelfIntersect, j+1, i+1, a)
				}
			default:
				if segmentsMeet(a, b, c, d) {
					return fmt.Errorf("%w: edge %d %v-%v meets edge %d %v-%v", ErrSelfIntersect, i+1, a, b, j+1, c, d)
				}
			}
		}
	}
	if s := pg.area8(); s.sign() == 0 {
		return ErrZeroArea
	}
	return nil
}

// Normalize returns a copy of pg in counter-clockwise order with collinear
// middle vertices removed and the lowest-leftmost vertex first. pg must be
// valid.
func (pg Polygon) Normalize() Polygon {
	n := len(pg)
	out := make(Polygon, 0, n)
	for i := range n {
		prev, cur, next := pg[(i+n-1)%n], pg[i], pg[(i+1)%n]
		if orient(prev, cur, next) != 0 {
			out = append(out, cur)
		}
	}
	if out.area8().sign() < 0 {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	lo := 0
	for i := range out {
		if out[i].Less(out[lo]) {
			lo = i
		}
	}
	return append(out[lo:len(out):len(out)], out[:lo]...)
}

// Translate returns pg moved by t.
func (pg Polygon) Translate(t Point) Polygon {
	out := make(Polygon, len(pg))
	for i, p := range pg {
		out[i] = p.Add(t)
	}
	return out
}

// Equal reports whether two polygons have the same vertices in the same
// order.
func (pg Polygon) Equal(q Polygon) bool { return slices.Equal(pg, q) }

// segmentsMeet reports whether the closed segments ab and cd share a point.
func segmentsMeet(a, b, c, d Point) bool {
	o1, o2 := orient(a, b, c), orient(a, b, d)
	o3, o4 := orient(c, d, a), orient(c, d, b)
	if o1*o2 < 0 && o3*o4 < 0 {
		return true
	}
	return o1 == 0 && onSegment(a, b, c) || o2 == 0 && onSegment(a, b, d) ||
		o3 == 0 && onSegment(c, d, a) || o4 == 0 && onSegment(c, d, b)
}

// onSegment reports whether p, known collinear with ab, lies on the closed
// segment ab.
func onSegment(a, b, p Point) bool {
	return dot(p.Sub(a), p.Sub(b)).sign() <= 0
}

// properCross reports whether segments ab and cd cross at a single point
// interior to both.
func properCross(a, b, c, d Point) bool {
	return orient(a, b, c)*orient(a, b, d) < 0 && orient(c, d, a)*orient(c, d, b) < 0
}

// inside returns +1 if p is strictly inside the simple polygon pg, 0 if on
// its boundary, -1 if outside. Exact; O(n).
func (pg Polygon) inside(p Point) int {
	n := len(pg)
	wind := 0
	for i := range n {
		a, b := pg[i], pg[(i+1)%n]
		o := orient(a, b, p)
		if o == 0 && onSegment(a, b, p) {
			return 0
		}
		// crossing number with the ray to +x, half-open in y.
		if a.Y.Cmp(p.Y) <= 0 {
			if b.Y.Cmp(p.Y) > 0 && o > 0 {
				wind++
			}
		} else if b.Y.Cmp(p.Y) <= 0 && o < 0 {
			wind--
		}
	}
	if wind != 0 {
		return 1
	}
	return -1
}

// String writes a polygon's vertices as (x, y) pairs.
func (pg Polygon) String() string {
	s := ""
	for _, v := range pg {
		s += v.String()
	}
	return s
}

// Float returns the vertices as float64 pairs.
func (pg Polygon) Float() [][2]float64 {
	out := make([][2]float64, len(pg))
	for i, p := range pg {
		out[i] = [2]float64{p.X.Float64(), p.Y.Float64()}
	}
	return out
}

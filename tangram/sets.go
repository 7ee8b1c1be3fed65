package tangram

// r returns m·√2/2.
func r(m int64) Num { return Half(0, m) }

// i returns the integer m.
func i(m int64) Num { return Int(m) }

// normalized returns pieces with their lowest-leftmost vertex first and at
// the origin, counter-clockwise.
func normalized(ps []Piece) []Piece {
	out := make([]Piece, len(ps))
	for k, pc := range ps {
		sh := pc.Shape.Normalize()
		out[k] = Piece{pc.Name, sh.Translate(sh[0].Neg())}
	}
	return out
}

// Tans returns the seven tans in the orientation they have in the
// familiar axis-aligned square of side 2√2 (units where the small
// triangle's legs are 1; total area 8), each with its lowest-leftmost
// vertex first and at the origin: two large triangles (legs 2), a medium
// triangle (legs √2), a square (side 1), a parallelogram (sides 1 and √2)
// and two small triangles (legs 1). Every coordinate is a multiple of
// √2/2.
func Tans() []Piece { return normalized(rawTans()) }

// rawTans are the tans where they lie in the square of side 2√2 with its
// lower-left corner at the origin.
func rawTans() []Piece {
	return []Piece{
		{"big1", Polygon{{i(0), i(0)}, {r(4), i(0)}, {r(2), r(2)}}},
		{"big2", Polygon{{i(0), i(0)}, {r(2), r(2)}, {i(0), r(4)}}},
		{"medium", Polygon{{r(4), r(2)}, {r(4), r(4)}, {r(2), r(4)}}},
		{"square", Polygon{{r(2), r(2)}, {r(3), r(3)}, {r(2), r(4)}, {r(1), r(3)}}},
		{"parallelogram", Polygon{{r(4), i(0)}, {r(4), r(2)}, {r(3), r(3)}, {r(3), r(1)}}},
		{"small1", Polygon{{r(2), r(2)}, {r(3), r(1)}, {r(3), r(3)}}},
		{"small2", Polygon{{r(1), r(3)}, {r(2), r(4)}, {i(0), r(4)}}},
	}
}

// offsets returns where each normalized piece goes to lie where the raw
// piece lies.
func offsets(raw []Piece) []Point {
	out := make([]Point, len(raw))
	for k, pc := range raw {
		out[k] = pc.Shape.Normalize()[0]
	}
	return out
}

// TPieces returns a four-piece T dissection with integer coordinates, made
// for this package in the manner of the classic T puzzle (45-degree cuts,
// one non-convex piece): a T of area 5, a bar 3 by 1 over a stem 1 by 2,
// cut into a triangle, a trapezoid, a parallelogram and a non-convex
// hexagon. Lowest-leftmost vertex first and at the origin.
func TPieces() []Piece { return normalized(rawT()) }

func rawT() []Piece {
	return []Piece{
		{"triangle", Polygon{{i(1), i(0)}, {i(2), i(0)}, {i(2), i(1)}}},
		{"trapezoid", Polygon{{i(0), i(2)}, {i(1), i(2)}, {i(2), i(3)}, {i(0), i(3)}}},
		{"parallelogram", Polygon{{i(1), i(0)}, {i(2), i(1)}, {i(2), i(2)}, {i(1), i(1)}}},
		{"hexagon", Polygon{{i(1), i(1)}, {i(2), i(2)}, {i(3), i(2)}, {i(3), i(3)}, {i(2), i(3)}, {i(1), i(2)}}},
	}
}

// tShape is the T the TPieces tile.
var tShape = Polygon{{i(1), i(0)}, {i(2), i(0)}, {i(2), i(2)}, {i(3), i(2)}, {i(3), i(3)}, {i(0), i(3)}, {i(0), i(2)}, {i(1), i(2)}}

// Set returns a named piece set: "tans" (Tans) or "t4" (TPieces); ok is
// false for another name.
func Set(name string) (pieces []Piece, ok bool) {
	switch name {
	case "tans":
		return Tans(), true
	case "t4":
		return TPieces(), true
	}
	return nil, false
}

// SetNames lists the names Set knows.
func SetNames() []string { return []string{"tans", "t4"} }

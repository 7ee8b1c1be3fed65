package tangram

import (
	"fmt"
	"slices"
)

// classic is a tangram figure given by where each tan lies.
type classic struct {
	name   string
	pieces []Piece // in the order of Tans, as they lie in the figure
}

// block returns the five smaller tans (medium, square, parallelogram,
// small1, small2) tiling the 2×2 square with lower-left corner (x, y), in
// the frame where the small triangles' legs are axis-aligned.
func block(x, y int64) []Piece {
	at := func(pts ...int64) Polygon {
		pg := make(Polygon, len(pts)/2)
		for k := range pg {
			pg[k] = Point{Int(x + pts[2*k]), Int(y + pts[2*k+1])}
		}
		return pg
	}
	return []Piece{
		{"medium", at(0, 0, 2, 0, 1, 1)},
		{"square", at(0, 1, 1, 1, 1, 2, 0, 2)},
		{"parallelogram", at(1, 1, 2, 0, 2, 1, 1, 2)},
		{"small1", at(0, 0, 1, 1, 0, 1)},
		{"small2", at(1, 2, 2, 1, 2, 2)},
	}
}

func ipg(pts ...int64) Polygon {
	pg := make(Polygon, len(pts)/2)
	for k := range pg {
		pg[k] = Point{Int(pts[2*k]), Int(pts[2*k+1])}
	}
	return pg
}

func withBigs(name string, big1, big2 Polygon, x, y int64) classic {
	return classic{name, append([]Piece{{"big1", big1}, {"big2", big2}}, block(x, y)...)}
}

var classics = []classic{
	{"square", rawTans()},
	withBigs("rectangle", ipg(0, 0, 2, 0, 0, 2), ipg(2, 0, 2, 2, 0, 2), 2, 0),
	withBigs("parallelogram", ipg(0, 0, 2, 0, 2, 2), ipg(4, 0, 6, 2, 4, 2), 2, 0),
	withBigs("triangle", ipg(2, 0, 4, 0, 2, 2), ipg(0, 2, 2, 2, 0, 4), 0, 0),
	withBigs("trapezoid", ipg(0, 0, 2, 0, 2, 2), ipg(4, 0, 6, 0, 4, 2), 2, 0),
	withBigs("house", ipg(-1, 2, 1, 2, 1, 4), ipg(1, 2, 3, 2, 1, 4), 0, 0),
	{"boat", []Piece{
		{"big1", ipg(0, 1, 2, 1, 2, 3)},
		{"big2", ipg(2, 1, 4, 1, 2, 3)},
		{"medium", ipg(3, 0, 4, 1, 2, 1)},
		{"square", ipg(1, 0, 2, 0, 2, 1, 1, 1)},
		{"parallelogram", ipg(0, 0, 1, 0, 0, 1, -1, 1)},
		{"small1", ipg(1, 0, 1, 1, 0, 1)},
		{"small2", ipg(2, 0, 3, 0, 2, 1)},
	}},
}

// ClassicNames lists the classic figures Classic knows: the square and six
// other figures of all seven tans, then "t", the T of TPieces.
func ClassicNames() []string {
	out := make([]string, len(classics), len(classics)+1)
	for k, c := range classics {
		out[k] = c.name
	}
	return append(out, "t")
}

// Classic returns a classic tangram figure as a translation-only puzzle
// (the paper's setting): the seven tans turned as the figure needs them
// (the parallelogram possibly mirrored), each with its lowest-leftmost
// vertex first and at the origin, the figure's outline as the silhouette,
// and a known solution. "square" is the familiar axis-aligned square of
// side 2√2; the others are drawn with the small triangles' legs
// axis-aligned. "t" is the T that the four TPieces make.
func Classic(name string) (*Puzzle, *Solution, error) {
	if name == "t" {
		return fromArrangement("t", rawT())
	}
	for _, c := range classics {
		if c.name == name {
			return fromArrangement(c.name, c.pieces)
		}
	}
	return nil, nil, fmt.Errorf("tangram: no classic named %q (have %v)", name, ClassicNames())
}

// fromArrangement builds the translation-only puzzle whose silhouette is
// the union of the given pieces where they lie, and its solution.
func fromArrangement(name string, lying []Piece) (*Puzzle, *Solution, error) {
	var c chain
	for _, pc := range lying {
		c.addPolygon(ccw(pc.Shape), 1)
	}
	pgs, ok := c.boundaryPolygons()
	if !ok || len(pgs) != 1 {
		return nil, nil, fmt.Errorf("tangram: the pieces of %q do not form one simple polygon", name)
	}
	p := &Puzzle{Name: name, Pieces: normalized(lying), Silhouette: pgs[0].Normalize()}
	s := NewSolution(len(lying))
	for k, t := range offsets(lying) {
		s.Place(k, t, 0)
	}
	if err := p.Validate(); err != nil {
		return nil, nil, err
	}
	return p, s, nil
}

// congruent reports whether q is p turned (and mirrored when flips) by
// some orientation, up to translation and the choice of first vertex.
func congruent(p, q Polygon, flips bool) bool {
	qn := q.Normalize()
	qn = qn.Translate(qn[0].Neg())
	for o := range Orientation(16) {
		if o.Flipped() && !flips {
			continue
		}
		t, err := p.Oriented(o)
		if err != nil {
			continue
		}
		t = t.Normalize()
		t = t.Translate(t[0].Neg())
		if slices.Equal(t, qn) {
			return true
		}
	}
	return false
}

package tangram

import (
	"errors"
	"fmt"
)

// Orientation is how a piece is turned: Turn() multiples of 45 degrees
// counter-clockwise, after a mirror image (x -> -x) when Flipped(). The
// zero Orientation is the piece as given. A piece is turned about its
// first vertex, which stays where it is.
type Orientation uint8

// NewOrientation returns the orientation turned by turn·45° (taken mod 8)
// after a mirror image when flip is true.
func NewOrientation(turn int, flip bool) Orientation {
	o := Orientation(((turn % 8) + 8) % 8)
	if flip {
		o |= 8
	}
	return o
}

// Turn returns the number of 45-degree counter-clockwise turns, 0..7.
func (o Orientation) Turn() int { return int(o & 7) }

// Flipped reports whether the piece is mirrored before it is turned.
func (o Orientation) Flipped() bool { return o&8 != 0 }

func (o Orientation) String() string {
	s := fmt.Sprintf("turn %d", o.Turn())
	if o.Flipped() {
		s += " flip"
	}
	return s
}

// Turns says which orientations a puzzle allows.
type Turns uint8

const (
	// TurnsNone is the paper's setting: pieces keep the orientation given.
	TurnsNone Turns = iota
	// TurnsRotate allows the 8 turns by multiples of 45 degrees.
	TurnsRotate
	// TurnsFlip allows turns and mirror images (the 16 orientations).
	TurnsFlip
)

func (t Turns) String() string {
	switch t {
	case TurnsNone:
		return "none"
	case TurnsRotate:
		return "rotate"
	case TurnsFlip:
		return "flip"
	}
	return fmt.Sprintf("Turns(%d)", uint8(t))
}

// Allows reports whether o is an allowed orientation.
func (t Turns) Allows(o Orientation) bool {
	switch t {
	case TurnsNone:
		return o == 0
	case TurnsRotate:
		return !o.Flipped() && o < 16
	case TurnsFlip:
		return o < 16
	}
	return false
}

// ErrInexactTurn is returned when a 45-degree turn would take a polygon's
// coordinates out of ½Z[√2] (turns by multiples of 90 degrees and mirror
// images are always exact; the tans turn exactly by any multiple of 45).
var ErrInexactTurn = errors.New("tangram: a 45-degree turn leaves the exact coordinates")

// Oriented returns pg mirrored and turned as o says, about its first
// vertex, counter-clockwise again after a mirror image. The vertex order
// is kept (reversed after a mirror) so that vertex i of the result is the
// image of a vertex of pg.
func (pg Polygon) Oriented(o Orientation) (Polygon, error) {
	if o == 0 {
		return append(Polygon(nil), pg...), nil
	}
	if len(pg) == 0 {
		return nil, nil
	}
	o0 := pg[0]
	out := make(Polygon, len(pg))
	for i, p := range pg {
		v := p.Sub(o0)
		if o.Flipped() {
			v.X = v.X.Neg()
		}
		t := o.Turn()
		for ; t >= 2; t -= 2 {
			v = Point{v.Y.Neg(), v.X}
		}
		if t == 1 {
			d, s := v.X.Sub(v.Y), v.X.Add(v.Y)
			x, ok1 := divSqrt2(d)
			y, ok2 := divSqrt2(s)
			if !ok1 || !ok2 {
				return nil, fmt.Errorf("%w: vertex %v turned by 45 degrees about %v", ErrInexactTurn, p, o0)
			}
			v = Point{x, y}
		}
		out[i] = o0.Add(v)
	}
	if o.Flipped() {
		// keep the first vertex first, reverse the rest.
		for i, j := 1, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out, nil
}

// divSqrt2 returns x/√2 when it lies in ½Z[√2].
func divSqrt2(x Num) (Num, bool) {
	if x.a2%2 != 0 {
		return Num{}, false
	}
	return Num{x.b2, x.a2 / 2}, true
}

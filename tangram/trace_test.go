package tangram

import (
	"context"
	"math"
	"testing"
)

// traceCase is one picture of the tracer's tests: a figure of the set
// drawn at a scale, turned and with noise.
type traceCase struct {
	name  string
	scale float64
	angle float64 // degrees
	noise float64
}

// traceCases are 24 pictures made from the set.
var traceCases = []traceCase{
	{"cat", 40, 0, 0}, {"swan", 60, 0, 0}, {"letter-e", 30, 90, 0}, {"numeral-1", 50, 0, 0.01},
	{"sailboat", 45, 12, 0}, {"convex-01", 35, 45, 0}, {"convex-05", 40, 30, 0.005}, {"letter-o", 50, 0, 0},
	{"letter-d", 40, -20, 0}, {"bear", 40, 0, 0}, {"two-squares", 40, 7, 0}, {"octomino-006", 30, 0, 0.02},
	{"rabbit", 80, 3, 0}, {"fish", 25, 0, 0}, {"steamer", 55, 180, 0.01}, {"walker", 40, 0, 0},
	{"convex-09", 70, 22.5, 0}, {"monk", 40, 135, 0}, {"letter-h", 40, 0, 0}, {"dolphin", 60, -8, 0.005},
	{"numeral-8", 40, 0, 0}, {"letter-t", 90, 0, 0.01}, {"rocket", 33, 60, 0}, {"whale", 40, 270, 0},
}

// TestTrace: pictures drawn from the set at different sizes, turns and
// noise are traced, snapped and solved by the exact solver; the snapped
// figure has the area 8 and is the figure drawn (same shape up to a turn).
func TestTrace(t *testing.T) {
	snapped, solved := 0, 0
	for _, c := range traceCases {
		f, err := FigureByName(c.name)
		if err != nil {
			t.Logf("%s: not in the set", c.name)
			continue
		}
		img := Picture(f.Puzzle, PictureOptions{Scale: c.scale, Angle: c.angle * math.Pi / 180, Noise: c.noise, Seed: 7})
		res, err := Trace(img, TraceOptions{})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !res.Snapped {
			t.Logf("%s (scale %g, %g°, noise %g): not snapped: %v", c.name, c.scale, c.angle, c.noise, res.Faults)
			continue
		}
		snapped++
		if !sameShape(f.Puzzle, res.Puzzle) {
			t.Errorf("%s: traced another shape:\n%v", c.name, res.Puzzle)
		}
		r, err := Exact{MaxNodes: 1_000_000}.Solve(context.Background(), res.Puzzle)
		if err != nil || !r.Solved {
			t.Errorf("%s: traced figure not solved: %v\n%v", c.name, err, res.Puzzle)
			continue
		}
		solved++
	}
	t.Logf("%d pictures, %d snapped, %d solved", len(traceCases), snapped, solved)
	a, _ := FigureByName("cat")
	b, _ := FigureByName("fox")
	if sameShape(a.Puzzle, b.Puzzle) || !sameShape(a.Puzzle, a.Puzzle) {
		t.Error("sameShape does not tell cat from fox")
	}
	if solved < 20 {
		t.Errorf("%d of %d traced pictures solved, want at least 20", solved, len(traceCases))
	}
}

// sameShape reports whether two figures' regions agree up to turns by 45
// degrees, mirror images and moves.
func sameShape(p, q *Puzzle) bool {
	turned := q.Clone()
	turn := func(pg Polygon) Polygon {
		out := make(Polygon, len(pg))
		for i, v := range pg {
			x, _ := divSqrt2(v.X.Sub(v.Y))
			y, _ := divSqrt2(v.X.Add(v.Y))
			out[i] = Point{x, y}
		}
		return out.Normalize()
	}
	turned.Silhouette = turn(q.Silhouette)
	for k := range q.Parts {
		turned.Parts[k] = turn(q.Parts[k])
	}
	for k := range q.Holes {
		turned.Holes[k] = turn(q.Holes[k])
	}
	k := figureKey(p)
	return k == figureKey(q) || k == figureKey(turned)
}

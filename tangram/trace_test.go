package tangram

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"math"
	"strings"
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

// traceCases are 25 pictures made from the set (man-classic mixes the two
// lattices: its head is a square turned by 45 degrees).
var traceCases = []traceCase{
	{"cat", 40, 0, 0}, {"swan", 60, 0, 0}, {"letter-e", 30, 90, 0}, {"numeral-1", 50, 0, 0.01},
	{"sailboat", 45, 12, 0}, {"convex-01", 35, 45, 0}, {"convex-05", 40, 30, 0.005}, {"letter-o", 50, 0, 0},
	{"letter-d", 40, -20, 0}, {"bear", 40, 0, 0}, {"two-squares", 40, 7, 0}, {"octomino-006", 30, 0, 0.02},
	{"rabbit", 80, 3, 0}, {"fish", 25, 0, 0}, {"steamer", 55, 180, 0.01}, {"walker", 40, 0, 0},
	{"convex-09", 70, 22.5, 0}, {"monk", 40, 135, 0}, {"letter-h", 40, 0, 0}, {"dolphin", 60, -8, 0.005},
	{"numeral-8", 40, 0, 0}, {"letter-t", 90, 0, 0.01}, {"rocket", 33, 60, 0}, {"whale", 40, 270, 0},
	{"man-classic", 50, 20, 0.01},
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
		if !SameShape(f.Puzzle, res.Puzzle) {
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
	if SameShape(a.Puzzle, b.Puzzle) || !SameShape(a.Puzzle, a.Puzzle) {
		t.Error("sameShape does not tell cat from fox")
	}
	if solved < 20 {
		t.Errorf("%d of %d traced pictures solved, want at least 20", solved, len(traceCases))
	}
}

// svgOf writes a figure as an SVG path, scaled by s, y down, turned by
// angle (radians).
func svgOf(p *Puzzle, s, angle float64) string {
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg"><path fill-rule="evenodd" d="`)
	cos, sin := math.Cos(angle), math.Sin(angle)
	for _, pg := range append(p.Outers(), p.Holes...) {
		for k, v := range pg.Float() {
			x, y := (v[0]*cos-v[1]*sin)*s+100, -(v[0]*sin+v[1]*cos)*s+100
			if k == 0 {
				fmt.Fprintf(&b, "M%.3f,%.3f", x, y)
			} else {
				fmt.Fprintf(&b, " L %.3f %.3f", x, y)
			}
		}
		b.WriteString("Z ")
	}
	b.WriteString(`"/></svg>`)
	return b.String()
}

// TestTraceSVG: figures written as SVG paths (turned, any scale) come
// back as the same shape, and solve; PNG bytes go through TraceFile too.
func TestTraceSVG(t *testing.T) {
	for k, name := range []string{"cat", "letter-o", "two-squares", "convex-03", "bear"} {
		f, _ := FigureByName(name)
		svg := svgOf(f.Puzzle, 13.7+float64(k), float64(k)*0.3)
		res, err := TraceFile(strings.NewReader(svg), TraceOptions{})
		if err != nil || !res.Snapped || !SameShape(f.Puzzle, res.Puzzle) {
			t.Fatalf("%s: %v %v %v", name, err, res.Faults, res.Puzzle)
		}
		if r, err := (Exact{}).Solve(context.Background(), res.Puzzle); err != nil || !r.Solved {
			t.Errorf("%s: %v", name, err)
		}
	}
	f, _ := FigureByName("swan")
	var buf bytes.Buffer
	if err := png.Encode(&buf, Picture(f.Puzzle, PictureOptions{Scale: 30, Angle: 0.2})); err != nil {
		t.Fatal(err)
	}
	res, err := TraceFile(&buf, TraceOptions{})
	if err != nil || !res.Snapped || !SameShape(f.Puzzle, res.Puzzle) {
		t.Fatalf("png: %v %v", err, res.Faults)
	}
	// a shape off the lattice says where.
	res, err = TraceFile(strings.NewReader(`<svg><path d="M0 0 L10 0 L10 7.3 L0 7.3 Z M 20 20 h 3 v 1 z"/></svg>`), TraceOptions{})
	if err != nil || res.Snapped || len(res.Faults) == 0 {
		t.Errorf("an off-lattice rectangle: %v %+v", err, res)
	}
	for _, bad := range []string{"", "<svg/>", `<svg><path d="M0 0 C 1 1 2 2 3 3 Z"/></svg>`, "not a picture"} {
		if _, err := TraceFile(strings.NewReader(bad), TraceOptions{}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// FuzzParseSVGPath: the path reader never panics and returns bounded,
// finite loops.
func FuzzParseSVGPath(f *testing.F) {
	f.Add("M0 0 L10 0 L10 10 Z")
	f.Add("m1,1h5v5h-5z M20 20 l1-1 1 1z")
	f.Add("M0 0 C1 1 2 2 3 3")
	f.Add("M-1e3.5.5z")
	f.Fuzz(func(t *testing.T, d string) {
		loops, err := ParseSVGPath(d)
		if err != nil {
			return
		}
		n := 0
		for _, l := range loops {
			n += len(l)
			for _, p := range l {
				if math.IsNaN(p[0]) || math.IsInf(p[0], 0) || math.IsNaN(p[1]) || math.IsInf(p[1], 0) {
					t.Fatalf("non-finite point %v", p)
				}
			}
		}
		if n > MaxTotalVertices {
			t.Fatalf("%d points", n)
		}
		_, _ = TraceLoops(loops, TraceOptions{})
	})
}

// FuzzTraceFile: any bytes, pictures and SVG included, are traced or
// refused without a panic; what is built is a valid puzzle.
func FuzzTraceFile(f *testing.F) {
	c, _ := FigureByName("cat")
	var buf bytes.Buffer
	png.Encode(&buf, Picture(c.Puzzle, PictureOptions{Scale: 8}))
	f.Add(buf.Bytes())
	f.Add([]byte(svgOf(c.Puzzle, 10, 0)))
	f.Add([]byte(`<svg><path d="M0 0 L4 0 L4 2 L0 2 Z"/></svg>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := TraceFile(bytes.NewReader(data), TraceOptions{MaxPixels: 1 << 14})
		if err != nil || res.Puzzle == nil {
			return
		}
		if err := res.Puzzle.Validate(); err != nil {
			t.Fatalf("built an invalid puzzle: %v", err)
		}
	})
}

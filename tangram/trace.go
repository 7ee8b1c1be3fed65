package tangram

import (
	"errors"
	"fmt"
	"image"
	"math"
	"sort"
)

// TraceOptions tune Trace and TraceLoops; the zero value is the default.
type TraceOptions struct {
	// Threshold is the grey level (0 black to 1 white) below which a pixel
	// is part of the shape; 0 takes instead every pixel whose colour is
	// far from the background's (the border's median colour), the cut
	// chosen by Otsu's method: a dark shape on a light page, or pieces of
	// any colours.
	Threshold float64
	// Tolerance is how far, in tan units (the small triangle's legs are
	// 1), a traced vertex may lie from the lattice point it snaps to;
	// default 0.2.
	Tolerance float64
	// Epsilon is the Douglas-Peucker tolerance of the outline in pixels;
	// default 2% of the square root of the shape's area, at least 1.5.
	Epsilon float64
	// MaxPixels bounds the picture (default 16,000,000).
	MaxPixels int
}

// TraceResult is what a trace found.
type TraceResult struct {
	// Puzzle is the snapped figure with the seven tans (turns and mirror
	// images allowed), nil when nothing could be built.
	Puzzle *Puzzle
	// Snapped: every vertex lay within Tolerance of its lattice point,
	// every edge runs at a multiple of 45 degrees and the area is exactly
	// the tans' 8. Faults says where not.
	Snapped bool
	Faults  []string
	// Loops are the simplified outlines in tan units (turned upright),
	// before snapping; Frame the lattice chosen ("grid": integer
	// coordinates, the small triangles' legs along the axes; "square":
	// multiples of √2/2, the tans as in the square; "mixed": a + b·√2/2,
	// edge by edge, tried when neither fits), Rotation the turn
	// taken off (radians) and MaxResidual the farthest a vertex moved.
	Loops       [][][2]float64
	Frame       string
	Rotation    float64
	MaxResidual float64
}

// ErrTrace: the picture holds no shape that could be traced.
var ErrTrace = errors.New("tangram: trace: no shape found")

// Trace reads a dark shape on a light background (or a shape of any
// colours on a plain one), finds its outline (the
// outer boundary of each part and the holes; specks under 2% of the
// shape's area are ignored, after a 3×3 median filter), simplifies it (Douglas-Peucker), turns it so
// that its edges run at multiples of 45 degrees, scales it to the tans'
// area 8 and snaps every vertex to the lattice ½Z[√2] in the frame that
// fits best: integer coordinates (the small triangles' legs along the
// axes) or multiples of √2/2 (the tans as in the square). It reports in
// TraceResult.Faults each vertex that lay farther than Tolerance from its
// lattice point, each edge that is not at a multiple of 45 degrees after
// snapping, and an area other than 8. Mixed frames (a square turned by 45
// degrees on a figure drawn square to the axes) do not snap. O(pixels).
func Trace(img image.Image, o TraceOptions) (TraceResult, error) {
	o = o.defaults()
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= 0 || h <= 0 || w*h > o.MaxPixels || w > 1<<15 || h > 1<<15 {
		return TraceResult{}, fmt.Errorf("tangram: trace: picture %dx%d, want at most %d pixels", w, h, o.MaxPixels)
	}
	dark := make([]bool, w*h)
	n := 0
	if o.Threshold > 0 {
		for y := range h {
			for x := range w {
				r, g, bb, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
				if (0.299*float64(r)+0.587*float64(g)+0.114*float64(bb))/65535 < o.Threshold {
					dark[y*w+x], n = true, n+1
				}
			}
		}
	} else {
		// the shape is what differs from the background, the colour most
		// of the border has: a dark shape on a light page, or pieces of
		// any colour; the cut between the two by Otsu's method.
		diff := backgroundDistance(img)
		t := math.Max(0.05, otsu(diff))
		for k, v := range diff {
			if v >= t {
				dark[k], n = true, n+1
			}
		}
	}
	if n == 0 {
		return TraceResult{}, ErrTrace
	}
	dark = majority(dark, w, h)
	clean(dark, w, h)
	loops, area := pixelLoops(dark, w, h)
	if len(loops) == 0 || area == 0 {
		return TraceResult{}, ErrTrace
	}
	eps := o.Epsilon
	if eps <= 0 {
		eps = math.Max(1.5, 0.02*math.Sqrt(float64(area)))
	}
	var simple [][][2]float64
	for _, l := range loops {
		if s := simplifyLoop(l, eps); len(s) >= 3 {
			simple = append(simple, s)
		}
	}
	return snapLoops(simple, float64(area), o)
}

func (o TraceOptions) defaults() TraceOptions {
	if o.Tolerance <= 0 {
		o.Tolerance = 0.2
	}
	if o.MaxPixels <= 0 {
		o.MaxPixels = 16_000_000
	}
	return o
}

// backgroundDistance returns for every pixel how far its colour lies from
// the background's (the median of the border pixels, channel by channel):
// the largest channel difference, 0 to 1.
func backgroundDistance(img image.Image) []float64 {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	var border [3][]float64
	add := func(x, y int) {
		r, g, bb, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
		border[0] = append(border[0], float64(r))
		border[1] = append(border[1], float64(g))
		border[2] = append(border[2], float64(bb))
	}
	for x := range w {
		add(x, 0)
		add(x, h-1)
	}
	for y := range h {
		add(0, y)
		add(w-1, y)
	}
	var bg [3]float64
	for c := range 3 {
		sort.Float64s(border[c])
		bg[c] = border[c][len(border[c])/2]
	}
	out := make([]float64, w*h)
	for y := range h {
		for x := range w {
			r, g, bb, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
			d := math.Max(math.Abs(float64(r)-bg[0]), math.Max(math.Abs(float64(g)-bg[1]), math.Abs(float64(bb)-bg[2])))
			out[y*w+x] = d / 65535
		}
	}
	return out
}

// otsu returns the threshold that best splits the grey levels in two.
func otsu(grey []float64) float64 {
	var hist [256]float64
	for _, v := range grey {
		hist[min(255, int(v*255))]++
	}
	total := float64(len(grey))
	sum := 0.0
	for i, c := range hist {
		sum += float64(i) * c
	}
	best, bestT, wB, sumB := -1.0, 0.5, 0.0, 0.0
	for i := range 255 {
		wB += hist[i]
		if wB == 0 || wB == total {
			continue
		}
		sumB += float64(i) * hist[i]
		mB, mF := sumB/wB, (sum-sumB)/(total-wB)
		if v := wB * (total - wB) * (mB - mF) * (mB - mF); v > best {
			best, bestT = v, (float64(i)+1)/255
		}
	}
	return bestT
}

// majority returns each pixel as most of its 3×3 neighbourhood is (a
// median filter: salt and pepper noise goes, edges stay).
func majority(dark []bool, w, h int) []bool {
	out := make([]bool, len(dark))
	for y := range h {
		for x := range w {
			n, in := 0, 0
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					xx, yy := x+dx, y+dy
					if xx < 0 || yy < 0 || xx >= w || yy >= h {
						continue
					}
					n++
					if dark[yy*w+xx] {
						in++
					}
				}
			}
			out[y*w+x] = 2*in > n
		}
	}
	return out
}

// clean drops dark specks and fills light ones (4-connected components
// under 2% of the dark area; light ones only when they do not reach the
// border).
func clean(dark []bool, w, h int) {
	n := 0
	for _, d := range dark {
		if d {
			n++
		}
	}
	minArea := max(1, n/50)
	seen := make([]bool, w*h)
	var stack, comp []int
	for start := range dark {
		if seen[start] {
			continue
		}
		val := dark[start]
		stack, comp = append(stack[:0], start), comp[:0]
		seen[start] = true
		border := false
		for len(stack) > 0 {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			comp = append(comp, k)
			x, y := k%w, k/w
			if x == 0 || y == 0 || x == w-1 || y == h-1 {
				border = true
			}
			for _, nb := range [4][2]int{{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}} {
				if nb[0] < 0 || nb[1] < 0 || nb[0] >= w || nb[1] >= h {
					continue
				}
				j := nb[1]*w + nb[0]
				if !seen[j] && dark[j] == val {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
		if len(comp) < minArea && (val || !border) {
			for _, k := range comp {
				dark[k] = !val
			}
		}
	}
}

// pixelLoops returns the boundary of the dark pixels as closed loops of
// pixel corners (y up, the shape on the left: outer loops
// counter-clockwise, holes clockwise), corners where the boundary goes
// straight on left out, and the dark area in pixels.
func pixelLoops(dark []bool, w, h int) ([][][2]float64, int) {
	at := func(x, y int) bool { // y up
		return x >= 0 && y >= 0 && x < w && y < h && dark[(h-1-y)*w+x]
	}
	type pt struct{ x, y int }
	next := map[pt][]pt{}
	area := 0
	for y := range h {
		for x := range w {
			if !at(x, y) {
				continue
			}
			area++
			if !at(x, y-1) {
				next[pt{x, y}] = append(next[pt{x, y}], pt{x + 1, y})
			}
			if !at(x+1, y) {
				next[pt{x + 1, y}] = append(next[pt{x + 1, y}], pt{x + 1, y + 1})
			}
			if !at(x, y+1) {
				next[pt{x + 1, y + 1}] = append(next[pt{x + 1, y + 1}], pt{x, y + 1})
			}
			if !at(x-1, y) {
				next[pt{x, y + 1}] = append(next[pt{x, y + 1}], pt{x, y})
			}
		}
	}
	starts := make([]pt, 0, len(next))
	for p := range next {
		starts = append(starts, p)
	}
	sort.Slice(starts, func(i, j int) bool {
		if starts[i].y != starts[j].y {
			return starts[i].y < starts[j].y
		}
		return starts[i].x < starts[j].x
	})
	var loops [][][2]float64
	for _, s := range starts {
		for len(next[s]) > 0 {
			var loop [][2]float64
			p, prev := s, pt{s.x - 1, s.y}
			for {
				outs := next[p]
				if len(outs) == 0 {
					break
				}
				// at a corner shared by two diagonal pixels, turn left.
				k := 0
				if len(outs) > 1 {
					din := pt{p.x - prev.x, p.y - prev.y}
					for j, q := range outs {
						d := pt{q.x - p.x, q.y - p.y}
						if din.x*d.y-din.y*d.x > 0 {
							k = j
						}
					}
				}
				q := outs[k]
				next[p] = append(outs[:k:k], outs[k+1:]...)
				if len(next[p]) == 0 {
					delete(next, p)
				}
				loop = append(loop, [2]float64{float64(p.x), float64(p.y)})
				prev, p = p, q
				if p == s {
					break
				}
			}
			if len(loop) >= 4 {
				loops = append(loops, loop)
			}
		}
	}
	return loops, area
}

// simplifyLoop reduces a closed loop by Douglas-Peucker within eps,
// cutting it at its first point and the point farthest from it.
func simplifyLoop(l [][2]float64, eps float64) [][2]float64 {
	far, fd := 0, -1.0
	for k, p := range l {
		if d := math.Hypot(p[0]-l[0][0], p[1]-l[0][1]); d > fd {
			far, fd = k, d
		}
	}
	if far == 0 {
		return nil
	}
	a := dp(l[:far+1], eps)
	b := dp(append(append([][2]float64(nil), l[far:]...), l[0]), eps)
	out := append(a[:len(a)-1], b[:len(b)-1]...)
	// the cut points are vertices only if the outline turns there.
	for changed := true; changed && len(out) > 3; {
		changed = false
		for k := range out {
			p, q, r := out[(k+len(out)-1)%len(out)], out[k], out[(k+1)%len(out)]
			if segDist(q, p, r) <= eps {
				out = append(out[:k], out[k+1:]...)
				changed = true
				break
			}
		}
	}
	return out
}

func dp(pts [][2]float64, eps float64) [][2]float64 {
	if len(pts) <= 2 {
		return pts
	}
	a, b := pts[0], pts[len(pts)-1]
	k, d := 0, -1.0
	for i := 1; i < len(pts)-1; i++ {
		if e := segDist(pts[i], a, b); e > d {
			k, d = i, e
		}
	}
	if d <= eps {
		return [][2]float64{a, b}
	}
	left := dp(pts[:k+1], eps)
	right := dp(pts[k:], eps)
	return append(left[:len(left)-1], right...)
}

// segDist is the distance from p to the segment ab.
func segDist(p, a, b [2]float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	l2 := dx*dx + dy*dy
	t := 0.0
	if l2 > 0 {
		t = math.Max(0, math.Min(1, ((p[0]-a[0])*dx+(p[1]-a[1])*dy)/l2))
	}
	return math.Hypot(p[0]-a[0]-t*dx, p[1]-a[1]-t*dy)
}

// TraceLoops snaps outlines given as closed loops of points (y up, any
// unit and scale, any orientation: a loop inside an odd number of others
// is a hole, as SVG's even-odd fill has it) as Trace does after tracing: the
// path of an SVG drawing, for instance (ParseSVGPath).
func TraceLoops(loops [][][2]float64, o TraceOptions) (TraceResult, error) {
	o = o.defaults()
	total := 0
	for _, l := range loops {
		total += len(l)
	}
	if total > MaxTotalVertices {
		return TraceResult{}, fmt.Errorf("tangram: trace: %d points, at most %d", total, MaxTotalVertices)
	}
	// a loop inside an odd number of others is a hole: clockwise; the
	// others counter-clockwise (the even-odd rule of SVG's fill).
	area := 0.0
	for k, l := range loops {
		if len(l) < 2 {
			continue
		}
		mx, my := (l[0][0]+l[1][0])/2, (l[0][1]+l[1][1])/2
		others := append(append([][][2]float64(nil), loops[:k]...), loops[k+1:]...)
		hole := evenOdd(others, mx, my)
		if a := loopArea(l); a < 0 != hole {
			for i, j := 0, len(l)-1; i < j; i, j = i+1, j-1 {
				l[i], l[j] = l[j], l[i]
			}
		}
		area += loopArea(l)
	}
	if !(area > 0) || math.IsInf(area, 0) {
		return TraceResult{}, ErrTrace
	}
	return snapLoops(loops, area, o)
}

func loopArea(l [][2]float64) float64 {
	a := 0.0
	for i := range l {
		p, q := l[i], l[(i+1)%len(l)]
		a += p[0]*q[1] - q[0]*p[1]
	}
	return a / 2
}

// snapLoops turns, scales and snaps loops whose area is area.
func snapLoops(loops [][][2]float64, area float64, o TraceOptions) (TraceResult, error) {
	var res TraceResult
	// the turn: the length-weighted mean of 8θ over the edges.
	var c, s, cx, cy float64
	npts := 0
	for _, l := range loops {
		for i := range l {
			p, q := l[i], l[(i+1)%len(l)]
			dx, dy := q[0]-p[0], q[1]-p[1]
			L := math.Hypot(dx, dy)
			th := math.Atan2(dy, dx)
			c += L * math.Cos(8*th)
			s += L * math.Sin(8*th)
			cx, cy, npts = cx+p[0], cy+p[1], npts+1
		}
	}
	if npts == 0 {
		return res, ErrTrace
	}
	res.Rotation = math.Atan2(s, c) / 8
	cx, cy = cx/float64(npts), cy/float64(npts)
	scale := math.Sqrt(8 / area)
	cos, sin := math.Cos(-res.Rotation), math.Sin(-res.Rotation)
	for _, l := range loops {
		u := make([][2]float64, len(l))
		for i, p := range l {
			x, y := p[0]-cx, p[1]-cy
			u[i] = [2]float64{(x*cos - y*sin) * scale, (x*sin + y*cos) * scale}
		}
		if u = tidyLoop(u); len(u) >= 3 {
			res.Loops = append(res.Loops, u)
		}
	}
	if len(res.Loops) == 0 {
		return res, ErrTrace
	}
	type try struct {
		frame string
		pgs   []Polygon
		resid float64
		far   []string
		area8 bool
	}
	var best *try
	for _, frame := range []string{"grid", "square", "mixed"} {
		if frame == "mixed" && best.area8 && best.resid <= o.Tolerance {
			break // the mixed lattice is the last resort: denser, it fits more
		}
		unit := 1.0
		if frame == "square" {
			unit = math.Sqrt2 / 2
		}
		for k := -15; k <= 15; k++ {
			f := 1 + 0.004*float64(k)
			var t frameSnap
			if frame == "mixed" {
				t = snapMixed(res.Loops, f, o.Tolerance)
			} else {
				t = snapFrame(res.Loops, f, unit, frame == "square", o.Tolerance)
			}
			tr := try{frame: frame, pgs: t.pgs, resid: t.resid, far: t.far}
			var sum zr2
			for _, pg := range t.pgs {
				sum = sum.add(pg.area8())
			}
			tr.area8 = sum == zr2{64, 0}
			if best == nil || tr.area8 && !best.area8 || tr.area8 == best.area8 && tr.resid < best.resid {
				b := tr
				best = &b
			}
		}
	}
	res.Frame, res.MaxResidual = best.frame, best.resid
	res.Faults = append(res.Faults, best.far...)
	if !best.area8 {
		var sum zr2
		for _, pg := range best.pgs {
			sum = sum.add(pg.area8())
		}
		res.Faults = append(res.Faults, fmt.Sprintf("the snapped outline has area %.4g, not the tans' 8", sum.float()/8))
	}
	var ch chain
	for li, pg := range best.pgs {
		for i := range pg {
			a, b := pg[i], pg[(i+1)%len(pg)]
			if a == b {
				continue
			}
			d := b.Sub(a)
			if !d.X.IsZero() && !d.Y.IsZero() && d.X.Cmp(d.Y) != 0 && d.X.Cmp(d.Y.Neg()) != 0 {
				res.Faults = append(res.Faults, fmt.Sprintf("outline %d: the edge %v-%v is not at a multiple of 45 degrees", li+1, a, b))
			}
			ch.add(a, b, 1)
		}
	}
	outers, holes, ok := regionFromChain(&ch)
	if !ok || len(outers) == 0 {
		res.Faults = append(res.Faults, "the snapped outline does not bound a region")
		return res, nil
	}
	p := &Puzzle{Name: "traced", Turns: TurnsFlip, Pieces: Tans()}
	p.setRegion(outers, holes)
	// put the lowest-leftmost vertex at the origin.
	shift := p.Silhouette[0].Neg()
	p.Silhouette = p.Silhouette.Translate(shift)
	for k := range p.Parts {
		p.Parts[k] = p.Parts[k].Translate(shift)
	}
	for k := range p.Holes {
		p.Holes[k] = p.Holes[k].Translate(shift)
	}
	if err := p.Validate(); err != nil {
		res.Faults = append(res.Faults, err.Error())
		return res, nil
	}
	res.Puzzle = p
	res.Snapped = len(res.Faults) == 0
	return res, nil
}

// tidyLoop cleans a loop in tan units: a vertex where the outline turns
// by less than 20 degrees goes (a bump of noise on a straight edge), and
// two vertices closer than 0.3 become one, where the edges on either side
// meet (a corner that the pixels cut off). Tan figures turn by at least 45
// degrees and have no edge shorter than 0.29 (1 - √2/2, rare).
func tidyLoop(l [][2]float64) [][2]float64 {
	turn := func(p, q, r [2]float64) float64 {
		a := math.Atan2(q[1]-p[1], q[0]-p[0])
		b := math.Atan2(r[1]-q[1], r[0]-q[0])
		d := math.Abs(b - a)
		if d > math.Pi {
			d = 2*math.Pi - d
		}
		return d
	}
	for changed := true; changed && len(l) > 3; {
		changed = false
		n := len(l)
		for k := range n {
			p, q, r := l[(k+n-1)%n], l[k], l[(k+1)%n]
			if turn(p, q, r) < 20*math.Pi/180 {
				l = append(l[:k:k], l[k+1:]...)
				changed = true
				break
			}
			if math.Hypot(r[0]-q[0], r[1]-q[1]) < 0.3 && n > 3 {
				s := l[(k+2)%n]
				m, ok := lineMeet(p, q, r, s)
				if !ok || math.Hypot(m[0]-q[0], m[1]-q[1]) > 0.5 {
					m = [2]float64{(q[0] + r[0]) / 2, (q[1] + r[1]) / 2}
				}
				l[k] = m
				j := (k + 1) % n
				l = append(l[:j:j], l[j+1:]...)
				changed = true
				break
			}
		}
	}
	return l
}

// lineMeet returns where the line through p and q meets the line through
// r and s.
func lineMeet(p, q, r, s [2]float64) ([2]float64, bool) {
	d1x, d1y := q[0]-p[0], q[1]-p[1]
	d2x, d2y := s[0]-r[0], s[1]-r[1]
	den := d1x*d2y - d1y*d2x
	if math.Abs(den) < 1e-9 {
		return [2]float64{}, false
	}
	t := ((r[0]-p[0])*d2y - (r[1]-p[1])*d2x) / den
	return [2]float64{p[0] + t*d1x, p[1] + t*d1y}, true
}

// snapMixed snaps loops scaled by f edge by edge: each edge is turned to
// the nearest multiple of 45 degrees and its length (its coordinates,
// for a diagonal edge) to the nearest a + b·√2/2 (a, b from 0 to 12,
// the simpler on a tie), each edge measured from where the last one
// ended exactly, so that no error adds up; the first vertex of every loop
// after the first is snapped the same way from the nearest vertex snapped
// before. This
// lattice holds the figures that mix squares turned by 45 degrees with
// others (a tangram man's head on a body square to the axes).
func snapMixed(loops [][][2]float64, f, tol float64) frameSnap {
	var out frameSnap
	if len(loops) == 0 || len(loops[0]) == 0 {
		return out
	}
	h := math.Sqrt2 / 2
	snapC := func(x float64) Num {
		neg := x < 0
		x = math.Abs(x)
		ba, bb, bd := 0, 0, math.Inf(1)
		for a := range 13 {
			for b := range 13 {
				if d := math.Abs(x - float64(a) - float64(b)*h); d < bd-1e-9 {
					ba, bb, bd = a, b, d
				}
			}
		}
		v := Num{int64(2 * ba), int64(bb)}
		if neg {
			v = v.Neg()
		}
		return v
	}
	o := [2]float64{loops[0][0][0] * f, loops[0][0][1] * f}
	fl := func(p Point) [2]float64 { return [2]float64{p.X.Float64() + o[0], p.Y.Float64() + o[1]} }
	var done []Point // snapped vertices of the loops before
	for li, l := range loops {
		// a loop starts from the nearest vertex snapped before (parts
		// touch there, and short steps snap surely).
		from := Point{}
		best := math.Inf(1)
		for _, q := range done {
			fq := fl(q)
			if d := math.Hypot(fq[0]-l[0][0]*f, fq[1]-l[0][1]*f); d < best {
				from, best = q, d
			}
		}
		ff := fl(from)
		start := from.Add(Point{snapC(l[0][0]*f - ff[0]), snapC(l[0][1]*f - ff[1])})
		pg := Polygon{start}
		cur := start
		for i := 1; i <= len(l); i++ {
			v := [2]float64{l[i%len(l)][0] * f, l[i%len(l)][1] * f}
			c := fl(cur)
			dx, dy := v[0]-c[0], v[1]-c[1]
			k := int(math.Round(math.Atan2(dy, dx) / (math.Pi / 4)))
			k = ((k % 8) + 8) % 8
			L := math.Hypot(dx, dy)
			ux := [8]int{1, 1, 0, -1, -1, -1, 0, 1}[k]
			uy := [8]int{0, 1, 1, 1, 0, -1, -1, -1}[k]
			c1 := snapC(L)
			if k%2 == 1 {
				c1 = snapC(L / math.Sqrt2)
			}
			d := Point{}
			if ux != 0 {
				d.X = c1
				if ux < 0 {
					d.X = c1.Neg()
				}
			}
			if uy != 0 {
				d.Y = c1
				if uy < 0 {
					d.Y = c1.Neg()
				}
			}
			if i == len(l) {
				break // the loop closes on its first vertex
			}
			cur = cur.Add(d)
			q := fl(cur)
			r := math.Hypot(q[0]-v[0], q[1]-v[1])
			out.resid = math.Max(out.resid, r)
			if r > tol {
				out.far = append(out.far, fmt.Sprintf("outline %d: the vertex near (%.2f, %.2f) is %.2f from the lattice (tolerance %g)", li+1, v[0], v[1], r, tol))
			}
			if !inRange(cur.X) || !inRange(cur.Y) {
				return frameSnap{resid: math.Inf(1)}
			}
			if pg[len(pg)-1] != cur {
				pg = append(pg, cur)
			}
		}
		for len(pg) > 1 && pg[0] == pg[len(pg)-1] {
			pg = pg[:len(pg)-1]
		}
		if len(pg) >= 3 {
			out.pgs = append(out.pgs, pg)
			done = append(done, pg...)
		}
	}
	return out
}

type frameSnap struct {
	pgs   []Polygon
	resid float64
	far   []string
}

// snapFrame rounds the loops scaled by f to multiples of unit (√2/2 when
// r2), the lattice shifted to fit them best.
func snapFrame(loops [][][2]float64, f, unit float64, r2 bool, tol float64) frameSnap {
	var sx, cx, sy, cy float64
	for _, l := range loops {
		for _, p := range l {
			ax, ay := 2*math.Pi*p[0]*f/unit, 2*math.Pi*p[1]*f/unit
			sx, cx = sx+math.Sin(ax), cx+math.Cos(ax)
			sy, cy = sy+math.Sin(ay), cy+math.Cos(ay)
		}
	}
	ox := math.Atan2(sx, cx) / (2 * math.Pi) * unit
	oy := math.Atan2(sy, cy) / (2 * math.Pi) * unit
	var out frameSnap
	for li, l := range loops {
		var pg Polygon
		for _, p := range l {
			x, y := p[0]*f-ox, p[1]*f-oy
			nx, ny := math.Round(x/unit), math.Round(y/unit)
			r := math.Hypot(x-nx*unit, y-ny*unit)
			out.resid = math.Max(out.resid, r)
			if r > tol {
				out.far = append(out.far, fmt.Sprintf("outline %d: the vertex near (%.2f, %.2f) is %.2f from the lattice (tolerance %g)", li+1, x, y, r, tol))
			}
			if math.Abs(nx) > MaxCoord/2 || math.Abs(ny) > MaxCoord/2 {
				nx, ny = 0, 0
			}
			q := Point{Int(int64(nx)), Int(int64(ny))}
			if r2 {
				q = Point{Half(0, int64(nx)), Half(0, int64(ny))}
			}
			if len(pg) == 0 || pg[len(pg)-1] != q {
				pg = append(pg, q)
			}
		}
		for len(pg) > 1 && pg[0] == pg[len(pg)-1] {
			pg = pg[:len(pg)-1]
		}
		if len(pg) >= 3 {
			out.pgs = append(out.pgs, pg)
		}
	}
	return out
}

// PictureOptions tune Picture.
type PictureOptions struct {
	// Scale is pixels per tan unit (default 40: the square of side 2√2 is
	// about 113 pixels wide).
	Scale float64
	// Angle turns the figure (radians, counter-clockwise).
	Angle float64
	// Noise is the share of pixels flipped at random (salt and pepper),
	// and Seed seeds it.
	Noise float64
	Seed  uint64
}

// Picture draws a figure's region black on white, anti-aliased (3×3
// samples a pixel), turned and scaled as o says, with a margin: the
// pictures that the tracer's tests and bench read. Pictures are bounded
// to 4096 pixels a side.
func Picture(p *Puzzle, o PictureOptions) *image.Gray {
	if o.Scale <= 0 {
		o.Scale = 40
	}
	pgs := append(p.Outers(), p.Holes...)
	var fl [][][2]float64
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	cos, sin := math.Cos(o.Angle), math.Sin(o.Angle)
	for _, pg := range pgs {
		var l [][2]float64
		for _, v := range pg.Float() {
			x, y := (v[0]*cos-v[1]*sin)*o.Scale, (v[0]*sin+v[1]*cos)*o.Scale
			l = append(l, [2]float64{x, y})
			minX, minY, maxX, maxY = math.Min(minX, x), math.Min(minY, y), math.Max(maxX, x), math.Max(maxY, y)
		}
		fl = append(fl, l)
	}
	margin := math.Max(8, 0.1*o.Scale)
	w := min(4096, int(maxX-minX+2*margin))
	h := min(4096, int(maxY-minY+2*margin))
	img := image.NewGray(image.Rect(0, 0, w, h))
	rng := newSplitMix(o.Seed)
	for py := range h {
		for px := range w {
			in := 0
			for sy := range 3 {
				for sx := range 3 {
					x := minX - margin + float64(px) + (float64(sx)+0.5)/3
					y := maxY + margin - float64(py) - (float64(sy)+0.5)/3
					if evenOdd(fl, x, y) {
						in++
					}
				}
			}
			v := 255 - in*255/9
			if o.Noise > 0 && rng.float() < o.Noise {
				v = 255 - v
			}
			img.Pix[py*img.Stride+px] = uint8(v)
		}
	}
	return img
}

// evenOdd reports whether (x, y) is inside an odd number of the loops.
func evenOdd(loops [][][2]float64, x, y float64) bool {
	in := false
	for _, l := range loops {
		for i := range l {
			a, b := l[i], l[(i+1)%len(l)]
			if (a[1] > y) != (b[1] > y) && x < a[0]+(y-a[1])*(b[0]-a[0])/(b[1]-a[1]) {
				in = !in
			}
		}
	}
	return in
}

// splitMix is a small seeded generator (SplitMix64).
type splitMix struct{ s uint64 }

func newSplitMix(seed uint64) *splitMix { return &splitMix{seed} }

func (r *splitMix) float() float64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) / (1 << 53)
}

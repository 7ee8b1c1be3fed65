package tangram

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"sort"
)

// Pose is where a piece is drawn: its shape turned by Orient (about its
// first vertex) and moved by (X, Y). Poses are floating point so that the
// iterates of a numerical method (Algorithm 2's translations read from
// Z_i) can be drawn as well as exact solutions.
type Pose struct {
	X, Y   float64
	Orient Orientation
	Placed bool
}

// Poses returns the solution's placements as poses.
func (s *Solution) Poses() []Pose {
	out := make([]Pose, len(s.Placements))
	for k, pl := range s.Placements {
		out[k] = Pose{pl.T.X.Float64(), pl.T.Y.Float64(), pl.Orient, pl.Placed}
	}
	return out
}

// RenderOptions tune Render; the zero value gives 40 pixels per unit.
type RenderOptions struct {
	Scale  float64 // pixels per unit (default 40)
	Margin int     // pixels around the drawing (default 12)
}

// palette gives the pieces distinct colours, in order.
var palette = []color.RGBA{
	{230, 25, 75, 255}, {60, 180, 75, 255}, {0, 130, 200, 255}, {245, 130, 48, 255},
	{145, 30, 180, 255}, {255, 225, 25, 255}, {70, 240, 240, 255}, {240, 50, 230, 255},
	{128, 128, 0, 255}, {0, 128, 128, 255}, {170, 110, 40, 255}, {128, 0, 0, 255},
}

// PieceColor returns the colour Render gives piece k.
func PieceColor(k int) color.RGBA { return palette[k%len(palette)] }

// Render draws the silhouette in grey with the placed pieces over it in
// distinct colours (translucent, so overlaps show) and outlined; pieces
// not placed (all of them when poses is nil: the puzzle itself) are drawn
// in a row to the right, as given. The image has the y axis pointing up
// as the coordinates do. It errors when poses has the wrong length, a turn
// is not exact, Scale or a pose is not finite, or the image would be over
// 8192 pixels wide or high.
func Render(p *Puzzle, poses []Pose, o RenderOptions) (*image.RGBA, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	if poses == nil {
		poses = make([]Pose, len(p.Pieces))
	}
	if len(poses) != len(p.Pieces) {
		return nil, fmt.Errorf("tangram: render: %d poses for %d pieces", len(poses), len(p.Pieces))
	}
	type fpoly [][2]float64
	sil := fpoly(p.Silhouette.Float())
	minX, minY, maxX, maxY := bounds(sil)
	placed := make([]fpoly, len(p.Pieces))
	for k, ps := range poses {
		if !ps.Placed {
			continue
		}
		sh, err := p.Pieces[k].Shape.Oriented(ps.Orient)
		if err != nil {
			return nil, fmt.Errorf("tangram: render: piece %d: %w", k+1, err)
		}
		f := sh.Float()
		for j := range f {
			f[j][0] += ps.X
			f[j][1] += ps.Y
		}
		placed[k] = f
		a, b, c, d := bounds(f)
		minX, minY, maxX, maxY = math.Min(minX, a), math.Min(minY, b), math.Max(maxX, c), math.Max(maxY, d)
	}
	// the tray: unplaced pieces in a row to the right.
	x := maxX + 1
	tray := make([]fpoly, len(p.Pieces))
	for k, ps := range poses {
		if ps.Placed {
			continue
		}
		f := p.Pieces[k].Shape.Float()
		a, b, c, _ := bounds(f)
		for j := range f {
			f[j][0] += x - a
			f[j][1] += minY - b
		}
		tray[k] = f
		_, _, _, d := bounds(f)
		maxY = math.Max(maxY, d)
		x += c - a + 0.5
		maxX = math.Max(maxX, x)
	}
	img, toPx, err := canvas(minX, minY, maxX, maxY, o)
	if err != nil {
		return nil, err
	}
	fill(img, toPx(sil), color.RGBA{200, 200, 200, 255}, 1)
	outline(img, toPx(sil), color.RGBA{120, 120, 120, 255})
	for k := range p.Pieces {
		if placed[k] != nil {
			fill(img, toPx(placed[k]), PieceColor(k), 0.75)
		}
		if tray[k] != nil {
			fill(img, toPx(tray[k]), PieceColor(k), 1)
		}
	}
	for k := range p.Pieces {
		if placed[k] != nil {
			outline(img, toPx(placed[k]), color.RGBA{30, 30, 30, 255})
		}
		if tray[k] != nil {
			outline(img, toPx(tray[k]), color.RGBA{30, 30, 30, 255})
		}
	}
	return img, nil
}

// RenderPNG writes Render's image as PNG.
func RenderPNG(w io.Writer, p *Puzzle, poses []Pose, o RenderOptions) error {
	img, err := Render(p, poses, o)
	if err != nil {
		return err
	}
	return png.Encode(w, img)
}

func bounds(f [][2]float64) (minX, minY, maxX, maxY float64) {
	minX, minY, maxX, maxY = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, v := range f {
		minX, maxX = math.Min(minX, v[0]), math.Max(maxX, v[0])
		minY, maxY = math.Min(minY, v[1]), math.Max(maxY, v[1])
	}
	return
}

// fill paints the polygon (pixel coordinates) by scanlines at pixel
// centres, even-odd, blending c with opacity alpha.
func fill(img *image.RGBA, f [][2]float64, c color.RGBA, alpha float64) {
	b := img.Bounds()
	var xs []float64
	for y := b.Min.Y; y < b.Max.Y; y++ {
		yc := float64(y) + 0.5
		xs = xs[:0]
		for j := range f {
			a, d := f[j], f[(j+1)%len(f)]
			if (a[1] <= yc) != (d[1] <= yc) {
				xs = append(xs, a[0]+(yc-a[1])*(d[0]-a[0])/(d[1]-a[1]))
			}
		}
		sort.Float64s(xs)
		for j := 0; j+1 < len(xs); j += 2 {
			x0 := max(int(math.Ceil(xs[j]-0.5)), b.Min.X)
			x1 := min(int(math.Floor(xs[j+1]-0.5)), b.Max.X-1)
			for x := x0; x <= x1; x++ {
				blend(img, x, y, c, alpha)
			}
		}
	}
}

func blend(img *image.RGBA, x, y int, c color.RGBA, alpha float64) {
	i := img.PixOffset(x, y)
	px := img.Pix[i : i+4 : i+4]
	px[0] = uint8(float64(px[0])*(1-alpha) + float64(c.R)*alpha + 0.5)
	px[1] = uint8(float64(px[1])*(1-alpha) + float64(c.G)*alpha + 0.5)
	px[2] = uint8(float64(px[2])*(1-alpha) + float64(c.B)*alpha + 0.5)
	px[3] = 255
}

// outline draws the polygon's edges one pixel wide.
func outline(img *image.RGBA, f [][2]float64, c color.RGBA) {
	b := img.Bounds()
	for j := range f {
		a, d := f[j], f[(j+1)%len(f)]
		n := int(math.Ceil(math.Max(math.Abs(d[0]-a[0]), math.Abs(d[1]-a[1])))) + 1
		for t := 0; t <= n; t++ {
			x := int(a[0] + (d[0]-a[0])*float64(t)/float64(n))
			y := int(a[1] + (d[1]-a[1])*float64(t)/float64(n))
			if image.Pt(x, y).In(b) {
				blend(img, x, y, c, 1)
			}
		}
	}
}

// RenderStrip draws several arrangements of the same puzzle left to right
// in one image, each as Render draws it, bottoms aligned, with a gap: the
// strip of iterates of the paper's Figures 5d and 6d.
func RenderStrip(p *Puzzle, frames [][]Pose, o RenderOptions) (*image.RGBA, error) {
	var imgs []*image.RGBA
	for k, poses := range frames {
		img, err := Render(p, poses, o)
		if err != nil {
			return nil, fmt.Errorf("tangram: render strip frame %d: %w", k+1, err)
		}
		imgs = append(imgs, img)
	}
	return hstack(imgs)
}

// withDefaults returns o with Scale 40 and Margin 12 where they are not
// positive, or an error when Scale is not finite.
func (o RenderOptions) withDefaults() (RenderOptions, error) {
	if math.IsNaN(o.Scale) || math.IsInf(o.Scale, 0) {
		return o, fmt.Errorf("tangram: render: scale %v is not finite", o.Scale)
	}
	if o.Scale <= 0 {
		o.Scale = 40
	}
	if o.Margin <= 0 {
		o.Margin = 12
	}
	return o, nil
}

// canvas returns a white picture for the box (minX, minY)-(maxX, maxY) at
// o.Scale pixels a unit with o.Margin around it, and the map of a polygon
// to its pixels (y up). Pictures over 8192 pixels a side, and boxes that
// are not finite, are refused.
func canvas(minX, minY, maxX, maxY float64, o RenderOptions) (*image.RGBA, func([][2]float64) [][2]float64, error) {
	s, m := o.Scale, float64(o.Margin)
	fw, fh := math.Ceil((maxX-minX)*s+2*m), math.Ceil((maxY-minY)*s+2*m)
	if !(fw <= 8192 && fh <= 8192) { // NaN (a pose that is not finite) included
		return nil, nil, fmt.Errorf("tangram: render: %.0fx%.0f pixels is too large; lower Scale", fw, fh)
	}
	w, h := int(fw), int(fh)
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	return img, func(f [][2]float64) [][2]float64 {
		out := make([][2]float64, len(f))
		for j, v := range f {
			out[j] = [2]float64{(v[0]-minX)*s + m, float64(h) - ((v[1]-minY)*s + m)}
		}
		return out
	}, nil
}

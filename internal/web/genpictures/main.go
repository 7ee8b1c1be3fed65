// Command genpictures draws the web app's built-in pictures, procedurally,
// so that the project owns them outright. It writes one PNG per picture:
//
//	go run ./internal/web/genpictures -o internal/web/static/pictures
//
// The drawings are deterministic (fixed seeds, no time or map order), and
// the test checks that the committed files match what this program draws.
package main

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// side is the pictures' side in pixels: enough for 8x8 tiles of 60
// pixels, small enough to keep each file small.
const side = 480

// samples is the supersampling factor per axis (antialiasing).
const samples = 3

// pictures maps each picture's ID to its drawing: a colour for each point
// of the unit square, x to the right and y down.
var pictures = map[string]func() func(x, y float64) rgb{
	"sunset":     sunset,
	"mosaic":     mosaic,
	"mandelbrot": mandelbrot,
	"glass":      glass,
}

// ids lists the pictures in a fixed order.
var ids = []string{"sunset", "mosaic", "mandelbrot", "glass"}

func main() {
	out := flag.String("o", ".", "folder to write the PNG files to")
	flag.Parse()
	for _, id := range ids {
		img := render(pictures[id]())
		path := filepath.Join(*out, id+".png")
		if err := writePNG(path, img); err != nil {
			log.Fatal(err)
		}
		fi, _ := os.Stat(path)
		fmt.Printf("%s: %d bytes\n", path, fi.Size())
	}
}

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// rgb is a linear-ish colour with components in [0, 1].
type rgb struct{ r, g, b float64 }

func (c rgb) add(d rgb) rgb       { return rgb{c.r + d.r, c.g + d.g, c.b + d.b} }
func (c rgb) scale(k float64) rgb { return rgb{c.r * k, c.g * k, c.b * k} }
func mix(a, b rgb, t float64) rgb { return a.scale(1 - t).add(b.scale(t)) }
func hex(v uint32) rgb {
	return rgb{float64(v>>16) / 255, float64(v>>8&255) / 255, float64(v&255) / 255}
}
func clamp01(v float64) float64      { return math.Max(0, math.Min(1, v)) }
func smooth(a, b, x float64) float64 { t := clamp01((x - a) / (b - a)); return t * t * (3 - 2*t) }

// render draws f on a side x side image.
func render(f func(x, y float64) rgb) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, side, side))
	for py := range side {
		for px := range side {
			img.SetNRGBA(px, py, pixel(f, px, py))
		}
	}
	return img
}

// pixel samples f at samples^2 points of pixel (px, py) and averages them.
func pixel(f func(x, y float64) rgb, px, py int) color.NRGBA {
	var sum rgb
	for sy := range samples {
		for sx := range samples {
			x := (float64(px) + (float64(sx)+0.5)/samples) / side
			y := (float64(py) + (float64(sy)+0.5)/samples) / side
			sum = sum.add(f(x, y))
		}
	}
	c := sum.scale(1.0 / (samples * samples))
	return color.NRGBA{level(c.r), level(c.g), level(c.b), 255}
}

// ridge is a mountain skyline: a sum of sines with random phases.
type ridge struct {
	base, amp float64
	freq      []float64
	phase     []float64
	weight    []float64
}

func newRidge(rng *rand.Rand, base, amp float64) ridge {
	r := ridge{base: base, amp: amp}
	for k := range 5 {
		r.freq = append(r.freq, math.Pow(2.1, float64(k))*2.3)
		r.phase = append(r.phase, rng.Float64()*2*math.Pi)
		r.weight = append(r.weight, math.Pow(0.52, float64(k)))
	}
	return r
}

// height is the ridge's top at x, as a y coordinate.
func (r ridge) height(x float64) float64 {
	h := 0.0
	for k := range r.freq {
		h += r.weight[k] * math.Abs(math.Sin(r.freq[k]*x+r.phase[k]))
	}
	return r.base - r.amp*h
}

// sunset: a sky from violet to orange, a low sun, three mountain ranges
// (the farther, the hazier) and their reflection in a lake.
func sunset() func(x, y float64) rgb {
	rng := rand.New(rand.NewPCG(7, 1))
	ridges := []ridge{newRidge(rng, 0.62, 0.09), newRidge(rng, 0.69, 0.07), newRidge(rng, 0.74, 0.05)}
	ridgeColor := []rgb{hex(0xa0587a), hex(0x5e3568), hex(0x2b1d46)}
	const horizon, sunX, sunY, sunR = 0.74, 0.34, 0.47, 0.07
	sky := func(x, y float64) rgb {
		t := y / horizon
		c := mix(hex(0x1b1d5a), hex(0x7b3d8f), smooth(0, 0.5, t))
		c = mix(c, hex(0xf2784b), smooth(0.4, 0.8, t))
		c = mix(c, hex(0xffd27a), smooth(0.75, 1.0, t))
		d := math.Hypot(x-sunX, y-sunY)
		c = c.add(hex(0xffb060).scale(0.6 * math.Exp(-d*d/0.01)))
		c = mix(c, hex(0xfff3c8), smooth(sunR, sunR-0.004, d))
		// Thin clouds, lit from below near the sun.
		band := math.Sin(y*55+2.5*math.Sin(x*5+1)) * math.Sin(x*7-y*3)
		cloud := mix(hex(0x9a5fa8), hex(0xffb3a0), smooth(0.2, 0.75, t))
		return mix(c, cloud, 0.5*smooth(0.55, 0.95, band)*smooth(0.1, 0.5, t))
	}
	land := func(x, y float64) (rgb, bool) {
		for i := len(ridges) - 1; i >= 0; i-- {
			if top := ridges[i].height(x); y >= top {
				// Lower parts sink in the haze; a lit rim on the tops.
				base := ridges[i].base
				haze := mix(hex(0xd27a86), hex(0x3a2a5a), float64(i)/2)
				c := mix(ridgeColor[i], haze, 0.4*smooth(base-0.12, base+0.06, y))
				return mix(c, hex(0xffb08a), 0.35*smooth(top+0.006, top, y)*(1-float64(i)/3)), true
			}
		}
		return rgb{}, false
	}
	return func(x, y float64) rgb {
		if y < horizon {
			if c, ok := land(x, y); ok {
				return c
			}
			return sky(x, y)
		}
		// The lake mirrors the scene, rippled and darkened with depth.
		my := 2*horizon - y + 0.006*math.Sin(y*240+x*12)
		c, ok := land(x, my)
		if !ok {
			c = sky(x+0.004*math.Sin(y*280), my)
		}
		return mix(c.scale(0.75), hex(0x10173a), smooth(horizon, 1.02, y))
	}
}

// mosaic: Truchet tiles of quarter circles over a colour wheel, so every
// part of the picture has its own colour.
func mosaic() func(x, y float64) rgb {
	const n = 12
	rng := rand.New(rand.NewPCG(11, 2))
	flip := make([]bool, n*n)
	for i := range flip {
		flip[i] = rng.IntN(2) == 1
	}
	return func(x, y float64) rgb {
		cx, cy := int(x*n), int(y*n)
		if cx >= n {
			cx = n - 1
		}
		if cy >= n {
			cy = n - 1
		}
		fx, fy := x*n-float64(cx), y*n-float64(cy)
		if flip[cy*n+cx] {
			fx = 1 - fx
		}
		// Distance to the nearer of the two quarter-circle arcs.
		d := math.Min(math.Abs(math.Hypot(fx, fy)-0.5), math.Abs(math.Hypot(1-fx, 1-fy)-0.5))
		hue := math.Atan2(y-0.5, x-0.5)/(2*math.Pi) + 0.5
		r := math.Hypot(x-0.5, y-0.5)
		fill := hsl(hue, 0.65, 0.30+0.25*r)
		line := hsl(hue+0.08, 0.85, 0.72-0.2*r)
		return mix(fill, line, smooth(0.13, 0.10, d)).scale(1 - 0.35*smooth(0.11, 0.13, d)*smooth(0.17, 0.13, d))
	}
}

// mandelbrot: the Mandelbrot set with smooth escape-time colouring.
func mandelbrot() func(x, y float64) rgb {
	palette := []rgb{hex(0x000764), hex(0x206bcb), hex(0xedffff), hex(0xffaa00), hex(0x000200), hex(0x000764)}
	return func(x, y float64) rgb {
		cr, ci := -0.75+(x-0.5)*2.7, (y-0.5)*2.7
		zr, zi := 0.0, 0.0
		const maxIter = 400
		for i := range maxIter {
			zr, zi = zr*zr-zi*zi+cr, 2*zr*zi+ci
			if m := zr*zr + zi*zi; m > 256 {
				nu := float64(i) + 1 - math.Log2(math.Log2(m)/2)
				t := math.Mod(math.Sqrt(nu)*0.22, 1) * float64(len(palette)-1)
				k := int(t)
				return mix(palette[k], palette[k+1], t-float64(k))
			}
		}
		return hex(0x05030f)
	}
}

// glass: a stained-glass window of Voronoi cells with lead lines, each
// cell coloured by where it is (hue across, light to dark down): an easy
// picture to solve.
func glass() func(x, y float64) rgb {
	rng := rand.New(rand.NewPCG(13, 3))
	type site struct {
		x, y float64
		c    rgb
	}
	// Jittered grid points, so cells are even in size.
	const n = 9
	var sites []site
	for j := range n {
		for i := range n {
			x := (float64(i) + 0.15 + 0.7*rng.Float64()) / n
			y := (float64(j) + 0.15 + 0.7*rng.Float64()) / n
			sites = append(sites, site{x, y, hsl(x*0.9+0.02*rng.NormFloat64(), 0.7, 0.68-0.36*y)})
		}
	}
	return func(x, y float64) rgb {
		// The nearest and second-nearest sites: the gap between their
		// distances is the distance to the cell's edge.
		d1, d2, k := math.Inf(1), math.Inf(1), 0
		for i, s := range sites {
			d := math.Hypot(x-s.x, y-s.y)
			if d < d1 {
				d1, d2, k = d, d1, i
			} else if d < d2 {
				d2 = d
			}
		}
		edge := d2 - d1
		c := sites[k].c.scale(1.08 - 0.25*d1*n) // lighter towards the middle of a cell
		return mix(hex(0x1c1a22), c, smooth(0.006, 0.011, edge))
	}
}

// hsl converts hue (turns), saturation and lightness to rgb.
func hsl(h, s, l float64) rgb {
	h -= math.Floor(h)
	f := func(n float64) float64 {
		k := math.Mod(n+h*12, 12)
		a := s * math.Min(l, 1-l)
		return l - a*math.Max(-1, math.Min(math.Min(k-3, 9-k), 1))
	}
	return rgb{f(0), f(8), f(4)}
}

// level quantises a component to 64 levels, which the eye does not tell
// from 256 in these drawings and which halves the PNG files.
func level(v float64) uint8 {
	q := math.Round(clamp01(v) * 63)
	return uint8(q*255/63 + 0.5)
}

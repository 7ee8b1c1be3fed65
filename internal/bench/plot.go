package bench

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strconv"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// Plot colours: one per algorithm, then the heat map's.
var plotColors = []color.RGBA{{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255},
	{148, 103, 189, 255}, {140, 86, 75, 255}}

// SameGamePlot draws the source blog's two figures of a comparison as one
// PNG: on the left a 2-D histogram of the first algorithm's clicks
// (vertical) against the second's (horizontal; with one algorithm, the
// best known), with the diagonal, and on the right the histogram of clicks
// over the best for every algorithm (one bar each, in the order of names).
func SameGamePlot(names []string, lines []SameGameCompareRecord) ([]byte, error) {
	const W, H = 1100, 520
	img := image.NewRGBA(image.Rect(0, 0, W, H))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	black := color.RGBA{0, 0, 0, 255}
	grey := color.RGBA{200, 200, 200, 255}

	// Left: first algorithm against the second (or against the best).
	xName, yName := "best", names[0]
	if len(names) > 1 {
		xName = names[1]
	}
	get := func(r SameGameCompareRecord, name string) (int, bool) {
		if name == "best" {
			return r.Best, r.Best > 0
		}
		c, ok := r.Clicks[name]
		return c, ok
	}
	lo, hi := 1<<30, 0
	counts := map[[2]int]int{}
	for _, r := range lines {
		x, ok1 := get(r, xName)
		y, ok2 := get(r, yName)
		if !ok1 || !ok2 {
			continue
		}
		counts[[2]int{x, y}]++
		lo, hi = min(lo, x, y), max(hi, x, y)
	}
	if hi >= lo {
		x0, y0, size := 70, 40, 420
		n := hi - lo + 1
		cell := size / n
		size = cell * n
		peak := 0
		for _, c := range counts {
			peak = max(peak, c)
		}
		for k, c := range counts {
			t := float64(c) / float64(peak)
			col := color.RGBA{uint8(255 - 225*t), uint8(255 - 180*t), uint8(255 - 75*t), 255}
			px, py := x0+(k[0]-lo)*cell, y0+size-(k[1]-lo+1)*cell
			fillRect(img, px, py, cell, cell, col)
			if cell >= 18 {
				txt := black
				if t > 0.6 {
					txt = color.RGBA{255, 255, 255, 255}
				}
				label(img, px+cell/2-len(strconv.Itoa(c))*7/2, py+cell/2+4, strconv.Itoa(c), txt)
			}
		}
		for i := 0; i <= n; i++ { // grid, axes and ticks
			fillRect(img, x0+i*cell, y0, 1, size, grey)
			fillRect(img, x0, y0+i*cell, size, 1, grey)
		}
		for i := range size { // the diagonal
			img.Set(x0+i, y0+size-i, black)
		}
		for v := lo; v <= hi; v++ {
			s := strconv.Itoa(v)
			label(img, x0+(v-lo)*cell+cell/2-len(s)*7/2, y0+size+16, s, black)
			label(img, x0-8-len(s)*7, y0+size-(v-lo)*cell-cell/2+4, s, black)
		}
		label(img, x0+size/2-60, y0+size+36, "clicks of "+xName, black)
		label(img, 4, y0-14, "clicks of "+yName+" (boards per cell)", black)
	}

	// Right: clicks over the best, one bar per algorithm.
	x0, y0, pw, ph := 600, 40, 460, 420
	maxD, peak := 0, 0
	hist := make([][]int, len(names))
	for a, name := range names {
		for _, r := range lines {
			if c, ok := r.Clicks[name]; ok {
				d := max(c-r.Best, 0)
				for len(hist[a]) <= d {
					hist[a] = append(hist[a], 0)
				}
				hist[a][d]++
				maxD = max(maxD, d)
			}
		}
		for _, c := range hist[a] {
			peak = max(peak, c)
		}
	}
	if peak > 0 {
		groupW := pw / (maxD + 1)
		barW := max(1, (groupW-6)/len(names))
		fillRect(img, x0, y0+ph, pw, 1, black)
		for d := 0; d <= maxD; d++ {
			for a := range names {
				if d >= len(hist[a]) || hist[a][d] == 0 {
					continue
				}
				bh := hist[a][d] * (ph - 20) / peak
				fillRect(img, x0+d*groupW+3+a*barW, y0+ph-bh, barW-1, bh, plotColors[a%len(plotColors)])
			}
			s := "+" + strconv.Itoa(d)
			label(img, x0+d*groupW+groupW/2-len(s)*7/2, y0+ph+16, s, black)
		}
		label(img, x0+pw/2-80, y0+ph+36, "clicks over the best known", black)
		label(img, x0, y0-14, fmt.Sprintf("boards (of %d; highest bar %d)", len(lines), peak), black)
		for a, name := range names {
			fillRect(img, x0+pw-120, y0+10+a*18, 12, 12, plotColors[a%len(plotColors)])
			label(img, x0+pw-102, y0+21+a*18, name, black)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func fillRect(img *image.RGBA, x, y, w, h int, c color.RGBA) {
	draw.Draw(img, image.Rect(x, y, x+w, y+h), image.NewUniform(c), image.Point{}, draw.Src)
}

func label(img *image.RGBA, x, y int, s string, c color.RGBA) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

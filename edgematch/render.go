package edgematch

import (
	"image"
	"image/color"
	"math"
)

// RenderOptions tune Render. The zero value draws 48-pixel cells with
// mismatches highlighted.
type RenderOptions struct {
	// Cell is the side of a cell in pixels (0: 48).
	Cell int
	// NoHighlight leaves mismatched edges and frame errors unmarked.
	NoHighlight bool
}

// Palette returns the display colour of edge colour c: grey for 0, then
// well-separated hues (golden-ratio steps) in alternating lightness.
func Palette(c Colour) color.RGBA {
	if c == Grey {
		return color.RGBA{0x9a, 0x9a, 0x9a, 0xff}
	}
	h := math.Mod(float64(c-1)*0.618033988749895, 1)
	s, v := 0.75, 0.95
	switch c % 3 {
	case 1:
		s, v = 0.55, 0.80
	case 2:
		s, v = 0.90, 0.65
	}
	return hsv(h, s, v)
}

func hsv(h, s, v float64) color.RGBA {
	i := int(h * 6)
	f := h*6 - float64(i)
	p, q, t := v*(1-s), v*(1-f*s), v*(1-(1-f)*s)
	var r, g, b float64
	switch i % 6 {
	case 0:
		r, g, b = v, t, p
	case 1:
		r, g, b = q, v, p
	case 2:
		r, g, b = p, v, t
	case 3:
		r, g, b = p, q, v
	case 4:
		r, g, b = t, p, v
	default:
		r, g, b = v, p, q
	}
	return color.RGBA{uint8(r*255 + 0.5), uint8(g*255 + 0.5), uint8(b*255 + 0.5), 0xff}
}

// Render draws b: each piece as four coloured triangles meeting in its
// centre, empty cells dark, thin lines between cells, and (unless
// NoHighlight) a red bar outlined in white on every internal edge whose
// colours differ and on every outward edge that does not show the frame
// colour. b must fit p (Puzzle.Check).
func (p *Puzzle) Render(b *Board, o RenderOptions) *image.RGBA {
	cs := o.Cell
	if cs <= 0 {
		cs = 48
	}
	margin := max(2, cs/8)
	img := image.NewRGBA(image.Rect(0, 0, b.Cols*cs+2*margin, b.Rows*cs+2*margin))
	bg := color.RGBA{0x20, 0x20, 0x24, 0xff}
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = bg.R, bg.G, bg.B, bg.A
	}
	line := color.RGBA{0x10, 0x10, 0x10, 0xff}
	for r := range b.Rows {
		for c := range b.Cols {
			x0, y0 := margin+c*cs, margin+r*cs
			cell := b.At(r, c)
			for y := range cs {
				for x := range cs {
					var col color.RGBA
					switch {
					case x == 0 || y == 0:
						col = line
					case cell.Piece == NoPiece:
						col = color.RGBA{0x30, 0x30, 0x36, 0xff}
					default:
						// The triangle is the side nearest to (x, y).
						d := North
						switch {
						case y >= x && y >= cs-1-x:
							d = South
						case x >= y && x >= cs-1-y:
							d = East
						case x < y && x < cs-1-y:
							d = West
						}
						col = Palette(p.Edge(cell, d))
						if x == y || x == cs-1-y {
							col = shade(col)
						}
					}
					img.SetRGBA(x0+x, y0+y, col)
				}
			}
		}
	}
	if o.NoHighlight {
		return img
	}
	red := color.RGBA{0xff, 0x10, 0x10, 0xff}
	white := color.RGBA{0xff, 0xff, 0xff, 0xff}
	bar := max(3, cs/8)
	fill := func(rect image.Rectangle, c color.RGBA) {
		rect = rect.Intersect(img.Bounds())
		for y := rect.Min.Y; y < rect.Max.Y; y++ {
			for x := rect.Min.X; x < rect.Max.X; x++ {
				img.SetRGBA(x, y, c)
			}
		}
	}
	// mark draws a red bar with a white outline along side d of (r, c).
	mark := func(r, c, d int) {
		x0, y0 := margin+c*cs, margin+r*cs
		var rect image.Rectangle
		switch d {
		case North:
			rect = image.Rect(x0, y0-bar/2, x0+cs, y0+bar-bar/2)
		case South:
			rect = image.Rect(x0, y0+cs-bar/2, x0+cs, y0+cs+bar-bar/2)
		case West:
			rect = image.Rect(x0-bar/2, y0, x0+bar-bar/2, y0+cs)
		default:
			rect = image.Rect(x0+cs-bar/2, y0, x0+cs+bar-bar/2, y0+cs)
		}
		fill(rect.Inset(-1), white)
		fill(rect, red)
	}
	for r := range b.Rows {
		for c := range b.Cols {
			cell := b.At(r, c)
			if cell.Piece == NoPiece {
				continue
			}
			for d := range 4 {
				if FrameIndex(p.Rows, p.Cols, r, c, d) >= 0 && p.Edge(cell, d) != p.FrameColour(r, c, d) {
					mark(r, c, d)
				}
			}
			if c+1 < b.Cols {
				if nb := b.At(r, c+1); nb.Piece != NoPiece {
					if e := p.Edge(cell, East); e == Grey || e != p.Edge(nb, West) {
						mark(r, c, East)
					}
				}
			}
			if r+1 < b.Rows {
				if nb := b.At(r+1, c); nb.Piece != NoPiece {
					if e := p.Edge(cell, South); e == Grey || e != p.Edge(nb, North) {
						mark(r, c, South)
					}
				}
			}
		}
	}
	return img
}

// shade darkens a colour for the diagonals between triangles.
func shade(c color.RGBA) color.RGBA {
	return color.RGBA{c.R * 3 / 4, c.G * 3 / 4, c.B * 3 / 4, c.A}
}

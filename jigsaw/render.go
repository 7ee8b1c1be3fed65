package jigsaw

import (
	"context"
	"fmt"
	"image"
	"io"
)

// Render draws output image img of placement p with the puzzle's pieces,
// each turned by its rotation, over the cells of p.Bounds(img); empty cells
// are transparent. The result is an *image.NRGBA64 when pz.Depth is 16 and
// an *image.NRGBA otherwise. It panics if p names a piece outside pz.
func Render(pz *Puzzle, p *Placement, img int) image.Image {
	return render(pz, p, img, p.Bounds(img))
}

// WritePNG renders output image img of p as a PNG.
func WritePNG(w io.Writer, pz *Puzzle, p *Placement, img int) error {
	if p.Bounds(img).Empty() {
		return fmt.Errorf("jigsaw: output image %d has no pieces", img)
	}
	return writePNG(context.Background(), w, Render(pz, p, img), 0)
}

func render(pz *Puzzle, p *Placement, img int, cells image.Rectangle) image.Image {
	s := pz.PieceSize
	rect := image.Rect(0, 0, cells.Dx()*s, cells.Dy()*s)
	var m16 *image.NRGBA64
	var m8 *image.NRGBA
	if pz.Depth == 16 {
		m16 = image.NewNRGBA64(rect)
	} else {
		m8 = image.NewNRGBA(rect)
	}
	for _, q := range p.Pieces {
		if q.Image != img {
			continue
		}
		pc := pz.Pieces[q.Piece]
		x0, y0 := (q.Col-cells.Min.X)*s, (q.Row-cells.Min.Y)*s
		for y := range s {
			for x := range s {
				sx, sy := rotateSource(x, y, s, q.Rotation)
				r, g, b := pc.RGB(sx, sy)
				if m16 != nil {
					d := m16.Pix[m16.PixOffset(x0+x, y0+y):]
					d[0], d[1], d[2], d[3] = uint8(r>>8), uint8(r), uint8(g>>8), uint8(g)
					d[4], d[5], d[6], d[7] = uint8(b>>8), uint8(b), 0xff, 0xff
				} else {
					d := m8.Pix[m8.PixOffset(x0+x, y0+y):]
					d[0], d[1], d[2], d[3] = uint8(r>>8), uint8(g>>8), uint8(b>>8), 0xff
				}
			}
		}
	}
	if m16 != nil {
		return m16
	}
	return m8
}

package tangram

import (
	"fmt"
	"image"
	"image/color"
	"math"
)

// RenderAugmented draws the augmented puzzle of section 6.3 as the paper's
// Figure 7 does: the silhouette turned about aug.Centre in every
// orientation of aug (translucent grey, the unturned one darker), and,
// when shifts is not nil, every copy of every piece, the copy in
// orientation A at A·shifts[i] (translucent, in the piece's colour, so
// that the copies which land in the unturned silhouette show where the
// piece goes and how it is turned). Shifts come from an iterate
// (SDPIterate.Shifts) or a solution (Augmentation.Shifts). The y axis
// points up; errors as Render's.
func RenderAugmented(p *Puzzle, aug *Augmentation, shifts [][2]float64, o RenderOptions) (*image.RGBA, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	if shifts != nil && len(shifts) != len(p.Pieces) {
		return nil, fmt.Errorf("tangram: render: %d shifts for %d pieces", len(shifts), len(p.Pieces))
	}
	type fpoly = [][2]float64
	var frames []fpoly
	sil := p.Silhouette.Float()
	for _, or := range aug.Orients {
		mt := or.matrix()
		f := make(fpoly, len(sil))
		for k, v := range sil {
			w := apply(mt, [2]float64{v[0] - aug.Centre[0], v[1] - aug.Centre[1]})
			f[k] = [2]float64{w[0] + aug.Centre[0], w[1] + aug.Centre[1]}
		}
		frames = append(frames, f)
	}
	type copyPoly struct {
		f     fpoly
		piece int
	}
	var copies []copyPoly
	for i := range shifts {
		for _, or := range aug.Orients {
			ps := aug.Pose(p, i, or, shifts[i])
			sh, err := p.Pieces[i].Shape.Oriented(or)
			if err != nil {
				return nil, fmt.Errorf("tangram: render: piece %d: %w", i+1, err)
			}
			f := sh.Float()
			for k := range f {
				f[k] = [2]float64{f[k][0] + ps.X, f[k][1] + ps.Y}
			}
			copies = append(copies, copyPoly{f, i})
		}
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, f := range frames {
		a, b, c, d := bounds(f)
		minX, minY, maxX, maxY = math.Min(minX, a), math.Min(minY, b), math.Max(maxX, c), math.Max(maxY, d)
	}
	for _, c := range copies {
		a, b, cc, d := bounds(c.f)
		minX, minY, maxX, maxY = math.Min(minX, a), math.Min(minY, b), math.Max(maxX, cc), math.Max(maxY, d)
	}
	img, toPx, err := canvas(minX, minY, maxX, maxY, o)
	if err != nil {
		return nil, err
	}
	grey := color.RGBA{150, 150, 150, 255}
	for k, f := range frames {
		alpha := 0.12
		if k == 0 {
			alpha = 0.35
		}
		fill(img, toPx(f), grey, alpha)
	}
	for _, c := range copies {
		fill(img, toPx(c.f), PieceColor(c.piece), 0.3)
	}
	for k, f := range frames {
		col := color.RGBA{190, 190, 190, 255}
		if k == 0 {
			col = color.RGBA{90, 90, 90, 255}
		}
		outline(img, toPx(f), col)
	}
	for _, c := range copies {
		outline(img, toPx(c.f), color.RGBA{60, 60, 60, 255})
	}
	return img, nil
}

// RenderAugmentedStrip draws RenderAugmented of several shifts left to
// right, bottoms aligned: the iterates of Algorithm 2 on the augmented
// puzzle.
func RenderAugmentedStrip(p *Puzzle, aug *Augmentation, iterates [][][2]float64, o RenderOptions) (*image.RGBA, error) {
	var imgs []*image.RGBA
	for k, sh := range iterates {
		img, err := RenderAugmented(p, aug, sh, o)
		if err != nil {
			return nil, fmt.Errorf("tangram: render strip frame %d: %w", k+1, err)
		}
		imgs = append(imgs, img)
	}
	return hstack(imgs)
}

// hstack puts images side by side with a gap, bottoms aligned.
func hstack(imgs []*image.RGBA) (*image.RGBA, error) {
	const gap = 8
	w, h := 0, 0
	for _, img := range imgs {
		w += img.Bounds().Dx() + gap
		h = max(h, img.Bounds().Dy())
	}
	if len(imgs) == 0 {
		return nil, fmt.Errorf("tangram: render strip: no frames")
	}
	if w > 1<<15 {
		return nil, fmt.Errorf("tangram: render strip: %d pixels wide is too large; lower Scale", w)
	}
	out := image.NewRGBA(image.Rect(0, 0, w-gap, h))
	for i := range out.Pix {
		out.Pix[i] = 255
	}
	x := 0
	for _, img := range imgs {
		b := img.Bounds()
		for y := 0; y < b.Dy(); y++ {
			copy(out.Pix[(h-b.Dy()+y)*out.Stride+4*x:], img.Pix[y*img.Stride:y*img.Stride+4*b.Dx()])
		}
		x += b.Dx() + gap
	}
	return out, nil
}

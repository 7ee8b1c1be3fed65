package imageio

import (
	"image"
	"math"
)

// subsampling returns the horizontal and vertical chroma subsampling
// factors of a YCbCr ratio.
func subsampling(r image.YCbCrSubsampleRatio) (sx, sy int) {
	switch r {
	case image.YCbCrSubsampleRatio422:
		return 2, 1
	case image.YCbCrSubsampleRatio420:
		return 2, 2
	case image.YCbCrSubsampleRatio440:
		return 1, 2
	case image.YCbCrSubsampleRatio411:
		return 4, 1
	case image.YCbCrSubsampleRatio410:
		return 4, 2
	}
	return 1, 1
}

// ycbcrToNRGBA64 converts a decoded JPEG to RGB with 16-bit precision,
// interpolating subsampled chroma bilinearly between sample centres as
// libjpeg's "fancy upsampling" does. Go's own conversion repeats each
// chroma sample over its block, which puts colour steps every 2 pixels and
// wrecks gradient-based edge measures.
func ycbcrToNRGBA64(src *image.YCbCr, out *image.NRGBA64) {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	sx, sy := subsampling(src.SubsampleRatio)
	// chroma plane size
	cw := (b.Max.X+sx-1)/sx - b.Min.X/sx
	ch := (b.Max.Y+sy-1)/sy - b.Min.Y/sy
	chroma := func(plane []uint8, cx, cy int) float64 {
		cx = min(max(cx, 0), cw-1)
		cy = min(max(cy, 0), ch-1)
		return float64(plane[cy*src.CStride+cx])
	}
	for y := range h {
		// position of the pixel centre in chroma sample units
		fy := (float64(b.Min.Y+y)+0.5)/float64(sy) - 0.5 - float64(b.Min.Y/sy)
		y0 := int(math.Floor(fy))
		ty := fy - float64(y0)
		for x := range w {
			fx := (float64(b.Min.X+x)+0.5)/float64(sx) - 0.5 - float64(b.Min.X/sx)
			x0 := int(math.Floor(fx))
			tx := fx - float64(x0)
			interp := func(plane []uint8) float64 {
				a := chroma(plane, x0, y0)*(1-tx) + chroma(plane, x0+1, y0)*tx
				c := chroma(plane, x0, y0+1)*(1-tx) + chroma(plane, x0+1, y0+1)*tx
				return a*(1-ty) + c*ty - 128
			}
			cb, cr := interp(src.Cb), interp(src.Cr)
			yy := float64(src.Y[src.YOffset(b.Min.X+x, b.Min.Y+y)])
			r := yy + 1.402*cr
			g := yy - 0.344136*cb - 0.714136*cr
			bl := yy + 1.772*cb
			o := out.Pix[y*out.Stride+8*x : y*out.Stride+8*x+8 : y*out.Stride+8*x+8]
			for i, v := range [3]float64{r, g, bl} {
				q := uint16(min(max(v*257+0.5, 0), 65535))
				o[2*i], o[2*i+1] = uint8(q>>8), uint8(q)
			}
			o[6], o[7] = 0xff, 0xff
		}
	}
}

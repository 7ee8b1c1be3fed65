package jigsaw

import (
	"context"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io"

	"tessera/imageio"
)

// MosaicOptions configure Mosaic. The zero value tiles the images as they
// are, near square.
type MosaicOptions struct {
	// Cols is the number of tiles per row (0: near square).
	Cols int
	// Trim cuts this many pixels off every side of each image first (the
	// Kodak pictures have a grey frame 2 or 3 pixels wide).
	Trim int
	// Crop, when not zero, then keeps the central Crop.X x Crop.Y pixels
	// of each image, turned first to the crop's orientation, so that
	// pictures of different sizes can be tiled.
	Crop image.Point
	// Size, when not zero, keeps the central Size.X x Size.Y pixels of
	// the mosaic.
	Size image.Point
	// MaxPixels bounds the mosaic, and for MosaicFiles the pixels of its
	// sources in all, checked before anything is decoded (0:
	// imageio.DefaultMaxPixels, 100 Mpx: the mosaic takes 8 bytes a pixel,
	// and 4 more when written at 8 bits).
	MaxPixels int64
}

// maxPixels returns o.MaxPixels or its default.
func (o MosaicOptions) maxPixels() int64 {
	if o.MaxPixels > 0 {
		return o.MaxPixels
	}
	return imageio.DefaultMaxPixels
}

// MosaicError is an option of Mosaic that an image, or the mosaic, is too
// small for: Image is the image's index, or -1 for the mosaic, and Size
// its size when the option applied.
type MosaicError struct {
	Option string // "trim 4", "crop 300x10", "size 9000x10"
	Image  int
	Size   image.Point
}

func (e *MosaicError) Error() string {
	what := "the mosaic"
	if e.Image >= 0 {
		what = fmt.Sprintf("image %d", e.Image)
	}
	return fmt.Sprintf("jigsaw: mosaic %s: %s is only %dx%d", e.Option, what, e.Size.X, e.Size.Y)
}

// Mosaic tiles n images row by row into one picture, a large puzzle to
// scramble; load(i) returns image i (called once each, in order, so that
// only one is held at a time). Every tile has the size of the first image
// after Trim and Crop; an image of the other orientation is turned a
// quarter turn clockwise, any other size is an error. Options that an
// image or the mosaic is too small for give a *MosaicError. Time and
// memory O(pixels of the mosaic). It returns the mosaic and the size of
// its tiles. Cols must be 0 to n, and a mosaic of more than MaxPixels
// pixels is refused before it is allocated, with an error wrapping
// imageio.ErrTooLarge. Once ctx has ended it returns an error wrapping
// ctx.Err().
func Mosaic(ctx context.Context, n int, load func(i int) (*image.NRGBA64, error), opts MosaicOptions) (pic *image.NRGBA64, tile image.Point, err error) {
	c := opts.Cols
	if c < 0 || c > n {
		return nil, tile, fmt.Errorf("jigsaw: mosaic of %d images in %d columns: want 1 to %d", n, c, n)
	}
	if c == 0 {
		for c*c < n {
			c++
		}
	}
	rows := (n + c - 1) / c
	var tw, th int
	var big *image.NRGBA64
	for k := range n {
		if err := ctx.Err(); err != nil {
			return nil, tile, fmt.Errorf("jigsaw: mosaic: %w", err)
		}
		m, lerr := load(k)
		if lerr != nil {
			return nil, tile, lerr
		}
		b := m.Bounds()
		if t := opts.Trim; t > 0 {
			if 2*t >= min(b.Dx(), b.Dy()) {
				return nil, tile, &MosaicError{fmt.Sprintf("trim %d", t), k, b.Size()}
			}
			m = centre(m, b.Dx()-2*t, b.Dy()-2*t)
			b = m.Bounds()
		}
		if cw, ch := opts.Crop.X, opts.Crop.Y; cw > 0 && ch > 0 {
			if b.Dx() < b.Dy() && cw > ch || b.Dx() > b.Dy() && cw < ch {
				m = turnImage(m)
				b = m.Bounds()
			}
			if b.Dx() < cw || b.Dy() < ch {
				return nil, tile, &MosaicError{fmt.Sprintf("crop %dx%d", cw, ch), k, b.Size()}
			}
			m = centre(m, cw, ch)
			b = m.Bounds()
		}
		if k == 0 {
			tw, th, tile = b.Dx(), b.Dy(), b.Size()
			if px := int64(c*tw) * int64(rows*th); px > opts.maxPixels() {
				return nil, tile, fmt.Errorf("jigsaw: mosaic: %w: %d x %d tiles of %dx%d are %d pixels, over the limit of %d", imageio.ErrTooLarge, c, rows, tw, th, px, opts.maxPixels())
			}
			big = image.NewNRGBA64(image.Rect(0, 0, c*tw, rows*th))
		}
		x0, y0 := (k%c)*tw, (k/c)*th
		switch {
		case b.Dx() == tw && b.Dy() == th:
			for y := range th {
				copy(big.Pix[big.PixOffset(x0, y0+y):big.PixOffset(x0+tw, y0+y)], m.Pix[m.PixOffset(0, y):])
			}
		case b.Dx() == th && b.Dy() == tw:
			draw.Draw(big, image.Rect(x0, y0, x0+tw, y0+th), turnImage(m), image.Point{}, draw.Src)
		default:
			return nil, tile, fmt.Errorf("jigsaw: mosaic: image %d is %dx%d, but the tiles are %dx%d", k, b.Dx(), b.Dy(), tw, th)
		}
	}
	if w, h := opts.Size.X, opts.Size.Y; big != nil && w > 0 && h > 0 {
		if w > c*tw || h > rows*th {
			return nil, tile, &MosaicError{fmt.Sprintf("size %dx%d", w, h), -1, big.Bounds().Size()}
		}
		x0, y0 := (c*tw-w)/2, (rows*th-h)/2
		big = centre(big.SubImage(image.Rect(x0, y0, x0+w, y0+h)).(*image.NRGBA64), w, h)
	}
	return big, tile, nil
}

// MosaicFiles is Mosaic of the image files at paths (PNG, JPEG or WebP,
// read with imageio one at a time). The mosaic is an *image.NRGBA64 when a
// source has 16 bits per channel, an *image.NRGBA otherwise; depth says
// which (16 or 8). The headers of all the files are read first: sources
// of more than opts.MaxPixels pixels in all are refused before any is
// decoded, with an error wrapping imageio.ErrTooLarge (the mosaic holds
// about as many pixels as its sources).
func MosaicFiles(ctx context.Context, paths []string, opts MosaicOptions) (pic image.Image, tile image.Point, depth int, err error) {
	var total int64
	for _, p := range paths {
		data, err := imageio.ReadFileContext(ctx, p, imageio.Options{})
		if err != nil {
			return nil, tile, depth, err
		}
		_, w, h, err := imageio.Header(data, imageio.Options{})
		if err != nil {
			return nil, tile, depth, fmt.Errorf("%s: %w", p, err)
		}
		if total += int64(w) * int64(h); total > opts.maxPixels() {
			return nil, tile, depth, fmt.Errorf("jigsaw: mosaic: %w: the images up to %s have %d pixels in all, over the limit of %d", imageio.ErrTooLarge, p, total, opts.maxPixels())
		}
	}
	big, tile, err := Mosaic(ctx, len(paths), func(i int) (*image.NRGBA64, error) {
		data, err := imageio.ReadFileContext(ctx, paths[i], imageio.Options{})
		if err != nil {
			return nil, err
		}
		img, err := imageio.DecodeBytesContext(ctx, data, imageio.Options{})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", paths[i], err)
		}
		depth = max(depth, img.Depth)
		return img.Pix, nil
	}, opts)
	if err != nil {
		return nil, tile, depth, err
	}
	if depth >= 16 {
		return big, tile, depth, nil
	}
	// To 8 bits a band of rows at a time, checking ctx between bands (100
	// Mpx take seconds).
	b := big.Bounds()
	m8 := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := 0; y < b.Dy(); y += 256 {
		if err := ctx.Err(); err != nil {
			return nil, tile, depth, fmt.Errorf("jigsaw: mosaic: %w", err)
		}
		band := image.Rect(0, y, b.Dx(), min(y+256, b.Dy()))
		draw.Draw(m8, band, big, b.Min.Add(band.Min), draw.Src)
	}
	return m8, tile, depth, nil
}

// centre returns a copy of the central w x h pixels of m (at most its size).
func centre(m *image.NRGBA64, w, h int) *image.NRGBA64 {
	b := m.Bounds()
	t := image.NewNRGBA64(image.Rect(0, 0, w, h))
	draw.Draw(t, t.Bounds(), m, b.Min.Add(image.Pt((b.Dx()-w)/2, (b.Dy()-h)/2)), draw.Src)
	return t
}

// turnImage returns m turned a quarter turn clockwise.
func turnImage(m *image.NRGBA64) *image.NRGBA64 {
	b := m.Bounds()
	t := image.NewNRGBA64(image.Rect(0, 0, b.Dy(), b.Dx()))
	for y := range b.Dx() {
		for x := range b.Dy() {
			t.SetNRGBA64(x, y, m.NRGBA64At(b.Min.X+y, b.Max.Y-1-x))
		}
	}
	return t
}

// WritePNGContext encodes m as a PNG to w, stopping at the next write once
// ctx has ended (a mosaic of 100 Mpx takes a while), with ctx's error.
func WritePNGContext(ctx context.Context, w io.Writer, m image.Image) error {
	return png.Encode(ctxWriter{ctx, w}, m)
}

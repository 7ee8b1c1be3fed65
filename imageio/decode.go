package imageio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"os"

	"golang.org/x/image/webp"
)

// Errors returned by Decode, wrapped with details.
var (
	// ErrEmpty is returned for an empty input.
	ErrEmpty = errors.New("imageio: empty file")
	// ErrFormat is returned for an input that is not PNG, JPEG or WebP.
	ErrFormat = errors.New("imageio: not a PNG, JPEG or WebP image")
	// ErrTooLarge is returned for an input over Options.MaxBytes or an
	// image over Options.MaxPixels.
	ErrTooLarge = errors.New("imageio: image too large")
	// ErrCorrupt is returned when the decoder fails on a recognised format.
	ErrCorrupt = errors.New("imageio: corrupt image")
)

// Default limits.
const (
	DefaultMaxPixels = 100 << 20 // 100 Mpx: 800 MiB as NRGBA64
	DefaultMaxBytes  = 512 << 20
)

// Options bound decoding. The zero value uses the defaults.
type Options struct {
	// MaxPixels refuses images with more pixels (width*height); 0 means
	// DefaultMaxPixels.
	MaxPixels int64
	// MaxBytes refuses longer inputs; 0 means DefaultMaxBytes.
	MaxBytes int64
	// IgnoreOrientation keeps the pixels as stored, ignoring EXIF.
	IgnoreOrientation bool
}

// Image is a decoded image.
type Image struct {
	// Pix holds the pixels, upright, with their origin at (0, 0).
	Pix *image.NRGBA64
	// Format is "png", "jpeg" or "webp".
	Format string
	// Depth is the number of bits per channel stored in the file: 8 or 16.
	Depth int
	// Orientation is the EXIF orientation that was applied (1 to 8), or 1.
	Orientation int
}

// Load decodes the image file at path; see Decode.
func Load(path string, opts Options) (*Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("imageio: %w", err)
	}
	defer f.Close()
	img, err := Decode(f, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return img, nil
}

// ReadFileContext reads the file at path as ReadAllContext reads it
// (bounded by opts.MaxBytes, before reading, and ctx). An error opening
// the file is returned as it is; an error reading it is prefixed with the
// path.
func ReadFileContext(ctx context.Context, path string, opts Options) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := ReadAllContext(ctx, f, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return data, nil
}

// Sniff returns the format named by the first bytes of data: "png",
// "jpeg", "webp", or "" when none matches.
func Sniff(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "png"
	case bytes.HasPrefix(data, []byte("\xff\xd8")):
		return "jpeg"
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return "webp"
	}
	return ""
}

// Decode reads an image from r and returns it upright as 16-bit NRGBA.
// It reads at most opts.MaxBytes, refuses images of more than
// opts.MaxPixels pixels before decoding them, and applies the EXIF
// orientation unless opts.IgnoreOrientation.
func Decode(r io.Reader, opts Options) (*Image, error) {
	return DecodeContext(context.Background(), r, opts)
}

// ReadAll reads r to its end, at most opts.MaxBytes (ErrTooLarge beyond).
func ReadAll(r io.Reader, opts Options) ([]byte, error) {
	return ReadAllContext(context.Background(), r, opts)
}

// ReadAllContext is ReadAll bounded by ctx. A reader that tells its size
// (a file: Stat) over opts.MaxBytes is refused before reading, and one
// within it is read into a buffer of that size.
func ReadAllContext(ctx context.Context, r io.Reader, opts Options) ([]byte, error) {
	maxBytes := opts.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	var buf bytes.Buffer
	if f, ok := r.(interface{ Stat() (os.FileInfo, error) }); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			if st.Size() > maxBytes {
				return nil, fmt.Errorf("%w: %d bytes, over the limit of %d", ErrTooLarge, st.Size(), maxBytes)
			}
			buf.Grow(int(st.Size()) + 512)
		}
	}
	if _, err := buf.ReadFrom(io.LimitReader(&ctxReader{ctx: ctx, r: r}, maxBytes+1)); err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, fmt.Errorf("imageio: reading: %w", cerr)
		}
		return nil, fmt.Errorf("imageio: reading: %w", err)
	}
	data := buf.Bytes()
	if len(data) == 0 {
		return nil, ErrEmpty
	}
	if int64(len(data)) > maxBytes {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, maxBytes)
	}
	return data, nil
}

// codecs are the decoders of the formats Sniff names and Header accepts.
var codecs = map[string]struct {
	decode func(io.Reader) (image.Image, error)
	config func(io.Reader) (image.Config, error)
}{
	"png":  {png.Decode, png.DecodeConfig},
	"jpeg": {jpeg.Decode, jpeg.DecodeConfig},
	"webp": {webp.Decode, webp.DecodeConfig},
}

// DecodeBytesContext decodes an image held in data (see Decode and
// DecodeContext).
func DecodeBytesContext(ctx context.Context, data []byte, opts Options) (*Image, error) {
	format, _, _, err := Header(data, opts)
	if err != nil {
		return nil, err
	}
	decode := codecs[format].decode
	type decoded struct {
		pix   *image.NRGBA64
		depth int
	}
	d, err := background(ctx, func() (decoded, error) {
		m, err := decode(&ctxReader{ctx: ctx, r: bytes.NewReader(data)})
		if err != nil || ctx.Err() != nil {
			return decoded{}, err
		}
		return decoded{ToNRGBA64(m), depth(m)}, nil
	})
	if cerr := ctx.Err(); cerr != nil {
		return nil, fmt.Errorf("imageio: decoding: %w", cerr)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, format, err)
	}
	out := &Image{Pix: d.pix, Format: format, Depth: d.depth, Orientation: 1}
	if !opts.IgnoreOrientation {
		if o := Orientation(data); o > 1 {
			out.Pix = Orient(out.Pix, o)
			out.Orientation = o
		}
	}
	return out, nil
}

// background runs f in its own goroutine and returns its result, or
// ctx.Err() as soon as ctx ends first. The standard decoders read their
// input through a ctxReader, but the WebP decoder reads a lossy frame's
// partitions whole, and fills 100 Mpx for seconds without reading, as
// ToNRGBA64 converts them: ended early, that work finishes in the
// background (its memory bounded by Options.MaxPixels) and its result is
// dropped, so that a command returns within its budget.
func background[T any](ctx context.Context, f func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// depth returns the bits per channel of a decoded image.
func depth(m image.Image) int {
	switch m.(type) {
	case *image.RGBA64, *image.NRGBA64, *image.Gray16:
		return 16
	}
	return 8
}

// ToNRGBA64 copies m into a new *image.NRGBA64 with its origin at (0, 0),
// with fast paths for the types the standard decoders return.
func ToNRGBA64(m image.Image) *image.NRGBA64 {
	b := m.Bounds()
	w, h := b.Dx(), b.Dy()
	out := image.NewNRGBA64(image.Rect(0, 0, w, h))
	put := func(i int, r, g, bl, a uint16) {
		p := out.Pix[i : i+8 : i+8]
		p[0], p[1], p[2], p[3] = uint8(r>>8), uint8(r), uint8(g>>8), uint8(g)
		p[4], p[5], p[6], p[7] = uint8(bl>>8), uint8(bl), uint8(a>>8), uint8(a)
	}
	switch src := m.(type) {
	case *image.NRGBA64:
		for y := range h {
			s := src.Pix[src.PixOffset(b.Min.X, b.Min.Y+y):]
			copy(out.Pix[y*out.Stride:y*out.Stride+8*w], s[:8*w])
		}
	case *image.RGBA64:
		for y := range h {
			s := src.Pix[src.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := range w {
				q := s[8*x : 8*x+8 : 8*x+8]
				c := color.RGBA64{uint16(q[0])<<8 | uint16(q[1]), uint16(q[2])<<8 | uint16(q[3]),
					uint16(q[4])<<8 | uint16(q[5]), uint16(q[6])<<8 | uint16(q[7])}
				if c.A == 0xffff {
					put(y*out.Stride+8*x, c.R, c.G, c.B, c.A)
				} else {
					n := color.NRGBA64Model.Convert(c).(color.NRGBA64)
					put(y*out.Stride+8*x, n.R, n.G, n.B, n.A)
				}
			}
		}
	case *image.NRGBA:
		for y := range h {
			s := src.Pix[src.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := range w {
				q := s[4*x : 4*x+4 : 4*x+4]
				put(y*out.Stride+8*x, uint16(q[0])*257, uint16(q[1])*257, uint16(q[2])*257, uint16(q[3])*257)
			}
		}
	case *image.RGBA:
		for y := range h {
			s := src.Pix[src.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := range w {
				q := s[4*x : 4*x+4 : 4*x+4]
				c := color.RGBA{q[0], q[1], q[2], q[3]}
				if c.A != 0xff {
					n := color.NRGBAModel.Convert(c).(color.NRGBA)
					c = color.RGBA{n.R, n.G, n.B, n.A}
				}
				put(y*out.Stride+8*x, uint16(c.R)*257, uint16(c.G)*257, uint16(c.B)*257, uint16(c.A)*257)
			}
		}
	case *image.YCbCr:
		ycbcrToNRGBA64(src, out)
	case *image.Gray:
		for y := range h {
			s := src.Pix[src.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := range w {
				v := uint16(s[x]) * 257
				put(y*out.Stride+8*x, v, v, v, 0xffff)
			}
		}
	default:
		for y := range h {
			for x := range w {
				n := color.NRGBA64Model.Convert(m.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA64)
				put(y*out.Stride+8*x, n.R, n.G, n.B, n.A)
			}
		}
	}
	return out
}

// Header returns the format and the size in pixels that the header of an
// encoded image gives, without decoding its pixels: the errors of Decode
// for an empty, unknown, corrupt-headed or too large input (over
// opts.MaxBytes or opts.MaxPixels), so that a caller can bound its work
// before decoding.
func Header(data []byte, opts Options) (format string, width, height int, err error) {
	maxBytes, maxPixels := opts.MaxBytes, opts.MaxPixels
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	if maxPixels <= 0 {
		maxPixels = DefaultMaxPixels
	}
	if len(data) == 0 {
		return "", 0, 0, ErrEmpty
	}
	if int64(len(data)) > maxBytes {
		return "", 0, 0, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, maxBytes)
	}
	format = Sniff(data)
	c, ok := codecs[format]
	if !ok {
		return "", 0, 0, ErrFormat
	}
	cfg, err := c.config(bytes.NewReader(data))
	if err != nil {
		return format, 0, 0, fmt.Errorf("%w: %s header: %v", ErrCorrupt, format, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return format, 0, 0, fmt.Errorf("%w: %s image of %dx%d pixels", ErrEmpty, format, cfg.Width, cfg.Height)
	}
	if px := int64(cfg.Width) * int64(cfg.Height); px > maxPixels {
		return format, 0, 0, fmt.Errorf("%w: %dx%d is %d pixels, over the limit of %d", ErrTooLarge, cfg.Width, cfg.Height, px, maxPixels)
	}
	return format, cfg.Width, cfg.Height, nil
}

// DecodeContext is Decode bounded by ctx as well: the decoder reads its
// input through a reader that fails once ctx has ended, and DecodeContext
// returns as soon as ctx ends even when the decoder or the conversion to
// 16-bit NRGBA does not read (see background). It then returns an error
// that wraps ctx.Err().
func DecodeContext(ctx context.Context, r io.Reader, opts Options) (*Image, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("imageio: decoding: %w", err)
	}
	data, err := ReadAllContext(ctx, r, opts)
	if err != nil {
		return nil, err
	}
	return DecodeBytesContext(ctx, data, opts)
}

// ctxReader is a reader that fails once its context has ended.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

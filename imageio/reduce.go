package imageio

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"io"

	"golang.org/x/image/webp"
)

// DecodeReduced decodes the rectangle r of the image in data (PNG, JPEG or
// WebP, in its stored orientation: EXIF is not applied, see Orientation)
// shrunk by the integer factor f: each output pixel is the mean of an
// f x f box of stored pixels, in premultiplied alpha. The output is
// r.Dx()/f x r.Dy()/f pixels (a remainder of fewer than f rows or columns
// is dropped). r must lie inside the image, and f >= 1.
//
// Non-interlaced PNG files are streamed row by row: the memory used is a
// few rows of the stored image and the output, whatever the image's height,
// so a huge but legal upload costs little. Other files are decoded whole
// by the standard decoders, in their own pixel format, and then reduced a
// band of f rows at a time. DecodeCost says which, before any decoding.
// The caller bounds the pixels first (MaxPixels, with image.DecodeConfig).
func DecodeReduced(data []byte, r image.Rectangle, f int) (*image.RGBA, error) {
	if f < 1 || r.Empty() {
		return nil, fmt.Errorf("imageio: reduce %v by %d: empty", r, f)
	}
	switch format := Sniff(data); format {
	case "png":
		img, err := reducePNG(data, r, f)
		if !errors.Is(err, errInterlaced) {
			return img, err
		}
		return reduceDecoded(data, png.Decode, format, r, f)
	case "jpeg":
		return reduceDecoded(data, jpeg.Decode, format, r, f)
	case "webp":
		return reduceDecoded(data, webp.Decode, format, r, f)
	}
	return nil, ErrFormat
}

// DecodeCost returns an upper bound on the bytes DecodeReduced allocates
// for data beyond its output, from the header alone, so that a caller can
// refuse or queue an image before decoding it. A non-interlaced PNG is
// streamed: a few rows. Anything else is decoded whole, and the bound
// counts what the standard decoders allocate on the way (as of Go 1.26 and
// golang.org/x/image v0.47), per pixel:
//
//   - PNG, interlaced: the image (1, 2, 4 or 8 bytes) twice, the passes'
//     images and the merged one;
//   - JPEG: the image (1 byte per component), and 4 bytes per component
//     more when progressive (the DCT coefficients are kept until the last
//     scan); CMYK also its YCbCrK planes converted (4 + 4 bytes);
//   - WebP: lossy 1.5 bytes (4:2:0), with alpha 2.5 bytes and the alpha
//     plane decoded as lossless; lossless 8 bytes (the ARGB pixels and a
//     copy of them for the colour-indexing transform);
//
// plus the strip of f RGBA rows that the reduction draws into (counted
// for f up to the height/512).
func DecodeCost(data []byte) (int64, error) {
	format := Sniff(data)
	var cfg image.Config
	var err error
	switch format {
	case "png":
		var h pngHeader
		if h, err = readPNGHeader(data); err == nil && h.interlace == 0 {
			// Two rows, the filter's and the zlib window, and one
			// accumulator row of 4 sums per column.
			return 2*int64(h.rowBytes()) + 64<<10 + 32*int64(h.width), nil
		}
		cfg, err = png.DecodeConfig(bytes.NewReader(data))
	case "jpeg":
		cfg, err = jpeg.DecodeConfig(bytes.NewReader(data))
	case "webp":
		cfg, err = webp.DecodeConfig(bytes.NewReader(data))
	default:
		return 0, ErrFormat
	}
	if err != nil {
		return 0, fmt.Errorf("%w: %s header: %v", ErrCorrupt, format, err)
	}
	px := int64(cfg.Width) * int64(cfg.Height)
	// per is the bytes per pixel held at the peak, in eighths (lossy
	// WebP's 4:2:0 is 12/8).
	var per int64
	switch format {
	case "png":
		b := int64(4)
		switch cfg.ColorModel {
		case color.GrayModel:
			b = 1
		case color.Gray16Model:
			b = 2
		case color.RGBA64Model, color.NRGBA64Model:
			b = 8
		default:
			if _, ok := cfg.ColorModel.(color.Palette); ok {
				b = 1
			}
		}
		per = 8 * 2 * b
	case "jpeg":
		comps := int64(3)
		switch cfg.ColorModel {
		case color.GrayModel:
			comps = 1
		case color.CMYKModel:
			comps = 8 // the YCbCrK planes and the CMYK image
		}
		per = 8 * comps
		if jpegProgressive(data) {
			per += 8 * 4 * min(comps, 4)
		}
	case "webp":
		switch cfg.ColorModel {
		case color.NRGBAModel: // lossless
			per = 8 * 8
		case color.NYCbCrAModel: // lossy with a lossless alpha plane
			per = 20 + 8*8 + 8
		default: // lossy
			per = 12
		}
	}
	return px*per/8 + px/128 + 40*int64(cfg.Width), nil
}

// jpegProgressive reports whether the first frame header of a JPEG is
// progressive (SOF2 or SOF6, SOF10 or SOF14), walking the markers before it.
func jpegProgressive(d []byte) bool {
	for i := 2; i+4 <= len(d); {
		if d[i] != 0xff {
			return false
		}
		m := d[i+1]
		switch {
		case m == 0xff: // fill byte
			i++
			continue
		case m == 0xc2 || m == 0xc6 || m == 0xca || m == 0xce:
			return true
		case m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc:
			return false // another frame header
		case m == 0xd9 || m == 0xda:
			return false
		}
		i += 2 + (int(d[i+2])<<8 | int(d[i+3]))
	}
	return false
}

var errInterlaced = errors.New("imageio: interlaced PNG")

// reduceDecoded decodes data whole and reduces it a band at a time through
// an RGBA strip (image/draw's fast paths convert each pixel format).
func reduceDecoded(data []byte, decode func(io.Reader) (image.Image, error), format string, r image.Rectangle, f int) (*image.RGBA, error) {
	m, err := decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, format, err)
	}
	b := m.Bounds()
	r = r.Add(b.Min)
	if !r.In(b) {
		return nil, fmt.Errorf("imageio: reduce %v outside the image %v", r.Sub(b.Min), b.Sub(b.Min))
	}
	out := image.NewRGBA(image.Rect(0, 0, r.Dx()/f, r.Dy()/f))
	strip := image.NewRGBA(image.Rect(0, 0, r.Dx(), f))
	acc := newBoxAcc(out.Rect.Dx(), f)
	for oy := range out.Rect.Dy() {
		draw.Draw(strip, strip.Rect, m, image.Pt(r.Min.X, r.Min.Y+oy*f), draw.Src)
		for y := range f {
			row := strip.Pix[y*strip.Stride : y*strip.Stride+4*r.Dx()]
			for x := range out.Rect.Dx() * f {
				p := row[4*x : 4*x+4 : 4*x+4]
				acc.add(x, uint32(p[0])*257, uint32(p[1])*257, uint32(p[2])*257, uint32(p[3])*257)
			}
		}
		acc.flush(out, oy)
	}
	return out, nil
}

// boxAcc sums premultiplied 16-bit samples per output column.
type boxAcc struct {
	f   int
	sum []uint64 // 4 per output column
}

func newBoxAcc(w, f int) *boxAcc { return &boxAcc{f: f, sum: make([]uint64, 4*w)} }

// add adds the premultiplied sample of input column x (x/f is the output
// column; columns past the last whole box are ignored).
func (a *boxAcc) add(x int, r, g, b, al uint32) {
	i := 4 * (x / a.f)
	if i+3 >= len(a.sum) {
		return
	}
	s := a.sum[i : i+4 : i+4]
	s[0] += uint64(r)
	s[1] += uint64(g)
	s[2] += uint64(b)
	s[3] += uint64(al)
}

// flush writes the means as output row oy and clears the sums.
func (a *boxAcc) flush(out *image.RGBA, oy int) {
	n := uint64(a.f*a.f) * 257
	row := out.Pix[oy*out.Stride:]
	for i, v := range a.sum {
		row[i] = uint8((v + n/2) / n)
		a.sum[i] = 0
	}
}

// pngHeader is a PNG file's IHDR and the chunks the pixels need.
type pngHeader struct {
	width, height                 int
	depth, colorType, interlace   int
	palette                       []color.NRGBA
	trns                          []byte
	idat                          int // offset of the first chunk after IHDR
	hasTRNS                       bool
	trnsGray, trnsR, trnsG, trnsB uint16
}

// channels returns the samples per pixel of a colour type.
func (h *pngHeader) channels() int {
	switch h.colorType {
	case 0, 3:
		return 1
	case 2:
		return 3
	case 4:
		return 2
	case 6:
		return 4
	}
	return 0
}

func (h *pngHeader) rowBytes() int { return (h.width*h.channels()*h.depth + 7) / 8 }

// readPNGHeader reads the signature and IHDR and checks the combination of
// depth and colour type.
func readPNGHeader(data []byte) (pngHeader, error) {
	var h pngHeader
	if len(data) < 33 || !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) || string(data[12:16]) != "IHDR" || binary.BigEndian.Uint32(data[8:]) != 13 {
		return h, fmt.Errorf("%w: png: no IHDR", ErrCorrupt)
	}
	d := data[16:29]
	w, ht := binary.BigEndian.Uint32(d), binary.BigEndian.Uint32(d[4:])
	h.depth, h.colorType, h.interlace = int(d[8]), int(d[9]), int(d[12])
	if w == 0 || ht == 0 || w > 1<<24 || ht > 1<<24 || d[10] != 0 || d[11] != 0 || h.interlace > 1 {
		return h, fmt.Errorf("%w: png: bad IHDR", ErrCorrupt)
	}
	h.width, h.height = int(w), int(ht)
	ok := false
	switch h.colorType {
	case 0:
		ok = h.depth == 1 || h.depth == 2 || h.depth == 4 || h.depth == 8 || h.depth == 16
	case 3:
		ok = h.depth == 1 || h.depth == 2 || h.depth == 4 || h.depth == 8
	case 2, 4, 6:
		ok = h.depth == 8 || h.depth == 16
	}
	if !ok {
		return h, fmt.Errorf("%w: png: bit depth %d with colour type %d", ErrCorrupt, h.depth, h.colorType)
	}
	h.idat = 33
	return h, nil
}

// idatReader reads the data of consecutive IDAT chunks, checking each
// chunk's CRC.
type idatReader struct {
	data []byte
	off  int    // next chunk header
	cur  []byte // rest of the current chunk's data
}

func (ir *idatReader) Read(p []byte) (int, error) {
	for len(ir.cur) == 0 {
		if ir.off < 0 {
			return 0, io.EOF
		}
		typ, body, next, err := pngChunkAt(ir.data, ir.off)
		if err != nil {
			return 0, err
		}
		if typ != "IDAT" {
			ir.off = -1
			return 0, io.EOF
		}
		ir.cur, ir.off = body, next
	}
	n := copy(p, ir.cur)
	ir.cur = ir.cur[n:]
	return n, nil
}

// pngChunkAt returns the chunk at off, its data and the offset of the next
// chunk, checking its CRC.
func pngChunkAt(data []byte, off int) (typ string, body []byte, next int, err error) {
	if off+12 > len(data) {
		return "", nil, 0, fmt.Errorf("%w: png: truncated", ErrCorrupt)
	}
	n := int(binary.BigEndian.Uint32(data[off:]))
	if n < 0 || n > len(data)-off-12 {
		return "", nil, 0, fmt.Errorf("%w: png: truncated chunk", ErrCorrupt)
	}
	typ = string(data[off+4 : off+8])
	body = data[off+8 : off+8+n]
	if crc32.ChecksumIEEE(data[off+4:off+8+n]) != binary.BigEndian.Uint32(data[off+8+n:]) {
		return "", nil, 0, fmt.Errorf("%w: png: %q chunk checksum", ErrCorrupt, typ)
	}
	return typ, body, off + 12 + n, nil
}

// reducePNG streams a non-interlaced PNG; it returns errInterlaced for an
// interlaced one.
func reducePNG(data []byte, r image.Rectangle, f int) (*image.RGBA, error) {
	h, err := readPNGHeader(data)
	if err != nil {
		return nil, err
	}
	if h.interlace != 0 {
		return nil, errInterlaced
	}
	if !r.In(image.Rect(0, 0, h.width, h.height)) {
		return nil, fmt.Errorf("imageio: reduce %v outside the image %dx%d", r, h.width, h.height)
	}
	// The chunks before the pixels.
	off := h.idat
	for {
		typ, body, next, err := pngChunkAt(data, off)
		if err != nil {
			return nil, err
		}
		if typ == "IDAT" {
			break
		}
		switch typ {
		case "PLTE":
			if len(body)%3 != 0 || len(body) == 0 || len(body)/3 > 256 {
				return nil, fmt.Errorf("%w: png: bad palette", ErrCorrupt)
			}
			h.palette = make([]color.NRGBA, len(body)/3)
			for i := range h.palette {
				h.palette[i] = color.NRGBA{body[3*i], body[3*i+1], body[3*i+2], 255}
			}
		case "tRNS":
			h.hasTRNS = true
			switch h.colorType {
			case 0:
				if len(body) >= 2 {
					h.trnsGray = binary.BigEndian.Uint16(body)
				}
			case 2:
				if len(body) >= 6 {
					h.trnsR, h.trnsG, h.trnsB = binary.BigEndian.Uint16(body), binary.BigEndian.Uint16(body[2:]), binary.BigEndian.Uint16(body[4:])
				}
			case 3:
				h.trns = body
			}
		case "IEND":
			return nil, fmt.Errorf("%w: png: no IDAT", ErrCorrupt)
		}
		off = next
	}
	if h.colorType == 3 {
		if h.palette == nil {
			return nil, fmt.Errorf("%w: png: no palette", ErrCorrupt)
		}
		for i, a := range h.trns {
			if i < len(h.palette) {
				h.palette[i].A = a
			}
		}
	}
	zr, err := zlib.NewReader(bufio.NewReaderSize(&idatReader{data: data, off: off}, 32<<10))
	if err != nil {
		return nil, fmt.Errorf("%w: png: %v", ErrCorrupt, err)
	}
	defer zr.Close()

	out := image.NewRGBA(image.Rect(0, 0, r.Dx()/f, r.Dy()/f))
	acc := newBoxAcc(out.Rect.Dx(), f)
	n := h.rowBytes()
	bpp := max(1, h.channels()*h.depth/8) // bytes per pixel, for the filters
	cur, prev := make([]byte, n+1), make([]byte, n+1)
	lastY := r.Min.Y + out.Rect.Dy()*f // rows from here on are not needed
	for y := 0; y < lastY; y++ {
		if _, err := io.ReadFull(zr, cur); err != nil {
			return nil, fmt.Errorf("%w: png: row %d: %v", ErrCorrupt, y, err)
		}
		if err := unfilter(cur, prev, bpp); err != nil {
			return nil, fmt.Errorf("%w: png: row %d: %v", ErrCorrupt, y, err)
		}
		if y >= r.Min.Y {
			h.addRow(acc, cur[1:], r.Min.X, out.Rect.Dx()*f)
			if (y-r.Min.Y)%f == f-1 {
				acc.flush(out, (y-r.Min.Y)/f)
			}
		}
		cur, prev = prev, cur
	}
	return out, nil
}

// unfilter undoes a row's filter in place; row[0] is the filter type and
// prev the previous row as unfiltered (zeros before the first).
func unfilter(row, prev []byte, bpp int) error {
	cdat, pdat := row[1:], prev[1:]
	switch row[0] {
	case 0:
	case 1:
		for i := bpp; i < len(cdat); i++ {
			cdat[i] += cdat[i-bpp]
		}
	case 2:
		for i, p := range pdat {
			cdat[i] += p
		}
	case 3:
		for i := range bpp {
			cdat[i] += pdat[i] / 2
		}
		for i := bpp; i < len(cdat); i++ {
			cdat[i] += uint8((int(cdat[i-bpp]) + int(pdat[i])) / 2)
		}
	case 4:
		for i := range cdat {
			var a, c int
			if i >= bpp {
				a, c = int(cdat[i-bpp]), int(pdat[i-bpp])
			}
			b := int(pdat[i])
			p := a + b - c
			pa, pb, pc := abs(p-a), abs(p-b), abs(p-c)
			switch {
			case pa <= pb && pa <= pc:
				cdat[i] += uint8(a)
			case pb <= pc:
				cdat[i] += uint8(b)
			default:
				cdat[i] += uint8(c)
			}
		}
	default:
		return fmt.Errorf("filter type %d", row[0])
	}
	return nil
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// addRow adds the w pixels of an unfiltered row from column x0 on.
func (h *pngHeader) addRow(acc *boxAcc, row []byte, x0, w int) {
	for i := range w {
		x := x0 + i
		var r, g, b, a uint32
		switch h.colorType {
		case 0:
			v := h.sample(row, x, 0)
			r, g, b, a = h.scale(v), h.scale(v), h.scale(v), 0xffff
			if h.hasTRNS && uint16(v) == h.trnsGray {
				a = 0
			}
		case 2:
			rv, gv, bv := h.sample(row, x, 0), h.sample(row, x, 1), h.sample(row, x, 2)
			r, g, b, a = h.scale(rv), h.scale(gv), h.scale(bv), 0xffff
			if h.hasTRNS && uint16(rv) == h.trnsR && uint16(gv) == h.trnsG && uint16(bv) == h.trnsB {
				a = 0
			}
		case 3:
			idx := h.sample(row, x, 0)
			c := color.NRGBA{A: 255}
			if int(idx) < len(h.palette) {
				c = h.palette[idx]
			}
			r, g, b, a = uint32(c.R)*257, uint32(c.G)*257, uint32(c.B)*257, uint32(c.A)*257
		case 4:
			v := h.scale(h.sample(row, x, 0))
			r, g, b, a = v, v, v, h.scale(h.sample(row, x, 1))
		case 6:
			r, g, b, a = h.scale(h.sample(row, x, 0)), h.scale(h.sample(row, x, 1)), h.scale(h.sample(row, x, 2)), h.scale(h.sample(row, x, 3))
		}
		// Premultiply, as image.NRGBA64's RGBA method does.
		r, g, b = r*a/0xffff, g*a/0xffff, b*a/0xffff
		acc.add(i, r, g, b, a)
	}
}

// sample returns channel c of pixel x as stored (0 to 2^depth-1).
func (h *pngHeader) sample(row []byte, x, c int) uint32 {
	switch h.depth {
	case 16:
		i := 2 * (x*h.channels() + c)
		return uint32(row[i])<<8 | uint32(row[i+1])
	case 8:
		return uint32(row[x*h.channels()+c])
	}
	// 1, 2 or 4 bits, one channel: most significant bits first.
	bit := x * h.depth
	return uint32(row[bit/8]>>(8-h.depth-bit%8)) & (1<<h.depth - 1)
}

// scale widens a stored sample to 16 bits.
func (h *pngHeader) scale(v uint32) uint32 {
	switch h.depth {
	case 16:
		return v
	case 8:
		return v * 257
	case 4:
		return v * 0x1111
	case 2:
		return v * 0x5555
	}
	return v * 0xffff
}

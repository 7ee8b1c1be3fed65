package imageio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"tessera/internal/imagetest"
)

func load(t testing.TB, name string) *Image {
	t.Helper()
	img, err := Load("testdata/"+name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// The formula of testdata/gen.py, which wrote rgb16.png with zlib.
func px16(x, y int) (r, g, b uint16) {
	return uint16(x*8191 + y*3), uint16(65535 - x*1000 - y*7000), uint16((x*y*4099 + 12345) % 65536)
}

func TestDecode16BitPNG(t *testing.T) {
	img := load(t, "rgb16.png")
	if img.Format != "png" || img.Depth != 16 || img.Pix.Bounds() != image.Rect(0, 0, 8, 6) {
		t.Fatalf("format %s depth %d bounds %v", img.Format, img.Depth, img.Pix.Bounds())
	}
	for y := range 6 {
		for x := range 8 {
			r, g, b := px16(x, y)
			if got := img.Pix.NRGBA64At(x, y); got != (color.NRGBA64{r, g, b, 0xffff}) {
				t.Fatalf("(%d, %d) = %v, want %d %d %d", x, y, got, r, g, b)
			}
		}
	}
}

// readPPM reads a binary 8-bit PPM.
func readPPM(t *testing.T, path string) (w, h int, pix []byte) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var maxv int
	n, err := fmt.Sscanf(string(data), "P6\n%d %d\n%d\n", &w, &h, &maxv)
	if n != 3 || err != nil || maxv != 255 {
		t.Fatalf("bad PPM header: %v", err)
	}
	return w, h, data[len(data)-3*w*h:]
}

// TestDecodeJPEG compares with libjpeg's own decoding (djpeg, with its
// fancy chroma upsampling): within 3 levels everywhere, 1 on average.
func TestDecodeJPEG(t *testing.T) {
	img := load(t, "pattern.jpg")
	w, h, want := readPPM(t, "testdata/pattern-djpeg.ppm")
	if img.Format != "jpeg" || img.Depth != 8 || img.Pix.Bounds() != image.Rect(0, 0, w, h) {
		t.Fatalf("format %s depth %d bounds %v", img.Format, img.Depth, img.Pix.Bounds())
	}
	worst, sum := 0.0, 0.0
	for y := range h {
		for x := range w {
			c := img.Pix.NRGBA64At(x, y)
			for ch, v := range [3]uint16{c.R, c.G, c.B} {
				d := math.Abs(float64(v)/257 - float64(want[3*(y*w+x)+ch]))
				worst, sum = max(worst, d), sum+d
			}
		}
	}
	if mean := sum / float64(3*w*h); worst > 3 || mean > 1 {
		t.Fatalf("differs from libjpeg by up to %.2f, %.3f on average", worst, mean)
	}
}

func TestDecodeWebP(t *testing.T) {
	img := load(t, "pattern.webp")
	jp := load(t, "pattern.jpg")
	if img.Format != "webp" || img.Pix.Bounds() != jp.Pix.Bounds() {
		t.Fatalf("format %s bounds %v", img.Format, img.Pix.Bounds())
	}
	// lossless: the source formula of gen.py
	for _, p := range []image.Point{{0, 0}, {10, 30}, {30, 10}, {30, 40}, {50, 20}} {
		var r, g, b int
		switch x, y := p.X, p.Y; {
		case x < 24:
			r, g, b = 4*x+40, 5*y, 200-2*x
		case x < 40 && y < 24:
			r, g, b = 230, 40, 40
		case x < 40:
			r, g, b = 30, 60, 220
		default:
			r, g, b = 20+3*y, 180, 60+2*(x-40)
		}
		want := color.NRGBA64{uint16(r * 257), uint16(g * 257), uint16(b * 257), 0xffff}
		if got := img.Pix.NRGBA64At(p.X, p.Y); got != want {
			t.Errorf("%v = %v, want %v", p, got, want)
		}
	}
}

func TestEightBitWidensExactly(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 3, 2))
	for i := range src.Pix {
		src.Pix[i] = uint8(i * 37)
		if i%4 == 3 {
			src.Pix[i] = 255
		}
	}
	var b bytes.Buffer
	png.Encode(&b, src)
	img, err := Decode(&b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for y := range 2 {
		for x := range 3 {
			c := src.RGBAAt(x, y)
			want := color.NRGBA64{uint16(c.R) * 257, uint16(c.G) * 257, uint16(c.B) * 257, 0xffff}
			if got := img.Pix.NRGBA64At(x, y); got != want || img.Depth != 8 {
				t.Fatalf("(%d,%d) = %v depth %d, want %v", x, y, got, img.Depth, want)
			}
		}
	}
}

// withExif returns a JPEG of m with an APP1 Exif segment holding the
// orientation tag.
func withExif(t *testing.T, m image.Image, orientation uint16) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, m, &jpeg.Options{Quality: 100}); err != nil {
		t.Fatal(err)
	}
	tiff := []byte("MM\x00\x2a\x00\x00\x00\x08")
	tiff = binary.BigEndian.AppendUint16(tiff, 1)
	tiff = append(tiff, 0x01, 0x12, 0x00, 0x03, 0, 0, 0, 1)
	tiff = binary.BigEndian.AppendUint16(tiff, orientation)
	tiff = append(tiff, 0, 0, 0, 0, 0, 0)
	seg := append([]byte("Exif\x00\x00"), tiff...)
	app1 := []byte{0xff, 0xe1}
	app1 = binary.BigEndian.AppendUint16(app1, uint16(len(seg)+2))
	app1 = append(app1, seg...)
	data := b.Bytes()
	return append(append(append([]byte{}, data[:2]...), app1...), data[2:]...)
}

func TestEXIFOrientation(t *testing.T) {
	// a 16x8 image: left half dark, right half bright, top rows red-ish
	m := image.NewRGBA(image.Rect(0, 0, 16, 8))
	for y := range 8 {
		for x := range 16 {
			v := uint8(20)
			if x >= 8 {
				v = 230
			}
			m.Set(x, y, color.RGBA{v, v, v, 255})
		}
	}
	bright := func(c color.NRGBA64) bool { return c.G > 0x8000 }
	cases := []struct {
		o             int
		w, h          int
		brightPoint   image.Point // a pixel that must be bright after orienting
		darkPoint     image.Point
		mirrorsOrTurn string
	}{
		{1, 16, 8, image.Pt(14, 4), image.Pt(1, 4), "none"},
		{2, 16, 8, image.Pt(1, 4), image.Pt(14, 4), "mirror"},
		{3, 16, 8, image.Pt(1, 4), image.Pt(14, 4), "180"},
		{6, 8, 16, image.Pt(4, 14), image.Pt(4, 1), "90 cw: right half goes to the bottom"},
		{8, 8, 16, image.Pt(4, 1), image.Pt(4, 14), "90 ccw: right half goes to the top"},
	}
	for _, c := range cases {
		data := withExif(t, m, uint16(c.o))
		if got := Orientation(data); got != c.o {
			t.Fatalf("Orientation = %d, want %d", got, c.o)
		}
		img, err := Decode(bytes.NewReader(data), Options{})
		if err != nil {
			t.Fatal(err)
		}
		b := img.Pix.Bounds()
		if b.Dx() != c.w || b.Dy() != c.h || img.Orientation != c.o {
			t.Fatalf("orientation %d: %dx%d, want %dx%d", c.o, b.Dx(), b.Dy(), c.w, c.h)
		}
		if !bright(img.Pix.NRGBA64At(c.brightPoint.X, c.brightPoint.Y)) || bright(img.Pix.NRGBA64At(c.darkPoint.X, c.darkPoint.Y)) {
			t.Errorf("orientation %d (%s): wrong pixels", c.o, c.mirrorsOrTurn)
		}
		raw, _ := Decode(bytes.NewReader(data), Options{IgnoreOrientation: true})
		if raw.Pix.Bounds().Dx() != 16 {
			t.Errorf("IgnoreOrientation turned the image")
		}
	}
}

// TestOrientComposition checks the eight orientations against their
// definitions on a 3x2 image of distinct pixels: 6 then 8 is the identity,
// 3 is 6 twice, 5 is 2 then 8 (mirror, then a quarter turn back).
func TestOrientComposition(t *testing.T) {
	m := image.NewNRGBA64(image.Rect(0, 0, 3, 2))
	for i := range 6 {
		m.SetNRGBA64(i%3, i/3, color.NRGBA64{uint16(i), 0, 0, 0xffff})
	}
	eq := func(a, b *image.NRGBA64) bool { return a.Bounds() == b.Bounds() && bytes.Equal(a.Pix, b.Pix) }
	if !eq(Orient(Orient(m, 6), 8), m) || !eq(Orient(Orient(m, 6), 6), Orient(m, 3)) ||
		!eq(Orient(Orient(m, 2), 8), Orient(m, 5)) || !eq(Orient(Orient(m, 2), 6), Orient(m, 7)) ||
		!eq(Orient(Orient(m, 2), 3), Orient(m, 4)) || !eq(Orient(m, 1), m) {
		t.Fatal("orientations do not compose as defined")
	}
}

// pngWithSize returns a PNG header (and a bogus body) declaring w x h.
func pngWithSize(w, h uint32) []byte {
	return append(imagetest.PNGHeader(w, h, 8, 2), make([]byte, 64)...)
}

func TestDecodeErrors(t *testing.T) {
	good, _ := os.ReadFile("testdata/rgb16.png")
	cases := []struct {
		name string
		data []byte
		opts Options
		want error
		text string
	}{
		{"empty", nil, Options{}, ErrEmpty, "empty"},
		{"text", []byte("hello, world"), Options{}, ErrFormat, "not a PNG"},
		{"truncated", good[:len(good)/2], Options{}, ErrCorrupt, "corrupt"},
		{"huge", pngWithSize(100000, 100000), Options{}, ErrTooLarge, "over the limit"},
		{"pixel limit", good, Options{MaxPixels: 47}, ErrTooLarge, "48 pixels"},
		{"byte limit", good, Options{MaxBytes: 100}, ErrTooLarge, "bytes"},
		{"zero width", pngWithSize(0, 10), Options{}, ErrCorrupt, "png"},
	}
	for _, c := range cases {
		_, err := Decode(bytes.NewReader(c.data), c.opts)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.text) || !strings.HasPrefix(err.Error(), "imageio: ") {
			t.Errorf("%s: %v, want %v mentioning %q", c.name, err, c.want, c.text)
		}
	}
	if _, err := Load("testdata/missing.png", Options{}); err == nil || !strings.Contains(err.Error(), "missing.png") {
		t.Errorf("missing file: %v", err)
	}
}

func TestLabAgainstExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	worst := 0.0
	for range 200000 {
		r, g, b := uint16(rng.UintN(65536)), uint16(rng.UintN(65536)), uint16(rng.UintN(65536))
		L, A, B := Lab16(r, g, b)
		eL, eA, eB := LabExact(r, g, b)
		worst = max(worst, math.Abs(float64(L)-eL), math.Abs(float64(A)-eA), math.Abs(float64(B)-eB))
	}
	if worst > 0.002 {
		t.Fatalf("Lab16 is off by up to %g", worst)
	}
	// reference values (CIE, D65): white, black, sRGB primaries
	refs := []struct {
		r, g, b uint16
		L, A, B float64
	}{
		{65535, 65535, 65535, 100, 0, 0},
		{0, 0, 0, 0, 0, 0},
		{65535, 0, 0, 53.24, 80.09, 67.20},
		{0, 65535, 0, 87.73, -86.18, 83.18},
		{0, 0, 65535, 32.30, 79.19, -107.86},
	}
	for _, c := range refs {
		L, A, B := Lab16(c.r, c.g, c.b)
		if math.Abs(float64(L)-c.L) > 0.02 || math.Abs(float64(A)-c.A) > 0.02 || math.Abs(float64(B)-c.B) > 0.02 {
			t.Errorf("Lab(%d,%d,%d) = %.2f %.2f %.2f, want %.2f %.2f %.2f", c.r, c.g, c.b, L, A, B, c.L, c.A, c.B)
		}
	}
}

func BenchmarkLab16(b *testing.B) {
	b.ReportAllocs()
	v := uint16(0)
	var s float32
	for b.Loop() {
		L, A, B := Lab16(v, v*3, v*7)
		s += L + A + B
		v += 101
	}
	_ = s
}

func BenchmarkDecodeMIT(b *testing.B) {
	data, err := os.ReadFile("../../../shared/data/jigsaw/mit432/1.png")
	if err != nil {
		b.Skip(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(bytes.NewReader(data), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, name := range []string{"rgb16.png", "pattern.jpg", "pattern.webp"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add(pngWithSize(3, 3))
	f.Fuzz(func(t *testing.T, data []byte) {
		img, err := Decode(bytes.NewReader(data), Options{MaxPixels: 1 << 20})
		if err == nil && (img.Pix.Bounds().Empty() || img.Orientation < 1 || img.Orientation > 8) {
			t.Fatalf("decoded %v orientation %d", img.Pix.Bounds(), img.Orientation)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "imageio: ") {
			t.Fatalf("error without package name: %v", err)
		}
		_ = Orientation(data)
	})
}

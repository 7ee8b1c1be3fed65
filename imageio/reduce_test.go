package imageio

import (
	"bytes"
	"compress/zlib"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"testing"

	"tessera/internal/imagetest"
)

// reduceRef reduces m the slow way: the mean of the premultiplied 16-bit
// colours of each f x f box, rounded to 8 bits as DecodeReduced does.
func reduceRef(m image.Image, r image.Rectangle, f int) *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, r.Dx()/f, r.Dy()/f))
	n := uint64(f*f) * 257
	for oy := range out.Rect.Dy() {
		for ox := range out.Rect.Dx() {
			var s [4]uint64
			for y := range f {
				for x := range f {
					cr, cg, cb, ca := m.At(r.Min.X+ox*f+x, r.Min.Y+oy*f+y).RGBA()
					s[0] += uint64(cr)
					s[1] += uint64(cg)
					s[2] += uint64(cb)
					s[3] += uint64(ca)
				}
			}
			i := out.PixOffset(ox, oy)
			for c := range 4 {
				out.Pix[i+c] = uint8((s[c] + n/2) / n)
			}
		}
	}
	return out
}

// pattern fills m with varied colours (and alphas when alpha is set), so
// that the PNG encoder picks every filter.
func pattern(w, h int, alpha bool) *image.NRGBA64 {
	m := image.NewNRGBA64(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			a := uint16(0xffff)
			if alpha {
				a = uint16((x*y*977 + 13) % 65536)
			}
			m.SetNRGBA64(x, y, color.NRGBA64{uint16(x * 1231 * (y%3 + 1)), uint16(y * 2731), uint16((x ^ y) * 911), a})
		}
	}
	return m
}

func TestDecodeReducedPNG(t *testing.T) {
	const w, h = 83, 61
	src := pattern(w, h, true)
	opaque := pattern(w, h, false)
	gray := image.NewGray(src.Rect)
	gray16 := image.NewGray16(src.Rect)
	rgba := image.NewRGBA(src.Rect)
	nrgba := image.NewNRGBA(src.Rect)
	rgba64 := image.NewRGBA64(src.Rect)
	for y := range h {
		for x := range w {
			gray.Set(x, y, opaque.At(x, y))
			gray16.Set(x, y, opaque.At(x, y))
			rgba.Set(x, y, opaque.At(x, y))
			nrgba.Set(x, y, src.At(x, y))
			rgba64.Set(x, y, opaque.At(x, y))
		}
	}
	pal := func(n int, alpha bool) *image.Paletted {
		p := make(color.Palette, n)
		for i := range p {
			a := uint8(255)
			if alpha {
				a = uint8(i * 255 / n)
			}
			p[i] = color.NRGBA{uint8(i * 37), uint8(i * 91), uint8(255 - i*5), a}
		}
		m := image.NewPaletted(src.Rect, p)
		for y := range h {
			for x := range w {
				m.SetColorIndex(x, y, uint8((x*7+y*3)%n))
			}
		}
		return m
	}
	cases := []struct {
		name string
		m    image.Image
	}{
		{"gray8", gray}, {"gray16", gray16}, {"rgb8", rgba}, {"rgba8", nrgba},
		{"rgb16", rgba64}, {"rgba16", src},
		{"palette1", pal(2, false)}, {"palette2", pal(4, true)}, {"palette4", pal(16, true)}, {"palette8", pal(200, true)},
	}
	for _, c := range cases {
		var buf bytes.Buffer
		if err := png.Encode(&buf, c.m); err != nil {
			t.Fatal(err)
		}
		decoded, err := png.Decode(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			r image.Rectangle
			f int
		}{{image.Rect(0, 0, w, h), 1}, {image.Rect(3, 5, 80, 59), 3}, {image.Rect(11, 0, 72, 61), 7}} {
			got, err := DecodeReduced(buf.Bytes(), tc.r, tc.f)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			want := reduceRef(decoded, tc.r, tc.f)
			if got.Rect != want.Rect || !bytes.Equal(got.Pix, want.Pix) {
				t.Errorf("%s %v /%d: reduced pixels differ from the standard decoder's", c.name, tc.r, tc.f)
			}
		}
	}
}

func TestDecodeReducedJPEGAndWebP(t *testing.T) {
	for _, name := range []string{"testdata/pattern.jpg", "testdata/pattern.webp"} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var m image.Image
		if name[len(name)-3:] == "jpg" {
			m, err = jpeg.Decode(bytes.NewReader(data))
		} else {
			img, derr := Decode(bytes.NewReader(data), Options{IgnoreOrientation: true})
			if img != nil {
				m = img.Pix
			}
			err = derr
		}
		if err != nil {
			t.Fatal(err)
		}
		b := m.Bounds()
		r := image.Rect(1, 2, b.Dx()-1, b.Dy()-3)
		got, err := DecodeReduced(data, r, 2)
		if err != nil {
			t.Fatal(err)
		}
		want := reduceRef(m, r, 2)
		if got.Rect != want.Rect {
			t.Fatalf("%s: %v, want %v", name, got.Rect, want.Rect)
		}
		for i := range got.Pix {
			if d := int(got.Pix[i]) - int(want.Pix[i]); d < -1 || d > 1 {
				t.Fatalf("%s: byte %d is %d, want %d", name, i, got.Pix[i], want.Pix[i])
			}
		}
	}
}

func TestDecodeReducedRejects(t *testing.T) {
	var buf bytes.Buffer
	png.Encode(&buf, pattern(20, 20, false))
	good := buf.Bytes()
	if _, err := DecodeReduced(good, image.Rect(0, 0, 21, 20), 1); err == nil {
		t.Error("rectangle outside the image accepted")
	}
	if _, err := DecodeReduced(good[:len(good)/2], image.Rect(0, 0, 20, 20), 1); err == nil {
		t.Error("truncated PNG accepted")
	}
	bad := bytes.Clone(good)
	bad[len(bad)/2] ^= 0x55
	if _, err := DecodeReduced(bad, image.Rect(0, 0, 20, 20), 1); err == nil {
		t.Error("corrupted PNG accepted")
	}
	if _, err := DecodeReduced([]byte("GIF89a"), image.Rect(0, 0, 1, 1), 1); err != ErrFormat {
		t.Errorf("GIF: %v", err)
	}
}

// rawPNG writes a PNG of random rows with random filter types, for every
// colour type and depth (the standard encoder writes only some), with a
// palette and a tRNS chunk where they apply.
func rawPNG(t *testing.T, w, h, depth, colorType int, trns bool, seed uint32) []byte {
	t.Helper()
	rnd := func() byte { seed = seed*1664525 + 1013904223; return byte(seed >> 24) }
	out := imagetest.PNGHeader(uint32(w), uint32(h), byte(depth), byte(colorType))
	chunk := func(typ string, data []byte) { out = append(out, imagetest.PNGChunk(typ, data)...) }
	ch := map[int]int{0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colorType]
	if colorType == 3 {
		pal := make([]byte, 3<<depth)
		for i := range pal {
			pal[i] = rnd()
		}
		chunk("PLTE", pal)
	}
	if trns {
		switch colorType {
		case 0:
			chunk("tRNS", []byte{0, 1})
		case 2:
			chunk("tRNS", []byte{0, 7, 0, 7, 0, 7})
		case 3:
			a := make([]byte, 1<<depth/2)
			for i := range a {
				a[i] = rnd()
			}
			chunk("tRNS", a)
		}
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	n := (w*ch*depth + 7) / 8
	for range h {
		row := make([]byte, 1+n)
		row[0] = rnd() % 5
		for i := 1; i < len(row); i++ {
			row[i] = rnd()
			if trns && rnd()%3 == 0 {
				row[i] = 1 // hits the tRNS gray value now and then
				if colorType == 2 && depth == 8 {
					row[i] = 7
				}
			}
		}
		zw.Write(row)
	}
	zw.Close()
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return out
}

func TestDecodeReducedEveryPNGKind(t *testing.T) {
	kinds := []struct{ colorType, depth int }{
		{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {2, 8}, {2, 16},
		{3, 1}, {3, 2}, {3, 4}, {3, 8}, {4, 8}, {4, 16}, {6, 8}, {6, 16},
	}
	for _, k := range kinds {
		for _, trns := range []bool{false, true} {
			data := rawPNG(t, 37, 29, k.depth, k.colorType, trns, uint32(k.depth*31+k.colorType))
			ref, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("type %d depth %d: standard decoder: %v", k.colorType, k.depth, err)
			}
			for _, f := range []int{1, 2, 5} {
				r := image.Rect(1, 2, 37, 29)
				got, err := DecodeReduced(data, r, f)
				if err != nil {
					t.Fatalf("type %d depth %d: %v", k.colorType, k.depth, err)
				}
				if want := reduceRef(ref, r, f); !bytes.Equal(got.Pix, want.Pix) {
					t.Errorf("type %d depth %d tRNS %v /%d: pixels differ from the standard decoder's", k.colorType, k.depth, trns, f)
				}
			}
		}
	}
}

package imageio

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"testing"
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

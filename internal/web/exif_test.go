package web

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/jpeg"
	"net/http"
	"testing"
)

// exifSegment returns an APP1 segment with a TIFF header in the given byte
// order whose first IFD holds the orientation tag (and one tag before it).
func exifSegment(bo binary.ByteOrder, orientation uint16) []byte {
	var t bytes.Buffer
	if bo == binary.LittleEndian {
		t.WriteString("II*\x00")
	} else {
		t.WriteString("MM\x00*")
	}
	binary.Write(&t, bo, uint32(8)) // IFD0 right after the header
	binary.Write(&t, bo, uint16(2)) // two entries
	// 0x010F Make, ASCII, 4 bytes inline: "Go!\x00"
	binary.Write(&t, bo, uint16(0x010F))
	binary.Write(&t, bo, uint16(2))
	binary.Write(&t, bo, uint32(4))
	t.WriteString("Go!\x00")
	// 0x0112 Orientation, SHORT, 1 value, padded
	binary.Write(&t, bo, uint16(0x0112))
	binary.Write(&t, bo, uint16(3))
	binary.Write(&t, bo, uint32(1))
	binary.Write(&t, bo, orientation)
	binary.Write(&t, bo, uint16(0))
	binary.Write(&t, bo, uint32(0)) // no next IFD
	payload := append([]byte("Exif\x00\x00"), t.Bytes()...)
	seg := []byte{0xFF, 0xE1, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(payload)+2))
	return append(seg, payload...)
}

// withExif inserts an APP1 segment after a JPEG's start-of-image marker.
func withExif(jpg, seg []byte) []byte {
	out := append([]byte{}, jpg[:2]...)
	out = append(out, seg...)
	return append(out, jpg[2:]...)
}

// testJPEG encodes a w x h picture: top half red, bottom half blue.
func testJPEG(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, redBlue(w, h, true), &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestExifOrientation(t *testing.T) {
	plain := testJPEG(t, 64, 64)
	if o := exifOrientation(plain); o != 1 {
		t.Errorf("no EXIF: %d", o)
	}
	for _, bo := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		for o := uint16(1); o <= 8; o++ {
			if got := exifOrientation(withExif(plain, exifSegment(bo, o))); got != int(o) {
				t.Errorf("%v orientation %d: read %d", bo, o, got)
			}
		}
		if got := exifOrientation(withExif(plain, exifSegment(bo, 9))); got != 1 {
			t.Errorf("%v orientation 9: read %d, want 1", bo, got)
		}
	}
	// Cut anywhere inside the segment: no orientation, no panic.
	full := withExif(plain, exifSegment(binary.BigEndian, 6))
	for n := range 60 {
		exifOrientation(full[:n])
	}
	if o := exifOrientation([]byte("not a jpeg")); o != 1 {
		t.Errorf("not a JPEG: %d", o)
	}
}

func TestUploadTurnsPhotosUpright(t *testing.T) {
	// A camera held sideways stores the picture turned; orientation 6 says
	// "turn a quarter clockwise to view". The stored picture has red on the
	// left: the top half, turned.
	jpg := withExif(testJPEG(t, 96, 96), exifSegment(binary.BigEndian, 6))
	s, _ := newServer(t, Config{})
	p := decode[pictureInfo](t, call(t, s, "POST", "/api/pictures", jpg, "Content-Type", "image/jpeg"), http.StatusCreated)
	img, err := jpeg.Decode(call(t, s, "GET", p.URL, nil).Body)
	if err != nil {
		t.Fatal(err)
	}
	left, right := img.At(10, 48), img.At(86, 48)
	lr, _, lb, _ := left.RGBA()
	rr, _, rb, _ := right.RGBA()
	if !(lb > lr && rr > rb) {
		t.Errorf("orientation 6: left %v, right %v; want blue left, red right", left, right)
	}
}

func TestOrient(t *testing.T) {
	// A 2x2 picture with four distinct pixels a b / c d.
	m := image.NewRGBA(image.Rect(0, 0, 2, 2))
	a, b, c, d := color.RGBA{1, 0, 0, 255}, color.RGBA{2, 0, 0, 255}, color.RGBA{3, 0, 0, 255}, color.RGBA{4, 0, 0, 255}
	m.SetRGBA(0, 0, a)
	m.SetRGBA(1, 0, b)
	m.SetRGBA(0, 1, c)
	m.SetRGBA(1, 1, d)
	want := map[int][4]color.RGBA{ // top-left, top-right, bottom-left, bottom-right
		1: {a, b, c, d},
		2: {b, a, d, c}, // mirrored
		3: {d, c, b, a}, // half turn
		4: {c, d, a, b}, // flipped
		5: {a, c, b, d}, // transposed
		6: {c, a, d, b}, // quarter turn clockwise
		7: {d, b, c, a}, // transversed
		8: {b, d, a, c}, // quarter turn counter-clockwise
	}
	for o, w := range want {
		got := orient(m, o)
		g := [4]color.RGBA{got.RGBAAt(0, 0), got.RGBAAt(1, 0), got.RGBAAt(0, 1), got.RGBAAt(1, 1)}
		if g != w {
			t.Errorf("orientation %d: got %v, want %v", o, g, w)
		}
	}
}

func FuzzExifOrientation(f *testing.F) {
	f.Add([]byte{0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x08, 'E', 'x', 'i', 'f', 0, 0})
	f.Add(withExif([]byte{0xFF, 0xD8, 0xFF, 0xD9}, exifSegment(binary.LittleEndian, 3)))
	f.Add(withExif([]byte{0xFF, 0xD8, 0xFF, 0xD9}, exifSegment(binary.BigEndian, 8)))
	f.Fuzz(func(t *testing.T, data []byte) {
		if o := exifOrientation(data); o < 1 || o > 8 {
			t.Fatalf("orientation %d", o)
		}
	})
}

// FuzzSquarePicture feeds arbitrary bytes to the upload decoder: it must
// answer with a picture or an error, never panic or exceed its limits.
func FuzzSquarePicture(f *testing.F) {
	f.Add(pngHeader(64, 64))
	f.Add(withExif([]byte{0xFF, 0xD8, 0xFF, 0xD9}, exifSegment(binary.BigEndian, 6)))
	f.Add([]byte("GIF89a\x40\x00\x40\x00\x00\x00\x00;"))
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBPVP8 "))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, side, err := squarePicture(data, 1<<20, 64)
		if err == nil && (side < 1 || side > 64 || len(out) == 0) {
			t.Fatalf("side %d, %d bytes", side, len(out))
		}
	})
}

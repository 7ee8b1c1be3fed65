package web

import (
	"bytes"
	"encoding/binary"
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

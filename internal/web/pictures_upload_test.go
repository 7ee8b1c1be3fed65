package web

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net/http"
	"sync"
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

// TestUploadsConcurrently sends many uploads at once through the handler
// to a real SQLite store, more than it keeps: none may fail (issue 22: 2
// of 60 sent 8 at a time failed with 500, "store: adding picture: sql: no
// rows in result set"), each answer names a picture that was stored, and
// at the end the newest MaxPictures are listed and served.
func TestUploadsConcurrently(t *testing.T) {
	const n, workers, keep = 64, 16, 5
	s, _ := newServer(t, Config{MaxPictures: keep, PictureSide: 64})
	bodies := make([][]byte, n)
	for i := range bodies {
		img := image.NewRGBA(image.Rect(0, 0, 64, 64))
		for p := range 64 * 64 {
			img.SetRGBA(p%64, p/64, color.RGBA{uint8(i * 4), uint8(p), uint8(p / 64 * 4), 255})
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		bodies[i] = buf.Bytes()
	}
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		failed []string
		ids    = map[string]bool{}
	)
	next := make(chan int)
	for range workers {
		wg.Go(func() {
			for i := range next {
				w := call(t, s, "POST", fmt.Sprintf("/api/pictures?name=p%d", i), bodies[i], "Content-Type", "image/png")
				mu.Lock()
				if w.Code != http.StatusCreated {
					failed = append(failed, fmt.Sprintf("upload %d: %d %s", i, w.Code, w.Body))
				} else {
					ids[w.Body.String()] = true
				}
				mu.Unlock()
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, f := range failed {
		if i < 3 {
			t.Error(f)
		}
	}
	if len(failed) > 0 {
		t.Fatalf("%d of %d uploads failed", len(failed), n)
	}
	if len(ids) != n {
		t.Errorf("%d distinct answers for %d distinct pictures", len(ids), n)
	}
	list := decode[struct{ Pictures []pictureInfo }](t, call(t, s, "GET", "/api/pictures", nil), 200).Pictures
	if len(list) != len(builtinPictures)+keep {
		t.Fatalf("%d pictures listed, want %d built-in and %d uploads", len(list), len(builtinPictures), keep)
	}
	for _, p := range list[len(builtinPictures):] {
		if w := call(t, s, "GET", p.URL, nil); w.Code != 200 {
			t.Errorf("GET %s: %d", p.URL, w.Code)
		}
	}
}

package jigsaw

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tessera/imageio"
	"tessera/internal/imagetest"
)

// TestTurn: a quarter turn clockwise puts the bottom-left pixel top left.
func TestTurn(t *testing.T) {
	m := image.NewNRGBA64(image.Rect(0, 0, 3, 2)) // 3 wide, 2 high
	for y := range 2 {
		for x := range 3 {
			m.SetNRGBA64(x, y, color.NRGBA64{R: uint16(10*y + x), A: 0xffff})
		}
	}
	r := turnImage(m)
	if b := r.Bounds(); b.Dx() != 2 || b.Dy() != 3 {
		t.Fatalf("turned bounds %v", b)
	}
	// rows of the turn: (10 0) (11 1) (12 2)
	for y := range 3 {
		for x := range 2 {
			if got, want := r.NRGBA64At(x, y).R, uint16(10*(1-x)+y); got != want {
				t.Errorf("turned (%d, %d) = %d, want %d", x, y, got, want)
			}
		}
	}
}

// TestMosaic: tiles of either orientation are tiled, trimmed, cropped and
// cut to a size; options an image is too small for say which.
func TestMosaic(t *testing.T) {
	imgs := []*image.NRGBA64{image.NewNRGBA64(image.Rect(0, 0, 30, 20)), image.NewNRGBA64(image.Rect(0, 0, 20, 30)), image.NewNRGBA64(image.Rect(0, 0, 30, 20))}
	imgs[1].SetNRGBA64(0, 29, color.NRGBA64{R: 7, A: 0xffff}) // bottom left: top left once turned
	load := func(i int) (*image.NRGBA64, error) { return imgs[i], nil }
	m, tile, err := Mosaic(t.Context(), 3, load, MosaicOptions{})
	if err != nil || m.Bounds().Size() != image.Pt(60, 40) || tile != image.Pt(30, 20) || m.NRGBA64At(30, 0).R != 7 {
		t.Fatalf("mosaic %v, tile %v, %v", m.Bounds(), tile, err)
	}
	m, tile, err = Mosaic(t.Context(), 3, load, MosaicOptions{Cols: 3, Trim: 2, Crop: image.Pt(10, 14), Size: image.Pt(24, 12)})
	if err != nil || m.Bounds().Size() != image.Pt(24, 12) || tile != image.Pt(10, 14) {
		t.Fatalf("trimmed, cropped, cut: %v, tile %v, %v", m.Bounds(), tile, err)
	}
	var me *MosaicError
	if _, _, err := Mosaic(t.Context(), 3, load, MosaicOptions{Trim: 10}); !errors.As(err, &me) || me.Image != 0 || me.Size != image.Pt(30, 20) {
		t.Errorf("trim 10: %v", err)
	}
	if _, _, err := Mosaic(t.Context(), 3, load, MosaicOptions{Size: image.Pt(61, 10)}); !errors.As(err, &me) || me.Image != -1 {
		t.Errorf("size 61x10: %v", err)
	}
	imgs[2] = image.NewNRGBA64(image.Rect(0, 0, 31, 20))
	if _, _, err := Mosaic(t.Context(), 3, load, MosaicOptions{}); err == nil || errors.As(err, &me) {
		t.Errorf("tiles of other sizes: %v", err)
	}
}

// TestMosaicFiles: a 16-bit source makes a 16-bit mosaic; 8-bit sources an
// 8-bit one with the same pixels; a missing file is an error.
func TestMosaicFiles(t *testing.T) {
	pic, tile, depth, err := MosaicFiles(t.Context(), []string{"testdata/mit5-crop.png", "testdata/bgu10-crop.png"}, MosaicOptions{Cols: 2})
	if _, ok := pic.(*image.NRGBA64); err != nil || !ok || depth != 16 || tile != image.Pt(224, 168) || pic.Bounds() != image.Rect(0, 0, 448, 168) {
		t.Fatalf("16-bit: %T %v depth %d tile %v: %v", pic, pic.Bounds(), depth, tile, err)
	}
	pic, _, depth, err = MosaicFiles(t.Context(), []string{"testdata/bgu10-crop.png", "testdata/bgu10-crop.png"}, MosaicOptions{Trim: 2})
	m8, ok := pic.(*image.NRGBA)
	if err != nil || !ok || depth != 8 || m8.Bounds() != image.Rect(0, 0, 440, 164) {
		t.Fatalf("8-bit: %T depth %d: %v", pic, depth, err)
	}
	src, err := imageio.Load("testdata/bgu10-crop.png", imageio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []image.Point{{0, 0}, {219, 163}} {
		want := src.Pix.NRGBA64At(p.X+2, p.Y+2)
		if got := m8.NRGBAAt(p.X+220, p.Y); got != (color.NRGBA{uint8(want.R >> 8), uint8(want.G >> 8), uint8(want.B >> 8), 0xff}) {
			t.Errorf("8-bit pixel %v: %v, want %v", p, got, want)
		}
	}
	if _, _, _, err := MosaicFiles(t.Context(), []string{"testdata/none.png"}, MosaicOptions{}); err == nil {
		t.Error("missing file: no error")
	}
}

// hugePNG writes a PNG whose header says w x h pixels of 8-bit RGB and
// whose data is missing: enough for a header, never decoded.
func hugePNG(t *testing.T, path string, w, h int) {
	t.Helper()
	data := append(imagetest.PNGHeader(uint32(w), uint32(h), 8, 2), imagetest.PNGChunk("IEND", nil)...)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMosaicBounds: columns out of 0..n are an error, not a panic; the
// pixels are bounded before anything is decoded or allocated; a cancelled
// context stops it (issue 38, items 6 and 7).
func TestMosaicBounds(t *testing.T) {
	loads := 0
	load := func(int) (*image.NRGBA64, error) { loads++; return image.NewNRGBA64(image.Rect(0, 0, 30, 20)), nil }
	for _, cols := range []int{-5, 4, 1000000000} {
		if _, _, err := Mosaic(t.Context(), 3, load, MosaicOptions{Cols: cols}); err == nil {
			t.Errorf("-cols %d: no error", cols)
		}
	}
	loads = 0
	if _, _, err := Mosaic(t.Context(), 3, load, MosaicOptions{MaxPixels: 30 * 20 * 3}); !errors.Is(err, imageio.ErrTooLarge) || loads != 1 {
		t.Errorf("4 tiles' room over 3 tiles' pixels: %v after %d loads", err, loads)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, _, err := Mosaic(ctx, 3, load, MosaicOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	dir := t.TempDir()
	var big []string
	for i := range 4 {
		big = append(big, filepath.Join(dir, fmt.Sprintf("%d.png", i)))
		hugePNG(t, big[i], 10000, 10000)
	}
	if _, _, _, err := MosaicFiles(t.Context(), big, MosaicOptions{}); !errors.Is(err, imageio.ErrTooLarge) || !strings.Contains(err.Error(), "pixels in all") {
		t.Errorf("four 10000x10000 PNGs: %v", err)
	}
}

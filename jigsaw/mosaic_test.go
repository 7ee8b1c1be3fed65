package jigsaw

import (
	"errors"
	"image"
	"image/color"
	"testing"
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
	m, tile, err := Mosaic(3, load, MosaicOptions{})
	if err != nil || m.Bounds().Size() != image.Pt(60, 40) || tile != image.Pt(30, 20) || m.NRGBA64At(30, 0).R != 7 {
		t.Fatalf("mosaic %v, tile %v, %v", m.Bounds(), tile, err)
	}
	m, tile, err = Mosaic(3, load, MosaicOptions{Cols: 3, Trim: 2, Crop: image.Pt(10, 14), Size: image.Pt(24, 12)})
	if err != nil || m.Bounds().Size() != image.Pt(24, 12) || tile != image.Pt(10, 14) {
		t.Fatalf("trimmed, cropped, cut: %v, tile %v, %v", m.Bounds(), tile, err)
	}
	var me *MosaicError
	if _, _, err := Mosaic(3, load, MosaicOptions{Trim: 10}); !errors.As(err, &me) || me.Image != 0 || me.Size != image.Pt(30, 20) {
		t.Errorf("trim 10: %v", err)
	}
	if _, _, err := Mosaic(3, load, MosaicOptions{Size: image.Pt(61, 10)}); !errors.As(err, &me) || me.Image != -1 {
		t.Errorf("size 61x10: %v", err)
	}
	imgs[2] = image.NewNRGBA64(image.Rect(0, 0, 31, 20))
	if _, _, err := Mosaic(3, load, MosaicOptions{}); err == nil || errors.As(err, &me) {
		t.Errorf("tiles of other sizes: %v", err)
	}
}

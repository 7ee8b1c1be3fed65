package imagetest

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"golang.org/x/image/webp"
)

func TestPNGHeader(t *testing.T) {
	cfg, err := png.DecodeConfig(bytes.NewReader(PNGHeader(300, 20, 16, 0)))
	if err != nil || cfg.Width != 300 || cfg.Height != 20 || cfg.ColorModel != color.Gray16Model {
		t.Fatalf("%+v %v", cfg, err)
	}
	// A header and its end, no data: the decoder finds the image missing.
	data := append(PNGHeader(2, 2, 8, 2), PNGChunk("IEND", nil)...)
	if _, err := png.Decode(bytes.NewReader(data)); err == nil {
		t.Fatal("a PNG without IDAT decoded")
	}
}

func TestSolidWebP(t *testing.T) {
	img, err := webp.Decode(bytes.NewReader(SolidWebP(33, 17, 10, 20, 30)))
	if err != nil || img.Bounds() != image.Rect(0, 0, 33, 17) {
		t.Fatalf("%v %v", err, img)
	}
	if r, g, b, a := img.At(32, 16).RGBA(); r != 10*257 || g != 20*257 || b != 30*257 || a != 0xffff {
		t.Fatalf("colour %d %d %d %d", r, g, b, a)
	}
}

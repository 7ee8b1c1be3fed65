package imagetest

import (
	"bytes"
	"image/color"
	"image/png"
	"testing"
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

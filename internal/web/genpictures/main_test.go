package main

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// TestCommittedPicturesAreCurrent checks that the PNG files in the web
// app's static folder are what this program draws, on a sample of pixels
// (every 7th row and column), allowing one quantisation step for
// floating-point differences between machines.
func TestCommittedPicturesAreCurrent(t *testing.T) {
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			path := filepath.Join("..", "static", "pictures", id+".png")
			f, err := os.Open(path)
			if err != nil {
				t.Fatalf("%v (run: go run ./internal/web/genpictures -o internal/web/static/pictures)", err)
			}
			defer f.Close()
			img, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			if img.Bounds() != image.Rect(0, 0, side, side) {
				t.Fatalf("%s is %v, want %dx%d", path, img.Bounds(), side, side)
			}
			draw := pictures[id]()
			bad := 0
			for py := 0; py < side; py += 7 {
				for px := 0; px < side; px += 7 {
					want := pixel(draw, px, py)
					r, g, b, _ := img.At(px, py).RGBA()
					if far(r>>8, want.R) || far(g>>8, want.G) || far(b>>8, want.B) {
						bad++
					}
				}
			}
			if bad > 0 {
				t.Errorf("%s: %d sampled pixels differ from the drawing; regenerate it", path, bad)
			}
		})
	}
}

func far(got uint32, want uint8) bool {
	d := int(got) - int(want)
	return d < -5 || d > 5
}

package tangram

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestRender draws the square classic solved and as a puzzle, checks the
// pixels where pieces must be, and writes the pictures under
// $TANGRAM_RENDER_DIR when it is set (to look at them).
func TestRender(t *testing.T) {
	p, s, _ := Classic("square")
	img, err := Render(p, s.Poses(), RenderOptions{Scale: 40, Margin: 10})
	if err != nil {
		t.Fatal(err)
	}
	// the square of side 2√2 at 40 px/unit plus margins.
	side := int(math.Ceil(2*math.Sqrt2*40 + 20))
	if b := img.Bounds(); b.Dx() != side || b.Dy() != side {
		t.Fatalf("size %v, want %d", b, side)
	}
	// the centre of big1 (bottom triangle) is drawn in its colour, blended.
	x, y := 10+56, img.Bounds().Dy()-10-16
	c := img.RGBAAt(x, y)
	want := PieceColor(0)
	if absd(int(c.R), int(want.R)*3/4+200/4) > 3 || absd(int(c.G), int(want.G)*3/4+200/4) > 3 {
		t.Fatalf("pixel %v, want big1's colour over grey", c)
	}
	puz, err := Render(p, nil, RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if puz.Bounds().Dx() <= img.Bounds().Dx() {
		t.Fatal("the puzzle view has no tray")
	}
	if dir := os.Getenv("TANGRAM_RENDER_DIR"); dir != "" {
		for _, name := range ClassicNames() {
			p, s, _ := Classic(name)
			var b bytes.Buffer
			RenderPNG(&b, p, s.Poses(), RenderOptions{})
			os.WriteFile(filepath.Join(dir, name+".png"), b.Bytes(), 0o644)
		}
		for seed := range int64(4) {
			p, s, _ := Generate(seed, Tans())
			var b bytes.Buffer
			RenderPNG(&b, p, s.Poses(), RenderOptions{})
			os.WriteFile(filepath.Join(dir, "gen"+string(rune('0'+seed))+".png"), b.Bytes(), 0o644)
			b.Reset()
			RenderPNG(&b, p, nil, RenderOptions{})
			os.WriteFile(filepath.Join(dir, "gen"+string(rune('0'+seed))+"-puzzle.png"), b.Bytes(), 0o644)
		}
	}
	// a strip: unplaced, half-way (floats), solved.
	half := s.Poses()
	for k := range half {
		half[k].X, half[k].Y = half[k].X*0.5, half[k].Y*0.5+4
	}
	strip, err := RenderStrip(p, [][]Pose{nil, half, s.Poses()}, RenderOptions{Scale: 20})
	if err != nil {
		t.Fatal(err)
	}
	wantW := 2 * 8 // gaps
	for _, poses := range [][]Pose{nil, half, s.Poses()} {
		one, _ := Render(p, poses, RenderOptions{Scale: 20})
		wantW += one.Bounds().Dx()
	}
	if strip.Bounds().Dx() != wantW {
		t.Fatalf("strip %v, want %d wide", strip.Bounds(), wantW)
	}
	if dir := os.Getenv("TANGRAM_RENDER_DIR"); dir != "" {
		var b bytes.Buffer
		png.Encode(&b, strip)
		os.WriteFile(filepath.Join(dir, "strip.png"), b.Bytes(), 0o644)
	}
	if _, err := RenderStrip(p, nil, RenderOptions{}); err == nil {
		t.Fatal("empty strip accepted")
	}
	var b bytes.Buffer
	if err := RenderPNG(&b, p, s.Poses(), RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(&b); err != nil {
		t.Fatal(err)
	}
}

func absd(a, b int) int {
	if a < b {
		return b - a
	}
	return a - b
}

// TestRenderNotFinite: a scale or a pose that is not finite is an error,
// not a panic in image.NewRGBA (issue 38, item 7).
func TestRenderNotFinite(t *testing.T) {
	p, s, _ := Classic("square")
	for _, scale := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300} {
		if _, err := Render(p, s.Poses(), RenderOptions{Scale: scale}); err == nil {
			t.Errorf("scale %v: no error", scale)
		}
	}
	poses := s.Poses()
	poses[0].X = math.NaN()
	if _, err := Render(p, poses, RenderOptions{}); err == nil {
		t.Error("a NaN pose: no error")
	}
}

package jigsaw

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"tessera/imageio"
	"tessera/internal/datadir"
)

// sheetOf cuts m into size-pixel pieces (the centre), scrambles them as
// Type 2 and lays them on a sheet of cols columns (0: the picture's grid).
func sheetOf(t testing.TB, m image.Image, size, cols int, seed uint64) *image.NRGBA64 {
	t.Helper()
	g, err := Cut(m, size, CutOptions{Crop: true})
	if err != nil {
		t.Fatal(err)
	}
	if cols == 0 {
		cols = g.Cols
	}
	pz, _ := Scramble([]*Grid{g}, ScrambleOptions{Rotate: true, Seed: seed})
	return imageio.ToNRGBA64(Sheet(pz, cols))
}

// withGutters draws the cells of a sheet of size-pixel pieces gutter
// pixels apart, with a margin round them, on a background of colour bg.
func withGutters(sheet *image.NRGBA64, size, gutter, margin int, bg color.Color) *image.NRGBA64 {
	cols, rows := sheet.Rect.Dx()/size, sheet.Rect.Dy()/size
	pitch := size + gutter
	out := image.NewNRGBA64(image.Rect(0, 0, 2*margin+cols*pitch-gutter, 2*margin+rows*pitch-gutter))
	draw.Draw(out, out.Rect, image.NewUniform(bg), image.Point{}, draw.Src)
	for r := range rows {
		for c := range cols {
			at := image.Rect(margin+c*pitch, margin+r*pitch, margin+c*pitch+size, margin+r*pitch+size)
			draw.Draw(out, at, sheet, image.Pt(c*size, r*size), draw.Over)
		}
	}
	return out
}

func loadTestdata(t testing.TB, name string) image.Image {
	t.Helper()
	img, err := imageio.Load("testdata/"+name, imageio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return img.Pix
}

func TestDetectGrid(t *testing.T) {
	photo := loadTestdata(t, "mit5-crop.png")
	for _, tc := range []struct {
		size, cols, gutter, margin int
		bg                         color.Color
	}{
		{28, 0, 0, 0, nil}, {14, 0, 0, 0, nil}, {8, 5, 0, 0, nil}, {21, 3, 0, 0, nil},
		{28, 0, 2, 0, color.White}, {14, 4, 1, 3, color.Transparent}, {16, 0, 4, 4, color.Black},
		{28, 0, 0, 5, color.Transparent},
	} {
		sheet := sheetOf(t, photo, tc.size, tc.cols, 1)
		want := SheetGrid{Size: tc.size, Pitch: tc.size + tc.gutter, X0: tc.margin, Y0: tc.margin,
			Cols: sheet.Rect.Dx() / tc.size, Rows: sheet.Rect.Dy() / tc.size}
		if tc.bg != nil {
			sheet = withGutters(sheet, tc.size, tc.gutter, tc.margin, tc.bg)
		}
		got, err := DetectGrid(sheet)
		if err != nil || got != want {
			t.Errorf("%+v: got %+v, %v; want %+v", tc, got, err, want)
		}
	}
}

// A sheet read without a piece size is cut as the detector says: the
// same pieces as with the size given.
func TestReadSheetDetects(t *testing.T) {
	g, err := Cut(loadTestdata(t, "bgu10-crop.png"), 14, CutOptions{Crop: true})
	if err != nil {
		t.Fatal(err)
	}
	pz, _ := Scramble([]*Grid{g}, ScrambleOptions{Rotate: true, Seed: 3})
	pz.Pieces = pz.Pieces[:len(pz.Pieces)-3] // a last row with transparent cells
	var buf bytes.Buffer
	if err := png.Encode(&buf, Sheet(pz, 0)); err != nil { // no recorded size
		t.Fatal(err)
	}
	got, err := ReadSheet(bytes.NewReader(buf.Bytes()), SheetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.PieceSize != 14 || len(got.Pieces) != len(pz.Pieces) {
		t.Fatalf("%d pieces of %d pixels, want %d of 14", len(got.Pieces), got.PieceSize, len(pz.Pieces))
	}
	for k := range pz.Pieces {
		for i, v := range pz.Pieces[k].Pix {
			if got.Pieces[k].Pix[i]>>8 != v>>8 {
				t.Fatalf("piece %d differs at %d", k, i)
			}
		}
	}
}

func TestDetectGridAmbiguous(t *testing.T) {
	photo := imageio.ToNRGBA64(loadTestdata(t, "mit5-crop.png"))
	uniform := image.NewNRGBA64(image.Rect(0, 0, 56, 56))
	for name, m := range map[string]*image.NRGBA64{
		"a photograph, not a sheet": photo,
		"a single piece":            noise(28, 28, 1),
		"one colour":                uniform,
		"too small":                 image.NewNRGBA64(image.Rect(0, 0, 3, 40)),
	} {
		if g, err := DetectGrid(m); !errors.Is(err, ErrAmbiguousGrid) {
			t.Errorf("%s: got %+v, %v; want ErrAmbiguousGrid", name, g, err)
		}
	}
	// No size: the message asks for one.
	var buf bytes.Buffer
	png.Encode(&buf, photo)
	if _, err := ReadSheet(&buf, SheetOptions{}); !errors.Is(err, ErrPieceSize) || !errors.Is(err, ErrAmbiguousGrid) {
		t.Errorf("ReadSheet of a photograph: %v", err)
	}
}

// detectCase is one sheet of the detection figures: a picture, its piece
// size and the sheet's columns.
type detectCase struct {
	path       string
	size, cols int
}

// detectCases returns the sheets of the detection figures: every picture
// of the five standard sets at 28 pixels (the picture's grid), and 20
// photographs (Kodak 24 and BSDS500) at piece sizes 14 to 64 on
// near-square sheets; without TESSERA_TEST_FULL, 2 pictures of each set
// and 5 photographs.
func detectCases(t *testing.T) []detectCase {
	dir, err := datadir.Dir()
	if err != nil {
		t.Skipf("no shared data: %v", err)
	}
	full := os.Getenv("TESSERA_TEST_FULL") == "1"
	var cases []detectCase
	for _, set := range []string{"mit432", "mcgill540", "bgu805", "bgu2360", "bgu3300"} {
		files, _ := filepath.Glob(filepath.Join(dir, "jigsaw", set, "*.*g"))
		slices.Sort(files)
		if !full {
			files = files[:min(2, len(files))]
		}
		for _, f := range files {
			cases = append(cases, detectCase{f, 28, 0})
		}
	}
	kodak, _ := filepath.Glob(filepath.Join(dir, "images", "kodak24", "*.png"))
	bsds, _ := filepath.Glob(filepath.Join(dir, "images", "bsds500", "test", "*.jpg"))
	slices.Sort(kodak)
	slices.Sort(bsds)
	photos := append(kodak[:min(10, len(kodak))], bsds[:min(10, len(bsds))]...)
	if !full {
		photos = photos[:min(5, len(photos))]
	}
	for i, f := range photos {
		cases = append(cases, detectCase{f, 14 + i*50/19, -1})
	}
	return cases
}

// Piece sizes are told right on the standard sets and on photographs.
func TestDetectGridData(t *testing.T) {
	right := 0
	cases := detectCases(t)
	for i, c := range cases {
		img, err := imageio.Load(c.path, imageio.Options{})
		if err != nil {
			t.Fatal(err)
		}
		cols := c.cols
		if cols < 0 {
			g, err := Cut(img.Pix, c.size, CutOptions{Crop: true})
			if err != nil {
				t.Fatal(err)
			}
			cols = SheetCols(g.Rows * g.Cols)
		}
		sheet := sheetOf(t, img.Pix, c.size, cols, uint64(i+1))
		got, err := DetectGrid(sheet)
		if err != nil || got.Size != c.size || got.Gutter() != 0 {
			t.Errorf("%s at %d pixels: got %+v, %v", c.path, c.size, got, err)
			continue
		}
		right++
	}
	t.Logf("piece size told right on %d of %d sheets", right, len(cases))
}

func FuzzDetectGrid(f *testing.F) {
	f.Add(uint8(8), uint8(8), []byte{1, 2, 3, 4, 5, 6, 7, 8})
	f.Add(uint8(16), uint8(12), bytes.Repeat([]byte{0, 255, 7}, 100))
	f.Fuzz(func(t *testing.T, w, h uint8, pix []byte) {
		m := image.NewNRGBA64(image.Rect(3, 5, 3+int(w%80), 5+int(h%80)))
		for i := range m.Pix {
			if len(pix) > 0 {
				m.Pix[i] = pix[i%len(pix)] ^ byte(i/len(pix))
			}
		}
		g, err := DetectGrid(m)
		if err != nil {
			if !errors.Is(err, ErrAmbiguousGrid) {
				t.Fatalf("error %v is not ErrAmbiguousGrid", err)
			}
			return
		}
		b := m.Bounds()
		if g.Size < MinDetectSize || g.Pitch < g.Size || g.Cols < 1 || g.Rows < 1 || g.Cols*g.Rows < 2 ||
			g.X0 < 0 || g.Y0 < 0 || g.X0+(g.Cols-1)*g.Pitch+g.Size > b.Dx() || g.Y0+(g.Rows-1)*g.Pitch+g.Size > b.Dy() {
			t.Fatalf("grid %+v outside %v", g, b)
		}
	})
}

package edgematch_test

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"tessera/edgematch"
	"tessera/internal/emtest"
)

func TestTileRotate(t *testing.T) {
	tile := edgematch.Tile{6, 11, 18, 6} // Eternity II piece 139
	if got := tile.Rotate(2); got != (edgematch.Tile{18, 6, 6, 11}) {
		t.Fatalf("rotate 2: %v", got)
	}
	for r := range 8 {
		if tile.Rotate(r).Rotate(4-r%4) != tile {
			t.Fatalf("rotation %d does not undo", r)
		}
	}
}

func TestEternity2Data(t *testing.T) {
	p := emtest.E2(t, 0)
	if len(p.Hints) != 5 || p.Hints[0] != (edgematch.Hint{Piece: 138, Row: 8, Col: 7, Rot: 2}) {
		t.Fatalf("hints %v", p.Hints)
	}
	if p.Colours() != 23 || p.MaxScore() != 480 {
		t.Fatalf("colours %d, max %d", p.Colours(), p.MaxScore())
	}
	for _, c := range []struct {
		file  string
		clues int
		want  int
	}{{"eternity2_470_blackwood.board", 1, 470}, {"eternity2_465_5clues_pejic.board", 5, 465}} {
		p := emtest.E2(t, c.clues)
		b := emtest.MustBoard(t, filepath.Join("testdata", c.file), p)
		if err := p.Verify(b); err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if s := p.Score(b); s.Matched != c.want || s.FrameErrors != 0 || s.Empty != 0 || s.Solved() {
			t.Fatalf("%s: %v, want %d", c.file, s, c.want)
		}
	}
}

func TestVerifyCatchesHintsAndGaps(t *testing.T) {
	p := emtest.E2(t, 5)
	b := emtest.MustBoard(t, "testdata/eternity2_470_blackwood.board", p)
	if err := p.Verify(b); err == nil || !strings.Contains(err.Error(), "hint not respected") {
		t.Fatalf("the 470 board ignores 4 clues, got %v", err)
	}
	p = emtest.E2(t, 1)
	b.Cells[5].Piece = edgematch.NoPiece
	if err := p.Verify(b); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Fatalf("empty cell: %v", err)
	}
	if s := p.Score(b); s.Empty != 1 || s.Matched > 470 {
		t.Fatalf("score with a hole: %v", s)
	}
	b.Cells[5] = b.Cells[6]
	if err := p.Check(b); err == nil || !strings.Contains(err.Error(), "placed twice") {
		t.Fatalf("duplicate: %v", err)
	}
}

func TestFrameErrorsCount(t *testing.T) {
	p := emtest.MustPuzzle(t, "testdata/clue1.txt")
	b := emtest.MustBoard(t, "testdata/clue1.solution.board", p)
	if s := p.Score(b); !s.Solved() {
		t.Fatalf("clue1 solution: %v", s)
	}
	// Turning the top left corner piece breaks its two outward edges and
	// both internal ones (grey now faces its neighbours).
	b.Cells[0].Rot = (b.Cells[0].Rot + 2) & 3
	s := p.Score(b)
	if s.FrameErrors != 2 || s.Matched != 58 || s.Solved() {
		t.Fatalf("turned corner: %v", s)
	}
}

func TestPuzzleRoundTrip(t *testing.T) {
	for _, gen := range []edgematch.GenerateOptions{
		{Kind: edgematch.Framed, Rows: 5, Cols: 7, Colours: 6, Seed: 3},
		{Kind: edgematch.Kovalsky, Rows: 4, Cols: 4, Colours: 5, Seed: 4},
		{Kind: edgematch.Kovalsky, Rows: 3, Cols: 6, Colours: 9, Rotate: true, Seed: 5},
	} {
		p, sol, err := edgematch.Generate(gen)
		if err != nil {
			t.Fatal(err)
		}
		p.Hints = []edgematch.Hint{{Piece: sol.Cells[4].Piece, Row: 1, Col: 1, Rot: sol.Cells[4].Rot}}
		if p.FixedOrientation && sol.Cells[4].Rot != 0 {
			t.Fatal("a fixed-orientation puzzle with a turned piece")
		}
		text := edgematch.Format(p, "a comment", "two")
		q, err := edgematch.ParsePuzzle(bytes.NewReader(text))
		if err != nil {
			t.Fatalf("%s\n%v", text, err)
		}
		if q.Rows != p.Rows || q.Cols != p.Cols || !slices.Equal(q.Tiles, p.Tiles) || !slices.Equal(q.Frame, p.Frame) ||
			!slices.Equal(q.Hints, p.Hints) || q.FixedOrientation != p.FixedOrientation {
			t.Fatalf("round trip of %+v changed it:\n%s", gen, text)
		}
		bt := edgematch.Format(sol, "solution")
		b, err := edgematch.ParseBoard(bytes.NewReader(bt))
		if err != nil || !slices.Equal(b.Cells, sol.Cells) {
			t.Fatalf("board round trip: %v\n%s", err, bt)
		}
		if s := p.Score(sol); !s.Solved() {
			t.Fatalf("planted solution of %+v scores %v", gen, s)
		}
	}
	// The shared files read back to the same text (comments aside).
	p := emtest.MustPuzzle(t, "testdata/eternity2.txt")
	var buf bytes.Buffer
	p.WriteTo(&buf)
	q, err := edgematch.ParsePuzzle(&buf)
	if err != nil || !slices.Equal(q.Tiles, p.Tiles) {
		t.Fatal("eternity2.txt does not round-trip", err)
	}
}

func TestParseErrors(t *testing.T) {
	e2 := emtest.MustPuzzle(t, "testdata/eternity2.txt")
	parse := map[string]func(string) error{
		"puzzle": func(s string) error { _, err := edgematch.ParsePuzzle(strings.NewReader(s)); return err },
		"board":  func(s string) error { _, err := edgematch.ParseBoard(strings.NewReader(s)); return err },
		"hints":  func(s string) error { _, err := edgematch.ParseHints(strings.NewReader(s), e2, 0); return err },
	}
	cases := map[string][]struct{ text, want string }{
		"puzzle": {
			{"", "empty file"},
			{"2 2\n0 1 2 0\n0 0 2 1\n2 1 0 0\n", "3 pieces for a 2x2 board, want 4"},
			{"2 2\n0 1 2 0\n0 0 2 1\n2 1 0 0\n2 0 0 1\n1 1 1 1\n", "line 6: more than 4 pieces"},
			{"2 2\n0 1 2 0\n0 0 2 x\n", "line 3: piece 2: colour \"x\" is not a non-negative integer"},
			{"2 2\n0 1 2 0\n0 0 2 300\n", "line 3: piece 2: colour 300 is above 255"},
			{"2 2\n0 1 2\n", "line 2: want 4 colours"},
			{"2\n", "line 1: want \"ROWS COLS\""},
			{"0 3\n", "rows and columns must be integers 1..64"},
			{"2 2\nframe 1 2 3\n", "frame of 3 colours, want 8"},
			{"2 2\nhint 9 0 0 0\n0 1 2 0\n0 0 2 1\n2 1 0 0\n2 0 0 1\n", "piece 9 out of range"},
			{"2 2\nhint 1 0 0 5\n", "rotation 5 is above 3"},
			{"2 2\norientation free\n", "want \"orientation fixed\""},
		},
		"board": {
			{"", "empty file"},
			{"2 2\n1/0 2/0\n", "1 rows of cells for a 2x2 board"},
			{"2 2\n1/0 2/0\n3/0\n", "line 3: 1 cells, want 2"},
			{"2 2\n1/0 2/0\n3/0 1/1\n", "line 3: column 2: piece 1 is also at row 1, column 1"},
			{"2 2\n1/0 2/0\n3/0 4/4\n", "rotation 4 is above 3"},
			{"2 2\n1/0 2/0\n3/0 4\n", "\"4\" is not PIECE/ROT"},
		},
		"hints": {
			{"139 8 7 2 I8 18 6 6 12\n", "piece 139 turned 2 shows [18 6 6 11], the file says [18 6 6 12]"},
			{"300 0 0 0\n", "does not fit"},
			{"139 8 7\n", "want \"PIECE ROW COL ROT"},
		},
	}
	for what, cs := range cases {
		for _, c := range cs {
			err := parse[what](c.text)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "edgematch: "+what) {
				t.Errorf("%s %q: got %v, want %q", what, c.text, err, c.want)
			}
		}
	}
	b, _ := edgematch.ParseBoard(strings.NewReader("2 2\n1/0 2/0\n3/0 5/0\n"))
	q, _ := edgematch.ParsePuzzle(strings.NewReader("2 2\n0 1 2 0\n0 0 2 1\n2 1 0 0\n2 0 0 1\n"))
	if err := q.Check(b); err == nil || !strings.Contains(err.Error(), "piece 5 out of range 1..4") {
		t.Errorf("out of range piece: %v", err)
	}
}

func TestGenerateErrorsAndRepeatability(t *testing.T) {
	a, _, _ := edgematch.Generate(edgematch.GenerateOptions{Rows: 6, Cols: 6, Colours: 7, Seed: 9})
	b, _, _ := edgematch.Generate(edgematch.GenerateOptions{Rows: 6, Cols: 6, Colours: 7, Seed: 9})
	c, _, _ := edgematch.Generate(edgematch.GenerateOptions{Rows: 6, Cols: 6, Colours: 7, Seed: 10})
	if !slices.Equal(a.Tiles, b.Tiles) || slices.Equal(a.Tiles, c.Tiles) {
		t.Fatal("generation is not a function of the seed")
	}
	for _, o := range []edgematch.GenerateOptions{{Rows: 1, Cols: 5, Colours: 3}, {Rows: 4, Cols: 4}, {Kind: edgematch.Kovalsky, Rows: 4, Cols: 4, Colours: 300}} {
		if _, _, err := edgematch.Generate(o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

func TestRender(t *testing.T) {
	p := emtest.MustPuzzle(t, "testdata/clue1.txt")
	b := emtest.MustBoard(t, "testdata/clue1.solution.board", p)
	img := p.Render(b, edgematch.RenderOptions{Cell: 20})
	if img.Bounds().Dx() != 6*20+2*2+1 && img.Bounds().Dx() != 6*20+2*2 {
		t.Fatalf("size %v", img.Bounds())
	}
	red := color.RGBA{0xff, 0x10, 0x10, 0xff}
	countRed := func() int {
		n := 0
		for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
			for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
				if img.RGBAAt(x, y) == red {
					n++
				}
			}
		}
		return n
	}
	if n := countRed(); n != 0 {
		t.Fatalf("a solved board has %d red pixels", n)
	}
	// Swap two inner pieces: their edges turn red.
	b.Cells[7], b.Cells[14] = b.Cells[14], b.Cells[7]
	img = p.Render(b, edgematch.RenderOptions{Cell: 20})
	if n := countRed(); n == 0 {
		t.Fatal("mismatches are not highlighted")
	}
	// A pixel of cell (1,1)'s north triangle, below any mark, has the piece's colour.
	c := b.At(1, 1)
	if got := img.RGBAAt(2+20+10, 2+20+5); got != edgematch.Palette(p.Edge(c, edgematch.North)) {
		t.Fatalf("north triangle colour %v, want %v", got, edgematch.Palette(p.Edge(c, edgematch.North)))
	}
}

func TestDescribe(t *testing.T) {
	p, _, err := edgematch.Generate(edgematch.GenerateOptions{Kind: edgematch.Kovalsky, Rows: 2, Cols: 3, Colours: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	p.Hints = []edgematch.Hint{{Piece: 0}}
	if got, want := p.Describe(), "2x3, 6 pieces, 1 colour, coloured frame, fixed orientation, 1 hint"; got != want {
		t.Errorf("Describe() = %q, want %q", got, want)
	}
	p, _, _ = edgematch.Generate(edgematch.GenerateOptions{Rows: 4, Cols: 4, Colours: 5, Frame: 2, Seed: 1})
	if got, want := p.Describe(), "4x4, 16 pieces, 7 colours"; got != want {
		t.Errorf("Describe() = %q, want %q", got, want)
	}
}

func TestParseSize(t *testing.T) {
	if r, c, err := edgematch.ParseSize("16X12"); r != 16 || c != 12 || err != nil {
		t.Errorf("ParseSize(16X12) = %d, %d, %v", r, c, err)
	}
	for _, s := range []string{"9", "x8", "8x", "0x4", "-1x3", "axb", "3x4x5"} {
		if _, _, err := edgematch.ParseSize(s); err == nil {
			t.Errorf("ParseSize(%q) accepted", s)
		}
	}
}

func TestReadFiles(t *testing.T) {
	dir := t.TempDir()
	p, sol, _ := edgematch.Generate(edgematch.GenerateOptions{Rows: 3, Cols: 4, Colours: 3, Seed: 2})
	pf, bf, hf := filepath.Join(dir, "p.txt"), filepath.Join(dir, "b.board"), filepath.Join(dir, "hints.txt")
	os.WriteFile(pf, edgematch.Format(p), 0o644)
	os.WriteFile(bf, edgematch.Format(sol), 0o644)
	c := sol.At(1, 1)
	os.WriteFile(hf, fmt.Appendf(nil, "%d 1 1 %d\n", c.Piece+1, c.Rot), 0o644)
	q, err := edgematch.ReadPuzzleFile(pf)
	if err != nil || !reflect.DeepEqual(q, p) {
		t.Fatalf("ReadPuzzleFile: %v", err)
	}
	b, err := edgematch.ReadBoard(bf, q)
	if err != nil || !q.Score(b).Solved() {
		t.Fatalf("ReadBoard: %v", err)
	}
	url, _ := q.BucasURL(b, "p")
	if u, err := edgematch.ReadBoard(url, q); err != nil || !q.Score(u).Solved() {
		t.Fatalf("ReadBoard(URL): %v", err)
	}
	if err := q.AddHintsFile(hf, 0); err != nil || len(q.Hints) != 1 || q.Hints[0].Piece != c.Piece {
		t.Fatalf("AddHintsFile: %v %v", err, q.Hints)
	}
	os.WriteFile(bf, []byte("3 4\n1/0 1/0\n"), 0o644)
	if _, err := edgematch.ReadBoard(bf, q); err == nil || !strings.HasPrefix(err.Error(), bf+": ") {
		t.Fatalf("a bad board: %v", err)
	}
	if _, err := edgematch.ReadPuzzleFile(filepath.Join(dir, "none.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a missing file: %v", err)
	}
}

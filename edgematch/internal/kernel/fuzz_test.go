package kernel

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"tessera/edgematch"
	"tessera/internal/emtest"
	"tessera/internal/fuzztest"
)

// FuzzParsePuzzle checks that ParsePuzzle never panics, that what it
// accepts is valid and round-trips, and that its errors name the package.
func FuzzParsePuzzle(f *testing.F) {
	for _, s := range []string{
		"2 2\n0 1 2 0\n0 0 2 1\n2 1 0 0\n2 0 0 1\n",
		"2 2\norientation fixed\nframe 1 2 3 4 5 6 7 8\nhint 1 0 0 0\n1 1 1 1\n1 1 1 1\n1 1 1 1\n1 1 1 1\n",
		"# c\n1 1\n0 0 0 0 # x\n", "", "3 3\n", "64 64\n", "2 2\nhint 1 1 1 1\nhint 1 1 1 1\n", "1 2\n0 0 0 0\n300 0 0 0\n",
	} {
		f.Add([]byte(s))
	}
	if b, err := os.ReadFile("testdata/clue1.txt"); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := edgematch.ParsePuzzle(bytes.NewReader(data))
		if fuzztest.Refused(t, "edgematch", err) {
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("accepted an invalid puzzle: %v", err)
		}
		var buf bytes.Buffer
		p.WriteTo(&buf)
		q, err := edgematch.ParsePuzzle(&buf)
		if err != nil || !slices.Equal(q.Tiles, p.Tiles) || !slices.Equal(q.Frame, p.Frame) || !slices.Equal(q.Hints, p.Hints) {
			t.Fatalf("does not round-trip: %v", err)
		}
		// Scoring an empty board and compiling never panic.
		_ = p.Score(edgematch.NewBoard(p.Rows, p.Cols))
		if p.Cells() <= 64 {
			if _, err := Compile(p, CompileOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// FuzzParseBoard checks ParseBoard and the board checks against a puzzle.
func FuzzParseBoard(f *testing.F) {
	for _, s := range []string{"2 2\n1/0 2/1\n3/2 4/3\n", "2 2\n0/0 0/0\n0/0 0/0\n", "2 2\n1/0 1/0\n3/2 4/3\n", "1 1\n5/0\n", "2 2\n1/9 2/1\n"} {
		f.Add([]byte(s))
	}
	p, _ := edgematch.ParsePuzzle(strings.NewReader("2 2\n0 1 2 0\n0 0 2 1\n2 1 0 0\n2 0 0 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := edgematch.ParseBoard(bytes.NewReader(data))
		if fuzztest.Refused(t, "edgematch", err) {
			return
		}
		c, err := edgematch.ParseBoard(strings.NewReader(b.String()))
		if err != nil || !slices.Equal(c.Cells, b.Cells) {
			t.Fatalf("does not round-trip: %v", err)
		}
		if p.Check(b) == nil {
			s := p.Score(b)
			if s.Matched < 0 || s.Matched > s.Max {
				t.Fatalf("score %v", s)
			}
			_ = p.Render(b, edgematch.RenderOptions{Cell: 8})
			_ = p.Verify(b)
		}
	})
}

// FuzzParseHints checks ParseHints against the Eternity II pieces.
func FuzzParseHints(f *testing.F) {
	if b, err := os.ReadFile("testdata/eternity2_clues.txt"); err == nil {
		f.Add(b)
	}
	f.Add([]byte("1 0 0 0\n"))
	f.Add([]byte("139 8 7 2 I8 18 6 6 11\n"))
	p := emtest.MustPuzzle(f, "testdata/eternity2.txt")
	f.Fuzz(func(t *testing.T, data []byte) {
		hints, err := edgematch.ParseHints(bytes.NewReader(data), p, 0)
		if err != nil {
			return
		}
		for _, h := range hints {
			if h.Piece < 0 || h.Piece >= 256 || h.Row < 0 || h.Row >= 16 || h.Col < 0 || h.Col >= 16 || h.Rot < 0 || h.Rot > 3 {
				t.Fatalf("hint out of range %+v", h)
			}
		}
	})
}

// FuzzParseBucasURL checks the viewer URL reader.
func FuzzParseBucasURL(f *testing.F) {
	p, _ := edgematch.ParsePuzzle(strings.NewReader("2 2\n0 1 2 0\n0 0 2 1\n2 1 0 0\n2 0 0 1\n"))
	b, _ := edgematch.ParseBoard(strings.NewReader("2 2\n1/0 2/0\n3/0 4/0\n"))
	u, _ := p.BucasURL(b, "x")
	f.Add(u)
	f.Add("board_w=2&board_h=2&board_edges=aaaaaaaaaaaaaaaa")
	f.Add("#board_w=2&board_h=2&motifs_order=jef&board_edges=abcaabcaabcaabca&board_pieces=001002003004")
	f.Fuzz(func(t *testing.T, raw string) {
		b, err := edgematch.ParseBucasURL(raw, p)
		if err != nil {
			return
		}
		if err := p.Check(b); err != nil {
			t.Fatalf("accepted a board that does not fit: %v", err)
		}
	})
}

package bench

import (
	"context"
	"io"
	"strings"
	"testing"
)

// TestJigsawSolveProblem checks the settings of a solve: the problem
// they make, and each mistake a usage error naming its flag.
func TestJigsawSolveProblem(t *testing.T) {
	s := DefaultJigsawSolve()
	s.Size, s.Images, s.MaxPieces, s.Rotate = "18x24", 2, 0, true
	p, so, err := s.problem("greedy")
	if err != nil || p.Rows != 18 || p.Cols != 24 || p.Images != 2 || so.MaxPieces != -1 || !so.Rotated {
		t.Errorf("got %+v %+v, %v", p, so, err)
	}
	for _, c := range []struct {
		set  func(*JigsawSolve)
		algo string
		want string
	}{
		{func(s *JigsawSolve) { s.Holes = true }, "mcts", "-holes needs"},
		{func(s *JigsawSolve) { s.Size = "18" }, "greedy", "-size \"18\""},
		{func(s *JigsawSolve) { s.Images = 0 }, "greedy", "-images 0"},
		{func(s *JigsawSolve) { s.MaxPieces = -1 }, "ga", "-max-pieces -1"},
		{func(s *JigsawSolve) { s.Piece = 1 }, "ga", "-piece 1"},
	} {
		bad := DefaultJigsawSolve()
		c.set(&bad)
		if _, _, err := bad.problem(c.algo); !isUsage(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v", c.want, err)
		}
	}
	if _, _, err := (&JigsawSolve{Images: 0}).problem("ga"); err != nil {
		t.Errorf("-images 0 with ga: %v", err)
	}
}

// TestJigsawScrambleAndMosaicChecks checks the settings refused before
// any image is read.
func TestJigsawScrambleAndMosaicChecks(t *testing.T) {
	for _, c := range []struct {
		s    JigsawScramble
		want string
	}{
		{JigsawScramble{Piece: 1}, "-piece 1"},
		{JigsawScramble{Piece: 28, Drop: 1}, "-drop 1"},
		{JigsawScramble{Piece: 28, Extra: "a.png"}, "want FILE:K"},
		{JigsawScramble{Piece: 28, Extra: "a.png:0"}, "want FILE:K"},
		{JigsawScramble{Piece: 28}, "no such file"},
	} {
		c.s.Sheet = "sheet.png"
		if err := c.s.Run(context.Background(), []string{"/nonexistent.png"}, 0, io.Discard, io.Discard, false); !isUsage(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v", c.want, err)
		}
	}
	if err := (&JigsawScramble{Piece: 28}).Run(context.Background(), []string{"a.png"}, 0, io.Discard, io.Discard, false); !isUsage(err) || err.Error() != "-o sheet.png is required" {
		t.Errorf("no -o: %v", err)
	}
	if err := (&JigsawMosaic{}).Run(context.Background(), nil, "big.png", io.Discard); !isUsage(err) || err.Error() != "no image given" {
		t.Errorf("no image: %v", err)
	}
	if f, k, err := parseJigsawExtra("c:/x.png:12"); f != "c:/x.png" || k != 12 || err != nil {
		t.Errorf("parseJigsawExtra: %q %d %v", f, k, err)
	}
	for _, c := range []struct {
		m    JigsawMosaic
		want string
	}{
		{JigsawMosaic{Trim: -1}, "-trim -1"},
		{JigsawMosaic{Crop: "10"}, "-crop \"10\""},
		{JigsawMosaic{Size: "0x3"}, "-size \"0x3\""},
		{JigsawMosaic{}, "no such file"},
	} {
		if err := c.m.Run(context.Background(), []string{"/nonexistent.png"}, "out.png", io.Discard); !isUsage(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v", c.want, err)
		}
	}
}

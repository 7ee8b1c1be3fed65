package jigsaw

import (
	"bytes"
	"context"
	"errors"
	"image"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// A piece size other than the one the sheet records is refused unless
// forced, and the number of pieces is bounded before decoding (item 10).
func TestReadSheetPieceSizeAndBound(t *testing.T) {
	pz := &Puzzle{PieceSize: 8, Depth: 8}
	for k := range 6 {
		pz.Pieces = append(pz.Pieces, loadPiece(noise(8, 8, uint64(k))))
	}
	var b bytes.Buffer
	if err := WriteSheet(&b, pz, 3); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSheet(bytes.NewReader(b.Bytes()), SheetOptions{PieceSize: 2}); !errors.Is(err, ErrPieceSize) || !strings.Contains(err.Error(), "records 8-pixel pieces, not 2") {
		t.Errorf("-piece 2 on an 8-pixel sheet: %v", err)
	}
	got, err := ReadSheet(bytes.NewReader(b.Bytes()), SheetOptions{PieceSize: 4, ForcePieceSize: true})
	if err != nil || len(got.Pieces) != 24 {
		t.Fatalf("forced: %v", err)
	}
	if got, err := ReadSheet(bytes.NewReader(b.Bytes()), SheetOptions{PieceSize: 8}); err != nil || len(got.Pieces) != 6 {
		t.Errorf("the recorded size given: %v", err)
	}
	_, err = ReadSheet(bytes.NewReader(b.Bytes()), SheetOptions{PieceSize: 2, ForcePieceSize: true, MaxPieces: 50})
	if !errors.Is(err, ErrTooManyPieces) || !strings.Contains(err.Error(), "96 cells, over the limit of 50") {
		t.Errorf("bound: %v", err)
	}
	if _, err := Cut(noise(40, 40, 1), 2, CutOptions{MaxPieces: 50}); !errors.Is(err, ErrTooManyPieces) {
		t.Errorf("cut bound: %v", err)
	}
	if DefaultMaxPieces < 14160 {
		t.Errorf("DefaultMaxPieces %d refuses puzzles solved here", DefaultMaxPieces)
	}
}

// loadPiece cuts a piece of the size of m out of it.
func loadPiece(m image.Image) Piece {
	g, err := Cut(m, m.Bounds().Dx(), CutOptions{})
	if err != nil {
		panic(err)
	}
	return g.Pieces[0]
}

// Decoding and cutting a large sheet stop when the budget ends, under a
// small memory limit, and say at which stage (item 4).
func TestReadSheetContextStopsDecoding(t *testing.T) {
	if testing.Short() {
		t.Skip("a 4096x4096 picture")
	}
	const side = 4096
	m := image.NewNRGBA(image.Rect(0, 0, side, side))
	for i := range m.Pix {
		m.Pix[i] = uint8(i*7 + i/side)
	}
	var b bytes.Buffer
	if err := writePNG(context.Background(), &b, m, 32); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	m = nil
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(256 << 20))
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	_, err := ReadSheetContext(ctx, bytes.NewReader(data), SheetOptions{})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "reading sheet") && !strings.Contains(err.Error(), "decoding the sheet") {
		t.Fatalf("1 ms budget: %v", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if _, err := CutContext(ctx, noise(64, 64, 1), 8, CutOptions{}); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "cutting") {
		t.Errorf("cut, cancelled: %v", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if err := WriteSheetContext(ctx, &bytes.Buffer{}, &Puzzle{PieceSize: 8, Pieces: []Piece{NewPiece(8)}}, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("write, cancelled: %v", err)
	}
}

// What the problem tells of the answer must agree with its pieces (item 11).
func TestProblemCheck(t *testing.T) {
	pz := &Puzzle{PieceSize: 2}
	for range 12 {
		pz.Pieces = append(pz.Pieces, NewPiece(2))
	}
	for _, c := range []struct {
		p  Problem
		ok bool
	}{
		{Problem{Rows: 3, Cols: 4}, true},
		{Problem{Rows: 4, Cols: 3, Images: 1}, true},
		{Problem{}, true},
		{Problem{Images: 12}, true},
		{Problem{Rows: 3, Cols: 3}, false},
		{Problem{Rows: 100000, Cols: 100000}, false},
		{Problem{Rows: 1 << 40, Cols: 1 << 40}, false},
		{Problem{Rows: 3}, false},
		{Problem{Images: 13}, false},
		{Problem{Images: -1}, false},
		{Problem{Rows: 3, Cols: 4, Images: 2}, false},
		{Problem{Rows: 3, Cols: 5, Part: true}, true},
	} {
		c.p.Puzzle = pz
		if err := c.p.Check(); (err == nil) != c.ok || (err != nil && !errors.Is(err, ErrProblem)) {
			t.Errorf("%dx%d, %d images, part %v: %v", c.p.Rows, c.p.Cols, c.p.Images, c.p.Part, err)
		}
	}
}

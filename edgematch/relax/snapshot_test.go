package relax

import (
	"bytes"
	"context"
	"image/png"
	"math"
	"testing"

	"tessera/edgematch"
	"tessera/internal/emtest"
)

// TestLPOnLP checks the iterates of Algorithm 1: one call per LP, numbered
// 1, 2, ..., P doubly stochastic over the rotations, the last board the
// solution when P became a permutation, and the pictures' sizes.
func TestLPOnLP(t *testing.T) {
	for _, o := range []edgematch.GenerateOptions{
		{Kind: edgematch.Kovalsky, Rows: 4, Cols: 4, Colours: 8, Seed: 1},
		{Kind: edgematch.Kovalsky, Rows: 4, Cols: 5, Colours: 6, Rotate: true, Seed: 2},
		{Kind: edgematch.Framed, Rows: 4, Cols: 4, Colours: 3, Frame: 2, Seed: 3},
	} {
		p, _ := emtest.Generate(t, o)
		var its []edgematch.LPIterate
		res, err := LP{NoSearch: true, Plain: true, OnLP: func(it edgematch.LPIterate) { its = append(its, it) }}.Solve(context.Background(), p)
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		if len(its) != res.LP.Iterations || len(its) == 0 {
			t.Fatalf("%+v: %d calls for %d LPs", o, len(its), res.LP.Iterations)
		}
		n := p.Cells()
		rots := 4
		if p.FixedOrientation {
			rots = 1
		}
		const tol = 1e-3 // LP.Tol's default; PDHG stops at relative residuals of 1e-4
		for k, it := range its {
			if it.Iteration != k+1 || it.Cells != n || it.Pieces != n || it.Rotations != rots || len(it.P) != n*n*rots {
				t.Fatalf("%+v: iterate %d: %d, %dx%dx%d, len %d", o, k+1, it.Iteration, it.Cells, it.Pieces, it.Rotations, len(it.P))
			}
			for i := range n {
				row, col := 0.0, 0.0
				for j := range n {
					row += it.At(i, j)
					col += it.At(j, i)
				}
				if math.Abs(row-1) > tol || math.Abs(col-1) > tol {
					t.Fatalf("%+v: iterate %d: cell %d sums to %g, piece %d to %g", o, k+1, i, row, i, col)
				}
			}
			if err := p.Check(it.Board); err != nil || it.Board.Filled() != n || it.Score != p.Score(it.Board) {
				t.Fatalf("%+v: iterate %d: the rounded board is not an assignment: %v", o, k+1, err)
			}
			if k > 0 && it.Objective <= 0 {
				t.Fatalf("%+v: iterate %d: objective %g", o, k+1, it.Objective)
			}
		}
		last := its[len(its)-1]
		if last.Fractional != res.LP.Fractional || (res.LP.Permutation && !last.Score.Solved()) {
			t.Fatalf("%+v: last iterate %d fractional, %v; result %+v", o, last.Fractional, last.Score, res.LP)
		}

		// The pictures: P summed and side by side, and the strip.
		for _, so := range []edgematch.SnapshotOptions{{}, {Rotations: true, Scale: 3, BlackOne: true}} {
			img := edgematch.RenderP(last, so)
			scale := max(1, 32/p.Cols)
			w := n*scale + 2
			if so.Rotations {
				scale = 3
				w = rots*(n*scale+1) + 1
			}
			if img.Rect.Dx() != w || img.Rect.Dy() != n*scale+2 {
				t.Fatalf("%+v: RenderP(%+v) is %v, want %dx%d", o, so, img.Rect, w, n*scale+2)
			}
		}
		strip, err := p.RenderIterates(its, edgematch.SnapshotOptions{Cell: 16})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, strip); err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		board := p.Render(last.Board, edgematch.RenderOptions{Cell: 16}).Rect
		pm := edgematch.RenderP(last, edgematch.SnapshotOptions{Cell: 16}).Rect
		colW := max(board.Dx(), pm.Dx())
		if got.Bounds().Dx() != len(its)*(colW+8)-8 || got.Bounds().Dy() != board.Dy()+8+pm.Dy() {
			t.Fatalf("%+v: strip of %d iterates is %v", o, len(its), got.Bounds())
		}
	}
	p, _, _ := edgematch.Generate(edgematch.GenerateOptions{Kind: edgematch.Kovalsky, Rows: 3, Cols: 3, Colours: 4, Seed: 1})
	if _, err := p.RenderIterates(nil, edgematch.SnapshotOptions{}); err == nil {
		t.Fatal("a strip of no iterates")
	}
}

// TestRenderPLevels checks the grey levels: white for 0, black for 1 with
// BlackOne, and the paper's white for 1 by default.
func TestRenderPLevels(t *testing.T) {
	it := edgematch.LPIterate{Cells: 2, Pieces: 2, Rotations: 1, P: []float64{1, 0, 0.5, 0.5}}
	img := edgematch.RenderP(it, edgematch.SnapshotOptions{Scale: 1, BlackOne: true})
	if img.Rect.Dx() != 4 || img.Rect.Dy() != 4 {
		t.Fatalf("size %v", img.Rect)
	}
	for _, c := range []struct{ x, y, g int }{{1, 1, 0}, {2, 1, 255}, {1, 2, 128}} {
		if g := int(img.RGBAAt(c.x, c.y).R); g != c.g {
			t.Fatalf("(%d, %d) is %d, want %d", c.x, c.y, g, c.g)
		}
	}
	if g := edgematch.RenderP(it, edgematch.SnapshotOptions{Scale: 1}).RGBAAt(1, 1).R; g != 255 {
		t.Fatalf("default (the paper's): 1 is %d, want white", g)
	}
}

package exact

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"tessera/edgematch"
	"tessera/edgematch/internal/kernel"
	"tessera/internal/emtest"
)

// TestMaskKernels runs the exact search with the kernel of this build
// (maskRun: assembly on amd64) and with maskRunGo, and wants the same
// placements, solutions, depth and board from both: on Brendan's 6x6 with
// up to three hints from its solution (known sides beyond the key), his
// 7x7 in the rows and columns from each corner (some take a key side from
// the piece just placed, some from col), and Eternity II with one to five
// clues in rows and columns from the top left, with node budgets that
// stop the search at odd places. A run must go through the kernel when
// its puzzle has candidate masks, and most runs must: the spirals, the
// frame-first order, generated puzzles (identical pieces, tables shared
// by many cells) and some hints leave the masks off. Where the build has no
// assembly kernel the two are the same function and the test shows only
// that the runs repeat.
func TestMaskKernels(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(26, 1))
	p6 := emtest.MustPuzzle(t, "testdata/06x06.txt")
	sol6 := emtest.MustBoard(t, "testdata/06x06.solution.board", p6)
	p7 := emtest.MustPuzzle(t, "testdata/07x07.txt")
	n := 30
	if testing.Short() {
		n = 9
	}
	scans := edgematch.Scans()[:8] // rows and columns from the four corners
	kernelRuns := 0
	for k := range n {
		var p *edgematch.Puzzle
		scan := scans[(k/3)%len(scans)]
		switch k % 3 {
		case 0:
			q := *p6
			q.Hints = nil
			for range rng.IntN(4) {
				c := rng.IntN(len(sol6.Cells))
				pl := sol6.Cells[c]
				dup := false
				for _, h := range q.Hints {
					dup = dup || h.Piece == pl.Piece
				}
				if !dup {
					q.Hints = append(q.Hints, edgematch.Hint{Piece: pl.Piece, Row: c / sol6.Cols, Col: c % sol6.Cols, Rot: pl.Rot})
				}
			}
			p = &q
		case 1:
			p = p7
		default:
			p = emtest.E2(t, 1+rng.IntN(5))
			scan = scans[4*((k/3)%2)] // rows or columns from the top left
		}
		d := DFS{Scan: scan, Count: k%2 == 0, Workers: 1, MaxNodes: int64(1 + rng.IntN(2_000_000))}
		run := func(loop func(*kernel.MaskKernel, int) int) (emtest.GoldenRun, int) {
			defer func(f func(*kernel.MaskKernel, int) int) { kernel.MaskRunFn = f }(kernel.MaskRunFn)
			calls := 0
			kernel.MaskRunFn = func(k *kernel.MaskKernel, entry int) int {
				calls++
				return loop(k, entry)
			}
			res, _ := d.Solve(ctx, p)
			return emtest.GoldenOf(fmt.Sprintf("%d/%v/%dx%d/hints %d", k, scan, p.Rows, p.Cols, len(p.Hints)), res), calls
		}
		c, err := d.compileDFS(p)
		if err != nil {
			t.Fatal(err)
		}
		a, calls := run(kernel.MaskRun)
		g, _ := run(kernel.MaskRunGo)
		if (calls > 0) != c.MaskOK {
			t.Errorf("%v: %d kernel calls with masks %v", a, calls, c.MaskOK)
		}
		if calls > 0 {
			kernelRuns++
		}
		if a != g {
			t.Errorf("kernels differ:\nmaskRun   %v\nmaskRunGo %v", a, g)
		}
	}
	if kernelRuns < n*3/4 {
		t.Errorf("only %d of %d runs went through the kernel", kernelRuns, n)
	}
}

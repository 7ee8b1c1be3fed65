package edgematch

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestMaskKernels runs the exact search with the kernel of this build
// (maskRun: assembly on amd64) and with maskRunGo on generated puzzles
// with hints (known sides beyond the key), identical pieces, fixed and
// free orientations, every scan order and node budgets that stop the
// search at odd places, and wants the same placements, solutions, depth
// and board from both. Where the build has no assembly kernel the two are
// the same function and the test shows only that the runs repeat.
func TestMaskKernels(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(26, 1))
	n := 60
	if testing.Short() {
		n = 15
	}
	for k := range n {
		o := GenerateOptions{Kind: Framed, Rows: 4 + rng.IntN(4), Cols: 4 + rng.IntN(4), Colours: 3 + rng.IntN(5), Seed: uint64(k) + 1}
		if k%3 == 2 {
			o = GenerateOptions{Kind: Kovalsky, Rows: 3 + rng.IntN(3), Cols: 3 + rng.IntN(3), Colours: 2 + rng.IntN(4), Rotate: k%2 == 0, Seed: uint64(k) + 1}
		}
		p, sol, err := Generate(o)
		if err != nil {
			t.Fatal(err)
		}
		// Up to three hints from the planted solution.
		for range rng.IntN(4) {
			c := rng.IntN(len(sol.Cells))
			pl := sol.Cells[c]
			dup := false
			for _, h := range p.Hints {
				dup = dup || h.Piece == pl.Piece
			}
			if !dup {
				p.Hints = append(p.Hints, Hint{Piece: pl.Piece, Row: c / sol.Cols, Col: c % sol.Cols, Rot: pl.Rot})
			}
		}
		ord := []Order{OrderRows, OrderSpiral, OrderFrameFirst}[k%3]
		d := DFS{Order: ord, Count: k%2 == 0, Workers: 1, MaxNodes: int64(1 + rng.IntN(2_000_000))}
		run := func(kernel func(*maskKernel, int) int) goldenRun {
			defer func(f func(*maskKernel, int) int) { maskRunFn = f }(maskRunFn)
			maskRunFn = kernel
			res, _ := d.Solve(ctx, p)
			return goldenOf(fmt.Sprintf("%d/%v/%dx%d/hints %d", k, ord, p.Rows, p.Cols, len(p.Hints)), res)
		}
		a, g := run(maskRun), run(maskRunGo)
		if a != g {
			t.Errorf("kernels differ:\nmaskRun   %v\nmaskRunGo %v", a, g)
		}
	}
}

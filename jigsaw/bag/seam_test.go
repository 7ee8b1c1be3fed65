package bag

import (
	"context"
	"slices"
	"testing"

	"tessera/jigsaw"
)

// stuckStrip returns a solved bag of two 8x12 pictures in which a strip
// of picture 1, its last two columns, is stuck to picture 0's right side
// (outputs of 8x14 and 8x10), the strip as it was or upside down (its
// pieces not turned: a mirror image, which no turn puts back).
func stuckStrip(truth *jigsaw.Truth, flip bool) jigsaw.Result {
	p := &jigsaw.Placement{Images: 2}
	for _, q := range truth.Placement().Pieces {
		if q.Image == 1 && q.Col >= 10 {
			q.Image, q.Col = 0, q.Col+2
			if flip {
				q.Row = 7 - q.Row
			}
		}
		p.Pieces = append(p.Pieces, q)
	}
	p.Normalize()
	return jigsaw.Result{Placement: p, Pictures: make([]jigsaw.Picture, 2)}
}

// TestSeam (issues 39/41; the MIT bag 1-4, whose outputs came back as
// rectangles of 513 and 351 pieces for 432 each): a bag of two 8x12
// pictures solved as rectangles of 8x14 and 8x10, a strip of picture 1
// stuck to picture 0 along its 8-long side (as it was, or upside down),
// comes back from seamSolve as both pictures whole: the strip cut off
// along the straight seam that makes the two of one size and picture 1
// solved again with it as a whole picture. The bag solved right is left
// alone, nothing solved.
func TestSeam(t *testing.T) {
	grids := []*jigsaw.Grid{synthetic(8, 12, 28, 3), synthetic(8, 12, 28, 4)}
	for _, rotate := range []bool{false, true} {
		pz, truth := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Rotate: rotate, Seed: 5})
		c, err := jigsaw.NewCompat(context.Background(), pz, jigsaw.CompatOptions{})
		if err != nil {
			t.Fatal(err)
		}
		solves := 0
		sv := &bagger{s: Solver{Solver: countSolver{small.Solver, &solves}}, p: &jigsaw.Problem{}}
		for _, flip := range []bool{false, true} {
			res := stuckStrip(truth, flip)
			if b := res.Placement.Bounds(0); !rectangles(res.Placement) || b.Dx() != 14 {
				t.Fatalf("rotate %v: the stuck strip is not a 8x14 rectangle: %v", rotate, b)
			}
			solves = 0
			if err := sv.seamSolve(context.Background(), pz, c, &res); err != nil {
				t.Fatal(err)
			}
			acc, _ := jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{})
			if !acc.Perfect || !rectangles(res.Placement) || res.Pictures[0].Pieces != 96 || res.Pictures[1].Pieces != 96 {
				t.Errorf("rotate %v, flip %v: %v, pictures %+v (%d solves)", rotate, flip, acc, res.Pictures, solves)
			}
			t.Logf("rotate %v, flip %v: %v, %d solves", rotate, flip, acc, solves)
		}

		// the bag whole: nothing to move, nothing solved
		solves = 0
		whole := jigsaw.Result{Placement: truth.Placement(), Pictures: make([]jigsaw.Picture, 2)}
		before := slices.Clone(whole.Placement.Pieces)
		if err := sv.seamSolve(context.Background(), pz, c, &whole); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(before, whole.Placement.Pieces) || solves != 0 {
			t.Errorf("rotate %v: the whole bag changed (%d solves)", rotate, solves)
		}
	}
}

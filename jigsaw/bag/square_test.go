package bag

import (
	"context"
	"slices"
	"testing"

	"tessera/internal/jigsawtest"
	"tessera/jigsaw"
)

// countSolver counts the solves of Solver.
type countSolver struct {
	jigsaw.Solver
	n *int
}

func (s countSolver) Solve(ctx context.Context, p *jigsaw.Problem) (jigsaw.Result, error) {
	*s.n++
	return s.Solver.Solve(ctx, p)
}

// TestSquareLast (issue 41, item 5; the shape of Wood, the photograph of
// the seven-photograph bag whose grain is alike edge for edge): a solved
// bag whose picture 0, a grain that runs on across its left and right
// edges (8x12 pieces), lies as a staircase, each row one column further
// right than the row above and its columns that pass the edge wrapped
// round (one block of best buddies 19 columns wide, wider than the
// picture, in a canvas with holes), comes back from square's last resort
// as a full rectangle of its true size, picture 1 untouched. Given the
// answer square refused for the same pieces, the last resort takes it
// without solving again. (On pictures this small the steps before the
// last resort mend such a staircase already; Wood, 3,072 pieces, is the
// case they leave, see docs/results/jigsaw.md.)
func TestSquareLast(t *testing.T) {
	grids := []*jigsaw.Grid{jigsawtest.Grain(8, 12, 28, 9), synthetic(9, 12, 28, 8)}
	for _, rotate := range []bool{false, true} {
		pz, truth := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Rotate: rotate, Seed: 5})
		c, err := jigsaw.NewCompat(context.Background(), pz, jigsaw.CompatOptions{})
		if err != nil {
			t.Fatal(err)
		}
		stair := &jigsaw.Placement{Images: 2}
		for _, q := range truth.Placement().Pieces {
			if q.Image == 0 {
				q.Col = q.Row + (q.Col-q.Row%12+12)%12 // column x holds the picture's x mod 12
			}
			stair.Pieces = append(stair.Pieces, q)
		}
		stair.Normalize()
		if bls := blocks(c, stair, 0, [][2]int{{96, 96}}); len(bls[0].cells) < 90 || bls[0].cols <= 12 {
			t.Fatalf("rotate %v: the staircase's largest block holds %d pieces in %dx%d", rotate, len(bls[0].cells), bls[0].rows, bls[0].cols)
		}
		solves := 0
		sv := &bagger{s: Solver{Solver: countSolver{small.Solver, &solves}}, p: &jigsaw.Problem{}}
		res := jigsaw.Result{Placement: &jigsaw.Placement{Images: 2, Pieces: slices.Clone(stair.Pieces)}, Pictures: make([]jigsaw.Picture, 2)}
		if err := sv.square(context.Background(), pz, c, &res, true); err != nil {
			t.Fatal(err)
		}
		acc, _ := jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{})
		b := res.Placement.Bounds(acc.Images[0].Output)
		if !rectangles(res.Placement) || b.Dy()*b.Dx() != 96 || b.Dy() != 8 && b.Dy() != 12 || solves != 1 {
			t.Errorf("rotate %v: picture 0 (8x12) came back in a %dx%d output (%d solves)", rotate, b.Dy(), b.Dx(), solves)
		}
		if !acc.Images[1].Perfect || res.Pictures[0].Frame[0]*res.Pictures[0].Frame[1] != 96 {
			t.Errorf("rotate %v: %v, pictures %+v", rotate, acc, res.Pictures)
		}
		t.Logf("rotate %v: %v", rotate, acc)

		// a refused answer of the same pieces (the true picture): taken
		var ps []int32
		var placed []jigsaw.Placed
		for _, q := range truth.Placement().Pieces {
			if q.Image == 0 {
				ps = append(ps, int32(q.Piece))
				placed = append(placed, q)
			}
		}
		slices.Sort(ps)
		solves = 0
		sv.refused = map[int]wholeAnswer{0: {ps, jigsaw.Picture{Pieces: 96, Frame: [2]int{8, 12}}, placed}}
		res = jigsaw.Result{Placement: &jigsaw.Placement{Images: 2, Pieces: slices.Clone(stair.Pieces)}, Pictures: make([]jigsaw.Picture, 2)}
		if err := sv.square(context.Background(), pz, c, &res, true); err != nil {
			t.Fatal(err)
		}
		if acc, _ := jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{}); !acc.Perfect || solves != 0 {
			t.Errorf("rotate %v: with a refused answer: %v, %d solves", rotate, acc, solves)
		}
	}
}

package bag

import (
	"context"
	"testing"

	"tessera/jigsaw"
	"tessera/jigsaw/ga"
	"tessera/jigsaw/greedy"
)

// skyGrid turns the top rows of g into a hazy sky: the picture fades,
// towards its top, into a pale blue with a twentieth of its contrast
// (continuous with the rest at the sky's lower edge), nearly featureless.
func skyGrid(g *jigsaw.Grid, rows int) *jigsaw.Grid {
	sky := [3]float64{52000, 56000, 62000}
	s := g.PieceSize
	h := float64(rows * s)
	for i, p := range g.Pieces[:rows*g.Cols] {
		for j, v := range p.Pix {
			y := float64(i/g.Cols*s + j/3/s) // the pixel's row in the picture
			f := 0.05 + 0.95*(y/h)*(y/h)
			p.Pix[j] = uint16(sky[j%3]*(1-f) + float64(v)*f)
		}
	}
	return g
}

// TestBagsAsRectangles (issue 41, item 5): two pictures whose top rows
// are a hazy, nearly featureless sky, told two pictures, come back each
// as a full rectangle of its true size, with the genetic and the greedy
// solver, pieces turned or not. (In Type 2 the greedy split told two
// pictures joins both along their skies and leaves a few pieces for the
// second; the segments of best-buddy loops then split the bag instead.)
func TestBagsAsRectangles(t *testing.T) {
	grids := []*jigsaw.Grid{skyGrid(synthetic(10, 14, 28, 7), 3), skyGrid(synthetic(9, 12, 28, 8), 3)}
	solvers := map[string]Solver{"ga": small, "greedy": {Solver: greedy.Solver{}}, "greedy, split kept": {Solver: greedy.Solver{}, KeepSplit: true}}
	for name, s := range solvers {
		for _, rotate := range []bool{false, true} {
			for seed := range uint64(3) {
				pz, truth := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Rotate: rotate, Seed: seed})
				res, err := s.Solve(context.Background(), &jigsaw.Problem{Puzzle: pz, Images: 2})
				if err != nil {
					t.Fatal(err)
				}
				acc, _ := jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{})
				count := make([]int, res.Placement.Images)
				for _, q := range res.Placement.Pieces {
					count[q.Image]++
				}
				for i, im := range acc.Images {
					g := grids[i]
					b := res.Placement.Bounds(max(im.Output, 0))
					size := b.Dy() == g.Rows && b.Dx() == g.Cols || rotate && b.Dy() == g.Cols && b.Dx() == g.Rows
					if im.Output < 0 || !size || count[im.Output] != g.Rows*g.Cols {
						t.Errorf("%s, rotate %v, seed %d: picture %d (%dx%d) came back in a %dx%d output of %d pieces",
							name, rotate, seed, i, g.Rows, g.Cols, b.Dy(), b.Dx(), count[max(im.Output, 0)])
					}
				}
				t.Logf("%s, rotate %v, seed %d: %v", name, rotate, seed, acc)
			}
		}
	}
}

// TestReframe: a solved bag in which picture 1's bottom right corner
// (2x3 pieces) sits beside picture 0's right edge, a column off, so that
// neither picture is a rectangle and no frame of either's number of
// pieces fits it (146 and 102 pieces for 140 and 108), comes back as the
// two rectangles of the pictures' true sizes, perfect. A bag of
// rectangles is left alone.
func TestReframe(t *testing.T) {
	grids := []*jigsaw.Grid{synthetic(10, 14, 28, 7), synthetic(9, 12, 28, 8)}
	pz, truth := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Rotate: true, Seed: 5})
	c, err := jigsaw.NewCompat(context.Background(), pz, jigsaw.CompatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sv := &bagger{s: Solver{Solver: ga.Solver{Pop: 60, Gens: 15, Elite: 4, Workers: 2, Seed: 1}, Mend: ga.Solver{Pop: 60, Gens: 3, Elite: 4, Workers: 2, Seed: 1}}, p: &jigsaw.Problem{}}
	good := truth.Placement()
	res := jigsaw.Result{Placement: good, Pictures: make([]jigsaw.Picture, 2)}
	if err := sv.reframe(context.Background(), pz, c, &res); err != nil || res.Placement != good {
		t.Fatalf("a bag of rectangles changed (%v)", err)
	}
	bad := &jigsaw.Placement{Images: 2}
	for _, q := range good.Pieces {
		if q.Image == 1 && q.Row >= 7 && q.Col >= 9 {
			q.Image, q.Col = 0, q.Col+6 // beside picture 0's right edge
		}
		bad.Pieces = append(bad.Pieces, q)
	}
	bad.Normalize()
	res = jigsaw.Result{Placement: bad, Pictures: make([]jigsaw.Picture, 2)}
	sv.frame(c, &res, repairLoss)
	if rectangles(res.Placement) {
		t.Fatal("frame made rectangles of the damaged bag")
	}
	if err := sv.reframe(context.Background(), pz, c, &res); err != nil {
		t.Fatal(err)
	}
	acc, _ := jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{})
	for i, g := range grids {
		b := res.Placement.Bounds(acc.Images[i].Output)
		if !rectangles(res.Placement) || b.Dx()*b.Dy() != g.Rows*g.Cols {
			t.Errorf("picture %d (%dx%d) came back in a %dx%d output", i, g.Rows, g.Cols, b.Dy(), b.Dx())
		}
	}
	if !acc.Perfect {
		t.Errorf("reframed: %v", acc)
	}
}

// TestResplit (issue 41, item 5; the shape of the MIT sky crops 13 and
// 15, whose greedy split joined 15's dome to 13 across their white skies
// and left 15's columns alone): a solved bag whose output 0 holds all of
// picture 0 and, apart on the same canvas, picture 1's top six rows,
// and whose output 1 holds the rest of picture 1 (212 and 36 pieces for
// 140 and 108), which no rectangle of either count mends, comes back as
// the two pictures' true rectangles, perfect.
func TestResplit(t *testing.T) {
	grids := []*jigsaw.Grid{synthetic(10, 14, 28, 7), synthetic(9, 12, 28, 8)}
	for _, rotate := range []bool{false, true} {
		pz, truth := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Rotate: rotate, Seed: 3})
		c, err := jigsaw.NewCompat(context.Background(), pz, jigsaw.CompatOptions{})
		if err != nil {
			t.Fatal(err)
		}
		sv := &bagger{s: Solver{Solver: greedy.Solver{}, Mend: greedy.Solver{}}, p: &jigsaw.Problem{Images: 2}}
		bad := &jigsaw.Placement{Images: 2}
		for _, q := range truth.Placement().Pieces {
			if q.Image == 1 && q.Row < 6 {
				q.Image, q.Row = 0, q.Row+20 // below picture 0, apart
			}
			bad.Pieces = append(bad.Pieces, q)
		}
		bad.Normalize()
		res := jigsaw.Result{Placement: bad, Pictures: make([]jigsaw.Picture, 2)}
		if err := sv.reframe(context.Background(), pz, c, &res); err != nil {
			t.Fatal(err)
		}
		if rectangles(res.Placement) {
			t.Fatal("reframe made rectangles of the bag: the test no longer reaches resplit")
		}
		ok, err := sv.resplit(context.Background(), pz, c, &res, 0)
		if err != nil || !ok {
			t.Fatalf("resplit: %v, %v", ok, err)
		}
		acc, _ := jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{})
		for i, g := range grids {
			b := res.Placement.Bounds(max(acc.Images[i].Output, 0))
			if !rectangles(res.Placement) || b.Dx()*b.Dy() != g.Rows*g.Cols {
				t.Errorf("rotate %v: picture %d (%dx%d) came back in a %dx%d output", rotate, i, g.Rows, g.Cols, b.Dy(), b.Dx())
			}
		}
		if !acc.Perfect {
			t.Errorf("rotate %v: resplit: %v", rotate, acc)
		}
	}
}

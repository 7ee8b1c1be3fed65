package greedy

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"tessera/internal/datadir"
	"tessera/jigsaw"
)

// holesCase scrambles MIT picture i (1-based) as Type 2 with a share drop
// of its pieces lost and strays pieces of the next picture mixed in.
func holesCase(t testing.TB, dir string, i int, drop float64, strays int) (*jigsaw.Puzzle, *jigsaw.Truth, *jigsaw.Grid) {
	g := grid(t, fmt.Sprintf("%s/%d.png", dir, i))
	other := grid(t, fmt.Sprintf("%s/%d.png", dir, i%20+1))
	pz, truth := jigsaw.Scramble([]*jigsaw.Grid{g}, jigsaw.ScrambleOptions{Rotate: true, Seed: 1, Drop: drop,
		Strays: []*jigsaw.Grid{other}, StrayPieces: strays})
	return pz, truth, g
}

func TestHolesExplore(t *testing.T) {
	if os.Getenv("JH_EXPLORE") == "" {
		t.Skip("exploration")
	}
	dir, err := datadir.Path("jigsaw", "mit432")
	if err != nil {
		t.Skip(err)
	}
	acc, _ := strconv.ParseFloat(os.Getenv("JH_ACCEPT"), 64)
	drop, _ := strconv.ParseFloat(os.Getenv("JH_DROP"), 64)
	strays, _ := strconv.Atoi(os.Getenv("JH_STRAYS"))
	known := os.Getenv("JH_KNOWN") != ""
	var nb, hr, miss, sa, st, aside, holes float64
	for i := 1; i <= 20; i++ {
		pz, truth, g := holesCase(t, dir, i, drop, strays)
		pr := jigsaw.Problem{Puzzle: pz, Holes: true}
		if known {
			pr.Rows, pr.Cols = g.Rows, g.Cols
		}
		res, err := (Solver{Accept: acc}).Solve(context.Background(), &pr)
		if err != nil {
			t.Fatal(err)
		}
		a, err := jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{})
		if err != nil {
			t.Fatal(err)
		}
		nb += a.Neighbor
		hr += float64(a.HolesRight)
		miss += float64(a.Missing)
		sa += float64(a.StraysAside)
		st += float64(a.Strays)
		aside += float64(a.Aside)
		holes += float64(a.Holes)
		fmt.Printf("%d: %s frame %v holes %d right %d/%d strays aside %d/%d own aside %d\n", i, a, res.Frame, a.Holes, a.HolesRight, a.Missing, a.StraysAside, a.Strays, a.Aside)
	}
	fmt.Printf("accept %.2f drop %.2f strays %d known %v: neighbour %.2f%% holes right %.0f/%.0f (holes %.0f) strays aside %.0f/%.0f own aside %.0f\n", acc, drop, strays, known, 5*nb, hr, miss, holes, sa, st, aside)
}

// Puzzles with pieces dropped and strays mixed in: a valid placement
// whose pieces lie in its frame, for tiny random puzzles, the frame known
// or not.
func TestHolesTiny(t *testing.T) {
	for trial := range 60 {
		g := synthetic(2+trial%4, 3+trial%3, 6, uint64(trial))
		other := synthetic(3, 3, 6, uint64(1000+trial))
		pz, truth := jigsaw.Scramble([]*jigsaw.Grid{g}, jigsaw.ScrambleOptions{Rotate: trial%2 == 1, Seed: uint64(trial),
			Drop: float64(trial%3) / 10, Strays: []*jigsaw.Grid{other}, StrayPieces: trial % 3})
		pr := jigsaw.Problem{Puzzle: pz, Holes: true}
		if trial%4 == 0 {
			pr.Rows, pr.Cols = g.Rows, g.Cols
		}
		res, err := Solver{}.Solve(context.Background(), &pr)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		p := res.Placement
		if err := p.Validate(len(pz.Pieces), pz.Rotated); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if len(p.Frames) == 1 {
			f := p.Frame(0)
			if !p.Bounds(0).In(f) || f.Dx()*f.Dy() < len(p.Pieces) {
				t.Fatalf("trial %d: pieces %v outside the frame %v", trial, p.Bounds(0), f)
			}
		}
		if _, err := jigsaw.Score(truth, p, jigsaw.ScoreOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// On MIT pictures with 10% of the pieces lost and 22 strays (5%) from
// the next picture, the frame known or estimated: the strays set aside,
// the holes where pieces are missing, the rest reassembled.
func TestHolesMIT(t *testing.T) {
	dir, err := datadir.Path("jigsaw", "mit432")
	if err != nil {
		t.Skip(err)
	}
	for _, name := range []int{5, 8} {
		pz, truth, g := holesCase(t, dir, name, 0.1, 22)
		for _, known := range []bool{true, false} {
			pr := jigsaw.Problem{Puzzle: pz, Holes: true}
			if known {
				pr.Rows, pr.Cols = g.Rows, g.Cols
			}
			res, err := Solver{}.Solve(context.Background(), &pr)
			if err != nil {
				t.Fatal(err)
			}
			a, err := jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if a.Neighbor < 0.9 || a.StraysAside < 19 || a.HolesRight < 38 || a.Missing != 43 || a.Strays != 22 {
				t.Errorf("%d.png known %v: %v, frame %v, holes right %d of %d, strays aside %d of %d", name, known, a, res.Frame, a.HolesRight, a.Missing, a.StraysAside, a.Strays)
			}
		}
	}
}

// synthetic returns a rows x cols grid of size-pixel pieces cut from a
// smooth random picture (a sum of random waves).
func synthetic(rows, cols, size int, seed uint64) *jigsaw.Grid {
	rng := rand.New(rand.NewPCG(seed, 7))
	var f [3][4]float64
	for ch := range 3 {
		for i := range 4 {
			f[ch][i] = rng.Float64()
		}
	}
	m := image.NewNRGBA64(image.Rect(0, 0, cols*size, rows*size))
	for y := range rows * size {
		for x := range cols * size {
			var c [3]uint16
			for ch := range 3 {
				v := 0.5 + 0.25*math.Sin(f[ch][0]*0.3*float64(x)+f[ch][1]*6) + 0.25*math.Cos(f[ch][2]*0.3*float64(y)+f[ch][3]*6)
				c[ch] = uint16(v * 65535)
			}
			m.SetNRGBA64(x, y, color.NRGBA64{c[0], c[1], c[2], 0xffff})
		}
	}
	g, err := jigsaw.Cut(m, size, jigsaw.CutOptions{})
	if err != nil {
		panic(err)
	}
	return g
}

package greedy

import (
	"context"
	"fmt"
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
	debugHoles = os.Getenv("JH_DEBUG") != ""
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

package tangram

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// artsWhen skips the test unless the environment variable env is 1 (why:
// what it does then), and returns the drawings of figures/art.txt.
func artsWhen(t *testing.T, env, why string) []ArtFigure {
	t.Helper()
	if os.Getenv(env) != "1" {
		t.Skipf("set %s=1 %s", env, why)
	}
	data, err := os.ReadFile("figures/art.txt")
	if err != nil {
		t.Fatal(err)
	}
	arts, err := ParseArtFile(string(data))
	if err != nil {
		t.Fatal(err)
	}
	return arts
}

// TestWriteFigures rewrites tangram/figures from figures/art.txt and the
// convex enumeration when TESSERA_WRITE_FIGURES=1: every drawing is solved
// by the exact solver (turns and mirror images) and written with its
// solution beside it; drawings that do not solve are listed and left out.
func TestWriteFigures(t *testing.T) {
	arts := artsWhen(t, "TESSERA_WRITE_FIGURES", "to rewrite tangram/figures")
	type entry struct {
		p             *Puzzle
		cat, src, key string
	}
	var all []entry
	for k, pg := range ConvexCandidates(6) {
		name := fmt.Sprintf("convex-%02d", k+1)
		p := &Puzzle{Name: name, Turns: TurnsFlip, Pieces: Tans(), Silhouette: pg}
		all = append(all, entry{p, "geometric", convexSource, name})
	}
	for _, a := range arts {
		var (
			p   *Puzzle
			err error
		)
		if a.Placed {
			p, _, err = ParsePlaced(a.Name, a.Rows)
		} else {
			p, err = ParseArt(a.Name, a.Rows)
		}
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		all = append(all, entry{p, a.Category, a.Source, a.Name})
	}
	for k, rows := range Octominoes() {
		name := fmt.Sprintf("octomino-%03d", k+1)
		p, err := ParseArt(name, rows)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, entry{p, "octominoes", octominoSource, name})
	}
	old, _ := filepath.Glob("figures/*.sol")
	olds, _ := filepath.Glob("figures/*.txt")
	for _, f := range append(old, olds...) {
		if filepath.Base(f) != "art.txt" {
			os.Remove(f)
		}
	}
	seen := map[string]bool{}
	shapes := map[string]string{}
	bad, convexN, written := 0, 0, 0
	for _, e := range all {
		if seen[e.key] {
			t.Errorf("%s: a second figure of that name", e.key)
			continue
		}
		seen[e.key] = true
		if other, dup := shapes[figureKey(e.p)]; dup {
			t.Logf("SAME SHAPE %s as %s: left out", e.key, other)
			continue
		}
		shapes[figureKey(e.p)] = e.key
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		res, err := Exact{}.Solve(ctx, e.p)
		cancel()
		if err != nil {
			if !strings.HasPrefix(e.key, "convex-") && !strings.HasPrefix(e.key, "octomino-") {
				t.Logf("NOT SOLVED %s: %v", e.key, err)
				bad++
			}
			continue
		}
		if strings.HasPrefix(e.key, "convex-") {
			convexN++
			e.p.Name = fmt.Sprintf("convex-%02d", convexN)
			e.key = e.p.Name
		}
		var b strings.Builder
		fmt.Fprintf(&b, "# category %s\n# source %s\n", e.cat, e.src)
		FormatPuzzle(&b, e.p)
		if err := os.WriteFile("figures/"+e.key+".txt", []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		written++
		b.Reset()
		FormatSolution(&b, e.p, res.Solution)
		if err := os.WriteFile("figures/"+e.key+".sol", []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d figures written, %d drawings not solved", written, bad)
}

// TestRepairArt is a drawing aid (TESSERA_REPAIR_ART=1): for each drawing
// of figures/art.txt that the tans cannot fill, it prints the first
// variant found that moves one half cell and solves.
func TestRepairArt(t *testing.T) {
	arts := artsWhen(t, "TESSERA_REPAIR_ART", "to look for solvable variants of drawings")
	solves := func(rows []string) bool {
		p, err := ParseArt("x", rows)
		if err != nil {
			return false
		}
		_, err = Exact{MaxNodes: 20000}.Solve(context.Background(), p)
		return err == nil
	}
	// a cell's states and the half cells each holds.
	less := map[byte][]byte{'#': {'1', '3', '7', '9'}, '1': {'.'}, '3': {'.'}, '7': {'.'}, '9': {'.'}}
	more := map[byte][]byte{'.': {'1', '3', '7', '9'}, '1': {'#'}, '3': {'#'}, '7': {'#'}, '9': {'#'}}
	for _, a := range arts {
		if solves(a.Rows) {
			continue
		}
		w := 0
		for _, r := range a.Rows {
			w = max(w, len(r))
		}
		grid := make([][]byte, len(a.Rows)+2)
		for y := range grid {
			grid[y] = []byte(strings.Repeat(".", w+2))
			if y > 0 && y <= len(a.Rows) {
				copy(grid[y][1:], a.Rows[y-1])
			}
		}
		render := func() []string {
			var rows []string
			for _, r := range grid {
				rows = append(rows, string(r))
			}
			return rows
		}
		found := false
	search:
		for y1 := range grid {
			for x1 := range grid[y1] {
				c1 := grid[y1][x1]
				for _, d1 := range less[c1] {
					grid[y1][x1] = d1
					for y2 := range grid {
						for x2 := range grid[y2] {
							if y2 == y1 && x2 == x1 {
								continue
							}
							c2 := grid[y2][x2]
							for _, d2 := range more[c2] {
								grid[y2][x2] = d2
								if solves(render()) {
									t.Logf("REPAIR %s:\n%s", a.Name, strings.Join(render(), "\n"))
									grid[y2][x2] = c2
									grid[y1][x1] = c1
									found = true
									break search
								}
							}
							grid[y2][x2] = c2
						}
					}
				}
				grid[y1][x1] = c1
			}
		}
		if !found {
			t.Logf("NO REPAIR %s", a.Name)
		}
	}
}

package tangram

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
)

// The figure set: tangram/figures/NAME.txt, one puzzle file per figure
// (the seven tans, turns and mirror images allowed, the silhouette with
// its parts and holes), opened by two comment lines
//
//	# category animals
//	# source composed for Tessera
//
// and NAME.sol beside it, a solution found by the exact solver when the
// set was written (kept for tests; no solver reads it). figures/art.txt
// holds the drawings the files were made from (ParseArt), and
// TestWriteFigures rewrites the files from it.
//
//go:embed figures/*.txt figures/*.sol
var figureFS embed.FS

const convexSource = "Wang and Hsiung, A theorem on the tangram, Amer. Math. Monthly 49 (1942): the 13 convex tangrams, enumerated here (ConvexCandidates) and solved by the exact solver"

const octominoSource = "free octominoes (eight unit squares joined edge to edge; Golomb, Polyominoes), enumerated here (Octominoes): those the exact solver tiles with the seven tans"

// Figure is one figure of the set: a silhouette to fill with the seven
// tans, which may be turned and mirrored.
type Figure struct {
	Name     string  // unique, also the file name
	Category string  // animals, people, boats, letters, numerals, objects, geometric, ...
	Source   string  // who drew it or where it comes from
	Puzzle   *Puzzle // the seven tans and the silhouette (Turns: TurnsFlip)
}

// Outline returns the figure's polygons as float64 vertices, ready to
// draw (a thumbnail): the outer polygons first, then the holes (fill with
// the even-odd rule). Units: the small triangle's legs are 1.
func (f Figure) Outline() (outers, holes [][][2]float64) {
	for _, pg := range f.Puzzle.Outers() {
		outers = append(outers, pg.Float())
	}
	for _, pg := range f.Puzzle.Holes {
		holes = append(holes, pg.Float())
	}
	return outers, holes
}

var figures = sync.OnceValues(loadFigures)

// Figures returns the figure set, sorted by category and then name. Each
// call returns fresh copies, so callers may change them. The set is
// embedded in the binary and checked by the package's tests (every figure
// valid and solved by Exact).
func Figures() []Figure {
	fs, err := figures()
	if err != nil {
		panic(err) // the embedded set is tested; this cannot happen
	}
	out := make([]Figure, len(fs))
	for k, f := range fs {
		out[k] = f
		out[k].Puzzle = f.Puzzle.Clone()
	}
	return out
}

// FigureCategories lists the categories of the set in the order Figures
// returns them, with how many figures each has.
func FigureCategories() (names []string, counts []int) {
	for _, f := range Figures() {
		if len(names) == 0 || names[len(names)-1] != f.Category {
			names = append(names, f.Category)
			counts = append(counts, 0)
		}
		counts[len(counts)-1]++
	}
	return names, counts
}

// FigureByName returns the figure of that name.
func FigureByName(name string) (Figure, error) {
	for _, f := range Figures() {
		if f.Name == name {
			return f, nil
		}
	}
	return Figure{}, fmt.Errorf("tangram: no figure named %q", name)
}

func loadFigures() ([]Figure, error) {
	files, err := fs.Glob(figureFS, "figures/*.txt")
	if err != nil {
		return nil, err
	}
	var out []Figure
	for _, file := range files {
		if path.Base(file) == "art.txt" {
			continue
		}
		data, err := figureFS.ReadFile(file)
		if err != nil {
			return nil, err
		}
		p, err := ParsePuzzle(strings.NewReader(string(data)))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		f := Figure{Name: strings.TrimSuffix(path.Base(file), ".txt"), Puzzle: p}
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "# category "); ok {
				f.Category = strings.TrimSpace(v)
			}
			if v, ok := strings.CutPrefix(line, "# source "); ok {
				f.Source = strings.TrimSpace(v)
			}
		}
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Category != out[j].Category {
			return out[i].Category < out[j].Category
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// figureSolution returns the solution stored beside a figure (tests only).
func figureSolution(f Figure) (*Solution, error) {
	data, err := figureFS.ReadFile("figures/" + f.Name + ".sol")
	if err != nil {
		return nil, err
	}
	return ParseSolution(strings.NewReader(string(data)), f.Puzzle)
}

// figureKey returns a key equal for two figures exactly when one region
// is the other turned by a multiple of 90 degrees, mirrored and moved
// (the turns that keep the grid of ParseArt).
func figureKey(p *Puzzle) string {
	best := ""
	all := append(p.Outers(), p.Holes...)
	for s := range 8 {
		tr := func(v Point) Point {
			if s&4 != 0 {
				v.X = v.X.Neg()
			}
			for range s & 3 {
				v = Point{v.Y.Neg(), v.X}
			}
			return v
		}
		var low Point
		first := true
		pgs := make([]Polygon, len(all))
		for k, pg := range all {
			q := make(Polygon, len(pg))
			for j, v := range pg {
				q[j] = tr(v)
				if first || q[j].Less(low) {
					low, first = q[j], false
				}
			}
			pgs[k] = q
		}
		keys := make([]string, len(pgs))
		for k, q := range pgs {
			n := q.Normalize().Translate(low.Neg())
			keys[k] = n.String()
			if k >= len(p.Parts)+1 {
				keys[k] = "hole" + keys[k]
			}
		}
		sort.Strings(keys)
		key := strings.Join(keys, ";")
		if best == "" || key < best {
			best = key
		}
	}
	return best
}

// SameShape reports whether two figures' regions agree up to turns by 45
// degrees (one turn is tried: the rest are 90-degree turns), mirror
// images and moves: whether a traced figure is the one drawn.
func SameShape(p, q *Puzzle) bool {
	turned := q.Clone()
	turn := func(pg Polygon) Polygon {
		out := make(Polygon, len(pg))
		for i, v := range pg {
			x, _ := divSqrt2(v.X.Sub(v.Y))
			y, _ := divSqrt2(v.X.Add(v.Y))
			out[i] = Point{x, y}
		}
		return out.Normalize()
	}
	turned.Silhouette = turn(q.Silhouette)
	for k := range q.Parts {
		turned.Parts[k] = turn(q.Parts[k])
	}
	for k := range q.Holes {
		turned.Holes[k] = turn(q.Holes[k])
	}
	k := figureKey(p)
	return k == figureKey(q) || k == figureKey(turned)
}

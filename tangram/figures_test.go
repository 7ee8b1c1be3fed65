package tangram

import (
	"context"
	"strings"
	"testing"
)

// TestFigures checks the set: at least 150 figures with a category and a
// source, unique names and shapes, the stored solution accepted by Check,
// figures with parts touching at a corner and with holes among them, and
// every figure (every tenth with -short) solved by Exact from the
// silhouette alone.
func TestFigures(t *testing.T) {
	fs := Figures()
	if len(fs) < 150 {
		t.Fatalf("%d figures, want at least 150", len(fs))
	}
	names := map[string]bool{}
	shapes := map[string]string{}
	parts, holes := 0, 0
	for k, f := range fs {
		if f.Category == "" || f.Source == "" || f.Puzzle.Turns != TurnsFlip || len(f.Puzzle.Pieces) != 7 {
			t.Errorf("%s: category %q, source %q, turns %v, %d pieces", f.Name, f.Category, f.Source, f.Puzzle.Turns, len(f.Puzzle.Pieces))
		}
		if names[f.Name] {
			t.Errorf("%s twice", f.Name)
		}
		names[f.Name] = true
		key := figureKey(f.Puzzle)
		if other, dup := shapes[key]; dup {
			t.Errorf("%s has the shape of %s", f.Name, other)
		}
		shapes[key] = f.Name
		if len(f.Puzzle.Parts) > 0 {
			parts++
		}
		if len(f.Puzzle.Holes) > 0 {
			holes++
		}
		s, err := figureSolution(f)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if err := Check(f.Puzzle, s); err != nil {
			t.Errorf("%s: the stored solution: %v", f.Name, err)
		}
		if testing.Short() && k%10 != 0 {
			continue
		}
		res, err := Exact{MaxNodes: 1_000_000}.Solve(context.Background(), f.Puzzle)
		if err != nil || !res.Solved {
			t.Errorf("%s: exact: %v", f.Name, err)
		}
	}
	if parts == 0 || holes == 0 {
		t.Errorf("%d figures with parts touching at a corner, %d with holes; want some of each", parts, holes)
	}
	cats, counts := FigureCategories()
	t.Logf("%d figures; categories %v %v; %d with parts, %d with holes", len(fs), cats, counts, parts, holes)
	for _, want := range []string{"animals", "people", "boats", "letters", "numerals", "geometric"} {
		if !strings.Contains(strings.Join(cats, " "), want) {
			t.Errorf("no category %s", want)
		}
	}
	if _, err := FigureByName("cat"); err != nil {
		t.Error(err)
	}
}

// TestParseArtRegion: a drawing whose parts touch at a corner and one
// with a hole become the region they draw.
func TestParseArtRegion(t *testing.T) {
	p, err := ParseArt("two", []string{"##..", "##..", "..##", "..##"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Parts) != 1 || len(p.Holes) != 0 || len(p.Silhouette) != 4 {
		t.Errorf("two squares at a corner: %v parts %v holes %v", p.Silhouette, p.Parts, p.Holes)
	}
	p, err = ParseArt("ring", []string{"3##1", "#..#", "9##7"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Parts) != 0 || len(p.Holes) != 1 || len(p.Holes[0]) != 4 {
		t.Errorf("ring: %v parts %v holes %v", p.Silhouette, p.Parts, p.Holes)
	}
	if a := p.RegionArea(); a.Cmp(Area{64, 0}) != 0 {
		t.Errorf("ring area %v, want 8", a)
	}
	// a hole touching the outside at a corner: an outer polygon and a hole.
	p, err = ParseArt("o", []string{"##", "#.#", "####"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Parts) != 0 || len(p.Holes) != 1 {
		t.Errorf("hole at a corner: %v parts %v holes %v", p.Silhouette, p.Parts, p.Holes)
	}
	if _, err := ParseArt("few", []string{"##", "#."}); err == nil {
		t.Error("6 half cells accepted")
	}
	if _, err := ParseArt("bad", []string{"#x"}); err == nil {
		t.Error("unknown cell accepted")
	}
	text := p2s(t, "name ring\nturns flip\n"+tansLines()+"silhouette 0 0 3 0 3 3 0 3\nhole 1 1 2 1 2 2 1 2\n")
	if !strings.Contains(text, "hole 1 1 2 1 2 2 1 2") {
		t.Errorf("hole line lost:\n%s", text)
	}
}

func tansLines() string {
	var b strings.Builder
	for _, pc := range Tans() {
		b.WriteString("piece " + pc.Name)
		writeCoords(&b, pc.Shape)
	}
	return b.String()
}

func p2s(t *testing.T, s string) string {
	p, err := ParsePuzzle(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return p.String()
}

// TestRegionValidate: parts that overlap, holes outside the figure and
// crossing polygons are refused; a fitting hole is accepted.
func TestRegionValidate(t *testing.T) {
	sq := func(x, y, s int64) Polygon { return ipg(x, y, x+s, y, x+s, y+s, x, y+s) }
	base := func() *Puzzle {
		return &Puzzle{Name: "r", Turns: TurnsFlip, Pieces: Tans(), Silhouette: sq(0, 0, 3)}
	}
	p := base()
	p.Holes = []Polygon{sq(1, 1, 1)}
	if err := p.Validate(); err != nil {
		t.Errorf("3×3 with a hole: %v", err)
	}
	for name, mod := range map[string]func(p *Puzzle){
		"hole outside":  func(p *Puzzle) { p.Holes = []Polygon{sq(5, 5, 1)} },
		"part inside":   func(p *Puzzle) { p.Parts = []Polygon{sq(1, 1, 1)} },
		"part crossing": func(p *Puzzle) { p.Parts = []Polygon{sq(2, 2, 2)} },
		"shared edge":   func(p *Puzzle) { p.Silhouette = sq(0, 0, 2); p.Parts = []Polygon{ipg(2, 0, 4, 0, 4, 2, 2, 2)} },
	} {
		p := base()
		mod(p)
		if err := p.Validate(); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
}

// FuzzParseArt: ParseArt never panics, and what it accepts is a valid
// puzzle of area 8 that round-trips through the text format.
func FuzzParseArt(f *testing.F) {
	for _, seed := range []string{"##..\n##..\n..##\n..##", "3##1\n#..#\n9##7", "##\n#.#\n####", "1.3\n#.#\n###"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		p, err := ParseArt("fuzz", strings.Split(s, "\n"))
		if err != nil {
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("accepted an invalid figure: %v", err)
		}
		q, err := ParsePuzzle(strings.NewReader(p.String()))
		if err != nil || q.String() != p.String() {
			t.Fatalf("does not round-trip: %v\n%s", err, p)
		}
	})
}

// FuzzParseArtFile: the drawings file reader never panics and keeps
// every row it returns inside a drawing with a valid name.
func FuzzParseArtFile(f *testing.F) {
	f.Add("= cat animals\n1.3.\n##..\n\n// c\n= x y some source\n#")
	f.Add("#\n= a")
	f.Add("+ m people\n1 4 1+0.5r2 4+0.5r2 1 4+r2 1-0.5r2 4+0.5r2\n0 2 2 2 0 4\n2 2 2 4 0 4\n0 2 1 2 0 1 -1 1\n2 2 2 0 1 1\n-1 1 0 1 -1 0\n2 0 3 0 2 1\n")
	f.Fuzz(func(t *testing.T, s string) {
		arts, err := ParseArtFile(s)
		if err != nil {
			return
		}
		for _, a := range arts {
			if checkName(a.Name) != nil || a.Category == "" {
				t.Fatalf("accepted %+v", a)
			}
			if a.Placed {
				if p, s, err := ParsePlaced(a.Name, a.Rows); err == nil {
					if err := Check(p, s); err != nil {
						t.Fatalf("placed figure fails its own check: %v", err)
					}
				}
			} else {
				_, _ = ParseArt(a.Name, a.Rows)
			}
		}
	})
}

package tangram

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestNumParseFormat: numbers of the text format ("1+2r2", halves) parse
// to the exact a + b√2 and format back in their shortest form; malformed
// and out-of-range ones are refused.
func TestNumParseFormat(t *testing.T) {
	type numCase struct {
		in   string
		want Num
		out  string
	}
	for _, c := range []numCase{
		{"0", Int(0), "0"}, {"3", Int(3), "3"}, {"-1.5", Half(-3, 0), "-1.5"},
		{"r2", N(0, 1), "r2"}, {"-r2", N(0, -1), "-r2"}, {"0.5r2", Half(0, 1), "0.5r2"},
		{"1+2r2", N(1, 2), "1+2r2"}, {"0.5-1.5r2", Half(1, -3), "0.5-1.5r2"},
		{"1-r2", N(1, -1), "1-r2"}, {"2.0", Int(2), "2"}, {"-0.5r2", Half(0, -1), "-0.5r2"},
	} {
		got, err := ParseNum(c.in)
		if err != nil || got != c.want || got.String() != c.out {
			t.Errorf("ParseNum(%q) = %v (%v), %v; want %v", c.in, got, got.String(), err, c.out)
		}
	}
	for _, bad := range []string{"", "x", "1.25", "1e3", "0r2", "1+-2r2", "--1", "r", "1+", "99999999", "65537", "65536.5", "1 2", "++r2"} {
		if _, err := ParseNum(bad); err == nil {
			t.Errorf("ParseNum(%q) accepted", bad)
		}
	}
}

// TestSignExact checks the exact sign of a + b√2 against big values where
// float64 would be wrong: the convergents of √2 make a + b√2 tiny.
func TestSignExact(t *testing.T) {
	// p/q convergents of √2: p² - 2q² = ±1.
	p, q := int64(1), int64(1)
	for range 25 {
		p, q = p+2*q, p+q
		want := 1
		if p*p-2*q*q < 0 {
			want = -1
		}
		// sign(p - q√2) = sign(p² - 2q²) since p, q > 0.
		if got := signR2(p, -q); got != want {
			t.Fatalf("sign(%d - %d√2) = %d, want %d", p, q, got, want)
		}
		if got := signR2(-p, q); got != -want {
			t.Fatalf("sign(-%d + %d√2) = %d, want %d", p, q, got, -want)
		}
	}
	if signR2(0, 0) != 0 || signR2(3, 0) != 1 || signR2(0, -1) != -1 {
		t.Fatal("trivial signs")
	}
	if x := N(1, 1); math.Abs(x.Float64()-(1+math.Sqrt2)) > 1e-15 {
		t.Fatal(x.Float64())
	}
}

func TestPolygonValidate(t *testing.T) {
	for _, c := range []struct {
		name string
		pg   Polygon
		want error
	}{
		{"two vertices", ipg(0, 0, 1, 0), ErrTooFewVertices},
		{"repeated", ipg(0, 0, 1, 0, 1, 1, 1, 0), ErrRepeatedVertex},
		{"bow tie", ipg(0, 0, 2, 2, 2, 0, 0, 2), ErrSelfIntersect},
		{"touching", ipg(0, 0, 4, 0, 4, 4, 2, 0, 0, 4), ErrSelfIntersect},
		{"spike", ipg(0, 0, 2, 0, 1, 0, 1, 1), ErrSelfIntersect},
		{"flat", ipg(0, 0, 1, 0, 2, 0), ErrSelfIntersect},
		{"overlapping edges", ipg(0, 0, 3, 0, 3, 1, 2, 1, 2, 0, 1, 0, 1, 1, 0, 1), ErrSelfIntersect},
		{"triangle", ipg(0, 0, 1, 0, 0, 1), nil},
		{"clockwise square", ipg(0, 0, 0, 1, 1, 1, 1, 0), nil},
		{"collinear vertex", ipg(0, 0, 1, 0, 2, 0, 2, 1), nil},
		{"T", tShape, nil},
	} {
		err := c.pg.Validate()
		if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: Validate = %v, want %v", c.name, err, c.want)
		}
	}
	sq := ipg(0, 0, 0, 1, 1, 1, 1, 0).Normalize()
	if sq.Area().Cmp(Area{8, 0}) != 0 || !sq.Equal(ipg(0, 0, 1, 0, 1, 1, 0, 1)) {
		t.Errorf("Normalize = %v, area %v", sq, sq.Area())
	}
}

func TestSets(t *testing.T) {
	tans := Tans()
	wantAreas := []float64{2, 2, 1, 1, 1, 0.5, 0.5}
	for k, pc := range tans {
		if err := checkPolygon(pc.Shape); err != nil {
			t.Fatalf("%s: %v", pc.Name, err)
		}
		if a := pc.Shape.Area().Float64(); math.Abs(a-wantAreas[k]) > 1e-12 {
			t.Errorf("%s: area %v, want %v", pc.Name, a, wantAreas[k])
		}
		for o := range Orientation(16) {
			if _, err := pc.Shape.Oriented(o); err != nil {
				t.Errorf("%s turned %v: %v", pc.Name, o, err)
			}
		}
	}
	for _, name := range SetNames() {
		if _, ok := Set(name); !ok {
			t.Errorf("Set(%q) missing", name)
		}
	}
	tp := TPieces()
	p := &Puzzle{Name: "t", Pieces: tp, Silhouette: tShape}
	s := NewSolution(len(tp))
	for k, o := range offsets(rawT()) {
		s.Place(k, o, 0)
	}
	if err := Check(p, s); err != nil {
		t.Fatalf("the T does not check: %v", err)
	}
}

func TestOriented(t *testing.T) {
	sq := ipg(0, 0, 1, 0, 1, 1, 0, 1)
	d, err := sq.Oriented(NewOrientation(1, false))
	if err != nil {
		t.Fatal(err)
	}
	want := Polygon{{Int(0), Int(0)}, {Half(0, 1), Half(0, 1)}, {Int(0), N(0, 1)}, {Half(0, -1), Half(0, 1)}}
	if !d.Equal(want) {
		t.Fatalf("square turned 45 = %v, want %v", d, want)
	}
	// eight 45-degree turns come back; a turn then its inverse too.
	back := sq
	for range 8 {
		back, _ = back.Oriented(NewOrientation(1, false))
	}
	if !back.Equal(sq) {
		t.Fatalf("8 turns: %v", back)
	}
	f, _ := sq.Oriented(NewOrientation(0, true))
	if f.Area().Cmp(sq.Area()) != 0 {
		t.Fatalf("flip lost orientation: %v", f)
	}
	odd := Polygon{{Int(0), Int(0)}, {Half(1, 0), Int(0)}, {Int(0), Int(1)}}
	if _, err := odd.Oriented(NewOrientation(1, false)); !errors.Is(err, ErrInexactTurn) {
		t.Fatalf("inexact turn: %v", err)
	}
}

func TestClassics(t *testing.T) {
	tans := Tans()
	for _, name := range ClassicNames() {
		p, s, err := Classic(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := Check(p, s); err != nil {
			t.Errorf("%s: known solution does not check: %v", name, err)
		}
		if name == "t" {
			if !p.Silhouette.Equal(tShape.Normalize()) {
				t.Errorf("t: silhouette %v", p.Silhouette)
			}
			continue
		}
		for k, pc := range p.Pieces {
			if !congruent(tans[k].Shape, pc.Shape, pc.Name == "parallelogram") {
				t.Errorf("%s: piece %s is not the tan turned", name, pc.Name)
			}
		}
		if p.Silhouette.Area().Float64() != 8 {
			t.Errorf("%s: area %v", name, p.Silhouette.Area())
		}
	}
	p, _, _ := Classic("square")
	if len(p.Silhouette) != 4 {
		t.Errorf("square silhouette %v", p.Silhouette)
	}
	if _, _, err := Classic("cat"); err == nil {
		t.Error("unknown classic accepted")
	}
}

// TestCheckWrong moves pieces of known solutions and wants the right error.
func TestCheckWrong(t *testing.T) {
	p, good, _ := Classic("square")
	moved := func(k int, dx, dy Num) *Solution {
		s := good.Clone()
		s.Placements[k].T = s.Placements[k].T.Add(Point{dx, dy})
		return s
	}
	// big1 pushed right by √2/2: a vertex leaves the square.
	if err := Check(p, moved(0, Half(0, 1), Int(0))); !errors.Is(err, ErrOutside) {
		t.Errorf("big1 pushed out: %v", err)
	}
	// small1 onto the square piece: overlap (inside the silhouette).
	s := good.Clone()
	s.Placements[5] = Placement{Placed: true, T: s.Placements[3].T.Add(Point{Half(0, -1), Half(0, 1)})}
	if err := Check(p, s); !errors.Is(err, ErrOverlap) && !errors.Is(err, ErrOutside) {
		t.Errorf("small1 moved: %v", err)
	}
	// swap the two small triangles' places: both inside but overlapping others.
	s = good.Clone()
	s.Placements[5].T, s.Placements[6].T = s.Placements[6].T, s.Placements[5].T
	if err := Check(p, s); err == nil {
		t.Error("swapped small triangles accepted")
	}
	// the medium triangle moved onto the square piece, inside the square.
	s = good.Clone()
	s.Placements[2].T = s.Placements[3].T
	if err := Check(p, s); !errors.Is(err, ErrOverlap) && !errors.Is(err, ErrOutside) {
		t.Errorf("stacked: %v", err)
	}
	s = good.Clone()
	s.Placements[2].Placed = false
	if err := Check(p, s); !errors.Is(err, ErrUnplaced) {
		t.Errorf("unplaced: %v", err)
	}
	s = good.Clone()
	s.Placements[2].Orient = NewOrientation(2, false)
	if err := Check(p, s); err == nil || !strings.Contains(err.Error(), "not allowed") {
		t.Errorf("turned in a translation-only puzzle: %v", err)
	}
	// areas that do not add up: drop a piece from the puzzle.
	q := p.Clone()
	q.Pieces = q.Pieces[:6]
	if err := Check(q, NewSolution(6)); !errors.Is(err, ErrAreas) {
		t.Errorf("missing piece: %v", err)
	}
	// a self-intersecting silhouette.
	q = p.Clone()
	q.Silhouette = ipg(0, 0, 2, 2, 2, 0, 0, 2)
	if err := Check(q, good); !errors.Is(err, ErrSelfIntersect) {
		t.Errorf("bow tie: %v", err)
	}
}

// TestCheckSneakyOutside: a piece whose vertices are all inside a
// non-convex silhouette but whose edge crosses a notch, with areas equal
// and no overlap, is caught by the boundary chain.
func TestCheckSneakyOutside(t *testing.T) {
	// silhouette: 3x2 rectangle with a unit notch cut from the top middle,
	// area 5. Pieces: a 1x1 square and a 2x2 square placed over the notch.
	sil := ipg(0, 0, 3, 0, 3, 2, 2, 2, 2, 1, 1, 1, 1, 2, 0, 2)
	p := &Puzzle{Pieces: []Piece{{"a", ipg(0, 0, 1, 0, 1, 1, 0, 1)}, {"b", ipg(0, 0, 2, 0, 2, 2, 0, 2)}}, Silhouette: sil}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	s := NewSolution(2)
	s.Place(0, Point{Int(2), Int(0)}, 0)
	s.Place(1, Point{Int(0), Int(0)}, 0) // covers the notch's left half: vertex (2,2)? on boundary
	err := Check(p, s)
	if !errors.Is(err, ErrOutside) {
		t.Fatalf("want ErrOutside, got %v", err)
	}
}

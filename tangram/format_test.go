package tangram

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestFormatRoundTrip: every classic, with turns, and its solution are
// written and read back exactly.
func TestFormatRoundTrip(t *testing.T) {
	names := ClassicNames()
	for len(names) > 0 {
		name := names[0]
		names = names[1:]
		p, s, _ := Classic(name)
		p.Turns = TurnsFlip
		var b bytes.Buffer
		if err := FormatPuzzle(&b, p); err != nil {
			t.Fatal(err)
		}
		q, err := ParsePuzzle(strings.NewReader(b.String()))
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, b.String())
		}
		if q.String() != b.String() || q.Name != p.Name || q.Turns != p.Turns {
			t.Fatalf("%s: does not round-trip:\n%s\n%s", name, b.String(), q.String())
		}
		s.Placements[3].Orient = NewOrientation(3, true)
		b.Reset()
		FormatSolution(&b, p, s)
		s2, err := ParseSolution(strings.NewReader(b.String()), q)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, b.String())
		}
		var b2 bytes.Buffer
		FormatSolution(&b2, q, s2)
		if b2.String() != b.String() {
			t.Fatalf("%s: solution does not round-trip:\n%s\n%s", name, b.String(), b2.String())
		}
	}
}

func TestParsePuzzleErrors(t *testing.T) {
	sq := "piece a 0 0 1 0 1 1 0 1\n"
	for _, c := range []struct {
		in, want string
		is       error
	}{
		{"", "no piece lines", nil},
		{sq, "no silhouette", nil},
		{sq + "silhouette 0 0 2 0 2 2 0 2\n", "areas do not add up", ErrAreas},
		{sq + "silhouette 0 0 1 1 1 0 0 1\n", "line 2", ErrSelfIntersect},
		{"piece a 0 0 1 0\nsilhouette 0 0 1 0 1 1\n", "line 1", ErrTooFewVertices},
		{"piece a 0 0 1 0 1\n", "odd number", nil},
		{"piece 1a 0 0 1 0 1 1\n", "name", nil},
		{sq + sq, "second piece", nil},
		{"turns sideways\n", "turns", nil},
		{"bogus 1\n", "unknown line", nil},
		{"piece a 0 0 1.25 0 1 1\n", "halves", nil},
		{sq + "silhouette 0 0 1 0 1 1 0 1\nsilhouette 0 0 1 0 1 1 0 1\n", "second silhouette", nil},
	} {
		_, err := ParsePuzzle(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) || c.is != nil && !errors.Is(err, c.is) || !strings.HasPrefix(err.Error(), "tangram: ") {
			t.Errorf("%q: got %v, want %q", c.in, err, c.want)
		}
	}
	// bounded before reading: too many pieces, too many vertices, too big.
	var b strings.Builder
	for k := range MaxPieces + 1 {
		b.WriteString("piece p" + string(rune('a'+k%26)) + strings.Repeat("x", k/26) + " 0 0 1 0 1 1\n")
	}
	if _, err := ParsePuzzle(strings.NewReader(b.String())); err == nil || !strings.Contains(err.Error(), "more than 64 pieces") {
		t.Errorf("too many pieces: %v", err)
	}
	long := "piece a" + strings.Repeat(" 0 0", MaxVertices+1) + "\n"
	if _, err := ParsePuzzle(strings.NewReader(long)); err == nil || !strings.Contains(err.Error(), "at most 256") {
		t.Errorf("too many vertices: %v", err)
	}
	huge := strings.Repeat("# padding\n", MaxFileBytes/10+1)
	if _, err := ParsePuzzle(strings.NewReader(huge)); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("huge file: %v", err)
	}
}

func TestParseSolutionErrors(t *testing.T) {
	p, _, _ := Classic("square")
	for _, c := range []struct{ in, want string }{
		{"place nobody 0 0\n", "no piece named"},
		{"place big1 0 0\nplace big1 0 0\n", "twice"},
		{"place big1 0 0 turn 2\n", "not allowed"},
		{"place big1 0 0 turn 9\n", "0 to 7"},
		{"place big1 0\n", "want"},
		{"move big1 0 0\n", "want"},
		{"place big1 0 0 flip extra\n", "unexpected"},
		{"place big1 x 0\n", "number"},
	} {
		_, err := ParseSolution(strings.NewReader(c.in), p)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "tangram: solution line 1") && !strings.Contains(c.in, "\nplace") {
			t.Errorf("%q: got %v, want %q", c.in, err, c.want)
		}
	}
	p.Turns = TurnsRotate
	if _, err := ParseSolution(strings.NewReader("place big1 0 0 flip\n"), p); err == nil {
		t.Error("flip allowed with turns rotate")
	}
	if s, err := ParseSolution(strings.NewReader("place big1 0.5r2 -1 turn 3\n"), p); err != nil || s.PlacedCount() != 1 || s.Placements[0].Orient != NewOrientation(3, false) {
		t.Errorf("rotate: %v %v", s, err)
	}
}

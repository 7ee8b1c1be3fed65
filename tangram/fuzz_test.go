package tangram

import (
	"bytes"
	"strings"
	"testing"

	"tessera/internal/fuzztest"
)

// FuzzParsePuzzle checks that ParsePuzzle never panics, that its errors
// name the package, that what it accepts is valid and round-trips exactly,
// and that checking a solution against it never panics.
func FuzzParsePuzzle(f *testing.F) {
	for _, name := range ClassicNames() {
		p, _, _ := Classic(name)
		f.Add([]byte(p.String()))
	}
	for _, s := range []string{
		"", "piece a 0 0 1 0 1 1 0 1\nsilhouette 0 0 1 0 1 1 0 1\n",
		"name x\nturns flip\npiece a 0 0 1 0 0 1 # c\nsilhouette 0 0 0 1 1 0\n",
		"piece a 0 0 r2 0 0.5r2 0.5r2\nsilhouette 0 0 1+r2 0 1 1\n",
		"piece a 0 0 2 2 2 0 0 2\nsilhouette 0 0 1 0 1 1\n",
		"piece a 0 0 8 0 8 1 0 1\nsilhouette 0 0 3 0 3 3 0 3\nhole 1 1 2 1 2 2 1 2\n",
		"piece a 0 0 2 0 2 1 0 1\nsilhouette 0 0 1 0 1 1 0 1\npart 1 1 2 1 2 2 1 2\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePuzzle(bytes.NewReader(data))
		if fuzztest.Refused(t, "tangram", err) {
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("accepted an invalid puzzle: %v", err)
		}
		text := p.String()
		q, err := ParsePuzzle(strings.NewReader(text))
		if err != nil || q.String() != text {
			t.Fatalf("does not round-trip: %v\n%s", err, text)
		}
		s := NewSolution(len(p.Pieces))
		for k := range s.Placements {
			s.Place(k, Point{}, 0)
		}
		_ = Check(p, s)
	})
}

// FuzzParseSolution checks ParseSolution against the square classic.
func FuzzParseSolution(f *testing.F) {
	p, s, _ := Classic("square")
	p.Turns = TurnsFlip
	var b bytes.Buffer
	FormatSolution(&b, p, s)
	f.Add(b.Bytes())
	for _, x := range []string{"", "place big1 0 0 turn 7 flip\n", "place big1 r2 -r2\nplace medium 1 2\n", "place x\n"} {
		f.Add([]byte(x))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSolution(bytes.NewReader(data), p)
		if fuzztest.Refused(t, "tangram", err) {
			return
		}
		var b bytes.Buffer
		FormatSolution(&b, p, s)
		s2, err := ParseSolution(&b, p)
		if err != nil || len(s2.Placements) != len(s.Placements) {
			t.Fatalf("does not round-trip: %v", err)
		}
		for k := range s.Placements {
			if s.Placements[k] != s2.Placements[k] {
				t.Fatalf("placement %d: %v != %v", k, s.Placements[k], s2.Placements[k])
			}
		}
		_ = Check(p, s)
	})
}

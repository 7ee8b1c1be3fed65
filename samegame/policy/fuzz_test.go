package policy

import (
	"strings"
	"testing"

	"tessera/samegame"
)

// FuzzExamples checks that Examples and AfterExamples never panic on a
// parsed set file (solutions and labelled positions), and that what they
// accept has one input and its targets per example.
func FuzzExamples(f *testing.F) {
	for _, s := range []string{
		"position 1.1\nboard\nOBBYROGG\nYRYROYOO\nYYRBYRYG\nRGRYOGBR\nRYYYGGYY\nYYBBGRRB\nleft 11\ngood 4,0;1,2\n",
		"position 1\nboard\nOBBYROGG\nYRYROYOO\nYYRBYRYG\nRGRYOGBR\nRYYYGGYY\nYYBBGRRB\nleft 3\ngood 9,9\n",
		"position 1\nboard\nOBBYROGG\nYRYROYOO\nYYRBYRYG\nRGRYOGBR\nRYYYGGYY\nYYBBGRRB\ngood ;\nleft x\n",
		"example x\nboard\nGGO.\nROOY\noptimal 2\nmoves 1\n0 0 G 1\n",
	} {
		f.Add(s)
	}
	g := DustGeometry
	f.Fuzz(func(t *testing.T, text string) {
		entries, err := samegame.ParseSet(strings.NewReader(text), samegame.Dust)
		if err != nil {
			return
		}
		if a, n, err := g.AfterExamples(entries, 4, 1); err == nil && (a.N != 4*n || len(a.X) != a.N*g.InputSize() || len(a.Y) != a.N) {
			t.Fatalf("%d afterstate examples of %d positions with %d inputs and %d targets", a.N, n, len(a.X), len(a.Y))
		}
		d, _, err := g.Examples(entries, false, true)
		if err != nil {
			return
		}
		if len(d.X) != d.N*g.InputSize() || len(d.Y) != d.N*(g.Cells()+ValueBits) {
			t.Fatalf("%d examples with %d inputs and %d targets", d.N, len(d.X), len(d.Y))
		}
	})
}

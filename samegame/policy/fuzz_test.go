package policy

import (
	"strings"
	"testing"

	"tessera/samegame"
)

// FuzzExamples checks that Examples never panics on a parsed set file
// (solutions and labelled positions), and that what it accepts has one
// input and one target per example.
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
		d, _, err := g.Examples(entries, false, true)
		if err != nil {
			return
		}
		if len(d.X) != d.N*g.InputSize() || len(d.Y) != d.N*(g.Cells()+ValueBits) {
			t.Fatalf("%d examples with %d inputs and %d targets", d.N, len(d.X), len(d.Y))
		}
	})
}

package bag

import (
	"context"
	"testing"

	"tessera/jigsaw"
)

// TestFrameImage: a picture whose bottom rows sit three columns beside
// their place (the web page's sunset, whose lake a featureless seam
// holds) and whose corner pieces lie strewn around it comes back as its
// rectangle: the lake moved whole under the sky, the strewn pieces in
// their cells.
func TestFrameImage(t *testing.T) {
	const rows, cols = 8, 8
	pz, truth := jigsaw.Scramble([]*jigsaw.Grid{synthetic(rows, cols, 28, 7)}, jigsaw.ScrambleOptions{Seed: 5})
	c, err := jigsaw.NewCompat(context.Background(), pz, jigsaw.CompatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := &jigsaw.Placement{Images: 2} // image 1: another picture, untouched
	for k, o := range truth.Pieces {
		q := jigsaw.Placed{Piece: k, Image: 1, Row: o.Row, Col: o.Col}
		switch {
		case o.Row >= 6:
			q.Col += 3 // the lake, beside its place
		case o.Row == 0 && o.Col == 0:
			q.Row, q.Col = -2, 10 // strewn
		case o.Row == 0 && o.Col == 7:
			q.Row, q.Col = 3, -3
		}
		p.Pieces = append(p.Pieces, q)
	}
	placed := frameImage(c, p, 1, 2*c.Mean())
	if len(placed) != rows*cols {
		t.Fatalf("%d pieces placed, want %d", len(placed), rows*cols)
	}
	r0, c0 := placed[0].Row-truth.Pieces[placed[0].Piece].Row, placed[0].Col-truth.Pieces[placed[0].Piece].Col
	for _, q := range placed {
		if o := truth.Pieces[q.Piece]; q.Image != 1 || q.Row-r0 != o.Row || q.Col-c0 != o.Col {
			t.Errorf("piece %d at image %d (%d, %d), want (%d, %d)", q.Piece, q.Image, q.Row-r0, q.Col-c0, o.Row, o.Col)
		}
	}
}

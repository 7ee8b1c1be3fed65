package tangram

import (
	"context"
	"testing"
)

// TestCount: the number of distinct tilings does not depend on the
// search's branching rule, nor on turning or mirroring the figure; the
// square of side 2√2 is tiled in a multiple of 8 ways (its symmetries
// map tilings to other tilings: no tiling of the tans is symmetric,
// the parallelogram has no mirror symmetry), and a limit stops the count.
func TestCount(t *testing.T) {
	ctx := context.Background()
	names := []string{"convex-01", "cat", "letter-d", "bear", "octomino-006"}
	for _, name := range names {
		f, err := FigureByName(name)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Exact{}.Count(ctx, f.Puzzle, 0)
		if err != nil || !a.Complete || a.Solutions < 1 {
			t.Fatalf("%s: %+v %v", name, a, err)
		}
		b, err := Exact{LowestLeft: true}.Count(ctx, f.Puzzle, 0)
		if err != nil || b.Solutions != a.Solutions {
			t.Errorf("%s: %d solutions, %d with LowestLeft (%v)", name, a.Solutions, b.Solutions, err)
		}
		for _, o := range []Orientation{2, 8} {
			q := f.Puzzle.Clone()
			q.Silhouette = turnAbout(q.Silhouette, o)
			q.Parts = nil
			for _, pg := range f.Puzzle.Parts {
				q.Parts = append(q.Parts, turnAbout(pg, o))
			}
			q.Holes = nil
			for _, pg := range f.Puzzle.Holes {
				q.Holes = append(q.Holes, turnAbout(pg, o))
			}
			c, err := Exact{}.Count(ctx, q, 0)
			if err != nil || c.Solutions != a.Solutions {
				t.Errorf("%s turned %v: %d solutions, want %d (%v)", name, o, c.Solutions, a.Solutions, err)
			}
		}
		t.Logf("%s: %d solutions, %d nodes", name, a.Solutions, a.Nodes)
		if a.Solutions > 1 {
			l, err := Exact{}.Count(ctx, f.Puzzle, 1)
			if err != nil || l.Complete || l.Solutions != 1 || l.First == nil {
				t.Errorf("%s limit 1: %+v %v", name, l, err)
			}
		}
	}
	p, _, _ := Classic("square")
	p.Turns = TurnsFlip
	sq, err := Exact{}.Count(ctx, p, 0)
	if err != nil || sq.Solutions%8 != 0 || sq.Solutions == 0 {
		t.Errorf("square: %d solutions, want a positive multiple of 8 (%v)", sq.Solutions, err)
	}
	t.Logf("square: %d solutions", sq.Solutions)
}

// turnAbout turns every vertex of pg about the origin (a 90-degree turn
// or a mirror image keeps the coordinates exact), counter-clockwise again.
func turnAbout(pg Polygon, o Orientation) Polygon {
	out := make(Polygon, len(pg))
	for i, v := range pg {
		if o.Flipped() {
			v.X = v.X.Neg()
		}
		for t := o.Turn(); t >= 2; t -= 2 {
			v = Point{v.Y.Neg(), v.X}
		}
		out[i] = v
	}
	return ccw(out).Normalize()
}

package tangram

import (
	"math/rand/v2"
	"testing"
)

// TestSnap blurs planted solutions by noise below the tolerance and wants
// the exact solution back; a piece far from everything fails.
func TestSnap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for seed := range int64(10) {
		p, s, _ := GenerateWith(seed, Tans(), GenerateOptions{Turns: TurnsFlip})
		poses := s.Poses()
		for k := range poses {
			poses[k].X += (rng.Float64() - 0.5) * 0.1
			poses[k].Y += (rng.Float64() - 0.5) * 0.1
		}
		got, err := Snap(p, poses, 0.1)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if err := Check(p, got); err != nil {
			t.Fatalf("seed %d: snapped solution fails: %v", seed, err)
		}
		poses[2].X += 100
		if _, err := Snap(p, poses, 0.1); err == nil {
			t.Fatalf("seed %d: a piece far away snapped", seed)
		}
	}
}

// TestOverlapNonConvex exercises the exact overlap test on non-convex and
// touching polygons.
func TestOverlapNonConvex(t *testing.T) {
	L := ipg(0, 0, 2, 0, 2, 1, 1, 1, 1, 2, 0, 2)
	for _, c := range []struct {
		name string
		q    Polygon
		want bool
	}{
		{"square in the notch", ipg(1, 1, 2, 1, 2, 2, 1, 2), false},
		{"square inside the upper arm", ipg(0, 1, 1, 1, 1, 2, 0, 2), true},
		{"sharing an edge outside", ipg(2, 0, 3, 0, 3, 1, 2, 1), false},
		{"touching at a corner", ipg(2, 1, 3, 1, 3, 2, 2, 2), false},
		{"triangle poking the notch corner", ipg(1, 1, 2, 2, 0, 2), true},
		{"far", ipg(5, 5, 6, 5, 6, 6), false},
		{"same", L, true},
	} {
		if got := Overlap(L, c.q); got != c.want {
			t.Errorf("%s: Overlap = %v, want %v", c.name, got, c.want)
		}
	}
	hexagon := TPieces()[3].Shape
	if got := len(convexParts(hexagon)); got < 2 {
		t.Errorf("the hexagon is split into %d parts", got)
	}
}

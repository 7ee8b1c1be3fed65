package tangram

import (
	"context"
	"testing"
)

func TestGenerate(t *testing.T) {
	for _, set := range SetNames() {
		pieces, _ := Set(set)
		for _, turns := range []Turns{TurnsNone, TurnsRotate, TurnsFlip} {
			for seed := range int64(20) {
				p, s, err := GenerateWith(seed, pieces, GenerateOptions{Turns: turns})
				if err != nil {
					t.Fatalf("%s seed %d turns %v: %v", set, seed, turns, err)
				}
				if err := Check(p, s); err != nil {
					t.Fatalf("%s seed %d: planted solution fails: %v", set, seed, err)
				}
				if !p.Silhouette[0].X.IsZero() || !p.Silhouette[0].Y.IsZero() {
					t.Fatalf("silhouette not at the origin: %v", p.Silhouette[0])
				}
				// reproducible
				q, s2, _ := GenerateWith(seed, pieces, GenerateOptions{Turns: turns})
				if q.String() != p.String() || len(s2.Placements) != len(s.Placements) {
					t.Fatalf("seed %d not reproducible", seed)
				}
				for k := range s.Placements {
					if s.Placements[k] != s2.Placements[k] {
						t.Fatalf("seed %d not reproducible at piece %d", seed, k)
					}
				}
				if turns == TurnsNone {
					for k := range s.Placements {
						if s.Placements[k].Orient != 0 {
							t.Fatal("turned a piece in a translation-only puzzle")
						}
					}
				}
			}
		}
	}
	a, _, _ := Generate(1, Tans())
	b, _, _ := Generate(2, Tans())
	if a.Silhouette.Equal(b.Silhouette) {
		t.Error("seeds 1 and 2 give the same silhouette")
	}
}

// TestGenerateHard: hard figures are reproducible, keep every edge within
// MaxEdge, have more reflex corners than plain generated ones on average,
// and the exact solver solves them.
func TestGenerateHard(t *testing.T) {
	n := 10
	if testing.Short() {
		n = 3
	}
	hardR, plainR := 0, 0
	for seed := range int64(n) {
		p, s, err := GenerateHard(seed, Tans(), HardOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(p, s); err != nil {
			t.Fatalf("seed %d: planted: %v", seed, err)
		}
		q, _, _ := GenerateHard(seed, Tans(), HardOptions{})
		if q.String() != p.String() {
			t.Fatalf("seed %d: not reproducible", seed)
		}
		h := Hardness(p.Silhouette)
		if h.LongestEdge > 2+1e-9 {
			t.Errorf("seed %d: edge of %g", seed, h.LongestEdge)
		}
		hardR += h.Reflex
		g, _, _ := GenerateWith(seed, Tans(), GenerateOptions{Turns: TurnsFlip})
		plainR += Hardness(g.Silhouette).Reflex
		res, err := Exact{MaxNodes: 5_000_000}.Solve(context.Background(), p)
		if err != nil || !res.Solved {
			t.Errorf("seed %d: exact: %v", seed, err)
		}
	}
	t.Logf("reflex corners: %d hard, %d plain, over %d seeds", hardR, plainR, n)
	if hardR <= plainR {
		t.Errorf("hard figures have %d reflex corners, plain ones %d", hardR, plainR)
	}
}

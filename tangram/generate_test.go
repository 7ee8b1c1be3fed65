package tangram

import (
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

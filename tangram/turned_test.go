package tangram

import (
	"context"
	"testing"
)

// TestClassicTurned: a classic figure with turning pieces is solved, and
// giving the turns back yields a translation-only puzzle its solution
// still tiles, with every placement unturned.
func TestClassicTurned(t *testing.T) {
	p, sol, err := ClassicTurned(context.Background(), "square", TurnsRotate)
	if err != nil {
		t.Fatal(err)
	}
	if p.Turns != TurnsRotate || Check(p, sol) != nil {
		t.Fatalf("turns %v, check %v", p.Turns, Check(p, sol))
	}
	q, s, err := GiveTurns(p, sol)
	if err != nil {
		t.Fatal(err)
	}
	if q.Turns != TurnsNone || p.Turns != TurnsRotate {
		t.Errorf("turns %v (original %v)", q.Turns, p.Turns)
	}
	for i, pl := range s.Placements {
		if pl.Orient != 0 {
			t.Errorf("placement %d keeps orientation %d", i, pl.Orient)
		}
	}
	if _, _, err := ClassicTurned(context.Background(), "no such figure", TurnsRotate); err == nil {
		t.Error("an unknown classic: no error")
	}
}

package catalog

import (
	"context"
	"testing"

	"tessera/tangram"
)

// TestTangramTurns: -turns overrides the puzzle's turns line: the seven
// tans as the set gives them do not make the boat by translation, they do
// with turns and mirror images (the exact solver); a bad value is refused.
func TestTangramTurns(t *testing.T) {
	c, _, err := tangram.Classic("boat")
	if err != nil {
		t.Fatal(err)
	}
	p := &tangram.Puzzle{Name: "boat", Pieces: tangram.Tans(), Silhouette: c.Silhouette}
	for _, c := range []struct {
		turns  string
		solved bool
	}{{"", false}, {"none", false}, {"flip", true}} {
		j := TangramJob{Spec: Spec[TangramOptions]{Solver: "exact", Options: TangramOptions{Turns: c.turns}}}
		rec, res := j.RunPuzzle(context.Background(), p, TangramHooks{})
		if rec.Solved != c.solved {
			t.Errorf("-turns %q: solved %v (%s)", c.turns, rec.Solved, rec.Error)
		}
		if res.Solved {
			q := p.Clone()
			q.Turns = tangram.TurnsFlip
			if err := tangram.Check(q, res.Solution); err != nil {
				t.Errorf("-turns %q: %v", c.turns, err)
			}
		}
	}
	if p.Turns != tangram.TurnsNone {
		t.Error("RunPuzzle changed the caller's puzzle")
	}
	if (TangramOptions{Turns: "sideways"}).Check() == nil {
		t.Error("-turns sideways accepted")
	}
}

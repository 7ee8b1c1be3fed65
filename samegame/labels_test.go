package samegame

import (
	"math/rand/v2"
	"testing"
)

// TestBeamLabels checks the labels against the exact solver: on small
// boards, where the beam finds the optimum, every labelled position is
// reached by its moves, Left is its optimum, every good click leads to a
// child of optimum Left-1, and most such clicks are labelled good (those
// the beam kept a line for).
func TestBeamLabels(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	ctx := t.Context()
	optimum := func(b *Board) int {
		if b.IsEmpty() {
			return 0
		}
		sol, err := Exact{}.Solve(ctx, b)
		if err != nil || !sol.Optimal {
			t.Fatalf("exact: %v", err)
		}
		return sol.Clicks
	}
	optimal, labelled := 0, 0
	for range 3 {
		b := Random(6, 5, 4, Dust, rng)
		labels, clicks, err := BeamLabels(ctx, b, 2000, 2)
		if err != nil {
			t.Fatal(err)
		}
		if opt := optimum(b); clicks != opt {
			t.Fatalf("board\n%s: beam labels for %d clicks, the optimum is %d", Format(b, Letters), clicks, opt)
		}
		if len(labels) == 0 || len(labels[0].Moves) != 0 || labels[0].Left != clicks {
			t.Fatalf("the first label is not the board itself: %+v", labels[0])
		}
		for _, l := range labels {
			pos := b.Clone()
			for _, m := range l.Moves {
				if _, err := pos.Play(m); err != nil {
					t.Fatalf("moves %v: %v", l.Moves, err)
				}
			}
			if opt := optimum(pos); opt != l.Left {
				t.Fatalf("position after %v: left %d, optimum %d", l.Moves, l.Left, opt)
			}
			good := map[Move]bool{}
			for _, m := range l.Good {
				good[m] = true
			}
			for _, g := range pos.Groups(nil) {
				child := pos.Clone()
				child.PlayGroup(g)
				isGood := optimum(child) == l.Left-1
				if good[g.Move()] && !isGood {
					t.Fatalf("position after %v: click %v labelled good, not optimal", l.Moves, g.Move())
				}
				if isGood {
					optimal++
					if good[g.Move()] {
						labelled++
					}
				}
			}
		}
	}
	t.Logf("%d of %d optimal clicks labelled", labelled, optimal)
	if labelled < optimal*3/4 {
		t.Errorf("only %d of %d optimal clicks labelled", labelled, optimal)
	}
	if _, _, err := BeamLabels(ctx, Random(5, 5, 3, Standard, rng), 10, 0); err == nil {
		t.Error("BeamLabels accepted a standard board")
	}
}

package samegame

import (
	"math/rand/v2"
	"testing"
)

// TestBitBoardMatchesBoard plays random games on both engines and checks
// that they agree on the groups and on every board.
func TestBitBoardMatchesBoard(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, rules := range []Rules{Dust, Standard} {
		for range 300 {
			w := 1 + rng.IntN(10)
			h := 1 + rng.IntN(64/w)
			h = min(h, MaxSize)
			b := Random(w, h, 1+rng.IntN(6), rules, rng)
			if !fitsBits(b) {
				t.Fatalf("%dx%d does not fit", w, h)
			}
			g := newBitGeom(b)
			s := g.toBits(b)
			var bg []bitGroup
			for !b.GameOver() {
				groups := b.Moves(nil)
				bg = g.groups(&s, bg[:0], rules.MinGroup())
				if len(bg) != len(groups) {
					t.Fatalf("%d bit groups, %d groups", len(bg), len(groups))
				}
				k := rng.IntN(len(bg))
				m := g.move(bg[k].mask)
				grp, ok := b.GroupAt(int(m.X), int(m.Y))
				if !ok || grp.Move() != m || int(grp.Size) != int(bg[k].size) || int(grp.Color) != int(bg[k].color) {
					t.Fatalf("bit group %v (%d) is %+v", m, bg[k].size, grp)
				}
				b.PlayGroup(grp)
				g.play(&s, bg[k].mask, int(bg[k].color))
				if s != g.toBits(b) {
					t.Fatalf("%v rules, %dx%d: boards differ after %v:\n%s", rules, w, h, m, Format(b, Letters))
				}
				if g.colorsLeft(&s) != b.ColorsLeft() {
					t.Fatal("colours differ")
				}
			}
			if (s.occ == 0) != b.IsEmpty() {
				t.Fatal("emptiness differs")
			}
		}
	}
}

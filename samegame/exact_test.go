package samegame

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// randomGames plays n random Dust games of random shapes that fit the bit
// engine (seeded by seed) and calls visit at every position with its
// groups; label names the position's board in failures.
func randomGames(t *testing.T, seed uint64, n int, visit func(g *bitGeom, s *bitBoard, groups []bitGroup, label string)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(43, seed))
	for range n {
		w := 1 + rng.IntN(10)
		h := min(1+rng.IntN(64/w), MaxSize)
		b := Random(w, h, 1+rng.IntN(5), Dust, rng)
		g := newBitGeom(b)
		s := g.toBits(b)
		var groups []bitGroup
		for s.occ != 0 {
			groups = g.groups(&s, groups[:0], 1)
			visit(g, &s, groups, fmt.Sprintf("%dx%d:\n%s", w, h, Format(b, Letters)))
			k := groups[rng.IntN(len(groups))]
			g.play(&s, k.mask, int(k.color))
			if _, err := b.Play(g.move(k.mask)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestReach checks the lemma behind the exact solver's maySingle on every
// click of random Dust games of every shape that fits the bit engine: the
// cells whose colour a click changes lie within its reach, and every
// other group that does not meet the reach is a group, unchanged, after
// the click.
func TestReach(t *testing.T) {
	clicks, kept := 0, 0
	randomGames(t, 4, 400, func(g *bitGeom, s *bitBoard, groups []bitGroup, label string) {
		for i, x := range groups {
			after := *s
			g.play(&after, x.mask, int(x.color))
			z := g.reach(s, x.mask)
			changed := uint64(0)
			for c := range g.colors {
				changed |= s.planes[c] ^ after.planes[c]
			}
			if zc := g.changes(s, x.mask); changed&^zc != 0 || z != zc|g.neighbours(zc) {
				t.Fatalf("the click %v changes cells %x outside %x on %s", g.move(x.mask), changed&^zc, zc, label)
			}
			for j, o := range groups {
				if j == i || o.mask&z != 0 {
					continue
				}
				if g.group(o.mask&-o.mask, after.planes[o.color]) != o.mask {
					t.Fatalf("the group at %v, outside the reach of %v, changed on %s", g.move(o.mask), g.move(x.mask), label)
				}
				kept++
			}
			clicks++
		}
	})
	if kept == 0 {
		t.Fatalf("no group outside a reach in %d clicks: the test tests nothing", clicks)
	}
}

// TestCommute checks what the exact solver's sleep sets and chain test
// rely on to skip a click: two clicks whose reaches are apart leave the
// same board in either order (on every such pair of every position of
// random games of every shape that fits the bit engine).
func TestCommute(t *testing.T) {
	pairs := 0
	randomGames(t, 6, 1500, func(g *bitGeom, s *bitBoard, groups []bitGroup, label string) {
		for i, x := range groups {
			zx := g.reach(s, x.mask)
			for _, y := range groups[i+1:] {
				if g.reach(s, y.mask)&zx != 0 {
					continue
				}
				a, c := *s, *s
				g.play(&a, x.mask, int(x.color))
				g.play(&a, y.mask, int(y.color))
				g.play(&c, y.mask, int(y.color))
				g.play(&c, x.mask, int(x.color))
				if a != c {
					t.Fatalf("%v then %v is not %v then %v on %s", g.move(x.mask), g.move(y.mask), g.move(y.mask), g.move(x.mask), label)
				}
				pairs++
			}
		}
	})
	if pairs < 1000 {
		t.Fatalf("only %d pairs apart: the test tests little", pairs)
	}
}

// TestExactAgainstReferences proves the optimum of many random Dust
// boards and compares it with a reference: a breadth-first search over
// every board (small boards), the blog's DFS (independent code, exact when
// it finishes) on boards larger than that. The search starts from a naive
// line (the first group at every click), not the beams' (which are mostly
// optimal on these boards), so that it must find the optimum itself,
// through all its prunings.
func TestExactAgainstReferences(t *testing.T) {
	dfs := func(b *Board) int {
		sol, err := DFS{TableBits: 20}.Solve(t.Context(), b)
		if err != nil || !sol.Optimal {
			t.Fatalf("dfs: %v", err)
		}
		return sol.Clicks
	}
	for _, ref := range []struct {
		name     string
		n, short int
		size     func(rng *rand.Rand) (w, h, colors int)
		clicks   func(b *Board) int
	}{
		{"brute force", 400, 60, func(rng *rand.Rand) (int, int, int) { return 2 + rng.IntN(4), 2 + rng.IntN(3), 2 + rng.IntN(3) }, bruteForce},
		{"dfs", 40, 8, func(rng *rand.Rand) (int, int, int) { return 5 + rng.IntN(2), 4 + rng.IntN(2), 4 + rng.IntN(2) }, dfs},
	} {
		rng := rand.New(rand.NewPCG(43, uint64(ref.n)))
		n := ref.n
		if testing.Short() {
			n = ref.short
		}
		for i := range n {
			w, h, colors := ref.size(rng)
			b := Random(w, h, colors, Dust, rng)
			want := ref.clicks(b)
			sol, err := solveExact(t.Context(), b, options{TableBits: 16, naiveUpper: true})
			if err != nil {
				t.Fatal(err)
			}
			checkSolution(t, "exact", b, sol)
			if sol.Clicks != want || !sol.Optimal {
				t.Fatalf("board %d: exact %d clicks (optimal %v), %s %d:\n%s", i, sol.Clicks, sol.Optimal, ref.name, want, Format(b, Letters))
			}
		}
	}
}

package samegame

import (
	"math/rand/v2"
	"testing"
)

// TestReach checks the lemma behind the exact solver's maySingle on every
// click of random Dust games of every shape that fits the bit engine: the
// cells whose colour a click changes lie within its reach, and every
// other group that does not meet the reach is a group, unchanged, after
// the click.
func TestReach(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 4))
	clicks, kept := 0, 0
	for range 400 {
		w := 1 + rng.IntN(10)
		h := min(1+rng.IntN(64/w), MaxSize)
		b := Random(w, h, 1+rng.IntN(5), Dust, rng)
		g := newBitGeom(b)
		s := g.toBits(b)
		var groups []bitGroup
		for s.occ != 0 {
			groups = g.groups(&s, groups[:0], 1)
			for i, x := range groups {
				after := s
				g.play(&after, x.mask, int(x.color))
				z := g.reach(&s, x.mask)
				changed := uint64(0)
				for c := range g.colors {
					changed |= s.planes[c] ^ after.planes[c]
				}
				if changed&^z != 0 {
					t.Fatalf("%dx%d: the click %v changes cells %x outside its reach %x:\n%s", w, h, g.move(x.mask), changed&^z, z, Format(b, Letters))
				}
				for j, o := range groups {
					if j == i || o.mask&z != 0 {
						continue
					}
					if g.group(o.mask&-o.mask, after.planes[o.color]) != o.mask {
						t.Fatalf("%dx%d: the group at %v, outside the reach of %v, changed:\n%s", w, h, g.move(o.mask), g.move(x.mask), Format(b, Letters))
					}
					kept++
				}
				clicks++
			}
			k := groups[rng.IntN(len(groups))]
			g.play(&s, k.mask, int(k.color))
			if _, err := b.Play(g.move(k.mask)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if kept == 0 {
		t.Fatalf("no group outside a reach in %d clicks: the test tests nothing", clicks)
	}
}

// TestExactAgainstBruteForce proves the optimum of many small random Dust
// boards and compares it with a breadth-first search over every board.
// The search starts from a naive line (the first group at every click),
// not the beams' (which are mostly optimal on boards this small), so that
// it must find the optimum itself, through all its prunings.
func TestExactAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 5))
	n := 400
	if testing.Short() {
		n = 60
	}
	for i := range n {
		w, h := 2+rng.IntN(4), 2+rng.IntN(3)
		b := Random(w, h, 2+rng.IntN(3), Dust, rng)
		want := bruteForce(b)
		sol, err := solveExact(t.Context(), b, options{TableBits: 12, naiveUpper: true})
		if err != nil {
			t.Fatal(err)
		}
		checkSolution(t, "exact", b, sol)
		if sol.Clicks != want || !sol.Optimal {
			t.Fatalf("board %d: exact %d clicks (optimal %v), brute force %d:\n%s", i, sol.Clicks, sol.Optimal, want, Format(b, Letters))
		}
	}
}

// TestCommute checks what the exact solver's chain test relies on to skip
// a first click: two clicks whose reaches are apart leave the same board
// in either order (on every such pair of every position of random games
// of every shape that fits the bit engine).
func TestCommute(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 6))
	pairs := 0
	for range 1500 {
		w := 1 + rng.IntN(10)
		h := min(1+rng.IntN(64/w), MaxSize)
		b := Random(w, h, 1+rng.IntN(5), Dust, rng)
		g := newBitGeom(b)
		s := g.toBits(b)
		var groups []bitGroup
		for s.occ != 0 {
			groups = g.groups(&s, groups[:0], 1)
			for i, x := range groups {
				zx := g.reach(&s, x.mask)
				for _, y := range groups[i+1:] {
					if g.reach(&s, y.mask)&zx != 0 {
						continue
					}
					a, c := s, s
					g.play(&a, x.mask, int(x.color))
					g.play(&a, y.mask, int(y.color))
					g.play(&c, y.mask, int(y.color))
					g.play(&c, x.mask, int(x.color))
					if a != c {
						t.Fatalf("%dx%d: %v then %v is not %v then %v:\n%s", w, h, g.move(x.mask), g.move(y.mask), g.move(y.mask), g.move(x.mask), Format(b, Letters))
					}
					pairs++
				}
			}
			k := groups[rng.IntN(len(groups))]
			g.play(&s, k.mask, int(k.color))
			if _, err := b.Play(g.move(k.mask)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if pairs < 1000 {
		t.Fatalf("only %d pairs apart: the test tests little", pairs)
	}
}

// TestExactAgainstDFS compares the exact solver, started from a naive
// line, with the blog's DFS (independent code, exact when it finishes) on
// random boards larger than a breadth-first search can take.
func TestExactAgainstDFS(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 7))
	n := 40
	if testing.Short() {
		n = 8
	}
	for i := range n {
		b := Random(5+rng.IntN(2), 4+rng.IntN(2), 4+rng.IntN(2), Dust, rng)
		want, err := DFS{TableBits: 20}.Solve(t.Context(), b)
		if err != nil || !want.Optimal {
			t.Fatalf("dfs: %v", err)
		}
		sol, err := solveExact(t.Context(), b, options{TableBits: 16, naiveUpper: true})
		if err != nil {
			t.Fatal(err)
		}
		checkSolution(t, "exact", b, sol)
		if sol.Clicks != want.Clicks || !sol.Optimal {
			t.Fatalf("board %d: exact %d clicks (optimal %v), dfs %d:\n%s", i, sol.Clicks, sol.Optimal, want.Clicks, Format(b, Letters))
		}
	}
}

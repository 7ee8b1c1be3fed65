package samegame

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
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
	eachRandomDust([]dustRef{
		{"brute force", 400, 60, func(rng *rand.Rand) (int, int, int) { return 2 + rng.IntN(4), 2 + rng.IntN(3), 2 + rng.IntN(3) }, bruteForce},
		{"dfs", 40, 8, func(rng *rand.Rand) (int, int, int) { return 5 + rng.IntN(2), 4 + rng.IntN(2), 4 + rng.IntN(2) }, dfsClicks(t, 20)},
	}, func(i int, b *Board, ref dustRef, _ *rand.Rand) {
		want := ref.clicks(b)
		sol, err := solveExact(t.Context(), b, options{TableBits: 16, naiveUpper: true})
		if err != nil {
			t.Fatal(err)
		}
		checkSolution(t, "exact", b, sol)
		if sol.Clicks != want || !sol.Optimal {
			t.Fatalf("board %d: exact %d clicks (optimal %v), %s %d:\n%s", i, sol.Clicks, sol.Optimal, ref.name, want, Format(b, Letters))
		}
	})
}

// dustRef is a reference for the fewest clicks of random Dust boards: n
// boards (short under -short) of the sizes that size draws, solved by
// clicks.
type dustRef struct {
	name     string
	n, short int
	size     func(rng *rand.Rand) (w, h, colors int)
	clicks   func(b *Board) int
}

// eachRandomDust calls visit with each random board of each reference
// (its rng seeded by the reference's n), its index and the rng.
func eachRandomDust(refs []dustRef, visit func(i int, b *Board, ref dustRef, rng *rand.Rand)) {
	for _, ref := range refs {
		rng := rand.New(rand.NewPCG(43, uint64(ref.n)))
		n := ref.n
		if testing.Short() {
			n = ref.short
		}
		for i := range n {
			w, h, colors := ref.size(rng)
			visit(i, Random(w, h, colors, Dust, rng), ref, rng)
		}
	}
}

// dfsClicks returns the blog's DFS as a reference (independent code,
// exact when it finishes), with a table of 2^bits entries.
func dfsClicks(t *testing.T, bits int) func(b *Board) int {
	return func(b *Board) int {
		sol, err := DFS{TableBits: bits}.Solve(t.Context(), b)
		if err != nil || !sol.Optimal {
			t.Fatalf("dfs: %v", err)
		}
		return sol.Clicks
	}
}

// TestShadow checks the lemma behind the exact solver's quick test
// (mayFresh) on every click of random Dust games of every shape that fits
// the bit engine: a click whose reach meets a group holds a cell of the
// group's shadow, and so mayFresh passes every click that maySingle does.
func TestShadow(t *testing.T) {
	met, fresh := 0, 0
	randomGames(t, 8, 1500, func(g *bitGeom, s *bitBoard, groups []bitGroup, label string) {
		e := &exactSearch{geom: g}
		span := g.spans(groups)
		shadows := make([]uint64, len(groups))
		for i, x := range groups {
			z := g.reach(s, x.mask)
			for _, o := range groups {
				if o.mask&z != 0 {
					met++
					if x.mask&g.shadow(o.mask) == 0 {
						t.Fatalf("the reach of %v meets the group at %v, outside its shadow, on %s", g.move(x.mask), g.move(o.mask), label)
					}
				}
			}
			if e.maySingle(s, groups, &span, i) {
				fresh++
				if !e.mayFresh(groups, shadows, &span, i) {
					t.Fatalf("maySingle passes %v, mayFresh does not, on %s", g.move(x.mask), label)
				}
			}
		}
	})
	if met == 0 || fresh == 0 {
		t.Fatalf("%d reaches met, %d clicks passed: the test tests little", met, fresh)
	}
}

// TestHalfBound checks the exact solver's half bound (exact_half.go)
// against references: at every position of random games on random
// boards, the half bound is at most the position's fewest clicks, found by
// a breadth-first search (small boards) or the blog's DFS (6 x 4-5
// boards). It also counts the positions where the half bound is above the
// colours' bound (colours left, plus one when no colour is a single
// group), so that the test cannot pass by bounding nothing.
func TestHalfBound(t *testing.T) {
	positions, above := 0, 0
	eachRandomDust([]dustRef{
		{"brute force", 200, 40, func(rng *rand.Rand) (int, int, int) { return 2 + rng.IntN(4), 2 + rng.IntN(3), 2 + rng.IntN(3) }, bruteForce},
		{"dfs", 30, 12, func(rng *rand.Rand) (int, int, int) { return 6, 4 + rng.IntN(2), 4 + rng.IntN(2) }, dfsClicks(t, 18)},
	}, func(_ int, b *Board, ref dustRef, rng *rand.Rand) {
		g := newBitGeom(b)
		hs := newHalfSearch(g)
		for !b.IsEmpty() {
			s := g.toBits(b)
			v := hs.optima(&s, g.all, [2]int8{})
			lb := hs.bound(v)
			opt := ref.clicks(b)
			if lb > opt {
				t.Fatalf("half bound %d (optima %d and %d) above the fewest clicks %d (%s) on\n%s", lb, v[0], v[1], opt, ref.name, Format(b, Letters))
			}
			colours := g.colorsLeft(&s)
			if !g.hasSingle(&s) {
				colours++
			}
			if lb > colours {
				above++
			}
			positions++
			moves := b.Moves(nil)
			b.PlayGroup(moves[rng.IntN(len(moves))])
		}
	})
	if above < 5 {
		t.Fatalf("the half bound is above the colours' bound at only %d of %d positions", above, positions)
	}
	t.Logf("%d positions, the half bound above the colours' bound at %d", positions, above)
}

// TestExactIssue43Optima proves the boards of the issue 43 set whose
// recorded optimum (docs/results/samegame/dust20-exact-f226d83.jsonl, the
// solver before the half bound) is 11 clicks or fewer, each in well
// under a second, and checks the optimum and its proof.
func TestExactIssue43Optima(t *testing.T) {
	f, err := os.Open("../docs/results/samegame/dust20-exact-f226d83.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	set := readSet(t, "dust_seed4301.txt", Dust)
	checked := 0
	for sc := bufio.NewScanner(f); sc.Scan(); {
		var r struct {
			Board, Clicks int
			Optimal       bool
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.Board == 0 || !r.Optimal || r.Clicks > 11 || testing.Short() && checked == 3 {
			continue
		}
		b := set[r.Board-1].Board
		sol, err := Exact{}.Solve(t.Context(), b)
		if err != nil {
			t.Fatal(err)
		}
		checkSolution(t, "exact", b, sol)
		if sol.Clicks != r.Clicks || !sol.Optimal {
			t.Errorf("board %d: %d clicks (optimal %v), recorded %d", r.Board, sol.Clicks, sol.Optimal, r.Clicks)
		}
		checked++
	}
	if checked < 3 {
		t.Fatalf("only %d boards checked", checked)
	}
}

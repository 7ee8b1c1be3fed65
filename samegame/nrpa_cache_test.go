package samegame

import (
	"slices"
	"testing"

	"tessera/mcts"
)

// TestNRPACache: NRPA's cache of move lists (Position.Key) changes nothing:
// with and without it, the search improves its best through the same
// sequences and ends with the same playouts, under every filter, move code
// and prior, and with roots that keep different colours for last.
func TestNRPACache(t *testing.T) {
	set := readSet(t, "standard20.txt", Standard)
	type improvement struct {
		score float64
		moves []Group
	}
	for i, c := range []struct {
		pos   int
		tabus []Color // the roots' tabu colours; none: NewPosition's
		setup func(*Position)
		prior bool
	}{
		{pos: 0, setup: func(*Position) {}},
		{pos: 10, setup: func(p *Position) { p.SetTabuPairs(true) }},
		{pos: 15, setup: func(p *Position) { p.SetTabuSecond(true); p.SetMoveCode(CodeAnchor) }},
		{pos: 2, setup: func(p *Position) { p.SetPrior(1, 0.5) }, prior: true},
		{pos: 10, tabus: TabuCandidates(set[10].Board, 3), setup: func(*Position) {}},
	} {
		var roots []*Position
		if c.tabus == nil {
			roots = []*Position{NewPosition(set[c.pos].Board, true)}
		}
		for _, col := range c.tabus {
			roots = append(roots, newPositionTabu(set[c.pos].Board, col))
		}
		for _, r := range roots {
			c.setup(r)
		}
		run := func(cache int) ([]improvement, mcts.Result[Group]) {
			var seen []improvement
			res, err := mcts.NRPARoots(t.Context(), roots, mcts.NRPAOptions{
				Level: 2, Iterations: 25, Round: 2, Prior: c.prior, Cache: cache,
				Budget: mcts.Budget{Seed: uint64(i + 1), Improved: func(best float64, seq any) {
					seen = append(seen, improvement{best, slices.Clone(seq.([]Group))})
				}},
			})
			if err != nil {
				t.Fatal(err)
			}
			return seen, res
		}
		a, ra := run(0)
		b, rb := run(-1)
		if ra.Stats.Playouts != rb.Stats.Playouts || ra.Score != rb.Score || !slices.Equal(ra.Moves, rb.Moves) {
			t.Fatalf("case %d: with the cache %v (%v) after %d playouts, without %v (%v) after %d",
				i, ra.Score, ra.Moves, ra.Stats.Playouts, rb.Score, rb.Moves, rb.Stats.Playouts)
		}
		if len(a) != len(b) || len(a) < 2 {
			t.Fatalf("case %d: %d improvements with the cache, %d without", i, len(a), len(b))
		}
		for k := range a {
			if a[k].score != b[k].score || !slices.Equal(a[k].moves, b[k].moves) {
				t.Fatalf("case %d: improvement %d: %v with the cache, %v without", i, k, a[k].score, b[k].score)
			}
		}
	}
}

// TestPositionKey: Key names the moves a position offers: two orders of
// the same clicks that leave the same board give one key; another colour
// kept for last, the tabu pairs once free, or another move code give
// another.
func TestPositionKey(t *testing.T) {
	set := readSet(t, "standard20.txt", Standard)
	p := NewPosition(set[0].Board, true)
	moves := p.Moves(nil)
	// Two groups in columns apart: their clicks commute.
	var a, b Group
	found := false
	for _, g := range moves {
		for _, h := range moves {
			if int(h.X) > int(g.X)+3 && g.Size >= 2 && h.Size >= 2 {
				a, b, found = g, h, true
			}
		}
	}
	if !found {
		t.Fatal("no two groups apart")
	}
	x, y := p.Clone(), p.Clone()
	x.Play(b) // right first: the left group keeps its cells
	x.Play(a)
	y.Play(a) // left first: b keeps its cells unless a empties a column
	i := slices.IndexFunc(y.Moves(nil), func(g Group) bool { return g.X == b.X && g.Y == b.Y })
	if i < 0 {
		t.Fatal("the right group moved")
	}
	y.Play(y.Moves(nil)[i])
	if !x.Board().Equal(y.Board()) {
		t.Fatal("the two orders left two boards")
	}
	if x.Key() != y.Key() {
		t.Fatal("one board, two keys")
	}
	if x.Key() == p.Key() {
		t.Fatal("two boards, one key")
	}
	q := newPositionTabu(set[0].Board, (p.Tabu()+1)%5)
	if q.Key() == p.Key() {
		t.Fatal("another tabu colour, the same key")
	}
	c := p.Clone()
	c.SetMoveCode(CodeAnchor)
	if c.Key() == p.Key() {
		t.Fatal("another move code, the same key")
	}
	pairs := p.Clone()
	pairs.SetTabuPairs(true)
	if pairs.Key() != p.Key() {
		t.Fatal("the pairs, not yet free, changed the key")
	}
	pairs.clicks = pairsAfter
	plain := p.Clone()
	plain.clicks = pairsAfter
	if pairs.Key() == plain.Key() {
		t.Fatal("the free pairs, the same key")
	}
}

// TestNRPARepeatsReachesTheSearch: NRPA.Repeats is the search's limit on
// repetitions. A board of one group (one legal line, one click) makes
// every playout that line, so a level-1 search of 50 iterations stops after its second
// playout with Repeats 1, and makes all 50 without.
func TestNRPARepeatsReachesTheSearch(t *testing.T) {
	b, err := ParseBoard("1 1/1 1", Standard)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		repeats int
		want    int64
	}{{0, 50}, {1, 2}, {3, 4}} {
		sol, err := NRPA{Level: 1, Iterations: 50, Repeats: c.repeats}.Solve(t.Context(), b)
		if err != nil {
			t.Fatal(err)
		}
		if sol.Playouts != c.want || sol.Score != 1004 {
			t.Errorf("repeats %d: %d playouts, score %d; want %d, 1004", c.repeats, sol.Playouts, sol.Score, c.want)
		}
	}
}

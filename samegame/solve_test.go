package samegame

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// bruteForce returns the fewest clicks that clear a Dust board (breadth-
// first over distinct boards) or the best score of a Standard board
// (exhaustive search with memo), with the generic Board engine.
func bruteForce(b *Board) int {
	if b.rules == Dust {
		layer := map[uint64]Board{b.Hash(): *b}
		for d := 0; ; d++ {
			next := map[uint64]Board{}
			for _, s := range layer {
				if s.IsEmpty() {
					return d
				}
				for _, g := range s.Moves(nil) {
					c := s
					c.PlayGroup(g)
					next[c.Hash()] = c
				}
			}
			layer = next
		}
	}
	memo := map[uint64]int{}
	var best func(s *Board) int
	best = func(s *Board) int {
		if v, ok := memo[s.Hash()]; ok {
			return v
		}
		v := 0
		if s.IsEmpty() {
			v = ClearBonus
		}
		for _, g := range s.Moves(nil) {
			c := *s
			n := c.PlayGroup(g)
			v = max(v, Standard.Points(n)+best(&c))
		}
		memo[s.Hash()] = v
		return v
	}
	return best(b)
}

// checkSolution replays sol on b and checks what it claims.
func checkSolution(t *testing.T, name string, b *Board, sol Solution) Result {
	t.Helper()
	res, err := Replay(b, sol.Moves)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.Score != sol.Score || res.Clicks != sol.Clicks || res.Cleared != sol.Cleared || len(sol.Moves) != sol.Clicks {
		t.Fatalf("%s: claims score %d, %d clicks, cleared %v; replays to %d, %d, %v", name, sol.Score, sol.Clicks, sol.Cleared, res.Score, res.Clicks, res.Cleared)
	}
	if b.rules == Standard && !res.Over {
		t.Fatalf("%s: the game is not over", name)
	}
	if b.rules == Dust && !res.Cleared {
		t.Fatalf("%s: the dust board is not cleared", name)
	}
	return res
}

// Every solver of the package is a Solver.
var _ = []Solver{DFS{}, Exact{}, Beam{}, MCTS{}, NMCS{}, NRPA{}}

// TestSolversOnSmallBoards runs every solver on small random boards and
// checks that each answer replays to its claim, and that the optimal ones
// match a brute-force search.
func TestSolversOnSmallBoards(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, rules := range []Rules{Dust, Standard} {
		for i := range 12 {
			w, h := 3+rng.IntN(3), 3+rng.IntN(2)
			b := Random(w, h, 3, rules, rng)
			opt := bruteForce(b)
			seed := uint64(i)
			for _, s := range []struct {
				name string
				Solver
			}{
				{"dfs", DFS{TableBits: 16}}, {"exact", Exact{TableBits: 16}}, {"beam", Beam{Width: 50}},
				{"mcts", MCTS{MC{Seed: seed}}}, {"nmcs", NMCS{Level: 1, MC: MC{Seed: seed}}}, {"nrpa", NRPA{Level: 1, Iterations: 30, MC: MC{Seed: seed}}},
				{"nrpa-portfolio", NRPA{Level: 2, Iterations: 6, Stabilize: 2, Portfolio: 3, Round: 1, MC: MC{Seed: seed}}},
			} {
				if s.name == "exact" && rules != Dust {
					if _, err := s.Solve(t.Context(), b); !errors.Is(err, ErrUnsupported) {
						t.Fatalf("exact on standard: %v", err)
					}
					continue
				}
				sol, err := s.Solve(t.Context(), b)
				if err != nil {
					t.Fatalf("%v %v: %v", rules, s.name, err)
				}
				name := rules.String() + " " + s.name
				checkSolution(t, name, b, sol)
				got := sol.Clicks
				if rules == Standard {
					got = sol.Score
				}
				if (rules == Dust && got < opt) || (rules == Standard && got > opt) {
					t.Fatalf("%s beats the optimum %d: %d", name, opt, got)
				}
				if (s.name == "dfs" || s.name == "exact") && (got != opt || !sol.Optimal) {
					t.Fatalf("%s board %d: %d (optimal %v), brute force %d\n%s", name, i, got, sol.Optimal, opt, Format(b, Digits))
				}
			}
		}
	}
}

// TestExactBlogBoard proves the optimum of the blog's first board, 11
// clicks (the blog's C++ DFS took 34 s), and checks the 17-click game of
// the second is beaten by the solvers.
func TestExactBlogBoard(t *testing.T) {
	ex := readSet(t, "dust_blog_examples.txt", Dust)
	sol, err := Exact{}.Solve(t.Context(), ex[0].Board)
	if err != nil {
		t.Fatal(err)
	}
	checkSolution(t, "exact", ex[0].Board, sol)
	if sol.Clicks != 11 || !sol.Optimal || ex[0].Optimal != 11 {
		t.Fatalf("exact: %d clicks, optimal %v", sol.Clicks, sol.Optimal)
	}
	// The second board: the blog's network needed 17 clicks, its 15 s DFS 18.
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	dfs, err := DFS{}.Solve(ctx, ex[1].Board)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("dfs: %v", err)
	}
	checkSolution(t, "dfs", ex[1].Board, dfs)
	if dfs.Clicks > 15 {
		t.Fatalf("dfs: %d clicks", dfs.Clicks)
	}
}

// TestBudgetsKeepBestSoFar stops every solver early and checks the answer.
func TestBudgetsKeepBestSoFar(t *testing.T) {
	set := readSet(t, "standard20.txt", Standard)
	b := set[0].Board
	for _, s := range []struct {
		algo string
		Solver
	}{
		{"dfs", DFS{MaxNodes: 300}}, {"beam", Beam{MaxNodes: 300}}, {"mcts", MCTS{MC{MaxPlayouts: 300, Seed: 1}}},
		{"nmcs", NMCS{MC: MC{MaxPlayouts: 300, Seed: 1}}}, {"nrpa", NRPA{MC: MC{MaxPlayouts: 300, Seed: 1}}},
	} {
		algo := s.algo
		sol, err := s.Solve(t.Context(), b)
		if !errors.Is(err, ErrBudget) && !errors.Is(err, context.DeadlineExceeded) && err != nil {
			t.Fatalf("%v: %v", algo, err)
		}
		if algo != "beam" && !errors.Is(err, ErrBudget) {
			t.Fatalf("%v: err %v, want the budget", algo, err)
		}
		if len(sol.Moves) > 0 {
			checkSolution(t, algo, b, sol)
		}
		if algo != "beam" && sol.Score <= 0 {
			t.Fatalf("%v: no solution kept: %+v", algo, sol)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	sol, err := NRPA{}.Solve(ctx, b)
	if !errors.Is(err, context.DeadlineExceeded) || sol.Score < 500 {
		t.Fatalf("nrpa 0.3 s: %v, score %d", err, sol.Score)
	}
	checkSolution(t, "nrpa", b, sol)
}

// playTabu plays random lines (from seed) on positions 16-20 of the
// standard set, which have one colour of 65 cells, with the tabu filter
// (and its pairs when pairs), calling check before each click with the
// moves offered, all the board's moves and the tabu colour's cells left.
func playTabu(t *testing.T, seed uint64, pairs bool, check func(name string, p *Position, moves, all []Group, left int)) {
	set := readSet(t, "standard20.txt", Standard)
	rng := rand.New(rand.NewPCG(seed, 1))
	for _, e := range set[15:] {
		p := NewPosition(e.Board, true)
		p.SetTabuPairs(pairs)
		for moves := p.Moves(nil); len(moves) > 0; moves = p.Moves(nil) {
			check(e.Name, p, moves, p.Board().Moves(nil), p.Board().ColorCounts()[p.Tabu()])
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
}

// TestTabuFilter checks that Position hides the largest colour's groups
// until they are the only moves or the colour's last group.
func TestTabuFilter(t *testing.T) {
	playTabu(t, 1, false, func(name string, p *Position, moves, all []Group, left int) {
		if p.Clicks() == 0 && left != 65 {
			t.Fatalf("%s: tabu colour %d has %d cells", name, p.Tabu(), left)
		}
		others := 0
		for _, g := range all {
			if g.Color != p.Tabu() || int(g.Size) == left {
				others++
			}
		}
		for _, g := range moves {
			if g.Color == p.Tabu() && int(g.Size) != left && others > 0 {
				t.Fatalf("%s: tabu group offered", name)
			}
		}
		if others == 0 && len(moves) != len(all) {
			t.Fatalf("%s: only tabu moves, but not all offered", name)
		}
	})
}

// TestTabuPairs: with SetTabuPairs the filter also offers the tabu colour's
// groups of two cells, from the 11th click on, and still hides its larger
// groups (unless they are all of it, or nothing else is left).
func TestTabuPairs(t *testing.T) {
	pairsSeen := 0
	playTabu(t, 2, true, func(name string, p *Position, moves, all []Group, left int) {
		want := 0
		for _, g := range all {
			if g.Color != p.Tabu() || int(g.Size) == left || (g.Size == 2 && p.Clicks() >= 10) {
				want++
			}
		}
		if want == 0 {
			want = len(all)
		}
		if len(moves) != want {
			t.Fatalf("%s, click %d: %d moves offered, want %d", name, p.Clicks()+1, len(moves), want)
		}
		for _, g := range moves {
			if g.Color == p.Tabu() && g.Size == 2 && int(g.Size) != left {
				if p.Clicks() < 10 {
					t.Fatalf("%s: tabu pair offered at click %d", name, p.Clicks()+1)
				}
				pairsSeen++
			}
		}
	})
	if pairsSeen == 0 {
		t.Fatal("no tabu pair was ever offered")
	}
}

// TestTabuCandidates: the colours worth keeping for last on the standard
// positions are those tied with the largest colour: all five on 11-15 (45
// cells each), one elsewhere (position 1: colour 1, 50 cells, against 49
// and 48); the first is always NewPosition's tabu colour.
func TestTabuCandidates(t *testing.T) {
	set := readSet(t, "standard20.txt", Standard)
	for i, it := range set {
		b := it.Board
		cs := TabuCandidates(b, MaxColors)
		if cs[0] != NewPosition(b, true).Tabu() {
			t.Fatalf("position %d: first candidate %d, tabu colour %d", i+1, cs[0], NewPosition(b, true).Tabu())
		}
		n := b.ColorCounts()
		for _, c := range cs {
			if n[c] != n[cs[0]] {
				t.Fatalf("position %d: candidates %v with counts %v", i+1, cs, n)
			}
		}
		want := 1
		if i+1 >= 11 && i+1 <= 15 {
			want = 5
		}
		if len(cs) != want {
			t.Fatalf("position %d: %d candidates %v, want %d", i+1, len(cs), cs, want)
		}
		if got := TabuCandidates(b, 2); len(got) != min(want, 2) || got[0] != cs[0] {
			t.Fatalf("position %d: at most 2 gave %v", i+1, got)
		}
	}
	if got := TabuCandidates(set[10].Board, MaxColors); !slices.Equal(got, []Color{0, 1, 2, 3, 4}) {
		t.Fatalf("position 11: %v, want [0 1 2 3 4]", got)
	}
}

// TestNRPATabuColors: NRPA racing three colours kept for last plays a legal
// line, repeats from its seed, and with one colour is the plain search.
func TestNRPATabuColors(t *testing.T) {
	b := readSet(t, "standard20.txt", Standard)[10].Board // position 11: five colours of 45 cells
	sol := solveTwice(t, "tabu colours", b, NRPA{Level: 2, Iterations: 4, Round: 1, TabuColors: 3, MC: MC{Seed: 5}})
	// 3 members x 1 iteration, 2 x 1, then the survivor's other 2: 7
	// level-1 searches of 4 playouts.
	if sol.Playouts != 7*4 {
		t.Fatalf("%d playouts, want %d", sol.Playouts, 7*4)
	}
	one, _ := NRPA{Level: 2, Iterations: 4, TabuColors: 1, MC: MC{Seed: 5}}.Solve(t.Context(), b)
	plain, _ := NRPA{Level: 2, Iterations: 4, MC: MC{Seed: 5}}.Solve(t.Context(), b)
	if one.Score != plain.Score || !slices.Equal(one.Moves, plain.Moves) {
		t.Fatalf("one colour %d differs from the plain search %d", one.Score, plain.Score)
	}
}

// TestMoveCodeAnchor: under CodeAnchor the moves of a state still have
// different codes (along random games on standard positions), the names
// parse, and NRPA with it plays a legal line that repeats from its seed.
func TestMoveCodeAnchor(t *testing.T) {
	set := readSet(t, "standard20.txt", Standard)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 5 {
		p := NewPosition(set[i].Board, true)
		p.SetMoveCode(CodeAnchor)
		for {
			moves := p.Moves(nil)
			if len(moves) == 0 {
				break
			}
			seen := map[uint64]bool{}
			for _, g := range moves {
				c := p.Code(g)
				if seen[c] || c == g.Code {
					t.Fatalf("position %d, click %d: two moves coded %x, or the cells' code", i+1, p.Clicks()+1, c)
				}
				seen[c] = true
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
	for _, s := range []string{"", "cells", "anchor", "zobrist"} {
		c, err := ParseMoveCode(s)
		if (err != nil) != (s == "zobrist") || (s == "anchor") != (c == CodeAnchor) {
			t.Fatalf("ParseMoveCode(%q) = %v, %v", s, c, err)
		}
	}
	solveTwice(t, "anchor codes", set[0].Board, NRPA{Level: 2, Iterations: 5, MoveCode: CodeAnchor, MC: MC{Seed: 2}})
}

// solveTwice runs s on b, checks its line and that a second run gives the
// same line, and returns the solution.
func solveTwice(t *testing.T, name string, b *Board, s NRPA) Solution {
	t.Helper()
	sol, err := s.Solve(t.Context(), b)
	if err != nil {
		t.Fatal(err)
	}
	checkSolution(t, name, b, sol)
	again, _ := s.Solve(t.Context(), b)
	if again.Score != sol.Score || !slices.Equal(again.Moves, sol.Moves) {
		t.Fatalf("%s: not repeatable: %d then %d", name, sol.Score, again.Score)
	}
	return sol
}

// TestPositionPrior: SetPrior's weight of a group is exp(-left*L/mean) *
// n^size, L its colour's cells left (kept along a game), mean a colour's
// cells when SetPrior is called, n its size; no
// prior weighs 1; NRPA with a prior plays a legal line that repeats from
// its seed, and with both factors 0 is the plain search.
func TestPositionPrior(t *testing.T) {
	set := readSet(t, "standard20.txt", Standard)
	b := set[0].Board
	p := NewPosition(b, true)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5 {
		moves := p.Moves(nil)
		p.Play(moves[rng.IntN(len(moves))])
	}
	moves := p.Moves(nil)
	if w := p.Prior(moves[0]); w != 1 {
		t.Fatalf("no prior: %v", w)
	}
	p.SetPrior(1.5, -0.5)
	mean := float64(p.Board().Cells()) / float64(p.Board().ColorsLeft())
	counts := p.Board().ColorCounts()
	for _, g := range moves {
		want := math.Exp(-1.5*float64(counts[g.Color])/mean) * math.Pow(float64(g.Size), -0.5)
		if got := p.Prior(g); math.Abs(got-want) > 1e-12*want {
			t.Fatalf("group %+v: prior %v, want %v", g, got, want)
		}
	}
	sol := solveTwice(t, "prior", b, NRPA{Level: 2, Iterations: 5, PriorLeft: 1, PriorSize: -0.5, MC: MC{Seed: 2}})
	plain, _ := NRPA{Level: 2, Iterations: 5, MC: MC{Seed: 2}}.Solve(t.Context(), b)
	zero, _ := NRPA{Level: 2, Iterations: 5, PriorLeft: 0, PriorSize: 0, MC: MC{Seed: 2}}.Solve(t.Context(), b)
	if zero.Score != plain.Score || !slices.Equal(zero.Moves, plain.Moves) {
		t.Fatalf("no prior differs from the plain search: %d %d", zero.Score, plain.Score)
	}
	if slices.Equal(sol.Moves, plain.Moves) {
		t.Fatal("the prior changed nothing")
	}
}

// TestTabuSecond: with SetTabuSecond the filter offers the groups of
// neither kept colour (and a kept colour's whole group); when there are
// none, the second colour's groups too; when there are none of those, all
// groups. The second colour is the largest after the tabu colour. NRPA
// with it plays a legal line that repeats from its seed.
func TestTabuSecond(t *testing.T) {
	set := readSet(t, "standard20.txt", Standard)
	rng := rand.New(rand.NewPCG(5, 1))
	freed := 0
	for _, e := range set[:5] {
		p := NewPosition(e.Board, true)
		p.SetTabuSecond(true)
		n := e.Board.ColorCounts()
		second := Empty
		for c := range MaxColors {
			if Color(c) != p.Tabu() && n[c] > 0 && (second == Empty || n[c] > n[second]) {
				second = Color(c)
			}
		}
		for moves := p.Moves(nil); len(moves) > 0; moves = p.Moves(nil) {
			counts := p.Board().ColorCounts()
			all := p.Board().Moves(nil)
			whole := func(g Group) bool { return int(g.Size) == counts[g.Color] }
			var want []Group
			for _, pass := range []func(g Group) bool{
				func(g Group) bool { return (g.Color != p.Tabu() && g.Color != second) || whole(g) },
				func(g Group) bool { return g.Color != p.Tabu() || whole(g) },
				func(Group) bool { return true },
			} {
				for _, g := range all {
					if pass(g) {
						want = append(want, g)
					}
				}
				if len(want) > 0 {
					break
				}
				freed++
			}
			if len(moves) != len(want) {
				t.Fatalf("%s, click %d: %d moves offered, want %d", e.Name, p.Clicks()+1, len(moves), len(want))
			}
			for i := range want {
				if moves[i].Move() != want[i].Move() {
					t.Fatalf("%s, click %d: move %d is %v, want %v", e.Name, p.Clicks()+1, i, moves[i], want[i])
				}
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
	if freed == 0 {
		t.Fatal("the second colour was never freed")
	}
	solveTwice(t, "tabu second", set[1].Board, NRPA{Level: 2, Iterations: 5, TabuSecond: true, MC: MC{Seed: 2}})
}

// TestNRPAAlpha checks the learning rate: Alpha 1 is the default, click
// for click, and another rate is another search (on at least one of three
// boards) whose answers replay to their claims.
func TestNRPAAlpha(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 11))
	differ := 0
	for i := range 3 {
		b := Random(10, 10, 4, Standard, rng)
		run := func(alpha float64) Solution {
			sol, err := NRPA{Level: 2, Iterations: 12, Alpha: alpha, MC: MC{Seed: uint64(i)}}.Solve(t.Context(), b)
			if err != nil {
				t.Fatal(err)
			}
			checkSolution(t, "nrpa", b, sol)
			return sol
		}
		def, one, slow := run(0), run(1), run(0.25)
		if !slices.Equal(def.Moves, one.Moves) {
			t.Fatalf("board %d: Alpha 1 gives %v, the default %v", i, one.Moves, def.Moves)
		}
		if !slices.Equal(def.Moves, slow.Moves) {
			differ++
		}
	}
	if differ == 0 {
		t.Fatal("Alpha 0.25 searched like Alpha 1 on every board")
	}
}

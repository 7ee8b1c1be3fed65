package mcts

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// target is a test game: choose one of k symbols at each of len(secret)
// steps; the score counts the symbols equal to the secret's, plus a bonus
// of 100 when all are. Its optimum is len(secret)+100, reached by one
// sequence among k^len(secret).
type target struct {
	secret []int
	k      int
	seq    []int
	hide   int // 1 + a symbol that Moves hides at the first step (0: none)
}

func newTarget(n, k int, seed uint64) *target {
	rng := rand.New(rand.NewPCG(seed, 7))
	s := make([]int, n)
	for i := range s {
		s[i] = rng.IntN(k)
	}
	return &target{secret: s, k: k}
}

func (g *target) Moves(dst []int) []int {
	if len(g.seq) == len(g.secret) {
		return dst
	}
	for m := range g.k {
		if len(g.seq) > 0 || m != g.hide-1 {
			dst = append(dst, m)
		}
	}
	return dst
}

func (g *target) Play(m int) { g.seq = append(g.seq, m) }

func (g *target) Score() float64 {
	s := 0
	for i, m := range g.seq {
		if m == g.secret[i] {
			s++
		}
	}
	if s == len(g.secret) {
		s += 100
	}
	return float64(s)
}

func (g *target) Clone() *target {
	c := *g
	c.seq = slices.Clone(g.seq)
	return &c
}

func (g *target) CopyFrom(src *target) {
	g.secret, g.k, g.hide = src.secret, src.k, src.hide
	g.seq = append(g.seq[:0], src.seq...)
}

// Code identifies a move with its step, so NRPA learns one weight per
// (step, symbol).
func (g *target) Code(m int) uint64 { return uint64(len(g.seq)*g.k + m) }

// replay returns the score of seq on a fresh game, checking its legality.
func replay(t *testing.T, g *target, seq []int) float64 {
	t.Helper()
	c := g.Clone()
	for _, m := range seq {
		if !slices.Contains(c.Moves(nil), m) {
			t.Fatalf("illegal move %d after %v", m, c.seq)
		}
		c.Play(m)
	}
	if len(c.Moves(nil)) != 0 {
		t.Fatalf("sequence %v does not end the game", seq)
	}
	return c.Score()
}

func TestNRPAFindsOptimum(t *testing.T) {
	g := newTarget(20, 4, 1)
	res, err := NRPA(t.Context(), g, NRPAOptions{Level: 2, Iterations: 60, Budget: Budget{Seed: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != 120 || replay(t, g, res.Moves) != res.Score {
		t.Fatalf("score %v, moves %v", res.Score, res.Moves)
	}
	if res.Stats.Playouts != 60*60 {
		t.Fatalf("%d playouts, want 3600", res.Stats.Playouts)
	}
	if len(g.seq) != 0 {
		t.Fatal("root changed")
	}
	// Level 1 alone cannot adapt enough in so few playouts: the levels matter.
	res1, _ := NRPA(t.Context(), g, NRPAOptions{Level: 1, Iterations: 200, Budget: Budget{Seed: 3}})
	if res1.Score >= 120 {
		t.Fatalf("level 1 with 200 playouts found the optimum: %v", res1.Score)
	}
}

func TestNMCSFindsOptimum(t *testing.T) {
	g := newTarget(8, 3, 2)
	res, err := NMCS(t.Context(), g, NMCSOptions[*target, int]{Level: 3, Budget: Budget{Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != 108 || replay(t, g, res.Moves) != res.Score {
		t.Fatalf("score %v, moves %v", res.Score, res.Moves)
	}
	// A level-l search makes about (b*d)^l playouts: 24^3 here.
	if res.Stats.Playouts < 1000 || res.Stats.Playouts > 24*24*24 {
		t.Fatalf("%d playouts", res.Stats.Playouts)
	}
}

func TestTreeSearchFindsOptimum(t *testing.T) {
	for _, sel := range []Selection{UCT, SPMCTS, PUCT} {
		g := newTarget(6, 3, 4)
		opts := TreeOptions[*target, int]{Selection: sel, MaxIterations: 4000, Budget: Budget{Seed: 5}}
		if sel == SPMCTS {
			opts.D = 10 // the test's scores are small
		}
		res, err := Search(t.Context(), g, opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.Score != 106 || replay(t, g, res.Moves) != res.Score {
			t.Errorf("%v: score %v, moves %v", sel, res.Score, res.Moves)
		}
		if res.Stats.Iterations != 4000 || res.Stats.Nodes < 100 {
			t.Errorf("%v: stats %+v", sel, res.Stats)
		}
	}
}

// oracle is an Evaluator that knows the secret: prior 0.9 on the right
// symbol, and the value of completing the sequence correctly from here.
type oracle struct{ calls int }

func (o *oracle) Evaluate(_ context.Context, leaves []Leaf[*target, int]) error {
	o.calls++
	for i := range leaves {
		l := &leaves[i]
		next := l.State.secret[len(l.State.seq)]
		for j, m := range l.Moves {
			l.Priors[j] = 0.1
			if m == next {
				l.Priors[j] = 0.9
			}
		}
		c := l.State.Clone()
		for len(c.seq) < len(c.secret) {
			c.Play(c.secret[len(c.seq)])
		}
		l.Value = c.Score()
	}
	return nil
}

// TestPUCTWithOracle checks that PUCT follows an evaluator's priors and
// values: with an oracle it walks straight to the one optimal sequence of a
// game far too large for playouts (4^30 sequences), in batches too.
func TestPUCTWithOracle(t *testing.T) {
	for _, batch := range []int{1, 8} {
		g := newTarget(30, 4, 9)
		ev := &oracle{}
		res, err := Search(t.Context(), g, TreeOptions[*target, int]{Selection: PUCT, Evaluator: ev, Batch: batch,
			MaxIterations: 200, Budget: Budget{Seed: 1}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Score != 130 || replay(t, g, res.Moves) != 130 {
			t.Fatalf("batch %d: score %v", batch, res.Score)
		}
		if res.Stats.Evaluations < 30 || res.Stats.Batches != int64(ev.calls) {
			t.Fatalf("batch %d: stats %+v, %d calls", batch, res.Stats, ev.calls)
		}
		if batch > 1 && res.Stats.Batches >= res.Stats.Evaluations {
			t.Fatalf("batch %d: %d batches for %d evaluations", batch, res.Stats.Batches, res.Stats.Evaluations)
		}
	}
	// Uniform priors and playouts do not find it in the same budget.
	g := newTarget(30, 4, 9)
	res, _ := Search(t.Context(), g, TreeOptions[*target, int]{Selection: PUCT, MaxIterations: 200, Budget: Budget{Seed: 1}})
	if res.Score >= 130 {
		t.Fatalf("found the optimum without the oracle")
	}
}

func TestEvaluatorError(t *testing.T) {
	g := newTarget(5, 2, 1)
	bad := EvaluatorFunc[*target, int](func(*Leaf[*target, int]) error { return errors.New("boom") })
	_, err := Search(t.Context(), g, TreeOptions[*target, int]{Selection: PUCT, Evaluator: bad, MaxIterations: 10})
	if err == nil || err.Error() != "mcts: evaluator: boom" {
		t.Fatalf("err %v", err)
	}
}

// TestBudgetsReturnBestSoFar checks that every search stopped by its
// playout budget or its context returns a complete sequence and the error.
func TestBudgetsReturnBestSoFar(t *testing.T) {
	g := newTarget(15, 4, 3)
	check := func(name string, res Result[int], err error, want error) {
		t.Helper()
		if !errors.Is(err, want) {
			t.Fatalf("%s: err %v, want %v", name, err, want)
		}
		if len(res.Moves) != 15 || replay(t, g, res.Moves) != res.Score {
			t.Fatalf("%s: best so far %v (%v)", name, res.Moves, res.Score)
		}
	}
	b := Budget{MaxPlayouts: 500, Seed: 1}
	res, err := NRPA(t.Context(), g, NRPAOptions{Level: 3, Budget: b})
	check("nrpa", res, err, ErrBudget)
	if res.Stats.Playouts != 500 {
		t.Fatalf("nrpa made %d playouts", res.Stats.Playouts)
	}
	res, err = NMCS(t.Context(), g, NMCSOptions[*target, int]{Level: 3, Budget: b})
	check("nmcs", res, err, ErrBudget)
	res, err = Search(t.Context(), g, TreeOptions[*target, int]{Budget: b})
	check("uct", res, err, ErrBudget)

	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	res, err = NRPA(ctx, g, NRPAOptions{Level: 5, Restart: true})
	check("nrpa timeout", res, err, context.DeadlineExceeded)
	res, err = NMCS(ctx, g, NMCSOptions[*target, int]{Level: 4, Repeat: true})
	check("nmcs timeout", res, err, context.DeadlineExceeded)
	res, err = Search(ctx, g, TreeOptions[*target, int]{Selection: SPMCTS})
	check("sp-mcts timeout", res, err, context.DeadlineExceeded)
}

// TestDeterministic checks that a seed fixes the result.
func TestDeterministic(t *testing.T) {
	g := newTarget(25, 5, 11)
	run := func(seed uint64) Result[int] {
		res, _ := NRPA(t.Context(), g, NRPAOptions{Level: 1, Iterations: 20, Budget: Budget{Seed: seed}})
		return res
	}
	a, b, c := run(1), run(1), run(2)
	if !slices.Equal(a.Moves, b.Moves) || a.Score != b.Score {
		t.Fatal("same seed, different results")
	}
	if slices.Equal(a.Moves, c.Moves) {
		t.Fatal("different seeds, same sequence")
	}
}

// TestPolicyTable checks the NRPA weight table against a map.
func TestPolicyTable(t *testing.T) {
	var p, q policy
	want := map[uint64]float64{}
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range 5000 {
		c := uint64(rng.IntN(3000))
		if i%7 == 0 {
			c = 0
		}
		d := rng.Float64() - 0.5
		p.add(c, d)
		want[c] += d
	}
	q.copyFrom(&p)
	for c, w := range want {
		if got := q.exp(c); !near(got, exp(w)) {
			t.Fatalf("code %d: exp weight %v, want %v", c, got, exp(w))
		}
	}
	if q.exp(1<<40) != 1 {
		t.Fatal("absent code does not weigh 0")
	}
	q.reset()
	if q.exp(5) != 1 || q.n != 0 {
		t.Fatal("reset")
	}
}

func exp(x float64) float64 { return math.Exp(x) }

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// TestTreeSteps plays a game move by move with a stepping tree: the
// oracle's priors lead every Best to the secret's symbol, Advance keeps
// the chosen child's subtree (its visits become the root's) and the tree
// meets the optimum.
func TestTreeSteps(t *testing.T) {
	g := newTarget(30, 4, 9)
	ev := &oracle{}
	tr := NewTree(g, TreeOptions[*target, int]{Selection: PUCT, Evaluator: ev, Batch: 8, Budget: Budget{Seed: 1}})
	iters := int64(0)
	for step := 0; !tr.Over() && len(tr.State().Moves(nil)) > 0; step++ {
		if err := tr.Think(t.Context(), 20); err != nil {
			t.Fatal(err)
		}
		iters += 20
		if s := tr.Stats(); s.Iterations != iters {
			t.Fatalf("step %d: %d iterations, want %d", step, s.Iterations, iters)
		}
		kids := tr.Children()
		if len(kids) != 4 {
			t.Fatalf("step %d: %d children", step, len(kids))
		}
		b := tr.Best()
		if kids[b].Move != g.secret[step] {
			t.Fatalf("step %d: best %d, secret %d (%+v)", step, kids[b].Move, g.secret[step], kids)
		}
		sum := 0
		for _, k := range kids {
			sum += k.Visits
		}
		if root := tr.Root(); root.Visits != sum+1 && root.Visits != sum {
			t.Fatalf("step %d: root %d visits, children %d", step, root.Visits, sum)
		}
		if err := tr.Advance(b); err != nil {
			t.Fatal(err)
		}
		if got := tr.Root().Visits; got != kids[b].Visits {
			t.Fatalf("step %d: kept %d visits, want %d", step, got, kids[b].Visits)
		}
		if len(tr.nodes) > int(tr.Stats().Nodes) || tr.nodes[0].parent != -1 {
			t.Fatalf("step %d: compaction: %d nodes", step, len(tr.nodes))
		}
	}
	if !slices.Equal(tr.Played(), g.secret) || tr.State().Score() != 130 {
		t.Fatalf("played %v, score %v", tr.Played(), tr.State().Score())
	}
	if res := tr.Result(); res.Score != 130 || replay(t, g, res.Moves) != 130 {
		t.Fatalf("result %v %v", res.Score, res.Moves)
	}
	if len(g.seq) != 0 {
		t.Fatal("root changed")
	}
	if err := tr.Advance(0); err == nil {
		t.Fatal("advance past the end")
	}
}

// TestTreeAdvanceUnexpanded checks a root that was never thought about:
// Children lists its moves, Advance restarts from the child.
func TestTreeAdvanceUnexpanded(t *testing.T) {
	g := newTarget(3, 3, 1)
	tr := NewTree(g, TreeOptions[*target, int]{Budget: Budget{Seed: 1}})
	if kids := tr.Children(); len(kids) != 3 || kids[2].Move != 2 || kids[2].Visits != 0 || tr.Best() != -1 {
		t.Fatalf("children %+v, best %d", kids, tr.Best())
	}
	if err := tr.Advance(3); err == nil {
		t.Fatal("advance out of range")
	}
	if err := tr.Advance(2); err != nil || !slices.Equal(tr.Played(), []int{2}) {
		t.Fatal(err, tr.Played())
	}
	if err := tr.Think(t.Context(), 50); err != nil {
		t.Fatal(err)
	}
	if res := tr.Result(); len(res.Moves) != 3 || res.Moves[0] != 2 {
		t.Fatalf("result %v", res.Moves)
	}
}

// trap is a two-step game: move 0 then 9 scores 10, move 0 then any other
// move 0; move 1 then anything scores 3. The means prefer 1, the maxima 0.
type trap struct{ seq []int }

func (g *trap) Moves(dst []int) []int {
	if len(g.seq) == 2 {
		return dst
	}
	if len(g.seq) == 0 {
		return append(dst, 0, 1)
	}
	for m := range 10 {
		dst = append(dst, m)
	}
	return dst
}
func (g *trap) Play(m int) { g.seq = append(g.seq, m) }
func (g *trap) Score() float64 {
	switch {
	case len(g.seq) < 2:
		return 0
	case g.seq[0] == 1:
		return 3
	case g.seq[1] == 9:
		return 10
	}
	return 0
}
func (g *trap) Clone() *trap       { return &trap{seq: slices.Clone(g.seq)} }
func (g *trap) CopyFrom(src *trap) { g.seq = append(g.seq[:0], src.seq...) }

func TestTreeBackupAndChoice(t *testing.T) {
	for _, tc := range []struct {
		backup Backup
		choice Choice
		want   int
	}{{MeanBackup, ByValue, 1}, {MaxBackup, ByValue, 0}} {
		tr := NewTree(&trap{}, TreeOptions[*trap, int]{Selection: UCT, C: 5, Backup: tc.backup, Choice: tc.choice})
		if err := tr.Think(t.Context(), 200); err != nil {
			t.Fatal(err)
		}
		kids := tr.Children()
		if kids[0].Max != 10 || kids[1].Max != 3 || kids[1].Mean != 3 || kids[0].Mean >= 3 {
			t.Fatalf("%v: children %+v", tc.backup, kids)
		}
		if b := tr.Best(); b != tc.want {
			t.Fatalf("backup %v choice %v: best %d, want %d (%+v)", tc.backup, tc.choice, b, tc.want, kids)
		}
	}
}

// ends is an Evaluator for trap that values terminal states at twice
// their score, and counts them.
type ends struct{ terminal int }

func (e *ends) Evaluate(_ context.Context, leaves []Leaf[*trap, int]) error {
	for i := range leaves {
		l := &leaves[i]
		if len(l.Moves) == 0 {
			e.terminal++
			l.Value = 2 * l.State.Score()
		}
	}
	return nil
}

func TestTreeEvaluateTerminal(t *testing.T) {
	ev := &ends{}
	tr := NewTree(&trap{}, TreeOptions[*trap, int]{Selection: UCT, C: 5, Evaluator: ev, Batch: 4, EvaluateTerminal: true,
		Backup: MaxBackup, Choice: ByValue})
	if err := tr.Think(t.Context(), 200); err != nil {
		t.Fatal(err)
	}
	res := tr.Result()
	if res.Score != 20 || !slices.Equal(res.Moves, []int{0, 9}) {
		t.Fatalf("result %v %v", res.Score, res.Moves)
	}
	// Each of the 20 terminal states is evaluated once, then its value is kept.
	if ev.terminal != 20 || tr.Best() != 0 {
		t.Fatalf("%d terminal evaluations, best %d", ev.terminal, tr.Best())
	}
}

// TestSearchIsATree checks that Search's iterations are a Tree's: the
// same seed grows the same tree.
func TestSearchIsATree(t *testing.T) {
	g := newTarget(8, 3, 2)
	opts := TreeOptions[*target, int]{Selection: SPMCTS, D: 10, MaxIterations: 1500, Budget: Budget{Seed: 4}}
	res, err := Search(t.Context(), g, opts)
	if err != nil {
		t.Fatal(err)
	}
	tr := NewTree(g, opts)
	if err := tr.Think(t.Context(), 1500); err != nil {
		t.Fatal(err)
	}
	s := tr.Stats()
	if s.Nodes != res.Stats.Nodes || s.Iterations != res.Stats.Iterations || s.Playouts+1 < res.Stats.Playouts {
		t.Fatalf("tree %+v, search %+v", s, res.Stats)
	}
}

// TestSearchStopsWhenExhausted checks that a tree smaller than its budget
// ends: with only MaxPlayouts set, a search that has met every complete
// sequence of a small game used to select terminal states forever (they
// count as no playout). A long deadline turns a hang into a failure.
func TestSearchStopsWhenExhausted(t *testing.T) {
	for _, sel := range []Selection{UCT, SPMCTS} {
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
		g := newTarget(2, 3, 1)
		res, err := Search(ctx, g, TreeOptions[*target, int]{Selection: sel, Budget: Budget{MaxPlayouts: 1 << 40}})
		cancel()
		if err != nil {
			t.Fatalf("selection %v: %v after %d iterations", sel, err, res.Stats.Iterations)
		}
		if want := 102.0; res.Score != want { // both symbols right, plus the bonus
			t.Errorf("selection %v: score %v, want the best %v", sel, res.Score, want)
		}
	}
}

// TestImproved checks that each search reports every better sequence on
// Budget.Improved, in increasing order of score, each replaying to its
// score, the last being the result, and that watching changes nothing.
func TestImproved(t *testing.T) {
	g := newTarget(10, 3, 6)
	type seen struct {
		score float64
		seq   []int
	}
	searches := map[string]func(b Budget) (Result[int], error){
		"nrpa": func(b Budget) (Result[int], error) {
			return NRPA(t.Context(), g, NRPAOptions{Level: 2, Iterations: 30, Budget: b})
		},
		"nmcs": func(b Budget) (Result[int], error) {
			return NMCS(t.Context(), g, NMCSOptions[*target, int]{Level: 2, Budget: b})
		},
		"spmcts": func(b Budget) (Result[int], error) {
			return Search(t.Context(), g, TreeOptions[*target, int]{Selection: SPMCTS, D: 10, MaxIterations: 2000, Budget: b})
		},
	}
	for name, search := range searches {
		plain, err := search(Budget{Seed: 9})
		if err != nil {
			t.Fatal(name, err)
		}
		var got []seen
		progress := 0
		res, err := search(Budget{Seed: 9,
			Improved: func(best float64, seq any) {
				got = append(got, seen{best, slices.Clone(seq.([]int))})
			},
			Progress: func(float64, Stats) { progress++ }})
		if err != nil {
			t.Fatal(name, err)
		}
		if res.Score != plain.Score || !slices.Equal(res.Moves, plain.Moves) || res.Stats.Playouts != plain.Stats.Playouts {
			t.Fatalf("%s: watched %v %v, unwatched %v %v", name, res.Score, res.Moves, plain.Score, plain.Moves)
		}
		if len(got) < 2 || progress < len(got) {
			t.Fatalf("%s: %d improvements, %d progress calls", name, len(got), progress)
		}
		for i, s := range got {
			if i > 0 && s.score <= got[i-1].score {
				t.Fatalf("%s: improvement %d scores %v after %v", name, i, s.score, got[i-1].score)
			}
			if replay(t, g, s.seq) != s.score {
				t.Fatalf("%s: sequence %v does not score %v", name, s.seq, s.score)
			}
		}
		if last := got[len(got)-1]; last.score != res.Score || !slices.Equal(last.seq, res.Moves) {
			t.Fatalf("%s: last improvement %v %v, result %v %v", name, last.score, last.seq, res.Score, res.Moves)
		}
	}
}

// TestNRPAStabilized: a stabilized level-1 iteration makes Stabilize
// playouts before it adapts, so a level-l search makes
// Stabilize*Iterations^l of them, and it still finds the optimum.
func TestNRPAStabilized(t *testing.T) {
	g := newTarget(20, 4, 1)
	res, err := NRPA(t.Context(), g, NRPAOptions{Level: 2, Iterations: 60, Stabilize: 3, Budget: Budget{Seed: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Playouts != 3*60*60 {
		t.Fatalf("%d playouts, want %d", res.Stats.Playouts, 3*60*60)
	}
	if res.Score != 120 || replay(t, g, res.Moves) != res.Score {
		t.Fatalf("score %v, moves %v", res.Score, res.Moves)
	}
	// Stabilize 1 is plain NRPA: the same search, playout for playout.
	a, _ := NRPA(t.Context(), g, NRPAOptions{Level: 2, Iterations: 20, Budget: Budget{Seed: 5}})
	b, _ := NRPA(t.Context(), g, NRPAOptions{Level: 2, Iterations: 20, Stabilize: 1, Budget: Budget{Seed: 5}})
	if a.Score != b.Score || !slices.Equal(a.Moves, b.Moves) || a.Stats.Playouts != b.Stats.Playouts {
		t.Fatalf("stabilize 1 differs from plain NRPA: %v %v", a, b)
	}
}

// TestNRPAPortfolio: a portfolio of 4 level-2 searches raced by rounds of 5
// iterations runs 4x5, then 2x5 iterations, then the survivor's other 50:
// 80 level-1 searches of 60 playouts. It finds the optimum and repeats from
// its seed.
func TestNRPAPortfolio(t *testing.T) {
	g := newTarget(20, 4, 1)
	opts := NRPAOptions{Level: 2, Iterations: 60, Portfolio: 4, Round: 5, Budget: Budget{Seed: 3}}
	res, err := NRPA(t.Context(), g, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Playouts != 80*60 {
		t.Fatalf("%d playouts, want %d", res.Stats.Playouts, 80*60)
	}
	if res.Score != 120 || replay(t, g, res.Moves) != res.Score {
		t.Fatalf("score %v, moves %v", res.Score, res.Moves)
	}
	again, _ := NRPA(t.Context(), g, opts)
	if again.Score != res.Score || !slices.Equal(again.Moves, res.Moves) {
		t.Fatalf("not repeatable: %v then %v", res, again)
	}
	// A portfolio of 1 is plain NRPA, playout for playout.
	a, _ := NRPA(t.Context(), g, NRPAOptions{Level: 2, Iterations: 20, Budget: Budget{Seed: 5}})
	b, _ := NRPA(t.Context(), g, NRPAOptions{Level: 2, Iterations: 20, Portfolio: 1, Budget: Budget{Seed: 5}})
	if a.Score != b.Score || !slices.Equal(a.Moves, b.Moves) || a.Stats.Playouts != b.Stats.Playouts {
		t.Fatalf("portfolio 1 differs from plain NRPA: %v %v", a, b)
	}
}

// TestNRPARoots: a portfolio over two roots of one game, one of which hides
// the first symbol of the secret (its searches cannot reach the optimum),
// finds the optimum through the other, in a line that replays on the game;
// the hiding root alone cannot; the run repeats from its seed.
func TestNRPARoots(t *testing.T) {
	g := newTarget(20, 4, 1)
	bad := g.Clone()
	bad.hide = g.secret[0] + 1
	opts := NRPAOptions{Level: 2, Iterations: 60, Round: 30, Budget: Budget{Seed: 3}}
	res, err := NRPARoots(t.Context(), []*target{bad, g}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != 120 || replay(t, g, res.Moves) != res.Score {
		t.Fatalf("score %v, moves %v", res.Score, res.Moves)
	}
	// Two members (the portfolio raised to the roots): 2x30, then the
	// survivor's other 30 iterations of 60 playouts.
	if res.Stats.Playouts != 90*60 {
		t.Fatalf("%d playouts, want %d", res.Stats.Playouts, 90*60)
	}
	again, _ := NRPARoots(t.Context(), []*target{bad, g}, opts)
	if again.Score != res.Score || !slices.Equal(again.Moves, res.Moves) {
		t.Fatalf("not repeatable: %v then %v", res, again)
	}
	alone, _ := NRPARoots(t.Context(), []*target{bad}, opts)
	if alone.Score >= 100 || alone.Moves[0] == g.secret[0] {
		t.Fatalf("the hiding root alone scored %v with %v", alone.Score, alone.Moves)
	}
}

// hinted is a target with a prior: weight w for the secret's symbol at
// every step, 1 for the others.
type hinted struct {
	target
	w float64
}

func (g *hinted) Clone() *hinted { return &hinted{target: *g.target.Clone(), w: g.w} }

func (g *hinted) CopyFrom(src *hinted) { g.target.CopyFrom(&src.target); g.w = src.w }

func (g *hinted) Prior(m int) float64 {
	if m == g.secret[len(g.seq)] {
		return g.w
	}
	return 1
}

// TestNRPAPrior: a Generalized NRPA whose prior favours the secret finds
// the optimum at level 1 in 200 playouts (plain NRPA cannot, as
// TestNRPAFindsOptimum shows); a prior of 1, or a prior with the option
// off, is plain NRPA playout for playout; a run repeats from its seed.
func TestNRPAPrior(t *testing.T) {
	g := newTarget(20, 4, 1)
	opts := NRPAOptions{Level: 1, Iterations: 200, Prior: true, Budget: Budget{Seed: 3}}
	res, err := NRPA(t.Context(), &hinted{target: *g, w: 20}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != 120 || replay(t, g, res.Moves) != res.Score {
		t.Fatalf("score %v, moves %v", res.Score, res.Moves)
	}
	again, _ := NRPA(t.Context(), &hinted{target: *g, w: 20}, opts)
	if again.Score != res.Score || !slices.Equal(again.Moves, res.Moves) {
		t.Fatalf("not repeatable: %v then %v", res, again)
	}
	plain, _ := NRPA(t.Context(), g, NRPAOptions{Level: 2, Iterations: 20, Budget: Budget{Seed: 5}})
	for _, c := range []struct {
		w     float64
		prior bool
	}{{1, true}, {20, false}} {
		r, _ := NRPA(t.Context(), &hinted{target: *g, w: c.w}, NRPAOptions{Level: 2, Iterations: 20, Prior: c.prior, Budget: Budget{Seed: 5}})
		if r.Score != plain.Score || !slices.Equal(r.Moves, plain.Moves) || r.Stats.Playouts != plain.Stats.Playouts {
			t.Fatalf("prior %v (on: %v) differs from plain NRPA: %v %v", c.w, c.prior, r, plain)
		}
	}
}

// TestNRPAPriorAdapt: adaptation moves the weights by Alpha times (1 for
// the move played) minus the move's probability with the prior: two moves
// of priors 3 and 1 and weight 0, the first played, get 1/4 and -1/4.
func TestNRPAPriorAdapt(t *testing.T) {
	s := &nrpa[*target, int]{opts: NRPAOptions{Alpha: 1}}
	r := record[int]{codes: []uint64{1, 2}, priors: []float64{3, 1}, start: []int32{0, 2}, pick: []int32{0}}
	var pol policy
	s.adapt(&pol, &r)
	if w1, w2 := math.Log(pol.exp(1)), math.Log(pol.exp(2)); math.Abs(w1-0.25) > 1e-12 || math.Abs(w2+0.25) > 1e-12 {
		t.Fatalf("weights %v %v, want 0.25 -0.25", w1, w2)
	}
}

// TestNRPARepeats: with limited repetitions a level stops once its best
// sequence came back Repeats times. On a game of one legal move a step
// every playout is the one line, so a level-1 search stops after 1+R
// playouts and a level-2 search after 1+R of them: (1+R)^2 playouts in
// all; a portfolio of two counts each member's top level on its own. A
// limit that is never reached is plain NRPA, playout for playout, and the
// limited search still finds the optimum of a game with a choice.
func TestNRPARepeats(t *testing.T) {
	one := newTarget(20, 1, 1)
	for _, c := range []struct {
		opts NRPAOptions
		want int64
	}{
		{NRPAOptions{Level: 2, Iterations: 60, Repeats: 4}, 5 * 5},
		{NRPAOptions{Level: 1, Iterations: 60, Repeats: 1}, 2},
		{NRPAOptions{Level: 3, Iterations: 60, Repeats: 2}, 3 * 3 * 3},
		// Members of 3 iterations (one best, two repeats), then the
		// survivor's fourth and fifth: 3+3+2 level-1 searches of 5.
		{NRPAOptions{Level: 2, Iterations: 60, Repeats: 4, Portfolio: 2, Round: 3}, 8 * 5},
	} {
		res, err := NRPA(t.Context(), one, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.Stats.Playouts != c.want || res.Score != 120 {
			t.Errorf("%+v: %d playouts, score %v; want %d playouts, 120", c.opts, res.Stats.Playouts, res.Score, c.want)
		}
	}
	g := newTarget(20, 4, 1)
	a, _ := NRPA(t.Context(), g, NRPAOptions{Level: 2, Iterations: 20, Budget: Budget{Seed: 5}})
	b, _ := NRPA(t.Context(), g, NRPAOptions{Level: 2, Iterations: 20, Repeats: 1000, Budget: Budget{Seed: 5}})
	if a.Score != b.Score || !slices.Equal(a.Moves, b.Moves) || a.Stats.Playouts != b.Stats.Playouts {
		t.Fatalf("an unreached limit differs from plain NRPA: %v %v", a, b)
	}
	res, err := NRPA(t.Context(), g, NRPAOptions{Level: 2, Iterations: 60, Repeats: 3, Budget: Budget{Seed: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != 120 || replay(t, g, res.Moves) != res.Score || res.Stats.Playouts >= 60*60 {
		t.Fatalf("repeats 3: score %v in %d playouts (plain NRPA: 120 in 3600), moves %v", res.Score, res.Stats.Playouts, res.Moves)
	}
	t.Logf("repeats 3: 120 in %d playouts", res.Stats.Playouts)
}

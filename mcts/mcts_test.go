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
		dst = append(dst, m)
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
	g.secret, g.k = src.secret, src.k
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

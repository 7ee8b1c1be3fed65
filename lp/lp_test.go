package lp

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// smallLPs are problems with known optimal values.
func smallLPs() map[string]struct {
	p   *Problem
	opt float64
} {
	out := map[string]struct {
		p   *Problem
		opt float64
	}{}
	// max 3x + 2y s.t. x + y <= 4, x + 3y <= 6, x <= 3: optimum 11 at (3, 1).
	p := NewProblem(2)
	p.SetObjective([]float64{-3, -2})
	p.AddRow([]int{0, 1}, []float64{1, 1}, -Inf, 4)
	p.AddRow([]int{0, 1}, []float64{1, 3}, -Inf, 6)
	p.SetBounds(0, 0, 3)
	out["textbook"] = struct {
		p   *Problem
		opt float64
	}{p, -11}

	// Transportation: 2 supplies (20, 30), 3 demands (10, 25, 15), costs.
	cost := []float64{8, 6, 10, 9, 12, 13}
	p = NewProblem(6)
	p.SetObjective(cost)
	p.AddRow([]int{0, 1, 2}, []float64{1, 1, 1}, 20, 20)
	p.AddRow([]int{3, 4, 5}, []float64{1, 1, 1}, 30, 30)
	p.AddRow([]int{0, 3}, []float64{1, 1}, 10, 10)
	p.AddRow([]int{1, 4}, []float64{1, 1}, 25, 25)
	p.AddRow([]int{2, 5}, []float64{1, 1}, 15, 15)
	// Optimal: x01=20 (6*20=120)? check by enumeration in the test below.
	out["transport"] = struct {
		p   *Problem
		opt float64
	}{p, transportOptimum(cost)}

	// A free variable and a >= row: min x - y s.t. x >= -2 (free x), y in [0,5], x + y >= 1.
	p = NewProblem(2)
	p.SetObjective([]float64{1, -1})
	p.SetBounds(0, -Inf, Inf)
	p.SetBounds(1, 0, 5)
	p.AddRow([]int{0}, []float64{1}, -2, Inf)
	p.AddRow([]int{0, 1}, []float64{1, 1}, 1, Inf)
	out["free"] = struct {
		p   *Problem
		opt float64
	}{p, -7}
	return out
}

// transportOptimum solves the 2x3 transportation problem above by brute
// force over the two free amounts.
func transportOptimum(c []float64) float64 {
	best := math.Inf(1)
	for a := 0; a <= 10; a++ {
		for b := 0; b <= 20; b++ {
			cc := 20 - a - b // supplier 1 to demand 3
			if cc < 0 || cc > 15 {
				continue
			}
			d, e, f := 10-a, 25-b, 15-cc
			if d < 0 || e < 0 || f < 0 || d+e+f != 30 {
				continue
			}
			v := c[0]*float64(a) + c[1]*float64(b) + c[2]*float64(cc) + c[3]*float64(d) + c[4]*float64(e) + c[5]*float64(f)
			best = min(best, v)
		}
	}
	return best
}

// assignmentLP is the LP of a random n x n assignment problem; its optimum
// is integral (Birkhoff), so it equals the brute-force optimum.
func assignmentLP(n int, seed uint64) (*Problem, float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	p := NewProblem(n * n)
	c := make([]float64, n*n)
	for i := range c {
		c[i] = float64(rng.IntN(20))
	}
	p.SetObjective(c)
	for i := range n {
		var rows, cols []int
		for j := range n {
			rows = append(rows, i*n+j)
			cols = append(cols, j*n+i)
		}
		one := []float64{}
		for range n {
			one = append(one, 1)
		}
		p.AddRow(rows, one, 1, 1)
		p.AddRow(cols, one, 1, 1)
	}
	// Brute force over permutations.
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	best := math.Inf(1)
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			v := 0.0
			for i, j := range perm {
				v += c[i*n+j]
			}
			best = min(best, v)
			return
		}
		for i := k; i < n; i++ {
			perm[k], perm[i] = perm[i], perm[k]
			rec(k + 1)
			perm[k], perm[i] = perm[i], perm[k]
		}
	}
	rec(0)
	return p, best
}

func checkBackend(t *testing.T, b Backend) {
	t.Helper()
	for name, c := range smallLPs() {
		sol, err := Solve(context.Background(), b, c.p)
		if err != nil || sol.Status != Optimal {
			t.Fatalf("%s %s: %v %v", b.Name(), name, sol.Status, err)
		}
		if math.Abs(sol.Objective-c.opt) > 1e-4*(1+math.Abs(c.opt)) || c.p.Violation(sol.X) > 1e-4 {
			t.Errorf("%s %s: objective %v (want %v), violation %v", b.Name(), name, sol.Objective, c.opt, c.p.Violation(sol.X))
		}
	}
	for seed := range uint64(3) {
		p, opt := assignmentLP(6, seed)
		sol, err := Solve(context.Background(), b, p)
		if err != nil || sol.Status != Optimal || math.Abs(sol.Objective-opt) > 1e-4*(1+opt) {
			t.Errorf("%s assignment %d: %v %v objective %v want %v", b.Name(), seed, sol.Status, err, sol.Objective, opt)
		}
	}
}

func TestPDHG(t *testing.T) {
	checkBackend(t, NewPDHG(PDHGOptions{}))
}

// loadPDHG loads p into a PDHG model that the end of the test closes.
func loadPDHG(t *testing.T, p *Problem) Model {
	t.Helper()
	m, err := NewPDHG(PDHGOptions{}).Load(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

func TestPDHGWarmStart(t *testing.T) {
	p, _ := assignmentLP(6, 9)
	m := loadPDHG(t, p)
	first, _ := m.Solve(context.Background())
	c := append([]float64(nil), p.Objective()...)
	for i := range c {
		c[i] = -c[i]
	}
	m.SetObjective(c)
	second, _ := m.Solve(context.Background())
	q, _ := assignmentLP(6, 9)
	q.SetObjective(c)
	fresh, _ := Solve(context.Background(), NewPDHG(PDHGOptions{}), q)
	if first.Status != Optimal || second.Status != Optimal || math.Abs(second.Objective-fresh.Objective) > 1e-4*(1+math.Abs(fresh.Objective)) {
		t.Fatalf("warm %v %v, fresh %v", second.Status, second.Objective, fresh.Objective)
	}
}

func TestLookup(t *testing.T) {
	if b, err := Lookup("pdhg"); err != nil || b.Name() != "pdhg" {
		t.Fatal(b, err)
	}
	if _, err := Lookup("nosuch"); err == nil {
		t.Fatal("unknown backend accepted")
	}
}

func TestStoppedByContext(t *testing.T) {
	p, _ := assignmentLP(6, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sol, err := Solve(ctx, NewPDHG(PDHGOptions{}), p)
	if err != nil || sol.Status != Stopped {
		t.Fatalf("%v %v", sol.Status, err)
	}
}

// TestReserve: after Reserve, adding the reserved rows moves nothing.
func TestReserve(t *testing.T) {
	p := NewProblem(3)
	p.Reserve(2, 5)
	before := &p.val[:1][0]
	p.AddRow([]int{0, 1, 2}, []float64{1, 1, 1}, 1, 1)
	p.AddRow([]int{0, 2}, []float64{1, -1}, 0, 0)
	if &p.val[0] != before || p.NumRows() != 2 || p.NumNonzeros() != 5 {
		t.Fatalf("rows %d, nonzeros %d, moved %v", p.NumRows(), p.NumNonzeros(), &p.val[0] != before)
	}
}

// TestPDHGSetUpStops: the preconditioning runs in Solve, bounded by its
// context, so a context that has ended stops it before the first iteration
// (issue 38, item 7: edgematch solve -algo lp -timeout 2s took 12.8 s in
// Load and 64 iterations), and the next Solve sets up again whole and
// finds what a fresh model finds.
func TestPDHGSetUpStops(t *testing.T) {
	p, _ := assignmentLP(6, 3)
	m := loadPDHG(t, p)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	sol, err := m.Solve(ctx)
	if err != nil || sol.Status != Stopped || sol.Iterations != 0 || len(sol.X) != p.NumCols() {
		t.Fatalf("cancelled: %v after %d iterations, %d values, %v", sol.Status, sol.Iterations, len(sol.X), err)
	}
	again, err := m.Solve(t.Context())
	fresh, _ := Solve(t.Context(), NewPDHG(PDHGOptions{}), p)
	if err != nil || again.Status != Optimal || again.Objective != fresh.Objective || again.Iterations != fresh.Iterations {
		t.Fatalf("after the stop: %v %v in %d, fresh %v in %d (%v)", again.Status, again.Objective, again.Iterations, fresh.Objective, fresh.Iterations, err)
	}
}

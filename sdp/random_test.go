package sdp

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// randomFeasible returns a random SDP that is strictly feasible and
// bounded by construction: X0 ≻ 0 and b = A(X0), so X0 is an interior
// primal point; Z0 ≻ 0 and C = A'(y0) - Z0 (C = Z0 + A'(y0) when
// minimising), so (y0, Z0) is an interior dual point. Strong duality then
// holds and both optima are attained. Each constraint has density about
// dens in each block it touches, and touches each block with probability
// touch (at least one block).
func randomFeasible(seed uint64, blocks []Block, m int, dens, touch float64, minimize bool) *Problem {
	return randomFeasibleWith(seed, blocks, m, dens, minimize, func(rng *rand.Rand, ci, k int) bool {
		return rng.Float64() < touch
	})
}

// randomFeasibleWith is randomFeasible with touches(rng, ci, k) saying
// whether constraint ci has entries in block k.
func randomFeasibleWith(seed uint64, blocks []Block, m int, dens float64, minimize bool, touches func(rng *rand.Rand, ci, k int) bool) *Problem {
	rng := rand.New(rand.NewPCG(seed, 17))
	p := &Problem{Blocks: blocks, Minimize: minimize}
	md := &model{blocks: blocks}
	x0, z0 := md.newBlocks(), md.newBlocks()
	for k, b := range blocks {
		n := b.Size
		if b.Diagonal {
			for i := range n {
				x0[k][i] = 0.2 + rng.Float64()
				z0[k][i] = 0.2 + rng.Float64()
			}
			continue
		}
		for _, a := range [][]float64{x0[k], z0[k]} {
			g := make([]float64, n*n)
			for i := range g {
				g[i] = rng.NormFloat64()
			}
			for i := range n {
				for j := range n {
					s := 0.0
					for l := range n {
						s += g[i*n+l] * g[j*n+l]
					}
					a[i*n+j] = s / float64(n)
				}
				a[i*n+i] += 0.3
			}
		}
	}
	y0 := make([]float64, m)
	c := md.newBlocks()
	for k := range c {
		copy(c[k], z0[k])
		if !minimize {
			for i := range c[k] {
				c[k][i] = -c[k][i]
			}
		}
	}
	for ci := range m {
		y0[ci] = rng.NormFloat64()
		var a []Entry
		for len(a) == 0 {
			for k, b := range blocks {
				if !touches(rng, ci, k) {
					continue
				}
				for i := range b.Size {
					for j := i; j < b.Size; j++ {
						if (b.Diagonal && i != j) || rng.Float64() > dens {
							continue
						}
						a = append(a, E(k, i, j, rng.NormFloat64()))
					}
				}
			}
		}
		b := 0.0
		for _, e := range a {
			n := blocks[e.Block].Size
			if blocks[e.Block].Diagonal {
				b += e.V * x0[e.Block][e.I]
				c[e.Block][e.I] += y0[ci] * e.V
				continue
			}
			b += e.V * x0[e.Block][e.I*n+e.J]
			c[e.Block][e.I*n+e.J] += y0[ci] * e.V
			if e.I != e.J {
				b += e.V * x0[e.Block][e.J*n+e.I]
				c[e.Block][e.J*n+e.I] += y0[ci] * e.V
			}
		}
		p.AddConstraint(b, a...)
	}
	for k, bl := range blocks {
		n := bl.Size
		for i := range n {
			if bl.Diagonal {
				p.AddObjective(E(k, i, i, c[k][i]))
				continue
			}
			for j := i; j < n; j++ {
				p.AddObjective(E(k, i, j, c[k][i*n+j]))
			}
		}
	}
	return p
}

// randomCases are the seeded random problems of the tests.
func randomCases() []*Problem {
	var out []*Problem
	for seed := range uint64(6) {
		out = append(out,
			randomFeasible(seed, []Block{{Size: 5}}, 8, 0.5, 0.5, seed%2 == 1),
			randomFeasible(100+seed, []Block{{Size: 6}, {Size: 3}, {Size: 4, Diagonal: true}}, 15, 0.4, 0.5, seed%2 == 0),
			randomFeasible(200+seed, []Block{{Size: 8}, {Size: 8}, {Size: 5}, {Size: 6, Diagonal: true}}, 40, 0.15, 0.5, seed%2 == 1))
	}
	return out
}

// TestRandomFeasible: on random strictly feasible problems every backend
// ends optimal with measures under 1e-7, X and Z in the cone, and
// <X, Z> matching the gap.
func TestRandomFeasible(t *testing.T) {
	for sname, s := range solvers() {
		for idx, p := range randomCases() {
			sol, err := s.Solve(context.Background(), p)
			if err != nil {
				t.Errorf("%s case %d: %v", sname, idx, err)
				continue
			}
			md, _ := newModel(p)
			x, z := make([][]float64, len(sol.X)), make([][]float64, len(sol.Z))
			for k := range x {
				x[k], z[k] = sol.X[k].Data, sol.Z[k].Data
			}
			lx, lz := minEigenBlocks(md, x), minEigenBlocks(md, z)
			scale := 1 + math.Abs(sol.PrimalObjective)
			if max(sol.PrimalInfeasibility, sol.DualInfeasibility, sol.RelativeGap) > 1e-7 || lx < -1e-9*scale || lz < -1e-9*scale {
				t.Errorf("%s case %d: %v, infeasibilities %.2g %.2g gap %.2g, min eigenvalues X %.2g Z %.2g", sname, idx, sol.Status, sol.PrimalInfeasibility, sol.DualInfeasibility, sol.RelativeGap, lx, lz)
			}
			if idx%3 == 2 {
				t.Logf("%s case %d: objective %.9g, %d iterations", sname, idx, sol.PrimalObjective, sol.Iterations)
			}
		}
	}
}

// TestMinimizeNegates: min <-C, X> is -max <C, X>, with the same X and Z
// and the negated y.
func TestMinimizeNegates(t *testing.T) {
	for _, k := range knownOptima() {
		q := *k.p
		q.Minimize = true
		q.C = nil
		for _, e := range k.p.C {
			q.C = append(q.C, E(e.Block, e.I, e.J, -e.V))
		}
		sol, err := IPM{}.Solve(context.Background(), &q)
		if err != nil || math.Abs(sol.PrimalObjective+k.opt) > 1e-6*(1+k.opt) || math.Abs(sol.DualObjective+k.opt) > 1e-6*(1+k.opt) {
			t.Errorf("%s minimised: %v %v %v, want %v", k.name, err, sol.PrimalObjective, sol.DualObjective, -k.opt)
		}
	}
}

// TestConcurrent: solves in parallel goroutines (IPM shares nothing; CSDP
// runs one at a time behind a mutex) give the sequential results.
func TestConcurrent(t *testing.T) {
	probs := randomCases()[:6]
	for name, s := range solvers() {
		want := make([]float64, len(probs))
		for i, p := range probs {
			sol, err := s.Solve(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			want[i] = sol.PrimalObjective
		}
		got := make([]float64, len(probs))
		var wg sync.WaitGroup
		for i, p := range probs {
			wg.Go(func() {
				if sol, err := s.Solve(context.Background(), p); err == nil {
					got[i] = sol.PrimalObjective
				}
			})
		}
		wg.Wait()
		if !slices.Equal(got, want) {
			t.Errorf("%s: parallel %v, sequential %v", name, got, want)
		}
	}
}

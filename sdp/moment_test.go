package sdp

import (
	"context"
	"math"
	"testing"
)

// polyMul multiplies polynomials given by coefficients, lowest degree
// first.
func polyMul(a, b []float64) []float64 {
	out := make([]float64, len(a)+len(b)-1)
	for i, u := range a {
		for j, v := range b {
			out[i+j] += u * v
		}
	}
	return out
}

// momentProblem is the moment relaxation of min_x p(x) for p of degree 2d:
// minimise sum_k p_k m_k over Hankel Z = (m_{j+k}) ⪰ 0 of size d+1 with
// m_0 = 1. For univariate p it is exact (a non-negative univariate
// polynomial is a sum of squares, Hilbert 1888), and with a unique
// minimiser x* the optimal Z is rank one, v v' with v = (1, x*, x*^2, ...):
// the structure of Algorithm 2's Hankel matrices (Kovalsky, Glasner and
// Basri, eq. 20-22). The Hankel structure is imposed by equalities
// Z_{j,k} = Z_{j-1,k+1}.
func momentProblem(p []float64) *Problem {
	d := (len(p) - 1) / 2
	n := d + 1
	pr := &Problem{Blocks: []Block{{Size: n}}, Minimize: true}
	// m_k is represented by the entry (j, k-j) with j = min(k, d).
	rep := func(k int) (int, int) {
		j := min(k, d)
		return k - j, j
	}
	for k, c := range p {
		i, j := rep(k)
		v := c
		if i != j {
			v /= 2 // an off-diagonal entry counts twice
		}
		pr.AddObjective(E(0, i, j, v))
	}
	pr.AddConstraint(1, E(0, 0, 0, 1))
	for i := range n {
		for j := i; j < n; j++ {
			ri, rj := rep(i + j)
			if ri == i && rj == j {
				continue
			}
			// Z_ij - Z_rep = 0, halving off-diagonal entries.
			a, b := 1.0, -1.0
			if i != j {
				a = 0.5
			}
			if ri != rj {
				b = -0.5
			}
			pr.AddConstraint(0, E(0, i, j, a), E(0, ri, rj, b))
		}
	}
	return pr
}

// TestMoment: the moment relaxations of polynomials with a unique
// minimiser find the minimum and a rank-one Z from which the minimiser
// reads off as Z_01 / Z_00.
func TestMoment(t *testing.T) {
	cases := []struct {
		name string
		p    []float64
		min  float64
		x    float64
	}{
		// (x-1)^4 + (x-1)^2 = x^4 - 4x^3 + 7x^2 - 6x + 2: 0 at 1.
		{"quartic", []float64{2, -6, 7, -4, 1}, 0, 1},
		// (x-2)^2 (x^2+1) (x^2+3) + 5: 5 at 2.
		{"sextic", func() []float64 {
			q := polyMul(polyMul([]float64{4, -4, 1}, []float64{1, 0, 1}), []float64{3, 0, 1})
			q[0] += 5
			return q
		}(), 5, 2},
		// (x+0.5)^2 ((x-1)^2 + 1) (x^4 + 1): 0 at -0.5, degree 8.
		{"octic", polyMul(polyMul([]float64{0.25, 1, 1}, []float64{2, -2, 1}), []float64{1, 0, 0, 0, 1}), 0, -0.5},
	}
	for sname, s := range solvers() {
		for _, c := range cases {
			sol, err := s.Solve(context.Background(), momentProblem(c.p))
			if err != nil {
				t.Errorf("%s %s: %v", sname, c.name, err)
				continue
			}
			z := sol.X[0]
			x := z.At(0, 1) / z.At(0, 0)
			lam := minEigenBlocks(&model{blocks: []Block{{Size: z.N}}}, [][]float64{append([]float64(nil), z.Data...)})
			t.Logf("%s %s: min %.9f (want %v), x %.6f (want %v), %d iterations", sname, c.name, sol.PrimalObjective, c.min, x, c.x, sol.Iterations)
			if math.Abs(sol.PrimalObjective-c.min) > 1e-6 || math.Abs(x-c.x) > 1e-3 || lam < -1e-8 {
				t.Errorf("%s %s: min %v x %v (want %v at %v)", sname, c.name, sol.PrimalObjective, x, c.min, c.x)
			}
			// Rank one: the top eigenvector is (1, x, x^2, ...) up to scale
			// and the other eigenvalues vanish.
			vals, vecs := EigenSym(z)
			top := vecs[z.N-1]
			if r := top[1] / top[0]; math.Abs(r-c.x) > 1e-3 || vals[z.N-2] > 1e-4*vals[z.N-1] {
				t.Errorf("%s %s: eigenvalues %v, top vector ratio %v", sname, c.name, vals, r)
			}
		}
	}
}

package sdp

import "math"

// Helpers for rank-one relaxations solved by reweighting, such as
// Algorithm 2 of Kovalsky, Glasner and Basri ("A global approach for
// solving edge-matching puzzles", eq. 23-24), used by the tangram and
// edge-matching families: each block Z_i is pushed towards rank one by
// the objective Σ_i tr(W_i Z_i), W_i built from the previous iterate.

// RankOneWeight returns, for a symmetric block z of size n, the weight
// W = I - v vᵀ of the reweighting (eq. 24), v the unit eigenvector of z's
// largest eigenvalue, as n×n row-major values, and rest, the sum of z's
// other eigenvalues (negative ones counted as 0): tr(W z) for a PSD z, 0
// exactly when z has rank at most one. Cost: one Jacobi eigendecomposition,
// O(n³).
func RankOneWeight(z Matrix) (w []float64, rest float64) {
	vals, vecs := EigenSym(z)
	n := len(vals)
	top := vecs[n-1]
	for _, l := range vals[:n-1] {
		rest += max(l, 0)
	}
	w = make([]float64, n*n)
	for r := range n {
		for c := range n {
			w[r*n+c] = -top[r] * top[c]
		}
		w[r*n+r]++
	}
	return w, rest
}

// Projector returns I - u uᵀ/|u|² (n×n row-major, n = len(u)): the weight
// whose trace against a PSD matrix is 0 exactly at multiples of u uᵀ, a
// restart of the reweighting towards the rank-one point u. u must not be 0.
func Projector(u []float64) []float64 {
	n := len(u)
	s := 0.0
	for _, x := range u {
		s += x * x
	}
	w := make([]float64, n*n)
	for r := range n {
		for c := range n {
			w[r*n+c] = -u[r] * u[c] / s
		}
		w[r*n+r]++
	}
	return w
}

// BlockWeights returns the objective entries Σ_i <W_i, X_i> for the
// blocks 0, 1, ... of size n, W_i given n×n row-major (symmetric; only its
// upper triangle is read; nil: no entries), for Problem.C.
func BlockWeights(w [][]float64, n int) []Entry {
	var c []Entry
	for i, wi := range w {
		for r := range n {
			for col := r; col < n; col++ {
				if v := wi[r*n+col]; v != 0 {
					c = append(c, E(i, r, col, v))
				}
			}
		}
	}
	return c
}

// OrthonormalRows returns an orthonormal basis of the span of the equality
// rows (modified Gram-Schmidt, twice) with their right sides transformed
// alike, dropping rows that depend on the others (relative norm under
// 1e-9): the same affine set, without the redundant constraints an
// interior-point method cannot take. Cost: O(rows² · columns).
func OrthonormalRows(rows [][]float64, rhs []float64) ([][]float64, []float64) {
	dot := func(a, b []float64) float64 {
		s := 0.0
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	var out [][]float64
	var ob []float64
	for k, r := range rows {
		r = append([]float64(nil), r...)
		b := rhs[k]
		n0 := math.Sqrt(dot(r, r))
		if n0 == 0 {
			continue
		}
		for range 2 {
			for q, o := range out {
				d := dot(r, o)
				for j := range r {
					r[j] -= d * o[j]
				}
				b -= d * ob[q]
			}
		}
		nr := math.Sqrt(dot(r, r))
		if nr <= 1e-9*n0 {
			continue
		}
		for j := range r {
			r[j] /= nr
		}
		out, ob = append(out, r), append(ob, b/nr)
	}
	return out, ob
}

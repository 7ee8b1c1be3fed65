package sdp

import (
	"math"
	"slices"
	"sort"
)

// EigenSym returns the eigenvalues of the symmetric matrix m in ascending
// order and unit eigenvectors, vecs[k] for vals[k] (for a diagonal m, the
// sorted entries and unit vectors). It reads the lower triangle of a dense
// m and leaves m unchanged. The method is cyclic Jacobi (Golub and Van
// Loan, Matrix Computations, section 8.5), accurate to a few ulps of the
// norm of m; cost about 10 n^3 flops, meant for the small blocks of a
// solution (for instance the eigenvector reweighting of a rank-one SDP).
func EigenSym(m Matrix) (vals []float64, vecs [][]float64) {
	n := m.N
	if m.Diagonal {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return m.Data[idx[a]] < m.Data[idx[b]] })
		for _, i := range idx {
			v := make([]float64, n)
			v[i] = 1
			vals = append(vals, m.Data[i])
			vecs = append(vecs, v)
		}
		return vals, vecs
	}
	a := make([]float64, n*n)
	for i := range n {
		for j := 0; j <= i; j++ {
			a[i*n+j], a[j*n+i] = m.Data[i*n+j], m.Data[i*n+j]
		}
	}
	v := make([]float64, n*n) // columns are the eigenvectors
	for i := range n {
		v[i*n+i] = 1
	}
	norm := 0.0
	for _, x := range a {
		norm += x * x
	}
	for sweep := 0; sweep < 60; sweep++ {
		off := 0.0
		for i := range n {
			for j := range i {
				off += a[i*n+j] * a[i*n+j]
			}
		}
		if off <= 1e-32*norm || off == 0 {
			break
		}
		for p := range n {
			for q := p + 1; q < n; q++ {
				apq := a[p*n+q]
				if apq == 0 {
					continue
				}
				theta := (a[q*n+q] - a[p*n+p]) / (2 * apq)
				t := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				if math.IsInf(theta, 0) {
					t = 0
				}
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for k := range n {
					akp, akq := a[k*n+p], a[k*n+q]
					a[k*n+p], a[k*n+q] = c*akp-s*akq, s*akp+c*akq
				}
				for k := range n {
					apk, aqk := a[p*n+k], a[q*n+k]
					a[p*n+k], a[q*n+k] = c*apk-s*aqk, s*apk+c*aqk
				}
				for k := range n {
					vkp, vkq := v[k*n+p], v[k*n+q]
					v[k*n+p], v[k*n+q] = c*vkp-s*vkq, s*vkp+c*vkq
				}
			}
		}
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(x, y int) int {
		switch {
		case a[x*n+x] < a[y*n+y]:
			return -1
		case a[x*n+x] > a[y*n+y]:
			return 1
		}
		return 0
	})
	for _, i := range idx {
		vec := make([]float64, n)
		for k := range n {
			vec[k] = v[k*n+i]
		}
		vals = append(vals, a[i*n+i])
		vecs = append(vecs, vec)
	}
	return vals, vecs
}

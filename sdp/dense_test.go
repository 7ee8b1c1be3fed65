package sdp

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func randomSym(rng *rand.Rand, n int) []float64 {
	a := make([]float64, n*n)
	for i := range n {
		for j := 0; j <= i; j++ {
			v := rng.NormFloat64()
			a[i*n+j], a[j*n+i] = v, v
		}
	}
	return a
}

// TestMinEigen: Householder + QL agrees with Jacobi on random symmetric
// matrices, and finds the known spectra of diagonal, rank-one and
// tridiagonal (Toeplitz) matrices.
func TestMinEigen(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 3, 5, 8, 20, 41} {
		for range 5 {
			a := randomSym(rng, n)
			vals, _ := EigenSym(Matrix{N: n, Data: a}) // cyclic Jacobi, checked on its own in TestEigenSym
			want := vals[0]
			got := minEigen(slices.Clone(a), make([]float64, n), make([]float64, n), n)
			if math.Abs(got-want) > 1e-10*(1+math.Abs(want)) {
				t.Errorf("n %d: minEigen %v, Jacobi %v", n, got, want)
			}
		}
	}
	// Tridiagonal Toeplitz 2 -1: eigenvalues 2 - 2 cos(k pi/(n+1)).
	n := 30
	a := make([]float64, n*n)
	for i := range n {
		a[i*n+i] = 2
		if i > 0 {
			a[i*n+i-1], a[(i-1)*n+i] = -1, -1
		}
	}
	if got, want := minEigen(a, make([]float64, n), make([]float64, n), n), 2-2*math.Cos(math.Pi/float64(n+1)); math.Abs(got-want) > 1e-12 {
		t.Errorf("Toeplitz: %v, want %v", got, want)
	}
	// -v v' with |v|^2 = n: eigenvalues -n and 0.
	a = make([]float64, n*n)
	for i := range a {
		a[i] = -1
	}
	if got := minEigen(a, make([]float64, n), make([]float64, n), n); math.Abs(got+float64(n)) > 1e-11 {
		t.Errorf("rank one: %v, want %v", got, -n)
	}
	// Diagonal with a zero matrix block.
	a = make([]float64, 9)
	a[4] = -3
	if got := minEigen(a, make([]float64, 3), make([]float64, 3), 3); got != -3 {
		t.Errorf("diagonal: %v", got)
	}
}

// TestCholesky: L L' = A, the inverse from L, the solve, and refusal of
// indefinite matrices.
func TestCholesky(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 3, 7, 16} {
		g := randomSym(rng, n)
		a := make([]float64, n*n)
		matMul(a, g, g, n)
		for i := range n {
			a[i*n+i] += 0.1
		}
		l := slices.Clone(a)
		if !cholesky(l, n) {
			t.Fatalf("n %d: not positive definite", n)
		}
		li, ai, prod := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
		invLower(l, li, n)
		gramLowerT(li, ai, n)
		matMul(prod, a, ai, n)
		b := make([]float64, n)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		x := slices.Clone(b)
		cholSolve(l, x, n)
		for i := range n {
			r := -b[i]
			for j := range n {
				want := 0.0
				if i == j {
					want = 1
				}
				if math.Abs(prod[i*n+j]-want) > 1e-8 {
					t.Errorf("n %d: A A^{-1} [%d %d] = %v", n, i, j, prod[i*n+j])
				}
				r += a[i*n+j] * x[j]
			}
			if math.Abs(r) > 1e-8 {
				t.Errorf("n %d: residual %v", n, r)
			}
		}
		// The congruence L^{-1} A L^{-T} is the identity.
		s, tmp := make([]float64, n*n), make([]float64, n*n)
		congruence(li, a, s, tmp, n)
		if lo := minEigen(s, make([]float64, n), make([]float64, n), n); math.Abs(lo-1) > 1e-8 {
			t.Errorf("n %d: congruence min eigenvalue %v", n, lo)
		}
	}
	a := []float64{1, 2, 2, 1}
	if cholesky(a, 2) {
		t.Error("indefinite matrix factored")
	}
	if cholesky([]float64{math.NaN()}, 1) {
		t.Error("NaN factored")
	}
}

// TestEigenSym: A v = lambda v for unit, orthogonal v; the smallest
// eigenvalue matches minEigen; diagonal matrices sort.
func TestEigenSym(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 2, 4, 9, 20} {
		a := randomSym(rng, n)
		if n == 9 { // a repeated eigenvalue: I + rank one
			for i := range a {
				a[i] = 0.3
			}
			for i := range n {
				a[i*n+i] += 1
			}
		}
		vals, vecs := EigenSym(Matrix{N: n, Data: a})
		if !slices.IsSorted(vals) {
			t.Errorf("n %d: unsorted %v", n, vals)
		}
		if lo := minEigen(slices.Clone(a), make([]float64, n), make([]float64, n), n); math.Abs(lo-vals[0]) > 1e-10 {
			t.Errorf("n %d: smallest %v, minEigen %v", n, vals[0], lo)
		}
		for k, v := range vecs {
			for i := range n {
				s := 0.0
				for j := range n {
					s += a[i*n+j] * v[j]
				}
				if math.Abs(s-vals[k]*v[i]) > 1e-10 {
					t.Fatalf("n %d: A v != lambda v for %d", n, k)
				}
			}
			for l, w := range vecs {
				want := 0.0
				if k == l {
					want = 1
				}
				if math.Abs(dotVec(v, w)-want) > 1e-10 {
					t.Fatalf("n %d: v%d . v%d = %v", n, k, l, dotVec(v, w))
				}
			}
		}
	}
	vals, vecs := EigenSym(Matrix{N: 3, Diagonal: true, Data: []float64{2, -1, 0.5}})
	if !slices.Equal(vals, []float64{-1, 0.5, 2}) || vecs[0][1] != 1 || vecs[2][0] != 1 {
		t.Errorf("diagonal: %v %v", vals, vecs)
	}
}

// TestCholeskyEnvelope: on an arrow matrix (diagonal blocks and dense last
// rows) with its envelope, the envelope factorisation and solve match the
// dense ones.
func TestCholeskyEnvelope(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	n, blk, border := 23, 5, 3
	a := make([]float64, n*n)
	first := make([]int, n)
	for i := range n {
		first[i] = i / blk * blk
		if i >= n-border {
			first[i] = 0
		}
		for j := first[i]; j <= i; j++ {
			v := rng.NormFloat64()
			a[i*n+j], a[j*n+i] = v, v
		}
		a[i*n+i] = float64(n) + 1
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if first[j] > i {
				a[i*n+j], a[j*n+i] = 0, 0
			}
		}
	}
	l1, l2 := slices.Clone(a), slices.Clone(a)
	for i := range l2 { // garbage outside the envelope must not matter
		if i%n < first[i/n] {
			l2[i] = 7
		}
	}
	if !cholesky(l1, n) || !choleskyEnvelope(l2, n, first) {
		t.Fatal("not positive definite")
	}
	for i := range l1 {
		if math.Abs(l1[i]-l2[i]) > 1e-12 {
			t.Fatalf("L[%d][%d]: %v and %v", i/n, i%n, l1[i], l2[i])
		}
	}
	b := make([]float64, n)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	x1, x2 := slices.Clone(b), slices.Clone(b)
	cholSolve(l1, x1, n)
	cholSolveEnvelope(l2, x2, n, first)
	for i := range x1 {
		if math.Abs(x1[i]-x2[i]) > 1e-12 {
			t.Fatalf("x[%d]: %v and %v", i, x1[i], x2[i])
		}
	}
}

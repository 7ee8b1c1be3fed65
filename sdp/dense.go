package sdp

import "math"

// Dense linear algebra on small symmetric blocks: n x n matrices in
// row-major order in flat slices. Nothing here allocates.

// cholesky factors the symmetric positive definite a = L L' in place: the
// lower triangle of a becomes L and the strict upper triangle is zeroed.
// It reports false (a is then garbage) when a pivot is not positive.
// Cost n^3/3 flops.
func cholesky(a []float64, n int) bool {
	for j := range n {
		rj := a[j*n : j*n+n]
		d := rj[j] - dotUnrolled(rj[:j], rj[:j])
		if !(d > 0) || math.IsInf(d, 0) {
			return false
		}
		d = math.Sqrt(d)
		rj[j] = d
		inv := 1 / d
		for i := j + 1; i < n; i++ {
			ri := a[i*n : i*n+n]
			ri[j] = (ri[j] - dotUnrolled(ri[:j], rj[:j])) * inv
		}
		for k := j + 1; k < n; k++ {
			rj[k] = 0
		}
	}
	return true
}

// invLower sets out = L^{-1} for the lower triangular L (out lower
// triangular, its strict upper triangle zeroed). Cost n^3/3 flops.
func invLower(l, out []float64, n int) {
	for i := range out[:n*n] {
		out[i] = 0
	}
	for j := range n {
		out[j*n+j] = 1 / l[j*n+j]
		for i := j + 1; i < n; i++ {
			ri := l[i*n : i*n+n]
			s := 0.0
			for k := j; k < i; k++ {
				s -= ri[k] * out[k*n+j]
			}
			out[i*n+j] = s / ri[i]
		}
	}
}

// gramLowerT sets out = Li' Li for the lower triangular Li, the inverse
// of L L' when Li = L^{-1}. out is full (both triangles). Cost n^3/3.
func gramLowerT(li, out []float64, n int) {
	for i := range n {
		for j := 0; j <= i; j++ {
			s := 0.0
			for k := i; k < n; k++ {
				s += li[k*n+i] * li[k*n+j]
			}
			out[i*n+j] = s
			out[j*n+i] = s
		}
	}
}

// congruence sets out = Li D Li' for the lower triangular Li and the
// symmetric D, using tmp (n*n). out is full. Cost n^3.
func congruence(li, d, out, tmp []float64, n int) {
	// tmp = Li D
	for i := range n {
		ti := tmp[i*n : i*n+n]
		for j := range ti {
			ti[j] = 0
		}
		for k := 0; k <= i; k++ {
			if lik := li[i*n+k]; lik != 0 {
				axpyUnrolled(lik, d[k*n:k*n+n], ti)
			}
		}
	}
	// out = tmp Li' (symmetric: the lower triangle, mirrored)
	for i := range n {
		ti := tmp[i*n : i*n+n]
		for j := 0; j <= i; j++ {
			s := dotUnrolled(li[j*n:j*n+j+1], ti)
			out[i*n+j] = s
			out[j*n+i] = s
		}
	}
}

// matMul sets c = a b (all n x n). Cost 2n^3 flops.
func matMul(c, a, b []float64, n int) {
	for i := range n {
		ci := c[i*n : i*n+n]
		for j := range ci {
			ci[j] = 0
		}
		ai := a[i*n : i*n+n]
		for k, aik := range ai {
			if aik != 0 {
				axpyUnrolled(aik, b[k*n:k*n+n], ci)
			}
		}
	}
}

// symmetrize sets a = (a + a')/2.
func symmetrize(a []float64, n int) {
	for i := range n {
		for j := range i {
			v := 0.5 * (a[i*n+j] + a[j*n+i])
			a[i*n+j], a[j*n+i] = v, v
		}
	}
}

// minEigen returns the smallest eigenvalue of the symmetric a (destroyed),
// using d and e (n each) as work: Householder reduction to tridiagonal form
// and the implicit QL method (Wilkinson, Reinsch, Handbook for Automatic
// Computation II, procedures tred1 and tql1). Cost 4n^3/3 + O(n^2) flops.
// It returns NaN if QL does not converge in 60 sweeps per eigenvalue.
func minEigen(a, d, e []float64, n int) float64 {
	tridiagonalize(a, d, e, n)
	if !tql1(d, e, n) {
		return math.NaN()
	}
	lo := math.Inf(1)
	for _, v := range d[:n] {
		lo = min(lo, v)
	}
	return lo
}

// tridiagonalize reduces the symmetric a (lower triangle read, a
// destroyed) to tridiagonal form by Householder reflections: d gets the
// diagonal, e[1:] the subdiagonal (e[0] = 0).
func tridiagonalize(a, d, e []float64, n int) {
	for i := n - 1; i > 0; i-- {
		ri := a[i*n : i*n+i]
		l := i - 1
		h := 0.0
		if l > 0 {
			scale := 0.0
			for _, v := range ri {
				scale += math.Abs(v)
			}
			if scale == 0 {
				e[i] = ri[l]
			} else {
				for k := range ri {
					ri[k] /= scale
					h += ri[k] * ri[k]
				}
				f := ri[l]
				g := math.Sqrt(h)
				if f >= 0 {
					g = -g
				}
				e[i] = scale * g
				h -= f * g
				ri[l] = f - g
				// p = A u / h, stored in e[0..l]
				f = 0
				for j := 0; j <= l; j++ {
					g := 0.0
					rj := a[j*n : j*n+n]
					for k := 0; k <= j; k++ {
						g += rj[k] * ri[k]
					}
					for k := j + 1; k <= l; k++ {
						g += a[k*n+j] * ri[k]
					}
					e[j] = g / h
					f += e[j] * ri[j]
				}
				hh := f / (h + h)
				for j := 0; j <= l; j++ {
					f := ri[j]
					g := e[j] - hh*f
					e[j] = g
					rj := a[j*n : j*n+n]
					for k := 0; k <= j; k++ {
						rj[k] -= f*e[k] + g*ri[k]
					}
				}
			}
		} else {
			e[i] = ri[l]
		}
		d[i] = h
	}
	e[0] = 0
	for i := range n {
		d[i] = a[i*n+i]
	}
}

// tql1 finds the eigenvalues of the symmetric tridiagonal matrix with
// diagonal d and subdiagonal e[1:] (e destroyed); they replace d,
// unordered. It reports false when an eigenvalue takes over 60 sweeps.
func tql1(d, e []float64, n int) bool {
	for i := 1; i < n; i++ {
		e[i-1] = e[i]
	}
	e[n-1] = 0
	for l := range n {
		for iter := 0; ; iter++ {
			m := l
			for ; m < n-1; m++ {
				dd := math.Abs(d[m]) + math.Abs(d[m+1])
				if math.Abs(e[m]) <= 1e-16*dd {
					break
				}
			}
			if m == l {
				break
			}
			if iter == 60 {
				return false
			}
			g := (d[l+1] - d[l]) / (2 * e[l])
			r := hypot(g, 1)
			g = d[m] - d[l] + e[l]/(g+math.Copysign(r, g))
			s, c, p := 1.0, 1.0, 0.0
			i := m - 1
			for ; i >= l; i-- {
				f := s * e[i]
				b := c * e[i]
				r = hypot(f, g)
				e[i+1] = r
				if r == 0 {
					d[i+1] -= p
					e[m] = 0
					break
				}
				s = f / r
				c = g / r
				g = d[i+1] - p
				r = (d[i]-g)*s + 2*c*b
				p = s * r
				d[i+1] = g + p
				g = c*r - b
			}
			if r == 0 && i >= l {
				continue
			}
			d[l] -= p
			e[l] = g
			e[m] = 0
		}
	}
	return true
}

// cholSolve solves (L L') x = b in place (b becomes x) for the lower
// triangular L (n x n, row-major).
func cholSolve(l, b []float64, n int) {
	for i := range n {
		ri := l[i*n : i*n+i]
		s := b[i]
		for k, v := range ri {
			s -= v * b[k]
		}
		b[i] = s / l[i*n+i]
	}
	for i := n - 1; i >= 0; i-- {
		s := b[i]
		for k := i + 1; k < n; k++ {
			s -= l[k*n+i] * b[k]
		}
		b[i] = s / l[i*n+i]
	}
}

// dotUnrolled returns a'b (len(b) >= len(a)) with four accumulators.
func dotUnrolled(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	k := 0
	for ; k+4 <= len(a); k += 4 {
		s0 += a[k] * b[k]
		s1 += a[k+1] * b[k+1]
		s2 += a[k+2] * b[k+2]
		s3 += a[k+3] * b[k+3]
	}
	for ; k < len(a); k++ {
		s0 += a[k] * b[k]
	}
	return (s0 + s1) + (s2 + s3)
}

// axpyUnrolled sets y += a x (len(y) >= len(x)).
func axpyUnrolled(a float64, x, y []float64) {
	y = y[:len(x)]
	k := 0
	for ; k+4 <= len(x); k += 4 {
		y[k] += a * x[k]
		y[k+1] += a * x[k+1]
		y[k+2] += a * x[k+2]
		y[k+3] += a * x[k+3]
	}
	for ; k < len(x); k++ {
		y[k] += a * x[k]
	}
}

// hypot is math.Hypot without its care for the extremes where they
// cannot occur (both under 1e150 in magnitude): four times faster.
func hypot(a, b float64) float64 {
	if math.Abs(a) < 1e150 && math.Abs(b) < 1e150 {
		return math.Sqrt(a*a + b*b)
	}
	return math.Hypot(a, b)
}

// choleskyEnvelope factors the symmetric positive definite a = L L' in
// place like cholesky, for a matrix whose row i has no entry left of
// column first[i] (first[i] <= i): L has the same envelope, and only it is
// computed (entries left of the envelope are zeroed). Cost
// sum_i (i - first[i])^2 / 2 flops, n^3/3 for a full envelope.
func choleskyEnvelope(a []float64, n int, first []int) bool {
	for i := range n {
		ri := a[i*n : i*n+n]
		fi := first[i]
		clear(ri[:fi])
		for j := fi; j < i; j++ {
			rj := a[j*n : j*n+n]
			k0 := max(fi, first[j])
			ri[j] = (ri[j] - dotUnrolled(ri[k0:j], rj[k0:j])) / rj[j]
		}
		d := ri[i] - dotUnrolled(ri[fi:i], ri[fi:i])
		if !(d > 0) || math.IsInf(d, 0) {
			return false
		}
		ri[i] = math.Sqrt(d)
		clear(ri[i+1:])
	}
	return true
}

// cholSolveEnvelope solves (L L') x = b in place for L from
// choleskyEnvelope.
func cholSolveEnvelope(l, b []float64, n int, first []int) {
	for i := range n {
		fi := first[i]
		b[i] = (b[i] - dotUnrolled(l[i*n+fi:i*n+i], b[fi:i])) / l[i*n+i]
	}
	for i := n - 1; i >= 0; i-- {
		b[i] /= l[i*n+i]
		if xi := b[i]; xi != 0 {
			fi := first[i]
			axpyUnrolled(-xi, l[i*n+fi:i*n+i], b[fi:i])
		}
	}
}

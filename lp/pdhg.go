package lp

import (
	"context"
	"fmt"
	"math"
)

// PDHGOptions tune the PDHG backend. The zero value means a relative
// tolerance of 1e-6 and at most 200,000 iterations.
type PDHGOptions struct {
	// Tol is the relative tolerance on the primal residual, the dual
	// residual and the duality gap (0: 1e-6).
	Tol float64
	// MaxIter bounds the iterations of one Solve (0: 200,000).
	MaxIter int
}

// NewPDHG returns the pure-Go backend: the primal-dual hybrid gradient
// method for LP as in PDLP (Applegate, Díaz, Hinder, Lu, Lubin,
// O'Donoghue, Schudy, "Practical large-scale linear programming using
// primal-dual hybrid gradient", NeurIPS 2021) with the KKT-error restarts
// of cuPDLP (Lu and Yang, 2023): Ruiz and Pock-Chambolle diagonal
// preconditioning, adaptive step sizes, restarts to the average or the
// current iterate, and primal weight updates at restarts.
//
// Each iteration costs two sparse matrix-vector products, O(nnz(A)). The
// method needs no factorisation and keeps only O(nnz(A) + rows + cols)
// memory, so it scales to LPs that a dense method cannot hold. Its
// solutions are accurate to Tol, not vertices; it does not detect
// infeasibility (it reports Stopped at MaxIter). Warm starts: a Model
// resumes from its last iterate after SetObjective.
func NewPDHG(o PDHGOptions) Backend {
	if o.Tol <= 0 {
		o.Tol = 1e-6
	}
	if o.MaxIter <= 0 {
		o.MaxIter = 200000
	}
	return pdhgBackend{o}
}

type pdhgBackend struct{ o PDHGOptions }

func (pdhgBackend) Name() string { return "pdhg" }

// Load keeps p and its objective; the preconditioning, the longest part of
// the set-up (O(nnz(A)) eleven times, seconds on LPs of millions of
// nonzeros), runs in the first Solve, bounded by its context.
func (b pdhgBackend) Load(p *Problem) (Model, error) {
	s := &pdhgModel{o: b.o, p: p, m: p.NumRows(), n: p.NumCols()}
	s.obj = append([]float64(nil), p.obj...)
	return s, nil
}

// setup scales a copy of A, its transpose, the bounds and the objective,
// and places the first iterate inside the bounds. It starts from p each
// time, so that a set-up ended by ctx (an error wrapping ctx.Err()) is
// done again whole by the next Solve.
func (s *pdhgModel) setup(ctx context.Context) error {
	p, m, n := s.p, s.m, s.n
	// Scaled copy of A in rows and in columns.
	s.rowStart = append([]int(nil), p.rowStart...)
	s.colIdx = append([]int32(nil), p.colIdx...)
	s.val = append([]float64(nil), p.val...)
	s.dr = ones(m)
	s.dc = ones(n)
	if err := s.scale(ctx); err != nil {
		return err
	}
	s.transpose()
	s.lr, s.ur = make([]float64, m), make([]float64, m)
	for i := range m {
		s.lr[i], s.ur[i] = p.rowLo[i]*s.dr[i], p.rowHi[i]*s.dr[i]
	}
	s.lc, s.uc = make([]float64, n), make([]float64, n)
	for j := range n {
		s.lc[j], s.uc[j] = p.colLo[j]/s.dc[j], p.colHi[j]/s.dc[j]
	}
	s.c = make([]float64, n)
	s.x, s.y = make([]float64, n), make([]float64, m)
	s.ax, s.aty = make([]float64, m), make([]float64, n)
	// Start inside the bounds.
	for j := range n {
		s.x[j] = clamp(0, s.lc[j], s.uc[j])
	}
	s.mulA(s.x, s.ax)
	s.ready = true
	s.setObjective(s.obj)
	return nil
}

type pdhgModel struct {
	o    PDHGOptions
	p    *Problem
	m, n int

	// Scaled problem: Ã = diag(dr) A diag(dc), x = dc∘x̃, y = dr∘ỹ.
	rowStart       []int
	colIdx         []int32
	val            []float64
	colStart       []int
	rowIdx         []int32
	valT           []float64
	dr, dc         []float64
	c              []float64
	lr, ur, lc, uc []float64
	bnorm, cnorm   float64
	x, y, ax, aty  []float64
	obj            []float64 // the unscaled objective
	eta, omega     float64
	warm           bool
	ready          bool // set up: scaled, transposed
}

func ones(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 1
	}
	return v
}

func clamp(v, lo, hi float64) float64 { return min(max(v, lo), hi) }

// scale applies 10 rounds of Ruiz equilibration (rows and columns divided
// by the square root of their largest entry) and one round of
// Pock-Chambolle scaling with alpha = 1.
// It stops with an error wrapping ctx.Err() between rounds once ctx has
// ended.
func (s *pdhgModel) scale(ctx context.Context) error {
	rowMax := make([]float64, s.m)
	colMax := make([]float64, s.n)
	for range 10 {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("lp: pdhg: scaling: %w", err)
		}
		clear(rowMax)
		clear(colMax)
		for i := range s.m {
			for k := s.rowStart[i]; k < s.rowStart[i+1]; k++ {
				a := math.Abs(s.val[k])
				rowMax[i] = max(rowMax[i], a)
				colMax[s.colIdx[k]] = max(colMax[s.colIdx[k]], a)
			}
		}
		s.applyScale(rowMax, colMax, math.Sqrt)
	}
	clear(rowMax)
	clear(colMax)
	for i := range s.m {
		for k := s.rowStart[i]; k < s.rowStart[i+1]; k++ {
			a := math.Abs(s.val[k])
			rowMax[i] += a
			colMax[s.colIdx[k]] += a
		}
	}
	s.applyScale(rowMax, colMax, math.Sqrt)
	return ctx.Err()
}

// applyScale divides row i by f(r[i]) and column j by f(c[j]).
func (s *pdhgModel) applyScale(r, c []float64, f func(float64) float64) {
	for i := range r {
		if r[i] > 0 {
			r[i] = 1 / f(r[i])
		} else {
			r[i] = 1
		}
	}
	for j := range c {
		if c[j] > 0 {
			c[j] = 1 / f(c[j])
		} else {
			c[j] = 1
		}
	}
	for i := range s.m {
		for k := s.rowStart[i]; k < s.rowStart[i+1]; k++ {
			s.val[k] *= r[i] * c[s.colIdx[k]]
		}
		s.dr[i] *= r[i]
	}
	for j := range s.n {
		s.dc[j] *= c[j]
	}
}

// transpose builds the column-compressed copy of the scaled A.
func (s *pdhgModel) transpose() {
	s.colStart = make([]int, s.n+1)
	for _, j := range s.colIdx {
		s.colStart[j+1]++
	}
	for j := range s.n {
		s.colStart[j+1] += s.colStart[j]
	}
	s.rowIdx = make([]int32, len(s.colIdx))
	s.valT = make([]float64, len(s.val))
	next := append([]int(nil), s.colStart[:s.n]...)
	for i := range s.m {
		for k := s.rowStart[i]; k < s.rowStart[i+1]; k++ {
			j := s.colIdx[k]
			s.rowIdx[next[j]] = int32(i)
			s.valT[next[j]] = s.val[k]
			next[j]++
		}
	}
}

// mulA sets out = Ã x.
func (s *pdhgModel) mulA(x, out []float64) { mulSparse(s.rowStart, s.colIdx, s.val, x, out[:s.m]) }

// mulAT sets out = Ã' y.
func (s *pdhgModel) mulAT(y, out []float64) { mulSparse(s.colStart, s.rowIdx, s.valT, y, out[:s.n]) }

// mulSparse sets out = M x for the matrix M of len(out) rows stored by
// rows: row i's entries val[k] in columns idx[k], k from start[i] to
// start[i+1].
func mulSparse(start []int, idx []int32, val, x, out []float64) {
	for i := range out {
		v := 0.0
		for k := start[i]; k < start[i+1]; k++ {
			v += val[k] * x[idx[k]]
		}
		out[i] = v
	}
}

func (s *pdhgModel) SetObjective(c []float64) { s.setObjective(c) }

// setObjective keeps c, and scales it once the model is set up.
func (s *pdhgModel) setObjective(c []float64) {
	if len(c) != s.n {
		panic("lp: SetObjective with the wrong number of coefficients")
	}
	copy(s.obj, c)
	if !s.ready {
		return
	}
	s.cnorm = 0
	for j := range s.n {
		s.c[j] = c[j] * s.dc[j]
		s.cnorm += c[j] * c[j]
	}
	s.cnorm = math.Sqrt(s.cnorm)
	s.bnorm = 0
	for i := range s.m {
		for _, v := range [2]float64{s.p.rowLo[i], s.p.rowHi[i]} {
			if !math.IsInf(v, 0) {
				s.bnorm += v * v
			}
		}
	}
	s.bnorm = math.Sqrt(s.bnorm)
}

func (s *pdhgModel) Close() {}

// kkt holds the residuals of an iterate, unscaled.
type kkt struct {
	primal, dual, gap, pobj, dobj float64
}

// errors evaluates the residuals of (x, y) given ax = Ãx and aty = Ã'y.
func (s *pdhgModel) errors(x, y, ax, aty []float64) kkt {
	var k kkt
	var pres, dres float64
	for i := range s.m {
		v := ax[i] / s.dr[i] // (A x)_i unscaled
		lo, hi := s.p.rowLo[i], s.p.rowHi[i]
		if v < lo {
			pres += (lo - v) * (lo - v)
		} else if v > hi {
			pres += (v - hi) * (v - hi)
		}
		// g*(y): y_i >= 0 pairs with hi, y_i <= 0 with lo (unscaled y = dr∘ỹ).
		yi := y[i] * s.dr[i]
		if yi > 0 {
			k.dobj -= yi * hi
		} else if yi < 0 {
			k.dobj -= yi * lo
		}
	}
	for j := range s.n {
		xj := x[j] * s.dc[j]
		k.pobj += s.obj[j] * xj
		r := s.obj[j] + aty[j]/s.dc[j]
		lo, hi := s.p.colLo[j], s.p.colHi[j]
		switch {
		case r > 0 && math.IsInf(lo, -1), r < 0 && math.IsInf(hi, 1):
			dres += r * r
		case r > 0:
			k.dobj += r * lo
		case r < 0:
			k.dobj += r * hi
		}
	}
	k.primal, k.dual = math.Sqrt(pres), math.Sqrt(dres)
	k.gap = math.Abs(k.pobj - k.dobj)
	return k
}

// converged reports whether k meets the tolerance.
func (s *pdhgModel) converged(k kkt) bool {
	t := s.o.Tol
	return k.primal <= t*(1+s.bnorm) && k.dual <= t*(1+s.cnorm) && k.gap <= t*(1+math.Abs(k.pobj)+math.Abs(k.dobj))
}

// score is the restart criterion's KKT error, weighted by the primal
// weight.
func (s *pdhgModel) score(k kkt) float64 {
	w := s.omega
	return math.Sqrt(w*w*k.primal*k.primal + k.dual*k.dual/(w*w) + k.gap*k.gap)
}

func (s *pdhgModel) Solve(ctx context.Context) (Solution, error) {
	n, m := s.n, s.m
	if !s.ready {
		if err := s.setup(ctx); err != nil {
			return s.start(), nil
		}
	}
	if !s.warm {
		s.warmUp()
	}
	x, y, ax, aty := s.x, s.y, s.ax, s.aty
	nx, ny, nax, naty := make([]float64, n), make([]float64, m), make([]float64, m), make([]float64, n)
	// Averages since the last restart, weighted by the step sizes.
	sx, sy, sax, saty := make([]float64, n), make([]float64, m), make([]float64, m), make([]float64, n)
	wsum := 0.0
	// Restart bookkeeping.
	lastX, lastY := append([]float64(nil), x...), append([]float64(nil), y...)
	lastScore := s.score(s.errors(x, y, ax, aty))
	prevCand := math.Inf(1)
	sinceRestart := 0
	const checkEvery = 64

	for it := 1; it <= s.o.MaxIter; it++ {
		// One step with an adaptive step size (PDLP).
		for {
			tau, sigma := s.eta/s.omega, s.eta*s.omega
			for j := range n {
				nx[j] = clamp(x[j]-tau*(s.c[j]+aty[j]), s.lc[j], s.uc[j])
			}
			s.mulA(nx, nax)
			for i := range m {
				v := y[i] + sigma*(2*nax[i]-ax[i])
				ny[i] = v - sigma*clamp(v/sigma, s.lr[i], s.ur[i])
			}
			s.mulAT(ny, naty)
			dx2 := sqDist(nx, x)
			var dy2, inter float64
			for i := range m {
				d := ny[i] - y[i]
				dy2 += d * d
				inter += d * (nax[i] - ax[i])
			}
			movement := 0.5*s.omega*dx2 + 0.5*dy2/s.omega
			limit := math.Inf(1)
			if inter != 0 {
				limit = movement / math.Abs(inter)
			}
			k := float64(it)
			next := min((1-math.Pow(k+1, -0.3))*limit, (1+math.Pow(k+1, -0.6))*s.eta)
			if s.eta <= limit {
				w := s.eta
				s.eta = next
				x, nx = nx, x
				y, ny = ny, y
				ax, nax = nax, ax
				aty, naty = naty, aty
				for j := range n {
					sx[j] += w * x[j]
					saty[j] += w * aty[j]
				}
				for i := range m {
					sy[i] += w * y[i]
					sax[i] += w * ax[i]
				}
				wsum += w
				break
			}
			s.eta = next
		}
		sinceRestart++
		// The context every iteration: one costs two products with A,
		// which take up to a tenth of a second on large problems.
		if err := ctx.Err(); err != nil {
			s.x, s.y, s.ax, s.aty = x, y, ax, aty
			return s.solution(Stopped, it), nil
		}
		if it%checkEvery != 0 && it != s.o.MaxIter {
			continue
		}
		cur := s.errors(x, y, ax, aty)
		if s.converged(cur) {
			s.x, s.y, s.ax, s.aty = x, y, ax, aty
			return s.solution(Optimal, it), nil
		}
		// The restart candidate: the average or the current iterate.
		inv := 1 / wsum
		for j := range n {
			nx[j], naty[j] = sx[j]*inv, saty[j]*inv
		}
		for i := range m {
			ny[i], nax[i] = sy[i]*inv, sax[i]*inv
		}
		avg := s.errors(nx, ny, nax, naty)
		candScore, useAvg := s.score(cur), false
		if sa := s.score(avg); sa < candScore {
			candScore, useAvg = sa, true
		}
		if useAvg && s.converged(avg) {
			copy(x, nx)
			copy(y, ny)
			copy(ax, nax)
			copy(aty, naty)
			s.x, s.y, s.ax, s.aty = x, y, ax, aty
			return s.solution(Optimal, it), nil
		}
		restart := candScore <= 0.2*lastScore ||
			(candScore <= 0.8*lastScore && candScore > prevCand) ||
			float64(sinceRestart) >= 0.36*float64(it)
		prevCand = candScore
		if !restart {
			continue
		}
		if useAvg {
			copy(x, nx)
			copy(y, ny)
			copy(ax, nax)
			copy(aty, naty)
		}
		s.reweigh(x, y, lastX, lastY)
		copy(lastX, x)
		copy(lastY, y)
		lastScore = candScore
		prevCand = math.Inf(1)
		sinceRestart = 0
		clear(sx)
		clear(sy)
		clear(sax)
		clear(saty)
		wsum = 0
	}
	s.x, s.y, s.ax, s.aty = x, y, ax, aty
	return s.solution(Stopped, s.o.MaxIter), nil
}

// start is the answer of a solve stopped before its first iteration: x = 0
// moved inside the bounds.
func (s *pdhgModel) start() Solution {
	x := make([]float64, s.n)
	v := 0.0
	for j := range x {
		x[j] = clamp(0, s.p.colLo[j], s.p.colHi[j])
		v += s.obj[j] * x[j]
	}
	return Solution{Status: Stopped, X: x, Objective: v}
}

// warmUp sets the first step size and primal weight.
func (s *pdhgModel) warmUp() {
	s.mulAT(s.y, s.aty)
	s.eta = 1 / maxAbs(s.val)
	s.omega = 1
	if s.cnorm > 1e-10 && s.bnorm > 1e-10 {
		s.omega = s.cnorm / s.bnorm
	}
	s.warm = true
}

// reweigh updates the primal weight at a restart, balancing the distances
// x and y moved since the last one (from lastX, lastY).
func (s *pdhgModel) reweigh(x, y, lastX, lastY []float64) {
	ddx, ddy := sqDist(x, lastX), sqDist(y, lastY)
	if ddx > 1e-20 && ddy > 1e-20 {
		s.omega = math.Exp(0.5*math.Log(math.Sqrt(ddy/ddx)) + 0.5*math.Log(s.omega))
	}
}

// solution unscales the current iterate.
func (s *pdhgModel) solution(st Status, it int) Solution {
	x := make([]float64, s.n)
	for j := range x {
		x[j] = s.x[j] * s.dc[j]
	}
	v := 0.0
	for j, c := range s.obj {
		v += c * x[j]
	}
	return Solution{Status: st, X: x, Objective: v, Iterations: it}
}

// sqDist returns the squared Euclidean distance of a and b (as long as a).
func sqDist(a, b []float64) float64 {
	b = b[:len(a)]
	s := 0.0
	for i, v := range a {
		d := v - b[i]
		s += d * d
	}
	return s
}

func maxAbs(v []float64) float64 {
	m := 0.0
	for _, a := range v {
		m = max(m, math.Abs(a))
	}
	if m == 0 {
		return 1
	}
	return m
}

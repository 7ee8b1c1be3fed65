package sdp

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
)

// IPM is the pure-Go solver: an infeasible primal-dual interior-point
// method with the HKM search direction (Helmberg, Rendl, Vanderbei and
// Wolkowicz 1996; Kojima, Shindoh and Hara 1997; Monteiro 1997) and
// Mehrotra's predictor-corrector, as in CSDP (Borchers, "CSDP, a C library
// for semidefinite programming", 1999) and SDPT3 (Toh, Todd and Tütüncü,
// "SDPT3 - a MATLAB software package for semidefinite programming", 1999).
// Its zero value is ready to use.
//
// The start is CSDP's (X = xi I, Z = eta I per block, y = 0; infeasible).
// Each iteration forms the Schur complement M_ij = <A_i, X A_j Z^{-1}>
// block by block, exploiting sparse A_i: from A_i X and A_j Z^{-1} on the
// rows where A_i and A_j have entries (rows_i rows_j flops a pair), or
// through the dense X A_j Z^{-1} where that is cheaper (the choice CSDP and
// SDPT3 make per constraint). M is ordered with the constraints local to
// one block first, grouped by block, and the others last, and factored by
// an envelope Cholesky that skips the zeros left of each row's first entry
// (dense when every constraint touches every block), once per iteration
// (adding a little to its diagonal if it will not factor), then solved
// twice (predictor, corrector). A step length is 1 when X + dX/gamma factors,
// else gamma / -lambda_min(L^{-1} dX L^{-T}) (Householder and QL); the
// centring parameter and the step factor gamma follow SDPT3. It stops when
// the relative primal and dual infeasibilities and the relative gaps (of
// the objectives and <X, Z>) are under Tol.
//
// Infeasibility is detected as CSDP does, from diverging iterates: the
// primal is declared infeasible when -b'y / ||A'(y) - Z|| (in CSDP's
// convention) exceeds 1e8 while the primal residual is over Tol, the dual
// infeasible when <C, X> / ||A(X)|| exceeds 1e8 while the dual residual is
// over Tol. This finds strongly infeasible problems (those with a strict
// certificate); weakly infeasible or ill-posed problems (no strict
// certificate, no interior) end in ErrNumerical, NearOptimal or ErrBudget
// instead. The tests cannot misfire on a problem within range: by weak
// duality the first ratio is at most ||X||_F for every feasible X, and the
// second at most ||y||_2 for every dual feasible y, so a problem with a
// feasible X (a dual feasible y) of norm under 1e8 is never called
// infeasible (unbounded).
//
// Cost per iteration: about 30 n_b^3 flops per block, the Schur complement
// (at most m^2 n_b^2 per block, much less for sparse A_i) and at most
// m^3/3 for its factorisation (much less for block-local constraints). Memory: the dense m x m Schur complement twice and about
// 24 n_b x n_b matrices per block; Solve refuses (ErrBudget) a problem
// whose estimate exceeds MaxBytes.
type IPM struct {
	// Tol is the relative tolerance on the infeasibilities and the gap
	// (0: 1e-8).
	Tol float64
	// MaxIter bounds the iterations (0: 100).
	MaxIter int
	// MaxBytes bounds the memory of a solve (0: DefaultMaxBytes).
	MaxBytes int64
}

// infeasRatio is CSDP's pinftol and dinftol.
const infeasRatio = 1e8

// psdPart is the Schur data of one constraint in one matrix block: the
// entries in both triangles (fr, fc, fv), grouped by row (rows lists the
// distinct rows, rowPtr their ranges).
type psdPart struct {
	con    int
	fr, fc []int32
	fv     []float64
	rows   []int32
	rowPtr []int32
	dense  bool // form X A Z^{-1} densely for the pairs below
	off    int  // offset of this part's rows in the Schur work arrays
	pos    int  // the constraint's row in the Schur complement
}

// diagCol lists the constraints with an entry at one index of a diagonal
// block, by constraint.
type diagCol struct {
	con []int32 // rows in the Schur complement, increasing
	val []float64
}

type ipmState struct {
	md  *model
	tol float64
	// iterates and work, per block
	x, z, dx, dz, rd, zi, g, w1, w2, lxi, lzi [][]float64
	y, dy, rp, h, rhs, ax                     []float64
	mat, fac                                  []float64 // Schur complement and its factor (lower)
	psd                                       [][]psdPart
	diag                                      [][]diagCol
	u, pw, t                                  []float64 // Schur work
	pos, first                                []int     // Schur row of each constraint; envelope of each row
	perm                                      []float64 // right-hand side in Schur order
	ed, ee                                    []float64 // eigen work
}

// Solve solves p; see Solver.
func (s IPM) Solve(ctx context.Context, p *Problem) (*Solution, error) {
	md, err := newDenseModel(p, s.MaxBytes)
	if err != nil {
		return nil, err
	}
	st := newIPMState(md, s)
	maxIter := s.MaxIter
	if maxIter <= 0 {
		maxIter = 100
	}
	return st.run(ctx, maxIter)
}

func newIPMState(md *model, s IPM) *ipmState {
	st := &ipmState{md: md, tol: s.Tol}
	if st.tol <= 0 {
		st.tol = 1e-8
	}
	for _, f := range []*[][]float64{&st.x, &st.z, &st.dx, &st.dz, &st.rd, &st.zi, &st.g, &st.w1, &st.w2, &st.lxi, &st.lzi} {
		*f = md.newBlocks()
	}
	m := md.m
	for _, f := range []*[]float64{&st.y, &st.dy, &st.rp, &st.h, &st.rhs, &st.ax} {
		*f = make([]float64, m)
	}
	st.mat = make([]float64, m*m)
	st.fac = make([]float64, m*m)
	st.perm = make([]float64, m)
	st.order()
	maxN := 1
	st.psd = make([][]psdPart, len(md.blocks))
	st.diag = make([][]diagCol, len(md.blocks))
	maxU := 1
	for k, b := range md.blocks {
		n := b.Size
		maxN = max(maxN, n)
		if b.Diagonal {
			cols := make([]diagCol, n)
			for _, pt := range md.byBlock[k] {
				for e, i := range pt.i {
					cols[i].con = append(cols[i].con, int32(st.pos[pt.con]))
					cols[i].val = append(cols[i].val, pt.v[e])
				}
			}
			for _, col := range cols {
				sort.Sort(byRow(col))
			}
			st.diag[k] = cols
			continue
		}
		parts := make([]psdPart, len(md.byBlock[k]))
		totalRows := 0
		for q, pt := range md.byBlock[k] {
			pp := &parts[q]
			pp.con = pt.con
			pp.pos = st.pos[pt.con]
			type fe struct {
				r, c int32
				v    float64
			}
			full := make([]fe, 0, 2*len(pt.v))
			for e := range pt.v {
				full = append(full, fe{pt.i[e], pt.j[e], pt.v[e]})
				if pt.i[e] != pt.j[e] {
					full = append(full, fe{pt.j[e], pt.i[e], pt.v[e]})
				}
			}
			slices.SortFunc(full, func(a, b fe) int {
				if a.r != b.r {
					return int(a.r - b.r)
				}
				return int(a.c - b.c)
			})
			pp.fr = make([]int32, 0, len(full))
			pp.fc = make([]int32, 0, len(full))
			pp.fv = make([]float64, 0, len(full))
			for e, f := range full {
				if e == 0 || f.r != full[e-1].r {
					pp.rows = append(pp.rows, f.r)
					pp.rowPtr = append(pp.rowPtr, int32(e))
				}
				pp.fr = append(pp.fr, f.r)
				pp.fc = append(pp.fc, f.c)
				pp.fv = append(pp.fv, f.v)
			}
			pp.rowPtr = append(pp.rowPtr, int32(len(full)))
			pp.off = totalRows * n
			totalRows += len(pp.rows)
		}
		maxU = max(maxU, totalRows*n)
		// Sparse or dense formula for each j: the sparse one costs
		// rows_i rows_j for each pair i >= j, the dense one n^2 rows_j to
		// form X A_j Z^{-1} and then len(F_i) per pair.
		sumRows, sumFull := 0, 0
		for q := len(parts) - 1; q >= 0; q-- {
			sumRows += len(parts[q].rows)
			sumFull += len(parts[q].fv)
			r := len(parts[q].rows)
			parts[q].dense = r*sumRows > n*n*r+sumFull
		}
		st.psd[k] = parts
	}
	st.u = make([]float64, maxU)
	st.pw = make([]float64, maxU)
	st.t = make([]float64, maxN*maxN)
	st.ed = make([]float64, maxN)
	st.ee = make([]float64, maxN)
	return st
}

// start sets CSDP's initial point (initsoln.c): per block X = xi I with
// xi = max(10, sqrt(n), max_i sqrt(n)(1+|b_i|)/(1+||A_i||)) and Z = eta I
// with eta = max(10, sqrt(n), ||C||, max_i ||A_i||), norms over the block;
// y = 0.
func (st *ipmState) start() {
	md := st.md
	for k, b := range md.blocks {
		n := b.Size
		sq := math.Sqrt(float64(n))
		xi, eta := max(10, sq), max(10, sq)
		cn := 0.0
		for _, v := range md.c[k] {
			cn += v * v
		}
		eta = max(eta, math.Sqrt(cn))
		for _, pt := range md.byBlock[k] {
			an := 0.0
			for e, v := range pt.v {
				if pt.i[e] == pt.j[e] {
					an += v * v
				} else {
					an += 2 * v * v
				}
			}
			an = math.Sqrt(an)
			xi = max(xi, sq*(1+math.Abs(md.b[pt.con]))/(1+an))
			eta = max(eta, an)
		}
		clear(st.x[k])
		clear(st.z[k])
		if b.Diagonal {
			for i := range n {
				st.x[k][i], st.z[k][i] = xi, eta
			}
		} else {
			for i := range n {
				st.x[k][i*n+i], st.z[k][i*n+i] = xi, eta
			}
		}
	}
	clear(st.y)
}

func (st *ipmState) run(ctx context.Context, maxIter int) (*Solution, error) {
	md := st.md
	st.start()
	nTot := float64(md.n)
	iter := 0
	var status Status
	var cause error
	for {
		// Residuals: rp = b - A(X), rd = c - Z - A'y.
		md.opA(st.x, st.ax)
		for i := range st.rp {
			st.rp[i] = md.b[i] - st.ax[i]
		}
		for k := range st.rd {
			rd, c, z := st.rd[k], md.c[k], st.z[k]
			for i := range rd {
				rd[i] = c[i] - z[i]
			}
		}
		md.opAT(-1, st.y, st.rd)
		pobj, dobj := dot(md.c, st.x), dotVec(md.b, st.y)
		xz := dot(st.x, st.z)
		pinf := norm2(st.rp) / (1 + md.normB)
		dinf := normF(st.rd) / (1 + md.normC)
		den := 1 + math.Abs(pobj) + math.Abs(dobj)
		gap := max(math.Abs(pobj-dobj), xz) / den
		if pinf < st.tol && dinf < st.tol && gap < st.tol {
			status = Optimal
			break
		}
		// Infeasibility (CSDP's test, in the internal minimisation: a
		// primal certificate has b'y > 0 and A'y <= 0, A'y + Z = c - rd).
		if dobj > 0 && pinf > st.tol {
			if r := dobj / normDiff(md.c, st.rd); r > infeasRatio {
				status = Infeasible
				break
			}
		}
		if pobj < 0 && dinf > st.tol {
			if r := -pobj / norm2(st.ax); r > infeasRatio {
				status = Unbounded
				break
			}
		}
		if err := ctx.Err(); err != nil {
			status, cause = Stopped, fmt.Errorf("%w: %w after %d iterations", ErrBudget, err, iter)
			break
		}
		if iter >= maxIter {
			status, cause = Stopped, fmt.Errorf("%w: %d iterations", ErrBudget, iter)
			break
		}
		ok := st.step(nTot, xz)
		iter++
		if !ok {
			status, cause = Failed, fmt.Errorf("%w: no progress at iteration %d (relative primal infeasibility %.2g, dual %.2g, gap %.2g)", ErrNumerical, iter, pinf, dinf, gap)
			if max(pinf, dinf, gap) < 1e3*st.tol {
				status, cause = NearOptimal, nil
			}
			break
		}
	}
	return st.solution(status, iter), st.wrap(status, cause)
}

// normDiff returns ||a - b||_F.
func normDiff(a, b [][]float64) float64 {
	s := 0.0
	for k := range a {
		bk := b[k]
		for i, v := range a[k] {
			d := v - bk[i]
			s += d * d
		}
	}
	return math.Sqrt(s)
}

func (st *ipmState) wrap(status Status, cause error) error {
	switch status {
	case Optimal, NearOptimal:
		return nil
	case Infeasible:
		return ErrInfeasible
	case Unbounded:
		return ErrUnbounded
	}
	return cause
}

// solution builds the Solution of the current iterate (or certificate).
func (st *ipmState) solution(status Status, iter int) *Solution {
	md := st.md
	x, z := md.newBlocks(), md.newBlocks()
	y := make([]float64, md.m)
	for k := range x {
		copy(x[k], st.x[k])
		copy(z[k], st.z[k])
	}
	for i, v := range st.y {
		y[i] = md.sign * v
	}
	switch status {
	case Infeasible:
		// y_cert = -y/b'y: b'y_cert = -1, sum y_cert A_i = Z/b'y >= 0.
		by := dotVec(md.b, st.y)
		for i, v := range st.y {
			y[i] = -v / by
		}
		for k := range z {
			clear(z[k])
		}
		md.opAT(1, y, z)
		for k := range x {
			clear(x[k])
		}
	case Unbounded:
		// X/(-<c, X>): <c, X> = -1, so <C, X> = -sign.
		cx := -dot(md.c, st.x)
		for k := range x {
			for i := range x[k] {
				x[k][i] /= cx
			}
			clear(z[k])
		}
		clear(y)
	}
	sol := &Solution{Status: status, X: md.matrices(x), Z: md.matrices(z), Y: y, Iterations: iter}
	md.measure(sol)
	return sol
}

// step makes one predictor-corrector iteration; it reports false when the
// Schur complement does not factor or the steps vanish.
func (st *ipmState) step(nTot, xz float64) bool {
	md := st.md
	mu := xz / nTot
	// Factor X and Z, Z^{-1}.
	for k, b := range md.blocks {
		n := b.Size
		if b.Diagonal {
			for i, v := range st.z[k] {
				st.zi[k][i] = 1 / v
			}
			continue
		}
		copy(st.w1[k], st.x[k])
		if !cholesky(st.w1[k], n) {
			return false
		}
		invLower(st.w1[k], st.lxi[k], n)
		copy(st.w1[k], st.z[k])
		if !cholesky(st.w1[k], n) {
			return false
		}
		invLower(st.w1[k], st.lzi[k], n)
		gramLowerT(st.lzi[k], st.zi[k], n)
	}
	// h = A(sym(X rd Z^{-1})).
	for k, b := range md.blocks {
		n := b.Size
		if b.Diagonal {
			for i, v := range st.rd[k] {
				st.w1[k][i] = st.x[k][i] * v * st.zi[k][i]
			}
			continue
		}
		matMul(st.w2[k], st.x[k], st.rd[k], n)
		matMul(st.w1[k], st.w2[k], st.zi[k], n)
	}
	md.opA(st.w1, st.h)
	// Schur complement.
	st.schur()
	if !st.factor() {
		return false
	}
	// Predictor: G = 0.
	for k := range st.g {
		clear(st.g[k])
	}
	st.direction()
	ap := st.stepLength(st.x, st.dx, st.lxi, 0.95)
	ad := st.stepLength(st.z, st.dz, st.lzi, 0.95)
	// mu after the predictor step.
	muAff := 0.0
	for k := range md.blocks {
		x, z, dx, dz := st.x[k], st.z[k], st.dx[k], st.dz[k]
		for i := range x {
			muAff += (x[i] + ap*dx[i]) * (z[i] + ad*dz[i])
		}
	}
	muAff /= nTot
	expon := max(1, 3*min(ap, ad)*min(ap, ad))
	sigma := 1.0
	if muAff > 0 && mu > 0 {
		sigma = min(1, math.Pow(muAff/mu, expon))
	}
	gamma := 0.9 + 0.09*min(ap, ad)
	// Corrector: G = sigma mu Z^{-1} - sym(dXp dZp Z^{-1}).
	for k, b := range md.blocks {
		n := b.Size
		g, zi := st.g[k], st.zi[k]
		if b.Diagonal {
			for i := range g {
				g[i] = (sigma*mu - st.dx[k][i]*st.dz[k][i]) * zi[i]
			}
			continue
		}
		matMul(st.w2[k], st.dx[k], st.dz[k], n)
		matMul(g, st.w2[k], zi, n)
		symmetrize(g, n)
		for i := range g {
			g[i] = sigma*mu*zi[i] - g[i]
		}
	}
	st.direction()
	ap = st.stepLength(st.x, st.dx, st.lxi, gamma)
	ad = st.stepLength(st.z, st.dz, st.lzi, gamma)
	if !(ap > 1e-10) && !(ad > 1e-10) {
		return false
	}
	// Rounding can leave X + ap dX or Z + ad dZ just outside the cone:
	// shorten such a step.
	for !st.inside(st.x, st.dx, ap) {
		if ap *= 0.8; ap < 1e-10 {
			return false
		}
	}
	for !st.inside(st.z, st.dz, ad) {
		if ad *= 0.8; ad < 1e-10 {
			return false
		}
	}
	for k := range st.x {
		x, dx, z, dz := st.x[k], st.dx[k], st.z[k], st.dz[k]
		for i := range x {
			x[i] += ap * dx[i]
			z[i] += ad * dz[i]
		}
	}
	for i := range st.y {
		st.y[i] += ad * st.dy[i]
	}
	return true
}

// direction solves for (dX, dy, dZ) given G: M dy = b - A(G) + h,
// dZ = rd - A'dy, dX = G - X - sym(X dZ Z^{-1}).
func (st *ipmState) direction() {
	md := st.md
	md.opA(st.g, st.rhs)
	for i := range st.rhs {
		st.rhs[i] = md.b[i] - st.rhs[i] + st.h[i]
	}
	for i, p := range st.pos {
		st.perm[p] = st.rhs[i]
	}
	cholSolveEnvelope(st.fac, st.perm, md.m, st.first)
	for i, p := range st.pos {
		st.dy[i] = st.perm[p]
	}
	for k := range st.dz {
		copy(st.dz[k], st.rd[k])
	}
	md.opAT(-1, st.dy, st.dz)
	for k, b := range md.blocks {
		n := b.Size
		x, dx, dz, zi, g := st.x[k], st.dx[k], st.dz[k], st.zi[k], st.g[k]
		if b.Diagonal {
			for i := range dx {
				dx[i] = g[i] - x[i] - x[i]*dz[i]*zi[i]
			}
			continue
		}
		matMul(st.w2[k], x, dz, n)
		matMul(dx, st.w2[k], zi, n)
		symmetrize(dx, n)
		for i := range dx {
			dx[i] = g[i] - x[i] - dx[i]
		}
	}
}

// stepLength returns min(1, frac * alpha_max), alpha_max the largest alpha
// with V + alpha dV >= 0, li holding L^{-1} for V = L L' in matrix blocks.
// A block where V + dV/frac factors allows the full step without its
// smallest eigenvalue; elsewhere alpha_max is -1/lambda_min(L^{-1} dV L^{-T}).
func (st *ipmState) stepLength(v, dv, li [][]float64, frac float64) float64 {
	alpha := math.Inf(1)
	for k, b := range st.md.blocks {
		n := b.Size
		if b.Diagonal {
			for i, d := range dv[k] {
				if d < 0 {
					alpha = min(alpha, -v[k][i]/d)
				}
			}
			continue
		}
		w, vk, dk := st.w1[k], v[k], dv[k]
		for i := range vk {
			w[i] = vk[i] + dk[i]/frac
		}
		if cholesky(w, n) {
			continue
		}
		congruence(li[k], dv[k], st.w1[k], st.w2[k], n)
		lam := minEigen(st.w1[k], st.ed, st.ee, n)
		if math.IsNaN(lam) {
			return 0
		}
		if lam < 0 {
			alpha = min(alpha, -1/lam)
		}
	}
	return min(1, frac*alpha)
}

// factor copies the Schur complement to fac and factors it, adding a
// growing multiple of its diagonal when it does not factor.
func (st *ipmState) factor() bool {
	m := st.md.m
	reg := 0.0
	for try := 0; try < 8; try++ {
		copy(st.fac, st.mat)
		if reg > 0 {
			for i := range m {
				st.fac[i*m+i] += reg * max(st.mat[i*m+i], 1e-300)
			}
		}
		if choleskyEnvelope(st.fac, m, st.first) {
			return true
		}
		if reg == 0 {
			reg = 1e-14
		} else {
			reg *= 100
		}
	}
	return false
}

// schur fills the lower triangle of mat with M_ij = <A_i, X A_j Z^{-1}>.
func (st *ipmState) schur() {
	md := st.md
	m := md.m
	mat := st.mat
	clear(mat)
	for k, b := range md.blocks {
		n := b.Size
		x, zi := st.x[k], st.zi[k]
		if b.Diagonal {
			for i, col := range st.diag[k] {
				d := x[i] * zi[i]
				for a, ca := range col.con {
					va := col.val[a] * d
					row := mat[int(ca)*m:]
					for c, cb := range col.con[:a+1] {
						row[cb] += va * col.val[c]
					}
				}
			}
			continue
		}
		parts := st.psd[k]
		// For each part, P = A X and U = A Z^{-1} on the rows of A.
		for q := range parts {
			pq := &parts[q]
			for t := range pq.rows {
				pt := st.pw[pq.off+t*n : pq.off+t*n+n]
				ut := st.u[pq.off+t*n : pq.off+t*n+n]
				clear(pt)
				clear(ut)
				for e := pq.rowPtr[t]; e < pq.rowPtr[t+1]; e++ {
					w := pq.fv[e]
					c := int(pq.fc[e]) * n
					axpyUnrolled(w, x[c:c+n], pt)
					axpyUnrolled(w, zi[c:c+n], ut)
				}
			}
		}
		for jj := range parts {
			pj := &parts[jj]
			nr := len(pj.rows)
			u := st.u[pj.off : pj.off+nr*n]
			if pj.dense {
				// T = X[:, rows] U = X A_j Z^{-1}; M_ij = sum over the
				// entries (p, q, v) of A_i of v T[q, p].
				t := st.t[:n*n]
				clear(t)
				for q := range n {
					tq := t[q*n : q*n+n]
					xq := x[q*n : q*n+n]
					for r, row := range pj.rows {
						if a := xq[row]; a != 0 {
							axpyUnrolled(a, u[r*n:r*n+n], tq)
						}
					}
				}
				for ii := jj; ii < len(parts); ii++ {
					pi := &parts[ii]
					s := 0.0
					for e, v := range pi.fv {
						s += v * t[int(pi.fc[e])*n+int(pi.fr[e])]
					}
					mat[max(pi.pos, pj.pos)*m+min(pi.pos, pj.pos)] += s
				}
				continue
			}
			// M_ij = tr(A_i X A_j Z^{-1}) = sum over a in rows_i, b in
			// rows_j of (A_i X)[a, b] (A_j Z^{-1})[b, a].
			for ii := jj; ii < len(parts); ii++ {
				pi := &parts[ii]
				s := 0.0
				for a, ra := range pi.rows {
					pa := st.pw[pi.off+a*n : pi.off+a*n+n]
					for b, rb := range pj.rows {
						s += pa[rb] * u[b*n+int(ra)]
					}
				}
				mat[max(pi.pos, pj.pos)*m+min(pi.pos, pj.pos)] += s
			}
		}
	}
}

// inside reports whether V + alpha dV is positive definite (blocks) and
// positive (diagonal blocks).
func (st *ipmState) inside(v, dv [][]float64, alpha float64) bool {
	for k, b := range st.md.blocks {
		w, vk, dk := st.w1[k], v[k], dv[k]
		for i := range vk {
			w[i] = vk[i] + alpha*dk[i]
		}
		if b.Diagonal {
			for _, x := range w {
				if !(x > 0) {
					return false
				}
			}
			continue
		}
		if !cholesky(w, b.Size) {
			return false
		}
	}
	return true
}

// order numbers the constraints for the Schur complement: those touching
// one block first, grouped by block, then the others, so that M has a
// small envelope (row i has no entry left of first[i]) when most
// constraints are local to a block. M_ij can be non-zero only when
// constraints i and j share a matrix block or an index of a diagonal
// block.
func (st *ipmState) order() {
	md := st.md
	m := md.m
	type key struct{ multi, blk, con int }
	keys := make([]key, m)
	for ci, parts := range md.cons {
		k := key{0, parts[0].blk, ci}
		if len(parts) > 1 {
			k.multi = 1
		}
		keys[ci] = k
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.multi, b.multi), cmp.Compare(a.blk, b.blk), cmp.Compare(a.con, b.con))
	})
	st.pos = make([]int, m)
	for p, k := range keys {
		st.pos[k.con] = p
	}
	st.first = make([]int, m)
	for p := range st.first {
		st.first[p] = p
	}
	var group []int
	lower := func() {
		lo := m
		for _, p := range group {
			lo = min(lo, p)
		}
		for _, p := range group {
			st.first[p] = min(st.first[p], lo)
		}
	}
	for k, b := range md.blocks {
		if !b.Diagonal {
			group = group[:0]
			for _, pt := range md.byBlock[k] {
				group = append(group, st.pos[pt.con])
			}
			lower()
			continue
		}
		byIndex := make([][]int, b.Size)
		for _, pt := range md.byBlock[k] {
			for _, i := range pt.i {
				byIndex[i] = append(byIndex[i], st.pos[pt.con])
			}
		}
		for _, g := range byIndex {
			group = append(group[:0], g...)
			lower()
		}
	}
}

type byRow diagCol

func (c byRow) Len() int           { return len(c.con) }
func (c byRow) Less(i, j int) bool { return c.con[i] < c.con[j] }
func (c byRow) Swap(i, j int) {
	c.con[i], c.con[j] = c.con[j], c.con[i]
	c.val[i], c.val[j] = c.val[j], c.val[i]
}

//go:build csdp

package sdp

/*
#cgo CFLAGS: -I/usr/include/csdp
#cgo LDFLAGS: -lsdp -lm
#include <stdlib.h>
#include <declarations.h>

// The parameters of the next solve, set under the Go mutex.
static struct paramstruc tessera_params;
static volatile int tessera_stop;
static int tessera_iters;
static struct blockrec *tessera_xblocks;

// initparams replaces CSDP's (interposed: libsdp calls it through the PLT):
// CSDP's would read param.csdp from the working directory and print at
// printlevel 1. Ours hands over the parameters set by tessera_setparams
// and printlevel 0.
void initparams(struct paramstruc *params, int *pprintlevel) {
	*params = tessera_params;
	*pprintlevel = 0;
}

// user_exit replaces CSDP's: it counts the iterations (calls with the
// main X, not the affine trial point) and stops the solve (return 1, CSDP
// code 10) when Go asked for it. CSDP's own version may install signal
// handlers (USESIGTERM), which would fight Go's.
int user_exit(int n, int k, struct blockmatrix C, double *a, double dobj,
	double pobj, double constant_offset, struct constraintmatrix *constraints,
	struct blockmatrix X, double *y, struct blockmatrix Z,
	struct paramstruc params) {
	if (__atomic_load_n(&tessera_stop, __ATOMIC_SEQ_CST))
		return 1;
	if (X.blocks == tessera_xblocks)
		tessera_iters++;
	return 0;
}

static void tessera_setparams(double tol, int maxiter) {
	// CSDP 6.2's defaults (initparams.c), with our tolerances.
	tessera_params.axtol = tol;
	tessera_params.atytol = tol;
	tessera_params.objtol = tol;
	tessera_params.pinftol = 1.0e8;
	tessera_params.dinftol = 1.0e8;
	tessera_params.maxiter = maxiter;
	tessera_params.minstepfrac = 0.90;
	tessera_params.maxstepfrac = 0.97;
	tessera_params.minstepp = 1.0e-8;
	tessera_params.minstepd = 1.0e-8;
	tessera_params.usexzgap = 1;
	tessera_params.tweakgap = 0;
	tessera_params.affine = 0;
	tessera_params.perturbobj = 1;
	tessera_params.fastmode = 0;
	tessera_iters = 0;
	__atomic_store_n(&tessera_stop, 0, __ATOMIC_SEQ_CST);
}

static void tessera_requeststop(void) {
	__atomic_store_n(&tessera_stop, 1, __ATOMIC_SEQ_CST);
}

// tessera_solve builds CSDP's data from flat arrays (1-based where CSDP
// wants it), solves with easy_sdp, copies the solution out (x and z in
// the layout of cdata, y with k values) and frees everything. Blocks:
// sizes[b], diag[b]; cdata: per block n+1 (diagonal, index 0 unused) or
// n*n (matrix) values. Parts (a constraint's entries in one block, by
// constraint then block): pcon, pblk (1-based), pstart into ii, jj, vv
// (1-based upper-triangle indices). Returns easy_sdp's code, or -1 when
// memory runs out.
static int tessera_solve(int nblocks, const int *sizes, const int *diag,
	const double *cdata, int cdatalen, int k, const double *b,
	int nparts, const int *pcon, const int *pblk, const int *pstart,
	const int *ii, const int *jj, const double *vv,
	double *xout, double *yout, double *zout, double *pobj, double *dobj,
	int *iters) {
	struct blockmatrix C, X, Z;
	double *a, *y;
	struct constraintmatrix *cons;
	int i, n = 0, off = 0, ret;

	C.nblocks = nblocks;
	C.blocks = calloc(nblocks + 1, sizeof(struct blockrec));
	a = malloc((k + 1) * sizeof(double));
	cons = calloc(k + 1, sizeof(struct constraintmatrix));
	if (C.blocks == NULL || a == NULL || cons == NULL) {
		free(C.blocks); free(a); free(cons);
		return -1;
	}
	for (i = 1; i <= nblocks; i++) {
		int s = sizes[i - 1], len = diag[i - 1] ? s + 1 : s * s;
		C.blocks[i].blocksize = s;
		C.blocks[i].blockcategory = diag[i - 1] ? DIAG : MATRIX;
		C.blocks[i].data.vec = malloc(len * sizeof(double));
		if (C.blocks[i].data.vec == NULL)
			goto oom;
		for (int t = 0; t < len; t++)
			C.blocks[i].data.vec[t] = cdata[off + t];
		off += len;
		n += s;
	}
	for (i = 1; i <= k; i++)
		a[i] = b[i - 1];
	{
		struct sparseblock *tail = NULL;
		int last = 0;
		for (int p = 0; p < nparts; p++) {
			int cnt = pstart[p + 1] - pstart[p];
			struct sparseblock *sb = calloc(1, sizeof(struct sparseblock));
			if (sb == NULL)
				goto oom;
			sb->entries = malloc((cnt + 1) * sizeof(double));
			sb->iindices = malloc((cnt + 1) * sizeof(int));
			sb->jindices = malloc((cnt + 1) * sizeof(int));
			if (pcon[p] != last) {
				cons[pcon[p]].blocks = sb;
				last = pcon[p];
			} else {
				tail->next = sb;
			}
			tail = sb;
			if (sb->entries == NULL || sb->iindices == NULL || sb->jindices == NULL)
				goto oom;
			sb->numentries = cnt;
			sb->blocknum = pblk[p];
			sb->blocksize = sizes[pblk[p] - 1];
			sb->constraintnum = pcon[p];
			sb->issparse = 1;
			for (int t = 0; t < cnt; t++) {
				sb->iindices[t + 1] = ii[pstart[p] + t];
				sb->jindices[t + 1] = jj[pstart[p] + t];
				sb->entries[t + 1] = vv[pstart[p] + t];
			}
		}
	}
	initsoln(n, k, C, a, cons, &X, &y, &Z);
	tessera_xblocks = X.blocks;
	ret = easy_sdp(n, k, C, a, cons, 0.0, &X, &y, &Z, pobj, dobj);
	*iters = tessera_iters;
	off = 0;
	for (i = 1; i <= nblocks; i++) {
		int s = sizes[i - 1], len = diag[i - 1] ? s + 1 : s * s;
		for (int t = 0; t < len; t++) {
			xout[off + t] = X.blocks[i].data.vec[t];
			zout[off + t] = Z.blocks[i].data.vec[t];
		}
		off += len;
	}
	for (i = 1; i <= k; i++)
		yout[i - 1] = y[i];
	free_prob(n, k, C, a, cons, X, y, Z);
	return ret;
oom:
	// Free what is allocated (free(NULL) is a no-op; blocks not yet
	// allocated have NULL data); X, y, Z are not allocated yet.
	for (i = 1; i <= k; i++) {
		struct sparseblock *p = cons[i].blocks;
		while (p != NULL) {
			struct sparseblock *q = p->next;
			free(p->entries); free(p->iindices); free(p->jindices); free(p);
			p = q;
		}
	}
	free(cons);
	free_mat(C);
	free(a);
	return -1;
}
*/
import "C"

import (
	"context"
	"fmt"
	"sync"
)

const csdpBuilt = true

// CSDP is the CSDP backend: Borchers' C library (CSDP 6.2, "CSDP, a C
// library for semidefinite programming", Optimization Methods and Software
// 11, 1999), a predictor-corrector primal-dual interior-point method with
// the HKM direction, through its easy_sdp interface. Built with the csdp
// tag; needs Debian's libsdp-dev (and coinor-csdp for the csdp command).
//
// CSDP keeps global state here (its parameters, our stop flag), so solves
// run one at a time in a process. The package provides CSDP's initparams
// and user_exit: no param.csdp file is read, nothing is printed, the
// context stops a solve between iterations, and Iterations counts CSDP's
// iterations. CSDP's convention is the Problem's (maximise); Minimize
// negates C. Its return codes map to Status: 0 Optimal, 1 Infeasible,
// 2 Unbounded, 3 NearOptimal, 4 and 10 Stopped (ErrBudget), 5 to 9
// NearOptimal when the measures are under 1000 Tol, else Failed
// (ErrNumerical). Optimal is CSDP's own test (relative infeasibilities and
// the relative <X, Z> gap under Tol); the Solution's measures are
// recomputed here, and its RelativeGap (of the objectives) can be larger.
// The context is seen between iterations only, not during CSDP's set-up.
// CSDP exits the process when malloc fails (code 205); the size guard
// (MaxBytes) is the defence.
type CSDP struct {
	// Tol is the relative tolerance (CSDP's axtol, atytol and objtol;
	// 0: 1e-8).
	Tol float64
	// MaxIter bounds the iterations (0: 100).
	MaxIter int
	// MaxBytes bounds the memory of a solve (0: DefaultMaxBytes).
	MaxBytes int64
}

var csdpMu sync.Mutex

// Solve solves p with CSDP; see Solver.
func (s CSDP) Solve(ctx context.Context, p *Problem) (*Solution, error) {
	md, err := newDenseModel(p, s.MaxBytes)
	if err != nil {
		return nil, err
	}
	tol, maxIter := s.Tol, s.MaxIter
	if tol <= 0 {
		tol = 1e-8
	}
	if maxIter <= 0 {
		maxIter = 100
	}
	// Flat data. CSDP maximises tr(C X): its C is -c.
	nb := len(md.blocks)
	sizes, diag := make([]C.int, nb), make([]C.int, nb)
	var cdata []C.double
	for k, b := range md.blocks {
		sizes[k] = C.int(b.Size)
		if b.Diagonal {
			diag[k] = 1
			cdata = append(cdata, 0)
		}
		for _, v := range md.c[k] {
			cdata = append(cdata, C.double(-v)) // symmetric: row- = column-major
		}
	}
	bv := make([]C.double, md.m)
	for i, v := range md.b {
		bv[i] = C.double(v)
	}
	var pcon, pblk, pstart, ii, jj []C.int
	var vv []C.double
	for ci, parts := range md.cons {
		for _, pt := range parts {
			pcon = append(pcon, C.int(ci+1))
			pblk = append(pblk, C.int(pt.blk+1))
			pstart = append(pstart, C.int(len(vv)))
			for e, v := range pt.v {
				ii = append(ii, C.int(pt.i[e]+1))
				jj = append(jj, C.int(pt.j[e]+1))
				vv = append(vv, C.double(v))
			}
		}
	}
	pstart = append(pstart, C.int(len(vv)))
	xout, zout := make([]C.double, len(cdata)), make([]C.double, len(cdata))
	yout := make([]C.double, md.m)
	var pobj, dobj C.double
	var iters C.int

	csdpMu.Lock()
	C.tessera_setparams(C.double(tol), C.int(maxIter))
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case <-ctx.Done():
			C.tessera_requeststop()
		case <-done:
		}
	}()
	if ctx.Err() != nil {
		C.tessera_requeststop()
	}
	ret := C.tessera_solve(C.int(nb), &sizes[0], &diag[0], &cdata[0], C.int(len(cdata)), C.int(md.m), &bv[0],
		C.int(len(pcon)), &pcon[0], &pblk[0], &pstart[0], &ii[0], &jj[0], &vv[0],
		&xout[0], &yout[0], &zout[0], &pobj, &dobj, &iters)
	close(done)
	wg.Wait()
	csdpMu.Unlock()
	if ret < 0 {
		return nil, fmt.Errorf("sdp: csdp: out of memory")
	}

	// Back to Go, in the user's convention.
	x, z := md.newBlocks(), md.newBlocks()
	off := 0
	for k, b := range md.blocks {
		if b.Diagonal {
			off++ // CSDP's unused index 0
		}
		for i := range x[k] {
			x[k][i] = float64(xout[off+i])
			z[k][i] = float64(zout[off+i])
		}
		off += len(x[k])
	}
	y := make([]float64, md.m)
	for i := range y {
		// CSDP's y is the internal -y; the user's is sign * internal.
		y[i] = -md.sign * float64(yout[i])
	}
	sol := &Solution{Iterations: int(iters)}
	var cause error
	switch ret {
	case 0:
		sol.Status = Optimal
	case 1:
		// CSDP's certificate: a'y = -1, A'(y) = Z >= 0 (its own y, not
		// negated).
		sol.Status = Infeasible
		for i := range y {
			y[i] = float64(yout[i])
		}
		for k := range z {
			clear(z[k])
			clear(x[k])
		}
		md.opAT(1, y, z)
		cause = ErrInfeasible
	case 2:
		// CSDP's ray: tr(C_csdp X) = 1, that is <c, X> = -1.
		sol.Status = Unbounded
		for k := range z {
			clear(z[k])
		}
		clear(y)
		cause = ErrUnbounded
	case 3:
		sol.Status = NearOptimal
	case 4:
		sol.Status = Stopped
		cause = fmt.Errorf("%w: %d iterations (csdp)", ErrBudget, iters)
	case 10:
		sol.Status = Stopped
		cause = fmt.Errorf("%w: %w after %d iterations (csdp)", ErrBudget, context.Cause(ctx), iters)
	default:
		sol.Status = Failed
	}
	sol.X, sol.Z, sol.Y = md.matrices(x), md.matrices(z), y
	md.measure(sol)
	if sol.Status == Failed {
		if max(sol.PrimalInfeasibility, sol.DualInfeasibility, sol.RelativeGap) < 1e3*tol {
			sol.Status = NearOptimal
		} else {
			cause = fmt.Errorf("%w: csdp code %d (relative primal infeasibility %.2g, dual %.2g, gap %.2g)", ErrNumerical, ret, sol.PrimalInfeasibility, sol.DualInfeasibility, sol.RelativeGap)
		}
	}
	return sol, cause
}

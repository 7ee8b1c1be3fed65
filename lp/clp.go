//go:build clp

package lp

/*
#cgo CFLAGS: -I/usr/include/coin
#cgo LDFLAGS: -lClp -lCoinUtils
#include <stdlib.h>
#include <Clp_C_Interface.h>
*/
import "C"

import (
	"context"
	"fmt"
	"math"
	"time"
	"unsafe"
)

func init() {
	backends["clp"] = func() Backend { return clpBackend{} }
}

// clpBackend is COIN-OR Clp through its C interface: the first solve of
// a model runs the barrier method without crossover (an interior point,
// as the LP relaxation wants for its start), later solves warm-start the
// dual simplex from the previous basis. Built with the clp tag; needs
// Debian's coinor-libclp-dev.
type clpBackend struct{}

func (clpBackend) Name() string { return "clp" }

func (clpBackend) Load(p *Problem) (Model, error) {
	n, m := p.NumCols(), p.NumRows()
	// Clp wants the matrix column by column.
	start := make([]C.CoinBigIndex, n+1)
	for _, j := range p.colIdx {
		start[j+1]++
	}
	for j := range n {
		start[j+1] += start[j]
	}
	index := make([]C.int, len(p.colIdx))
	value := make([]C.double, len(p.val))
	next := make([]C.CoinBigIndex, n)
	copy(next, start[:n])
	for i := range m {
		for k := p.rowStart[i]; k < p.rowStart[i+1]; k++ {
			j := p.colIdx[k]
			index[next[j]] = C.int(i)
			value[next[j]] = C.double(p.val[k])
			next[j]++
		}
	}
	model := C.Clp_newModel()
	if model == nil {
		return nil, fmt.Errorf("lp: clp: cannot create a model")
	}
	C.Clp_setLogLevel(model, 0)
	cd := func(v []float64) *C.double {
		if len(v) == 0 {
			return nil
		}
		out := (*C.double)(C.malloc(C.size_t(len(v)) * C.size_t(unsafe.Sizeof(C.double(0)))))
		s := unsafe.Slice(out, len(v))
		for i, x := range v {
			switch {
			case math.IsInf(x, 1):
				s[i] = C.double(math.MaxFloat64)
			case math.IsInf(x, -1):
				s[i] = C.double(-math.MaxFloat64)
			default:
				s[i] = C.double(x)
			}
		}
		return out
	}
	collb, colub, obj := cd(p.colLo), cd(p.colHi), cd(p.obj)
	rowlb, rowub := cd(p.rowLo), cd(p.rowHi)
	defer func() {
		for _, ptr := range []*C.double{collb, colub, obj, rowlb, rowub} {
			C.free(unsafe.Pointer(ptr))
		}
	}()
	// Pass Go memory without pointers: allowed by the cgo rules.
	var startPtr *C.CoinBigIndex
	var indexPtr *C.int
	var valuePtr *C.double
	if len(start) > 0 {
		startPtr = &start[0]
	}
	if len(index) > 0 {
		indexPtr, valuePtr = &index[0], &value[0]
	}
	C.Clp_loadProblem(model, C.int(n), C.int(m), startPtr, indexPtr, valuePtr, collb, colub, obj, rowlb, rowub)
	return &clpModel{model: model, n: n}, nil
}

type clpModel struct {
	model  unsafe.Pointer // Clp_Simplex *
	n      int
	solved bool
}

func (c *clpModel) SetObjective(obj []float64) {
	if len(obj) != c.n {
		panic("lp: SetObjective with the wrong number of coefficients")
	}
	buf := make([]C.double, c.n)
	for i, v := range obj {
		buf[i] = C.double(v)
	}
	if c.n > 0 {
		C.Clp_chgObjCoefficients(c.model, &buf[0])
	}
}

func (c *clpModel) Solve(ctx context.Context) (Solution, error) {
	if err := ctx.Err(); err != nil {
		return Solution{Status: Stopped}, nil
	}
	if d, ok := ctx.Deadline(); ok {
		C.Clp_setMaximumSeconds(c.model, C.double(max(0.01, time.Until(d).Seconds())))
	}
	if !c.solved {
		C.Clp_initialBarrierNoCrossSolve(c.model)
		c.solved = true
	} else {
		C.Clp_dual(c.model, 0)
	}
	st := Stopped
	switch C.Clp_status(c.model) {
	case 0:
		st = Optimal
	case 1:
		st = Infeasible
	case 2:
		st = Unbounded
	}
	x := make([]float64, c.n)
	if c.n > 0 {
		sol := unsafe.Slice(C.Clp_getColSolution(c.model), c.n)
		for i := range x {
			x[i] = float64(sol[i])
		}
	}
	return Solution{Status: st, X: x, Objective: float64(C.Clp_objectiveValue(c.model)), Iterations: int(C.Clp_getIterationCount(c.model))}, nil
}

func (c *clpModel) Close() {
	if c.model != nil {
		C.Clp_deleteModel(c.model)
		c.model = nil
	}
}

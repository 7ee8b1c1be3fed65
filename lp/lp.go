package lp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Inf is an infinite bound.
var Inf = math.Inf(1)

// Problem is a linear program in the form
//
//	minimise c'x  subject to  RowLo <= A x <= RowHi,  ColLo <= x <= ColHi
//
// with a sparse A. An equality row has RowLo == RowHi. Build one with
// NewProblem, AddRow and SetObjective.
type Problem struct {
	numCols      int
	obj          []float64
	colLo, colHi []float64
	// A in compressed rows: the entries of row i are
	// colIdx[rowStart[i]:rowStart[i+1]] with values val[...].
	rowStart     []int
	colIdx       []int32
	val          []float64
	rowLo, rowHi []float64
}

// NewProblem returns a problem with n columns, bounds 0 <= x <= +Inf, a
// zero objective and no rows.
func NewProblem(n int) *Problem {
	p := &Problem{numCols: n, obj: make([]float64, n), colLo: make([]float64, n), colHi: make([]float64, n), rowStart: []int{0}}
	for j := range p.colHi {
		p.colHi[j] = Inf
	}
	return p
}

// Reserve makes room for rows more rows with nonzeros more entries in all,
// so that adding them allocates nothing: a caller that knows the size of
// its problem saves the copies and the slack of growing it row by row.
func (p *Problem) Reserve(rows, nonzeros int) {
	p.colIdx = slices.Grow(p.colIdx, nonzeros)
	p.val = slices.Grow(p.val, nonzeros)
	p.rowStart = slices.Grow(p.rowStart, rows)
	p.rowLo = slices.Grow(p.rowLo, rows)
	p.rowHi = slices.Grow(p.rowHi, rows)
}

// NumCols returns the number of variables.
func (p *Problem) NumCols() int { return p.numCols }

// NumRows returns the number of constraints.
func (p *Problem) NumRows() int { return len(p.rowLo) }

// NumNonzeros returns the number of entries of A.
func (p *Problem) NumNonzeros() int { return len(p.val) }

// SetBounds sets lo <= x_j <= hi (lo may be -Inf, hi +Inf).
func (p *Problem) SetBounds(j int, lo, hi float64) { p.colLo[j], p.colHi[j] = lo, hi }

// SetObjective sets the objective coefficients c (len NumCols), copied.
func (p *Problem) SetObjective(c []float64) { copy(p.obj, c) }

// Objective returns the objective coefficients (not a copy).
func (p *Problem) Objective() []float64 { return p.obj }

// AddRow adds the constraint lo <= sum_k vals[k] * x[cols[k]] <= hi and
// returns its index. Columns may repeat (their values add up).
func (p *Problem) AddRow(cols []int, vals []float64, lo, hi float64) int {
	if len(cols) != len(vals) {
		panic("lp: AddRow with different numbers of columns and values")
	}
	for k, j := range cols {
		if j < 0 || j >= p.numCols {
			panic(fmt.Sprintf("lp: AddRow: column %d out of range 0..%d", j, p.numCols-1))
		}
		p.colIdx = append(p.colIdx, int32(j))
		p.val = append(p.val, vals[k])
	}
	p.rowStart = append(p.rowStart, len(p.val))
	p.rowLo = append(p.rowLo, lo)
	p.rowHi = append(p.rowHi, hi)
	return len(p.rowLo) - 1
}

// Row returns the columns and values of row i (not copies).
func (p *Problem) Row(i int) ([]int32, []float64) {
	return p.colIdx[p.rowStart[i]:p.rowStart[i+1]], p.val[p.rowStart[i]:p.rowStart[i+1]]
}

// Value returns c'x.
func (p *Problem) Value(x []float64) float64 {
	v := 0.0
	for j, c := range p.obj {
		v += c * x[j]
	}
	return v
}

// Violation returns the largest violation of a row or a bound by x.
func (p *Problem) Violation(x []float64) float64 {
	worst := 0.0
	for j, v := range x {
		worst = max(worst, p.colLo[j]-v, v-p.colHi[j])
	}
	for i := range p.rowLo {
		cols, vals := p.Row(i)
		s := 0.0
		for k, j := range cols {
			s += vals[k] * x[j]
		}
		worst = max(worst, p.rowLo[i]-s, s-p.rowHi[i])
	}
	return worst
}

// Status says how a solve ended.
type Status uint8

const (
	// Optimal: x is optimal within the backend's tolerances.
	Optimal Status = iota
	// Infeasible: the constraints have no solution.
	Infeasible
	// Unbounded: the objective decreases without bound.
	Unbounded
	// Stopped: an iteration limit or the context stopped the solve; x is
	// the last iterate.
	Stopped
)

var statusNames = [...]string{"optimal", "infeasible", "unbounded", "stopped"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", s)
}

// Solution is the result of a solve.
type Solution struct {
	Status Status
	// X is the primal solution (len NumCols).
	X []float64
	// Objective is c'X.
	Objective float64
	// Iterations counts the backend's iterations (PDHG steps or simplex
	// pivots).
	Iterations int
}

// ErrNotBuilt is returned by Lookup for a backend that this binary was
// built without.
var ErrNotBuilt = errors.New("lp: backend not built in")

// Backend is an LP solver.
type Backend interface {
	// Name returns the backend's name, as Lookup knows it.
	Name() string
	// Load prepares p for solving. The model may keep a reference to p;
	// do not change p while the model is in use.
	Load(p *Problem) (Model, error)
}

// Model is a problem loaded into a backend, solved one or more times with
// changing objectives. Each Solve may warm-start from the previous one.
type Model interface {
	// SetObjective replaces the objective coefficients (len NumCols).
	SetObjective(c []float64)
	// Solve solves the problem with the current objective. It returns an
	// error only for a failure of the backend; Solution.Status tells
	// infeasible, unbounded and stopped solves.
	Solve(ctx context.Context) (Solution, error)
	// Close releases the model's resources.
	Close()
}

// backends is the registry filled by the backends' files.
var backends = map[string]func() Backend{
	"pdhg": func() Backend { return NewPDHG(PDHGOptions{}) },
}

// Names returns the names of the backends built into this binary.
func Names() []string {
	var out []string
	for n := range backends {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Lookup returns the backend of that name with default options: "pdhg"
// always, "clp" when built with the clp tag.
func Lookup(name string) (Backend, error) {
	if f, ok := backends[name]; ok {
		return f(), nil
	}
	if name == "clp" {
		return nil, fmt.Errorf("%w: clp needs the build tag clp (go build -tags clp) and COIN-OR Clp (Debian coinor-libclp-dev)", ErrNotBuilt)
	}
	return nil, fmt.Errorf("lp: unknown backend %q (have %s)", name, strings.Join(Names(), ", "))
}

// Solve loads p into b, solves it once and closes the model.
func Solve(ctx context.Context, b Backend, p *Problem) (Solution, error) {
	m, err := b.Load(p)
	if err != nil {
		return Solution{}, err
	}
	defer m.Close()
	return m.Solve(ctx)
}

package sdp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Block is one diagonal block of the variable X: a symmetric Size x Size
// matrix constrained to be positive semidefinite, or, when Diagonal, a
// vector of Size non-negative numbers (an LP block, a diagonal matrix).
type Block struct {
	Size     int
	Diagonal bool
}

// Entry is one entry of a sparse symmetric block-diagonal matrix: the value
// V at row I and column J (0-based) of block Block, and, because the matrix
// is symmetric, at row J and column I too. So an off-diagonal Entry
// contributes 2*V*X[I][J] to <A, X>. Entries of a diagonal block have
// I == J.
//
// Give an off-diagonal value in either triangle, or in both with the same
// value (a full symmetric matrix): the lower and upper triangles must then
// agree (to 1e-12 relative), else the input is refused as not symmetric.
// Entries repeated at the same (I, J) add up.
type Entry struct {
	Block, I, J int
	V           float64
}

// E returns Entry{block, i, j, v}; it keeps composite literals keyed for
// go vet in other packages.
func E(block, i, j int, v float64) Entry { return Entry{Block: block, I: i, J: j, V: v} }

// Constraint is the linear equality <A, X> = B, A given by its entries.
type Constraint struct {
	A []Entry
	B float64
}

// Problem is a block-diagonal semidefinite program in CSDP's convention
// (the SDPA "dual" form):
//
//	primal:  maximise <C, X>  subject to  <A_i, X> = b_i (i = 1..m),  X ⪰ 0
//	dual:    minimise b'y     subject to  Z = sum_i y_i A_i - C,       Z ⪰ 0
//
// where <A, X> = trace(A X) = sum_jk A_jk X_jk, and X ⪰ 0 means every
// matrix block is positive semidefinite and every diagonal block is
// non-negative. With Minimize set the primal minimises <C, X> instead and
// the dual becomes maximise b'y subject to Z = C - sum_i y_i A_i ⪰ 0; in
// both senses Z ⪰ 0 certifies the dual, and PrimalObjective and
// DualObjective are <C, X> and b'y.
//
// Build one as a literal or with AddConstraint. A Problem is read, never
// changed, by the solvers; they check it first (see Validate).
type Problem struct {
	Blocks []Block
	// C is the objective matrix (entries as for the constraints).
	C []Entry
	// Constraints are the equalities <A_i, X> = b_i; there must be at
	// least one and each must have a non-zero entry.
	Constraints []Constraint
	// Minimize turns the primal into a minimisation.
	Minimize bool
}

// AddConstraint appends the constraint <A, X> = b with A given by its
// entries (copied) and returns its index.
func (p *Problem) AddConstraint(b float64, a ...Entry) int {
	p.Constraints = append(p.Constraints, Constraint{A: slices.Clone(a), B: b})
	return len(p.Constraints) - 1
}

// AddObjective adds entries to C.
func (p *Problem) AddObjective(c ...Entry) { p.C = append(p.C, c...) }

// Status says how a solve ended.
type Status uint8

const (
	// Optimal: the relative infeasibilities and the relative gap are
	// under the solver's tolerance.
	Optimal Status = iota
	// NearOptimal: the solver stalled with all three measures under a
	// thousand times its tolerance (CSDP's "partial success").
	NearOptimal
	// Infeasible: the primal has no solution; Y is a certificate.
	Infeasible
	// Unbounded: the dual has no solution (the primal objective is
	// unbounded when the primal is feasible); X is a certificate.
	Unbounded
	// Stopped: the iteration budget or the context ended the solve; the
	// solution holds the last iterate.
	Stopped
	// Failed: numerical trouble stopped the solve far from optimal.
	Failed
)

var statusNames = [...]string{"optimal", "near optimal", "infeasible", "unbounded", "stopped", "failed"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", s)
}

// Sentinel errors of Solve. With each of them Solve returns a non-nil
// Solution too (its Status says the same).
var (
	// ErrInfeasible: the primal is infeasible. Solution.Y is a Farkas
	// certificate, normalised to b'Y = -1, with sum_i Y_i A_i ⪰ 0
	// approximately (Solution.Z holds that sum as found).
	ErrInfeasible = errors.New("sdp: primal infeasible")
	// ErrUnbounded: the dual is infeasible (the primal is unbounded when
	// it is feasible). Solution.X is a ray: X ⪰ 0, A(X) ≈ 0, and moving
	// along X improves the objective by 1 (<C, X> = 1 when maximising,
	// -1 when minimising).
	ErrUnbounded = errors.New("sdp: dual infeasible (primal unbounded)")
	// ErrBudget: MaxIter or the context stopped the solve (the Solution
	// holds the last iterate), or the problem needs more memory than the
	// solver's MaxBytes (then the Solution is nil).
	ErrBudget = errors.New("sdp: budget exhausted")
	// ErrNumerical: numerical trouble (a Schur complement that will not
	// factor, steps that shrink to nothing) stopped the solve far from
	// the tolerance; the Solution holds the last iterate.
	ErrNumerical = errors.New("sdp: numerical failure")
	// ErrNotBuilt: the CSDP backend is not in this binary.
	ErrNotBuilt = errors.New("sdp: backend not built in")
)

// Solution is the result of a solve. Its matrices are indexed like
// Problem.Blocks.
type Solution struct {
	Status Status
	// X is the primal solution, Z the dual slack, Y the dual multipliers
	// (one per constraint).
	X, Z []Matrix
	Y    []float64
	// PrimalObjective is <C, X>, DualObjective is b'Y.
	PrimalObjective, DualObjective float64
	// PrimalInfeasibility is ||A(X) - b||_2 / (1 + ||b||_2);
	// DualInfeasibility is ||Z - (sum Y_i A_i - C)||_F / (1 + ||C||_F)
	// (with the signs of Minimize); RelativeGap is
	// |PrimalObjective - DualObjective| / (1 + |both|). These are CSDP's
	// measures, computed the same way for every backend.
	PrimalInfeasibility, DualInfeasibility, RelativeGap float64
	// Iterations counts interior-point iterations.
	Iterations int
}

// Matrix is one block of a solution: a dense symmetric N x N matrix in
// row-major order, or, when Diagonal, the N diagonal entries.
type Matrix struct {
	N        int
	Diagonal bool
	Data     []float64
}

// At returns the entry at row i, column j.
func (m Matrix) At(i, j int) float64 {
	if m.Diagonal {
		if i != j {
			return 0
		}
		return m.Data[i]
	}
	return m.Data[i*m.N+j]
}

// Solver solves semidefinite programs. Solve checks p (Validate) and
// returns an error naming the package for bad input; otherwise it returns
// a Solution, with a nil error when the status is Optimal or NearOptimal,
// and with ErrInfeasible, ErrUnbounded, ErrBudget or ErrNumerical
// (wrapped) otherwise.
type Solver interface {
	Solve(ctx context.Context, p *Problem) (*Solution, error)
}

// Names returns the backends Lookup knows: "go" always, "csdp" when this
// binary was built with the csdp tag.
func Names() []string {
	if csdpBuilt {
		return []string{"csdp", "go"}
	}
	return []string{"go"}
}

// Lookup returns the solver of that name with default options: "go" (or
// "ipm") is IPM{}, "csdp" is CSDP{} (ErrNotBuilt without the csdp tag).
func Lookup(name string) (Solver, error) {
	switch name {
	case "go", "ipm":
		return IPM{}, nil
	case "csdp":
		if !csdpBuilt {
			return nil, fmt.Errorf("%w: csdp needs the build tag csdp (go build -tags csdp) and CSDP (Debian libsdp-dev)", ErrNotBuilt)
		}
		return CSDP{}, nil
	}
	return nil, fmt.Errorf("sdp: unknown backend %q (have %s)", name, strings.Join(Names(), ", "))
}

// Input bounds checked by Validate.
const (
	// MaxBlockSize bounds the size of one block.
	MaxBlockSize = 1 << 16
	// MaxConstraints bounds the number of constraints.
	MaxConstraints = 1 << 20
)

// Validate checks p: at least one block and one constraint, block sizes
// in 1..MaxBlockSize, entries with a block index in range, row and column
// in range of their block, I == J in diagonal blocks, finite values and
// right-hand sides, symmetric matrices (a value given in both triangles is
// the same in both), and every constraint with a non-zero entry after
// repeated entries are added up. The error names the package and the
// offending constraint and entry.
func (p *Problem) Validate() error {
	_, err := newModel(p)
	return err
}

// part is one constraint's entries in one block: upper-triangle entries
// (i <= j), merged and sorted.
type part struct {
	con, blk int
	i, j     []int32
	v        []float64
}

// model is a checked, normalised copy of a Problem: blocks, b, the
// objective as dense blocks in the internal sign (the internal problem is
// always a minimisation: min <c, X>, c = C when minimising, -C when
// maximising), and the constraint parts by constraint and by block.
type model struct {
	blocks   []Block
	n        int // sum of block sizes
	m        int
	b        []float64
	c        [][]float64 // dense row-major (n*n) or diagonal (n), by denseC
	cEntries []Entry     // sign * C, canonical
	sign     float64     // c = sign * C
	cons     [][]*part   // per constraint, by block
	byBlock  [][]*part   // per block, by constraint
	nnz      int
	normB    float64
	normC    float64 // Frobenius norm of C
}

func newModel(p *Problem) (*model, error) {
	if p == nil {
		return nil, errors.New("sdp: nil problem")
	}
	if len(p.Blocks) == 0 {
		return nil, errors.New("sdp: problem has no blocks")
	}
	if len(p.Constraints) == 0 {
		return nil, errors.New("sdp: problem has no constraints")
	}
	if len(p.Constraints) > MaxConstraints {
		return nil, fmt.Errorf("sdp: %d constraints, more than %d", len(p.Constraints), MaxConstraints)
	}
	md := &model{blocks: slices.Clone(p.Blocks), m: len(p.Constraints), sign: -1}
	if p.Minimize {
		md.sign = 1
	}
	for k, b := range p.Blocks {
		if b.Size < 1 || b.Size > MaxBlockSize {
			return nil, fmt.Errorf("sdp: block %d has size %d, want 1..%d", k, b.Size, MaxBlockSize)
		}
		md.n += b.Size
	}
	// check returns nil or an error naming the entry: con < 0 for the
	// objective.
	check := func(con, idx int, e Entry) error {
		b := Block{}
		if e.Block >= 0 && e.Block < len(p.Blocks) {
			b = p.Blocks[e.Block]
		}
		if b.Size > 0 && e.I >= 0 && e.I < b.Size && e.J >= 0 && e.J < b.Size && (!b.Diagonal || e.I == e.J) && !math.IsNaN(e.V) && !math.IsInf(e.V, 0) {
			return nil
		}
		what := "objective"
		if con >= 0 {
			what = "constraint " + strconv.Itoa(con)
		}
		if e.Block < 0 || e.Block >= len(p.Blocks) {
			return fmt.Errorf("sdp: %s entry %d: block %d out of range 0..%d", what, idx, e.Block, len(p.Blocks)-1)
		}
		if e.I < 0 || e.I >= b.Size || e.J < 0 || e.J >= b.Size {
			return fmt.Errorf("sdp: %s entry %d: (%d, %d) out of range of block %d (size %d)", what, idx, e.I, e.J, e.Block, b.Size)
		}
		if b.Diagonal && e.I != e.J {
			return fmt.Errorf("sdp: %s entry %d: off-diagonal (%d, %d) in diagonal block %d", what, idx, e.I, e.J, e.Block)
		}
		if math.IsNaN(e.V) || math.IsInf(e.V, 0) {
			return fmt.Errorf("sdp: %s entry %d: value %v", what, idx, e.V)
		}
		return nil
	}
	// Objective: checked and kept sparse (dense blocks could be huge; the
	// solvers make them after the size check).
	for idx, e := range p.C {
		if err := check(-1, idx, e); err != nil {
			return nil, err
		}
	}
	var err error
	if md.cEntries, err = canonicalTo(nil, p.C); err != nil {
		return nil, fmt.Errorf("sdp: objective: %w", err)
	}
	for k := range md.cEntries {
		e := &md.cEntries[k]
		e.V *= md.sign
		if e.I == e.J {
			md.normC += e.V * e.V
		} else {
			md.normC += 2 * e.V * e.V
		}
	}
	md.normC = math.Sqrt(md.normC)
	// Constraints.
	md.b = make([]float64, md.m)
	md.cons = make([][]*part, md.m)
	md.byBlock = make([][]*part, len(p.Blocks))
	var buf []Entry
	for ci, con := range p.Constraints {
		if math.IsNaN(con.B) || math.IsInf(con.B, 0) {
			return nil, fmt.Errorf("sdp: constraint %d: right-hand side %v", ci, con.B)
		}
		md.b[ci] = con.B
		md.normB += con.B * con.B
		for idx, e := range con.A {
			if err := check(ci, idx, e); err != nil {
				return nil, err
			}
		}
		var err error
		if buf, err = canonicalTo(buf[:0], con.A); err != nil {
			return nil, fmt.Errorf("sdp: constraint %d: %w", ci, err)
		}
		var cur *part
		for _, e := range buf {
			if cur == nil || cur.blk != e.Block {
				cur = &part{con: ci, blk: e.Block}
				md.cons[ci] = append(md.cons[ci], cur)
				md.byBlock[e.Block] = append(md.byBlock[e.Block], cur)
			}
			cur.i = append(cur.i, int32(e.I))
			cur.j = append(cur.j, int32(e.J))
			cur.v = append(cur.v, e.V)
			md.nnz++
		}
		if len(md.cons[ci]) == 0 {
			return nil, fmt.Errorf("sdp: constraint %d has no non-zero entry", ci)
		}
	}
	md.normB = math.Sqrt(md.normB)
	return md, nil
}

// bytesNeeded estimates the memory of an interior-point solve of md: the
// dense Schur complement (m x m, twice), about 24 work matrices per block,
// the constraint data and IPM's Schur work arrays.
func (md *model) bytesNeeded() int64 {
	m := int64(md.m)
	s := 2*m*m + 16*m
	for _, b := range md.blocks {
		n := int64(b.Size)
		if b.Diagonal {
			s += 24 * n
		} else {
			s += 24 * n * n
		}
	}
	s += 4 * int64(md.nnz)
	// IPM's A_i X and A_i Z^{-1} on the rows of each A_i, for the largest
	// block.
	rowsMax := int64(0)
	seen := map[int32]bool{}
	for k, parts := range md.byBlock {
		if md.blocks[k].Diagonal {
			continue
		}
		rows := int64(0)
		for _, pt := range parts {
			clear(seen)
			for e := range pt.i {
				seen[pt.i[e]], seen[pt.j[e]] = true, true
			}
			rows += int64(len(seen))
		}
		rowsMax = max(rowsMax, 2*rows*int64(md.blocks[k].Size))
	}
	return 8 * (s + rowsMax)
}

// DefaultMaxBytes is the memory bound of a solve when a solver's MaxBytes
// is 0: 1 GiB.
const DefaultMaxBytes = 1 << 30

func checkSize(md *model, maxBytes int64) error {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	if need := md.bytesNeeded(); need > maxBytes {
		return fmt.Errorf("%w: the problem needs about %s (%d constraints, %d blocks), over the bound of %s", ErrBudget, fmtBytes(need), md.m, len(md.blocks), fmtBytes(maxBytes))
	}
	return nil
}

func fmtBytes(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
}

// newDenseModel is the model of p the solvers of this package solve (IPM,
// CSDP): within the memory bound maxBytes (0: DefaultMaxBytes), C dense.
func newDenseModel(p *Problem, maxBytes int64) (*model, error) {
	md, err := newModel(p)
	if err != nil {
		return nil, err
	}
	if err := checkSize(md, maxBytes); err != nil {
		return nil, err
	}
	md.denseC()
	return md, nil
}

// denseC makes md.c from md.cEntries.
func (md *model) denseC() {
	md.c = md.newBlocks()
	for _, e := range md.cEntries {
		if md.blocks[e.Block].Diagonal {
			md.c[e.Block][e.I] = e.V
			continue
		}
		n := md.blocks[e.Block].Size
		md.c[e.Block][e.I*n+e.J] = e.V
		md.c[e.Block][e.J*n+e.I] = e.V
	}
}

// newBlocks allocates zero matrices shaped like md's blocks.
func (md *model) newBlocks() [][]float64 {
	out := make([][]float64, len(md.blocks))
	for k, b := range md.blocks {
		if b.Diagonal {
			out[k] = make([]float64, b.Size)
		} else {
			out[k] = make([]float64, b.Size*b.Size)
		}
	}
	return out
}

// opA sets out[i] = <A_i, X>; X need not be symmetric (the result is
// then <A_i, sym(X)>).
func (md *model) opA(x [][]float64, out []float64) {
	for ci, parts := range md.cons {
		s := 0.0
		for _, pt := range parts {
			xb := x[pt.blk]
			if md.blocks[pt.blk].Diagonal {
				for k, v := range pt.v {
					s += v * xb[pt.i[k]]
				}
				continue
			}
			n := md.blocks[pt.blk].Size
			for k, v := range pt.v {
				i, j := int(pt.i[k]), int(pt.j[k])
				if i == j {
					s += v * xb[i*n+i]
				} else {
					s += v * (xb[i*n+j] + xb[j*n+i])
				}
			}
		}
		out[ci] = s
	}
}

// opAT adds alpha * sum_i y_i A_i to out.
func (md *model) opAT(alpha float64, y []float64, out [][]float64) {
	for ci, parts := range md.cons {
		a := alpha * y[ci]
		if a == 0 {
			continue
		}
		for _, pt := range parts {
			ob := out[pt.blk]
			if md.blocks[pt.blk].Diagonal {
				for k, v := range pt.v {
					ob[pt.i[k]] += a * v
				}
				continue
			}
			n := md.blocks[pt.blk].Size
			for k, v := range pt.v {
				i, j := int(pt.i[k]), int(pt.j[k])
				ob[i*n+j] += a * v
				if i != j {
					ob[j*n+i] += a * v
				}
			}
		}
	}
}

// dot returns <A, B> for block matrices.
func dot(a, b [][]float64) float64 {
	s := 0.0
	for k := range a {
		s += dotVec(a[k], b[k])
	}
	return s
}

func dotVec(a, b []float64) float64 {
	s := 0.0
	b = b[:len(a)]
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

func norm2(v []float64) float64 { return math.Sqrt(dotVec(v, v)) }

func normF(a [][]float64) float64 { return math.Sqrt(dot(a, a)) }

// measure fills the objectives and the relative measures of s from its X,
// Y and Z (in the user's convention) for md.
func (md *model) measure(s *Solution) {
	x := make([][]float64, len(md.blocks))
	for k := range md.blocks {
		x[k] = s.X[k].Data
	}
	ax := make([]float64, md.m)
	md.opA(x, ax)
	// <C, X> = sign * <c, X>.
	s.PrimalObjective = md.sign * dot(md.c, x)
	s.DualObjective = dotVec(md.b, s.Y)
	for i := range ax {
		ax[i] -= md.b[i]
	}
	s.PrimalInfeasibility = norm2(ax) / (1 + md.normB)
	// Dual residual: Z - sign'*(sum y A - C) with the user's sign:
	// maximising Z = A^T y - C = A^T y + c; minimising Z = C - A^T y = c - A^T y.
	r := md.newBlocks()
	for k := range r {
		copy(r[k], s.Z[k].Data)
		for i, v := range md.c[k] {
			r[k][i] -= v
		}
	}
	md.opAT(md.sign, s.Y, r)
	s.DualInfeasibility = normF(r) / (1 + md.normC)
	s.RelativeGap = math.Abs(s.PrimalObjective-s.DualObjective) / (1 + math.Abs(s.PrimalObjective) + math.Abs(s.DualObjective))
}

// matrices wraps block data as Matrix values (sharing the data).
func (md *model) matrices(x [][]float64) []Matrix {
	out := make([]Matrix, len(md.blocks))
	for k, b := range md.blocks {
		out[k] = Matrix{N: b.Size, Diagonal: b.Diagonal, Data: x[k]}
	}
	return out
}

// canonicalTo appends to out the entries es in canonical form: in the
// upper triangle, sorted by block, row and column, repeated entries added
// up, zeros dropped. An off-diagonal value given in both triangles is
// taken once, and must be the same in both (to 1e-12 relative).
func canonicalTo(out, es []Entry) ([]Entry, error) {
	type oriented struct {
		Entry
		lower bool
	}
	tmp := make([]oriented, 0, len(es))
	for _, e := range es {
		lower := e.I > e.J
		if lower {
			e.I, e.J = e.J, e.I
		}
		tmp = append(tmp, oriented{e, lower})
	}
	slices.SortStableFunc(tmp, func(a, b oriented) int {
		return cmp.Or(cmp.Compare(a.Block, b.Block), cmp.Compare(a.I, b.I), cmp.Compare(a.J, b.J))
	})
	for k := 0; k < len(tmp); {
		e := tmp[k].Entry
		up, lo := 0.0, 0.0
		hasUp, hasLo := false, false
		for ; k < len(tmp) && tmp[k].Block == e.Block && tmp[k].I == e.I && tmp[k].J == e.J; k++ {
			if tmp[k].lower {
				lo += tmp[k].V
				hasLo = true
			} else {
				up += tmp[k].V
				hasUp = true
			}
		}
		if math.IsInf(up, 0) || math.IsInf(lo, 0) {
			return out, fmt.Errorf("block %d entries at (%d, %d) add up to an infinite value", e.Block, e.I, e.J)
		}
		switch {
		case hasUp && hasLo:
			if math.Abs(up-lo) > 1e-12*max(math.Abs(up), math.Abs(lo)) {
				return out, fmt.Errorf("block %d entries (%d, %d) = %v and (%d, %d) = %v differ: the matrix must be symmetric", e.Block, e.I, e.J, up, e.J, e.I, lo)
			}
			e.V = up
		case hasLo:
			e.V = lo
		default:
			e.V = up
		}
		if e.V != 0 {
			out = append(out, e)
		}
	}
	return out, nil
}

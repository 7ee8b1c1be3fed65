package relax

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"tessera/lp"

	"tessera/edgematch"
	"tessera/edgematch/exact"
	"tessera/edgematch/internal/kernel"
)

// LP is Kovalsky, Glasner and Basri's iterative LP relaxation (their
// Algorithm 1) finished by rounding and search, a Solver; its fields are
// its parameters. The zero value runs up to 20 LPs with the pure-Go PDHG
// backend (relative tolerance 1e-4) and finishes with rounding and search:
// the LP+search hybrid. With NoSearch it is the LP iteration alone.
type LP struct {
	// Backend solves the LPs (nil: lp.NewPDHG with its defaults).
	Backend lp.Backend
	// MaxIter bounds the LPs of Algorithm 1 (0: 20). The iteration also
	// stops when the number of fractional entries has not reached a new
	// low for 5 LPs (the iteration cycles).
	MaxIter int
	// MaxTime stops the LP iteration after this much time (0: no limit
	// but the context's), leaving the rest of the context's time to the
	// rounding and search.
	MaxTime time.Duration
	// Tol is how far from 0 or 1 an entry of P may be and still count as
	// integral (0: 1e-3).
	Tol float64
	// NoSearch stops after the LP iteration: no rounding, fixing or
	// backtracking when P is not a permutation.
	NoSearch bool
	// Plain runs Algorithm 1 as published, for comparison with the paper:
	// no arc-consistency pruning of the (cell, piece) pairs before the
	// first LP and no perturbation when the iteration stalls. The LP is
	// larger and, with few colours, often stalls on a fractional P.
	Plain bool
	// Confidence is the smallest LP value of a cell's piece for the cell
	// to be fixed before the search (0: 0.9). The search first runs with
	// the confident cells fixed, then, if that fails, with none.
	Confidence float64
	// ProbeNodes bounds the search tried after every LP whose P is not a
	// permutation: P rounded, its confident cells fixed, then a backtracker
	// limited to this many placements (0: 1<<21, negative: no probes).
	// Probes often finish long before the iteration stalls. NoSearch turns
	// them off too.
	ProbeNodes int64
	// Search is the finishing backtracker, also used by the probes (its
	// Count is ignored).
	Search exact.DFS
	// Progress, when set, is called after every LP.
	Progress func(edgematch.LPStep)
	// MaxMemory bounds the memory of the relaxation in bytes (0:
	// DefaultLPMemory, 1 GiB; negative: no bound). Solve estimates it
	// before building anything: first the candidate (cell, oriented piece)
	// pairs that the pruning stores, 4 bytes each, then, after pruning,
	// the LP itself, about 40 bytes per nonzero, 120 per variable and 100
	// per constraint (the problem and the backend's scaled copies), and
	// 24 n^2 bytes for the rounding, n = Rows*Cols. A puzzle over the bound
	// fails at once with an *LPSizeError that says what it would need.
	MaxMemory int64
	// OnLP, when set, is called after every LP with P, its objective and
	// its rounded board (LPIterate; RenderP and Puzzle.RenderIterates draw
	// them): "tessera edgematch solve -algo lp -snapshots DIR".
	OnLP func(edgematch.LPIterate)
}

var _ edgematch.Solver = LP{}

// DefaultLPMemory is LP.MaxMemory's default, 1 GiB: an LP of about 20
// million nonzeros (a framed 24x24 puzzle with 100 colours needs 5 million,
// a 32x32 one about 20 million; Eternity II's about 1 million).
const DefaultLPMemory = 1 << 30

// LPSizeError is returned by LP.Solve for a puzzle whose relaxation would
// need more memory than LP.MaxMemory allows: nothing was built.
type LPSizeError struct {
	Rows, Cols int
	// Stage is "candidate pairs" (the pairs before pruning were too many
	// to store) or "LP" (the pruned LP is too large).
	Stage string
	// Pairs is the number of (cell, oriented piece) pairs: before pruning
	// for Stage "candidate pairs", after for "LP".
	Pairs int64
	// Nonzeros and Constraints bound the LP's size (Stage "LP").
	Nonzeros, Constraints int64
	// Need is the estimated memory in bytes; Bound is LP.MaxMemory.
	Need, Bound int64
}

func (e *LPSizeError) Error() string {
	what := fmt.Sprintf("%d (cell, piece) pairs before pruning", e.Pairs)
	if e.Stage == "LP" {
		what = fmt.Sprintf("%d variables, up to %d constraints and %d nonzeros", e.Pairs, e.Constraints, e.Nonzeros)
	}
	return fmt.Sprintf("edgematch: the LP relaxation of this %dx%d puzzle needs about %s for its %s (%s), over the bound of %s (LP.MaxMemory)",
		e.Rows, e.Cols, formatBytes(e.Need), e.Stage, what, formatBytes(e.Bound))
}

// formatBytes writes a byte count in MiB or GiB.
func formatBytes(b int64) string {
	if b >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	}
	return fmt.Sprintf("%.0f MiB", math.Ceil(float64(b)/(1<<20)))
}

// lpBytes estimates the memory of an LP of v variables, rows constraints
// and nnz nonzeros on a puzzle of n cells (measured with PDHG: about 57
// bytes per nonzero all told on framed and Kovalsky puzzles, where nnz is
// about 6v), the rounding's n x n tables included.
func lpBytes(v, rows, nnz, n int64) int64 {
	return 40*nnz + 120*v + 100*rows + 24*n*n
}

// cycleLPs is the number of LPs without a new low of fractional entries
// after which LP.Solve deems the iteration cycling.
const cycleLPs = 5

// kovalskyLP is the relaxation of a puzzle: one variable per (cell,
// oriented piece) pair that the frame and the hints allow.
type kovalskyLP struct {
	c        *kernel.Compiled
	feasible bool // every cell and piece has a candidate
	prob     *lp.Problem
	varCel   []int32 // cell of each variable
	varOri   []int32 // oriented piece of each variable
	byCell   [][]int32
}

// buildKovalskyLP writes the relaxation of Kovalsky, Glasner and Basri:
// P (cells x oriented pieces) is doubly stochastic in the augmented sense
// (every cell holds one oriented piece, every piece is used once over its
// rotations), and for every pair of abutting cells and every colour but
// one, the mass of that colour on one side equals the mass on the other.
// On 0/1 points these are exactly the matching constraints; the indicator
// basis spans the same space as the paper's colour moments.
//
// It checks ctx as it goes and, before allocating the LP, its size against
// bound (bytes, <= 0: none): an *LPSizeError when over.
func buildKovalskyLP(ctx context.Context, c *kernel.Compiled, prune bool, bound int64) (*kovalskyLP, error) {
	p := c.P
	n := p.Cells()
	pairs, err := candidatePairs(ctx, c, prune, bound)
	if err != nil {
		return nil, err
	}
	nv, nnz, rows := lpSize(c, pairs)
	if need := lpBytes(nv, rows, nnz, int64(n)); bound > 0 && need > bound {
		return nil, &LPSizeError{Rows: p.Rows, Cols: p.Cols, Stage: "LP", Pairs: nv, Nonzeros: nnz, Constraints: rows, Need: need, Bound: bound}
	}
	k := &kovalskyLP{c: c, byCell: make([][]int32, n), varCel: make([]int32, 0, nv), varOri: make([]int32, 0, nv)}
	byPiece := k.addVariables(pairs)
	pairs = nil
	prob := lp.NewProblem(len(k.varCel))
	prob.Reserve(int(rows), int(nnz))
	for j := range len(k.varCel) {
		prob.SetBounds(j, 0, 1)
	}
	k.assignmentRows(prob, byPiece)
	err = k.colourRows(ctx, prob, func(err error) error {
		return fmt.Errorf("building the LP (%d variables, %d nonzeros, about %s): %w", nv, nnz, formatBytes(lpBytes(nv, rows, nnz, int64(n))), err)
	})
	if err != nil {
		return nil, err
	}
	k.prob = prob
	return k, nil
}

// lpSize returns the LP's size for the candidate pairs: every variable is
// in its cell's row, its piece's row and at most one colour row per inner
// side of its cell; each inner edge has fewer colour rows than colours
// and than candidates.
func lpSize(c *kernel.Compiled, pairs [][]int32) (nv, nnz, rows int64) {
	p := c.P
	n := p.Cells()
	rows = int64(n + len(p.Tiles))
	for cell, cands := range pairs {
		inner := 4 - kernel.BitsSet(edgematch.OutwardMask(p.Rows, p.Cols, cell/p.Cols, cell%p.Cols))
		nv += int64(len(cands))
		nnz += int64(len(cands)) * int64(2+inner)
	}
	for cell := range n {
		for _, nb := range [2]int{cell + 1, cell + p.Cols} {
			if (nb == cell+1 && (cell+1)%p.Cols == 0) || nb >= n {
				continue
			}
			rows += int64(max(min(c.K, len(pairs[cell])+len(pairs[nb]))-1, 0))
		}
	}
	return nv, nnz, rows
}

// addVariables makes a variable of every candidate pair, by cell, sets
// k.feasible (every cell and every piece has one) and returns the
// variables of each piece.
func (k *kovalskyLP) addVariables(pairs [][]int32) [][]int {
	c := k.c
	byPiece := make([][]int, len(c.P.Tiles))
	for cell, cands := range pairs {
		for _, o := range cands {
			v := int32(len(k.varCel))
			k.varCel = append(k.varCel, int32(cell))
			k.varOri = append(k.varOri, o)
			k.byCell[cell] = append(k.byCell[cell], v)
			byPiece[c.OriPiece[o]] = append(byPiece[c.OriPiece[o]], int(v))
		}
	}
	k.feasible = true
	for cell := range c.P.Cells() {
		k.feasible = k.feasible && len(k.byCell[cell]) > 0
	}
	for _, vs := range byPiece {
		k.feasible = k.feasible && len(vs) > 0
	}
	return byPiece
}

// assignmentRows adds the rows of the augmented doubly stochastic P: one
// oriented piece per cell, each piece once.
func (k *kovalskyLP) assignmentRows(prob *lp.Problem, byPiece [][]int) {
	var cols []int
	var ones []float64
	for cell := range k.c.P.Cells() {
		cols, ones = cols[:0], ones[:0]
		for _, v := range k.byCell[cell] {
			cols = append(cols, int(v))
			ones = append(ones, 1)
		}
		prob.AddRow(cols, ones, 1, 1)
	}
	for _, vs := range byPiece {
		ones = ones[:0]
		for range vs {
			ones = append(ones, 1)
		}
		prob.AddRow(vs, ones, 1, 1)
	}
}

// colourRows adds the colour balance across every internal edge whose
// cells have candidates: for every colour but the last, its mass on one
// side equals its mass on the other. It checks ctx before every edge
// (wrapped by wrap).
func (k *kovalskyLP) colourRows(ctx context.Context, prob *lp.Problem, wrap func(error) error) error {
	c := k.c
	p := c.P
	var cols []int
	var ones []float64
	bucket := [2][][]int{make([][]int, c.K), make([][]int, c.K)}
	addPair := func(a, b, da, db int) error {
		if err := ctx.Err(); err != nil {
			return wrap(err)
		}
		// The candidates of a and b by the colour they show on sides da and
		// db, in the order of first appearance of the colours.
		var colours []int
		for side, cell := range [2]int{a, b} {
			d := da
			if side == 1 {
				d = db
			}
			for _, v := range k.byCell[cell] {
				col := int(byte(c.OriPacked[k.varOri[v]] >> (8 * d)))
				if len(bucket[0][col]) == 0 && len(bucket[1][col]) == 0 {
					colours = append(colours, col)
				}
				bucket[side][col] = append(bucket[side][col], int(v))
			}
		}
		// The last colour's row is implied by the cell rows.
		for i, colr := range colours {
			if i < len(colours)-1 {
				cols, ones = cols[:0], ones[:0]
				for _, v := range bucket[0][colr] {
					cols = append(cols, v)
					ones = append(ones, 1)
				}
				for _, v := range bucket[1][colr] {
					cols = append(cols, v)
					ones = append(ones, -1)
				}
				prob.AddRow(cols, ones, 0, 0)
			}
			bucket[0][colr], bucket[1][colr] = bucket[0][colr][:0], bucket[1][colr][:0]
		}
		return nil
	}
	for r := range p.Rows {
		for col := range p.Cols {
			cell := r*p.Cols + col
			if len(k.byCell[cell]) == 0 {
				continue
			}
			if col+1 < p.Cols && len(k.byCell[cell+1]) > 0 {
				if err := addPair(cell, cell+1, edgematch.East, edgematch.West); err != nil {
					return err
				}
			}
			if r+1 < p.Rows && len(k.byCell[cell+p.Cols]) > 0 {
				if err := addPair(cell, cell+p.Cols, edgematch.South, edgematch.North); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// candidatePairs returns, per cell, the oriented pieces that may stand
// there: those the frame and the hints allow, less those that the colour
// balance rows force to zero. A pair whose colour on some inner side
// appears on the facing side of no candidate of the neighbour has zero
// mass in every feasible P (the balance row of that colour has an empty
// side), so removing it, repeatedly to a fixed point (arc consistency),
// leaves the relaxation's feasible set unchanged and the LP smaller.
// Without prune, only the frame and the hints restrict the pairs.
//
// The pairs are counted before they are stored: when storing them would
// take more than bound bytes (<= 0: no bound), candidatePairs returns an
// *LPSizeError. It checks ctx after every cell.
func candidatePairs(ctx context.Context, c *kernel.Compiled, prune bool, bound int64) ([][]int32, error) {
	p := c.P
	n := p.Cells()
	allowed := func(cell int, visit func(o int32)) {
		r, col := cell/p.Cols, cell%p.Cols
		mask := edgematch.OutwardMask(p.Rows, p.Cols, r, col)
	next:
		for o := range c.OriPacked {
			if h := c.Hinted[cell]; h.Piece != edgematch.NoPiece {
				if int(c.OriPiece[o]) != h.Piece || int(c.OriRot[o]) != h.Rot {
					continue
				}
			} else if c.HintedPiece(int(c.OriPiece[o])) {
				continue
			}
			if !c.Fits(o, mask) {
				continue
			}
			for d := range 4 {
				if mask>>d&1 != 0 && edgematch.Colour(c.OriPacked[o]>>(8*d)) != p.FrameColour(r, col, d) {
					continue next
				}
			}
			visit(int32(o))
		}
	}
	sizes := make([]int, n)
	var total int64
	for cell := range n {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("counting the (cell, piece) pairs of the LP: %w", err)
		}
		allowed(cell, func(int32) { sizes[cell]++ })
		total += int64(sizes[cell])
	}
	need := 4*total + 24*int64(n)
	if prune {
		need += 16 * int64(n) * int64(c.K) // the colour counts
	}
	if bound > 0 && need > bound {
		return nil, &LPSizeError{Rows: p.Rows, Cols: p.Cols, Stage: "candidate pairs", Pairs: total, Need: need, Bound: bound}
	}
	cands := make([][]int32, n)
	for cell := range n {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("storing the LP's %d (cell, piece) pairs: %w", total, err)
		}
		cands[cell] = make([]int32, 0, sizes[cell])
		allowed(cell, func(o int32) { cands[cell] = append(cands[cell], o) })
	}
	if !prune {
		return cands, nil
	}
	// count[(cell*4+d)*k+colour]: candidates of cell showing colour on d.
	kc := c.K
	count := make([]int32, n*4*kc)
	side := func(o int32, d int) int { return int(byte(c.OriPacked[o] >> (8 * d))) }
	for cell, cs := range cands {
		for _, o := range cs {
			for d := range 4 {
				count[(cell*4+d)*kc+side(o, d)]++
			}
		}
	}
	neighbour := func(cell, d int) int {
		r, col := cell/p.Cols+[4]int{-1, 0, 1, 0}[d], cell%p.Cols+[4]int{0, 1, 0, -1}[d]
		if r < 0 || r >= p.Rows || col < 0 || col >= p.Cols {
			return -1
		}
		return r*p.Cols + col
	}
	for changed := true; changed; {
		changed = false
		for cell, cs := range cands {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("pruning the LP's %d (cell, piece) pairs: %w", total, err)
			}
			kept := cs[:0]
			for _, o := range cs {
				ok := true
				for d := range 4 {
					if nb := neighbour(cell, d); nb >= 0 && count[(nb*4+(d+2)&3)*kc+side(o, d)] == 0 {
						ok = false
						break
					}
				}
				if ok {
					kept = append(kept, o)
					continue
				}
				for d := range 4 {
					count[(cell*4+d)*kc+side(o, d)]--
				}
				changed = true
			}
			cands[cell] = kept
		}
	}
	return cands, nil
}

// Solve runs the iterative LP relaxation of Kovalsky, Glasner and Basri
// ("A global approach for solving edge-matching puzzles", SIAM J. Imaging
// Sciences 8(2), 2015, Algorithm 1): starting from P(0) = 0, P(n) maximises
// <P(n-1), P> over the relaxation, a linearisation of maximising |P|^2
// whose maxima over the polytope are its vertices, until P is a
// permutation or stops changing. Unknown orientations use the augmented
// puzzle of the four rotations of every piece.
//
// Before the first LP, the (cell, piece) pairs that the colour balance
// rows force to zero are removed to a fixed point (see candidatePairs):
// the feasible set is unchanged, the LP much smaller, and with many
// colours often a single point. A stall on a fractional P is broken once
// by a small perturbation of the objective. Plain turns both off.
//
// When P does not become a permutation (the paper's iteration cycles when
// colours are few), Solve rounds it by an assignment, fixes the cells
// whose piece has LP value at least Confidence and runs the exact
// backtracker: after every LP for at most ProbeNodes placements, and
// after the last LP without a limit, then again with nothing fixed. The LP
// has one variable per allowed (cell, oriented piece) pair: up to n^2 for a
// known orientation and 4n^2 otherwise, n = Rows*Cols.
//
// The Result's LP field holds the statistics of the iteration (LPStats),
// also when Solve fails.
func (o LP) Solve(ctx context.Context, p *edgematch.Puzzle) (edgematch.Result, error) {
	r, err := o.solve(ctx, p)
	r.Result.LP = &r.LPStats
	return r.Result, err
}

// lpResult is what solve finds: the result and the LP's statistics.
type lpResult struct {
	edgematch.Result
	edgematch.LPStats
}

func (o LP) solve(ctx context.Context, p *edgematch.Puzzle) (lpResult, error) {
	start := time.Now()
	o = o.withDefaults()
	c, err := kernel.Compile(p, kernel.CompileOptions{Order: o.Search.Order})
	if err != nil {
		return lpResult{}, err
	}
	var res lpResult
	if !c.HintsFit {
		res.Board = c.Board(nil)
		res.Score = p.Score(res.Board)
		return res, edgematch.ErrNoSolution
	}
	bound := o.MaxMemory
	if bound == 0 {
		bound = DefaultLPMemory
	}
	k, err := buildKovalskyLP(ctx, c, !o.Plain, bound)
	if err != nil {
		res.Board = c.Board(nil)
		res.Score = p.Score(res.Board)
		res.Stats.Elapsed = time.Since(start)
		return res, err
	}
	res.Variables, res.Constraints, res.Nonzeros = k.prob.NumCols(), k.prob.NumRows(), k.prob.NumNonzeros()
	if !k.feasible {
		res.Board = c.Board(nil)
		res.Score = p.Score(res.Board)
		return res, fmt.Errorf("%w: the LP relaxation is infeasible (a cell or a piece has no candidate left)", edgematch.ErrNoSolution)
	}
	model, err := o.Backend.Load(k.prob)
	if err != nil {
		return res, err
	}
	defer model.Close()
	x, solved, err := o.iterate(ctx, p, k, model, &res, start)
	if err != nil || solved {
		return res, err
	}
	var fixed []edgematch.Hint
	if x == nil {
		// Out of time before the first LP ended: no P to round.
		res.Board = c.Board(nil)
		res.Score = p.Score(res.Board)
		if err := ctx.Err(); err != nil || o.NoSearch {
			res.Stats.Elapsed = time.Since(start)
			return res, err
		}
	} else {
		// Round: the best assignment of pieces to cells, each with its best
		// rotation; then fix the confident cells whose neighbours agree.
		var conf []float64
		res.Board, conf = k.round(x)
		res.Score = p.Score(res.Board)
		fixed = k.confident(res.Board, conf, o.Confidence)
	}
	if res.Fractional == 0 && res.Score.Solved() {
		res.Permutation = true
		res.Method = "lp"
		res.Stats.Elapsed = time.Since(start)
		return res, nil
	}
	if o.NoSearch {
		res.Stats.Elapsed = time.Since(start)
		return res, nil
	}
	err = o.search(ctx, p, fixed, &res)
	res.Stats.Elapsed = time.Since(start)
	return res, err
}

// withDefaults returns o with its zero fields set to their defaults.
func (o LP) withDefaults() LP {
	if o.Backend == nil {
		o.Backend = lp.NewPDHG(lp.PDHGOptions{Tol: 1e-4})
	}
	if o.MaxIter <= 0 {
		o.MaxIter = 20
	}
	if o.Tol <= 0 {
		o.Tol = 1e-3
	}
	if o.Confidence <= 0 {
		o.Confidence = 0.9
	}
	if o.ProbeNodes == 0 {
		o.ProbeNodes = 1 << 21
	}
	return o
}

// iterate runs the LPs of Algorithm 1 on model, P(n) maximising
// <P(n-1), P>, recording them in res, and returns the last complete P (nil
// when the time ran out before the first LP ended). solved: a probe of
// the backtracker below the confident cells solved the puzzle (res holds
// the solution).
func (o LP) iterate(ctx context.Context, p *edgematch.Puzzle, k *kovalskyLP, model lp.Model, res *lpResult, start time.Time) (x []float64, solved bool, err error) {
	nv := k.prob.NumCols()
	prev := make([]float64, nv)
	obj := make([]float64, nv)
	// A stall on a face of optimal points (P(n) = P(n-1) with fractional
	// entries) is broken by a small deterministic perturbation of the
	// objective (up to 0.05 per entry), so that the next LP moves to a
	// vertex of that face.
	rng := rand.New(rand.NewPCG(uint64(nv), 0x6b6f76))
	perturb := 0.0
	bestFrac, sinceBest := math.MaxInt, 0
	lpCtx := ctx
	if o.MaxTime > 0 {
		var cancel context.CancelFunc
		lpCtx, cancel = context.WithTimeout(ctx, o.MaxTime)
		defer cancel()
	}
	for it := 1; it <= o.MaxIter; it++ {
		t0 := time.Now()
		for j := range obj {
			obj[j] = -prev[j] - perturb*rng.Float64()
		}
		model.SetObjective(obj)
		sol, err := model.Solve(lpCtx)
		res.LPTime += time.Since(t0)
		if err != nil {
			return x, false, err
		}
		if sol.Status == lp.Infeasible {
			return x, false, fmt.Errorf("%w: the LP relaxation is infeasible", edgematch.ErrNoSolution)
		}
		if sol.Status != lp.Optimal && lpCtx.Err() != nil {
			break // out of time: round the last complete LP's P
		}
		x = sol.X
		res.Iterations = it
		change, frac, dot := 0.0, 0, 0.0
		for j, v := range x {
			change = max(change, math.Abs(v-prev[j]))
			if v > o.Tol && v < 1-o.Tol {
				frac++
			}
			dot += v * prev[j]
		}
		res.Fractional = frac
		if o.Progress != nil {
			o.Progress(edgematch.LPStep{Iteration: it, Fractional: frac, Objective: dot, Change: change, Backend: sol.Iterations, Elapsed: time.Since(start)})
		}
		if o.OnLP != nil {
			o.OnLP(k.iterate(it, x, dot, frac))
		}
		copy(prev, x)
		if frac == 0 {
			break
		}
		if !o.NoSearch && o.ProbeNodes > 0 {
			r, fixed, err := k.probe(ctx, x, o)
			res.Stats.Nodes += r.Stats.Nodes
			if err == nil {
				res.Board, res.Score, res.Method, res.Fixed = r.Board, p.Score(r.Board), "lp+search", fixed
				res.Stats.Solutions = 1
				res.Stats.Elapsed = time.Since(start)
				return x, true, nil
			}
		}
		if frac < bestFrac {
			bestFrac, sinceBest = frac, 0
		} else if sinceBest++; sinceBest >= cycleLPs {
			break
		}
		if change <= o.Tol {
			if perturb > 0 || o.Plain {
				break // stalled even after a perturbation
			}
			perturb = 0.05
		}
	}
	return x, false, nil
}

// search finishes by the backtracker: below the fixed cells, then, when
// that has no solution, from scratch; it records the search in res.
func (o LP) search(ctx context.Context, p *edgematch.Puzzle, fixed []edgematch.Hint, res *lpResult) error {
	dfs := o.Search
	dfs.Count = false
	tries := []struct {
		hints  []edgematch.Hint
		method string
	}{{fixed, "lp+search"}, {nil, "search"}}
	if len(fixed) == 0 {
		tries = tries[1:]
	}
	var lastErr error
	for _, t := range tries {
		q := p.Clone()
		q.Hints = append(q.Hints, t.hints...)
		r, err := dfs.Solve(ctx, q)
		res.Stats.Nodes += r.Stats.Nodes
		res.Stats.MaxDepth = max(res.Stats.MaxDepth, r.Stats.MaxDepth)
		if err == nil {
			res.Board, res.Score, res.Method, res.Fixed = r.Board, p.Score(r.Board), t.method, len(t.hints)
			res.Stats.Solutions = 1
			return nil
		}
		lastErr = err
		if !errors.Is(err, edgematch.ErrNoSolution) {
			break
		}
	}
	return lastErr
}

// probe rounds x, fixes the confident cells and runs the backtracker for
// at most o.ProbeNodes placements; it returns the search's result, the
// number of cells fixed, and nil when it found a solution.
func (k *kovalskyLP) probe(ctx context.Context, x []float64, o LP) (edgematch.Result, int, error) {
	b, conf := k.round(x)
	fixed := k.confident(b, conf, o.Confidence)
	if len(fixed) == 0 {
		return edgematch.Result{}, 0, edgematch.ErrNoSolution
	}
	q := k.c.P.Clone()
	q.Hints = append(q.Hints, fixed...)
	dfs := o.Search
	dfs.Count, dfs.Progress = false, nil
	if dfs.MaxNodes <= 0 || dfs.MaxNodes > o.ProbeNodes {
		dfs.MaxNodes = o.ProbeNodes
	}
	r, err := dfs.Solve(ctx, q)
	return r, len(fixed), err
}

// round returns the assignment of pieces to cells that maximises the sum
// of P (each piece with its best rotation in its cell) and, per cell, the
// LP value of the chosen oriented piece. Hints stay in place.
func (k *kovalskyLP) round(x []float64) (*edgematch.Board, []float64) {
	c := k.c
	p := c.P
	n := p.Cells()
	weight := make([]float64, n*n)
	bestRot := make([]int32, n*n)
	for i := range bestRot {
		bestRot[i] = -1
	}
	for v, cell := range k.varCel {
		o := k.varOri[v]
		i := int(cell)*n + int(c.OriPiece[o])
		if bestRot[i] < 0 || x[v] > weight[i] {
			weight[i], bestRot[i] = x[v], o
		}
	}
	// Forbid impossible pairs.
	cost := make([]float64, n*n)
	for i := range cost {
		if bestRot[i] < 0 {
			cost[i] = 1e6
		} else {
			cost[i] = -weight[i]
		}
	}
	assign := kernel.Assign(n, cost)
	b := edgematch.NewBoard(p.Rows, p.Cols)
	conf := make([]float64, n)
	for cell, piece := range assign {
		o := bestRot[cell*n+piece]
		if o < 0 {
			continue
		}
		b.Cells[cell] = edgematch.Placement{Piece: piece, Rot: int(c.OriRot[o])}
		conf[cell] = weight[cell*n+piece]
	}
	return b, conf
}

// confident returns as hints the cells of b whose LP value is at least
// threshold and whose edges agree with every confident neighbour (and the
// frame).
func (k *kovalskyLP) confident(b *edgematch.Board, conf []float64, threshold float64) []edgematch.Hint {
	p := k.c.P
	ok := make([]bool, len(conf))
	for i, v := range conf {
		ok[i] = v >= threshold && b.Cells[i].Piece != edgematch.NoPiece && k.c.Hinted[i].Piece == edgematch.NoPiece
	}
	for changed := true; changed; {
		changed = false
		for i := range ok {
			if !ok[i] {
				continue
			}
			r, col := i/p.Cols, i%p.Cols
			for d := range 4 {
				e := p.Edge(b.Cells[i], d)
				if edgematch.FrameIndex(p.Rows, p.Cols, r, col, d) >= 0 {
					continue
				}
				nr, nc := r+[4]int{-1, 0, 1, 0}[d], col+[4]int{0, 1, 0, -1}[d]
				j := nr*p.Cols + nc
				if ok[j] && p.Edge(b.Cells[j], (d+2)&3) != e {
					ok[i], ok[j], changed = false, false, true
					break
				}
			}
		}
	}
	var hints []edgematch.Hint
	for i, v := range ok {
		if v {
			hints = append(hints, edgematch.Hint{Piece: b.Cells[i].Piece, Row: i / p.Cols, Col: i % p.Cols, Rot: b.Cells[i].Rot})
		}
	}
	return hints
}

// iterate copies the state after LP it, with solution x, into an LPIterate.
func (k *kovalskyLP) iterate(it int, x []float64, objective float64, fractional int) edgematch.LPIterate {
	c := k.c
	p := c.P
	rots := 4
	if p.FixedOrientation {
		rots = 1
	}
	s := edgematch.LPIterate{Iteration: it, Cells: p.Cells(), Pieces: len(p.Tiles), Rotations: rots, Objective: objective, Fractional: fractional}
	s.P = make([]float64, s.Cells*s.Pieces*rots)
	for v, cell := range k.varCel {
		o := k.varOri[v]
		s.P[(int(cell)*s.Pieces+int(c.OriPiece[o]))*rots+int(c.OriRot[o])] = x[v]
	}
	s.Board, _ = k.round(x)
	s.Score = p.Score(s.Board)
	return s
}

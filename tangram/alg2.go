package tangram

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"tessera/sdp"
)

// ErrNotRounded: Algorithm 2 reached rank one (its objective under
// Epsilon) but the translations read from the Z_i do not snap to an exact
// solution: a local minimum of the rank-one heuristic.
var ErrNotRounded = errors.New("tangram: the rank-one iterate is not a solution")

// Basis is the family of test functions f of eq. (26) whose equations
// constrain the Z_i.
type Basis uint8

// BasisExp is the paper's choice (section 4.2): f_k(u) = e^{k·u} for
// integer k with |k| <= 2K, so that Z_i holds the monomials of T_i =
// e^{t_i} (eq. 20-22, 44) and every equation is (9): one moment of each
// piece, Σ_i α_i^(k,c) T_i^k + frame = 0. The zero Basis.
const BasisExp Basis = 0

// BasisPoly uses f(u) = u_x^a u_y^b (|a+b| <= 2K): Z_i holds the
// monomials of t_i itself (a Lasserre moment matrix), and an equation
// mixes the moments of t_i up to its degree through the binomial
// expansion of Moments.Translate.
const BasisPoly Basis = 1

// String returns "poly" for BasisPoly, else "exp".
func (b Basis) String() string {
	switch b {
	case BasisPoly:
		return "poly"
	default:
		return "exp"
	}
}

// SDP is Algorithm 2 of Kovalsky, Glasner and Basri (section 5.2.2): the
// puzzle as the polynomial system of the path integrals (26), lifted to
// one moment matrix Z_i per piece (eq. 20 and, for 2-D translations, 44:
// Z_i[β,γ] = z_i,β+γ over the monomials β, γ of degree at most K, so its
// main diagonal blocks are Hankel), and the sequence of SDPs (23)
//
//	minimise Σ_i <W_i, Z_i>  s.t.  Z_i of the form (44), Z_i[0,0] = 1,
//	         the equations (9) for every edge class and |k| <= 2K, Z_i ⪰ 0
//
// started with W_i = 0 and reweighted by (24), W_i = I - v_i v_iᵀ with
// v_i the top unit eigenvector of the last Z_i, until Σ_i <W_i, Z_i> (the
// sum of all eigenvalues of every Z_i but the largest) is at most Epsilon.
// The translations are the first moments of Z_i; they are snapped to an
// exact solution (Snap) and verified (Check), so Solved means exactly
// solved. The silhouette is the frame, a static piece whose Z is the
// constant 1. On a translation-only puzzle (TurnsNone) pieces keep their
// orientation 0; when the puzzle allows turns (TurnsRotate, TurnsFlip)
// Solve works on the augmented puzzle of section 6.3 (Augmentation): the
// puzzle duplicated in each of the 8 (16 with mirror images) admissible
// orientations, one shift t_i per piece tied to all its copies, in the
// polynomial basis whatever Basis says (see newAugmented); each piece's
// orientation is read from which of its copies lies in the unturned
// silhouette.
//
// The paper is silent on scale and bounds; see the package doc (Algorithm
// 2) for the choices: centred and scaled coordinates, per-piece boxes on
// the diagonal of Z_i (which make every SDP bounded), redundant equations
// removed, and a random restart when the objective stalls (which also breaks
// the symmetry of identical pieces).
//
// Cost: a Z_i has n = (K+1)(K+2)/2 rows; the SDP has N blocks of n, about
// N(n²/2 + n) + C(K+1)(2K+1) constraints for N pieces and C edge classes
// (K = 3, seven tans: about 450), solved by Backend some 10 to 30 times.
type SDP struct {
	// Backend solves each SDP (nil: sdp.IPM{}).
	Backend sdp.Solver
	// K is the degree of the monomials of Z_i (0: 3 for a translation-only
	// puzzle, 5 for the augmented one).
	K int
	// Basis is the test functions (default BasisExp, the paper's).
	Basis Basis
	// Epsilon ends the iteration when Σ<W_i, Z_i> is at most it (0: 1e-6).
	Epsilon float64
	// MaxIter bounds the SDPs solved (0: 40); MaxTime the time (0: only
	// the context). Past either Solve returns ErrBudget.
	MaxIter int
	MaxTime time.Duration
	// SnapTol is Snap's tolerance in puzzle units (0: 0.3).
	SnapTol float64
	// Seed drives the random restarts.
	Seed uint64
	// Stall restarts the iteration from a random rank-one point when the
	// objective has not fallen by 1% in Stall iterations (0: 3; negative:
	// never, the paper's plain iteration): W_i = I - u_i u_iᵀ/|u_i|² with
	// u_i the monomials of a random translation in piece i's box.
	Stall int
	// OnIterate, when set, is called after every SDP with its iterate.
	OnIterate func(SDPIterate)
}

// SDPIterate is one iteration of Algorithm 2.
type SDPIterate struct {
	Iteration int     // 1-based
	Poses     []Pose  // translations read from the Z_i
	Objective float64 // Σ_i <W_i, Z_i> with the W_i of (24) from these Z_i
	// Shifts are the augmented puzzle's t_i (puzzle units, see
	// Augmentation) when the orientations are unknown; nil otherwise.
	Shifts [][2]float64
	// Solved: the poses snap to an exact solution.
	Solved bool
	// SDPIterations is the backend's interior-point iterations.
	SDPIterations int
	Elapsed       time.Duration // since Solve began
}

// SDPStats is what Algorithm 2 reports in Result.SDP.
type SDPStats struct {
	Iterations  int          // SDPs solved
	Objective   float64      // of the last iterate
	Iterates    []SDPIterate // every iterate, in order
	Best        int          // index in Iterates of the solved iterate, else the lowest objective
	Restarts    int          // random restarts after stalls
	Constraints int          // of each SDP
	BlockSize   int          // rows of each Z_i
	SDPTime     time.Duration
	// Augmentation is the augmented puzzle when the orientations were
	// unknown (nil for a translation-only puzzle): with an iterate's
	// Shifts, RenderAugmented draws it (the paper's Figure 7).
	Augmentation *Augmentation
}

// Solve runs Algorithm 2 on the puzzle: translation only when its Turns
// is TurnsNone, else on the augmented puzzle of its admissible
// orientations.
func (a SDP) Solve(ctx context.Context, p *Puzzle) (Result, error) {
	start := time.Now()
	if err := p.Validate(); err != nil {
		return Result{}, err
	}
	if len(p.Parts) > 0 || len(p.Holes) > 0 {
		// The moments are those of Silhouette alone.
		return Result{}, errors.New("tangram: sdp: the figure has parts touching at a corner or holes, which Algorithm 2 here does not model (the exact solver takes them)")
	}
	if a.K == 0 {
		a.K = 3
		if p.Turns != TurnsNone {
			// degree 3 leaves the augmented equations rank-one points
			// that are not solutions on every classic figure; 5 solves
			// some (docs/results/tangram.md).
			a.K = 5
		}
	}
	if a.K < 1 || a.K > 6 {
		return Result{}, fmt.Errorf("tangram: sdp: K = %d, want 1 to 6", a.K)
	}
	if a.SnapTol == 0 {
		a.SnapTol = 0.3
	}
	if a.MaxTime > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, a.MaxTime)
		defer cancel()
	}
	var (
		m   *relaxation
		aug *Augmentation
		err error
	)
	if p.Turns == TurnsNone {
		m, err = newRelaxation(p, a.K, a.Basis)
	} else {
		m, aug, err = newAugmented(p, a.K)
	}
	if err != nil {
		return Result{}, err
	}
	st := &SDPStats{BlockSize: m.n, Constraints: len(m.prob.Constraints), Augmentation: aug}
	res := Result{SDP: st}
	bestObj := math.Inf(1)
	var bestPoses []Pose
	loop := sdp.Reweighting{Backend: a.Backend, MaxIter: a.MaxIter, Epsilon: a.Epsilon, Stall: a.Stall,
		Restart: m.restarts(p, a.Seed, &st.Restarts), RankOneRestart: aug != nil && a.Stall >= 0}.WithDefaults()
	err = loop.Run(ctx, m.mom, func(it sdp.Iterate) (bool, error) {
		st.SDPTime += it.SolveTime
		if err := ctx.Err(); err != nil {
			return false, err
		}
		poses, shifts, s := m.read(p, it.Solution.X, a.SnapTol)
		iter := SDPIterate{Iteration: it.Iteration, Poses: poses, Shifts: shifts, Objective: it.Objective, Elapsed: time.Since(start),
			SDPIterations: it.Solution.Iterations}
		if s != nil {
			iter.Solved = true
			res.Solution, res.Solved = s, true
		}
		st.Iterates = append(st.Iterates, iter)
		st.Iterations, st.Objective = it.Iteration, it.Objective
		if it.Objective < bestObj || iter.Solved {
			bestObj, bestPoses, st.Best = it.Objective, poses, it.Iteration-1
		}
		if a.OnIterate != nil {
			a.OnIterate(iter)
		}
		return iter.Solved, nil
	})
	switch {
	case err == nil:
	case errors.Is(err, sdp.ErrMaxIter):
		err = fmt.Errorf("%w: sdp: %d iterations, objective %.3g > %g", ErrBudget, loop.MaxIter, st.Objective, loop.Epsilon)
	case errors.Is(err, sdp.ErrRankOne):
		err = fmt.Errorf("%w: objective %.3g after %d iterations", ErrNotRounded, st.Objective, st.Iterations)
	case ctx.Err() != nil:
		err = fmt.Errorf("%w: sdp: %v after %d iterations", ErrBudget, ctx.Err(), st.Iterations)
	default:
		err = fmt.Errorf("tangram: sdp: %w", err)
	}
	res.Elapsed = time.Since(start)
	if !res.Solved && bestPoses != nil {
		res.Solution, _ = Snap(p, bestPoses, a.SnapTol)
	}
	return res, err
}

// maxRelaxationCells bounds the dense equation matrix (8 bytes a cell),
// maxRelaxationWork the Gram-Schmidt work, O(cells · min(rows, columns))
// (a few seconds).
const (
	maxRelaxationCells = 1 << 22
	maxRelaxationWork  = 4e9
)

// relaxation is the SDP (23) of a puzzle: its constraints, and how to
// read translations back.
type relaxation struct {
	mom     *sdp.MomentSDP
	N, K, n int
	basis   Basis
	mons    [][2]int // monomials of degree <= 2K, by tri index
	prob    *sdp.Problem
	centre  [][2]float64 // c_i: translation t_i = c_i + R τ_i
	half    [][2]float64 // half-widths of the boxes of τ_i
	R       float64
	aug     *Augmentation // the augmented puzzle (section 6.3), or nil
}

func newRelaxation(p *Puzzle, K int, basis Basis) (*relaxation, error) {
	N := len(p.Pieces)
	mom := sdp.NewMomentSDP(N, K)
	m := &relaxation{mom: mom, N: N, K: K, n: mom.Size, basis: basis, mons: mom.Mons}
	nm := len(m.mons)
	// Scaled coordinates: u' = (u - O)/R, O the silhouette's box centre,
	// R its half-size; t_i = c_i + R τ_i with c_i the centre of the box of
	// translations that keep piece i within the silhouette's box.
	sil := p.Silhouette.Float()
	slo, shi := bbox(sil)
	O := [2]float64{(slo[0] + shi[0]) / 2, (slo[1] + shi[1]) / 2}
	m.R = max(shi[0]-slo[0], shi[1]-slo[1]) / 2
	half := make([][2]float64, N)
	m.half = half
	m.centre = make([][2]float64, N)
	for i, pc := range p.Pieces {
		lo, hi := bbox(pc.Shape.Float())
		for d := range 2 {
			a, b := slo[d]-lo[d], shi[d]-hi[d]
			m.centre[i][d] = (a + b) / 2
			half[i][d] = max((b-a)/2/m.R, 0) + 0.05
		}
	}
	scaled := func(pts [][2]float64, shift [2]float64) [][2]float64 {
		out := make([][2]float64, len(pts))
		for k, q := range pts {
			out[k] = [2]float64{(q[0] + shift[0] - O[0]) / m.R, (q[1] + shift[1] - O[1]) / m.R}
		}
		return out
	}
	// Edge classes (exact directions) and signed edges.
	var classes edgeClasses
	classOf := classes.of
	edgesOf := func(pg Polygon, f [][2]float64, w float64) []sdp.Segment {
		var out []sdp.Segment
		for k := range pg {
			c, sg := classOf(pg[(k+1)%len(pg)].Sub(pg[k]))
			out = append(out, sdp.Segment{Class: c, Sign: w * sg, A: f[k], B: f[(k+1)%len(f)]})
		}
		return out
	}
	pieceEdges := make([][]sdp.Segment, N)
	for i, pc := range p.Pieces {
		pieceEdges[i] = edgesOf(pc.Shape, scaled(pc.Shape.Float(), m.centre[i]), 1)
	}
	frameEdges := edgesOf(p.Silhouette, scaled(sil, [2]float64{}), -1)
	C := len(classes)

	// The equations as dense rows over the moments y_i[α], α ≠ 0 (y_i[0]
	// = 1 moves to the right side): row · y = rhs. Bounded before they
	// are built (many pieces with many edge directions).
	nv := N * (nm - 1)
	if cells := int64(C) * int64(nm) * int64(nv); cells > maxRelaxationCells || cells*int64(min(C*nm, nv)) > maxRelaxationWork {
		return nil, fmt.Errorf("%w: sdp: %d pieces and %d edge directions make %d equations over %d moments, too large for Algorithm 2", ErrBudget, N, C, C*nm, nv)
	}
	vi := func(i, k int) int { return i*(nm-1) + k - 1 }
	var rows [][]float64
	var rhs []float64
	switch basis {
	case BasisExp:
		rows, rhs = sdp.ExpEquations(pieceEdges, frameEdges, C, m.mons)
	default:
		mom := make([][]Moments, N)
		for i, es := range pieceEdges {
			mom[i] = make([]Moments, C)
			for c := range mom[i] {
				mom[i][c] = NewMoments(2 * K)
			}
			for _, e := range es {
				mom[i][e.Class].AddScaled(e.Sign, SegmentMoments(e.A, e.B, 2*K))
			}
		}
		frame := make([]Moments, C)
		for c := range frame {
			frame[c] = NewMoments(2 * K)
		}
		for _, e := range frameEdges {
			frame[e.Class].AddScaled(e.Sign, SegmentMoments(e.A, e.B, 2*K))
		}
		bin := binomials(2 * K)
		for _, al := range m.mons {
			for c := range C {
				row := make([]float64, nv)
				b := -frame[c].At(al[0], al[1])
				for i := range N {
					for px := 0; px <= al[0]; px++ {
						for py := 0; py <= al[1]; py++ {
							// y_i[α-β] times C(α,β) m(β), β = (px, py)
							coef := bin[al[0]][px] * bin[al[1]][py] * mom[i][c].At(px, py)
							k := tri(al[0]-px, al[1]-py)
							if k == 0 {
								b -= coef
							} else {
								row[vi(i, k)] += coef
							}
						}
					}
				}
				rows, rhs = append(rows, row), append(rhs, b)
			}
		}
	}
	// The SDP; the bounds: z_i,2β <= its largest value on piece i's box.
	mom.Build(rows, rhs, func(i int, b [2]int) float64 {
		if basis == BasisExp {
			return math.Exp(2 * (float64(b[0])*half[i][0] + float64(b[1])*half[i][1]))
		}
		return math.Pow(half[i][0], float64(2*b[0])) * math.Pow(half[i][1], float64(2*b[1]))
	})
	m.prob = mom.Problem
	return m, nil
}

func bbox(pts [][2]float64) (lo, hi [2]float64) {
	lo, hi = pts[0], pts[0]
	for _, q := range pts[1:] {
		for d := range 2 {
			lo[d], hi[d] = min(lo[d], q[d]), max(hi[d], q[d])
		}
	}
	return lo, hi
}

// read returns the poses an iterate stands for, the augmented shifts
// (nil without augmentation) and the exact solution they snap to when
// Check accepts it (else nil).
func (m *relaxation) read(p *Puzzle, x []sdp.Matrix, tol float64) ([]Pose, [][2]float64, *Solution) {
	if m.aug != nil {
		return m.readAugmented(p, x, tol)
	}
	poses := m.poses(x)
	if s, err := Snap(p, poses, tol); err == nil && Check(p, s) == nil {
		return poses, nil, s
	}
	return poses, nil, nil
}

// poses reads the translations from the first moments of the Z_i.
func (m *relaxation) poses(x []sdp.Matrix) []Pose {
	out := make([]Pose, m.N)
	for i := range m.N {
		tx, ty := sdp.FirstMoments(x[i]) // monomials 1, x, y
		if m.basis == BasisExp {
			tx, ty = math.Log(max(tx, 1e-12)), math.Log(max(ty, 1e-12))
		}
		out[i] = Pose{X: m.centre[i][0] + m.R*tx, Y: m.centre[i][1] + m.R*ty, Placed: true}
	}
	return out
}

// edgeClasses numbers exact edge directions up to sign: of returns d's
// class, and +1 or -1 as d runs along or against the class's first edge.
type edgeClasses []Point

func (cs *edgeClasses) of(d Point) (int, float64) {
	for c, cl := range *cs {
		if cross(cl, d).sign() == 0 {
			if dot(cl, d).sign() > 0 {
				return c, 1
			}
			return c, -1
		}
	}
	*cs = append(*cs, d)
	return len(*cs) - 1, 1
}

package tangram

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"tessera/sdp"
)

// cancelTol: a coefficient of eq. (28) under cancelTol times the sum of
// the magnitudes of its terms is what the copies cancel to, rounding.
// 1e-10 also zeroed true coefficients of the degree-10 equations (K = 5)
// where few copies sum (the identity alone: the planted solutions of 3
// classics broke them) or the centre lies far away; 1e-12 keeps them
// (TestAugmentedPlanted), above the rounding of about 1e-16 a term.
const cancelTol = 1e-12

// Augmentation is the augmented puzzle of section 6.3 of Kovalsky,
// Glasner and Basri ("Orientations", Proposition 4 and Figure 7), with
// which Algorithm 2 solves a puzzle whose pieces may turn: the whole
// puzzle, frame and pieces, duplicated in each admissible orientation A
// (the 8 turns by 45 degrees, and their mirror images when the puzzle
// allows them), every copy turned about one centre, and solved as a
// single translation-only puzzle in which the A-copy of piece i lies at
// A·t_i: one unknown shift t_i per piece, tied to all its copies by the
// rotation matrices. At a solution where piece i is turned by φ_i and its
// reference point lies at Centre + ŝ_i, t_i = A_φi⁻¹ ŝ_i: the φ_i-copy of
// piece i lands in the unturned frame, its other copies in the turned
// frames, so that every copy of the puzzle is solved (eq. 28).
//
// Shifts are in puzzle units, from Centre (the silhouette's box centre) to
// a piece's reference point (the mean of its vertices as given).
type Augmentation struct {
	// Orients are the orientations of the copies, Orients[0] = 0.
	Orients []Orientation
	Centre  [2]float64
	Ref     [][2]float64 // per piece, in the piece's own coordinates
}

// matrix returns the linear map of orientation o: a mirror image x -> -x
// when flipped, then a counter-clockwise turn by Turn()·45 degrees.
func (o Orientation) matrix() [2][2]float64 {
	// exact zeros and ±1 on the axes (cos(π/2) is not 0 in floating
	// point, and such a speck would become a row of its own).
	h := math.Sqrt2 / 2
	cs := [8][2]float64{{1, 0}, {h, h}, {0, 1}, {-h, h}, {-1, 0}, {-h, -h}, {0, -1}, {h, -h}}
	c, s := cs[o.Turn()][0], cs[o.Turn()][1]
	if o.Flipped() {
		return [2][2]float64{{-c, -s}, {-s, c}}
	}
	return [2][2]float64{{c, -s}, {s, c}}
}

func apply(a [2][2]float64, v [2]float64) [2]float64 {
	return [2]float64{a[0][0]*v[0] + a[0][1]*v[1], a[1][0]*v[0] + a[1][1]*v[1]}
}

// Orientations returns the orientations a Turns allows, in order: the
// identity first.
func (t Turns) Orientations() []Orientation {
	var out []Orientation
	for o := range Orientation(16) {
		if t.Allows(o) {
			out = append(out, o)
		}
	}
	return out
}

// NewAugmentation returns the augmentation of p for the orientations its
// Turns allows (TurnsNone gives the identity alone).
func NewAugmentation(p *Puzzle) *Augmentation {
	lo, hi := bbox(p.Silhouette.Float())
	a := &Augmentation{Orients: p.Turns.Orientations(), Centre: [2]float64{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2}}
	for _, pc := range p.Pieces {
		f := pc.Shape.Float()
		var c [2]float64
		for _, v := range f {
			c[0] += v[0] / float64(len(f))
			c[1] += v[1] / float64(len(f))
		}
		a.Ref = append(a.Ref, c)
	}
	return a
}

// Pose returns where piece i, turned by o, is drawn (as Render and Snap
// take it) when its reference point is moved to Centre + A_o·t.
func (a *Augmentation) Pose(p *Puzzle, i int, o Orientation, t [2]float64) Pose {
	m := o.matrix()
	v0 := fpt(p.Pieces[i].Shape[0])
	// the turned shape keeps its first vertex v0: reference at v0 + A(ref - v0).
	r := apply(m, [2]float64{a.Ref[i][0] - v0[0], a.Ref[i][1] - v0[1]})
	at := apply(m, t)
	return Pose{X: a.Centre[0] + at[0] - v0[0] - r[0], Y: a.Centre[1] + at[1] - v0[1] - r[1], Orient: o, Placed: true}
}

// Shift returns t_i of a placed piece: the inverse of Pose.
func (a *Augmentation) Shift(p *Puzzle, i int, ps Pose) [2]float64 {
	m := ps.Orient.matrix()
	v0 := fpt(p.Pieces[i].Shape[0])
	r := apply(m, [2]float64{a.Ref[i][0] - v0[0], a.Ref[i][1] - v0[1]})
	at := [2]float64{ps.X + v0[0] + r[0] - a.Centre[0], ps.Y + v0[1] + r[1] - a.Centre[1]}
	// A is orthogonal: A⁻¹ = Aᵀ.
	return [2]float64{m[0][0]*at[0] + m[1][0]*at[1], m[0][1]*at[0] + m[1][1]*at[1]}
}

// Shifts returns the shifts of a solution's placed pieces (zero for the
// others).
func (a *Augmentation) Shifts(p *Puzzle, s *Solution) [][2]float64 {
	out := make([][2]float64, len(p.Pieces))
	for i, ps := range s.Poses() {
		if ps.Placed {
			out[i] = a.Shift(p, i, ps)
		}
	}
	return out
}

// newAugmented is the SDP (23) of the augmented puzzle: the equations
// (28) with the polynomial test functions f(u) = u_x^a u_y^b (|a+b| <=
// 2K) over the moments of the t_i (in scaled coordinates τ_i = t_i/R), one
// Lasserre moment matrix Z_i per piece. The paper's exponential functions
// would need the exponents A_oᵀk, irrational for 45-degree turns, so the
// augmented puzzle always uses BasisPoly: (A τ)^γ is a polynomial of the
// same degree in τ, and the equations stay linear in the moments of τ_i.
// The SDP has the size of the translation-only one; only its coefficients
// sum over the copies.
func newAugmented(p *Puzzle, K int) (*relaxation, *Augmentation, error) {
	aug := NewAugmentation(p)
	N := len(p.Pieces)
	mom := sdp.NewMomentSDP(N, K)
	m := &relaxation{mom: mom, N: N, K: K, n: mom.Size, basis: BasisPoly, mons: mom.Mons, aug: aug}
	nm := len(m.mons)
	sil := p.Silhouette.Float()
	slo, shi := bbox(sil)
	m.R = max(shi[0]-slo[0], shi[1]-slo[1]) / 2
	// |t_i| is at most the silhouette's radius about the centre.
	h := 0.0
	for _, v := range sil {
		h = max(h, math.Hypot(v[0]-aug.Centre[0], v[1]-aug.Centre[1]))
	}
	h = h/m.R + 0.05
	m.centre = make([][2]float64, N)
	m.half = make([][2]float64, N)
	for i := range N {
		m.half[i] = [2]float64{h, h}
	}
	var classes edgeClasses
	classOf := classes.of
	// copyEdges returns the edges of pg turned by o about its first vertex,
	// with offset added to every vertex (scaled by 1/R): the class moments
	// of degree <= 2K, signed by w.
	copyMoments := func(pg Polygon, o Orientation, offset [2]float64, w float64, into map[int]Moments) error {
		q, err := pg.Oriented(o)
		if err != nil {
			return err
		}
		f := q.Float()
		v0 := f[0]
		pts := make([][2]float64, len(f))
		for k, v := range f {
			pts[k] = [2]float64{(v[0] - v0[0] + offset[0]) / m.R, (v[1] - v0[1] + offset[1]) / m.R}
		}
		for k := range q {
			c, sg := classOf(q[(k+1)%len(q)].Sub(q[k]))
			if _, ok := into[c]; !ok {
				into[c] = NewMoments(2 * K)
			}
			into[c].AddScaled(w*sg, SegmentMoments(pts[k], pts[(k+1)%len(pts)], 2*K))
		}
		return nil
	}
	frame := map[int]Moments{}
	pieces := make([][]map[int]Moments, N) // [piece][copy]
	for a, o := range aug.Orients {
		mt := o.matrix()
		s0 := fpt(p.Silhouette[0])
		if err := copyMoments(p.Silhouette, o, apply(mt, [2]float64{s0[0] - aug.Centre[0], s0[1] - aug.Centre[1]}), -1, frame); err != nil {
			return nil, nil, fmt.Errorf("tangram: sdp: the silhouette turned by %v: %w", o, err)
		}
		for i, pc := range p.Pieces {
			if a == 0 {
				pieces[i] = make([]map[int]Moments, len(aug.Orients))
			}
			pieces[i][a] = map[int]Moments{}
			v0 := fpt(pc.Shape[0])
			off := apply(mt, [2]float64{v0[0] - aug.Ref[i][0], v0[1] - aug.Ref[i][1]})
			if err := copyMoments(pc.Shape, o, off, 1, pieces[i][a]); err != nil {
				return nil, nil, fmt.Errorf("tangram: sdp: piece %d (%s) turned by %v: %w", i+1, pc.Name, o, err)
			}
		}
	}
	C := len(classes)
	nv := N * (nm - 1)
	if cells := int64(C) * int64(nm) * int64(nv); cells > maxRelaxationCells || cells*int64(min(C*nm, nv)) > maxRelaxationWork {
		return nil, nil, fmt.Errorf("%w: sdp: %d pieces and %d edge directions make %d equations over %d moments, too large for Algorithm 2", ErrBudget, N, C, C*nm, nv)
	}
	rows, rhs := m.augmentedEquations(aug, pieces, frame, C)
	mom.Build(rows, rhs, func(i int, b [2]int) float64 {
		return math.Pow(m.half[i][0], float64(2*(b[0]+b[1])))
	})
	m.prob = mom.Problem
	return m, aug, nil
}

// augmentedEquations writes eq. (28) for every class c and monomial α of
// degree <= 2K as a dense row over the moments of the τ_i:
//
//	Σ_A Σ_i Σ_{β<=α} C(α,β) M_{i,A,c}(β) (Aτ_i)^{α-β} + F_c(α) = 0
//
// M_{i,A,c} the moments of the A-copy of piece i's edges of class c about
// its reference point, F_c those of the frames.
func (m *relaxation) augmentedEquations(aug *Augmentation, pieces [][]map[int]Moments, frame map[int]Moments, C int) ([][]float64, []float64) {
	K2 := 2 * m.K
	nm := len(m.mons)
	nv := m.N * (nm - 1)
	bin := binomials(K2)
	// expand[a][tri(γ)]: the coefficients over tri(δ) of (A τ)^γ.
	expand := make([][][]float64, len(aug.Orients))
	for a, o := range aug.Orients {
		mt := o.matrix()
		expand[a] = make([][]float64, nm)
		for g, gm := range m.mons {
			poly := make([]float64, nm)
			poly[0] = 1
			for range gm[0] {
				poly = polyMulLinear(poly, mt[0][0], mt[0][1], K2)
			}
			for range gm[1] {
				poly = polyMulLinear(poly, mt[1][0], mt[1][1], K2)
			}
			expand[a][g] = poly
		}
	}
	var rows [][]float64
	var rhs []float64
	for _, al := range m.mons {
		for c := range C {
			row := make([]float64, nv)
			b := 0.0
			if f, ok := frame[c]; ok {
				b = -f.At(al[0], al[1])
			}
			mag := math.Abs(b) // the size of the terms, for the cancellation below

			for i := range m.N {
				for a := range aug.Orients {
					mc, ok := pieces[i][a][c]
					if !ok {
						continue
					}
					for px := 0; px <= al[0]; px++ {
						for py := 0; py <= al[1]; py++ {
							coef := bin[al[0]][px] * bin[al[1]][py] * mc.At(px, py)
							if coef == 0 {
								continue
							}
							for k, e := range expand[a][tri(al[0]-px, al[1]-py)] {
								mag += math.Abs(coef * e)
								switch {
								case e == 0:
								case k == 0:
									b -= coef * e
								default:
									row[i*(nm-1)+k-1] += coef * e
								}
							}
						}
					}
				}
			}
			// Copies cancel: what is left of a coefficient under 1e-10 of
			// the terms it sums is rounding, and left in it would make a
			// spurious equation (OrthonormalRows normalises what remains).
			for j, v := range row {
				if math.Abs(v) < cancelTol*mag {
					row[j] = 0
				}
			}
			if math.Abs(b) < cancelTol*mag {
				b = 0
			}
			rows, rhs = append(rows, row), append(rhs, b)
		}
	}
	return rows, rhs
}

// polyMulLinear returns poly·(cx·x + cy·y) for poly over the monomials
// of degree <= d by tri index (terms beyond d dropped).
func polyMulLinear(poly []float64, cx, cy float64, d int) []float64 {
	out := make([]float64, len(poly))
	for s := 0; s < d; s++ {
		for j := 0; j <= s; j++ {
			v := poly[tri(s-j, j)]
			if v == 0 {
				continue
			}
			out[tri(s-j+1, j)] += v * cx
			out[tri(s-j, j+1)] += v * cy
		}
	}
	return out
}

// maxOrientCombos bounds the orientation choices readAugmented tries with
// Snap and Check, maxOrientNodes its search for them.
const (
	maxOrientCombos = 64
	maxOrientNodes  = 20000
)

// readAugmented reads the shifts t_i from the Z_i, and for every piece its
// candidate copies: those whose vertices lie in the unturned silhouette
// within tol (a copy may lie there in more than one orientation, the turned
// frames overlapping the unturned one). It then searches the choices of
// one candidate a piece that cover sample points of the silhouette about
// once each (overlaps under 5% of a piece allowed: the iterate is
// approximate), and tries them with Snap and Check until one is a
// solution. It returns the poses of that solution, else of the first
// choice that covers the silhouette, else of each piece's best copy; the
// shifts; and the solution or nil.
func (m *relaxation) readAugmented(p *Puzzle, x []sdp.Matrix, tol float64) ([]Pose, [][2]float64, *Solution) {
	aug := m.aug
	shifts := make([][2]float64, m.N)
	sil := p.Silhouette.Float()
	samples := samplePoints(sil, m.R/16)
	type cand struct {
		pose  Pose
		bad   float64
		cover []uint64
		n     int
	}
	cands := make([][]cand, m.N)
	for i := range m.N {
		tx, ty := sdp.FirstMoments(x[i])
		shifts[i] = [2]float64{m.R * tx, m.R * ty}
		var all []cand
		for _, o := range aug.Orients {
			ps := aug.Pose(p, i, o, shifts[i])
			sh, err := p.Pieces[i].Shape.Oriented(o)
			if err != nil {
				continue
			}
			f := sh.Float()
			bad := 0.0
			for k := range f {
				f[k] = [2]float64{f[k][0] + ps.X, f[k][1] + ps.Y}
				bad = max(bad, outside(sil, f[k]))
			}
			c := cand{pose: ps, bad: bad, cover: make([]uint64, (len(samples)+63)/64)}
			for j, q := range samples {
				if outside(f, q) == 0 {
					c.cover[j/64] |= 1 << (j % 64)
					c.n++
				}
			}
			all = append(all, c)
		}
		slices.SortStableFunc(all, func(a, b cand) int { return cmpFloat(a.bad, b.bad) })
		keep := all[:1]
		for _, c := range all[1:] {
			if c.bad <= tol {
				keep = append(keep, c)
			}
		}
		cands[i] = keep
	}
	poses := make([]Pose, m.N)
	for i := range m.N {
		poses[i] = cands[i][0].pose
	}
	order := make([]int, m.N)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(cands[a]) - len(cands[b]) })
	var (
		sol          *Solution
		first        []Pose
		combos, node int
	)
	try := make([]Pose, m.N)
	used := make([]uint64, (len(samples)+63)/64)
	var dfs func(d int) bool
	dfs = func(d int) bool {
		if node++; node > maxOrientNodes || combos >= maxOrientCombos {
			return true
		}
		if d == m.N {
			combos++
			if first == nil {
				first = slices.Clone(try)
			}
			if s, err := Snap(p, try, tol); err == nil && Check(p, s) == nil {
				sol = s
				return true
			}
			return false
		}
		i := order[d]
		for _, c := range cands[i] {
			over := 0
			for w := range used {
				over += bits.OnesCount64(used[w] & c.cover[w])
			}
			if float64(over) > 0.05*float64(c.n) {
				continue
			}
			prev := slices.Clone(used)
			for w := range used {
				used[w] |= c.cover[w]
			}
			try[i] = c.pose
			stop := dfs(d + 1)
			copy(used, prev)
			if stop {
				return true
			}
		}
		return false
	}
	dfs(0)
	switch {
	case sol != nil:
		return slices.Clone(try), shifts, sol
	case first != nil:
		return first, shifts, nil
	}
	return poses, shifts, nil
}

// restarts returns the Restart of Algorithm 2's reweighting: the weights
// of random rank-one points (randomW), seeded, counted in *n.
func (m *relaxation) restarts(p *Puzzle, seed uint64, n *int) func() [][]float64 {
	rng := rand.New(rand.NewPCG(seed, 0x7a6e))
	return func() [][]float64 {
		*n++
		return m.randomW(p, rng)
	}
}

// randomW returns W_i = I - u uᵀ/|u|² for u the monomials of a random
// point of each piece's box.
func (m *relaxation) randomW(p *Puzzle, rng *rand.Rand) [][]float64 {
	if m.aug != nil {
		return m.aug.randomW(p, m, rng)
	}
	w := make([][]float64, m.N)
	for i := range m.N {
		var tau [2]float64
		for d := range 2 {
			tau[d] = (2*rng.Float64() - 1) * m.half[i][d]
			if m.basis == BasisExp {
				tau[d] = math.Exp(tau[d])
			}
		}
		w[i] = m.mom.Projector(tau)
	}
	return w
}

// randomW returns the restart weights of the augmented puzzle: W_i = I -
// u uᵀ/|u|² for u the monomials of the shift of a random placement of
// piece i, its reference point at a random point of the silhouette and
// the piece in a random admissible orientation (a point of the box of the
// τ_i would mostly be no placement at all).
func (a *Augmentation) randomW(p *Puzzle, m *relaxation, rng *rand.Rand) [][]float64 {
	sil := p.Silhouette.Float()
	lo, hi := bbox(sil)
	w := make([][]float64, m.N)
	for i := range m.N {
		q := [2]float64{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2}
		for range 1000 {
			c := [2]float64{lo[0] + rng.Float64()*(hi[0]-lo[0]), lo[1] + rng.Float64()*(hi[1]-lo[1])}
			if outside(sil, c) == 0 {
				q = c
				break
			}
		}
		mt := a.Orients[rng.IntN(len(a.Orients))].matrix()
		s := [2]float64{q[0] - a.Centre[0], q[1] - a.Centre[1]}
		t := [2]float64{mt[0][0]*s[0] + mt[1][0]*s[1], mt[0][1]*s[0] + mt[1][1]*s[1]} // Aᵀ s
		w[i] = m.mom.Projector([2]float64{t[0] / m.R, t[1] / m.R})
	}
	return w
}

// samplePoints returns the points of a grid of the given step that lie
// inside the polygon f, the grid shifted off the lattice of the tans'
// edges.
func samplePoints(f [][2]float64, step float64) [][2]float64 {
	lo, hi := bbox(f)
	var out [][2]float64
	for y := lo[1] + 0.6180339887*step; y < hi[1]; y += step {
		for x := lo[0] + 0.4142135623*step; x < hi[0]; x += step {
			if q := [2]float64{x, y}; outside(f, q) == 0 {
				out = append(out, q)
			}
		}
	}
	return out
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// outside returns how far q lies outside the polygon f (0 inside or on
// it), in floating point.
func outside(f [][2]float64, q [2]float64) float64 {
	in := false
	d := math.Inf(1)
	for j := range f {
		a, b := f[j], f[(j+1)%len(f)]
		if (a[1] > q[1]) != (b[1] > q[1]) && q[0] < a[0]+(q[1]-a[1])*(b[0]-a[0])/(b[1]-a[1]) {
			in = !in
		}
		d = min(d, segDist(q, a, b))
	}
	if in {
		return 0
	}
	return d
}

func fpt(q Point) [2]float64 { return [2]float64{q.X.Float64(), q.Y.Float64()} }

package sdp

import "math"

// The moment matrices of Algorithm 2 of Kovalsky, Glasner and Basri ("A
// global approach for solving edge-matching puzzles", section 5.2.2), in
// the form the tangram and edge-matching families share: N pieces, each
// with an unknown translation in the plane, one moment matrix Z_i per
// piece over the monomials of degree at most K in two variables (eq. 20
// and, for translations, 44), the equations (9) of the path integrals
// over edge classes, and the SDP (23) they make.

// Monomials returns the monomials x^a y^b of two variables of degree at
// most d as {a, b}, in graded order: degree 0, then 1 (x, y), then 2 (x²,
// xy, y²), ...; monomial {a, b} has index MonomialIndex(a, b).
func Monomials(d int) [][2]int {
	var out [][2]int
	for s := 0; s <= d; s++ {
		for j := 0; j <= s; j++ {
			out = append(out, [2]int{s - j, j})
		}
	}
	return out
}

// MonomialIndex returns the index of x^a y^b in Monomials.
func MonomialIndex(a, b int) int { s := a + b; return s*(s+1)/2 + b }

// SegmentExp returns ∫_γ e^{kx·x + ky·y} ds over the segment from a to b:
// the paper's test function f_k(u) = e^{k·u} integrated along an edge
// (eq. 26), in closed form, L e^{k·a} (e^{k·d} - 1)/(k·d) with d = b - a
// (L e^{k·a} when k·d is 0).
func SegmentExp(a, b [2]float64, kx, ky float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	L := math.Hypot(dx, dy)
	kd := kx*dx + ky*dy
	f := 1.0
	if math.Abs(kd) > 1e-12 {
		f = math.Expm1(kd) / kd
	}
	return L * math.Exp(kx*a[0]+ky*a[1]) * f
}

// Segment is one edge of a piece or of the frame, from A to B in the
// relaxation's (scaled) coordinates: its edge class (colour and direction)
// and its sign in the class's equation (+1 or -1; abutting edges of a
// solution cancel).
type Segment struct {
	Class int
	Sign  float64
	A, B  [2]float64
}

// ExpEquations returns the equations (9) of the exponential test
// functions f_k(u) = e^{k·u}, one for every edge class c < classes and
// monomial k of mons (the monomials of degree at most 2K):
//
//	Σ_i α_i^(k,c) T_i^k + frame^(k,c) = 0
//
// as dense rows over the moments y_i[k], k ≠ 0, of the N = len(pieces)
// pieces (variable i·(len(mons)-1) + k - 1), y_i[0] = 1 moved to the
// right side. pieces[i] are piece i's edges placed at the centre of its
// box, frame the frame's (a static piece). Cost: O(len(mons) · (edges +
// classes · N)).
func ExpEquations(pieces [][]Segment, frame []Segment, classes int, mons [][2]int) (rows [][]float64, rhs []float64) {
	N, nm := len(pieces), len(mons)
	nv := N * (nm - 1)
	for k, mk := range mons {
		kx, ky := float64(mk[0]), float64(mk[1])
		alpha := make([][]float64, classes)
		fr := make([]float64, classes)
		for c := range alpha {
			alpha[c] = make([]float64, N)
		}
		for i, es := range pieces {
			for _, e := range es {
				alpha[e.Class][i] += e.Sign * SegmentExp(e.A, e.B, kx, ky)
			}
		}
		for _, e := range frame {
			fr[e.Class] += e.Sign * SegmentExp(e.A, e.B, kx, ky)
		}
		for c := range classes {
			row := make([]float64, nv)
			b := -fr[c]
			for i := range N {
				if k == 0 {
					b -= alpha[c][i]
				} else {
					row[i*(nm-1)+k-1] = alpha[c][i]
				}
			}
			rows, rhs = append(rows, row), append(rhs, b)
		}
	}
	return rows, rhs
}

// MomentSDP is the SDP (23) of Algorithm 2 over N moment matrices Z_i of
// size Size = (K+1)(K+2)/2, Z_i[β,γ] = y_i[β+γ] for the monomials β, γ of
// degree at most K (a Hankel structure, eq. 44): blocks 0 to N-1 are the
// Z_i, block N a diagonal block of slacks for the bounds. Build it with
// NewMomentSDP, then Build with the equations.
type MomentSDP struct {
	N, K, Size int
	// Mons are the monomials of degree at most 2K (Monomials(2K)); the
	// first Size are the rows of each Z_i.
	Mons [][2]int
	// Canon is, for each moment (by MonomialIndex), the entry {r, c}, r <=
	// c, of Z_i that stands for it.
	Canon [][2]int
	// Problem is the SDP, set by Build; its objective C is the
	// reweighting's.
	Problem *Problem
}

// NewMomentSDP returns the moment structure for N pieces and degree K >=
// 1, without its problem.
func NewMomentSDP(N, K int) *MomentSDP {
	n := (K + 1) * (K + 2) / 2
	m := &MomentSDP{N: N, K: K, Size: n, Mons: Monomials(2 * K)}
	m.Canon = make([][2]int, len(m.Mons))
	for k := range m.Canon {
		m.Canon[k] = [2]int{-1, -1}
	}
	for r := range n {
		for c := r; c < n; c++ {
			k := m.index(r, c)
			if m.Canon[k][0] < 0 {
				m.Canon[k] = [2]int{r, c}
			}
		}
	}
	return m
}

// index is the moment of entry (r, c) of a Z_i.
func (m *MomentSDP) index(r, c int) int {
	return MonomialIndex(m.Mons[r][0]+m.Mons[c][0], m.Mons[r][1]+m.Mons[c][1])
}

// Build sets m.Problem: Z_i[0,0] = 1 and the Hankel structure for each
// piece, the bounds Z_i[r,r] <= bound(i, β) (β the r-th monomial, r >= 1)
// with a slack each, then the equations rows · y = rhs over the moments
// (variable i·(len(Mons)-1) + k - 1 for moment k ≠ 0 of piece i, as
// ExpEquations writes them), reduced first by OrthonormalRows. The
// objective is left empty.
func (m *MomentSDP) Build(rows [][]float64, rhs []float64, bound func(i int, mon [2]int) float64) {
	rows, rhs = OrthonormalRows(rows, rhs)
	N, n, nm := m.N, m.Size, len(m.Mons)
	nb := n - 1 // bounds per piece: the diagonal entries but Z[0,0]
	pr := &Problem{Minimize: true}
	for range N {
		pr.Blocks = append(pr.Blocks, Block{Size: n})
	}
	pr.Blocks = append(pr.Blocks, Block{Size: N * nb, Diagonal: true})
	entry := func(i, k int, v float64) Entry {
		rc := m.Canon[k]
		if rc[0] != rc[1] {
			v /= 2
		}
		return E(i, rc[0], rc[1], v)
	}
	for i := range N {
		pr.AddConstraint(1, E(i, 0, 0, 1))
		// Hankel structure (44): every entry equals its moment's
		// representative.
		for r := range n {
			for c := r; c < n; c++ {
				k := m.index(r, c)
				if m.Canon[k] == [2]int{r, c} {
					continue
				}
				a := 1.0
				if r != c {
					a = 0.5
				}
				pr.AddConstraint(0, E(i, r, c, a), entry(i, k, -1))
			}
		}
		for r := 1; r < n; r++ {
			pr.AddConstraint(bound(i, m.Mons[r]), E(i, r, r, 1), E(N, i*nb+r-1, i*nb+r-1, 1))
		}
	}
	for q, row := range rows {
		var es []Entry
		for v, x := range row {
			if x != 0 {
				es = append(es, entry(v/(nm-1), v%(nm-1)+1, x))
			}
		}
		pr.AddConstraint(rhs[q], es...)
	}
	m.Problem = pr
}

// Projector returns the restart weight I - u uᵀ/|u|² of a piece for u
// the monomials of Z's rows at the point tau: u[r] = tau_x^a tau_y^b for
// the r-th monomial x^a y^b (see the package-level Projector).
func (m *MomentSDP) Projector(tau [2]float64) []float64 {
	u := make([]float64, m.Size)
	for r, b := range m.Mons[:m.Size] {
		u[r] = math.Pow(tau[0], float64(b[0])) * math.Pow(tau[1], float64(b[1]))
	}
	return Projector(u)
}

// FirstMoments returns the first moments y[x]/y[1] and y[y]/y[1] of a
// moment matrix z: the translation (or its exponential) a rank-one z
// stands for.
func FirstMoments(z Matrix) (x, y float64) {
	z0 := z.At(0, 0)
	return z.At(0, 1) / z0, z.At(0, 2) / z0
}

package tangram

import (
	"fmt"
	"math"

	"tessera/sdp"
)

// Moments holds the path moments of a curve γ up to total degree K:
// ∫_γ x^i y^j ds for i + j <= K, ds the arc length. They are the
// polynomial representation of section 6.2 of Kovalsky, Glasner and
// Basri: with f(u) = u_x^i u_y^j in eq. (26), the contribution of an edge
// γ of a piece translated by t is ∫_{γ+t} f = Σ C(i,p) C(j,q) t_x^{i-p}
// t_y^{j-q} ∫_γ x^p y^q ds (Translate), a polynomial in t whose
// coefficients are the edge's moments. They are additive over a curve cut
// in parts, which is what lets an edge pair with several shorter ones.
type Moments struct {
	K int
	m []float64 // m[tri(i, j)]
}

func tri(i, j int) int { s := i + j; return s*(s+1)/2 + j }

// At returns ∫ x^i y^j ds (0 when i + j > K).
func (m Moments) At(i, j int) float64 {
	if i < 0 || j < 0 || i+j > m.K {
		return 0
	}
	return m.m[tri(i, j)]
}

// NewMoments returns zero moments up to degree K; it panics when K < 0.
func NewMoments(K int) Moments {
	if K < 0 {
		panic("tangram: negative moment degree")
	}
	return Moments{K, make([]float64, (K+1)*(K+2)/2)}
}

// AddScaled adds s·o to m (same K).
func (m Moments) AddScaled(s float64, o Moments) {
	for k := range m.m {
		m.m[k] += s * o.m[k]
	}
}

// SegmentMoments returns the moments of the straight segment from a to b,
// by the binomial expansion of the parametrisation a + s(b-a), s in
// [0, 1]: ∫ x^i y^j ds = L Σ C(i,p) C(j,q) a_x^{i-p} d_x^p a_y^{j-q}
// d_y^q / (p+q+1). O(K⁴).
func SegmentMoments(a, b [2]float64, K int) Moments {
	m := NewMoments(K)
	dx, dy := b[0]-a[0], b[1]-a[1]
	L := math.Hypot(dx, dy)
	c := binomials(K)
	for i := 0; i <= K; i++ {
		for j := 0; i+j <= K; j++ {
			s := 0.0
			for p := 0; p <= i; p++ {
				for q := 0; q <= j; q++ {
					s += c[i][p] * c[j][q] * math.Pow(a[0], float64(i-p)) * math.Pow(dx, float64(p)) *
						math.Pow(a[1], float64(j-q)) * math.Pow(dy, float64(q)) / float64(p+q+1)
				}
			}
			m.m[tri(i, j)] = L * s
		}
	}
	return m
}

// Translate returns the moments of the curve moved by t.
func (m Moments) Translate(tx, ty float64) Moments {
	out := NewMoments(m.K)
	c := binomials(m.K)
	for i := 0; i <= m.K; i++ {
		for j := 0; i+j <= m.K; j++ {
			s := 0.0
			for p := 0; p <= i; p++ {
				for q := 0; q <= j; q++ {
					s += c[i][p] * c[j][q] * math.Pow(tx, float64(i-p)) * math.Pow(ty, float64(j-q)) * m.m[tri(p, q)]
				}
			}
			out.m[tri(i, j)] = s
		}
	}
	return out
}

func binomials(K int) [][]float64 {
	c := make([][]float64, K+1)
	for n := range c {
		c[n] = make([]float64, n+1)
		c[n][0], c[n][n] = 1, 1
		for k := 1; k < n; k++ {
			c[n][k] = c[n-1][k-1] + c[n-1][k]
		}
	}
	return c
}

// SegmentExp returns ∫_γ e^{kx·x + ky·y} ds over the segment from a to b:
// the paper's exponential choice f_k(u) = e^{k·u} (section 4.2) in eq.
// (26). Under a translation t it is multiplied by e^{k·t} = T^k, which
// makes eq. (26) the polynomial (9) in T = e^t that Algorithm 2 works on.
// It is sdp.SegmentExp, which the edge-matching family shares.
func SegmentExp(a, b [2]float64, kx, ky float64) float64 {
	return sdp.SegmentExp(a, b, kx, ky)
}

// EdgeClass is one edge type of a tangram (all edges share one colour, as
// the paper notes): the edges parallel to Dir. An edge along Dir has sign
// +1, an edge against it -1: s_{i,j}(θ) of eq. (5).
type EdgeClass struct {
	Dir Point
}

// System is the algebraic representation of a translation-only puzzle by
// the path integrals of section 6.2: for every edge class c, the signed
// moments of every piece's edges in the piece's own coordinates, and of
// the frame (the silhouette's complement, a static piece whose edges are
// the silhouette's reversed). For translations t_i that solve the puzzle,
// for every class c and every monomial of degree at most K,
//
//	Σ_i Piece[i][c].Translate(t_i) + Frame[c] = 0
//
// (Proposition 1 with eq. 26: matching edges cancel, also when an edge
// pairs with several shorter ones). Residual evaluates the left side.
// NewSystem uses the pieces as given (orientation 0).
type System struct {
	K       int
	Classes []EdgeClass
	Piece   [][]Moments // [piece][class]
	Frame   []Moments   // [class]

	p *Puzzle
}

// NewSystem builds the System of p up to degree K (0 <= K <= 32).
// O(E·K⁴) for E edges.
func NewSystem(p *Puzzle, K int) (*System, error) {
	if K < 0 || K > 32 {
		return nil, fmt.Errorf("tangram: moment degree %d, want 0 to 32", K)
	}
	s := &System{K: K, p: p}
	classOf := func(d Point) (int, float64) {
		for c, cl := range s.Classes {
			if cross(cl.Dir, d).sign() == 0 {
				if dot(cl.Dir, d).sign() > 0 {
					return c, 1
				}
				return c, -1
			}
		}
		s.Classes = append(s.Classes, EdgeClass{d})
		return len(s.Classes) - 1, 1
	}
	type edge struct {
		class int
		sign  float64
		m     Moments
	}
	edges := func(pg Polygon) []edge {
		f := pg.Float()
		var out []edge
		for k := range pg {
			c, sg := classOf(pg[(k+1)%len(pg)].Sub(pg[k]))
			out = append(out, edge{c, sg, SegmentMoments(f[k], f[(k+1)%len(f)], K)})
		}
		return out
	}
	pieceEdges := make([][]edge, len(p.Pieces))
	for i, pc := range p.Pieces {
		pieceEdges[i] = edges(pc.Shape)
	}
	frameEdges := edges(p.Silhouette)
	nc := len(s.Classes)
	s.Piece = make([][]Moments, len(p.Pieces))
	for i := range p.Pieces {
		s.Piece[i] = make([]Moments, nc)
		for c := range s.Piece[i] {
			s.Piece[i][c] = NewMoments(K)
		}
		for _, e := range pieceEdges[i] {
			s.Piece[i][e.class].AddScaled(e.sign, e.m)
		}
	}
	s.Frame = make([]Moments, nc)
	for c := range s.Frame {
		s.Frame[c] = NewMoments(K)
	}
	for _, e := range frameEdges {
		s.Frame[e.class].AddScaled(-e.sign, e.m) // the frame's edges run against the silhouette's
	}
	return s, nil
}

// Residual returns, for every class, the moments Σ_i Piece[i][c]
// translated by t[i] plus Frame[c]: zero (to rounding) at a solution.
// Unplaced pieces are not counted.
func (s *System) Residual(t []Pose) []Moments {
	out := make([]Moments, len(s.Classes))
	for c := range out {
		out[c] = NewMoments(s.K)
		out[c].AddScaled(1, s.Frame[c])
		for i := range s.Piece {
			if i < len(t) && t[i].Placed {
				out[c].AddScaled(1, s.Piece[i][c].Translate(t[i].X, t[i].Y))
			}
		}
	}
	return out
}

// ExpCoefficients returns the coefficients of the paper's polynomial
// system (9) with the path integrals of (26), for the exponent k = (kx,
// ky): alpha[c][i] = Σ_j s_{i,j}(c) ∫_{γ_{i,j}} e^{k·z} ds over piece i's
// edges of class c (piece coordinates), and frame[c] the same for the
// frame. At a solution Σ_i alpha[c][i]·e^{k·t_i} + frame[c] = 0 for every
// c, and e^{k·t_i} = T_i^k is the monomial the Hankel matrices Z_i of
// Algorithm 2 hold.
func (s *System) ExpCoefficients(kx, ky float64) (alpha [][]float64, frame []float64) {
	p := s.p
	alpha = make([][]float64, len(s.Classes))
	frame = make([]float64, len(s.Classes))
	for c := range alpha {
		alpha[c] = make([]float64, len(p.Pieces))
	}
	add := func(pg Polygon, w float64, dst func(c int, v float64)) {
		f := pg.Float()
		for k := range pg {
			d := pg[(k+1)%len(pg)].Sub(pg[k])
			for c, cl := range s.Classes {
				if cross(cl.Dir, d).sign() != 0 {
					continue
				}
				sg := w
				if dot(cl.Dir, d).sign() < 0 {
					sg = -w
				}
				dst(c, sg*SegmentExp(f[k], f[(k+1)%len(f)], kx, ky))
				break
			}
		}
	}
	for i, pc := range p.Pieces {
		add(pc.Shape, 1, func(c int, v float64) { alpha[c][i] += v })
	}
	add(p.Silhouette, -1, func(c int, v float64) { frame[c] += v })
	return alpha, frame
}

package jigsaw

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"tessera/imageio"
)

// Metric selects an edge dissimilarity.
type Metric uint8

const (
	// MGC is Gallagher's Mahalanobis gradient compatibility (CVPR 2012):
	// the gradient across the joint is compared with the distribution of
	// the gradients just inside each piece (mean and covariance of the
	// L*a*b* differences between the two outer pixel rows, regularised by
	// nine dummy gradients), summed over both directions. The default;
	// CompatOptions.Pred adds a prediction term to it.
	MGC Metric = iota
	// LabSSD is the dissimilarity of Cho et al. 2010 and Sholomon et al.
	// 2013: the square root of the summed squared L*a*b* differences
	// between the two abutting pixel rows.
	LabSSD
)

var metricNames = [...]string{MGC: "mgc", LabSSD: "ssd"}

// PredWeight is the weight of the prediction term (CompatOptions.Pred)
// that the genetic solver (jigsaw/ga) adds to MGC by default in Type 2.
const PredWeight = 0.02

// String returns "mgc" or "ssd".
func (m Metric) String() string {
	if int(m) < len(metricNames) {
		return metricNames[m]
	}
	return fmt.Sprintf("Metric(%d)", m)
}

// ParseMetric parses a name written by String.
func ParseMetric(s string) (Metric, error) {
	for m, n := range metricNames {
		if s == n {
			return Metric(m), nil
		}
	}
	return 0, fmt.Errorf("jigsaw: unknown metric %q (want mgc or ssd)", s)
}

// MarshalText writes the metric's name, so that it travels as text (a
// flag's value, a job's options).
func (m Metric) MarshalText() ([]byte, error) {
	if int(m) >= len(metricNames) {
		return nil, fmt.Errorf("jigsaw: no metric %d", m)
	}
	return []byte(m.String()), nil
}

// UnmarshalText reads a name written by MarshalText.
func (m *Metric) UnmarshalText(b []byte) error {
	v, err := ParseMetric(string(b))
	if err == nil {
		*m = v
	}
	return err
}

// Defaults of CompatOptions.
const (
	DefaultK             = 16
	DefaultMaxDenseBytes = 128 << 20
)

// CompatOptions configure NewCompat. The zero value is MGC with 16
// candidates per edge, a dense table up to 128 MiB, on every core.
type CompatOptions struct {
	Metric Metric
	// Pred, with MGC, adds Pred times a prediction term to each
	// dissimilarity (0: none): the squared L*a*b* distance between each
	// edge's boundary pixels extrapolated one pixel across the joint
	// (2*x0 - x1, the outer row plus the gradient just inside) and the
	// other edge's pixels, summed over both directions (Pomeranz et al.
	// 2011 predict across the joint in the same way, in another norm).
	// MGC compares the gradient across the joint with the mean gradient
	// along the edge; the term compares it pixel by pixel, which tells
	// apart textured edges (a tree's branches against the sky) that MGC
	// rates alike. The genetic solver uses PredWeight by default in
	// Type 2.
	Pred float64
	// K is the number of best candidates kept per edge (0: DefaultK).
	K int
	// MaxDenseBytes bounds the dense table of every pairing (4 bytes each:
	// 16n^2 with rotations, 4n^2 without); above it only the candidate
	// lists are kept and D computes other pairings from the edge features
	// in O(PieceSize). 0 means DefaultMaxDenseBytes, a negative value never
	// keeps the table.
	MaxDenseBytes int64
	// Workers is the number of goroutines (0: GOMAXPROCS). The result does
	// not depend on it.
	Workers int
	// Progress, when set, is called as the pairings are computed (a few
	// hundred times for a large puzzle, one call at a time, from the
	// workers' goroutines): for puzzles of many thousand pieces, where
	// this takes minutes.
	Progress func(CompatProgress)
}

// CompatProgress reports how far NewCompat is: Done of Total pairs of
// pieces evaluated, for a puzzle of Pieces pieces.
type CompatProgress struct {
	Pieces      int
	Done, Total int64
}

// Candidate is a possible neighbour of an edge: side Side of piece Piece,
// at dissimilarity D.
type Candidate struct {
	Piece int32
	Side  Side
	D     float32
}

// edge returns the edge index 4*piece + side.
func (c Candidate) edge() int32 { return 4*c.Piece + int32(c.Side) }

// Compat holds the dissimilarities between the edges of a puzzle's pieces.
//
// Edge a of piece i is the edge index 4*i + a. D(i, a, j, b) is the
// dissimilarity of piece i's side a touching piece j's side b, both sides
// named in each piece's own orientation (see the package comment); it is
// symmetric, D(i, a, j, b) = D(j, b, i, a). Without rotations (Type 1)
// only the pairings with b = a.Opposite() can occur; the others are +Inf,
// as is any pairing of a piece with itself. A Compat is safe for
// concurrent reads.
type Compat struct {
	n, size, k int
	rotated    bool
	metric     Metric
	pred       float64 // CompatOptions.Pred with MGC, else 0
	// per-edge features, 3*size values each (L*, a*, b* per pixel along
	// the edge, clockwise round the piece)
	fwd, rev []float32 // LabSSD: boundary pixels, and reversed
	// MGC (CompatOptions.Pred's term folds into the same features: see
	// mgcFeatures)
	x0, wr   []float64 // boundary pixels, and S*(x0+mu) reversed
	sInv, bb []float64 // 6 per edge: inverse covariance, sum x0*x0^T
	cst      []float64 // sum (x0+mu)^T S (x0+mu)
	// MGC, large puzzles: each edge's mean boundary pixel m and m + mu (3
	// each), for a lower bound of D that rejects most pairings (lowerBound)
	lbm, lbu []float64
	prune    bool
	dense    []float32
	cand     []Candidate // k per edge, best first
	ncand    []int32
	mean     float64
	elapsed  time.Duration
	progress func(CompatProgress) // NewCompat's, while it runs
}

// NewCompat computes the features of every edge and the dissimilarity of
// every pairing that the puzzle allows (16 per pair of pieces with
// rotations, 4 without), keeping each edge's best K candidates and, when
// it fits opts.MaxDenseBytes, the whole table. Time O(n^2 * PieceSize),
// split over opts.Workers goroutines; memory O(n*K) plus the table. It
// returns ctx.Err() if the context ends first.
func NewCompat(ctx context.Context, pz *Puzzle, opts CompatOptions) (*Compat, error) {
	start := time.Now()
	n := len(pz.Pieces)
	if n == 0 {
		return nil, ErrNoPieces
	}
	c := &Compat{n: n, size: pz.PieceSize, k: opts.K, rotated: pz.Rotated, metric: opts.Metric}
	if c.k <= 0 {
		c.k = DefaultK
	}
	if c.metric > LabSSD {
		return nil, fmt.Errorf("jigsaw: unknown metric %d", c.metric)
	}
	maxDense := opts.MaxDenseBytes
	if maxDense == 0 {
		maxDense = DefaultMaxDenseBytes
	}
	dense := maxDense > 0 && 4*c.denseCells() <= maxDense
	if opts.Pred < 0 || math.IsNaN(opts.Pred) || math.IsInf(opts.Pred, 0) {
		return nil, fmt.Errorf("jigsaw: prediction weight %g (want 0 or more)", opts.Pred)
	}
	if c.metric == MGC {
		c.pred = opts.Pred
	}
	c.prune = !dense && c.metric == MGC && n >= prunePieces
	c.features(pz)
	if dense {
		c.dense = make([]float32, c.denseCells())
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, n))
	c.progress = opts.Progress
	err := c.allPairs(ctx, workers)
	c.progress = nil
	if err != nil {
		return nil, err
	}
	if c.prune {
		c.mean = c.separableMean()
		c.lbm, c.lbu = nil, nil
	}
	c.elapsed = time.Since(start)
	return c, nil
}

func (c *Compat) denseCells() int64 {
	if c.rotated {
		return 16 * int64(c.n) * int64(c.n)
	}
	return 4 * int64(c.n) * int64(c.n)
}

// N returns the number of pieces.
func (c *Compat) N() int { return c.n }

// Rotated reports whether all 16 pairings of two pieces are allowed.
func (c *Compat) Rotated() bool { return c.rotated }

// Metric returns the dissimilarity measure.
func (c *Compat) Metric() Metric { return c.metric }

// Pred returns the weight of the prediction term added to MGC
// (CompatOptions.Pred; 0 with LabSSD).
func (c *Compat) Pred() float64 { return c.pred }

// Dense reports whether the whole table is kept (D is a lookup).
func (c *Compat) Dense() bool { return c.dense != nil }

// K returns the length of a full candidate list: an edge with K
// candidates may have others, all at least as dissimilar as its last.
func (c *Compat) K() int { return c.k }

// Elapsed returns the time NewCompat took.
func (c *Compat) Elapsed() time.Duration { return c.elapsed }

// Mean returns the average dissimilarity over every allowed pairing of two
// different pieces.
func (c *Compat) Mean() float64 { return c.mean }

// D returns the dissimilarity of side a of piece i against side b of piece
// j: a table lookup when Dense, else O(PieceSize). It is +Inf for i == j
// and, without rotations, for b != a.Opposite().
func (c *Compat) D(i int, a Side, j int, b Side) float32 {
	if i == j || (!c.rotated && b != a.Opposite()) {
		return float32(math.Inf(1))
	}
	if c.dense != nil {
		if c.rotated {
			return c.dense[(4*i+int(a))*4*c.n+4*j+int(b)]
		}
		return c.dense[(4*i+int(a))*c.n+j]
	}
	return c.pair(4*i+int(a), 4*j+int(b))
}

// Candidates returns the best candidates of side a of piece i, best (lowest
// D) first, at most K; ties are broken by edge index. The slice must not be
// modified.
func (c *Compat) Candidates(i int, a Side) []Candidate {
	e := 4*i + int(a)
	return c.cand[e*c.k : e*c.k+int(c.ncand[e])]
}

// SecondD returns the second-lowest dissimilarity of side a of piece i
// (+Inf when it has fewer than two candidates).
func (c *Compat) SecondD(i int, a Side) float32 {
	cs := c.Candidates(i, a)
	if len(cs) < 2 {
		return float32(math.Inf(1))
	}
	return cs[1].D
}

// BestBuddy returns the best candidate of side a of piece i when they are
// best buddies (Pomeranz et al. 2011): each is the other's best candidate.
func (c *Compat) BestBuddy(i int, a Side) (Candidate, bool) {
	cs := c.Candidates(i, a)
	if len(cs) == 0 {
		return Candidate{}, false
	}
	b := cs[0]
	back := c.Candidates(int(b.Piece), b.Side)
	return b, len(back) > 0 && int(back[0].Piece) == i && back[0].Side == a
}

// MedianBestD returns the median over all edges of their best
// candidate's dissimilarity: what a true adjacency typically costs (0
// without candidates). O(n log n).
func (c *Compat) MedianBestD() float32 {
	d := make([]float32, 0, 4*c.n)
	for e := range 4 * c.n {
		if c.ncand[e] > 0 {
			d = append(d, c.cand[e*c.k].D)
		}
	}
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[len(d)/2]
}

// compatEps keeps ratios finite between identical edges.
const compatEps = 1e-6

// Compatibility returns Paikin & Tal's (CVPR 2015) compatibility of side a
// of piece i with side b of piece j: 1 - D / SecondD(i, a). It is 1 for a
// perfect match, near 0 when the match is no better than the runner-up,
// and negative for worse ones.
func (c *Compat) Compatibility(i int, a Side, j int, b Side) float32 {
	return 1 - (c.D(i, a, j, b)+compatEps)/(c.SecondD(i, a)+compatEps)
}

// Confidence returns 1 - best/second best of side a of piece i: how much
// its best candidate stands out (0 when there is a tie).
func (c *Compat) Confidence(i int, a Side) float32 {
	cs := c.Candidates(i, a)
	if len(cs) < 2 {
		return 0
	}
	return 1 - (cs[0].D+compatEps)/(cs[1].D+compatEps)
}

// mgcDummy is the weight of Gallagher's nine dummy gradients, which keep
// the covariance invertible in flat regions.
const mgcDummy = 1.0

// features extracts each edge's two outer pixel rows in L*a*b* and
// precomputes what the metric needs.
func (c *Compat) features(pz *Puzzle) {
	n, p := c.n, c.size
	e := 4 * n
	c.ncand = make([]int32, e)
	if c.metric == LabSSD {
		c.fwd, c.rev = make([]float32, e*3*p), make([]float32, e*3*p)
	} else {
		c.x0, c.wr = make([]float64, e*3*p), make([]float64, e*3*p)
		c.sInv, c.bb, c.cst = make([]float64, 6*e), make([]float64, 6*e), make([]float64, e)
		if c.prune {
			c.lbm, c.lbu = make([]float64, 3*e), make([]float64, 3*e)
		}
	}
	strip := make([][2][3]float32, p)
	for i, pc := range pz.Pieces {
		for s := range Side(4) {
			for k := range p {
				for d := range 2 {
					x, y := stripPixel(s, d, k, p)
					r, g, b := pc.RGB(x, y)
					L, A, B := imageio.Lab16(r, g, b)
					strip[k][d] = [3]float32{L, A, B}
				}
			}
			ei := 4*i + int(s)
			if c.metric == LabSSD {
				f, rv := c.fwd[ei*3*p:(ei+1)*3*p], c.rev[ei*3*p:(ei+1)*3*p]
				for k := range p {
					copy(f[3*k:3*k+3], strip[k][0][:])
					copy(rv[3*(p-1-k):3*(p-1-k)+3], strip[k][0][:])
				}
				continue
			}
			c.mgcFeatures(ei, strip, c.pred)
		}
	}
}

// stripPixel returns the pixel at depth d (0: the boundary) and position k
// along side s, counted clockwise round the piece.
func stripPixel(s Side, d, k, p int) (x, y int) {
	switch s {
	case Top:
		return k, d
	case Right:
		return p - 1 - d, k
	case Bottom:
		return p - 1 - k, p - 1 - d
	}
	return d, p - 1 - k
}

// mgcFeatures precomputes Gallagher's statistics of one edge so that
// pair costs two dot products: for the direction i -> j,
//
//	sum_p (x_j[P-1-p] - x_i[p] - mu_i)^T S_i (same)
//	  = <S_i, B_j> - 2 x_j . wr_i + c_i
//
// with B_j = sum x_j x_j^T, wr_i[q] = S_i (x_i[P-1-q] + mu_i) and
// c_i = sum (x_i + mu_i)^T S_i (x_i + mu_i). The prediction term
// (CompatOptions.Pred = lambda) of the direction,
//
//	lambda sum_p |y_i[p] - x_j[P-1-p]|^2
//
// with y_i the extrapolated pixels 2 x_i - x_i' (x_i' one row inside),
// has the same form with S = lambda I: it adds lambda I to S_i in <S_i, B_j>, lambda
// y_i[P-1-q] to wr_i[q] and lambda sum |y_i|^2 to c_i, so that pair,
// the pruning bound (lowerBound: the mean of y_i is m_i + mu_i) and the
// closed-form mean need no change.
func (c *Compat) mgcFeatures(e int, strip [][2][3]float32, lambda float64) {
	p := len(strip)
	var mu [3]float64
	for k := range p {
		for ch := range 3 {
			mu[ch] += float64(strip[k][0][ch] - strip[k][1][ch])
		}
	}
	for ch := range 3 {
		mu[ch] /= float64(p)
	}
	var cov [3][3]float64
	for k := range p {
		var g [3]float64
		for ch := range 3 {
			g[ch] = float64(strip[k][0][ch]-strip[k][1][ch]) - mu[ch]
		}
		for a := range 3 {
			for b := range 3 {
				cov[a][b] += g[a] * g[b]
			}
		}
	}
	// The nine dummy gradients 0, +-(1,1,1), +-e_x, +-e_y, +-e_z add
	// 2*(I + 11^T).
	for a := range 3 {
		for b := range 3 {
			cov[a][b] += 2 * mgcDummy
			if a == b {
				cov[a][b] += 2 * mgcDummy
			}
			cov[a][b] /= float64(p + 9 - 1)
		}
	}
	s := inverse3(cov)
	sv := c.sInv[6*e : 6*e+6]
	sv[0], sv[1], sv[2], sv[3], sv[4], sv[5] = s[0][0]+lambda, s[1][1]+lambda, s[2][2]+lambda, s[0][1], s[0][2], s[1][2]
	x0 := c.x0[e*3*p : (e+1)*3*p]
	wr := c.wr[e*3*p : (e+1)*3*p]
	bv := c.bb[6*e : 6*e+6]
	cst := 0.0
	for k := range p {
		var x, u, w [3]float64
		for ch := range 3 {
			x[ch] = float64(strip[k][0][ch])
			u[ch] = x[ch] + mu[ch]
		}
		for a := range 3 {
			w[a] = s[a][0]*u[0] + s[a][1]*u[1] + s[a][2]*u[2]
		}
		cst += u[0]*w[0] + u[1]*w[1] + u[2]*w[2]
		if lambda > 0 {
			for ch := range 3 {
				y := 2*x[ch] - float64(strip[k][1][ch])
				w[ch] += lambda * y
				cst += lambda * y * y
			}
		}
		copy(x0[3*k:3*k+3], x[:])
		copy(wr[3*(p-1-k):3*(p-1-k)+3], w[:])
		bv[0] += x[0] * x[0]
		bv[1] += x[1] * x[1]
		bv[2] += x[2] * x[2]
		bv[3] += x[0] * x[1]
		bv[4] += x[0] * x[2]
		bv[5] += x[1] * x[2]
	}
	c.cst[e] = cst
	if c.prune {
		for k := range p {
			for ch := range 3 {
				c.lbm[3*e+ch] += float64(strip[k][0][ch])
			}
		}
		for ch := range 3 {
			c.lbm[3*e+ch] /= float64(p)
			c.lbu[3*e+ch] = c.lbm[3*e+ch] + mu[ch]
		}
	}
}

// inverse3 inverts a symmetric positive definite 3x3 matrix.
func inverse3(m [3][3]float64) [3][3]float64 {
	var r [3][3]float64
	r[0][0] = m[1][1]*m[2][2] - m[1][2]*m[2][1]
	r[0][1] = m[0][2]*m[2][1] - m[0][1]*m[2][2]
	r[0][2] = m[0][1]*m[1][2] - m[0][2]*m[1][1]
	r[1][0] = m[1][2]*m[2][0] - m[1][0]*m[2][2]
	r[1][1] = m[0][0]*m[2][2] - m[0][2]*m[2][0]
	r[1][2] = m[0][2]*m[1][0] - m[0][0]*m[1][2]
	r[2][0] = m[1][0]*m[2][1] - m[1][1]*m[2][0]
	r[2][1] = m[0][1]*m[2][0] - m[0][0]*m[2][1]
	r[2][2] = m[0][0]*m[1][1] - m[0][1]*m[1][0]
	det := m[0][0]*r[0][0] + m[0][1]*r[1][0] + m[0][2]*r[2][0]
	for a := range 3 {
		for b := range 3 {
			r[a][b] /= det
		}
	}
	return r
}

// pair computes the dissimilarity of edges e1 and e2 from their features.
func (c *Compat) pair(e1, e2 int) float32 {
	m := 3 * c.size
	if c.metric == LabSSD {
		a := c.fwd[e1*m : e1*m+m : e1*m+m]
		b := c.rev[e2*m : e2*m+m : e2*m+m]
		var s0, s1, s2 float32
		for k := 0; k+2 < m; k += 3 {
			d0, d1, d2 := a[k]-b[k], a[k+1]-b[k+1], a[k+2]-b[k+2]
			s0 += d0 * d0
			s1 += d1 * d1
			s2 += d2 * d2
		}
		return float32(math.Sqrt(float64(s0 + s1 + s2)))
	}
	x1 := c.x0[e1*m : e1*m+m : e1*m+m]
	w1 := c.wr[e1*m : e1*m+m : e1*m+m]
	x2 := c.x0[e2*m : e2*m+m : e2*m+m]
	w2 := c.wr[e2*m : e2*m+m : e2*m+m]
	var d0, d1, d2 float64
	for k := 0; k+2 < m; k += 3 {
		d0 += x2[k]*w1[k] + x1[k]*w2[k]
		d1 += x2[k+1]*w1[k+1] + x1[k+1]*w2[k+1]
		d2 += x2[k+2]*w1[k+2] + x1[k+2]*w2[k+2]
	}
	s1, b1 := c.sInv[6*e1:6*e1+6:6*e1+6], c.bb[6*e1:6*e1+6:6*e1+6]
	s2, b2 := c.sInv[6*e2:6*e2+6:6*e2+6], c.bb[6*e2:6*e2+6:6*e2+6]
	quad := s1[0]*b2[0] + s1[1]*b2[1] + s1[2]*b2[2] + 2*(s1[3]*b2[3]+s1[4]*b2[4]+s1[5]*b2[5]) +
		s2[0]*b1[0] + s2[1]*b1[1] + s2[2]*b1[2] + 2*(s2[3]*b1[3]+s2[4]*b1[4]+s2[5]*b1[5])
	v := quad - 2*(d0+d1+d2) + c.cst[e1] + c.cst[e2]
	return float32(max(v, 0))
}

// topK is one worker's candidate lists for every edge.
type topK struct {
	k     int
	cand  []Candidate
	count []int32
	// worst is the D of the last candidate of a full list, +Inf before:
	// a small array that rejects most offers without touching the lists.
	worst []float32
}

func less(a, b Candidate) bool {
	return a.D < b.D || (a.D == b.D && a.edge() < b.edge())
}

// add offers candidate x to edge e's list.
func (t *topK) add(e int, x Candidate) {
	if x.D > t.worst[e] {
		return
	}
	list := t.cand[e*t.k : e*t.k+t.k]
	n := int(t.count[e])
	if n == t.k {
		if !less(x, list[n-1]) {
			return
		}
		n--
	} else {
		t.count[e]++
	}
	i := n
	for i > 0 && less(x, list[i-1]) {
		list[i] = list[i-1]
		i--
	}
	list[i] = x
	if int(t.count[e]) == t.k {
		t.worst[e] = list[t.k-1].D
	}
}

// pairBlock is the number of pieces a worker pairs with every later piece
// at once: the block's edge features stay in cache while the others
// stream past once per block instead of once per piece, which matters
// when the features of every edge (4n * 6p float64s) far exceed the cache.
const pairBlock = 32

// allPairs evaluates every allowed pairing of two different pieces once.
// Workers take blocks of pieces i in turn and pair each with every j > i;
// each keeps its own candidate lists, merged at the end, and per-piece
// sums added in order of j, so the result does not depend on the schedule
// or the blocking.
func (c *Compat) allPairs(ctx context.Context, workers int) error {
	n, e, k := c.n, 4*c.n, c.k
	rowSum := make([]float64, n)
	rowCount := make([]int64, n)
	lists := make([]*topK, workers)
	blocks := (n + pairBlock - 1) / pairBlock
	var next, done atomic.Int64
	var wg sync.WaitGroup
	var stop atomic.Bool
	var progMu sync.Mutex
	for w := range workers {
		t := &topK{k: k, cand: make([]Candidate, e*k), count: make([]int32, e), worst: make([]float32, e)}
		for ei := range t.worst {
			t.worst[ei] = float32(math.Inf(1))
		}
		lists[w] = t
		wg.Go(func() {
			for {
				b := int(next.Add(1) - 1)
				if b >= blocks || stop.Load() {
					return
				}
				if ctx.Err() != nil {
					stop.Store(true)
					return
				}
				i0, i1 := b*pairBlock, min(n, (b+1)*pairBlock)
				c.pairBlock(t, i0, i1, rowSum, rowCount)
				if c.progress != nil {
					progMu.Lock() // the count and its report in one step: reports in order
					d := done.Add(1)
					c.progress(CompatProgress{Pieces: n, Done: pairsBefore(n, min(n, int(d)*pairBlock)), Total: pairsBefore(n, n)})
					progMu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if stop.Load() {
		return ctx.Err()
	}
	if c.dense != nil {
		inf := float32(math.Inf(1))
		for i := range n {
			for a := range 4 {
				if c.rotated {
					for b := range 4 {
						c.dense[(4*i+a)*e+4*i+b] = inf
					}
				} else {
					c.dense[(4*i+a)*n+i] = inf
				}
			}
		}
	}
	c.cand = make([]Candidate, e*k)
	merged := make([]Candidate, 0, workers*k)
	for ei := range e {
		merged = merged[:0]
		for _, t := range lists {
			merged = append(merged, t.cand[ei*k:ei*k+int(t.count[ei])]...)
		}
		slices.SortFunc(merged, func(a, b Candidate) int {
			if less(a, b) {
				return -1
			}
			if less(b, a) {
				return 1
			}
			return 0
		})
		c.ncand[ei] = int32(copy(c.cand[ei*k:ei*k+k], merged))
	}
	total, count := 0.0, int64(0)
	for i := range n {
		total += rowSum[i]
		count += rowCount[i]
	}
	if count > 0 {
		c.mean = total / float64(count)
	}
	return nil
}

// pairBlock pairs the pieces i in [i0, i1) with every piece j > i,
// offering each pairing to t and adding to the pieces' sums.
func (c *Compat) pairBlock(t *topK, i0, i1 int, rowSum []float64, rowCount []int64) {
	n, e := c.n, 4*c.n
	for j := i0 + 1; j < n; j++ {
		for i := i0; i < min(i1, j); i++ {
			// Added to the piece's sum one by one, in the order of the
			// unblocked loop, so that Mean does not change in its last bits.
			sum, cnt := rowSum[i], rowCount[i]
			for a := range 4 {
				e1 := 4*i + a
				for b := range 4 {
					if !c.rotated && b != (a+2)&3 {
						continue
					}
					e2 := 4*j + b
					if c.prune && c.rejects(t, e1, e2) {
						continue
					}
					d := c.pair(e1, e2)
					sum += float64(d)
					cnt++
					if c.dense != nil {
						if c.rotated {
							c.dense[e1*e+e2], c.dense[e2*e+e1] = d, d
						} else {
							c.dense[e1*n+j], c.dense[e2*n+i] = d, d
						}
					}
					t.add(e1, Candidate{Piece: int32(j), Side: Side(b), D: d})
					t.add(e2, Candidate{Piece: int32(i), Side: Side(a), D: d})
				}
			}
			rowSum[i], rowCount[i] = sum, cnt
		}
	}
}

// prunePieces: from this many pieces on, without a dense table, MGC
// pairings are first checked against a lower bound (lowerBound) and the
// mean dissimilarity is computed in closed form (separableMean). Smaller
// puzzles, the standard sets among them, compute every pairing.
var prunePieces = 5000

// lowerBound returns a lower bound of the MGC dissimilarity of edges e1
// and e2 in O(1): each direction's sum over the P pixels of a convex
// quadratic form q(v_p) = v_p^T S v_p is at least P q(mean v_p) (Jensen),
// and the mean of v_p = x_j[P-1-p] - x_i[p] - mu_i is m_j - (m_i + mu_i).
func (c *Compat) lowerBound(e1, e2 int) float64 {
	m1, u1 := c.lbm[3*e1:3*e1+3:3*e1+3], c.lbu[3*e1:3*e1+3:3*e1+3]
	m2, u2 := c.lbm[3*e2:3*e2+3:3*e2+3], c.lbu[3*e2:3*e2+3:3*e2+3]
	q := func(s []float64, v0, v1, v2 float64) float64 {
		return s[0]*v0*v0 + s[1]*v1*v1 + s[2]*v2*v2 + 2*(s[3]*v0*v1+s[4]*v0*v2+s[5]*v1*v2)
	}
	s1, s2 := c.sInv[6*e1:6*e1+6:6*e1+6], c.sInv[6*e2:6*e2+6:6*e2+6]
	return float64(c.size) * (q(s1, m2[0]-u1[0], m2[1]-u1[1], m2[2]-u1[2]) + q(s2, m1[0]-u2[0], m1[1]-u2[1], m1[2]-u2[2]))
}

// rejects reports that the pairing of edges e1 and e2 cannot enter either
// edge's candidate list in t: its lower bound exceeds both lists' worst
// (with a margin for rounding), so both would turn it down.
func (c *Compat) rejects(t *topK, e1, e2 int) bool {
	w := max(t.worst[e1], t.worst[e2])
	if math.IsInf(float64(w), 1) {
		return false
	}
	return c.lowerBound(e1, e2) > float64(w)*(1+1e-6)+1e-6
}

// separableMean returns the mean dissimilarity of every allowed pairing of
// edges of two different pieces in O(n P): the sum over ordered pairs of
// each direction's <S_i, B_j> - 2 x_j . wr_i + c_i separates into sums
// over the edges (the clamp at 0 and the rounding to float32 of D aside).
func (c *Compat) separableMean() float64 {
	n, m := c.n, 3*c.size
	groups := 1 // the edges that may touch each other: all, or by side
	if !c.rotated {
		groups = 4
	}
	// per group (the side facing e's side: every side, or the opposite
	// one), the sums of B and x over all edges
	sumB := make([]float64, 6*groups)
	sumX := make([]float64, m*groups)
	for e := range 4 * n {
		g := 0
		if !c.rotated {
			g = e & 3
		}
		for k := range 6 {
			sumB[6*g+k] += c.bb[6*e+k]
		}
		for k := range m {
			sumX[m*g+k] += c.x0[e*m+k]
		}
	}
	total, count := 0.0, 0.0
	pb := make([]float64, 6)
	px := make([]float64, m)
	for i := range n {
		for a := range 4 {
			e := 4*i + a
			g, others := 0, float64(4*(n-1))
			if !c.rotated {
				g, others = (a+2)&3, float64(n-1)
			}
			// the partners' sums: the group's, less this piece's own edges
			copy(pb, sumB[6*g:6*g+6])
			copy(px, sumX[m*g:m*g+m])
			for b := range 4 {
				if !c.rotated && b != g {
					continue
				}
				f := 4*i + b
				for k := range 6 {
					pb[k] -= c.bb[6*f+k]
				}
				for k := range m {
					px[k] -= c.x0[f*m+k]
				}
			}
			sv := c.sInv[6*e : 6*e+6]
			quad := sv[0]*pb[0] + sv[1]*pb[1] + sv[2]*pb[2] + 2*(sv[3]*pb[3]+sv[4]*pb[4]+sv[5]*pb[5])
			dot := 0.0
			for k := range m {
				dot += px[k] * c.wr[e*m+k]
			}
			total += quad - 2*dot + others*c.cst[e]
			count += others
		}
	}
	// every unordered pairing is two ordered directions: the sum counts
	// each pairing's D once and each pairing twice
	return total / (count / 2)
}

// pairsBefore returns the number of pairs of pieces (i, j), i < j < n,
// with i < m: the pairs the first m pieces' blocks evaluate.
func pairsBefore(n, m int) int64 {
	m = min(m, n)
	return int64(m)*int64(n) - int64(m)*int64(m+1)/2
}

// Fit summarises how well the adjacencies of a placement agree with the
// compatibilities.
type Fit struct {
	// Adjacencies counts the pairs of placed pieces side by side in the
	// same output image.
	Adjacencies int
	// Dissimilarity sums D over those pairs: the fitness that the genetic
	// solvers of Sholomon et al. minimise.
	Dissimilarity float64
	// BestBuddies counts the pairs whose touching edges are best buddies.
	BestBuddies int
}

// BestBuddyShare returns BestBuddies / Adjacencies (0 without adjacencies).
func (f Fit) BestBuddyShare() float64 {
	if f.Adjacencies == 0 {
		return 0
	}
	return float64(f.BestBuddies) / float64(f.Adjacencies)
}

// Fit measures placement p, which must name pieces of this puzzle (it
// panics otherwise): O(len(p.Pieces)) lookups of D.
func (c *Compat) Fit(p *Placement) Fit {
	type key struct{ img, row, col int }
	at := make(map[key]Placed, len(p.Pieces))
	for _, q := range p.Pieces {
		at[key{q.Image, q.Row, q.Col}] = q
	}
	var f Fit
	for _, q := range p.Pieces {
		for _, d := range [2]Side{Right, Bottom} {
			dr, dc := Offset(d)
			o, ok := at[key{q.Image, q.Row + dr, q.Col + dc}]
			if !ok {
				continue
			}
			a, b := SideAt(d, q.Rotation), SideAt(d.Opposite(), o.Rotation)
			f.Adjacencies++
			f.Dissimilarity += float64(c.D(q.Piece, a, o.Piece, b))
			if x, bb := c.BestBuddy(q.Piece, a); bb && int(x.Piece) == o.Piece && x.Side == b {
				f.BestBuddies++
			}
		}
	}
	return f
}

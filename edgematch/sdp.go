package edgematch

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"tessera/sdp"
)

// SDP is Kovalsky, Glasner and Basri's Algorithm 2 (section 5.2.2) on a
// square edge-matching puzzle with fixed orientation and no preset
// locations: each piece i has an unknown translation t_i in the plane, the
// equations are (9) with f_k(u) = e^{k·u} for every edge type (colour and
// axis) and |k| <= 2K, the frame is a static piece, and the SDPs (23) over
// the moment matrices Z_i of T_i = e^{t_i} (eq. 44) are reweighted by (24)
// from W_i = 0 until their objective is at most Epsilon. The translations
// (first moments) are rounded to the nearest cells; the puzzle is solved
// when they form a board that Score calls solved. The same construction
// as tangram.SDP (see its doc for the scale, bounds and restarts), which a
// family may not import. Rotations are not supported.
type SDP struct {
	Backend sdp.Solver // nil: sdp.IPM{}
	K       int        // degree of the monomials of Z_i (0: 2)
	Epsilon float64    // 0: 1e-6
	MaxIter int        // SDPs (0: 40)
	Stall   int        // restart after this many SDPs without a 1% fall (0: 3; < 0: never)
	Seed    uint64
	// OnIterate, when set, is called with every iterate's rounded board
	// (cells may repeat a piece or stay empty) and objective.
	OnIterate func(it int, b *Board, objective float64)
}

// SDPStats describes Algorithm 2's iteration.
type SDPStats struct {
	Iterations, Restarts, Constraints int
	Objective                         float64
}

// SolveSDP runs Algorithm 2 and returns its statistics with the result.
func (a SDP) SolveSDP(ctx context.Context, p *Puzzle) (Result, SDPStats, error) {
	start := time.Now()
	var st SDPStats
	if err := p.Validate(); err != nil {
		return Result{}, st, err
	}
	if !p.FixedOrientation || len(p.Hints) > 0 {
		return Result{}, st, errors.New("edgematch: sdp: wants a puzzle with fixed orientation and no hints")
	}
	if a.Backend == nil {
		a.Backend = sdp.IPM{}
	}
	a.K = max(a.K, 0)
	if a.K == 0 {
		a.K = 2
	}
	if a.Epsilon == 0 {
		a.Epsilon = 1e-6
	}
	if a.MaxIter == 0 {
		a.MaxIter = 40
	}
	if a.Stall == 0 {
		a.Stall = 3
	}
	m := newEMRelaxation(p, a.K)
	st.Constraints = len(m.prob.Constraints)
	rng := rand.New(rand.NewPCG(a.Seed, 0x3d1))
	res := Result{}
	var w [][]float64
	since, ref := 0, math.Inf(1)
	for it := 1; ; it++ {
		res.Stats.Elapsed = time.Since(start)
		if it > a.MaxIter {
			return res, st, fmt.Errorf("%w: sdp: %d iterations, objective %.3g", ErrBudget, a.MaxIter, st.Objective)
		}
		if err := ctx.Err(); err != nil {
			return res, st, err
		}
		m.prob.C = sdp.BlockWeights(w, m.n) // C = Σ_i W_i
		sol, err := a.Backend.Solve(ctx, m.prob)
		if err != nil && (sol == nil || sol.X == nil || !errors.Is(err, sdp.ErrBudget) && !errors.Is(err, sdp.ErrNumerical)) {
			if ctx.Err() != nil {
				return res, st, ctx.Err()
			}
			return res, st, fmt.Errorf("edgematch: sdp: iteration %d: %w", it, err)
		}
		w = make([][]float64, m.N)
		obj := 0.0
		for i := range m.N {
			wi, rest := sdp.RankOneWeight(sol.X[i])
			w[i], obj = wi, obj+rest
		}
		b := m.board(p, sol.X)
		st.Iterations, st.Objective = it, obj
		res.Board, res.Score = b, p.Score(b)
		if a.OnIterate != nil {
			a.OnIterate(it, b, obj)
		}
		if res.Score.Solved() {
			res.Stats.Elapsed = time.Since(start)
			return res, st, nil
		}
		if obj <= a.Epsilon {
			res.Stats.Elapsed = time.Since(start)
			return res, st, fmt.Errorf("edgematch: sdp: rank one after %d iterations but the rounded board scores %v", it, res.Score)
		}
		if obj < 0.99*ref {
			since, ref = 0, obj
		} else if since++; a.Stall > 0 && since >= a.Stall {
			w = m.randomW(rng)
			st.Restarts++
			since, ref = 0, math.Inf(1)
		}
	}
}

// Solve runs Algorithm 2 (Solver).
func (a SDP) Solve(ctx context.Context, p *Puzzle) (Result, error) {
	res, _, err := a.SolveSDP(ctx, p)
	return res, err
}

type emRelaxation struct {
	N, n    int
	mons    [][2]int
	canon   [][2]int
	prob    *sdp.Problem
	centre  [2]float64
	half    [2]float64
	R       float64
	rows, c int
}

func emTri(i, j int) int { s := i + j; return s*(s+1)/2 + j }

func emSegmentExp(a, b [2]float64, kx, ky float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	L := math.Hypot(dx, dy)
	kd := kx*dx + ky*dy
	f := 1.0
	if math.Abs(kd) > 1e-12 {
		f = math.Expm1(kd) / kd
	}
	return L * math.Exp(kx*a[0]+ky*a[1]) * f
}

// newEMRelaxation builds the SDP (23): piece i covers [t_i, t_i + 1]² with
// x the column and y the row (downwards); its sides run N (+x), E (+y), S
// (-x), W (-y), so that abutting sides run opposite ways; the frame's sides
// are the board's, reversed.
func newEMRelaxation(p *Puzzle, K int) *emRelaxation {
	N := len(p.Tiles)
	n := (K + 1) * (K + 2) / 2
	m := &emRelaxation{N: N, n: n, rows: p.Rows, c: p.Cols}
	for s := 0; s <= 2*K; s++ {
		for j := 0; j <= s; j++ {
			m.mons = append(m.mons, [2]int{s - j, j})
		}
	}
	nm := len(m.mons)
	m.canon = make([][2]int, nm)
	for k := range m.canon {
		m.canon[k] = [2]int{-1, -1}
	}
	for r := range n {
		for c := r; c < n; c++ {
			k := emTri(m.mons[r][0]+m.mons[c][0], m.mons[r][1]+m.mons[c][1])
			if m.canon[k][0] < 0 {
				m.canon[k] = [2]int{r, c}
			}
		}
	}
	C, R := float64(p.Cols), float64(p.Rows)
	O := [2]float64{C / 2, R / 2}
	m.R = max(C, R) / 2
	m.centre = [2]float64{(C - 1) / 2, (R - 1) / 2}
	m.half = [2]float64{(C-1)/2/m.R + 0.05, (R-1)/2/m.R + 0.05}
	sc := func(x, y float64) [2]float64 { return [2]float64{(x - O[0]) / m.R, (y - O[1]) / m.R} }
	type edge struct {
		class int
		sign  float64
		a, b  [2]float64
	}
	classes := map[[2]int]int{}
	classOf := func(col Colour, axis int) int {
		key := [2]int{int(col), axis}
		c, ok := classes[key]
		if !ok {
			c = len(classes)
			classes[key] = c
		}
		return c
	}
	// Side d of the unit square at (x, y): from, to, axis, sign.
	side := func(x, y float64, d int) ([2]float64, [2]float64, int, float64) {
		switch d {
		case North:
			return sc(x, y), sc(x+1, y), 0, 1
		case East:
			return sc(x+1, y), sc(x+1, y+1), 1, 1
		case South:
			return sc(x+1, y+1), sc(x, y+1), 0, -1
		}
		return sc(x, y+1), sc(x, y), 1, -1
	}
	pieceEdges := make([][]edge, N)
	for i, t := range p.Tiles {
		for d := range 4 {
			a, b, axis, s := side(m.centre[0], m.centre[1], d)
			pieceEdges[i] = append(pieceEdges[i], edge{classOf(t[d], axis), s, a, b})
		}
	}
	var frame []edge
	for row := range p.Rows {
		for col := range p.Cols {
			for d := range 4 {
				if frameIndex(p.Rows, p.Cols, row, col, d) < 0 {
					continue
				}
				a, b, axis, s := side(float64(col), float64(row), d)
				frame = append(frame, edge{classOf(p.FrameColour(row, col, d), axis), -s, a, b})
			}
		}
	}
	nc := len(classes)
	nv := N * (nm - 1)
	vi := func(i, k int) int { return i*(nm-1) + k - 1 }
	var rows [][]float64
	var rhs []float64
	for k, mk := range m.mons {
		kx, ky := float64(mk[0]), float64(mk[1])
		alpha := make([][]float64, nc)
		fr := make([]float64, nc)
		for c := range alpha {
			alpha[c] = make([]float64, N)
		}
		for i, es := range pieceEdges {
			for _, e := range es {
				alpha[e.class][i] += e.sign * emSegmentExp(e.a, e.b, kx, ky)
			}
		}
		for _, e := range frame {
			fr[e.class] += e.sign * emSegmentExp(e.a, e.b, kx, ky)
		}
		for c := range nc {
			row := make([]float64, nv)
			b := -fr[c]
			for i := range N {
				if k == 0 {
					b -= alpha[c][i]
				} else {
					row[vi(i, k)] = alpha[c][i]
				}
			}
			rows, rhs = append(rows, row), append(rhs, b)
		}
	}
	rows, rhs = sdp.OrthonormalRows(rows, rhs)
	nb := n - 1
	pr := &sdp.Problem{Minimize: true}
	for range N {
		pr.Blocks = append(pr.Blocks, sdp.Block{Size: n})
	}
	pr.Blocks = append(pr.Blocks, sdp.Block{Size: N * nb, Diagonal: true})
	entry := func(i, k int, v float64) sdp.Entry {
		rc := m.canon[k]
		if rc[0] != rc[1] {
			v /= 2
		}
		return sdp.E(i, rc[0], rc[1], v)
	}
	for i := range N {
		pr.AddConstraint(1, sdp.E(i, 0, 0, 1))
		for r := range n {
			for c := r; c < n; c++ {
				k := emTri(m.mons[r][0]+m.mons[c][0], m.mons[r][1]+m.mons[c][1])
				if m.canon[k] == [2]int{r, c} {
					continue
				}
				a := 1.0
				if r != c {
					a = 0.5
				}
				pr.AddConstraint(0, sdp.E(i, r, c, a), entry(i, k, -1))
			}
		}
		for r := 1; r < n; r++ {
			b := m.mons[r]
			bound := math.Exp(2 * (float64(b[0])*m.half[0] + float64(b[1])*m.half[1]))
			pr.AddConstraint(bound, sdp.E(i, r, r, 1), sdp.E(N, i*nb+r-1, i*nb+r-1, 1))
		}
	}
	for q, row := range rows {
		var es []sdp.Entry
		for v, x := range row {
			if x != 0 {
				es = append(es, entry(v/(nm-1), v%(nm-1)+1, x))
			}
		}
		pr.AddConstraint(rhs[q], es...)
	}
	m.prob = pr
	return m
}

func (m *emRelaxation) randomW(rng *rand.Rand) [][]float64 {
	w := make([][]float64, m.N)
	for i := range m.N {
		var tau [2]float64
		for d := range 2 {
			tau[d] = math.Exp((2*rng.Float64() - 1) * m.half[d])
		}
		u := make([]float64, m.n)
		for r, b := range m.mons[:m.n] {
			u[r] = math.Pow(tau[0], float64(b[0])) * math.Pow(tau[1], float64(b[1]))
		}
		w[i] = sdp.Projector(u)
	}
	return w
}

// board rounds the first moments to cells; a cell claimed twice keeps the
// first piece.
func (m *emRelaxation) board(p *Puzzle, x []sdp.Matrix) *Board {
	b := NewBoard(p.Rows, p.Cols)
	for i := range m.N {
		z := x[i]
		tx := m.centre[0] + m.R*math.Log(max(z.At(0, 1)/z.At(0, 0), 1e-12))
		ty := m.centre[1] + m.R*math.Log(max(z.At(0, 2)/z.At(0, 0), 1e-12))
		col, row := int(math.Round(tx)), int(math.Round(ty))
		if row < 0 || row >= p.Rows || col < 0 || col >= p.Cols || b.At(row, col).Piece != NoPiece {
			continue
		}
		b.Set(row, col, i, 0)
	}
	return b
}

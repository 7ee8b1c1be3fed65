package relax

import (
	"math"
	"math/rand/v2"

	"tessera/edgematch"
	"tessera/sdp"
)

// emRelaxation is the SDP (23) of a puzzle and how to read a board back.
type emRelaxation struct {
	*sdp.MomentSDP
	centre [2]float64 // the centre piece i's translation t_i = centre + R τ_i is taken from
	half   [2]float64 // half-widths of the box of τ_i
	R      float64
}

// newEMRelaxation builds the SDP (23): piece i covers [t_i, t_i + 1]² with
// x the column and y the row (downwards); its sides run N (+x), E (+y), S
// (-x), W (-y), so that abutting sides run opposite ways; the frame's sides
// are the board's, reversed.
func newEMRelaxation(p *edgematch.Puzzle, K int) *emRelaxation {
	N := len(p.Tiles)
	m := &emRelaxation{MomentSDP: sdp.NewMomentSDP(N, K)}
	C, R := float64(p.Cols), float64(p.Rows)
	O := [2]float64{C / 2, R / 2}
	m.R = max(C, R) / 2
	m.centre = [2]float64{(C - 1) / 2, (R - 1) / 2}
	m.half = [2]float64{(C-1)/2/m.R + 0.05, (R-1)/2/m.R + 0.05}
	sc := func(x, y float64) [2]float64 { return [2]float64{(x - O[0]) / m.R, (y - O[1]) / m.R} }
	classes := map[[2]int]int{}
	classOf := func(col edgematch.Colour, axis int) int {
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
		case edgematch.North:
			return sc(x, y), sc(x+1, y), 0, 1
		case edgematch.East:
			return sc(x+1, y), sc(x+1, y+1), 1, 1
		case edgematch.South:
			return sc(x+1, y+1), sc(x, y+1), 0, -1
		}
		return sc(x, y+1), sc(x, y), 1, -1
	}
	pieceEdges := make([][]sdp.Segment, N)
	for i, t := range p.Tiles {
		for d := range 4 {
			a, b, axis, s := side(m.centre[0], m.centre[1], d)
			pieceEdges[i] = append(pieceEdges[i], sdp.Segment{Class: classOf(t[d], axis), Sign: s, A: a, B: b})
		}
	}
	var frame []sdp.Segment
	for row := range p.Rows {
		for col := range p.Cols {
			for d := range 4 {
				if edgematch.FrameIndex(p.Rows, p.Cols, row, col, d) < 0 {
					continue
				}
				a, b, axis, s := side(float64(col), float64(row), d)
				frame = append(frame, sdp.Segment{Class: classOf(p.FrameColour(row, col, d), axis), Sign: -s, A: a, B: b})
			}
		}
	}
	rows, rhs := sdp.ExpEquations(pieceEdges, frame, len(classes), m.Mons)
	m.Build(rows, rhs, func(_ int, b [2]int) float64 {
		return math.Exp(2 * (float64(b[0])*m.half[0] + float64(b[1])*m.half[1]))
	})
	return m
}

// randomW returns W_i = I - u uᵀ/|u|² for u the monomials of a random
// point of the box of every piece.
func (m *emRelaxation) randomW(rng *rand.Rand) [][]float64 {
	w := make([][]float64, m.N)
	for i := range m.N {
		var tau [2]float64
		for d := range 2 {
			tau[d] = math.Exp((2*rng.Float64() - 1) * m.half[d])
		}
		w[i] = m.Projector(tau)
	}
	return w
}

// board rounds the first moments to cells; a cell claimed twice keeps the
// first piece.
func (m *emRelaxation) board(p *edgematch.Puzzle, x []sdp.Matrix) *edgematch.Board {
	b := edgematch.NewBoard(p.Rows, p.Cols)
	for i := range m.N {
		ex, ey := sdp.FirstMoments(x[i])
		tx := m.centre[0] + m.R*math.Log(max(ex, 1e-12))
		ty := m.centre[1] + m.R*math.Log(max(ey, 1e-12))
		col, row := int(math.Round(tx)), int(math.Round(ty))
		if row < 0 || row >= p.Rows || col < 0 || col >= p.Cols || b.At(row, col).Piece != edgematch.NoPiece {
			continue
		}
		b.Set(row, col, i, 0)
	}
	return b
}

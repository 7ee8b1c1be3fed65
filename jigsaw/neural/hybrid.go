package neural

import (
	"context"
	"math"

	"tessera/jigsaw"
)

// compatScale is the scale of CompatTable's logits in Solve.
const compatScale = 4

// CompatTable is a Table made of the classic jigsaw compatibilities
// instead of the pair network: the logit of "b is the d-neighbour of a" is
// -D/mean(D) * scale, where D is Gallagher's MGC dissimilarity of the two
// facing edges (jigsaw.NewCompat: the gradient at each edge extrapolated
// across the boundary; here across the gap) and mean(D) its mean over
// the puzzle's pairings. No learning is involved.
func CompatTable(ctx context.Context, pz *Puzzle, scale float64) (*Table, error) {
	c, err := jigsaw.NewCompat(ctx, pz.Sheet(), jigsaw.CompatOptions{Workers: 1})
	if err != nil {
		return nil, err
	}
	mean := 0.0
	k := 0
	n := len(pz.Patches)
	for a := range n {
		for b := range n {
			if a != b {
				mean += float64(c.D(a, jigsaw.Right, b, jigsaw.Left)) + float64(c.D(a, jigsaw.Bottom, b, jigsaw.Top))
				k += 2
			}
		}
	}
	mean /= float64(k)
	if mean <= 0 || math.IsInf(mean, 0) || math.IsNaN(mean) {
		mean = 1
	}
	return NewTable(n, func(d, a, b int) float32 {
		v := c.D(a, jigsaw.Right, b, jigsaw.Left)
		if d == Below {
			v = c.D(a, jigsaw.Bottom, b, jigsaw.Top)
		}
		return float32(-float64(v) / mean * scale)
	}), nil
}

// Hybrid returns an evaluator whose values are ev's and whose priors are
// ev's multiplied, cell by cell, by exp(weight * s), where s sums, over
// the occupied neighbours of the cell, the compatibility table's log
// P(neighbour | next patch) and log P(next patch | neighbour), each
// relative to a uniform guess (so a good fit counts for and a bad one
// against, an isolated cell 0): the classic compatibilities as a second
// prior. The result is normalised again.
func Hybrid(ev Evaluator, compat *Table, grid int, weight float64) Evaluator {
	return hybridEval{ev, compat, grid, weight}
}

type hybridEval struct {
	Evaluator
	t      *Table
	grid   int
	weight float64
}

func (h hybridEval) Priors(states []*State) ([][]float64, error) {
	pri, err := h.Evaluator.Priors(states)
	if err != nil {
		return nil, err
	}
	g := h.grid
	for i, s := range states {
		x := s.Next()
		sum := 0.0
		for c := range g * g {
			if s.At[c] >= 0 {
				continue
			}
			r, col := c/g, c%g
			sc := 0.0
			chance := 2 * math.Log(float64(h.t.N-1)) // log P of a uniform guess, both ways
			add := func(d, a, b int) {
				sc += float64(h.t.Fwd[d][a*h.t.N+b]+h.t.Bwd[d][a*h.t.N+b]) + chance
			}
			if y := nb(s, g, r-1, col); y >= 0 {
				add(Below, y, x)
			}
			if y := nb(s, g, r, col+1); y >= 0 {
				add(Right, x, y)
			}
			if y := nb(s, g, r+1, col); y >= 0 {
				add(Below, x, y)
			}
			if y := nb(s, g, r, col-1); y >= 0 {
				add(Right, y, x)
			}
			pri[i][c] *= math.Exp(h.weight * sc)
			sum += pri[i][c]
		}
		if sum > 0 {
			for c := range pri[i] {
				pri[i][c] /= sum
			}
		}
	}
	return pri, nil
}

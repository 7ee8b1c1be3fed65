package sdp

import (
	"math"
	"testing"
)

// TestRankOneWeight: on a rank-one block the weight's trace against it is
// 0 and the rest is 0; on a rank-two block the rest is the smaller
// eigenvalue.
func TestRankOneWeight(t *testing.T) {
	u := []float64{1, 2, 2}
	z := Matrix{N: 3, Data: make([]float64, 9)}
	for r := range 3 {
		for c := range 3 {
			z.Data[r*3+c] = u[r] * u[c]
		}
	}
	w, rest := RankOneWeight(z)
	tr := 0.0
	for k := range w {
		tr += w[k] * z.Data[k]
	}
	if math.Abs(rest) > 1e-9 || math.Abs(tr) > 1e-9 {
		t.Fatalf("rank one: rest %g, tr(WZ) %g", rest, tr)
	}
	p := Projector(u)
	for k := range p {
		if math.Abs(p[k]-w[k]) > 1e-9 {
			t.Fatalf("Projector(u) differs from the weight at u uᵀ: %v vs %v", p, w)
		}
	}
	z2 := Matrix{N: 2, Data: []float64{3, 0, 0, 1}}
	if _, rest := RankOneWeight(z2); math.Abs(rest-1) > 1e-12 {
		t.Fatalf("diag(3, 1): rest %g, want 1", rest)
	}
	if c := BlockWeights([][]float64{{1, 2, 2, 0}}, 2); len(c) != 2 || c[1] != E(0, 0, 1, 2) {
		t.Fatalf("BlockWeights: %v", c)
	}
}

// TestOrthonormalRows: a dependent row is dropped and the affine set kept.
func TestOrthonormalRows(t *testing.T) {
	rows := [][]float64{{1, 1, 0}, {2, 2, 0}, {0, 1, 1}}
	rhs := []float64{1, 2, 3}
	q, b := OrthonormalRows(rows, rhs)
	if len(q) != 2 {
		t.Fatalf("%d rows, want 2", len(q))
	}
	x := []float64{0, 1, 2} // satisfies every row
	for k, r := range q {
		if s := r[0]*x[0] + r[1]*x[1] + r[2]*x[2]; math.Abs(s-b[k]) > 1e-12 {
			t.Fatalf("row %d: %g != %g", k, s, b[k])
		}
	}
}

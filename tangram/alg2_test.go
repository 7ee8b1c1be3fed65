package tangram

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"tessera/sdp"
)

// planted returns the iterate of the rank-one Z_i = u_i u_iᵀ, u_i the
// monomials of taus[i] (the scaled unknowns of the relaxation, in its
// basis), with the bounds' slacks 0.
func (m *relaxation) planted(taus [][2]float64) []sdp.Matrix {
	x := make([]sdp.Matrix, len(m.prob.Blocks))
	for i, tau := range taus {
		u := make([]float64, m.n)
		for r, b := range m.mons[:m.n] {
			u[r] = math.Pow(tau[0], float64(b[0])) * math.Pow(tau[1], float64(b[1]))
		}
		z := sdp.Matrix{N: m.n, Data: make([]float64, m.n*m.n)}
		for r := range m.n {
			for c := range m.n {
				z.Data[r*m.n+c] = u[r] * u[c]
			}
		}
		x[i] = z
	}
	lp := m.prob.Blocks[len(m.prob.Blocks)-1]
	x[len(x)-1] = sdp.Matrix{N: lp.Size, Diagonal: true, Data: make([]float64, lp.Size)}
	return x
}

// residuals returns the largest violation of an equality of the SDP at x
// and the largest of a bound (its slack taken as whatever makes it hold:
// positive only when even a zero slack cannot).
func (m *relaxation) residuals(x []sdp.Matrix) (worst, bound float64) {
	for _, c := range m.prob.Constraints {
		v, slack := 0.0, false
		for _, e := range c.A {
			if e.Block == len(x)-1 {
				slack = true
				continue
			}
			f := e.V
			if e.I != e.J {
				f *= 2
			}
			v += f * x[e.Block].At(e.I, e.J)
		}
		if slack {
			bound = max(bound, v-c.B)
			continue
		}
		worst = max(worst, math.Abs(v-c.B))
	}
	return worst, bound
}

// TestSDPRankOneFeasible: the rank-one Z_i = u_i u_iᵀ of a planted
// solution (u_i the monomials of T_i, eq. 22 and 44) satisfies every
// constraint of the SDP (23), in both bases: the equations of the path
// integrals (26) hold at a solution, the boxes contain it.
func TestSDPRankOneFeasible(t *testing.T) {
	for _, basis := range []Basis{BasisExp, BasisPoly} {
		for _, name := range []string{"square", "house", "boat"} {
			p, sol, err := Classic(name)
			if err != nil {
				t.Fatal(err)
			}
			m, err := newRelaxation(p, 3, basis)
			if err != nil {
				t.Fatal(err)
			}
			taus := make([][2]float64, len(sol.Placements))
			for i, pl := range sol.Placements {
				taus[i] = [2]float64{(pl.T.X.Float64() - m.centre[i][0]) / m.R, (pl.T.Y.Float64() - m.centre[i][1]) / m.R}
				if basis == BasisExp {
					taus[i] = [2]float64{math.Exp(taus[i][0]), math.Exp(taus[i][1])}
				}
			}
			x := m.planted(taus)
			worst, bound := m.residuals(x)
			if bound > 0 {
				t.Errorf("%v %s: bound violated by %g", basis, name, bound)
			}
			if worst > 1e-8 {
				t.Errorf("%v %s: the planted solution violates an equality by %g", basis, name, worst)
			}
			// And its objective with the W of its own eigenvectors is 0.
			for i := range p.Pieces {
				vals, _ := sdp.EigenSym(x[i])
				if s := vals[len(vals)-2]; math.Abs(s) > 1e-9*vals[len(vals)-1] {
					t.Errorf("%v %s: piece %d: second eigenvalue %g", basis, name, i, s)
				}
			}
		}
	}
}

// TestSDPClassics: Algorithm 2 (pure-Go backend, defaults) solves the
// square of the seven tans, the classic figures and the T, exactly; every
// iterate is kept and reported.
func TestSDPClassics(t *testing.T) {
	for _, name := range ClassicNames() {
		p, _, err := Classic(name)
		if err != nil {
			t.Fatal(err)
		}
		var seen int
		res, err := SDP{OnIterate: func(SDPIterate) { seen++ }}.Solve(context.Background(), p)
		if err != nil || !res.Solved || Check(p, res.Solution) != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		st := res.SDP
		if st == nil || st.Iterations != len(st.Iterates) || seen != st.Iterations || !st.Iterates[len(st.Iterates)-1].Solved {
			t.Errorf("%s: statistics %+v, %d iterates seen", name, st, seen)
		}
		t.Logf("%s: %d SDPs, objective %.2g, %d restarts, %.2f s", name, st.Iterations, st.Objective, st.Restarts, res.Elapsed.Seconds())
	}
}

// TestSDPGenerated: Algorithm 2 alone solves generated seven-tan puzzles,
// in both bases.
func TestSDPGenerated(t *testing.T) {
	seeds := []int64{1, 2, 3, 4, 5}
	if testing.Short() {
		seeds = seeds[:2]
	}
	for _, basis := range []Basis{BasisExp, BasisPoly} {
		for _, seed := range seeds {
			p, _, err := Generate(seed, Tans())
			if err != nil {
				t.Fatal(err)
			}
			res, err := SDP{Basis: basis}.Solve(context.Background(), p)
			if err != nil || !res.Solved || Check(p, res.Solution) != nil {
				t.Errorf("%v seed %d: %v", basis, seed, err)
			}
		}
	}
}

// TestSDPFailure: when the budget ends before a solution, Solve returns
// ErrBudget with every iterate and the best partial solution; the plain
// iteration of the paper (no restarts) stalls on the triangle.
func TestSDPFailure(t *testing.T) {
	p, _, err := Classic("triangle")
	if err != nil {
		t.Fatal(err)
	}
	res, err := SDP{MaxIter: 4, Stall: -1}.Solve(context.Background(), p)
	if !errors.Is(err, ErrBudget) || res.Solved || res.SDP == nil || len(res.SDP.Iterates) != 4 || res.Solution == nil {
		t.Fatalf("triangle, 4 SDPs: %v %+v", err, res)
	}
	best := res.SDP.Iterates[res.SDP.Best].Objective
	for _, it := range res.SDP.Iterates {
		if it.Objective < best {
			t.Errorf("best iterate %d (objective %g), iterate %d has %g", res.SDP.Best+1, best, it.Iteration, it.Objective)
		}
	}
	if !strings.Contains(err.Error(), "4 iterations") || res.SDP.Objective < 1 {
		t.Errorf("error %q, objective %g", err, res.SDP.Objective)
	}
	for _, it := range res.SDP.Iterates {
		if len(it.Poses) != len(p.Pieces) {
			t.Fatalf("iterate %d: %d poses", it.Iteration, len(it.Poses))
		}
	}
	// A cancelled context: ErrBudget at once.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (SDP{}).Solve(ctx, p); !errors.Is(err, ErrBudget) {
		t.Errorf("cancelled: %v", err)
	}
	// Bad parameters are refused; turning pieces go to the augmented
	// puzzle (one SDP at K = 2 here: its budget error and statistics).
	if _, err := (SDP{K: 9}).Solve(context.Background(), p); err == nil {
		t.Error("K = 9 accepted")
	}
	q := p.Clone()
	q.Turns = TurnsRotate
	if res, err := (SDP{K: 2, MaxIter: 1}).Solve(context.Background(), q); !errors.Is(err, ErrBudget) || res.SDP == nil || res.SDP.Augmentation == nil || len(res.SDP.Augmentation.Orients) != 8 {
		t.Errorf("turns: %v", err)
	}
}

// TestSDPCSDP: with the CSDP backend (a build with the tag csdp) Algorithm
// 2 solves the square and two classics as well.
func TestSDPCSDP(t *testing.T) {
	backend, err := sdp.Lookup("csdp")
	if err != nil {
		t.Skip(err)
	}
	for _, name := range []string{"square", "house", "triangle"} {
		p, _, _ := Classic(name)
		res, err := SDP{Backend: backend}.Solve(context.Background(), p)
		if err != nil || !res.Solved {
			t.Errorf("%s: %v", name, err)
			continue
		}
		t.Logf("%s: %d SDPs, %.2f s", name, res.SDP.Iterations, res.Elapsed.Seconds())
	}
}

// TestSDPTooLarge: a puzzle whose equations would be too many (64 pieces
// with 66 edge directions at K = 4) is refused with ErrBudget before they
// are built.
func TestSDPTooLarge(t *testing.T) {
	p := &Puzzle{Name: "fan", Silhouette: Polygon{{Int(0), Int(0)}, {Int(1), Int(0)}, {Int(0), Int(1)}}}
	for k := range MaxPieces {
		p.Pieces = append(p.Pieces, Piece{fmt.Sprintf("p%d", k), Polygon{{Int(0), Int(0)}, {Int(int64(k) + 1), Int(1)}, {Int(0), Int(1)}}})
	}
	if _, err := newRelaxation(p, 4, BasisExp); !errors.Is(err, ErrBudget) {
		t.Fatalf("K = 4: %v", err)
	}
	if _, err := newRelaxation(p, 2, BasisExp); err != nil {
		t.Fatalf("K = 2: %v", err)
	}
}

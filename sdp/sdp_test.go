package sdp

import (
	"context"
	"errors"
	"math"
	"testing"
)

// solvers returns the backends of this build: IPM always, CSDP with the
// csdp tag.
func solvers() map[string]Solver {
	out := map[string]Solver{"go": IPM{}}
	if csdpBuilt {
		out["csdp"] = CSDP{}
	}
	return out
}

// thetaProblem is the Lovász theta SDP of a graph on n vertices:
// max <J, X> s.t. tr X = 1, X_ij = 0 for each edge ij, X ⪰ 0 (Lovász 1979,
// Grötschel, Lovász and Schrijver's formulation theta = max <J, X>).
func thetaProblem(n int, edges [][2]int) *Problem {
	p := &Problem{Blocks: []Block{{Size: n}}}
	for i := range n {
		for j := i; j < n; j++ {
			p.AddObjective(E(0, i, j, 1))
		}
	}
	var tr []Entry
	for i := range n {
		tr = append(tr, E(0, i, i, 1))
	}
	p.AddConstraint(1, tr...)
	for _, e := range edges {
		p.AddConstraint(0, E(0, e[0], e[1], 1))
	}
	return p
}

func cycle(n int) [][2]int {
	var e [][2]int
	for i := range n {
		e = append(e, [2]int{i, (i + 1) % n})
	}
	return e
}

// petersen is the Petersen graph: outer 5-cycle 0..4, spokes i-(i+5),
// inner pentagram 5+i - 5+(i+2)%5.
func petersen() [][2]int {
	var e [][2]int
	for i := range 5 {
		e = append(e, [2]int{i, (i + 1) % 5}, [2]int{i, i + 5}, [2]int{5 + i, 5 + (i+2)%5})
	}
	return e
}

// maxCutProblem is the Goemans-Williamson relaxation of max cut:
// max (1/4) <L, X> s.t. X_ii = 1, X ⪰ 0, L the Laplacian.
func maxCutProblem(n int, edges [][2]int) *Problem {
	p := &Problem{Blocks: []Block{{Size: n}}}
	for _, e := range edges {
		p.AddObjective(E(0, e[0], e[0], 0.25), E(0, e[1], e[1], 0.25), E(0, e[0], e[1], -0.25))
	}
	for i := range n {
		p.AddConstraint(1, E(0, i, i, 1))
	}
	return p
}

func complete(n int) [][2]int {
	var e [][2]int
	for i := range n {
		for j := i + 1; j < n; j++ {
			e = append(e, [2]int{i, j})
		}
	}
	return e
}

type known struct {
	name string
	p    *Problem
	opt  float64
}

// knownOptima are problems whose optimal values are known in closed form.
func knownOptima() []known {
	return []known{
		// Lovász (1979): theta(C5) = sqrt 5; theta(Petersen) = 4.
		{"theta C5", thetaProblem(5, cycle(5)), math.Sqrt(5)},
		{"theta Petersen", thetaProblem(10, petersen()), 4},
		// Odd cycle: the optimal unit vectors of consecutive vertices make
		// the angle 4pi/5, so each of the n edges cuts
		// (1 - cos(4pi/5))/2; value n/2 (1 + cos(pi/n)) (Delorme and Poljak
		// 1993); for C5 (25 + 5 sqrt 5)/8.
		{"maxcut C5", maxCutProblem(5, cycle(5)), 2.5 * (1 + math.Cos(math.Pi/5))},
		{"maxcut C7", maxCutProblem(7, cycle(7)), 3.5 * (1 + math.Cos(math.Pi/7))},
		// K_n: X = (n I - J)/(n-1) has <J, X> = 0, so the value is n^2/4
		// (and <L, X> <= n tr X bounds it): 9/4 for K3 (max cut 2).
		{"maxcut K3", maxCutProblem(3, complete(3)), 2.25},
		{"maxcut K6", maxCutProblem(6, complete(6)), 9},
		// Bipartite: the cut of all edges is feasible, and the value is at
		// most the number of edges.
		{"maxcut C6", maxCutProblem(6, cycle(6)), 6},
		{"lp", lpProblem(), 11},
	}
}

// lpProblem is max 3x + 2y s.t. x + y + s1 = 4, x + 3y + s2 = 6, x + s3 = 3,
// all >= 0, in one diagonal block (x, y, s1, s2, s3); optimum 11 at (3, 1):
// the vertices of the feasible polygon are (0,0) 0, (3,0) 9, (3,1) 11,
// (1.5,1.5) 7.5, (0,2) 4.
func lpProblem() *Problem {
	p := &Problem{Blocks: []Block{{Size: 5, Diagonal: true}}}
	p.AddObjective(E(0, 0, 0, 3), E(0, 1, 1, 2))
	p.AddConstraint(4, E(0, 0, 0, 1), E(0, 1, 1, 1), E(0, 2, 2, 1))
	p.AddConstraint(6, E(0, 0, 0, 1), E(0, 1, 1, 3), E(0, 3, 3, 1))
	p.AddConstraint(3, E(0, 0, 0, 1), E(0, 4, 4, 1))
	return p
}

func TestKnownOptima(t *testing.T) {
	for name, s := range solvers() {
		for _, k := range knownOptima() {
			sol, err := s.Solve(context.Background(), k.p)
			if err != nil {
				t.Errorf("%s %s: %v", name, k.name, err)
				continue
			}
			t.Logf("%s %s: %v primal %.10f dual %.10f (want %.10f) iterations %d infeasibilities %.1e %.1e gap %.1e", name, k.name, sol.Status, sol.PrimalObjective, sol.DualObjective, k.opt, sol.Iterations, sol.PrimalInfeasibility, sol.DualInfeasibility, sol.RelativeGap)
			if math.Abs(sol.PrimalObjective-k.opt) > 1e-6*(1+math.Abs(k.opt)) || math.Abs(sol.DualObjective-k.opt) > 1e-6*(1+math.Abs(k.opt)) {
				t.Errorf("%s %s: primal %v dual %v, want %v", name, k.name, sol.PrimalObjective, sol.DualObjective, k.opt)
			}
		}
	}
}

var _ = errors.Is

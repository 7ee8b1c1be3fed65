package tangram

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tessera/sdp"
)

// unoriented returns the classic figure with its orientations hidden: the
// seven tans (or the T's pieces) as the sets give them, turns and mirror
// images allowed, and a solution found by the exact solver.
func unoriented(t *testing.T, name string, turns Turns) (*Puzzle, *Solution) {
	t.Helper()
	c, _, err := Classic(name)
	if err != nil {
		t.Fatal(err)
	}
	pieces := Tans()
	if name == "t" {
		pieces = TPieces()
	}
	p := &Puzzle{Name: name, Pieces: pieces, Silhouette: c.Silhouette, Turns: turns}
	res, err := Exact{}.Solve(context.Background(), p)
	if err != nil || !res.Solved {
		t.Fatalf("%s: the exact solver: %v", name, err)
	}
	return p, res.Solution
}

// TestAugmentedPlanted: the rank-one Z_i of an exact solution's shifts
// (Proposition 4: t_i = A_φi⁻¹ ŝ_i) satisfy every equation (28) of the
// augmented puzzle and its bounds, for turns and for turns with mirror
// images; and the shifts of the solution read back through Pose give the
// solution's poses.
func TestAugmentedPlanted(t *testing.T) {
	for _, K := range []int{3, 5} {
		for _, turns := range []Turns{TurnsNone, TurnsRotate, TurnsFlip} {
			for _, name := range ClassicNames() {
				p, sol, _ := Classic(name)
				if turns != TurnsNone {
					p, sol = unoriented(t, name, turns)
				}
				m, aug, err := newAugmented(p, K)
				if err != nil {
					t.Fatal(err)
				}
				if want := max(8*int(turns), 1); len(aug.Orients) != want {
					t.Fatalf("%v: %d orientations, want %d", turns, len(aug.Orients), want)
				}
				shifts := aug.Shifts(p, sol)
				for i, ps := range sol.Poses() {
					q := aug.Pose(p, i, ps.Orient, shifts[i])
					if math.Abs(q.X-ps.X) > 1e-9 || math.Abs(q.Y-ps.Y) > 1e-9 {
						t.Fatalf("%s: piece %d: pose %+v from its shift, want %+v", name, i, q, ps)
					}
				}
				taus := make([][2]float64, len(shifts))
				for i, sh := range shifts {
					taus[i] = [2]float64{sh[0] / m.R, sh[1] / m.R}
				}
				x := m.planted(taus)
				worst, bound := m.residuals(x)
				if bound > 0 {
					t.Errorf("%v %s: bound violated by %g", turns, name, bound)
				}
				if worst > 1e-8 {
					t.Errorf("K %d %v %s: the planted solution violates an equation (28) by %g", K, turns, name, worst)
				}
				// And the read-out finds the orientations and the solution.
				if _, _, s := m.readAugmented(p, x, 0.3); s == nil {
					t.Errorf("%v %s: the planted iterate does not read back as a solution", turns, name)
				}
			}
		}
	}
}

// twoPieces returns a figure of two tans with its orientations hidden:
// "triangle", the large triangle of legs 2√2, its right angle at the
// top right, from the two large tans (each turned by 180 degrees), or
// "square", the unit square from the two small ones.
func twoPieces(name string, turns Turns) *Puzzle {
	tans := Tans()
	if name == "square" {
		return &Puzzle{Name: "square2", Pieces: []Piece{tans[5], tans[6]}, Silhouette: Polygon{{i(0), i(0)}, {i(1), i(0)}, {i(1), i(1)}, {i(0), i(1)}}, Turns: turns}
	}
	return &Puzzle{Name: "triangle2", Pieces: tans[:2], Silhouette: Polygon{{r(4), i(0)}, {r(4), r(4)}, {i(0), r(4)}}, Turns: turns}
}

// TestAugmentedSolveSmall: Algorithm 2 on the augmented puzzle (K = 5,
// seed 0) solves the two-piece figures with their orientations hidden,
// for turns and for turns with mirror images, exactly, and reads the
// orientations (in either figure no tiling keeps both tans unturned).
func TestAugmentedSolveSmall(t *testing.T) {
	for _, be := range augBackends() {
		for _, turns := range []Turns{TurnsRotate, TurnsFlip} {
			for _, name := range []string{"triangle", "square"} {
				p := twoPieces(name, turns)
				res, err := SDP{Backend: be}.Solve(context.Background(), p)
				if err != nil || !res.Solved || Check(p, res.Solution) != nil {
					t.Fatalf("%T %v %s: not solved: %v", be, turns, name, err)
				}
				turned := false
				for _, pl := range res.Solution.Placements {
					turned = turned || pl.Orient != 0
				}
				if !turned {
					t.Errorf("%T %v %s: no piece turned: %+v", be, turns, name, res.Solution.Placements)
				}
				t.Logf("%T %v %s: %d SDPs, %.2f s", be, turns, name, res.SDP.Iterations, res.Elapsed.Seconds())
			}
		}
	}
}

// TestAugmentedSolve: Algorithm 2 on the augmented puzzle (defaults: K =
// 5, seed 0) solves the T of four pieces with its orientations hidden
// (turns by 45 degrees), exactly, with either backend, and every iterate
// carries the augmented shifts. (The seven tans' figures with hidden
// orientations are not solved: docs/results/tangram.md.)
func TestAugmentedSolve(t *testing.T) {
	if testing.Short() {
		t.Skip("30 s or so: run without -short")
	}
	for _, be := range augBackends() {
		p, _ := unoriented(t, "t", TurnsRotate)
		var seen int
		res, err := SDP{Backend: be, OnIterate: func(it SDPIterate) {
			if len(it.Shifts) == len(p.Pieces) {
				seen++
			}
		}}.Solve(context.Background(), p)
		if err != nil || !res.Solved || Check(p, res.Solution) != nil {
			t.Fatalf("%T: the T is not solved: %v", be, err)
		}
		if res.SDP.Augmentation == nil || seen != res.SDP.Iterations {
			t.Errorf("%T: %d of %d iterates carry the augmented shifts", be, seen, res.SDP.Iterations)
		}
		t.Logf("%T: the T: %d SDPs, %d restarts, %.2f s", be, res.SDP.Iterations, res.SDP.Restarts, res.Elapsed.Seconds())
	}
}

// augBackends returns the SDP backends of this build: the pure-Go one,
// and CSDP when built with the tag csdp.
func augBackends() []sdp.Solver {
	out := []sdp.Solver{sdp.IPM{}}
	if be, err := sdp.Lookup("csdp"); err == nil {
		out = append(out, be)
	}
	return out
}

// orientationSet is the fixed list of 30 figures of the set on which
// docs/results/tangram.md measures Algorithm 2 with orientations hidden
// and given: the figures of one polygon (Algorithm 2 models no parts or
// holes), taken round robin over the categories in the set's order, each
// category's in name order.
func orientationSet() []Figure {
	var cats []string
	by := map[string][]Figure{}
	for _, f := range Figures() {
		if len(f.Puzzle.Parts) > 0 || len(f.Puzzle.Holes) > 0 {
			continue
		}
		if by[f.Category] == nil {
			cats = append(cats, f.Category)
		}
		by[f.Category] = append(by[f.Category], f)
	}
	var out []Figure
	for r := 0; len(out) < 30; r++ {
		for _, c := range cats {
			if r < len(by[c]) && len(out) < 30 {
				out = append(out, by[c][r])
			}
		}
	}
	return out
}

// TestWriteOrientationSets writes, when TESSERA_WRITE_ORIENT=DIR, the 30
// figures of orientationSet twice: DIR/hidden/fig-NAME.txt as the set
// stores them (turns flip: the orientations hidden) and
// DIR/given/fig-NAME.txt with every tan turned as the figure's kept
// solution has it, translation only (the orientations given).
func TestWriteOrientationSets(t *testing.T) {
	dir := os.Getenv("TESSERA_WRITE_ORIENT")
	if dir == "" {
		t.Skip("set TESSERA_WRITE_ORIENT=DIR to write the figures of the orientation bench")
	}
	for _, f := range orientationSet() {
		sol, err := figureSolution(f)
		if err != nil {
			t.Fatal(err)
		}
		given := f.Puzzle.Clone()
		given.Turns = TurnsNone
		for i, pl := range sol.Placements {
			if given.Pieces[i].Shape, err = f.Puzzle.Pieces[i].Shape.Oriented(pl.Orient); err != nil {
				t.Fatal(err)
			}
		}
		for sub, p := range map[string]*Puzzle{"hidden": f.Puzzle, "given": given} {
			var b strings.Builder
			if err := FormatPuzzle(&b, p); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, sub, "fig-"+f.Name+".txt"), []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

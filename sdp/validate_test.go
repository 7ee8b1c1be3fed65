package sdp

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

// TestValidate: bad input is refused before any work, by every backend,
// with an error that names the package and the fault.
func TestValidate(t *testing.T) {
	good := func() *Problem {
		p := &Problem{Blocks: []Block{{Size: 2}, {Size: 2, Diagonal: true}}}
		p.AddObjective(E(0, 0, 1, 1))
		p.AddConstraint(1, E(0, 0, 0, 1), E(1, 1, 1, 1))
		return p
	}
	cases := []struct {
		name, want string
		edit       func(p *Problem)
	}{
		{"nil blocks", "no blocks", func(p *Problem) { p.Blocks = nil }},
		{"no constraints", "no constraints", func(p *Problem) { p.Constraints = nil }},
		{"zero size", "block 1 has size 0", func(p *Problem) { p.Blocks[1].Size = 0 }},
		{"huge size", "block 0 has size", func(p *Problem) { p.Blocks[0].Size = MaxBlockSize + 1 }},
		{"block index", "block 2 out of range", func(p *Problem) { p.C = append(p.C, E(2, 0, 0, 1)) }},
		{"negative block", "block -1 out of range", func(p *Problem) { p.AddConstraint(1, E(-1, 0, 0, 1)) }},
		{"row", "(2, 0) out of range of block 0", func(p *Problem) { p.AddConstraint(1, E(0, 2, 0, 1)) }},
		{"column", "(0, -1) out of range", func(p *Problem) { p.AddConstraint(1, E(0, 0, -1, 1)) }},
		{"diagonal block", "off-diagonal (0, 1) in diagonal block 1", func(p *Problem) { p.AddConstraint(1, E(1, 0, 1, 1)) }},
		{"nan entry", "constraint 0 entry 1: value NaN", func(p *Problem) { p.Constraints[0].A[1].V = math.NaN() }},
		{"inf objective", "objective entry 0: value +Inf", func(p *Problem) { p.C[0].V = math.Inf(1) }},
		{"nan rhs", "constraint 0: right-hand side NaN", func(p *Problem) { p.Constraints[0].B = math.NaN() }},
		{"empty constraint", "constraint 1 has no non-zero entry", func(p *Problem) { p.AddConstraint(0) }},
		{"cancelling entries", "constraint 1 has no non-zero entry", func(p *Problem) { p.AddConstraint(0, E(0, 0, 1, 1), E(0, 0, 1, -1)) }},
		{"asymmetric", "constraint 1: block 0 entries (0, 1) = 1 and (1, 0) = 2 differ: the matrix must be symmetric", func(p *Problem) { p.AddConstraint(0, E(0, 0, 1, 1), E(0, 1, 0, 2)) }},
		{"overflow", "constraint 1: block 0 entries at (0, 1) add up to an infinite value", func(p *Problem) { p.AddConstraint(0, E(0, 0, 1, 1e308), E(0, 0, 1, 1e308)) }},
		{"asymmetric objective", "objective: block 0 entries (0, 1) = 1 and (1, 0) = -1 differ", func(p *Problem) { p.AddObjective(E(0, 1, 0, -1)) }},
	}
	for _, c := range cases {
		p := good()
		c.edit(p)
		if err := p.Validate(); err == nil || !strings.HasPrefix(err.Error(), "sdp: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Validate says %v, want %q", c.name, err, c.want)
		}
		for sname, s := range solvers() {
			sol, err := s.Solve(context.Background(), p)
			if err == nil || sol != nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s %s: %v, %v", sname, c.name, sol, err)
			}
		}
	}
	if err := good().Validate(); err != nil {
		t.Errorf("good problem: %v", err)
	}
	var nilp *Problem
	if err := nilp.Validate(); err == nil {
		t.Error("nil problem accepted")
	}
}

// TestSymmetricEntries: an off-diagonal value may be given in either
// triangle or in both (a full symmetric matrix), repeated entries at the
// same place add up, and the order of entries and constraints does not
// matter.
func TestSymmetricEntries(t *testing.T) {
	a := thetaProblem(5, cycle(5))
	variants := map[string]func(e Entry) []Entry{
		"lower": func(e Entry) []Entry { return []Entry{E(e.Block, e.J, e.I, e.V)} },
		"full": func(e Entry) []Entry {
			if e.I == e.J {
				return []Entry{e}
			}
			return []Entry{e, E(e.Block, e.J, e.I, e.V)}
		},
		"halves": func(e Entry) []Entry { return []Entry{E(e.Block, e.I, e.J, e.V/2), E(e.Block, e.I, e.J, e.V/2)} },
	}
	want, err := IPM{}.Solve(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range variants {
		b := &Problem{Blocks: a.Blocks}
		for _, e := range a.C {
			b.AddObjective(f(e)...)
		}
		for i := len(a.Constraints) - 1; i >= 0; i-- {
			c := a.Constraints[i]
			var es []Entry
			for k := len(c.A) - 1; k >= 0; k-- {
				es = append(es, f(c.A[k])...)
			}
			b.Constraints = append([]Constraint{{A: es, B: c.B}}, b.Constraints...)
		}
		got, err := IPM{}.Solve(context.Background(), b)
		if err != nil || math.Abs(got.PrimalObjective-want.PrimalObjective) > 1e-12 || got.Iterations != want.Iterations {
			t.Errorf("%s: %v %v, want %v", name, err, got.PrimalObjective, want.PrimalObjective)
		}
	}
}

// TestBudgets: MaxIter and the context stop each solver with ErrBudget
// and the last iterate; MaxBytes refuses a problem too large. (CSDP's
// own: TestCSDPBudgets.)
func TestBudgets(t *testing.T) {
	p := randomFeasible(7, []Block{{Size: 10}, {Size: 6, Diagonal: true}}, 30, 0.3, 0.5, false)
	for sname, s := range map[string]struct{ iter2, plain, small Solver }{
		"go":   {IPM{MaxIter: 2}, IPM{}, IPM{MaxBytes: 1 << 12}},
		"csdp": {CSDP{MaxIter: 2}, CSDP{}, CSDP{MaxBytes: 1 << 12}},
	} {
		if sname == "csdp" && !csdpBuilt {
			continue
		}
		sol, err := s.iter2.Solve(context.Background(), p)
		if !errors.Is(err, ErrBudget) || sol == nil || sol.Status != Stopped || sol.Iterations != 2 {
			t.Errorf("%s MaxIter 2: %v %+v", sname, err, sol)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		sol, err = s.plain.Solve(ctx, p)
		if !errors.Is(err, ErrBudget) || !errors.Is(err, context.Canceled) || sol == nil || sol.Iterations != 0 || len(sol.X) != 2 {
			t.Errorf("%s cancelled: %v %+v", sname, err, sol)
		}
		sol, err = s.small.Solve(context.Background(), p)
		if !errors.Is(err, ErrBudget) || sol != nil || !strings.Contains(err.Error(), "over the bound of 4.0 KiB") {
			t.Errorf("%s MaxBytes: %v %v", sname, err, sol)
		}
	}
	// The default bound refuses a Schur complement of 20,000 constraints
	// (6.4 GB) without allocating it.
	big := &Problem{Blocks: []Block{{Size: 20000, Diagonal: true}}}
	for i := range 20000 {
		big.AddConstraint(1, E(0, i, i, 1))
	}
	if _, err := (IPM{}).Solve(context.Background(), big); !errors.Is(err, ErrBudget) {
		t.Errorf("20,000 constraints: %v", err)
	}
}

// TestLookup: the names of the backends.
func TestLookup(t *testing.T) {
	if s, err := Lookup("go"); err != nil || s != (IPM{}) {
		t.Errorf("go: %v %v", s, err)
	}
	_, err := Lookup("csdp")
	if csdpBuilt != (err == nil) || (!csdpBuilt && !errors.Is(err, ErrNotBuilt)) {
		t.Errorf("csdp: %v", err)
	}
	if !csdpBuilt {
		if _, err := (CSDP{}).Solve(context.Background(), lpProblem()); !errors.Is(err, ErrNotBuilt) {
			t.Errorf("CSDP without the tag: %v", err)
		}
	}
	if _, err := Lookup("mosek"); err == nil || !strings.Contains(err.Error(), "sdp: unknown backend") {
		t.Errorf("mosek: %v", err)
	}
}

// TestTolerance: a looser Tol stops earlier, with the measures under it.
func TestTolerance(t *testing.T) {
	p := randomCases()[2]
	for name, mk := range map[string]func(tol float64) Solver{
		"go":   func(tol float64) Solver { return IPM{Tol: tol} },
		"csdp": func(tol float64) Solver { return CSDP{Tol: tol} },
	} {
		if name == "csdp" && !csdpBuilt {
			continue
		}
		tight, err1 := mk(1e-9).Solve(context.Background(), p)
		loose, err2 := mk(1e-4).Solve(context.Background(), p)
		if err1 != nil || err2 != nil || loose.Iterations >= tight.Iterations || max(loose.PrimalInfeasibility, loose.DualInfeasibility) > 1e-4 {
			t.Errorf("%s: %v %v, iterations %d (1e-4) and %d (1e-9), measures %.2g %.2g", name, err1, err2, loose.Iterations, tight.Iterations, loose.PrimalInfeasibility, loose.DualInfeasibility)
		}
	}
}

package relax

import (
	"cmp"
	"context"
	"errors"
	"math"
	"runtime/debug"
	"strings"
	"testing"

	"tessera/lp"

	"tessera/edgematch"
	"tessera/edgematch/internal/kernel"
	"tessera/internal/emtest"
)

func TestLPPermutationWithManyColours(t *testing.T) {
	for _, o := range []edgematch.GenerateOptions{
		{Kind: edgematch.Kovalsky, Rows: 6, Cols: 6, Colours: 16, Seed: 1},
		{Kind: edgematch.Kovalsky, Rows: 5, Cols: 5, Colours: 16, Rotate: true, Seed: 2},
	} {
		p, _ := emtest.Generate(t, o)
		res, err := LP{}.Solve(context.Background(), p)
		if err != nil || !res.LP.Permutation || res.LP.Method != "lp" || !res.Score.Solved() || p.Verify(res.Board) != nil {
			t.Fatalf("%+v: %v, permutation %v, method %q, %v", o, err, res.LP.Permutation, res.LP.Method, res.Score)
		}
		if res.LP.Iterations < 1 || res.LP.Variables == 0 || res.LP.Constraints == 0 {
			t.Fatalf("%+v: %+v", o, res)
		}
	}
}

func TestLPHybridFinishesByRoundingAndSearch(t *testing.T) {
	// Few colours: the LP stays fractional; one LP, then search.
	p, _ := emtest.Generate(t, edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: 5, Cols: 5, Colours: 3, Frame: 2, Seed: 3})
	res, err := LP{MaxIter: 1, NoSearch: true}.Solve(context.Background(), p)
	if err != nil || res.LP.Permutation || res.LP.Fractional == 0 || res.LP.Method != "" {
		t.Fatalf("no search: %v %+v", err, res)
	}
	if err := p.Check(res.Board); err != nil || res.Board.Filled() != 25 {
		t.Fatalf("the rounded board is not an assignment: %v", err)
	}
	res, err = LP{MaxIter: 1}.Solve(context.Background(), p)
	if err != nil || !res.Score.Solved() || (res.LP.Method != "lp+search" && res.LP.Method != "search") || p.Verify(res.Board) != nil {
		t.Fatalf("hybrid: %v %v %q", err, res.Score, res.LP.Method)
	}
}

func TestLPInfeasibleHints(t *testing.T) {
	p, sol, _ := edgematch.Generate(edgematch.GenerateOptions{Kind: edgematch.Kovalsky, Rows: 4, Cols: 4, Colours: 6, Seed: 5})
	c := sol.At(0, 0)
	p.Hints = []edgematch.Hint{{Piece: c.Piece, Row: 3, Col: 3, Rot: 0}}
	if _, err := (LP{}).Solve(context.Background(), p); err == nil {
		t.Fatal("a hint against the frame was accepted")
	}
}

// TestKovalskyLPBackends solves the relaxation of a small puzzle with a
// random objective by every backend built in; their optimal values agree.
func TestKovalskyLPBackends(t *testing.T) {
	p, _, _ := edgematch.Generate(edgematch.GenerateOptions{Kind: edgematch.Kovalsky, Rows: 4, Cols: 4, Colours: 3, Rotate: true, Seed: 6})
	c, err := kernel.Compile(p, kernel.CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	k, err := buildKovalskyLP(context.Background(), c, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	obj := make([]float64, k.prob.NumCols())
	for j := range obj {
		obj[j] = float64((j*7919)%13) - 6
	}
	k.prob.SetObjective(obj)
	var values []float64
	for _, name := range lp.Names() {
		b, _ := lp.Lookup(name)
		sol, err := lp.Solve(context.Background(), b, k.prob)
		if err != nil || sol.Status != lp.Optimal || k.prob.Violation(sol.X) > 1e-4 {
			t.Fatalf("%s: %v %v violation %v", name, err, sol.Status, k.prob.Violation(sol.X))
		}
		values = append(values, sol.Objective)
	}
	for _, v := range values[1:] {
		if d := v - values[0]; d > 1e-3 || d < -1e-3 {
			t.Fatalf("backends %v disagree: %v", lp.Names(), values)
		}
	}
}

// TestKovalskyPruningKeepsTheOptimum checks the claim of candidatePairs:
// removing the pairs that arc consistency rules out leaves the relaxation's
// feasible set, hence its optimum for any objective, unchanged.
func TestKovalskyPruningKeepsTheOptimum(t *testing.T) {
	p, _, _ := edgematch.Generate(edgematch.GenerateOptions{Kind: edgematch.Kovalsky, Rows: 4, Cols: 4, Colours: 4, Rotate: true, Seed: 8})
	c, err := kernel.Compile(p, kernel.CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := lp.Lookup("pdhg")
	var values []float64
	var vars []int
	for _, prune := range []bool{false, true} {
		k, err := buildKovalskyLP(context.Background(), c, prune, 0)
		if err != nil {
			t.Fatal(err)
		}
		obj := make([]float64, k.prob.NumCols())
		for v := range obj {
			obj[v] = float64((int(k.varCel[v])*31+int(k.varOri[v])*7919)%13) - 6
		}
		k.prob.SetObjective(obj)
		sol, err := lp.Solve(context.Background(), b, k.prob)
		if err != nil || sol.Status != lp.Optimal {
			t.Fatalf("prune %v: %v %v", prune, err, sol.Status)
		}
		t.Logf("prune %v: %d variables, optimum %.4f", prune, k.prob.NumCols(), sol.Objective)
		values, vars = append(values, sol.Objective), append(vars, k.prob.NumCols())
	}
	if vars[1] >= vars[0] {
		t.Errorf("pruning removed nothing: %v variables", vars)
	}
	if math.Abs(values[1]-values[0]) > 1e-3*(1+math.Abs(values[0])) {
		t.Fatalf("pruning changed the optimum: %v", values)
	}
}

// TestLPProbes checks that the bounded search after an LP ends the
// iteration early: with probes the hybrid solves the puzzle after fewer
// LPs than without.
func TestLPProbes(t *testing.T) {
	p, _ := emtest.Generate(t, edgematch.GenerateOptions{Kind: edgematch.Kovalsky, Rows: 5, Cols: 5, Colours: 6, Rotate: true, Seed: 1})
	with, err1 := LP{}.Solve(context.Background(), p)
	without, err2 := LP{ProbeNodes: -1}.Solve(context.Background(), p)
	t.Logf("with probes: %d LPs, %q; without: %d LPs, %q", with.LP.Iterations, with.LP.Method, without.LP.Iterations, without.LP.Method)
	if err1 != nil || err2 != nil || !with.Score.Solved() || !without.Score.Solved() {
		t.Fatalf("%v %v", err1, err2)
	}
	if with.LP.Permutation || without.LP.Permutation {
		t.Skip("the LP alone solved this puzzle: pick another")
	}
	if with.LP.Iterations >= without.LP.Iterations || with.LP.Method != "lp+search" {
		t.Fatalf("probes did not end the iteration early: %d LPs (%s) against %d", with.LP.Iterations, with.LP.Method, without.LP.Iterations)
	}
}

// TestLPSizeGuard: the LP of a 64x64 puzzle with 100 colours would need
// gigabytes (on main it ran out of memory after 28 s), that of a 32x32 one
// about 1.1 GiB (main: 15 s and 1.2 GiB for a 2 s budget). Solve refuses
// them with an *LPSizeError that names the bound and the need: the 64x64
// under a 64 MiB bound before storing its candidate pairs, the 32x32 under
// the default bound after pruning, before building the LP. The test runs
// under a soft memory limit of 256 MiB, so a guard that let the build start
// would thrash the collector rather than pass.
func TestLPSizeGuard(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(256 << 20))
	for _, c := range []struct {
		side  int
		bound int64
		stage string
	}{{64, 64 << 20, "candidate pairs"}, {32, 0, "LP"}} {
		p, _ := emtest.Generate(t, edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: c.side, Cols: c.side, Colours: 100, Seed: 1})
		res, err := LP{MaxMemory: c.bound}.Solve(context.Background(), p)
		var se *LPSizeError
		if !errors.As(err, &se) {
			t.Fatalf("%dx%d: err %v, want an *LPSizeError", c.side, c.side, err)
		}
		want := cmp.Or(c.bound, DefaultLPMemory)
		if se.Bound != want || se.Need <= want || se.Stage != c.stage || !strings.Contains(err.Error(), "LP.MaxMemory") {
			t.Fatalf("%dx%d: %+v: %v", c.side, c.side, se, err)
		}
		if res.Board == nil || res.LP == nil {
			t.Fatalf("no empty board or LP statistics with the error")
		}
		t.Log(err)
	}
}

// TestLPBuildHonoursContext: building the relaxation of a large puzzle
// stops when the context ends (on main a 2 s budget took 15 s on a 32x32
// puzzle, all of it building the LP).
func TestLPBuildHonoursContext(t *testing.T) {
	p, _ := emtest.Generate(t, edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: 32, Cols: 32, Colours: 100, Seed: 1})
	c, err := kernel.Compile(p, kernel.CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := buildKovalskyLP(ctx, c, true, -1); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	_, err = LP{MaxMemory: -1}.Solve(ctx, p)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "pairs") {
		t.Fatalf("err %v, want context.Canceled while counting the pairs", err)
	}
}

// TestLPSizeEstimate: the size the guard computes bounds the LP built
// (rows and nonzeros), so the reservation holds it and the estimate errs
// on the safe side.
func TestLPSizeEstimate(t *testing.T) {
	for _, o := range []edgematch.GenerateOptions{
		{Kind: edgematch.Framed, Rows: 6, Cols: 6, Colours: 8, Seed: 1},
		{Kind: edgematch.Kovalsky, Rows: 5, Cols: 7, Colours: 4, Rotate: true, Seed: 2},
		{Kind: edgematch.Kovalsky, Rows: 6, Cols: 6, Colours: 16, Seed: 3},
	} {
		p, _, _ := edgematch.Generate(o)
		c, err := kernel.Compile(p, kernel.CompileOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, prune := range []bool{false, true} {
			// A bound of 1 byte stops the guard at the candidate pairs; their
			// need as the bound stops it at the LP, reporting its estimate.
			_, err := buildKovalskyLP(context.Background(), c, prune, 1)
			var se *LPSizeError
			if !errors.As(err, &se) || se.Stage != "candidate pairs" {
				t.Fatalf("%+v: %v", o, err)
			}
			_, err = buildKovalskyLP(context.Background(), c, prune, se.Need)
			if !errors.As(err, &se) || se.Stage != "LP" {
				t.Fatalf("%+v: %v", o, err)
			}
			k, err := buildKovalskyLP(context.Background(), c, prune, 0)
			if err != nil {
				t.Fatal(err)
			}
			if int64(k.prob.NumRows()) > se.Constraints || int64(k.prob.NumNonzeros()) > se.Nonzeros || int64(k.prob.NumCols()) != se.Pairs {
				t.Errorf("%+v prune %v: built %d rows, %d nonzeros, %d variables; estimated %+v", o, prune, k.prob.NumRows(), k.prob.NumNonzeros(), k.prob.NumCols(), se)
			}
		}
	}
}

package sat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"tessera/edgematch"
	"tessera/edgematch/exact"
	"tessera/internal/emtest"
)

// needSATSolver skips the test when no SAT solver is on the PATH.
func needSATSolver(t *testing.T) {
	t.Helper()
	if _, err := FindSATSolver(""); err != nil {
		t.Skipf("no SAT solver on the PATH (%v); CI installs cadical", err)
	}
}

// propagate extends assign (assign[v]: 0 unknown, 1 true, -1 false) by
// unit propagation over f and reports a conflict.
func propagate(f *CNF, assign []int8) error {
	clauses := f.clausesOf()
	for changed := true; changed; {
		changed = false
		for _, c := range clauses {
			sat, free, last := false, 0, int32(0)
			for _, l := range c {
				v, s := l, int8(1)
				if v < 0 {
					v, s = -v, -1
				}
				switch assign[v] {
				case s:
					sat = true
				case 0:
					free++
					last = l
				}
			}
			switch {
			case sat:
			case free == 0:
				return fmt.Errorf("clause %v falsified", c)
			case free == 1:
				if last > 0 {
					assign[last] = 1
				} else {
					assign[-last] = -1
				}
				changed = true
			}
		}
	}
	return nil
}

// modelOf returns the model that board b sets in e: the placement
// variables from b, the others by unit propagation, which determines them
// all for a solution.
func modelOf(t *testing.T, e *SATEncoding, b *edgematch.Board) []bool {
	t.Helper()
	assign := make([]int8, e.Vars+1)
	for v := 1; v <= e.Placements; v++ {
		assign[v] = -1
	}
	for cell, pl := range b.Cells {
		v := e.placementVar(cell, canonicalPlacement(e.p, pl))
		if v == 0 {
			t.Fatalf("no variable for piece %d rot %d at cell %d", pl.Piece+1, pl.Rot, cell)
		}
		assign[v] = 1
	}
	if err := propagate(&e.CNF, assign); err != nil {
		t.Fatalf("the solution falsifies the formula: %v", err)
	}
	model := make([]bool, e.Vars+1)
	for v := 1; v <= e.Vars; v++ {
		if assign[v] == 0 {
			t.Fatalf("variable %d not determined by the solution", v)
		}
		model[v] = assign[v] > 0
	}
	return model
}

// canonicalPlacement turns pl's rotation into the smallest rotation of its
// piece showing the same colours.
func canonicalPlacement(p *edgematch.Puzzle, pl edgematch.Placement) edgematch.Placement {
	t := p.Tiles[pl.Piece]
	for r := range pl.Rot {
		if t.Rotate(r) == t.Rotate(pl.Rot) {
			return edgematch.Placement{Piece: pl.Piece, Rot: r}
		}
	}
	return pl
}

func TestSATEncodeRoundTrip(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		for _, sz := range [][2]int{{3, 3}, {4, 5}, {6, 6}} {
			p, sol := emtest.Generate(t, edgematch.GenerateOptions{Rows: sz[0], Cols: sz[1], Colours: 5, Seed: seed})
			for _, o := range []SATEncodeOptions{{NoSymmetry: true}, {NoSymmetry: true, Direct: true}} {
				e, err := EncodeSAT(context.Background(), p, o)
				if err != nil {
					t.Fatal(err)
				}
				if e.Unsat {
					t.Fatalf("%dx%d seed %d: a solvable puzzle encoded as unsatisfiable", sz[0], sz[1], seed)
				}
				model := modelOf(t, e, sol)
				b, err := e.Decode(model)
				if err != nil {
					t.Fatalf("%dx%d seed %d: %v", sz[0], sz[1], seed, err)
				}
				for i, c := range b.Cells {
					if c != canonicalPlacement(p, sol.Cells[i]) {
						t.Fatalf("%dx%d seed %d: cell %d decodes to %v, want %v", sz[0], sz[1], seed, i, c, sol.Cells[i])
					}
				}
				// The blocked solution no longer satisfies the formula.
				if err := e.Block(b); err != nil {
					t.Fatal(err)
				}
				if !falsified(&e.CNF, model) {
					t.Fatalf("%dx%d seed %d: the blocking clause keeps the solution", sz[0], sz[1], seed)
				}
			}
		}
	}
}

// falsified reports whether model falsifies some clause of f.
func falsified(f *CNF, model []bool) bool {
	for _, c := range f.clausesOf() {
		sat := false
		for _, l := range c {
			if (l > 0) == model[max(l, -l)] {
				sat = true
			}
		}
		if !sat {
			return true
		}
	}
	return false
}

func TestSATEncodeHints(t *testing.T) {
	p, sol := emtest.Generate(t, edgematch.GenerateOptions{Rows: 5, Cols: 5, Colours: 4, Seed: 3})
	for _, cell := range []int{0, 7, 12} {
		pl := sol.Cells[cell]
		p.Hints = append(p.Hints, edgematch.Hint{Piece: pl.Piece, Row: cell / 5, Col: cell % 5, Rot: pl.Rot})
	}
	e := mustEncode(t, p)
	if e.Symmetry != 1 {
		t.Errorf("symmetry %d with hints, want 1", e.Symmetry)
	}
	for _, h := range p.Hints {
		cell := h.Row*5 + h.Col
		if n := e.yStart[cell+1] - e.yStart[cell]; n != 1 {
			t.Errorf("hinted cell %d has %d placements, want 1", cell, n)
		}
	}
	b, err := e.Decode(modelOf(t, e, sol))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Verify(b); err != nil {
		t.Fatal(err)
	}
	// A hint that contradicts the frame leaves no placement for its cell.
	q := p.Clone()
	q.Hints = []edgematch.Hint{{Piece: sol.Cells[12].Piece, Row: 0, Col: 0, Rot: 0}}
	e = mustEncode(t, q)
	if !e.Unsat {
		t.Error("an inner piece hinted into a corner: want a trivially unsatisfiable formula")
	}
}

func TestSATSizeLimit(t *testing.T) {
	p, _ := emtest.Generate(t, edgematch.GenerateOptions{Rows: 16, Cols: 16, Colours: 17, Frame: 5, Seed: 1})
	_, err := EncodeSAT(context.Background(), p, SATEncodeOptions{MaxClauses: 100_000})
	var se *SATSizeError
	if !errors.As(err, &se) || se.Need <= 100_000 {
		t.Fatalf("got %v, want a *SATSizeError above 100000", err)
	}
	e := mustEncode(t, p)
	if int64(e.Clauses) > se.Need {
		t.Errorf("%d clauses built, more than the estimate %d", e.Clauses, se.Need)
	}
}

func TestSATDIMACS(t *testing.T) {
	p, _ := emtest.Generate(t, edgematch.GenerateOptions{Rows: 3, Cols: 4, Colours: 3, Seed: 1})
	e := mustEncode(t, p)
	var buf bytes.Buffer
	if err := e.WriteDIMACS(&buf, "test"); err != nil {
		t.Fatal(err)
	}
	// Read it back: the header, then exactly the clauses.
	var got []int32
	header, places := false, 0
	for l := range strings.SplitSeq(strings.TrimSpace(buf.String()), "\n") {
		switch {
		case strings.HasPrefix(l, "c p ") && l[4] >= '0' && l[4] <= '9':
			places++
		case strings.HasPrefix(l, "c"):
		case strings.HasPrefix(l, "p cnf "):
			if header || l != fmt.Sprintf("p cnf %d %d", e.Vars, e.Clauses) {
				t.Fatalf("header %q", l)
			}
			header = true
		default:
			for _, f := range strings.Fields(l) {
				v, err := strconv.Atoi(f)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, int32(v))
			}
		}
	}
	if places != e.Placements {
		t.Errorf("%d placement comments, want %d", places, e.Placements)
	}
	if !slices.Equal(got, e.Lits) {
		t.Error("the clauses written differ from the formula")
	}
}

func TestSATSolves(t *testing.T) {
	needSATSolver(t)
	for seed := uint64(1); seed <= 3; seed++ {
		p, _ := emtest.Generate(t, edgematch.GenerateOptions{Rows: 5, Cols: 6, Colours: 5, Seed: seed})
		res, err := SAT{}.Solve(context.Background(), p)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if err := p.Verify(res.Board); err != nil || !res.Score.Solved() {
			t.Fatalf("seed %d: %v, score %v", seed, err, res.Score)
		}
	}
}

// TestSATCountsMatchDFS compares the counts of SAT (by blocking clauses)
// with the backtracker's on puzzles with several solutions, with and
// without symmetry breaking, with and without hints.
func TestSATCountsMatchDFS(t *testing.T) {
	needSATSolver(t)
	ctx := context.Background()
	cases := 0
	for seed := uint64(1); seed <= 9; seed++ {
		sz := [][3]int{{4, 4, 6}, {4, 5, 6}, {5, 5, 8}}[seed%3]
		p, sol := emtest.Generate(t, edgematch.GenerateOptions{Rows: sz[0], Cols: sz[1], Colours: sz[2], Frame: 2, Seed: seed})
		if seed%4 == 0 {
			pl := sol.Cells[sz[1]+1]
			p.Hints = []edgematch.Hint{{Piece: pl.Piece, Row: 1, Col: 1, Rot: pl.Rot}}
		}
		want, err := exact.DFS{Count: true, Workers: 1}.Solve(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if want.Stats.Solutions > 300 {
			continue
		}
		cases++
		for _, o := range []SATEncodeOptions{{}, {NoSymmetry: true}} {
			got, err := SAT{Count: true, Encode: o}.Solve(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			if got.Stats.Solutions != want.Stats.Solutions {
				t.Errorf("%dx%d seed %d (hints %d, %+v): SAT counts %d solutions, DFS %d", sz[0], sz[1], seed, len(p.Hints), o, got.Stats.Solutions, want.Stats.Solutions)
			}
		}
	}
	if cases < 6 {
		t.Fatalf("only %d puzzles with at most 300 solutions", cases)
	}
}

func TestSATSharedSmallCounts(t *testing.T) {
	needSATSolver(t)
	dir := emtest.SharedData(t)
	for _, name := range []string{"03x03", "04x03", "04x04", "05x03"} {
		p, err := edgematch.ReadPuzzleFile(filepath.Join(dir, "brendan_set1", name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		want, err := exact.DFS{Count: true}.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := SAT{Count: true}.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if got.Stats.Solutions != want.Stats.Solutions {
			t.Errorf("%s: SAT counts %d, DFS %d", name, got.Stats.Solutions, want.Stats.Solutions)
		}
	}
}

func TestSATMaxSolutions(t *testing.T) {
	needSATSolver(t)
	p, _ := emtest.Generate(t, edgematch.GenerateOptions{Rows: 4, Cols: 4, Colours: 2, Frame: 1, Seed: 5})
	all, err := exact.DFS{Count: true}.Solve(context.Background(), p)
	if err != nil || all.Stats.Solutions < 12 {
		t.Fatalf("want a puzzle with at least 12 solutions: %d, %v", all.Stats.Solutions, err)
	}
	res, err := SAT{Count: true, MaxSolutions: 8}.Solve(context.Background(), p)
	if !errors.Is(err, edgematch.ErrBudget) || res.Stats.Solutions < 8 || res.Stats.Solutions >= all.Stats.Solutions {
		t.Fatalf("got %d solutions, %v; want 8..%d and ErrBudget", res.Stats.Solutions, err, all.Stats.Solutions-1)
	}
	if !res.Score.Solved() {
		t.Error("no board with the count")
	}
}

func TestSATUnsatisfiable(t *testing.T) {
	needSATSolver(t)
	// Change one inner colour of a solvable puzzle until the backtracker
	// proves there is no solution, with every cell and piece still having
	// placements (so the solver itself decides).
	for seed := uint64(1); seed <= 20; seed++ {
		p, _ := emtest.Generate(t, edgematch.GenerateOptions{Rows: 4, Cols: 4, Colours: 3, Seed: seed})
		for i, tile := range p.Tiles {
			if tile[0] != edgematch.Grey && tile[1] != edgematch.Grey && tile[2] != edgematch.Grey && tile[3] != edgematch.Grey {
				p.Tiles[i][0] = tile[0]%3 + 2 // inner colours are 2..4
				break
			}
		}
		if _, err := (exact.DFS{}).Solve(context.Background(), p); !errors.Is(err, edgematch.ErrNoSolution) {
			continue
		}
		if mustEncode(t, p).Unsat {
			continue
		}
		if _, err := (SAT{}).Solve(context.Background(), p); !errors.Is(err, edgematch.ErrNoSolution) {
			t.Fatalf("seed %d: got %v, want ErrNoSolution", seed, err)
		}
		return
	}
	t.Fatal("no unsolvable puzzle among the seeds")
}

// mustEncode encodes p with the default options or fails the test.
func mustEncode(t *testing.T, p *edgematch.Puzzle) *SATEncoding {
	t.Helper()
	e, err := EncodeSAT(context.Background(), p, SATEncodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// fakeSolver writes a shell script that plays a SAT solver.
func fakeSolver(t *testing.T, body string) string {
	t.Helper()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	path := filepath.Join(t.TempDir(), "fake-sat")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSATWrongModelRejected(t *testing.T) {
	p, _ := emtest.Generate(t, edgematch.GenerateOptions{Rows: 3, Cols: 3, Colours: 3, Seed: 1})
	// Every variable true: many pieces in each cell.
	e := mustEncode(t, p)
	var v strings.Builder
	for i := 1; i <= e.Vars; i++ {
		fmt.Fprintf(&v, "v %d\n", i)
	}
	solver := fakeSolver(t, "cat <<'EOF'\ns SATISFIABLE\n"+v.String()+"v 0\nEOF\nexit 10")
	res, err := SAT{Solver: solver}.Solve(context.Background(), p)
	if err == nil || !strings.Contains(err.Error(), "not a solution") && !strings.Contains(err.Error(), "two pieces") {
		t.Fatalf("got %v, want a rejected model", err)
	}
	if res.Score.Solved() {
		t.Error("a rejected model returned as a solution")
	}
	// No answer at all, and a crash.
	for _, body := range []string{"echo 's UNKNOWN'", "echo oops >&2; exit 3"} {
		if _, err := (SAT{Solver: fakeSolver(t, body)}).Solve(context.Background(), p); err == nil {
			t.Errorf("%q: no error", body)
		}
	}
	if _, err := (SAT{Solver: "no-such-sat-solver-here"}).Solve(context.Background(), p); !errors.Is(err, ErrNoSATSolver) {
		t.Errorf("missing solver: got %v, want ErrNoSATSolver", err)
	}
}

// alive reports whether process pid exists (a zombie counts).
func alive(pid int) bool {
	return syscall.Kill(pid, 0) == nil
}

func TestSATTimeoutKillsSolver(t *testing.T) {
	// A wrapper that starts a long child and waits: the whole process
	// group must go.
	childFile := filepath.Join(t.TempDir(), "child")
	solver := fakeSolver(t, "sleep 300 &\necho $! > "+childFile+"\nwait")
	p, _ := emtest.Generate(t, edgematch.GenerateOptions{Rows: 3, Cols: 3, Colours: 3, Seed: 1})
	var pids []int
	satStarted = func(pid int) { pids = append(pids, pid) }
	defer func() { satStarted = nil }()
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	_, err := SAT{Solver: solver}.Solve(ctx, p)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want the deadline", err)
	}
	if len(pids) != 1 || alive(pids[0]) {
		t.Fatalf("solver processes %v: want one, gone", pids)
	}
	data, err := os.ReadFile(childFile)
	if err != nil {
		t.Fatal(err)
	}
	child, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	// The child was killed with the group; init reaps it soon after.
	for i := 0; alive(child) && i < 100; i++ {
		time.Sleep(100 * time.Millisecond)
	}
	if alive(child) {
		syscall.Kill(child, syscall.SIGKILL)
		t.Fatalf("the solver's child %d outlived the deadline", child)
	}
}

func TestSATTimeoutRealSolver(t *testing.T) {
	needSATSolver(t)
	p, _ := emtest.Generate(t, edgematch.GenerateOptions{Rows: 16, Cols: 16, Colours: 17, Frame: 5, Seed: 1})
	var pids []int
	satStarted = func(pid int) { pids = append(pids, pid) }
	defer func() { satStarted = nil }()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := SAT{}.Solve(ctx, p)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want the deadline (a 16x16 with 17 colours in 2 s?)", err)
	}
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("solver process %d still alive", pid)
		}
	}
}

func TestParseSATOutput(t *testing.T) {
	for _, c := range []struct {
		out    string
		status satStatus
		model  string // the true variables
		bad    bool
	}{
		{out: "c hello\ns SATISFIABLE\nv 1 -2 3\nv -4 0\n", status: satSat, model: "1 3"},
		{out: "s SATISFIABLE\nv -1 -2 -3 -4 0\n", status: satSat, model: ""},
		{out: "s UNSATISFIABLE\n", status: satUnsat},
		{out: "s UNKNOWN\n", status: satUnknown},
		{out: "", status: satUnknown},
		{out: "s SATISFIABLE\nv 1 2\n", bad: true},           // truncated
		{out: "s SATISFIABLE\nv 1 5 0\n", bad: true},         // out of range
		{out: "s SATISFIABLE\nv 1 -1 0\n", bad: true},        // both signs
		{out: "s SATISFIABLE\nv 1 x 0\n", bad: true},         // not a number
		{out: "s SATISFIABLE\ns UNSATISFIABLE\n", bad: true}, // two answers
		{out: "s UNSATISFIABLE\nv 1 0\n", bad: true},         // a model with UNSAT
		{out: "s MAYBE\n", bad: true},
		{out: "s SATISFIABLE\nv 1 0 2\n", bad: true}, // after the 0
	} {
		st, model, err := parseSATOutput(strings.NewReader(c.out), 4)
		if c.bad {
			if err == nil || !errors.Is(err, errSATOutput) {
				t.Errorf("%q: got %v, want an output error", c.out, err)
			}
			continue
		}
		if err != nil || st != c.status {
			t.Errorf("%q: got %v, %v; want status %v", c.out, st, err, c.status)
			continue
		}
		var trues []string
		for v, b := range model {
			if b {
				trues = append(trues, strconv.Itoa(v))
			}
		}
		if strings.Join(trues, " ") != c.model {
			t.Errorf("%q: true variables %v, want %s", c.out, trues, c.model)
		}
	}
}

func FuzzParseSATOutput(f *testing.F) {
	f.Add("s SATISFIABLE\nv 1 -2 3 0\n", 3)
	f.Add("s UNSATISFIABLE\n", 0)
	f.Add("c x\ns SATISFIABLE\nv -1\nv 2 0\n", 2)
	f.Add("s SATISFIABLE\nv 99999999999999999999 0\n", 5)
	f.Fuzz(func(t *testing.T, out string, vars int) {
		if vars < 0 || vars > 1<<16 {
			return
		}
		st, model, err := parseSATOutput(strings.NewReader(out), vars)
		if err != nil {
			if model != nil {
				t.Fatal("a model with an error")
			}
			return
		}
		if st == satSat {
			if len(model) != vars+1 {
				t.Fatalf("model of %d entries for %d variables", len(model), vars)
			}
			// Printed back, the model parses to itself.
			var b strings.Builder
			b.WriteString("s SATISFIABLE\nv")
			for v := 1; v <= vars; v++ {
				if model[v] {
					fmt.Fprintf(&b, " %d", v)
				} else {
					fmt.Fprintf(&b, " -%d", v)
				}
			}
			b.WriteString(" 0\n")
			st2, model2, err := parseSATOutput(strings.NewReader(b.String()), vars)
			if err != nil || st2 != satSat {
				t.Fatalf("reparse: %v %v", st2, err)
			}
			for v := range model {
				if model[v] != model2[v] {
					t.Fatalf("variable %d changed on reparse", v)
				}
			}
		} else if model != nil {
			t.Fatal("a model without SATISFIABLE")
		}
	})
}

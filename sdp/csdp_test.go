//go:build csdp

package sdp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// TestBackendsAgree: IPM and CSDP find the same optimal values, to 1e-6
// relative, on the random strictly feasible problems and the known optima.
func TestBackendsAgree(t *testing.T) {
	probs := randomCases()
	for _, k := range knownOptima() {
		probs = append(probs, k.p)
	}
	for idx, p := range probs {
		a, err1 := IPM{}.Solve(context.Background(), p)
		b, err2 := CSDP{}.Solve(context.Background(), p)
		if err1 != nil || err2 != nil {
			t.Errorf("case %d: go %v, csdp %v", idx, err1, err2)
			continue
		}
		for _, v := range [][2]float64{{a.PrimalObjective, b.PrimalObjective}, {a.DualObjective, b.DualObjective}} {
			if math.Abs(v[0]-v[1]) > 1e-6*(1+math.Abs(v[1])) {
				t.Errorf("case %d: go %.10g, csdp %.10g", idx, v[0], v[1])
			}
		}
	}
}

// TestCSDPBudgets: a cancelled solve leaves CSDP ready for the next, and
// a deadline stops a long solve midway. (TestBudgets checks MaxIter, a
// cancelled context and MaxBytes for every solver; its MaxIter 2 shows our
// parameters reach CSDP, whose initparams is ours.)
func TestCSDPBudgets(t *testing.T) {
	p := randomFeasible(7, []Block{{Size: 10}, {Size: 6, Diagonal: true}}, 30, 0.3, 0.5, false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (CSDP{}).Solve(ctx, p); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	// The stop flag is cleared for the next solve.
	if _, err := (CSDP{}).Solve(context.Background(), p); err != nil {
		t.Errorf("after a cancelled solve: %v", err)
	}
	// A deadline in the middle of a longer solve.
	big := randomFeasible(8, []Block{{Size: 60}, {Size: 60}}, 400, 0.05, 0.5, false)
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	sol, err := CSDP{}.Solve(ctx, big)
	t.Logf("deadline: %v after %v, %d iterations", err, time.Since(start), sol.Iterations)
	if !errors.Is(err, ErrBudget) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("deadline: %v", err)
	}
}

// BenchmarkCSDP solves benchProblem with CSDP.
func BenchmarkCSDP(b *testing.B) { benchSolver(b, CSDP{}) }

// BenchmarkCSDPLocal solves localProblem with CSDP.
func BenchmarkCSDPLocal(b *testing.B) { benchSolverOn(b, CSDP{}, localProblem()) }

// TestCSDPCommand: the csdp command (coinor-csdp) reads the files
// WriteSDPA writes and finds the optima IPM finds, so the writer and
// CSDP's reader agree on the format (skipped without the command).
func TestCSDPCommand(t *testing.T) {
	bin, err := exec.LookPath("csdp")
	if err != nil {
		t.Skip("no csdp command")
	}
	dir := t.TempDir()
	probs := randomCases()[:6]
	for _, k := range knownOptima() {
		probs = append(probs, k.p)
	}
	re := regexp.MustCompile(`Primal objective value: *(\S+)`)
	for idx, p := range probs {
		name := filepath.Join(dir, fmt.Sprintf("p%d.dat-s", idx))
		var buf bytes.Buffer
		if err := WriteSDPA(&buf, p); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(bin, name).Output()
		mm := re.FindSubmatch(out)
		if err != nil || mm == nil {
			t.Errorf("case %d: csdp %v\n%s", idx, err, out)
			continue
		}
		got, _ := strconv.ParseFloat(string(mm[1]), 64)
		sol, err := IPM{}.Solve(context.Background(), p)
		want := sol.PrimalObjective
		if p.Minimize {
			want = -want // written with C negated
		}
		if err != nil || math.Abs(got-want) > 1e-6*(1+math.Abs(want)) {
			t.Errorf("case %d: csdp command %v, IPM %v (%v)", idx, got, want, err)
		}
	}
}

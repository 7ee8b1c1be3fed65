//go:build measure

// TestMeasure prints the CPU time and iterations of each backend on the
// test problems and the benchmark problem:
//
//	CGO_ENABLED=1 go test -tags measure,csdp -cpu 1 -run Measure -v ./sdp
//
// (without csdp, the Go backend only). Not part of the test suite.

package sdp

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"
)

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestMeasure(t *testing.T) {
	type named struct {
		name string
		p    *Problem
		reps int
	}
	var probs []named
	for _, k := range knownOptima() {
		probs = append(probs, named{k.name, k.p, 200})
	}
	rc := randomCases()
	probs = append(probs, named{"random 8,8,5,d6 m40", rc[2], 100})
	probs = append(probs, named{"moment sextic", momentProblem([]float64{17, -16, 15, -16, 11, -4, 1}), 200})
	probs = append(probs, named{"bench 30x20+d40 m300", benchProblem(), 5})
	probs = append(probs, named{"local 30x10 m620", localProblem(), 3})
	for _, pr := range probs {
		line := fmt.Sprintf("%-22s", pr.name)
		for _, name := range []string{"go", "csdp"} {
			s, err := Lookup(name)
			if err != nil {
				continue
			}
			var sol *Solution
			start := cpuNow()
			for range pr.reps {
				sol, err = s.Solve(context.Background(), pr.p)
			}
			d := (cpuNow() - start) / time.Duration(pr.reps)
			line += fmt.Sprintf(" | %s: %v %2d it %10.3f ms %8.3f ms/it obj %.9g", name, err, sol.Iterations, float64(d.Microseconds())/1000, float64(d.Microseconds())/1000/float64(sol.Iterations), sol.PrimalObjective)
		}
		t.Log(line)
	}
}

//go:build clp

package lp

import (
	"context"
	"math"
	"testing"
)

func TestClp(t *testing.T) {
	b, err := Lookup("clp")
	if err != nil {
		t.Fatal(err)
	}
	checkBackend(t, b)
}

// TestBackendsAgree solves the same LPs with both backends.
func TestBackendsAgree(t *testing.T) {
	clp, _ := Lookup("clp")
	pdhg := NewPDHG(PDHGOptions{})
	for seed := range uint64(5) {
		p, _ := assignmentLP(7, 100+seed)
		a, err1 := Solve(context.Background(), clp, p)
		b, err2 := Solve(context.Background(), pdhg, p)
		if err1 != nil || err2 != nil || a.Status != Optimal || b.Status != Optimal {
			t.Fatalf("seed %d: clp %v %v, pdhg %v %v", seed, a.Status, err1, b.Status, err2)
		}
		if math.Abs(a.Objective-b.Objective) > 1e-4*(1+math.Abs(a.Objective)) {
			t.Errorf("seed %d: clp %v, pdhg %v", seed, a.Objective, b.Objective)
		}
	}
}

package catalog

import (
	"context"
	"testing"

	"tessera/tangram"
)

// TestTangramTable builds both tangram solvers from the table and solves a
// generated puzzle with each; options that do not apply are refused.
func TestTangramTable(t *testing.T) {
	p, _, err := tangram.Generate(3, tangram.Tans())
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range Tangram.IDs() {
		iterates := 0
		s, err := Tangram.New(id, TangramOptions{OnIterate: func(tangram.SDPIterate) { iterates++ }})
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		res, err := s.Solve(context.Background(), p)
		if err != nil || !res.Solved || tangram.Check(p, res.Solution) != nil {
			t.Errorf("%s: %v", id, err)
		}
		if (id == "sdp") != (res.SDP != nil && iterates == res.SDP.Iterations && iterates > 0) {
			t.Errorf("%s: SDP statistics %v, %d iterates", id, res.SDP, iterates)
		}
	}
	if _, err := Tangram.New("sdp", TangramOptions{MaxNodes: 5}); err == nil {
		t.Error("sdp took -max-nodes")
	}
	if _, err := Tangram.New("exact", TangramOptions{SDPBackend: "go"}); err == nil {
		t.Error("exact took -sdp")
	}
	if _, err := Tangram.New("sdp", TangramOptions{SDPBackend: "nope"}); err == nil {
		t.Error("sdp took an unknown backend")
	}
}

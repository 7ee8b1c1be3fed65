package catalog

import (
	"context"
	"encoding/json"
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
		s, err := Tangram.New(id, TangramRun{Hooks: TangramHooks{OnIterate: func(tangram.SDPIterate) { iterates++ }}})
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
	list := Options(TangramOptions{})
	if err := Tangram.Applies(list, []string{"max-nodes"}, "sdp"); err == nil || err.Error() != "-max-nodes applies to -algo exact, not sdp" {
		t.Errorf("sdp took -max-nodes: %v", err)
	}
	for _, o := range []string{"sdp", "k", "max-iter", "plain"} {
		if err := Tangram.Applies(list, []string{o}, "exact"); err == nil {
			t.Errorf("exact took -%s", o)
		}
	}
	if _, err := Tangram.New("sdp", TangramRun{TangramOptions: TangramOptions{TangramSDPOptions: TangramSDPOptions{SDPBackendOption: SDPBackendOption{SDPBackend: "nope"}}}}); err == nil {
		t.Error("sdp took an unknown backend")
	}
	// The job: the puzzle's text travels, the record is the bench's line.
	job := TangramJob{Spec: Spec[TangramOptions]{Solver: "exact"}, Name: "p", Puzzle: p.String()}
	out, err := JobKinds()[TangramKind](t.Context(), mustJSON(t, job), nil)
	if rec := out.(TangramRecord); err != nil || !rec.Solved || rec.Placed != len(p.Pieces) || rec.Algo != "exact" || rec.Nodes == 0 {
		t.Errorf("job: %+v, %v", out, err)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

package catalog

import (
	"context"
	"testing"

	"tessera/edgematch"
	"tessera/internal/emtest"
	"tessera/sdp"
)

// TestEdgeMatchSDP: the sdp entry (Algorithm 2) solves a small Kovalsky
// puzzle with fixed orientation, refuses one whose pieces turn, reports
// its iterations to Progress, and refuses options out of range and a
// backend missing from the build.
func TestEdgeMatchSDP(t *testing.T) {
	p, _ := emtest.Generate(t, edgematch.GenerateOptions{Kind: edgematch.Kovalsky, Rows: 3, Cols: 3, Colours: 6, Seed: 1})
	var lines int
	s, err := EdgeMatch.New("sdp", EdgeMatchRun{EdgeMatchOptions: EdgeMatchOptions{Seed: 1},
		Hooks: EdgeMatchHooks{Progress: func(string, ...any) { lines++ }}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Solve(context.Background(), p)
	if err != nil || !res.Score.Solved() || p.Verify(res.Board) != nil || lines == 0 {
		t.Fatalf("sdp: %v, score %v, %d progress lines", err, res.Score, lines)
	}
	q, _ := emtest.Generate(t, edgematch.GenerateOptions{Kind: edgematch.Kovalsky, Rows: 3, Cols: 3, Colours: 6, Seed: 1, Rotate: true})
	if _, err := s.Solve(context.Background(), q); err == nil {
		t.Error("sdp solved a puzzle whose pieces turn")
	}
	for _, o := range []EdgeMatchSDPOptions{{SDPK: -1}, {SDPK: 5}, {SDPIter: -1}} {
		if (EdgeMatchOptions{EdgeMatchSDPOptions: o}).Check() == nil {
			t.Errorf("%+v accepted", o)
		}
	}
	if !sdpBuilt() {
		if _, err := EdgeMatch.New("sdp", EdgeMatchRun{EdgeMatchOptions: EdgeMatchOptions{EdgeMatchSDPOptions: EdgeMatchSDPOptions{SDPBackendOption: SDPBackendOption{SDPBackend: "csdp"}}}}); err == nil {
			t.Error("csdp accepted in a build without it")
		}
	}
	if err := emApplies("sdp", "lp-iter"); err == nil {
		t.Error("-lp-iter applies to sdp")
	}
	if err := emApplies("sdp", "sdp-k"); err != nil {
		t.Error(err)
	}
}

func sdpBuilt() bool {
	for _, n := range sdp.Names() {
		if n == "csdp" {
			return true
		}
	}
	return false
}

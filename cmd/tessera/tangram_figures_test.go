package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTangramFigures: the list names every figure; -count on one
// category solves and counts each and ends with the summary; -hard solves
// generated figures.
func TestTangramFigures(t *testing.T) {
	code, out, errOut := runCmd(t, "", "tangram", "figures")
	if code != 0 || strings.Count(out, "\n") < 150 || !strings.Contains(out, "composed for Tessera") {
		t.Fatalf("figures: %d %s %q", code, errOut, out[:min(len(out), 200)])
	}
	code, out, errOut = runCmd(t, "", "tangram", "figures", "-category", "numerals", "-count", "1000", "-json")
	if code != 0 {
		t.Fatalf("figures -count: %d %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var sum struct {
		Summary bool
		Figures int
		Solved  int
		Worst   float64 `json:"worst_seconds"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil || !sum.Summary || sum.Solved != sum.Figures || sum.Figures != len(lines)-1 {
		t.Fatalf("summary %v %+v", err, sum)
	}
	for _, l := range lines[:len(lines)-1] {
		var r figureRecord
		if err := json.Unmarshal([]byte(l), &r); err != nil || !r.Solved || !r.Complete || r.Solutions < 1 {
			t.Errorf("%v %s", err, l)
		}
	}
	code, out, errOut = runCmd(t, "", "tangram", "figures", "-hard", "3", "-solve")
	if code != 0 || !strings.Contains(out, "solved 3 of 3") {
		t.Fatalf("figures -hard: %d %s %s", code, out, errOut)
	}
	if code, _, _ := runCmd(t, "", "tangram", "figures", "-category", "nope"); code != 2 {
		t.Errorf("unknown category: exit %d, want 2", code)
	}
}

package main

import (
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tessera/internal/bench"
	"tessera/tangram"
)

// TestTangramFigures: the list names every figure; -count on one
// category solves and counts each and ends with the summary; -hard solves
// generated figures.
func TestTangramFigures(t *testing.T) {
	code, out, errOut := runCmd(t, "", "tangram", "figures")
	if code != 0 || strings.Count(out, "\n") < 150 || !strings.Contains(out, "composed for Tessera") {
		t.Fatalf("figures: %d %s %q", code, errOut, out[:min(len(out), 200)])
	}
	out = mustRunCmd(t, "tangram", "figures", "-category", "numerals", "-count", "1000", "-json")
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
		var r bench.FigureRecord
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

// TestTangramTrace: a picture of a figure of the set is traced to a
// figure file that the exact solver fills; an off-lattice drawing exits 1
// and says why.
func TestTangramTrace(t *testing.T) {
	dir := t.TempDir()
	f, err := tangram.FigureByName("rabbit")
	if err != nil {
		t.Fatal(err)
	}
	pic := filepath.Join(dir, "rabbit.png")
	w, err := os.Create(pic)
	if err != nil {
		t.Fatal(err)
	}
	png.Encode(w, tangram.Picture(f.Puzzle, tangram.PictureOptions{Scale: 45, Angle: 0.5, Noise: 0.01, Seed: 2}))
	w.Close()
	fig := filepath.Join(dir, "rabbit.txt")
	code, out, errOut := runCmd(t, "", "tangram", "trace", "-solve", pic, "-o", fig)
	if code != 0 || !strings.Contains(out, "exact: solved true") {
		t.Fatalf("trace: %d %s %s", code, out, errOut)
	}
	mustRunCmd(t, "tangram", "solve", "-algo", "exact", fig)
	svg := filepath.Join(dir, "off.svg")
	os.WriteFile(svg, []byte(`<svg><path d="M0 0 L10 0 L10 7.3 L0 7.3 Z"/></svg>`), 0o644)
	code, _, errOut = runCmd(t, "", "tangram", "trace", svg)
	if code != 1 || !strings.Contains(errOut, "not snapped") && !strings.Contains(errOut, "does not snap") {
		t.Errorf("off-lattice: exit %d %s", code, errOut)
	}
}

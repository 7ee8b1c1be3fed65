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

func TestTangramGenerateSolveRender(t *testing.T) {
	dir, puzzle, _ := generateFiles(t, "tangram", "planted.txt", "-seed", "4")
	img, sol, snaps := filepath.Join(dir, "s.png"), filepath.Join(dir, "s.txt"), filepath.Join(dir, "snaps")
	out := mustRunCmd(t, "tangram", "solve", "-algo", "sdp", "-snapshots", snaps, puzzle, "-o", img, "-solution", sol, "-json")
	var got struct {
		Solved     bool
		Iterations int
		Seconds    *float64
		Objective  *float64
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || !got.Solved || got.Iterations < 1 || got.Seconds == nil || got.Objective == nil {
		t.Fatalf("solve -json: %v %q", err, out)
	}
	checkPNGs(t, img, filepath.Join(snaps, "iterates.png"), filepath.Join(snaps, "iterate-01.png"))
	// The solution file renders; the exact solver agrees.
	mustRunCmd(t, "tangram", "render", puzzle, sol, "-o", filepath.Join(dir, "r.png"))
	if out = mustRunCmd(t, "tangram", "solve", "-algo", "exact", puzzle); !strings.Contains(out, "solved     true") || !strings.Contains(out, "place ") {
		t.Fatalf("exact: %q", out)
	}
}

func TestTangramBench(t *testing.T) {
	out := mustRunCmd(t, "tangram", "bench", "-n", "3", "-seed", "5", "-algo", "sdp", "-json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var sum struct {
		Summary           bool
		Solved, Instances int
		Seconds           *float64
	}
	if len(lines) != 4 || json.Unmarshal([]byte(lines[3]), &sum) != nil || !sum.Summary || sum.Solved != 3 || sum.Instances != 3 || sum.Seconds == nil {
		t.Fatalf("bench -json: %q", out)
	}
	if out = mustRunCmd(t, "tangram", "bench", "-set", "classic:square,classic:house", "-algo", "exact"); !strings.Contains(out, "2 puzzles, 2 solved by exact") {
		t.Fatalf("bench -set classics: %q", out)
	}
}

func TestTangramBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		f := filepath.Join(dir, name)
		os.WriteFile(f, []byte(text), 0o644)
		return f
	}
	notPolygon := write("line.txt", "piece a 0 0 1 1\nsilhouette 0 0 1 0 0 1\n")
	crossing := write("bow.txt", "piece a 0 0 1 1 1 0 0 1\nsilhouette 0 0 1 0 1 1 0 1\n")
	areas := write("areas.txt", "piece a 0 0 1 0 0 1\nsilhouette 0 0 1 0 1 1 0 1\n")
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"tangram", "solve", notPolygon}, 2, "line 1"},
		{[]string{"tangram", "solve", crossing}, 2, "not simple"},
		{[]string{"tangram", "solve", areas}, 2, "areas do not add up"},
		{[]string{"tangram", "render", areas, "-o", filepath.Join(dir, "x.png")}, 2, "areas"},
		{[]string{"tangram", "solve", filepath.Join(dir, "missing.txt")}, 2, "missing.txt"},
		{[]string{"tangram", "solve", "-algo", "nope", areas}, 2, "unknown solver"},
		{[]string{"tangram", "solve", "-algo", "exact", "-sdp", "go", areas}, 2, "-sdp applies to -algo sdp"},
		{[]string{"tangram", "generate", "-pieces", "nope"}, 2, "unknown -pieces"},
		{[]string{"tangram", "bench", "-n", "2", "-set", "classic:square"}, 2, "either -n or -set"},
		{[]string{"tangram", "bench", "-n", "1000000000"}, 2, "-n 1000000000: want 1 to 100000"},
		{[]string{"tangram", "bench", "-set", "classic:nope"}, 2, "nope"},
	} {
		code, _, errOut := runCmd(t, "", c.args...)
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d (want %d), %q (want %q)", c.args, code, c.code, errOut, c.msg)
		}
	}
	// -scale not finite or not positive: a usage error, not a panic
	// (issue 38, item 7).
	tri := write("tri.txt", triangleText(t))
	for _, scale := range []string{"NaN", "Inf", "-Inf", "-3", "0"} {
		code, _, errOut := runCmd(t, "", "tangram", "render", "-scale", scale, tri, "-o", filepath.Join(dir, "x.png"))
		if code != 2 || !strings.Contains(errOut, "-scale") {
			t.Errorf("render -scale %s: exit %d %q", scale, code, errOut)
		}
	}
	if code, _, errOut := runCmd(t, "", "tangram", "render", "-scale", "1e300", tri, "-o", filepath.Join(dir, "x.png")); code != 1 || !strings.Contains(errOut, "too large") {
		t.Errorf("render -scale 1e300: exit %d %q", code, errOut)
	}
	// Not solved: exit 1 with the reason.
	code, _, errOut := runCmd(t, "", "tangram", "solve", "-max-iter", "1", write("tri.txt", triangleText(t)))
	if code != 1 || !strings.Contains(errOut, "not solved") {
		t.Errorf("1 SDP on the triangle: exit %d %q", code, errOut)
	}
}

// triangleText is the classic triangle as a puzzle file.
func triangleText(t *testing.T) string {
	p, _, err := tangram.Classic("triangle")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := tangram.FormatPuzzle(&b, p); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// checkPNGs fails the test for each file that is not a PNG picture.
func checkPNGs(t *testing.T, files ...string) {
	t.Helper()
	for _, f := range files {
		r, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(r); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		r.Close()
	}
}

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

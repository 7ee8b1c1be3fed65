package bench

import (
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tessera/tangram"
)

// The tangram readers and writers of the front ends: a puzzle and its
// solution read back from their files, drawn plain and augmented, and
// traced back from the picture to a figure the exact solver fills; bad
// inputs are usage errors.
func TestTangramInputs(t *testing.T) {
	dir := t.TempDir()
	p, sol, err := tangram.GenerateWith(3, tangram.Tans(), tangram.GenerateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pf, sf := filepath.Join(dir, "p.txt"), filepath.Join(dir, "s.txt")
	if err := WriteTangramPuzzle(nil, pf, "test", p); err != nil {
		t.Fatal(err)
	}
	if err := WriteTangramSolution(sf, "test", p, sol); err != nil {
		t.Fatal(err)
	}
	q, err := ReadTangramPuzzle(pf)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ReadTangramSolution(sf, q)
	if err != nil || len(s.Poses()) != len(q.Pieces) {
		t.Fatalf("solution: %v", err)
	}
	plain, aug := filepath.Join(dir, "plain.png"), filepath.Join(dir, "aug.png")
	if err := WriteTangramRender(plain, q, s, false, tangram.RenderOptions{Scale: 20}); err != nil {
		t.Fatal(err)
	}
	q.Turns = tangram.TurnsRotate
	if err := WriteTangramRender(aug, q, s, true, tangram.RenderOptions{Scale: 20}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{plain, aug} {
		if r, err := os.Open(f); err != nil {
			t.Error(err)
		} else if _, err := png.DecodeConfig(r); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}

	// The puzzle's silhouette drawn turned and noisy, traced back.
	pic := filepath.Join(dir, "p.png")
	if err := WritePNG(pic, tangram.Picture(p, tangram.PictureOptions{Scale: 40, Angle: 0.3, Noise: 0.005, Seed: 1})); err != nil {
		t.Fatal(err)
	}
	var out, report strings.Builder
	tr := TangramTrace{Path: pic, Options: tangram.TraceOptions{Tolerance: 0.2}, Name: "r", Solve: true, Timeout: time.Minute}
	if err := tr.Run(t.Context(), &out, &report); err != nil || !strings.Contains(out.String(), "name r\n") || !strings.Contains(report.String(), "exact: solved true") {
		t.Fatalf("trace: %v\n%s\n%s", err, out.String(), report.String())
	}

	var ue *UsageError
	for name, err := range map[string]error{
		"no puzzle":      second(ReadTangramPuzzle(filepath.Join(dir, "none.txt"))),
		"a folder":       second(ReadTangramPuzzle(dir)),
		"no solution":    second(ReadTangramSolution(filepath.Join(dir, "none.txt"), q)),
		"a bad solution": second(ReadTangramSolution(pf, q)),
		"no picture":     TangramTrace{Path: filepath.Join(dir, "none.png")}.Run(t.Context(), &out, &report),
	} {
		if !errors.As(err, &ue) {
			t.Errorf("%s: %v, want a usage error", name, err)
		}
	}
}

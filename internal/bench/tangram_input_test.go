package bench_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"tessera/imageio"
	"tessera/internal/bench"
	"tessera/internal/catalog"
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
	if err := bench.WriteTangramPuzzle(nil, pf, "test", p); err != nil {
		t.Fatal(err)
	}
	if err := bench.WriteTangramSolution(sf, "test", p, sol); err != nil {
		t.Fatal(err)
	}
	q, err := bench.ReadTangramPuzzle(pf)
	if err != nil {
		t.Fatal(err)
	}
	s, err := bench.ReadTangramSolution(sf, q)
	if err != nil || len(s.Poses()) != len(q.Pieces) {
		t.Fatalf("solution: %v", err)
	}
	plain, aug := filepath.Join(dir, "plain.png"), filepath.Join(dir, "aug.png")
	if err := bench.WriteTangramRender(plain, q, s, false, tangram.RenderOptions{Scale: 20}); err != nil {
		t.Fatal(err)
	}
	q.Turns = tangram.TurnsRotate
	if err := bench.WriteTangramRender(aug, q, s, true, tangram.RenderOptions{Scale: 20}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{plain, aug} {
		if _, err := imageio.Load(f, imageio.Options{}); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}

	// The puzzle's silhouette drawn turned and noisy, traced back.
	pic := filepath.Join(dir, "p.png")
	if err := bench.WritePNG(pic, tangram.Picture(p, tangram.PictureOptions{Scale: 40, Angle: 0.3, Noise: 0.005, Seed: 1})); err != nil {
		t.Fatal(err)
	}
	var out, report strings.Builder
	tr := bench.TangramTrace{Path: pic, Options: tangram.TraceOptions{Tolerance: 0.2}, Name: "r", Solve: true}
	if err := tr.Run(t.Context(), &out, &report); err != nil || !strings.Contains(out.String(), "name r\n") || !strings.Contains(report.String(), "exact: solved true") {
		t.Fatalf("trace: %v\n%s\n%s", err, out.String(), report.String())
	}

	var ue *bench.UsageError
	for name, err := range map[string]error{
		"no puzzle":      errOf(bench.ReadTangramPuzzle(filepath.Join(dir, "none.txt"))),
		"a folder":       errOf(bench.ReadTangramPuzzle(dir)),
		"no solution":    errOf(bench.ReadTangramSolution(filepath.Join(dir, "none.txt"), q)),
		"a bad solution": errOf(bench.ReadTangramSolution(pf, q)),
		"no picture":     bench.TangramTrace{Path: filepath.Join(dir, "none.png")}.Run(t.Context(), &out, &report),
	} {
		if !errors.As(err, &ue) {
			t.Errorf("%s: %v, want a usage error", name, err)
		}
	}
}

// bench.TangramGenerate makes the same puzzle from the same seed and names the
// command line that makes it; bench.SolveTangram solves it, writes the solution
// file and prints the record, and says why a puzzle is not solved.
func TestTangramGenerateAndSolve(t *testing.T) {
	g := bench.TangramGenerate{Pieces: "tans", Seed: 5, Turns: "rotate", Given: true}
	p, sol, cmdline, err := g.Generate(t.Context())
	if err != nil || cmdline != "tessera tangram generate -pieces tans -seed 5 -turns rotate -given" || p.Name != "tans-5" || sol == nil {
		t.Fatalf("%v %q", err, cmdline)
	}
	again, _, _, _ := g.Generate(t.Context())
	var a, b strings.Builder
	tangram.FormatPuzzle(&a, p)
	tangram.FormatPuzzle(&b, again)
	if a.String() != b.String() {
		t.Error("the same seed gave two puzzles")
	}
	if _, _, cmdline, err := (bench.TangramGenerate{Pieces: "tans", Turns: "none", Classic: "square"}).Generate(t.Context()); err != nil || !strings.Contains(cmdline, "-classic square") {
		t.Errorf("classic: %v %q", err, cmdline)
	}
	var ue *bench.UsageError
	for _, bad := range []bench.TangramGenerate{{Pieces: "nope", Turns: "none"}, {Pieces: "tans", Turns: "sideways"}} {
		if _, _, _, err := bad.Generate(t.Context()); !errors.As(err, &ue) {
			t.Errorf("%+v: %v", bad, err)
		}
	}

	dir := t.TempDir()
	solution := filepath.Join(dir, "s.txt")
	job := catalog.TangramJob{Spec: catalog.Spec[catalog.TangramOptions]{Solver: "exact"}, Name: "p.txt"}
	var out strings.Builder
	if err := bench.SolveTangram(t.Context(), &out, p, job, &bench.TangramSolveFiles{Solution: solution}, true); err != nil || !strings.Contains(out.String(), `"solved":true`) {
		t.Fatalf("solve: %v %s", err, out.String())
	}
	if _, err := bench.ReadTangramSolution(solution, p); err != nil {
		t.Errorf("the solution written: %v", err)
	}
	job.Options.MaxNodes = 1
	if err := bench.SolveTangram(t.Context(), &out, p, job, &bench.TangramSolveFiles{}, false); err == nil || !strings.Contains(err.Error(), "not solved") {
		t.Errorf("one placement: %v", err)
	}
}

func errOf[T any](_ T, err error) error { return err }

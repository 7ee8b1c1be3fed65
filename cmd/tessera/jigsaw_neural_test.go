package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tessera/imageio"
	"tessera/jigsaw"
	"tessera/jigsaw/neural"
)

var neuralTestImages = []string{"../../jigsaw/neural/testdata/kodak03.png", "../../jigsaw/neural/testdata/kodak23.png"}

func TestJigsawSolveMCTS(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "solved.png")
	code, stdout, stderr := runCmd(t, "", "jigsaw", "solve", "-algo", "mcts", "-reward", "gt", "-sims", "50", "-attempts", "3",
		neuralTestImages[1], "-o", out, "-json")
	if code != 0 {
		t.Fatalf("solve: %d %q %q", code, stdout, stderr)
	}
	var rep struct {
		Perfect bool
		Cells   []int
		Grid    int
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.Perfect || len(rep.Cells) != 9 || rep.Grid != 3 {
		t.Fatalf("solve: %s", stdout)
	}
	if img, err := imageio.Load(out, imageio.Options{}); err != nil || img.Pix.Bounds().Dx() != 132 {
		t.Fatalf("output picture: %v", err)
	}
}

func TestJigsawSolveMCTSSheet(t *testing.T) {
	dir := t.TempDir()
	img, err := imageio.Load(neuralTestImages[0], imageio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pz := neural.Random(img.Pix, neural.Geometry{}, rand.New(rand.NewPCG(1, 1)))
	sheet := writeSheetFile(t, filepath.Join(dir, "sheet.png"), pz.Sheet(), 3)
	code, stdout, stderr := runCmd(t, "", "jigsaw", "solve", "-algo", "mcts", "-sims", "20", sheet, "-o", filepath.Join(dir, "out.png"))
	if code != 0 || !strings.Contains(stdout, "value") || strings.Contains(stdout, "score") {
		t.Fatalf("solve a sheet: %d %q %q", code, stdout, stderr)
	}
	if code, _, stderr = runCmd(t, "", "jigsaw", "solve", "-algo", "mcts", "-reward", "gt", sheet); code != 2 {
		t.Fatalf("gt reward on a sheet: exit %d, want 2 (%q)", code, stderr)
	}
	if code, _, _ = runCmd(t, "", "jigsaw", "solve", "-algo", "mcts", "-backup", "median", sheet); code != 2 {
		t.Fatalf("bad -backup: exit %d, want 2", code)
	}
	if code, _, _ = runCmd(t, "", "jigsaw", "bench", "-algo", "mcts", "-set", neuralTestImages[0]); code != 2 {
		t.Fatalf("jigsaw bench -algo mcts: exit %d, want 2", code)
	}
}

func TestJigsawNeuralBench(t *testing.T) {
	code, stdout, stderr := runCmd(t, "", "jigsaw", "neural", "bench", "-set", strings.Join(neuralTestImages, ","), "-crops", "2",
		"-algo", "greedy-v", "-seed", "3", "-json")
	if code != 0 {
		t.Fatalf("bench: %d %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 5 {
		t.Fatalf("bench printed %d lines, want 4 puzzles and a summary:\n%s", len(lines), stdout)
	}
	var sum struct {
		Summary                  bool
		Puzzles                  int
		Patch, Neighbor, Perfect float64
		Seconds                  float64
	}
	if err := json.Unmarshal([]byte(lines[4]), &sum); err != nil {
		t.Fatal(err)
	}
	if !sum.Summary || sum.Puzzles != 4 || sum.Patch < 0 || sum.Patch > 1 || sum.Seconds <= 0 {
		t.Fatalf("summary %s", lines[4])
	}
	for i, l := range lines[:4] {
		var p struct {
			Puzzle          int
			Patch, Neighbor float64
			Perfect         bool
		}
		if err := json.Unmarshal([]byte(l), &p); err != nil || p.Puzzle != i {
			t.Fatalf("line %d: %s (%v)", i, l, err)
		}
	}
}

func TestJigsawNeuralTrainSmoke(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "model")
	code, stdout, stderr := runCmd(t, "", "jigsaw", "neural", "train", "-train", neuralTestImages[0], "-val", neuralTestImages[1],
		"-crops", "1", "-puzzles", "4", "-finetune-puzzles", "1", "-sims", "5", "-epochs", "1", "-max-steps", "2",
		"-val-puzzles", "2", "-o", dir, "-json")
	if code != 0 {
		t.Fatalf("train: %d %q %q", code, stdout, stderr)
	}
	var rep map[string]any
	if err := json.NewDecoder(bufio.NewReader(strings.NewReader(stdout))).Decode(&rep); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"val_pair_accuracy", "val_p3_accuracy", "val_v3_accuracy", "finetune3_states"} {
		if _, ok := rep[k]; !ok {
			t.Fatalf("report lacks %s: %s", k, stdout)
		}
	}
	if _, _, err := neural.Load(dir); err != nil {
		t.Fatal(err)
	}
	// The model trained just now solves (badly) through -model.
	code, stdout, stderr = runCmd(t, "", "jigsaw", "solve", "-algo", "mcts", "-sims", "5", "-model", dir, neuralTestImages[0])
	if code != 0 {
		t.Fatalf("solve with -model: %d %q %q", code, stdout, stderr)
	}
}

// TestJigsawNeuralAblations: the ablation flags reach the solver (the
// summary names them), -report scores the worst and the oracle-best
// attempts around the answer, bad values are usage errors, and solve and
// accuracy run.
func TestJigsawNeuralAblations(t *testing.T) {
	code, stdout, stderr := runCmd(t, "", "jigsaw", "neural", "bench", "-set", strings.Join(neuralTestImages, ","), "-crops", "2",
		"-sims", "5", "-attempts", "3", "-report", "best,worst,oracle", "-prior", "uniform", "-value", "const-end",
		"-select", "uct", "-order", "free", "-hints", "2", "-seed", "3", "-json")
	if code != 0 {
		t.Fatalf("bench: %d %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	raw := map[string]any{}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &raw); err != nil {
		t.Fatal(err)
	}
	if raw["prior"] != "uniform" || raw["value"] != "const-end" || raw["select"] != "uct" || raw["order"] != "free" || raw["hints"] != 2.0 {
		t.Fatalf("summary %s", lines[len(lines)-1])
	}
	w, b, o := raw["worst_patch"].(float64), raw["patch"].(float64), raw["oracle_patch"].(float64)
	if !(w <= b && b <= o) || raw["worst_perfect"].(float64) > raw["oracle_perfect"].(float64) {
		t.Fatalf("worst %v, answer %v, oracle %v", w, b, o)
	}
	for _, bad := range [][]string{{"-prior", "x"}, {"-value", "x"}, {"-select", "x"}, {"-order", "x"}, {"-hints", "9"},
		{"-hints", "x"}, {"-report", "x"}, {"-reward", "gt", "-value", "const"}} {
		args := append([]string{"jigsaw", "neural", "bench", "-set", neuralTestImages[0]}, bad...)
		if code, _, _ := runCmd(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
	code, stdout, stderr = runCmd(t, "", "jigsaw", "neural", "solve", "-sims", "10", "-hints", "central", "-reward", "neighbours", neuralTestImages[0])
	if code != 0 || !strings.Contains(stdout, "score") {
		t.Fatalf("solve: %d %q %q", code, stdout, stderr)
	}
	code, stdout, stderr = runCmd(t, "", "jigsaw", "neural", "accuracy", "-set", neuralTestImages[1], "-puzzles", "3", "-hints", "4", "-json")
	var acc struct {
		P, V    float64
		PPlaced []any `json:"p_placed"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &acc) != nil || len(acc.PPlaced) != 10 || acc.PPlaced[3] != nil || acc.PPlaced[4] == nil {
		t.Fatalf("accuracy: %d %q %q", code, stdout, stderr)
	}
}

// TestJigsawNeuralSelfPlaySmoke: -stage selfplay runs its epochs, benches
// each on -bench-val and -bench-test (epoch 0 too), saves every epoch and
// the kept model.
func TestJigsawNeuralSelfPlaySmoke(t *testing.T) {
	m, info, err := neural.Default()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	init := filepath.Join(dir, "init")
	if err := m.Save(init, info); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "sp")
	code, stdout, stderr := runCmd(t, "", "jigsaw", "neural", "train", "-stage", "selfplay", "-init", init, "-train", neuralTestImages[0],
		"-finetune-puzzles", "1", "-replay", "1", "-sims", "5", "-selfplay-epochs", "2", "-epochs", "1", "-max-steps", "2", "-terminals",
		"-bench-val", neuralTestImages[1], "-bench-test", neuralTestImages[0], "-o", out, "-json")
	if code != 0 {
		t.Fatalf("train -stage selfplay: %d %q %q", code, stdout, stderr)
	}
	var rep struct {
		Curve []struct {
			Epoch     int
			Val, Test map[string]float64
		} `json:"bench_curve"`
		SelfPlay []neural.SelfPlayEpoch `json:"selfplay3"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Curve) != 3 || len(rep.SelfPlay) != 3 || rep.SelfPlay[1].Games != 1 || rep.Curve[2].Val["puzzles"] != 1 || rep.Curve[2].Test["puzzles"] != 1 {
		t.Fatalf("curve: %s", stdout)
	}
	for _, d := range []string{out, filepath.Join(out, "epoch-1"), filepath.Join(out, "epoch-2")} {
		if _, _, err := neural.Load(d); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, _ := runCmd(t, "", "jigsaw", "neural", "train", "-stage", "selfplay", "-init", init, "-train", neuralTestImages[0], "-p-target", "x", "-o", out); code != 2 {
		t.Fatalf("-p-target x: exit %d, want 2", code)
	}
}

// TestJigsawNeuralGeometries: without -model, -patch and -gap pick the
// model shipped for them; a geometry with none is an error naming those
// there are.
func TestJigsawNeuralGeometries(t *testing.T) {
	for _, g := range neural.ShippedGeometries() {
		var p, gap int
		if _, err := fmt.Sscanf(g, "%d px / %d px", &p, &gap); err != nil {
			t.Fatal(err)
		}
		grid := "3"
		if gap == 0 { // patches that touch: 2x2 heads only (Table 6's row)
			grid = "2"
		}
		code, stdout, stderr := runCmd(t, "", "jigsaw", "solve", "-algo", "mcts", "-sims", "5", "-grid", grid, "-patch", fmt.Sprint(p), "-gap", fmt.Sprint(gap), "-json", neuralTestImages[0])
		if code != 0 || !strings.Contains(stdout, `"cells"`) {
			t.Fatalf("%s: %d %q %q", g, code, stdout, stderr)
		}
	}
	code, _, stderr := runCmd(t, "", "jigsaw", "solve", "-algo", "mcts", "-gap", "7", neuralTestImages[0])
	if code == 0 || !strings.Contains(stderr, "40 px / 4 px") {
		t.Fatalf("-gap 7: %d %q", code, stderr)
	}
}

// TestJigsawNeuralFragments: train -stage fragments writes fragment heads
// that bench -missing -foreign and solve on a sheet of any number of
// patches use; the plain bench's summary carries the error distribution.
func TestJigsawNeuralFragments(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "model")
	code, stdout, stderr := runCmd(t, "", "jigsaw", "neural", "train", "-stage", "fragments", "-init", "../../jigsaw/neural/models",
		"-train", strings.Join(neuralTestImages, ","), "-val", strings.Join(neuralTestImages, ","), "-puzzles", "6", "-epochs", "1",
		"-max-steps", "2", "-val-puzzles", "3", "-o", dir, "-json")
	if code != 0 {
		t.Fatalf("train: %d %q %q", code, stdout, stderr)
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"fp3_examples", "val_fp3_accuracy", "val_fv3_accuracy"} {
		if _, ok := rep[k]; !ok {
			t.Fatalf("report lacks %s: %s", k, stdout)
		}
	}
	code, stdout, stderr = runCmd(t, "", "jigsaw", "neural", "bench", "-set", strings.Join(neuralTestImages, ","), "-crops", "2",
		"-missing", "1", "-foreign", "2", "-sims", "10", "-model", dir, "-json")
	if code != 0 {
		t.Fatalf("bench: %d %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 5 {
		t.Fatalf("bench printed %d lines, want 4 puzzles and a summary:\n%s", len(lines), stdout)
	}
	for _, l := range lines[:4] {
		var p struct {
			Cells           []int
			Strays, Missing int
		}
		if err := json.Unmarshal([]byte(l), &p); err != nil || len(p.Cells) != 10 || p.Strays != 2 || p.Missing != 1 {
			t.Fatalf("line %s (%v): want 10 patches, 2 strays, 1 missing", l, err)
		}
	}
	var sum struct {
		Summary        bool
		Puzzles        int
		Perfect        float64
		Strays         float64 `json:"strays_found"`
		WrongMisplaced []int   `json:"wrong_misplaced"`
	}
	if err := json.Unmarshal([]byte(lines[4]), &sum); err != nil || !sum.Summary || sum.Puzzles != 4 || sum.Strays < 0 || sum.Strays > 1 {
		t.Fatalf("summary %s (%v)", lines[4], err)
	}
	// A sheet of 10 patches for 9 cells.
	img, err := imageio.Load(neuralTestImages[0], imageio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	other, err := imageio.Load(neuralTestImages[1], imageio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	g := neural.Geometry{}.Defaults()
	pz, err := neural.MakeFragments(neural.Random(img.Pix, g, rng), 1, neural.Strays(other.Pix, g, 2, rng), rng)
	if err != nil {
		t.Fatal(err)
	}
	sheet := writeSheetFile(t, filepath.Join(t.TempDir(), "sheet.png"), pz.Sheet(), 4)
	code, stdout, stderr = runCmd(t, "", "jigsaw", "neural", "solve", "-sims", "10", "-model", dir, sheet)
	if code != 0 || !strings.Contains(stdout, "aside    patches") || !strings.Contains(stdout, "of 10") {
		t.Fatalf("solve a sheet of 10 patches: %d %q %q", code, stdout, stderr)
	}
	// The plain bench's summary: the error distribution.
	code, stdout, stderr = runCmd(t, "", "jigsaw", "neural", "bench", "-set", neuralTestImages[0], "-crops", "2", "-sims", "10", "-errors", "-json")
	if code != 0 {
		t.Fatalf("bench: %d %q", code, stderr)
	}
	lines = strings.Split(strings.TrimSpace(stdout), "\n")
	var dist struct {
		VByMisplaced []*float64 `json:"v_by_misplaced"`
		VN           []int      `json:"v_by_misplaced_n"`
		Wrong        []int      `json:"wrong_misplaced"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &dist); err != nil || len(lines) != 3 || len(dist.VN) != 10 || dist.VN[0] != 2 || dist.VN[1] != 0 || dist.VByMisplaced[1] != nil {
		t.Fatalf("summary %s (%v): want V judged on 2 puzzles at 0 and 2 to 9 misplaced", lines[len(lines)-1], err)
	}
}

// writeSheetFile writes the pieces of pz to the PNG sheet path, cols a
// row, and returns path.
func writeSheetFile(t *testing.T, path string, pz *jigsaw.Puzzle, cols int) string {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := jigsaw.WriteSheet(f, pz, cols); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

package main

import (
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var jigsawTestImages = []string{"../../jigsaw/testdata/mit5-crop.png", "../../jigsaw/testdata/bgu10-crop.png"}

func TestJigsawScrambleSolveScore(t *testing.T) {
	dir := t.TempDir()
	sheet, truth := filepath.Join(dir, "sheet.png"), filepath.Join(dir, "truth.json")
	solved, placement := filepath.Join(dir, "solved.png"), filepath.Join(dir, "p.json")
	args := append([]string{"jigsaw", "scramble", "-piece", "28", "-rotate", "-seed", "5"}, jigsawTestImages...)
	code, out, errOut := runCmd(t, "", append(args, "-o", sheet, "-truth", truth)...)
	if code != 0 || !strings.Contains(out, "scrambled 96 pieces") {
		t.Fatalf("scramble: %d %q %q", code, out, errOut)
	}
	code, out, errOut = runCmd(t, "", "jigsaw", "solve", sheet, "-rotate", "-images", "2", "-o", solved, "-placement", placement)
	if code != 0 || !strings.Contains(out, "96 placed") || !strings.Contains(out, "best buddies") {
		t.Fatalf("solve: %d %q %q", code, out, errOut)
	}
	for _, f := range []string{"solved-1.png", "solved-2.png", "p.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut = runCmd(t, "", "jigsaw", "score", "-truth", truth, placement, "-json")
	if code != 0 {
		t.Fatalf("score: %d %q", code, errOut)
	}
	var acc struct {
		Direct, Neighbor float64
		Perfect          bool
		Images           []struct{ Name string }
	}
	if err := json.Unmarshal([]byte(out), &acc); err != nil {
		t.Fatal(err)
	}
	if !acc.Perfect || acc.Direct != 1 || acc.Neighbor != 1 || len(acc.Images) != 2 || acc.Images[1].Name != "bgu10-crop.png" {
		t.Fatalf("score: %s", out)
	}
	code, out, _ = runCmd(t, "", "jigsaw", "score", "-truth", truth, placement)
	if code != 0 || !strings.Contains(out, "mit5-crop.png") || !strings.Contains(out, "100.00%") {
		t.Fatalf("score table: %q", out)
	}
}

func TestJigsawBenchJSON(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCmd(t, "", "jigsaw", "bench", "-set", strings.Join(jigsawTestImages, ","), "-type", "2", "-json", "-out", dir)
	if code != 0 {
		t.Fatalf("bench: %d %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines: %q", len(lines), out)
	}
	for _, l := range lines[:2] {
		var r map[string]any
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"image", "pieces", "direct", "neighbor", "perfect", "seconds"} {
			if _, ok := r[k]; !ok {
				t.Fatalf("no %q in %s", k, l)
			}
		}
		if r["pieces"] != 48.0 || r["neighbor"] != 1.0 || r["perfect"] != true {
			t.Fatalf("record %s", l)
		}
	}
	var s map[string]any
	json.Unmarshal([]byte(lines[2]), &s)
	if s["summary"] != true || s["images"] != 2.0 || s["perfect"] != 2.0 || s["direct"] != 1.0 || s["neighbor"] != 1.0 || s["seconds"] == nil {
		t.Fatalf("summary %s", lines[2])
	}
	for _, f := range []string{"mit5-crop.png", "bgu10-crop.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	// a folder, human output
	code, out, _ = runCmd(t, "", "jigsaw", "bench", "-set", "../../jigsaw/testdata", "-type", "1")
	if code != 0 || !strings.Contains(out, "2/2") || !strings.Contains(out, "bgu10-crop.png") {
		t.Fatalf("bench folder: %d %q", code, out)
	}
}

func TestJigsawErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.png")
	os.WriteFile(bad, []byte("\x89PNG\r\n\x1a\nnot really"), 0o644)
	sheet := filepath.Join(dir, "s.png")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"jigsaw", "scramble", "-piece", "300", jigsawTestImages[0], "-o", sheet}, 2, "do not fit"},
		{[]string{"jigsaw", "scramble", "-piece", "25", "-crop=false", jigsawTestImages[0], "-o", sheet}, 2, "use -crop"},
		{[]string{"jigsaw", "scramble", "-piece", "28", jigsawTestImages[0]}, 2, "-o sheet.png"},
		{[]string{"jigsaw", "scramble", "-piece", "28", bad, "-o", sheet}, 2, "corrupt"},
		{[]string{"jigsaw", "scramble", "-piece", "28", "-timeout", "-1s", jigsawTestImages[0], "-o", sheet}, 2, "-timeout"},
		{[]string{"jigsaw", "solve", jigsawTestImages[0]}, 2, "does not record its piece size"},
		{[]string{"jigsaw", "solve", "-piece", "30", jigsawTestImages[0]}, 2, "not a multiple of 30"},
		{[]string{"jigsaw", "solve", bad}, 2, "corrupt"},
		{[]string{"jigsaw", "solve", filepath.Join(dir, "missing.png")}, 2, "no such file"},
		{[]string{"jigsaw", "solve", "-piece", "28", "-images", "100000", jigsawTestImages[0]}, 2, "100000 pictures of 48 pieces"},
		{[]string{"jigsaw", "solve", "-piece", "28", "-size", "100000x100000", jigsawTestImages[0]}, 2, "do not make a picture of 100000x100000"},
		{[]string{"jigsaw", "solve", "-piece", "28", "-size", "3x4", jigsawTestImages[0]}, 2, "do not make a picture of 3x4"},
		{[]string{"jigsaw", "solve", "-piece", "2", "-max-pieces", "1000", jigsawTestImages[0]}, 2, "over the limit of 1000"},
		{[]string{"jigsaw", "solve", "-piece", "28", "-algo", "sa", jigsawTestImages[0]}, 2, "greedy, ga"},
		{[]string{"jigsaw", "solve", "-piece", "28", "-images", "0", jigsawTestImages[0]}, 2, "-algo ga"},
		{[]string{"jigsaw", "solve", "-piece", "28", "-snapshots", "x", jigsawTestImages[0]}, 2, "-algo ga"},
		{[]string{"jigsaw", "bench", "-set", dir, "-algo", "ga", "-pop", "1"}, 2, "-pop 1"},
		{[]string{"jigsaw", "bench", "-set", dir, "-bag", "1"}, 2, "-bag 1"},
		{[]string{"jigsaw", "solve", "-piece", "28", "-size", "3", jigsawTestImages[0]}, 2, "ROWSxCOLS"},
		{[]string{"jigsaw", "score", "x.json"}, 2, "-truth"},
		{[]string{"jigsaw", "bench", "-set", filepath.Join(dir, "none")}, 1, "none"},
		{[]string{"jigsaw", "bench", "-set", t.TempDir()}, 1, "no PNG"},
		{[]string{"jigsaw", "bench", "-set", dir, "-type", "3"}, 2, "-type 3"},
		// The flags of options a solver does not read (the entries' Reads).
		{[]string{"jigsaw", "solve", "-piece", "28", "-pop", "10", jigsawTestImages[0]}, 2, "-pop applies to -algo ga, not greedy"},
		{[]string{"jigsaw", "solve", "-piece", "28", "-sims", "10", jigsawTestImages[0]}, 2, "-sims applies to -algo mcts"},
		{[]string{"jigsaw", "solve", "-algo", "mcts", "-gens", "3", jigsawTestImages[0]}, 2, "-gens applies to -algo greedy, ga, not mcts"},
		{[]string{"jigsaw", "neural", "bench", "-set", dir, "-algo", "greedy-p", "-sims", "5"}, 2, "-sims applies to -algo mcts, not greedy-p"},
		{[]string{"jigsaw", "bench", "-set", dir, "-gens", "-1"}, 2, "-gens"},
	}
	for _, c := range cases {
		code, _, errOut := runCmd(t, "", c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d %q, want %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
	os.Remove(bad)
	// an image whose sides are not multiples of the piece is cut, and the
	// command says so (with or without -crop)
	for _, crop := range []string{"-crop", "-seed=1"} {
		code, _, errOut := runCmd(t, "", "jigsaw", "scramble", "-piece", "25", crop, jigsawTestImages[0], "-o", sheet)
		if code != 0 || !strings.Contains(errOut, "cut the central 200x150 pixels") {
			t.Errorf("crop %s: %d %q", crop, code, errOut)
		}
	}
	// a sheet records its piece size: another is refused unless forced
	code, _, errOut := runCmd(t, "", "jigsaw", "solve", "-piece", "5", sheet)
	if code != 2 || !strings.Contains(errOut, "records 25-pixel pieces, not 5") || !strings.Contains(errOut, "-force-piece") {
		t.Errorf("-piece 5: %d %q", code, errOut)
	}
	if code, out, errOut := runCmd(t, "", "jigsaw", "solve", "-piece", "5", "-force-piece", sheet); code != 0 || !strings.Contains(out, "1200 placed") {
		t.Errorf("-piece 5 -force-piece: %d %q %q", code, out, errOut)
	}
}

// A budget too short for any layout names itself; one too short for
// decoding says so too; scramble has one.
func TestJigsawTimeoutBeforeAnyLayout(t *testing.T) {
	dir := t.TempDir()
	sheet := filepath.Join(dir, "s.png")
	code, _, errOut := runCmd(t, "", "jigsaw", "scramble", "-piece", "28", "-timeout", "1ns", jigsawTestImages[0], "-o", sheet)
	if code != 1 || !strings.Contains(errOut, "-timeout 1ns ended it") {
		t.Errorf("scramble -timeout 1ns: %d %q", code, errOut)
	}
	if _, err := os.Stat(sheet); err == nil {
		t.Errorf("scramble wrote %s past its budget", sheet)
	}
	if code, _, errOut := runCmd(t, "", "jigsaw", "scramble", "-piece", "28", jigsawTestImages[0], "-o", sheet); code != 0 {
		t.Fatalf("scramble: %q", errOut)
	}
	code, _, errOut = runCmd(t, "", "jigsaw", "solve", "-algo", "ga", "-timeout", "1ns", sheet)
	if code != 1 || !strings.Contains(errOut, "-timeout 1ns ended it") || !strings.Contains(errOut, "reading sheet") {
		t.Errorf("solve -timeout 1ns: %d %q", code, errOut)
	}
}

// A bench whose puzzles failed exits 1, after its report.
func TestJigsawBenchFailedExits1(t *testing.T) {
	code, out, errOut := runCmd(t, "", "jigsaw", "bench", "-set", jigsawTestImages[0], "-timeout", "1ns")
	if code != 1 || !strings.Contains(errOut, "1 of 1 images") || !strings.Contains(out, "mit5-crop.png") {
		t.Errorf("bench -timeout 1ns: %d %q %q", code, out, errOut)
	}
}

func TestJigsawGA(t *testing.T) {
	dir := t.TempDir()
	sheet, truth := filepath.Join(dir, "sheet.png"), filepath.Join(dir, "truth.json")
	solved, placement, snaps := filepath.Join(dir, "solved.png"), filepath.Join(dir, "p.json"), filepath.Join(dir, "snaps")
	args := append([]string{"jigsaw", "scramble", "-piece", "28", "-rotate", "-seed", "3"}, jigsawTestImages...)
	if code, _, errOut := runCmd(t, "", append(args, "-o", sheet, "-truth", truth)...); code != 0 {
		t.Fatalf("scramble: %q", errOut)
	}
	// a bag of two pictures, their number not told
	code, out, errOut := runCmd(t, "", "jigsaw", "solve", sheet, "-rotate", "-algo", "ga", "-images", "0", "-pop", "40", "-gens", "6",
		"-o", solved, "-placement", placement, "-snapshots", snaps, "-progress")
	if code != 0 || !strings.Contains(out, "96 placed") || !strings.Contains(out, "ga (population 40, 6 generations, seed 1)") ||
		!strings.Contains(out, "fitness") || !strings.Contains(errOut, "generation") {
		t.Fatalf("solve: %d %q %q", code, out, errOut)
	}
	for _, f := range []string{"solved-1.png", "solved-2.png", "p.json", "snaps/picture-1-gen-000.png", "snaps/picture-2-gen-006.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	code, out, _ = runCmd(t, "", "jigsaw", "score", "-truth", truth, placement, "-json")
	if code != 0 || !strings.Contains(out, `"perfect":true`) {
		t.Fatalf("score: %s", out)
	}
	// JSON report of a single picture: the fitness history
	one := filepath.Join(dir, "one.png")
	runCmd(t, "", "jigsaw", "scramble", "-piece", "28", "-rotate", jigsawTestImages[0], "-o", one)
	code, out, _ = runCmd(t, "", "jigsaw", "solve", one, "-rotate", "-algo", "ga", "-pop", "30", "-gens", "4", "-json")
	var rep struct {
		Algo    string
		History []float64
		Fitness float64
		Placed  int
	}
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil || rep.Algo != "ga" || len(rep.History) != 5 ||
		rep.Fitness != rep.History[4] || rep.Placed != 48 {
		t.Fatalf("solve -json: %d %v %s", code, err, out)
	}
	// without a frame: the same picture, perfect, and no frame reported
	code, out, _ = runCmd(t, "", "jigsaw", "bench", "-set", jigsawTestImages[0], "-type", "2", "-algo", "ga", "-no-frame", "-pop", "30", "-gens", "4", "-json")
	if code != 0 || !strings.Contains(out, `"perfect":true`) || strings.Contains(out, `"frame"`) {
		t.Fatalf("bench -no-frame: %d %s", code, out)
	}
	// bench: bags of two, count not told
	code, out, errOut = runCmd(t, "", "jigsaw", "bench", "-set", strings.Join(jigsawTestImages, ","), "-type", "2", "-bag", "2",
		"-algo", "ga", "-pop", "40", "-gens", "6", "-json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 {
		t.Fatalf("bench: %d %q %q", code, out, errOut)
	}
	var s map[string]any
	json.Unmarshal([]byte(lines[2]), &s)
	if s["summary"] != true || s["bags"] != 1.0 || s["outputs_right"] != 1.0 || s["perfect"] != 2.0 || s["algo"] != "ga" {
		t.Fatalf("summary %s", lines[2])
	}
	code, out, _ = runCmd(t, "", "jigsaw", "bench", "-set", strings.Join(jigsawTestImages, ","), "-type", "2", "-bag", "2")
	if code != 0 || !strings.Contains(out, "count told") || !strings.Contains(out, "right number of pictures: 1/1") {
		t.Fatalf("bench -bag human: %q", out)
	}
}

func TestJigsawMosaic(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.png")
	code, out, errOut := runCmd(t, "", append([]string{"jigsaw", "mosaic", "-cols", "2", "-o", big}, jigsawTestImages...)...)
	if code != 0 || !strings.Contains(out, "448x168 pixels, 16-bit, 2 tiles") {
		t.Fatalf("mosaic: %d %q %q", code, out, errOut)
	}
	code, out, _ = runCmd(t, "", append([]string{"jigsaw", "mosaic", "-size", "392x140", "-o", big}, jigsawTestImages...)...)
	if code != 0 || !strings.Contains(out, "392x140 pixels") {
		t.Fatalf("mosaic -size: %d %q", code, out)
	}
	// the centre crop is a 14x5 puzzle
	code, out, _ = runCmd(t, "", "jigsaw", "scramble", "-piece", "28", big, "-o", filepath.Join(dir, "s.png"))
	if code != 0 || !strings.Contains(out, "14x5 pieces") {
		t.Fatalf("scramble the mosaic: %q", out)
	}
	if code, _, errOut := runCmd(t, "", "jigsaw", "mosaic", "-size", "9000x10", "-o", big, jigsawTestImages[0]); code != 2 || !strings.Contains(errOut, "-size") {
		t.Fatalf("bad -size: %d %q", code, errOut)
	}
	// -trim cuts every tile (224x168) down before tiling
	code, out, _ = runCmd(t, "", append([]string{"jigsaw", "mosaic", "-trim", "4", "-o", big}, jigsawTestImages...)...)
	if code != 0 || !strings.Contains(out, "432x160 pixels, 16-bit, 2 tiles of 216x160") {
		t.Fatalf("mosaic -trim: %d %q", code, out)
	}
	if code, _, errOut := runCmd(t, "", "jigsaw", "mosaic", "-trim", "84", "-o", big, jigsawTestImages[0]); code != 2 || !strings.Contains(errOut, "only 224x168") {
		t.Fatalf("too much -trim: %d %q", code, errOut)
	}
	// -crop keeps each tile's centre, turning pictures to its orientation
	code, out, _ = runCmd(t, "", append([]string{"jigsaw", "mosaic", "-crop", "168x112", "-o", big}, jigsawTestImages...)...)
	if code != 0 || !strings.Contains(out, "336x112 pixels, 16-bit, 2 tiles of 168x112") {
		t.Fatalf("mosaic -crop: %d %q", code, out)
	}
	code, out, _ = runCmd(t, "", append([]string{"jigsaw", "mosaic", "-crop", "112x168", "-o", big}, jigsawTestImages...)...)
	if code != 0 || !strings.Contains(out, "224x168 pixels, 16-bit, 2 tiles of 112x168") {
		t.Fatalf("mosaic -crop portrait: %d %q", code, out)
	}
	for _, bad := range []string{"300x10", "0x5", "big"} {
		if code, _, errOut := runCmd(t, "", "jigsaw", "mosaic", "-crop", bad, "-o", big, jigsawTestImages[0]); code != 2 || !strings.Contains(errOut, "-crop") {
			t.Fatalf("bad -crop %s: %d %q", bad, code, errOut)
		}
	}
}

// TestJigsawHelpListsSolvers: help lists the catalogue's solvers, and
// solve runs a gap solver other than mcts.
func TestJigsawHelpListsSolvers(t *testing.T) {
	code, out, _ := runCmd(t, "", "help", "jigsaw", "solve")
	for _, id := range []string{"greedy ", "ga ", "mcts ", "greedy-p ", "greedy-v "} {
		if code != 0 || !strings.Contains(out, "  "+id) {
			t.Errorf("help jigsaw solve lacks %q", id)
		}
	}
	code, out, errOut := runCmd(t, "", "jigsaw", "solve", "-algo", "greedy-p", "-json", jigsawTestImages[0])
	if code != 0 || !strings.Contains(out, `"algo":"greedy-p"`) {
		t.Errorf("solve -algo greedy-p: %d %q %q", code, out, errOut)
	}
}

// TestJigsawMosaicBounds: -cols out of 0..n is a usage error, not a
// panic, and four 10000x10000 PNGs (400 Mpx, 3.2 GB as a 16-bit mosaic)
// are refused from their headers before any is decoded (issue 38, item 7).
func TestJigsawMosaicBounds(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "big.png")
	for _, cols := range []string{"-5", "3", "1000000000"} {
		code, _, errOut := runCmd(t, "", append([]string{"jigsaw", "mosaic", "-cols", cols, "-o", out}, jigsawTestImages...)...)
		if code != exitUsage || !strings.Contains(errOut, "-cols "+cols) {
			t.Errorf("-cols %s: exit %d %q", cols, code, errOut)
		}
	}
	// A PNG header of 10000x10000 RGB pixels, its data left out: enough
	// to be refused, never decoded.
	ihdr := []byte("\x00\x00\x00\x0dIHDR\x00\x00\x27\x10\x00\x00\x27\x10\x08\x02\x00\x00\x00")
	ihdr = binary.BigEndian.AppendUint32(ihdr, crc32.ChecksumIEEE(ihdr[4:]))
	huge := filepath.Join(dir, "huge.png")
	if err := os.WriteFile(huge, append([]byte("\x89PNG\r\n\x1a\n"), ihdr...), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCmd(t, "", "jigsaw", "mosaic", "-o", out, huge, huge, huge, huge)
	if code != exitUsage || !strings.Contains(errOut, "over the limit") {
		t.Errorf("four 10000x10000 PNGs: exit %d %q", code, errOut)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a mosaic was written")
	}
}

// Missing and stray pieces (scramble -drop -extra, solve -holes, score's
// holes line), and a sheet without its piece size recorded, measured.
func TestJigsawHolesAndDetect(t *testing.T) {
	dir := t.TempDir()
	sheet, truth, placement := filepath.Join(dir, "s.png"), filepath.Join(dir, "t.json"), filepath.Join(dir, "p.json")
	code, out, errOut := runCmd(t, "", "jigsaw", "scramble", "-piece", "28", "-rotate", "-drop", "0.1", "-extra", jigsawTestImages[1]+":3",
		jigsawTestImages[0], "-o", sheet, "-truth", truth)
	if code != 0 || !strings.Contains(out, "scrambled 46 pieces") {
		t.Fatalf("scramble: %d %q %q", code, out, errOut)
	}
	for _, algo := range [][]string{{"-algo", "greedy"}, {"-algo", "ga", "-gens", "3"}} {
		code, out, errOut = runCmd(t, "", append([]string{"jigsaw", "solve", "-rotate", "-holes", "-size", "6x8", sheet, "-placement", placement}, algo...)...)
		if code != 0 {
			t.Fatalf("solve -algo %s: %d %q %q", algo, code, out, errOut)
		}
		code, out, errOut = runCmd(t, "", "jigsaw", "score", "-truth", truth, placement)
		if code != 0 || !strings.Contains(out, "holes: ") || !strings.Contains(out, "of 5 missing pieces") || !strings.Contains(out, "of 3 set aside") {
			t.Fatalf("score: %d %q %q", code, out, errOut)
		}
	}
	if code, _, errOut := runCmd(t, "", "jigsaw", "scramble", "-piece", "28", "-drop", "1", jigsawTestImages[0], "-o", sheet); code != 2 || !strings.Contains(errOut, "-drop") {
		t.Fatalf("-drop 1: %d %q", code, errOut)
	}
	if code, _, errOut := runCmd(t, "", "jigsaw", "scramble", "-piece", "28", "-extra", "x", jigsawTestImages[0], "-o", sheet); code != 2 || !strings.Contains(errOut, "FILE:K") {
		t.Fatalf("-extra x: %d %q", code, errOut)
	}
	// A photograph is not a sheet: no piece size can be told.
	code, _, errOut = runCmd(t, "", "jigsaw", "solve", jigsawTestImages[0])
	if code != 2 || !strings.Contains(errOut, "cannot be told") || !strings.Contains(errOut, "-piece") {
		t.Fatalf("solve of a photograph: %d %q", code, errOut)
	}
}

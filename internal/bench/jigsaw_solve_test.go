package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tessera/internal/catalog"
	"tessera/jigsaw"
	"tessera/jigsaw/neural"
)

// jigsawBag scrambles the two test crops into one bag of 96 pieces.
func jigsawBag(t *testing.T) ([]*jigsaw.Grid, *jigsaw.Puzzle, *jigsaw.Truth) {
	t.Helper()
	var grids []*jigsaw.Grid
	for _, f := range jigsawImages {
		g, err := LoadJigsawGrid(context.Background(), f, 28, false)
		if err != nil {
			t.Fatal(err)
		}
		grids = append(grids, g)
	}
	pz, truth := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Seed: 5})
	return grids, pz, truth
}

// TestJigsawSolved: the genetic solver on a bag of two pictures: the
// outputs are named -1 and -2 and written, one snapshot per generation
// and picture, the JSON report has the search's fields and the solver's
// error, the text report the label and what was written.
func TestJigsawSolved(t *testing.T) {
	grids, pz, _ := jigsawBag(t)
	o := catalog.JigsawOptions{Pop: 20, Gens: 1, Seed: 3}
	s, err := catalog.Jigsaw.New("ga", catalog.JigsawRun{JigsawOptions: o})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	snaps, err := NewJigsawSnapshots(filepath.Join(dir, "snaps"), pz)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Solve(context.Background(), &jigsaw.Problem{Puzzle: pz, Snapshot: snaps.Save})
	if err != nil || res.Placement.Images != 2 {
		t.Fatalf("%d pictures, %v", res.Placement.Images, err)
	}
	names, err := WriteJigsawOutputs(filepath.Join(dir, "out.png"), pz, res.Placement)
	if err != nil || !slices.Equal(names, []string{filepath.Join(dir, "out-1.png"), filepath.Join(dir, "out-2.png")}) {
		t.Fatalf("outputs %v, %v", names, err)
	}
	files, _ := os.ReadDir(filepath.Join(dir, "snaps"))
	if snaps.Err != nil || snaps.N != 4 || len(files) != 4 || files[0].Name() != "picture-1-gen-000.png" {
		t.Errorf("%d snapshots, %d files, %v", snaps.N, len(files), snaps.Err)
	}
	for _, n := range names {
		if _, err := os.Stat(n); err != nil {
			t.Error(err)
		}
	}
	stop := errors.New("stopped")
	r := JigsawSolved{Puzzle: pz, Result: res, Algo: "ga", Options: o, Outputs: names, Wrote: []string{"out-1.png, out-2.png"}, Err: stop}
	var buf bytes.Buffer
	if err := r.Write(&buf, true); !errors.Is(err, stop) {
		t.Errorf("JSON report returned %v", err)
	}
	var rep map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rep); err != nil || rep["pieces"] != 96.0 || rep["seed"] != 3.0 || rep["error"] != "stopped" ||
		len(rep["outputs"].([]any)) != 2 || !slices.Equal(rep["sizes"].([]any), []any{"6x8", "6x8"}) {
		t.Errorf("JSON report %s (%v)", buf.String(), err)
	}
	buf.Reset()
	r.Err = nil
	if err := r.Write(&buf, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"pieces   96 of 28 px, Type 1\n", "ga (population 20, 1 generations, seed 3), mgc", "fitness  ", "6x8, 6x8 pieces", "wrote    out-1.png, out-2.png\n"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, buf.String())
		}
	}
	if got := JigsawLabel("greedy", o, true); got != "greedy" {
		t.Errorf("label %q", got)
	}
	pz1, t1 := jigsaw.Scramble(grids[:1], jigsaw.ScrambleOptions{})
	one := filepath.Join(dir, "one.png")
	if names, err := WriteJigsawOutputs(one, pz1, t1.Placement()); err != nil || !slices.Equal(names, []string{one}) {
		t.Errorf("one picture: %v, %v", names, err)
	}
}

// TestJigsawScoreAndScramble: the score table has a row per image and
// the whole; the scramble report names the sheet, its cells and the
// images.
func TestJigsawScoreAndScramble(t *testing.T) {
	grids, pz, truth := jigsawBag(t)
	acc, err := jigsaw.Score(truth, truth.Placement(), jigsaw.ScoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := JigsawScore(&buf, acc, truth, false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 4 || !strings.HasSuffix(lines[3], "all      96  100.00%    100.00%     true") {
		t.Errorf("score table:\n%s", buf.String())
	}
	buf.Reset()
	JigsawScore(&buf, acc, truth, true)
	var back jigsaw.Accuracy
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || !back.Perfect || len(back.Images) != 2 {
		t.Errorf("score JSON %s (%v)", buf.String(), err)
	}
	r := JigsawScrambled{Grids: grids, Puzzle: pz, Cols: 10, Sheet: "s.png", Seed: 5}
	buf.Reset()
	r.Write(&buf, io.Discard, false)
	if want := "scrambled 96 pieces of 28 px from 2 image(s) (Type 1, seed 5)\n  mit5-crop.png: 8x6 pieces\n  bgu10-crop.png: 8x6 pieces\nsheet    s.png (10x10 cells, 16-bit)\n"; buf.String() != want {
		t.Errorf("scramble report\n%s\nwant\n%s", buf.String(), want)
	}
	buf.Reset()
	r.Write(&buf, io.Discard, true)
	if !strings.Contains(buf.String(), `"rows":10`) || !strings.Contains(buf.String(), `"truth":""`) {
		t.Errorf("scramble JSON %s", buf.String())
	}
	g, err := LoadJigsawGrid(context.Background(), jigsawImages[0], 50, true)
	var notes bytes.Buffer
	r.Grids = append(r.Grids, g)
	r.Write(io.Discard, &notes, false)
	if err != nil || notes.String() != "mit5-crop.png: 224x168 is not a multiple of the piece size; cut the central 200x150 pixels from (12, 9)\n" {
		t.Errorf("crop notes %q (%v)", notes.String(), err)
	}
}

// TestGapSolved: greedy P on the centre of a test image, its picture
// written and its report scored; GapImages decodes a set.
func TestGapSolved(t *testing.T) {
	skipGomlxUnderRace(t)
	g := neural.Geometry{Grid: 3, Patch: 40, Gap: 4}
	m, err := catalog.LoadGapModel("", g)
	if err != nil {
		t.Skip(err)
	}
	pz, err := neural.ReadPuzzleFile(jigsawImages[0], g, 1)
	if err != nil {
		t.Fatal(err)
	}
	o := catalog.GapOptions{Sims: 10, Seed: 1}
	s, _ := catalog.Gaps.New("greedy-p", catalog.GapRun{GapOptions: o, Grid: 3, Hooks: catalog.GapHooks{Model: m}})
	n, _ := o.Neural(3)
	res, err := s.Solve(context.Background(), pz)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "r.png")
	if err := WriteGapPicture(out, pz, res.Cells); err != nil {
		t.Fatal(err)
	}
	r := GapSolved{Puzzle: pz, Algo: "greedy-p", Options: n, Result: res, Out: out}
	var buf bytes.Buffer
	r.Write(&buf, false)
	for _, want := range []string{"puzzle   3x3 patches of 40 px, gaps of 4 px\n", "solver   greedy-p, predicted reward, 10 simulations", "score    ", "wrote    " + out} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, buf.String())
		}
	}
	buf.Reset()
	r.Write(&buf, true)
	var rep map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rep); err != nil || len(rep["cells"].([]any)) != 9 || rep["patch"] == nil || rep["grid"] != 3.0 {
		t.Errorf("JSON report %s (%v)", buf.String(), err)
	}
	imgs, err := GapImages(strings.Join(jigsawImages, ","))
	if err != nil || len(imgs) != 2 {
		t.Errorf("%d images, %v", len(imgs), err)
	}
	if imgs, err := GapImages(""); imgs != nil || err != nil {
		t.Errorf("no set: %v %v", imgs, err)
	}
}

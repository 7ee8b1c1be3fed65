package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"tessera/internal/catalog"
	"tessera/jigsaw/neural"
)

var jigsawImages = []string{"../../jigsaw/testdata/mit5-crop.png", "../../jigsaw/testdata/bgu10-crop.png"}

// TestJigsawBench: the two test crops come out perfect with the greedy
// solver, one JSON line each and a summary; as a bag of two with the
// genetic solver, which counts the pictures, both in bag 1 of 2 outputs;
// the text report has the table, its mean row and the bag count.
func TestJigsawBench(t *testing.T) {
	o := catalog.JigsawOptions{Pop: 30, Gens: 5, Seed: 1}
	for _, c := range []struct {
		algo string
		bag  int
	}{{"greedy", 0}, {"ga", 2}} {
		out := t.TempDir()
		b := Jigsaw{Files: jigsawImages, Piece: 28, Type: 2, Bag: c.bag, Spec: catalog.Spec[catalog.JigsawOptions]{Solver: c.algo, Options: o}, OutDir: out}
		var buf bytes.Buffer
		if err := b.Run(context.Background(), &Writer{W: &buf, JSON: true}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
		if len(lines) != 3 {
			t.Fatalf("%s: %d lines: %s", c.algo, len(lines), buf.String())
		}
		for _, l := range lines[:2] {
			var r catalog.JigsawRecord
			if err := json.Unmarshal([]byte(l), &r); err != nil || !r.Perfect || r.Pieces != 48 || r.Bag != min(c.bag, 1) || r.Outputs != c.bag {
				t.Errorf("%s: %s (%v)", c.algo, l, err)
			}
		}
		var sum map[string]any
		if err := json.Unmarshal([]byte(lines[2]), &sum); err != nil || sum["summary"] != true || sum["perfect"] != 2.0 || sum["algo"] != c.algo {
			t.Errorf("%s: summary %s", c.algo, lines[2])
		}
		if files, _ := os.ReadDir(out); len(files) != 2 {
			t.Errorf("%s: %d pictures written", c.algo, len(files))
		}
		buf.Reset()
		if err := b.Run(context.Background(), &Writer{W: &buf}); err != nil {
			t.Fatal(err)
		}
		text := buf.String()
		if !strings.Contains(text, "Type 2, size unknown") || !strings.Contains(text, "2/2") || strings.Contains(text, "bags that came") != (c.bag > 0) {
			t.Errorf("%s: text report\n%s", c.algo, text)
		}
	}
}

// TestJigsawSet: a folder's images in natural order; lists as given; a
// missing set named.
func TestJigsawSet(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"10.png", "2.png", "1.jpg", "notes.txt"} {
		os.WriteFile(filepath.Join(dir, n), nil, 0o644)
	}
	files, err := JigsawSet(dir, "")
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	if err != nil || !slices.Equal(names, []string{"1.jpg", "2.png", "10.png"}) {
		t.Errorf("folder: %v, %v", names, err)
	}
	if files, err := JigsawSet("b.png, a.png", ""); err != nil || !slices.Equal(files, []string{"b.png", "a.png"}) {
		t.Errorf("list: %v, %v", files, err)
	}
	if _, err := JigsawSet(filepath.Join(dir, "none"), ""); err == nil || !strings.Contains(err.Error(), "none") {
		t.Errorf("missing: %v", err)
	}
	if files, err := GapSet(dir + "," + jigsawImages[0]); err != nil || len(files) != 4 {
		t.Errorf("gap set: %v, %v", files, err)
	}
}

// TestGapsBench: greedy P on two crops of a test image: two lines, a
// summary of two puzzles, the same answers run after run.
func TestGapsBench(t *testing.T) {
	skipGomlxUnderRace(t)
	m, _, err := neural.Default()
	if err != nil {
		t.Skip(err)
	}
	b := Gaps{Files: jigsawImages[:1], Crops: 2, Geometry: neural.Geometry{Grid: 3, Patch: 40, Gap: 4},
		Spec: catalog.Spec[catalog.GapOptions]{Solver: "greedy-p", Options: catalog.GapOptions{Sims: 10, Seed: 1}}, Hooks: catalog.GapHooks{Model: m}}
	run := func() []string {
		var buf bytes.Buffer
		if err := b.Run(context.Background(), &Writer{W: &buf, JSON: true}); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
			var v map[string]any
			if err := json.Unmarshal([]byte(l), &v); err != nil {
				t.Fatal(err)
			}
			delete(v, "seconds")
			j, _ := json.Marshal(v)
			out = append(out, string(j))
		}
		return out
	}
	a := run()
	if len(a) != 3 || !strings.Contains(a[2], `"puzzles":2`) || !strings.Contains(a[1], `"puzzle":1`) {
		t.Fatalf("%v", a)
	}
	if c := run(); !slices.Equal(a, c) {
		t.Errorf("two runs differ:\n%v\n%v", a, c)
	}
}

// A jigsaw bench whose puzzles failed (here each puzzle's budget ends at
// once) still reports every image, then returns an error (exit 1): issue
// 22, item 12.
func TestJigsawBenchFailedPuzzles(t *testing.T) {
	b := Jigsaw{Files: jigsawImages, Piece: 28, Type: 1,
		Spec: catalog.Spec[catalog.JigsawOptions]{Solver: "greedy", Options: catalog.JigsawOptions{Seed: 1}, Budget: catalog.Budget{Timeout: time.Nanosecond}}}
	var buf bytes.Buffer
	err := b.Run(context.Background(), &Writer{W: &buf, JSON: true})
	if err == nil || !strings.Contains(err.Error(), "2 of 2 images") {
		t.Fatalf("%v", err)
	}
	if lines := strings.Split(strings.TrimSpace(buf.String()), "\n"); len(lines) != 3 || !strings.Contains(lines[0], `"error"`) {
		t.Errorf("report %q", buf.String())
	}
}

package catalog

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"tessera/imageio"
	"tessera/internal/jobs"
	"tessera/jigsaw"
	"tessera/jigsaw/bag"
	"tessera/jigsaw/ga"
	"tessera/jigsaw/greedy"
	"tessera/jigsaw/neural"
)

// TestJigsawTable: the ids are the command line's -algo names; the zero
// options are the defaults, -1 (the flags' 0) none, and a bag's mended
// pictures get a quarter of the generations; the capabilities are the
// entries'.
func TestJigsawTable(t *testing.T) {
	if got := strings.Join(Jigsaw.IDs(), ","); got != "greedy,ga" {
		t.Errorf("jigsaw ids %s", got)
	}
	if got := strings.Join(Gaps.IDs(), ","); got != "mcts,greedy-p,greedy-v,deepzzle" {
		t.Errorf("gap ids %s", got)
	}
	o := JigsawRun{JigsawOptions: JigsawOptions{Seed: 7}}
	s, err := Jigsaw.New("greedy", o)
	// greedy goes through jigsaw/bag (a bag told its count comes back as
	// rectangles), keeping its own assembly of the bag
	if gb, ok := s.(bag.Solver); err != nil || !ok || !gb.KeepSplit || gb.Solver.(greedy.Solver).CompatOptions.K != jigsaw.DefaultK || CountsPictures("greedy") || Generational("greedy") {
		t.Errorf("greedy: %#v, %v", s, err)
	}
	s, err = Jigsaw.New("ga", o)
	b, ok := s.(bag.Solver)
	if err != nil || !ok || !CountsPictures("ga") || !Generational("ga") {
		t.Fatalf("ga: %#v, %v", s, err)
	}
	want := ga.Solver{Pop: 300, Gens: 100, Elite: 4, Mutation: 0.001, Seed: 7, CompatOptions: jigsaw.CompatOptions{K: jigsaw.DefaultK}}
	mend := want
	mend.Gens = 25
	if !reflect.DeepEqual(b.Solver, want) || !reflect.DeepEqual(b.Mend, mend) || !reflect.DeepEqual(b.CompatOptions, want.CompatOptions) {
		t.Errorf("ga: %+v", b)
	}
	o.Gens, o.Elite, o.Mutation = 3, -1, -1
	s, _ = Jigsaw.New("ga", o)
	if b := s.(bag.Solver); b.Solver.(ga.Solver).Gens != 3 || b.Solver.(ga.Solver).Elite != -1 || b.Solver.(ga.Solver).Mutation != -1 || b.Mend.(ga.Solver).Gens != -1 {
		t.Errorf("none: %+v", b)
	}
	for _, bad := range []JigsawOptions{{K: 1}, {Pop: 1}, {Pop: 10, Elite: 10}, {Mutation: 2}, {Mutation: -0.5}, {Gens: -2}} {
		if _, err := Jigsaw.New("ga", JigsawRun{JigsawOptions: bad}); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	if _, err := Gaps.New("mcts", GapRun{}); err == nil {
		t.Error("a gap solver without a model")
	}
}

// TestJigsawFlags: the flags come from the options; -gens 0, -elite 0,
// -mutation 0 are none (-1) as the command line always read them, the
// options travel as JSON, and a ga flag does not apply to greedy.
func TestJigsawFlags(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o := JigsawOptions{Seed: 1}.Defaults()
	list := BindFlags(fs, &o)
	if err := fs.Parse([]string{"-gens", "0", "-elite", "0", "-mutation", "0", "-metric", "ssd", "-pop", "20"}); err != nil {
		t.Fatal(err)
	}
	if o.Gens != -1 || o.Elite != -1 || o.Mutation != -1 || o.Metric != jigsaw.LabSSD || o.Pop != 20 || o.Check() != nil {
		t.Errorf("flags: %+v", o)
	}
	data, _ := json.Marshal(o)
	var back JigsawOptions
	if err := json.Unmarshal(data, &back); err != nil || back != o || !strings.Contains(string(data), `"gens":-1`) || !strings.Contains(string(data), `"metric":"ssd"`) {
		t.Errorf("JSON %s: %+v %v", data, back, err)
	}
	if err := Jigsaw.Applies(list, SetFlags(fs, list), "greedy"); err == nil || !strings.Contains(err.Error(), "applies to -algo ga") {
		t.Errorf("applies: %v", err)
	}
	if err := Jigsaw.Applies(list, []string{"metric", "seed"}, "greedy"); err != nil {
		t.Error(err)
	}
	if err := fs.Parse([]string{"-gens", "-1"}); err == nil {
		t.Error("-gens -1 accepted")
	}
}

// TestGapOptions: the names become the search's options ("" the first);
// a bad one names its flag; the shipped model loads and fits the default
// geometry, not another patch size.
func TestGapOptions(t *testing.T) {
	o := GapOptions{Reward: "gt", Backup: "max", Choose: "value", Sims: 5, Batch: 2, CPuct: 1.5, Seed: 9}
	n, err := o.Neural(3)
	want := neural.Options{Reward: neural.GroundTruth, Backup: neural.MaxBackup, Choice: neural.ByValue, Sims: 5, Batch: 2, CPuct: 1.5, Seed: 9}
	if err != nil || !reflect.DeepEqual(n, want) {
		t.Errorf("options %+v %v", n, err)
	}
	if n, err := (GapOptions{}).Neural(3); err != nil || !reflect.DeepEqual(n, neural.Options{}) {
		t.Errorf("zero options %+v %v", n, err)
	}
	for _, c := range []struct {
		edit func(*GapOptions)
		text string
	}{
		{func(o *GapOptions) { o.Reward = "x" }, "-reward"},
		{func(o *GapOptions) { o.Backup = "x" }, "-backup"},
		{func(o *GapOptions) { o.Choose = "x" }, "-choose"},
		{func(o *GapOptions) { o.Sims = -1 }, "-sims"},
		{func(o *GapOptions) { o.Hints = "9" }, "-hints"},
	} {
		bad := o
		c.edit(&bad)
		if _, err := bad.Neural(3); err == nil || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%s: %v", c.text, err)
		}
	}
	g := neural.Geometry{Grid: 3, Patch: 40, Gap: 4}
	if m, err := LoadGapModel("", g); err != nil || m == nil {
		t.Errorf("shipped model: %v", err)
	}
	if _, err := LoadGapModel("", neural.Geometry{Grid: 3, Patch: 30, Gap: 4}); err == nil {
		t.Error("the shipped model fits 30 px patches")
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	var f GapOptions
	list := BindFlags(fs, &f)
	if err := Gaps.Applies(list, []string{"sims"}, "greedy-p"); err == nil || !strings.Contains(err.Error(), "-algo mcts") {
		t.Errorf("applies: %v", err)
	}
}

// memBlobs is a blob store in memory.
type memBlobs map[string][]byte

// blobFile returns a store in memory holding the file path, the file's
// address in it and its bytes.
func blobFile(t *testing.T, path string) (memBlobs, string, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	blobs := memBlobs{}
	a, err := blobs.PutBlob(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	return blobs, a, data
}

func (m memBlobs) PutBlob(_ context.Context, data []byte) (string, error) {
	a := jobs.BlobAddress(data)
	m[a] = data
	return a, nil
}

func (m memBlobs) GetBlob(_ context.Context, addr string) ([]byte, error) {
	if d, ok := m[addr]; ok {
		return d, nil
	}
	return nil, os.ErrNotExist
}

// TestJigsawJobs: the job kinds run a jigsaw bag and a gap picture from
// the blob store in the job's context and return their records and
// reconstructions there; a model folder and a path as a name are refused.
func TestJigsawJobs(t *testing.T) {
	blobs := memBlobs{}
	var pics []Picture
	for _, f := range []string{"../../jigsaw/testdata/mit5-crop.png", "../../jigsaw/testdata/bgu10-crop.png"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := blobs.PutBlob(context.Background(), data)
		pics = append(pics, Picture{Name: f[strings.LastIndex(f, "/")+1:], Blob: a})
	}
	ctx := jobs.WithBlobs(context.Background(), blobs)
	job := JigsawJob{Spec: Spec[JigsawOptions]{Solver: "greedy", Options: JigsawOptions{Seed: 1}}, Pictures: pics, Piece: 28, Type: 1, Bag: 1, Save: true}
	in, _ := json.Marshal(job)
	out, err := JobKinds()[JigsawKind](ctx, in, nil)
	res, ok := out.(JigsawResult)
	if err != nil || !ok || len(res.Records) != 2 || !res.Records[0].Perfect || !res.Right() || len(res.Outputs) != 2 || blobs[res.Outputs[1]] == nil {
		t.Fatalf("jigsaw job: %+v, %v", out, err)
	}
	job.Pictures = []Picture{{Name: "../x.png", Blob: pics[0].Blob}}
	in, _ = json.Marshal(job)
	if _, err := JobKinds()[JigsawKind](ctx, in, nil); err == nil || !strings.Contains(err.Error(), "plain name") {
		t.Errorf("a path as a name: %v", err)
	}
	gj := GapsJob{Spec: Spec[GapOptions]{Solver: "greedy-p", Options: GapOptions{Seed: 1}}, Picture: pics[0], Grid: 3, Patch: 40, Gap: 4, Crops: 2, Save: true}
	in, _ = json.Marshal(gj)
	out, err = JobKinds()[GapsKind](ctx, in, nil)
	gr, ok := out.(GapsResult)
	if err != nil || !ok || len(gr.Records) != 2 || gr.Records[1].Puzzle != 1 || gr.Records[0].GapScore == nil || len(gr.Outputs) != 2 {
		t.Fatalf("gaps job: %+v, %v", out, err)
	}
	gj.Options.Model = "/tmp/model"
	in, _ = json.Marshal(gj)
	if _, err := JobKinds()[GapsKind](ctx, in, nil); err == nil || !strings.Contains(err.Error(), "no file") {
		t.Errorf("a model folder: %v", err)
	}
}

// TestGapsJobCentre: a centre job is one puzzle, the picture's central
// square as neural.Centre cuts and shuffles it (the command line's and the
// web page's), its answer given to OnResult.
func TestGapsJobCentre(t *testing.T) {
	blobs, a, data := blobFile(t, "../../jigsaw/neural/testdata/kodak23.png")
	g := neural.Geometry{Grid: 3, Patch: 40, Gap: 4}
	j := GapsJob{Spec: Spec[GapOptions]{Solver: "greedy-p", Options: GapOptions{Seed: 4}}, Picture: Picture{Name: "k.png", Blob: a},
		Grid: g.Grid, Patch: g.Patch, Gap: g.Gap, Centre: true}
	var got *neural.Puzzle
	res, err := j.Run(context.Background(), blobs, GapHooks{OnResult: func(pz *neural.Puzzle, _ neural.Result, _ error) { got = pz }})
	img, _ := imageio.DecodeBytesContext(context.Background(), data, imageio.Options{})
	if err != nil || len(res.Records) != 1 || got == nil || !slices.Equal(got.Truth, neural.Centre(img.Pix, g, 4).Truth) {
		t.Fatalf("%+v, %v", res, err)
	}
}

// TestGAKnobs: GACount and GARate as a flag writes and reads them (0
// none, "" the default), as JSON (the options' encoding), and Flag; a bad
// flag value is refused and leaves the value as it was.
func TestGAKnobs(t *testing.T) {
	for _, c := range []struct {
		text  string // the flag's text of both
		count GACount
		rate  GARate
		flag  float64 // Flag of both, with the defaults 7 and 0.5
	}{{"", 0, 0, -1}, {"0", -1, -1, 0}, {"1", 1, 1, 1}} {
		cf, rf := float64(c.count.Flag(7)), c.rate.Flag(0.5)
		if c.flag < 0 && (cf != 7 || rf != 0.5) || c.flag >= 0 && (cf != c.flag || rf != c.flag) {
			t.Errorf("%q: flags %v and %v", c.text, cf, rf)
		}
		cb, _ := c.count.MarshalText()
		rb, _ := c.rate.MarshalText()
		var count, rate = GACount(9), GARate(9)
		if string(cb) != c.text || string(rb) != c.text || count.UnmarshalText(cb) != nil || rate.UnmarshalText(rb) != nil || count != c.count || rate != c.rate {
			t.Errorf("%q: written %q and %q, read back %d and %v", c.text, cb, rb, count, rate)
		}
		if j, err := json.Marshal([]any{c.count, c.rate}); err != nil || string(j) != fmt.Sprintf("[%d,%v]", c.count, c.rate) {
			t.Errorf("%q: JSON %s %v", c.text, j, err)
		}
	}
	for _, bad := range []string{"-1", "x", "1.5", "NaN"} {
		c, r := GACount(3), GARate(0.5)
		if errC, errR := c.UnmarshalText([]byte(bad)), r.UnmarshalText([]byte(bad)); errC == nil || c != 3 || errR == nil || r != 0.5 {
			t.Errorf("%q: count %d (%v), rate %v (%v)", bad, c, errC, r, errR)
		}
	}
}

package catalog

import (
	"strings"
	"testing"

	"tessera/jigsaw"
	"tessera/jigsaw/bag"
	"tessera/jigsaw/ga"
	"tessera/jigsaw/greedy"
	"tessera/jigsaw/neural"
)

// TestJigsawTable: the ids are the command line's -algo names; the flags'
// zeros (no generations, no elite, no mutation) become ga.Solver's
// "none", and a bag's mended pictures get a quarter of the generations.
func TestJigsawTable(t *testing.T) {
	if got := strings.Join(Jigsaw.IDs(), ","); got != "greedy,ga" {
		t.Errorf("jigsaw ids %s", got)
	}
	if got := strings.Join(Gaps.IDs(), ","); got != "mcts,greedy-p,greedy-v,deepzzle" {
		t.Errorf("gap ids %s", got)
	}
	o := DefaultJigsawOptions()
	o.Seed = 7
	s, err := Jigsaw.New("greedy", o)
	if g, ok := s.(greedy.Solver); err != nil || !ok || g.CompatOptions.K != jigsaw.DefaultK || CountsPictures(s) || Generational(s) {
		t.Errorf("greedy: %#v, %v", s, err)
	}
	s, err = Jigsaw.New("ga", o)
	b, ok := s.(bag.Solver)
	if err != nil || !ok || !CountsPictures(s) || !Generational(s) {
		t.Fatalf("ga: %#v, %v", s, err)
	}
	want := ga.Solver{Pop: 300, Gens: 100, Elite: 4, Mutation: 0.001, Seed: 7, CompatOptions: jigsaw.CompatOptions{K: jigsaw.DefaultK}}
	mend := want
	mend.Gens = 25
	if b.Solver != want || b.Mend != mend || b.CompatOptions != want.CompatOptions {
		t.Errorf("ga: %+v", b)
	}
	o.Gens, o.Elite, o.Mutation = 3, 0, 0
	s, _ = Jigsaw.New("ga", o)
	if b := s.(bag.Solver); b.Solver.(ga.Solver).Gens != 3 || b.Solver.(ga.Solver).Elite != -1 || b.Solver.(ga.Solver).Mutation != -1 || b.Mend.(ga.Solver).Gens != -1 {
		t.Errorf("zeros: %+v", b)
	}
	for _, bad := range []JigsawOptions{{K: 1, Pop: 10}, {K: 5, Pop: 1}, {K: 5, Pop: 10, Elite: 10}, {K: 5, Pop: 10, Mutation: 2}, {K: 5, Pop: 10, Gens: -1}} {
		if _, err := Jigsaw.New("ga", bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	if _, err := Gaps.New("mcts", GapOptions{Sims: 1, Batch: 1, Attempts: 1, CPuct: 1}); err == nil {
		t.Error("a gap solver without a model")
	}
}

// TestNewJigsaw: the metric by name; errors name the flag.
func TestNewJigsaw(t *testing.T) {
	s, o, err := NewJigsaw("greedy", "ssd", DefaultJigsawOptions())
	if g, ok := s.(greedy.Solver); err != nil || !ok || o.Metric != jigsaw.LabSSD || g.CompatOptions.Metric != jigsaw.LabSSD {
		t.Errorf("greedy ssd: %#v %+v %v", s, o, err)
	}
	if _, _, err := NewJigsaw("greedy", "foo", DefaultJigsawOptions()); err == nil || !strings.Contains(err.Error(), `"foo"`) {
		t.Errorf("bad metric: %v", err)
	}
	if _, _, err := NewJigsaw("nope", "mgc", DefaultJigsawOptions()); err == nil || !strings.HasPrefix(err.Error(), "-algo nope: ") {
		t.Errorf("bad algo: %v", err)
	}
}

// TestGapSettings: the names become the options; a bad one names its
// flag; the shipped model loads and fits the default geometry, not
// another patch size.
func TestGapSettings(t *testing.T) {
	s := GapSettings{Grid: 3, Patch: 40, Gap: 4, Reward: "gt", Backup: "max", Choose: "value", Sims: 5, Batch: 2, Attempts: 1, CPuct: 1.5}
	g, o, err := s.Options(9)
	want := GapOptions{Reward: neural.GroundTruth, Backup: neural.MaxBackup, Choice: neural.ByValue, Sims: 5, Batch: 2, Attempts: 1, CPuct: 1.5, Seed: 9}
	if err != nil || g != (neural.Geometry{Grid: 3, Patch: 40, Gap: 4}) || o != want {
		t.Errorf("options %+v %+v %v", g, o, err)
	}
	for _, c := range []struct {
		edit func(*GapSettings)
		text string
	}{
		{func(s *GapSettings) { s.Reward = "x" }, "-reward"},
		{func(s *GapSettings) { s.Backup = "x" }, "-backup"},
		{func(s *GapSettings) { s.Choose = "x" }, "-choose"},
		{func(s *GapSettings) { s.Sims = 0 }, "-sims"},
		{func(s *GapSettings) { s.Grid = 0 }, "grid"},
	} {
		bad := s
		c.edit(&bad)
		if _, _, err := bad.Options(1); err == nil || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%s: %v", c.text, err)
		}
	}
	if m, err := LoadGapModel("", g); err != nil || m == nil {
		t.Errorf("shipped model: %v", err)
	}
	if _, err := LoadGapModel("", neural.Geometry{Grid: 3, Patch: 30, Gap: 4}); err == nil {
		t.Error("the shipped model fits 30 px patches")
	}
}

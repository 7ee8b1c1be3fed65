package catalog

import (
	"strings"
	"testing"

	"tessera/jigsaw"
	"tessera/jigsaw/bag"
	"tessera/jigsaw/ga"
	"tessera/jigsaw/greedy"
)

// TestJigsawTable: the ids are the command line's -algo names; the flags'
// zeros (no generations, no elite, no mutation) become ga.Solver's
// "none", and a bag's mended pictures get a quarter of the generations.
func TestJigsawTable(t *testing.T) {
	if got := strings.Join(Jigsaw.IDs(), ","); got != "greedy,ga" {
		t.Errorf("jigsaw ids %s", got)
	}
	if got := strings.Join(Gaps.IDs(), ","); got != "mcts,greedy-p,greedy-v" {
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

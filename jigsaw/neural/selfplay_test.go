package neural

import (
	"context"
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"tessera/nn"
)

// TestSelfPlayGameOracle: with a perfect value and uniform priors the
// game recorded by self-play reaches the truth, with one root per
// placement whose visits go mostly to the true cell, and the truth among
// the complete reassemblies the search valued; the visit example is a
// distribution over the empty cells.
func TestSelfPlayGameOracle(t *testing.T) {
	pz := testPuzzle(3, 5)
	so := SelfPlayOptions{Terminals: true}
	rng := rand.New(rand.NewPCG(1, 2))
	roots, terms, end, err := selfPlayGame(context.Background(), oracle{pz.Truth}, pz, Options{Sims: 40}.defaults(), so, rng)
	if err != nil {
		t.Fatal(err)
	}
	if !end.Correct(pz.Truth) || !end.Done() {
		t.Fatalf("self-play reached %v, truth %v", end.Cells(), pz.Truth)
	}
	if len(roots) != 9 {
		t.Fatalf("%d roots, want 9", len(roots))
	}
	found := false
	for _, s := range terms {
		found = found || s.Correct(pz.Truth)
	}
	if !found {
		t.Fatalf("the truth is not among the %d terminals", len(terms))
	}
	tab := NewTable(9, func(d, a, b int) float32 { return 0 })
	for k, r := range roots {
		if r.s.Placed != k {
			t.Fatalf("root %d has %d patches placed", k, r.s.Placed)
		}
		want := pz.Truth[r.s.Next()]
		best := 0
		for j := range r.cells {
			if r.visits[j] > r.visits[best] {
				best = j
			}
		}
		if r.cells[best] != want {
			t.Fatalf("root %d: most visits on cell %d, truth %d (%v %v)", k, r.cells[best], want, r.cells, r.visits)
		}
		ex := visitData(t, tab, r)
		sum := 0.0
		for c, y := range ex {
			switch {
			case r.s.At[c] >= 0 && y != -1:
				t.Fatalf("occupied cell %d has target %v", c, y)
			case r.s.At[c] < 0:
				sum += float64(y)
			}
		}
		if math.Abs(sum-1) > 1e-5 {
			t.Fatalf("root %d: targets sum to %v", k, sum)
		}
	}
}

func visitData(t *testing.T, tab *Table, r rootVisit) []float32 {
	t.Helper()
	var nd nn.Data
	if !visitExample(&nd, tab, r, 9, 3) || nd.N != 1 || len(nd.Y) != 9 {
		t.Fatalf("visit example: %d examples, %d targets", nd.N, len(nd.Y))
	}
	return nd.Y
}

// TestSelfPlayEpoch: one small epoch on the shipped model plays its
// games and trains on the visit examples mixed with the supervised ones,
// as many as it says; the same seed gives the same examples.
func TestSelfPlayEpoch(t *testing.T) {
	if testing.Short() {
		t.Skip("trains the heads")
	}
	m := shippedModel(t)
	imgs := []image.Image{loadTestImage(t, "kodak03.png"), loadTestImage(t, "kodak23.png")}
	run := func() SelfPlayStats {
		// A copy of the shipped model: Default's is shared.
		h, err := cloneHeads(m.Heads[3])
		if err != nil {
			t.Fatal(err)
		}
		mc := &Model{Patch: m.Patch, Gap: m.Gap, Strip: m.Strip, Pair: m.Pair, Heads: map[int]Heads{3: h}}
		st, err := mc.SelfPlay(context.Background(), imgs, 3, SelfPlayOptions{Puzzles: 2, Replay: 1, Terminals: true, Search: Options{Sims: 20}},
			TrainOptions{Epochs: 1, MaxSteps: 2, LearningRate: 1e-4, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	st := run()
	// 9 P and 18 V supervised examples; per game 8 roots with a choice
	// for P, 8 non-empty roots, the end and the terminals for V.
	if st.Games != 2 || st.Roots != 16 || st.Heads.PExamples != 9+16 || st.Heads.VExamples != 18+2*9+st.Terminals || st.Terminals == 0 {
		t.Fatalf("%+v", st)
	}
	if again := run(); again.Solved != st.Solved || again.Terminals != st.Terminals {
		t.Fatalf("same seed, different epochs: %+v and %+v", st, again)
	}
}

// TestFor: the default geometry gives the default model, every shipped
// geometry a model of its patch and gap with heads, and another one
// an error that lists the shipped ones.
func TestFor(t *testing.T) {
	def, _, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if m, _, err := For(Geometry{}); err != nil || m != def {
		t.Fatalf("For(default): %v, %v", m, err)
	}
	for _, name := range ShippedGeometries()[1:] {
		var p, g int
		if _, err := fmt.Sscanf(name, "%d px / %d px", &p, &g); err != nil {
			t.Fatal(err)
		}
		m, info, err := For(Geometry{Grid: 3, Patch: p, Gap: GapOf(g)})
		if err != nil {
			t.Fatal(err)
		}
		if m.Patch != p || m.Gap != g || info["recipe"] == "" || len(m.Heads) == 0 {
			t.Fatalf("%s: a model for %d px / %d px, recipe %q, %d heads", name, m.Patch, m.Gap, info["recipe"], len(m.Heads))
		}
		for grid := range m.Heads {
			if err := m.Fits(m.Geometry(grid)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, _, err := For(Geometry{Grid: 3, Patch: 40, Gap: 7}); err == nil || !strings.Contains(err.Error(), "40 px / 4 px") {
		t.Fatalf("For(40 px / 7 px): %v", err)
	}
}

// TestSaveKeepsGeometry: a model saved with the info of another geometry
// (loaded for 4 px gaps, retrained for 10) records its own.
func TestSaveKeepsGeometry(t *testing.T) {
	m, info, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	cp := *m
	cp.Gap = 10
	back, binfo := saveAndLoad(t, &cp, info)
	if back.Gap != 10 || binfo["gap"] != "10" || binfo["recipe"] != info["recipe"] {
		t.Fatalf("saved for 10 px gaps, loaded %d (info %q)", back.Gap, binfo["gap"])
	}
}

package neural

import (
	"context"
	"image"
	"io/fs"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"tessera/jigsaw"
)

func TestFragmentGame(t *testing.T) {
	// 4 cells, patches 0..3: patch 2 is a stray, cell 3's patch missing.
	truth := []int{1, 0, -1, 2}
	s := NewFragmentState([]int{2, 0, 1, 3}, 4)
	if got := s.Legal(nil); !slices.Equal(got, []int{0, 1, 2, 3, 4}) {
		t.Fatalf("legal %v: want the 4 cells and set aside (4)", got)
	}
	s.Play(s.AsideMove()) // the stray, set aside: right
	if !s.Correct(truth) || s.Aside() != 1 || s.CellOf[2] != SetAside {
		t.Fatal("a stray set aside is right")
	}
	w := s.Clone()
	w.Play(w.AsideMove()) // patch 0 set aside: wrong
	if w.Correct(truth) {
		t.Fatal("an own patch set aside is wrong")
	}
	s.Play(1)
	s.Play(0)
	s.Play(2)
	if !s.Done() || s.Reward(truth) != 1 || !slices.Equal(s.Cells(), []int{1, 0, -1, 2}) {
		t.Fatalf("solved: reward %v, cells %v", s.Reward(truth), s.Cells())
	}
	if got := s.Legal(nil); len(got) != 0 {
		t.Fatalf("done, legal %v", got)
	}
	pz := &Puzzle{Geometry: Geometry{Grid: 2}, Truth: truth, Fragments: true}
	acc := pz.Score(s.Cells())
	if !acc.Perfect || acc.Patch != 1 || acc.Neighbor != 1 || acc.Strays != 1 || acc.StraysFound != 1 || acc.OwnAside != 0 {
		t.Fatalf("score %+v", acc)
	}
	// The stray placed in the empty cell, patch 3 set aside.
	acc = pz.Score([]int{1, 0, 3, -1})
	if acc.Perfect || acc.Patch != 2.0/3 || acc.StraysFound != 0 || acc.OwnAside != 1 || pz.Misplaced([]int{1, 0, 3, -1}) != 2 {
		t.Fatalf("score %+v", acc)
	}
	// The true adjacencies among present patches: cells 0-1 (patches 1,
	// 0) and 0-2 (patches 1, 3); cell 3 is missing.
	if acc.Neighbor != 0.5 {
		t.Fatalf("neighbours %v, want 1/2", acc.Neighbor)
	}
}

// fragOracle is oracle for the game of fragments: uniform priors over
// the empty cells and set aside.
type fragOracle struct{ truth []int }

func (o fragOracle) Priors(states []*State) ([][]float64, error) {
	out := make([][]float64, len(states))
	for i, s := range states {
		out[i] = make([]float64, len(s.At)+1)
		for _, c := range s.Legal(nil) {
			out[i][c] = 1
		}
	}
	return out, nil
}

func (o fragOracle) Values(states []*State) ([]float64, error) {
	out := make([]float64, len(states))
	for i, s := range states {
		out[i] = ValueCorrect.Target(s, o.truth)
	}
	return out, nil
}

func TestMCTSOracleSolvesFragments(t *testing.T) {
	img := coordImage(300, 300)
	g := Geometry{Grid: 3, Patch: 12, Gap: 2}
	for _, c := range []struct{ missing, foreign int }{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {2, 2}} {
		rng := rand.New(rand.NewPCG(uint64(c.missing), uint64(c.foreign)))
		pz, err := MakeFragments(Cut(img, 0, 0, g), c.missing, Strays(img, g, c.foreign, rng), rng)
		if err != nil {
			t.Fatal(err)
		}
		if len(pz.Patches) != 9-c.missing+c.foreign || !pz.Fragments {
			t.Fatalf("%+v: %d patches", c, len(pz.Patches))
		}
		for _, reward := range []Reward{Predicted, GroundTruth} {
			res, err := Search(context.Background(), fragOracle{pz.Truth}, pz, Options{Sims: 60, Reward: reward})
			if err != nil {
				t.Fatal(err)
			}
			if acc := pz.Score(res.Cells); !acc.Perfect || acc.StraysFound != c.foreign || acc.Strays != c.foreign {
				t.Fatalf("%+v %v: %+v", c, reward, acc)
			}
		}
	}
}

func TestMakeFragmentsRefuses(t *testing.T) {
	img := coordImage(200, 200)
	g := Geometry{Grid: 3, Patch: 12, Gap: 2}
	rng := rand.New(rand.NewPCG(1, 2))
	pz := Cut(img, 0, 0, g)
	if _, err := MakeFragments(pz, 9, nil, rng); err == nil {
		t.Fatal("every patch missing: no error")
	}
	if _, err := MakeFragments(pz, 0, []jigsaw.Piece{jigsaw.NewPiece(8)}, rng); err == nil {
		t.Fatal("a stray of another size: no error")
	}
	if _, err := FromPieces(pz.Patches[:5], g, 8); err != nil {
		t.Fatal(err)
	} else if fp, _ := FromPieces(pz.Patches[:5], g, 8); !fp.Fragments {
		t.Fatal("a sheet of 5 patches for 9 cells is not fragments")
	}
}

func TestFragmentHeadsTrainAndSolve(t *testing.T) {
	imgs := []image.Image{loadTestImage(t, "kodak03.png"), loadTestImage(t, "kodak23.png")}
	sub, err := fs.Sub(shipped, "models")
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := loadFS(sub) // a fresh copy: the default model stays as it is
	if err != nil {
		t.Fatal(err)
	}
	delete(m.Frag, 3)
	fo := FragOptions{MaxMissing: 2, MaxForeign: 2}
	st, err := m.TrainFragments(context.Background(), imgs, 3, fo, Arch{}, TrainOptions{Puzzles: 12, Epochs: 1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if st.PExamples < 12*7 || st.VExamples < 2*12*7 {
		t.Fatalf("%d P and %d V examples from 12 puzzles of 7 to 11 patches", st.PExamples, st.VExamples)
	}
	// With the heads there, sampled games add their states to V's
	// examples: at least one per patch of every game.
	fp := fo
	fp.Play = 1
	st2, err := m.TrainFragments(context.Background(), imgs, 3, fp, Arch{}, TrainOptions{Puzzles: 4, Epochs: 1, MaxSteps: 1, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	if st2.VExamples < 2*4*7+4*7 || st2.PExamples < 4*7 {
		t.Fatalf("%d V examples from 4 puzzles and their games", st2.VExamples)
	}
	// The samples do not depend on the cores.
	a, err := m.fragPuzzles(context.Background(), imgs, 3, 5, 9, fo)
	if err != nil {
		t.Fatal(err)
	}
	prev := runtime.GOMAXPROCS(1)
	b, err := m.fragPuzzles(context.Background(), imgs, 3, 5, 9, fo)
	runtime.GOMAXPROCS(prev)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if !slices.Equal(a[i].pz.Truth, b[i].pz.Truth) || !slices.Equal(a[i].table.L[0], b[i].table.L[0]) {
			t.Fatalf("puzzle %d differs with one core", i)
		}
	}
	m2, _ := saveAndLoad(t, m, nil)
	if _, ok := m2.Frag[3]; !ok {
		t.Fatal("fragment heads not saved")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	g := Geometry{}.Defaults()
	pz, err := MakeFragments(Random(imgs[0], g, rng), 1, Strays(imgs[1], g, 2, rng), rng)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Solve(context.Background(), m2, pz, Options{Sims: 20})
	if err != nil {
		t.Fatal(err)
	}
	used := map[int]bool{}
	for _, c := range res.Cells {
		if c >= 0 && used[c] {
			t.Fatalf("cell %d used twice: %v", c, res.Cells)
		}
		used[c] = true
	}
	if len(res.Cells) != 10 || res.Value < 0 || res.Value > 1 {
		t.Fatalf("answer %v, value %v", res.Cells, res.Value)
	}
	if _, err := Solve(context.Background(), &Model{Patch: 40, Gap: 4, Strip: m.Strip, Pair: m.Pair, Heads: m.Heads}, pz, Options{}); err == nil {
		t.Fatal("no fragment heads: no error")
	}
}

func TestRandomFragmentsAndAside(t *testing.T) {
	img, other := coordImage(300, 300), coordImage(200, 260)
	g := Geometry{Grid: 3, Patch: 12, Gap: 2}
	if err := g.CheckFragments(9, 0); err == nil {
		t.Fatal("every patch missing: no error")
	}
	if err := (Geometry{Grid: 8, Patch: 12, Gap: 2}).CheckFragments(0, 64); err == nil {
		t.Fatal("128 patches: no error")
	}
	// RandomFragments draws as Random, the picker, Strays and MakeFragments do in turn.
	picked := 0
	pick := func(*rand.Rand) (image.Image, error) { picked++; return other, nil }
	pz, err := RandomFragments(img, g, 2, 3, rand.New(rand.NewPCG(4, 5)), pick)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(4, 5))
	want, _ := MakeFragments(Random(img, g, rng), 2, Strays(other, g, 3, rng), rng)
	if picked != 1 || !slices.Equal(pz.Truth, want.Truth) || len(pz.Patches) != 10 {
		t.Fatalf("picked %d, truth %v, want %v", picked, pz.Truth, want.Truth)
	}
	// The truth as the answer: the strays aside, the missing patches' cells empty.
	aside, empty := pz.Aside(pz.Truth)
	var strays []int
	for i, c := range pz.Truth {
		if c < 0 {
			strays = append(strays, i)
		}
	}
	if !slices.Equal(aside, strays) || len(empty) != 2 {
		t.Fatalf("aside %v (strays %v), empty %v", aside, strays, empty)
	}
}

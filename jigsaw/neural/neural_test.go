package neural

import (
	"context"
	"errors"
	"image"
	"image/color"
	"io/fs"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"tessera/imageio"
)

// coordImage is an image whose pixel (x, y) encodes x and y, so that a
// patch tells where it was cut.
func coordImage(w, h int) *image.NRGBA64 {
	m := image.NewNRGBA64(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			m.SetNRGBA64(x, y, color.NRGBA64{R: uint16(x * 97), G: uint16(y * 89), B: 7, A: 0xffff})
		}
	}
	return m
}

func TestCutGeometry(t *testing.T) {
	for _, g := range []Geometry{{}, {Grid: 4, Patch: 10, Gap: 2}, {Grid: 5, Patch: 12, Gap: 3}} {
		g = g.Defaults()
		img := coordImage(g.Side()+7, g.Side()+5)
		pz := Cut(img, 3, 2, g)
		if len(pz.Patches) != g.Cells() {
			t.Fatalf("%v: %d patches", g, len(pz.Patches))
		}
		off := g.Gap / 2
		for i, p := range pz.Patches {
			if pz.Truth[i] != i || p.Size != g.Patch {
				t.Fatalf("%v: patch %d: truth %d, size %d", g, i, pz.Truth[i], p.Size)
			}
			r, c := i/g.Grid, i%g.Grid
			for _, xy := range [][2]int{{0, 0}, {g.Patch - 1, 0}, {0, g.Patch - 1}, {g.Patch - 1, g.Patch - 1}} {
				wantX, wantY := 3+c*(g.Patch+g.Gap)+off+xy[0], 2+r*(g.Patch+g.Gap)+off+xy[1]
				cr, cg, _ := p.RGB(xy[0], xy[1])
				if int(cr) != wantX*97 || int(cg) != wantY*89 {
					t.Fatalf("%v: patch %d pixel %v comes from (%d, %d), want (%d, %d)", g, i, xy, int(cr)/97, int(cg)/89, wantX, wantY)
				}
			}
		}
		// Neighbouring patches are exactly Gap pixels apart.
		a, _, _ := pz.Patches[0].RGB(g.Patch-1, 0)
		b, _, _ := pz.Patches[1].RGB(0, 0)
		if int(b)/97-int(a)/97 != g.Gap+1 {
			t.Fatalf("%v: patches 0 and 1 are %d px apart, want a gap of %d", g, int(b)/97-int(a)/97-1, g.Gap)
		}
	}
}

func TestRandomKeepsTruth(t *testing.T) {
	g := Geometry{Grid: 3, Patch: 10, Gap: 2}
	img := coordImage(g.Side(), g.Side()) // scale 1: no resampling
	pz := Random(img, g, rand.New(rand.NewPCG(1, 2)))
	ref := Cut(img, 0, 0, g)
	shuffled := false
	for i, p := range pz.Patches {
		if !slices.Equal(p.Pix, ref.Patches[pz.Truth[i]].Pix) {
			t.Fatalf("patch %d is not the patch of its true cell %d", i, pz.Truth[i])
		}
		shuffled = shuffled || pz.Truth[i] != i
	}
	if !shuffled {
		t.Fatal("patches not shuffled")
	}
	if acc := pz.Score(pz.Truth); !acc.Perfect || acc.Patch != 1 || acc.Neighbor != 1 {
		t.Fatalf("the truth scores %+v", acc)
	}
}

func TestScore(t *testing.T) {
	pz := &Puzzle{Geometry: Geometry{Grid: 3}, Truth: []int{0, 1, 2, 3, 4, 5, 6, 7, 8}}
	// Shift everything one column right, wrapping: rows keep 3 of 6
	// horizontal pairs... check by hand: cells 0..8 -> 1,2,0,4,5,3,7,8,6.
	cells := []int{1, 2, 0, 4, 5, 3, 7, 8, 6}
	acc := pz.Score(cells)
	// Horizontal pairs kept: (0,1) at cells 1,2 yes; (1,2) at 2,0 no: 3
	// of 6. Vertical pairs all kept: 6 of 6.
	if acc.Patch != 0 || acc.Neighbor != 9.0/12 || acc.Perfect {
		t.Fatalf("score %+v, want 0 patches, 9/12 neighbours", acc)
	}
}

func TestGame(t *testing.T) {
	truth := []int{2, 0, 1, 3}
	s := NewState([]int{3, 1, 0, 2})
	if got := s.Legal(nil); !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Fatalf("legal %v", got)
	}
	if ValueRandom.Target(s, truth) != 1.0/24 || ValueCorrect.Target(s, truth) != 1 {
		t.Fatal("empty state targets")
	}
	s.Play(3) // patch 3 to cell 3: right
	s.Play(0) // patch 1 to cell 0: right
	if got := s.Legal(nil); !slices.Equal(got, []int{1, 2}) || s.Next() != 0 {
		t.Fatalf("legal %v, next %d", got, s.Next())
	}
	if !s.Correct(truth) || ValueRandom.Target(s, truth) != 0.5 || s.Reward(truth) != 0 {
		t.Fatal("correct partial state")
	}
	w := s.Clone()
	w.Play(1) // patch 0 to cell 1: wrong (its cell is 2)
	if w.Correct(truth) || ValueCorrect.Target(w, truth) != 0 {
		t.Fatal("a misplaced patch is not wrong")
	}
	w.Play(2)
	if !w.Done() || w.Reward(truth) != 0 || len(w.Legal(nil)) != 0 {
		t.Fatal("wrong complete state")
	}
	s.Play(2)
	s.Play(1)
	if !s.Done() || s.Reward(truth) != 1 || !slices.Equal(s.Cells(), truth) {
		t.Fatalf("solved state: reward %v, cells %v", s.Reward(truth), s.Cells())
	}
	defer func() {
		if recover() == nil {
			t.Fatal("playing in a full cell did not panic")
		}
	}()
	s2 := NewState([]int{0, 1})
	s2.Play(0)
	s2.Play(0)
}

// oracle values a state 1 when it is correct so far, 0 otherwise, with
// uniform priors: the search alone must find the solution.
type oracle struct{ truth []int }

func (o oracle) Priors(states []*State) ([][]float64, error) {
	out := make([][]float64, len(states))
	for i, s := range states {
		out[i] = make([]float64, len(s.At))
		for c, p := range s.At {
			if p < 0 {
				out[i][c] = 1
			}
		}
	}
	return out, nil
}

func (o oracle) Values(states []*State) ([]float64, error) {
	out := make([]float64, len(states))
	for i, s := range states {
		out[i] = ValueCorrect.Target(s, o.truth)
	}
	return out, nil
}

func TestMCTSOracleSolves(t *testing.T) {
	for _, grid := range []int{3, 4} {
		pz := &Puzzle{Geometry: Geometry{Grid: grid, Patch: 40, Gap: 4}}
		rng := rand.New(rand.NewPCG(uint64(grid), 1))
		pz.Truth = rng.Perm(grid * grid)
		for _, opts := range []Options{
			{Sims: 30},
			{Sims: 30, Backup: MaxBackup, Choice: ByValue, Batch: 4},
			{Sims: 20, Batch: 1},
		} {
			res, err := Search(context.Background(), oracle{pz.Truth}, pz, opts)
			if err != nil {
				t.Fatal(err)
			}
			if acc := pz.Score(res.Cells); !acc.Perfect || res.Value != 1 {
				t.Fatalf("%dx%d %+v: %+v, value %v", grid, grid, opts, acc, res.Value)
			}
			if res.Evaluations == 0 || res.Batches == 0 || res.Batches > res.Evaluations {
				t.Fatalf("evaluations %d in %d batches", res.Evaluations, res.Batches)
			}
		}
	}
}

func TestGreedyWithOracle(t *testing.T) {
	pz := &Puzzle{Geometry: Geometry{Grid: 3, Patch: 40, Gap: 4}, Truth: []int{4, 0, 8, 1, 7, 2, 6, 3, 5}}
	// Greedy V with a perfect value solves; greedy P with uniform priors
	// puts every patch in the first empty cell.
	res, err := searchWith(context.Background(), oracle{pz.Truth}, pz, Options{}, algoGreedyV)
	if err != nil || !pz.Score(res.Cells).Perfect {
		t.Fatalf("greedy-v: %v %v", res.Cells, err)
	}
	res, err = searchWith(context.Background(), oracle{pz.Truth}, pz, Options{}, algoGreedyP)
	if err != nil || !slices.Equal(res.Cells, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}) {
		t.Fatalf("greedy-p: %v %v", res.Cells, err)
	}
}

// saveAndLoad saves m with info to a new folder and loads it back.
func saveAndLoad(t *testing.T, m *Model, info map[string]string) (*Model, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	if err := m.Save(dir, info); err != nil {
		t.Fatal(err)
	}
	back, binfo, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return back, binfo
}

// shippedModel returns the model shipped with the package (Default).
func shippedModel(t testing.TB) *Model {
	t.Helper()
	m, _, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func loadTestImage(t testing.TB, name string) image.Image {
	img, err := imageio.Load("testdata/"+name, imageio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return img.Pix
}

func TestShippedModelSolves(t *testing.T) {
	m, info, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if info["recipe"] == "" {
		t.Fatal("the shipped model does not say how it was trained")
	}
	if err := m.Fits(Geometry{}.Defaults()); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, name := range []string{"kodak03.png", "kodak23.png"} {
		pz := Centre(loadTestImage(t, name), Geometry{}, 1)
		res, err := Solve(ctx, m, pz, Options{Sims: 50, Reward: GroundTruth, Attempts: 3})
		if err != nil {
			t.Fatal(err)
		}
		if acc := pz.Score(res.Cells); !acc.Perfect {
			t.Errorf("%s: %+v with the ground-truth reward", name, acc)
		}
	}
}

func TestSameSeedSameResult(t *testing.T) {
	m := shippedModel(t)
	img := loadTestImage(t, "kodak03.png")
	run := func() Result {
		pz := Random(img, Geometry{}, rand.New(rand.NewPCG(5, 6)))
		res, err := Solve(context.Background(), m, pz, Options{Sims: 20, Attempts: 3, Seed: 9})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(), run()
	if !slices.Equal(a.Cells, b.Cells) || a.Value != b.Value || a.Attempt != b.Attempt || a.Evaluations != b.Evaluations {
		t.Fatalf("two runs differ: %+v and %+v", a, b)
	}
}

func TestCancelledReturnsError(t *testing.T) {
	m := shippedModel(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pz := Centre(loadTestImage(t, "kodak03.png"), Geometry{}, 1)
	if _, err := Solve(ctx, m, pz, Options{}); err == nil {
		t.Fatal("a cancelled search returned no error")
	}
}

// TestReadPuzzleFile: an image file becomes a puzzle with its truth; a
// missing file gives the read error; a file that is no image names its
// path.
func TestReadPuzzleFile(t *testing.T) {
	g := Geometry{}.Defaults()
	pz, err := ReadPuzzleFile("testdata/kodak03.png", g, 1)
	if err != nil || len(pz.Patches) != g.Cells() || pz.Truth == nil {
		t.Fatalf("image: %v", err)
	}
	if _, err := ReadPuzzleFile("testdata/none.png", g, 1); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := ReadPuzzleFile("neural_test.go", g, 1); err == nil || !strings.HasPrefix(err.Error(), "neural_test.go: ") {
		t.Errorf("not an image: %v", err)
	}
}

package bag

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"tessera/imageio"
	"tessera/internal/jigsawtest"
	"tessera/jigsaw"
	"tessera/jigsaw/ga"
)

// The shared test helpers (internal/jigsawtest).
var (
	mitDir     = jigsawtest.MITDir
	grid       = jigsawtest.Grid
	testImages = jigsawtest.Images
	synthetic  = jigsawtest.Synthetic
)

// gaBag is the genetic solver on mixed bags, as the command line's ga:
// each picture solved by s, mended with a quarter of its generations.
func gaBag(s ga.Solver) Solver {
	m := s
	m.Gens = max(cmp.Or(s.Gens, ga.DefaultGenerations), 0) / 4
	if m.Gens == 0 {
		m.Gens = -1 // none
	}
	return Solver{Solver: s, Mend: m}
}

// small keeps the unit tests fast.
var small = gaBag(ga.Solver{Pop: 60, Gens: 15})

// TestMixedBag: two pictures in one bag come out as two perfect pictures,
// whether the solver is told how many or finds it; a single picture of
// unknown count comes out as one.
func TestMixedBag(t *testing.T) {
	grids := []*jigsaw.Grid{grid(t, testImages[0]), grid(t, testImages[1])}
	for _, rotate := range []bool{false, true} {
		for _, images := range []int{0, 2} {
			pz, truth := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Rotate: rotate, Seed: 11})
			res, err := small.Solve(context.Background(), &jigsaw.Problem{Puzzle: pz, Images: images})
			if err != nil {
				t.Fatal(err)
			}
			acc, err := jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !acc.Perfect || res.Placement.Images != 2 || acc.Images[0].Output == acc.Images[1].Output || len(res.Pictures) != 2 {
				t.Errorf("rotate %v, images %d: %d outputs, %+v", rotate, images, res.Placement.Images, acc)
			}
		}
	}
	pz, truth := jigsaw.Scramble(grids[:1], jigsaw.ScrambleOptions{Rotate: true, Seed: 3})
	res, err := small.Solve(context.Background(), &jigsaw.Problem{Puzzle: pz})
	if err != nil {
		t.Fatal(err)
	}
	if acc, _ := jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{}); !acc.Perfect || res.Placement.Images != 1 {
		t.Errorf("one picture of unknown count: %d outputs, %v", res.Placement.Images, acc)
	}
}

// TestCountPicturesMIT: bags of 4 MIT images (Type 2) hold 4 pictures,
// single images 1; the segments (splitSegments) do not overrule it.
func TestCountPicturesMIT(t *testing.T) {
	dir := mitDir(t)
	if testing.Short() {
		t.Skip("short")
	}
	for _, bag := range [][]int{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}, {17, 18, 19, 20}, {1}, {4}, {13}} {
		var grids []*jigsaw.Grid
		for _, i := range bag {
			grids = append(grids, grid(t, fmt.Sprintf("%s/%d.png", dir, i)))
		}
		pz, _ := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Rotate: true, Seed: 1})
		c, err := jigsaw.NewCompat(context.Background(), pz, jigsaw.CompatOptions{})
		if err != nil {
			t.Fatal(err)
		}
		k, split, err := countPictures(context.Background(), pz, c)
		if err != nil || k != len(bag) || (k > 1) != (split != nil && split.Images == k) {
			t.Errorf("images %v: counted %d (%v)", bag, k, err)
		}
		if sk, labels := splitSegments(c, k); sk != k || labels != nil {
			t.Errorf("images %v: the segments count %d against %d", bag, sk, k)
		}
	}
}

// TestRelabelCores: the cores of best-buddy loops lie in one picture each;
// a split that cuts a picture in two is mended by moving its core whole to
// the part holding most of it, and a relabelling that would empty a part
// is refused.
func TestRelabelCores(t *testing.T) {
	grids := []*jigsaw.Grid{synthetic(10, 14, 28, 5), synthetic(9, 12, 28, 6)}
	pz, truth := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Rotate: true, Seed: 3})
	c, err := jigsaw.NewCompat(context.Background(), pz, jigsaw.CompatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	root := loopCores(c)
	size := map[int32]int{}
	for p, r := range root {
		size[r]++
		if truth.Pieces[p].Image != truth.Pieces[r].Image {
			t.Fatalf("piece %d (picture %d) in the core of piece %d (picture %d)", p, truth.Pieces[p].Image, r, truth.Pieces[r].Image)
		}
	}
	largest := map[int]int{}
	for r, s := range size {
		largest[truth.Pieces[r].Image] = max(largest[truth.Pieces[r].Image], s)
	}
	if largest[0] < 10*14*9/10 || largest[1] < 9*12*9/10 {
		t.Fatalf("largest cores %v: want most of each picture", largest)
	}
	// picture 0's right six columns wrongly with picture 1 in part 1
	labels := make([]int, len(pz.Pieces))
	for p, o := range truth.Pieces {
		if o.Image == 1 || o.Col >= 8 {
			labels[p] = 1
		}
	}
	changed := relabelCores(c, labels, 2)
	if !reflect.DeepEqual(changed, []bool{true, true}) {
		t.Errorf("changed %v", changed)
	}
	wrong := 0
	for p, o := range truth.Pieces {
		if labels[p] != o.Image {
			wrong++
		}
	}
	if wrong > 10*14-largest[0] {
		t.Errorf("%d pieces still in the wrong part", wrong)
	}
	// a third part of three pieces of picture 1's largest core would empty
	var core1 int32 = -1
	for r, s := range size {
		if truth.Pieces[r].Image == 1 && s == largest[1] {
			core1 = r
		}
	}
	moved := 0
	for p, o := range truth.Pieces {
		labels[p] = o.Image
		if root[p] == core1 && moved < 3 {
			labels[p] = 2
			moved++
		}
	}
	before := slices.Clone(labels)
	if changed := relabelCores(c, labels, 3); changed != nil || !slices.Equal(labels, before) {
		t.Errorf("a part emptied: changed %v", changed)
	}
}

// TestRepair: a solved bag in which one picture's part took the other's
// top two rows (as a strip above its own top row) is mended: both parts
// become their rectangles, perfect. A perfect bag is left alone.
func TestRepair(t *testing.T) {
	grids := []*jigsaw.Grid{synthetic(10, 14, 28, 7), synthetic(9, 12, 28, 8)}
	pz, truth := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Rotate: true, Seed: 5})
	c, err := jigsaw.NewCompat(context.Background(), pz, jigsaw.CompatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sv := &bagger{s: Solver{Solver: ga.Solver{Pop: 60, Gens: 15, Elite: 4, Workers: 2, Seed: 1}, Mend: ga.Solver{Pop: 60, Gens: 15 / 4, Elite: 4, Workers: 2, Seed: 1}}, p: &jigsaw.Problem{}}
	good := truth.Placement()
	res := jigsaw.Result{Placement: good, Pictures: make([]jigsaw.Picture, 2)}
	if err := sv.repair(context.Background(), pz, c, &res); err != nil || res.Placement != good {
		t.Fatalf("a perfect bag changed (%v)", err)
	}
	bad := &jigsaw.Placement{Images: 2}
	for _, q := range good.Pieces {
		if q.Image == 1 && q.Row < 2 {
			q.Image, q.Row = 0, q.Row-2 // above picture 0's top row
		}
		bad.Pieces = append(bad.Pieces, q)
	}
	bad.Normalize()
	if acc, _ := jigsaw.Score(truth, bad, jigsaw.ScoreOptions{}); acc.Perfect {
		t.Fatal("the damaged bag is perfect")
	}
	res = jigsaw.Result{Placement: bad, Pictures: make([]jigsaw.Picture, 2)}
	if err := sv.repair(context.Background(), pz, c, &res); err != nil {
		t.Fatal(err)
	}
	if acc, _ := jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{}); !acc.Perfect {
		t.Errorf("repaired: %v", acc)
	}
}

// TestRepairMIT: in the bag of MIT pictures 9 to 12, picture 10's grey
// sky joins picture 11's part as a strip beside it; mending puts it back
// and every picture comes out perfect (98.7% neighbour accuracy without).
func TestRepairMIT(t *testing.T) {
	dir := mitDir(t)
	if testing.Short() {
		t.Skip("short")
	}
	var grids []*jigsaw.Grid
	for i := 9; i <= 12; i++ {
		grids = append(grids, grid(t, fmt.Sprintf("%s/%d.png", dir, i)))
	}
	pz, truth := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Rotate: true, Seed: 1})
	res, err := gaBag(ga.Solver{Seed: 1}).Solve(context.Background(), &jigsaw.Problem{Puzzle: pz})
	if err != nil {
		t.Fatal(err)
	}
	if acc, _ := jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{}); !acc.Perfect {
		t.Errorf("%v", acc)
	}
}

// TestRepairKeepsPlacementsValid: on bags damaged at random (pieces moved
// to random cells of random pictures, some far out), repair always leaves a
// valid placement of every piece, and never one less fit than it found.
func TestRepairKeepsPlacementsValid(t *testing.T) {
	grids := []*jigsaw.Grid{synthetic(6, 8, 16, 1), synthetic(5, 7, 16, 2), synthetic(4, 9, 16, 3)}
	pz, truth := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Rotate: true, Seed: 2})
	c, err := jigsaw.NewCompat(context.Background(), pz, jigsaw.CompatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sv := &bagger{s: Solver{Solver: ga.Solver{Pop: 20, Gens: 4, Elite: 2, Workers: 2, Seed: 1}, Mend: ga.Solver{Pop: 20, Gens: 4 / 4, Elite: 2, Workers: 2, Seed: 1}}, p: &jigsaw.Problem{}}
	none := sv.noneCost(c)
	mended, perfect := 0, 0
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 9))
		p := &jigsaw.Placement{Images: 3}
		used := map[[3]int]bool{}
		for _, q := range truth.Placement().Pieces {
			if rng.IntN(12) == 0 {
				span := 12
				if rng.IntN(5) == 0 {
					span = 60
				}
				for {
					q.Image, q.Row, q.Col, q.Rotation = rng.IntN(3), rng.IntN(span)-span/4, rng.IntN(span)-span/4, jigsaw.Rotation(rng.IntN(4))
					if !used[[3]int{q.Image, q.Row, q.Col}] {
						break
					}
				}
			}
			for used[[3]int{q.Image, q.Row, q.Col}] { // a moved piece took this cell
				q.Col++
			}
			used[[3]int{q.Image, q.Row, q.Col}] = true
			p.Pieces = append(p.Pieces, q)
		}
		p.Normalize()
		res := jigsaw.Result{Placement: p, Pictures: make([]jigsaw.Picture, 3)}
		if err := sv.repair(context.Background(), pz, c, &res); err != nil {
			t.Fatal(err)
		}
		if err := res.Placement.Validate(len(pz.Pieces), true); err != nil || len(res.Placement.Pieces) != len(pz.Pieces) {
			t.Fatalf("seed %d: %v (%d of %d pieces)", seed, err, len(res.Placement.Pieces), len(pz.Pieces))
		}
		if res.Placement != p {
			mended++
			if acc, _ := jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{}); acc.Perfect {
				perfect++
			}
		}
		if bagFitness(c.Fit(res.Placement), len(pz.Pieces), none) > bagFitness(c.Fit(p), len(pz.Pieces), none) {
			t.Errorf("seed %d: repair made the bag less fit", seed)
		}
	}
	t.Logf("%d of 20 bags mended, %d of them perfect", mended, perfect)
	if mended < 10 {
		t.Errorf("only %d of 20 lightly damaged bags mended", mended)
	}
}

// The web page's bag of the built-in sunset and stained glass: the
// sunset's featureless sea used to come back strewn over a canvas with
// holes (issue 41, item 5); square solves it again as a whole picture, so
// that both come back as 8x8 rectangles (Type 2, seed 1).
func TestSquareSunset(t *testing.T) {
	var grids []*jigsaw.Grid
	for _, name := range []string{"sunset", "glass"} {
		img, err := imageio.Load("../../internal/web/static/pictures/"+name+".png", imageio.Options{})
		if err != nil {
			t.Skip(err)
		}
		g, err := jigsaw.Cut(img.Pix, 60, jigsaw.CutOptions{Depth: img.Depth})
		if err != nil {
			t.Fatal(err)
		}
		grids = append(grids, g)
	}
	pz, truth := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Rotate: true, Seed: 1})
	s := Solver{Solver: ga.Solver{Seed: 1}}
	res, err := s.Solve(context.Background(), &jigsaw.Problem{Puzzle: pz, Images: 2})
	if err != nil {
		t.Fatal(err)
	}
	for img := range res.Placement.Images {
		if b := res.Placement.Bounds(img); b.Dx() != 8 || b.Dy() != 8 {
			t.Errorf("picture %d is %dx%d, want 8x8", img, b.Dy(), b.Dx())
		}
	}
	acc, _ := jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{})
	t.Log(acc)
}

// TestSplitSegments: told one picture, the segments of a bag of three
// count three and split the pieces exactly by picture.
func TestSplitSegments(t *testing.T) {
	grids := []*jigsaw.Grid{synthetic(12, 16, 28, 1), synthetic(14, 12, 28, 2), synthetic(11, 13, 28, 3)}
	pz, truth := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Rotate: true, Seed: 4})
	c, err := jigsaw.NewCompat(context.Background(), pz, jigsaw.CompatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	k, labels := splitSegments(c, 1)
	if k != 3 || len(labels) != len(pz.Pieces) {
		t.Fatalf("counted %d, %d labels", k, len(labels))
	}
	picture := map[int]int{} // label -> source picture
	for p, l := range labels {
		img, ok := picture[l]
		if !ok {
			picture[l], img = truth.Pieces[p].Image, truth.Pieces[p].Image
		}
		if img != truth.Pieces[p].Image {
			t.Fatalf("piece %d of picture %d labelled with picture %d", p, truth.Pieces[p].Image, img)
		}
	}
	if len(picture) != 3 {
		t.Errorf("labels %v", picture)
	}
	if k, labels := splitSegments(c, 3); k != 3 || labels != nil {
		t.Errorf("told 3: %d, %v", k, labels != nil)
	}
}

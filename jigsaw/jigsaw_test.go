package jigsaw

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"tessera/imageio"
)

// loadGrid cuts a test image into 28-pixel pieces.
func loadGrid(t testing.TB, name string) *Grid {
	t.Helper()
	g, err := CutFile("testdata/"+name, 28, CutOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g.Name = name
	return g
}

// noise returns a w x h image of random colours.
func noise(w, h int, seed uint64) *image.NRGBA64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	m := image.NewNRGBA64(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			m.SetNRGBA64(x, y, color.NRGBA64{uint16(rng.Uint32()), uint16(rng.Uint32()), uint16(rng.Uint32()), 0xffff})
		}
	}
	return m
}

func TestCut(t *testing.T) {
	m := noise(30, 21, 1)
	g, err := Cut(m, 7, CutOptions{Crop: true})
	if err != nil {
		t.Fatal(err)
	}
	// 30 = 4*7 + 2: one column off each side; 21 = 3*7
	if g.Rows != 3 || g.Cols != 4 || g.Crop != image.Rect(1, 0, 29, 21) || g.Depth != 16 {
		t.Fatalf("grid %dx%d crop %v depth %d", g.Rows, g.Cols, g.Crop, g.Depth)
	}
	p := g.Pieces[1*4+2] // row 1, column 2: pixels from (1+14, 7)
	for y := range 7 {
		for x := range 7 {
			c := m.NRGBA64At(1+14+x, 7+y)
			if r, gg, b := p.RGB(x, y); r != c.R || gg != c.G || b != c.B {
				t.Fatalf("pixel (%d,%d) of piece (1,2) wrong", x, y)
			}
		}
	}
	if _, err := Cut(m, 7, CutOptions{}); !errors.Is(err, ErrNotDivisible) || !strings.Contains(err.Error(), "30x21") {
		t.Errorf("not divisible: %v", err)
	}
	if _, err := Cut(m, 22, CutOptions{Crop: true}); !errors.Is(err, ErrPieceSize) || !strings.Contains(err.Error(), "do not fit") {
		t.Errorf("piece larger than the image: %v", err)
	}
	if _, err := Cut(m, 1, CutOptions{}); !errors.Is(err, ErrPieceSize) {
		t.Errorf("1-pixel pieces: %v", err)
	}
}

func TestRotate(t *testing.T) {
	g, _ := Cut(noise(5, 5, 2), 5, CutOptions{})
	p := g.Pieces[0]
	q := p.Rotate(1)
	// turning clockwise puts the top-left pixel at the top-right
	if r, _, _ := q.RGB(4, 0); r != p.Pix[0] {
		t.Fatal("Rotate(1) is not clockwise")
	}
	if !slices.Equal(p.Rotate(1).Rotate(3).Pix, p.Pix) || !slices.Equal(q.Rotate(1).Pix, p.Rotate(2).Pix) {
		t.Fatal("rotations do not compose")
	}
}

func TestScrambleTruthScoresPerfect(t *testing.T) {
	grids := []*Grid{loadGrid(t, "mit5-crop.png"), loadGrid(t, "bgu10-crop.png")}
	for _, rotate := range []bool{false, true} {
		for _, bag := range [][]*Grid{grids[:1], grids} {
			pz, truth := Scramble(bag, ScrambleOptions{Rotate: rotate, Seed: 7})
			if len(pz.Pieces) != 48*len(bag) || pz.Rotated != rotate {
				t.Fatalf("%d pieces", len(pz.Pieces))
			}
			// the truth really describes the scramble
			for k, o := range truth.Pieces {
				want := bag[o.Image].Pieces[o.Row*8+o.Col].Rotate(o.Rotation)
				if !slices.Equal(pz.Pieces[k].Pix, want.Pix) {
					t.Fatalf("piece %d is not its origin turned by %d", k, o.Rotation)
				}
			}
			for _, abs := range []bool{false, true} {
				acc, err := Score(truth, truth.Placement(), ScoreOptions{Absolute: abs})
				if err != nil {
					t.Fatal(err)
				}
				if acc.Direct != 1 || acc.Neighbor != 1 || !acc.Perfect || len(acc.Images) != len(bag) {
					t.Fatalf("rotate %v bag %d absolute %v: %v", rotate, len(bag), abs, acc)
				}
			}
		}
	}
}

// turn rotates a whole output image by rho quarter turns and shifts it.
func turn(p *Placement, rho Rotation, dr, dc int) *Placement {
	q := &Placement{Images: p.Images}
	for _, x := range p.Pieces {
		x.Row, x.Col = RotateCell(x.Row, x.Col, rho)
		x.Row += dr
		x.Col += dc
		x.Rotation = x.Rotation.Add(rho)
		q.Pieces = append(q.Pieces, x)
	}
	return q
}

func TestScoreInvariantToRotationAndShift(t *testing.T) {
	pz, truth := Scramble([]*Grid{loadGrid(t, "mit5-crop.png")}, ScrambleOptions{Rotate: true, Seed: 3})
	_ = pz
	for rho := range Rotation(4) {
		p := turn(truth.Placement(), rho, 5, -9)
		acc, err := Score(truth, p, ScoreOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if acc.Direct != 1 || acc.Neighbor != 1 || !acc.Perfect {
			t.Fatalf("turned %d: %v", rho, acc)
		}
		abs, _ := Score(truth, p, ScoreOptions{Absolute: true})
		if abs.Direct != 0 || abs.Neighbor != 1 {
			t.Fatalf("absolute, turned %d and shifted: %v", rho, abs)
		}
		p.Normalize()
		if rho == 0 {
			if abs, _ := Score(truth, p, ScoreOptions{Absolute: true}); !abs.Perfect {
				t.Fatalf("normalised: %v", abs)
			}
		}
	}
}

// TestScoreCounts checks the measures on a 2x3 image with two pieces
// swapped: 4 of 6 pieces right; of the 7 adjacencies, those touching the
// swapped pieces are lost.
func TestScoreCounts(t *testing.T) {
	truth := &Truth{PieceSize: 2, Images: []TruthImage{{Name: "a", Rows: 2, Cols: 3}}}
	for k := range 6 {
		truth.Pieces = append(truth.Pieces, Origin{Row: k / 3, Col: k % 3})
	}
	p := truth.Placement()
	// swap cells (0,0) and (1,2): pieces 0 and 5
	p.Pieces[0].Row, p.Pieces[0].Col, p.Pieces[5].Row, p.Pieces[5].Col = 1, 2, 0, 0
	acc, err := Score(truth, p, ScoreOptions{Absolute: true})
	if err != nil {
		t.Fatal(err)
	}
	// adjacencies: 0-1, 1-2, 3-4, 4-5 (rows), 0-3, 1-4, 2-5 (columns); the
	// ones without pieces 0 and 5: 1-2, 3-4, 1-4
	s := acc.Images[0]
	if s.Correct != 4 || s.Adjacencies != 7 || s.CorrectAdjacencies != 3 || s.Perfect {
		t.Fatalf("%+v", s)
	}
	// one piece missing: direct 5/6... here 4/6 minus none, neighbours drop
	p.Pieces = p.Pieces[1:]
	acc, _ = Score(truth, p, ScoreOptions{Absolute: true})
	if acc.Images[0].Correct != 4 || acc.Images[0].CorrectAdjacencies != 3 {
		t.Fatalf("missing piece: %+v", acc.Images[0])
	}
}

func TestMixedBagScoresPerImage(t *testing.T) {
	grids := []*Grid{loadGrid(t, "mit5-crop.png"), loadGrid(t, "bgu10-crop.png")}
	_, truth := Scramble(grids, ScrambleOptions{Seed: 1})
	p := truth.Placement()
	// ruin image 1: put all its pieces in one row of their own
	i := 0
	for k := range p.Pieces {
		if truth.Pieces[p.Pieces[k].Piece].Image == 1 {
			p.Pieces[k].Row, p.Pieces[k].Col = 100, 2*i
			i++
		}
	}
	acc, err := Score(truth, p, ScoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !acc.Images[0].Perfect || acc.Images[1].Neighbor != 0 || acc.Images[1].Correct != 1 || acc.Perfect {
		t.Fatalf("%+v", acc)
	}
	if acc.Direct != 49.0/96 {
		t.Fatalf("overall direct %v", acc.Direct)
	}
}

func TestSheetRoundTrip(t *testing.T) {
	for _, name := range []string{"mit5-crop.png", "bgu10-crop.png"} {
		g := loadGrid(t, name)
		pz, _ := Scramble([]*Grid{g, g}, ScrambleOptions{Rotate: true, Seed: 2}) // 96 pieces: 10x10 sheet, 4 cells empty
		var b bytes.Buffer
		if err := WriteSheet(&b, pz, 0); err != nil {
			t.Fatal(err)
		}
		if SheetPieceSize(b.Bytes()) != 28 {
			t.Fatalf("piece size not recorded")
		}
		back, err := ReadSheet(bytes.NewReader(b.Bytes()), SheetOptions{Rotated: true})
		if err != nil {
			t.Fatal(err)
		}
		if back.PieceSize != 28 || back.Depth != pz.Depth || len(back.Pieces) != len(pz.Pieces) || !back.Rotated {
			t.Fatalf("%s: read %d pieces of %d px, depth %d (wrote %d)", name, len(back.Pieces), back.PieceSize, back.Depth, pz.Depth)
		}
		for k := range pz.Pieces {
			if !slices.Equal(back.Pieces[k].Pix, pz.Pieces[k].Pix) {
				t.Fatalf("%s: piece %d differs after the round trip", name, k)
			}
		}
		m, err := png.Decode(bytes.NewReader(b.Bytes()))
		if err != nil || m.Bounds().Dx() != 280 || m.Bounds().Dy() != 280 {
			t.Fatalf("sheet %v %v", m.Bounds(), err)
		}
	}
}

func TestReadSheetErrors(t *testing.T) {
	encode := func(m image.Image) []byte {
		var b bytes.Buffer
		png.Encode(&b, m)
		return b.Bytes()
	}
	good := encode(noise(56, 28, 3))
	cases := []struct {
		name string
		data []byte
		opts SheetOptions
		want error
		text string
	}{
		{"no size", good, SheetOptions{}, ErrPieceSize, "give it"},
		{"piece larger than the sheet", good, SheetOptions{PieceSize: 30}, ErrPieceSize, "on a 56x28 sheet"},
		{"not a multiple", good, SheetOptions{PieceSize: 14 + 5}, ErrNotDivisible, "not a multiple of 19"},
		{"corrupt", good[:40], SheetOptions{PieceSize: 28}, imageio.ErrCorrupt, "corrupt"},
		{"empty file", nil, SheetOptions{PieceSize: 28}, imageio.ErrEmpty, "empty"},
		{"zero pieces", encode(image.NewNRGBA(image.Rect(0, 0, 56, 28))), SheetOptions{PieceSize: 28}, ErrNoPieces, "transparent"},
	}
	for _, c := range cases {
		_, err := ReadSheet(bytes.NewReader(c.data), c.opts)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.text) || !strings.HasPrefix(err.Error(), "jigsaw: ") {
			t.Errorf("%s: %v, want %v mentioning %q", c.name, err, c.want, c.text)
		}
	}
	if _, err := NewCompat(context.Background(), &Puzzle{PieceSize: 28}, CompatOptions{}); !errors.Is(err, ErrNoPieces) {
		t.Errorf("compat of no pieces: %v", err)
	}
}

func TestTruthJSON(t *testing.T) {
	_, truth := Scramble([]*Grid{loadGrid(t, "mit5-crop.png")}, ScrambleOptions{Rotate: true, Seed: 4})
	var b bytes.Buffer
	if err := truth.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	back, err := ReadTruth(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Pieces) != 48 || back.Pieces[5] != truth.Pieces[5] || back.Images[0] != truth.Images[0] {
		t.Fatal("truth changed in the round trip")
	}
	bad := []struct{ json, text string }{
		{`{"piece_size": 28, "images": [{"rows": 1, "cols": 2}], "pieces": [{"row": 0, "col": 0}, {"row": 0, "col": 0}]}`, "both come from"},
		{`{"piece_size": 28, "images": [{"rows": 1, "cols": 2}], "pieces": [{"row": 0, "col": 0}]}`, "2 cells but there are 1"},
		{`{"piece_size": 28, "images": [{"rows": 1, "cols": 1}], "pieces": [{"row": 0, "col": 0, "rotation": 1}]}`, "rotations is false"},
		{`{"piece_size": 28, "images": [{"rows": 1, "cols": 1}], "pieces": [{"image": 3}]}`, "out of range"},
		{"{\"piece_size\": 28,\n \"pieces\": [}", "line 2"},
		{`{"pieces": []}`, "no pieces"},
		{`{"piece_size": 28, "images": [{"rows": 1, "cols": 1}], "pieces": [{}], "extra": 1}`, "unknown field"},
		{``, "empty"},
	}
	for _, c := range bad {
		if _, err := ReadTruth(strings.NewReader(c.json)); err == nil || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%s: %v, want %q", c.json, err, c.text)
		}
	}
}

func TestPlacementJSON(t *testing.T) {
	_, truth := Scramble([]*Grid{loadGrid(t, "mit5-crop.png")}, ScrambleOptions{Rotate: true, Seed: 4})
	p := turn(truth.Placement(), 1, -3, 2)
	var b bytes.Buffer
	if err := p.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	back, err := ReadPlacement(bytes.NewReader(b.Bytes()), 48, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Pieces) != 48 || back.Pieces[7] != p.Pieces[7] {
		t.Fatal("placement changed in the round trip")
	}
	if _, err := ReadPlacement(bytes.NewReader(b.Bytes()), 48, false); err == nil || !strings.Contains(err.Error(), "rotated") {
		t.Errorf("rotations in a Type 1 puzzle: %v", err)
	}
	if _, err := ReadPlacement(bytes.NewReader(b.Bytes()), 40, true); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("too few pieces: %v", err)
	}
	dup := `{"images": 1, "placements": [{"piece": 0}, {"piece": 1}]}`
	if _, err := ReadPlacement(strings.NewReader(dup), 2, false); err == nil || !strings.Contains(err.Error(), "share") {
		t.Errorf("two pieces in a cell: %v", err)
	}
}

func TestRenderPlacesPieces(t *testing.T) {
	g := loadGrid(t, "bgu10-crop.png")
	pz, truth := Scramble([]*Grid{g}, ScrambleOptions{Rotate: true, Seed: 5})
	p := truth.Placement()
	m := Render(pz, p, 0)
	src, _ := imageio.Load("testdata/bgu10-crop.png", imageio.Options{})
	if m.Bounds() != src.Pix.Bounds() {
		t.Fatalf("bounds %v", m.Bounds())
	}
	for y := 0; y < 168; y += 5 {
		for x := 0; x < 224; x += 7 {
			r, gg, b, _ := m.At(x, y).RGBA()
			c := src.Pix.NRGBA64At(x, y)
			if uint16(r) != c.R || uint16(gg) != c.G || uint16(b) != c.B {
				t.Fatalf("(%d,%d) differs from the source", x, y)
			}
		}
	}
}

// refDissimilarity computes D directly from the pixels of the pieces as
// they are placed: piece i turned by ri on the left of piece j turned by
// rj (so i's side SideAt(Right, ri) touches j's side SideAt(Left, rj)).
func refDissimilarity(metric Metric, pred float64, pi, pj Piece, ri, rj Rotation) float64 {
	a, b := pi.Rotate(ri), pj.Rotate(rj)
	n := a.Size
	lab := func(p Piece, x, y int) [3]float64 {
		r, g, bl := p.RGB(x, y)
		L, A, B := imageio.Lab16(r, g, bl)
		return [3]float64{float64(L), float64(A), float64(B)}
	}
	if metric == LabSSD {
		s := 0.0
		for y := range n {
			u, v := lab(a, n-1, y), lab(b, 0, y)
			for ch := range 3 {
				s += (u[ch] - v[ch]) * (u[ch] - v[ch])
			}
		}
		return math.Sqrt(s)
	}
	// Gallagher: sum over both directions of the Mahalanobis distance of
	// the gradient across the joint from the gradients inside the piece.
	mgc := func(inner, outer, across func(y int) [3]float64) float64 {
		var mu [3]float64
		grads := make([][3]float64, n)
		for y := range n {
			o, in := outer(y), inner(y)
			for ch := range 3 {
				grads[y][ch] = o[ch] - in[ch]
				mu[ch] += grads[y][ch] / float64(n)
			}
		}
		var cov [3][3]float64
		dummies := [][3]float64{{0, 0, 0}, {1, 1, 1}, {-1, -1, -1}, {0, 0, 1}, {0, 1, 0}, {1, 0, 0}, {-1, 0, 0}, {0, -1, 0}, {0, 0, -1}}
		for y := range n {
			for p := range 3 {
				for q := range 3 {
					cov[p][q] += (grads[y][p] - mu[p]) * (grads[y][q] - mu[q])
				}
			}
		}
		for _, d := range dummies {
			for p := range 3 {
				for q := range 3 {
					cov[p][q] += d[p] * d[q]
				}
			}
		}
		for p := range 3 {
			for q := range 3 {
				cov[p][q] /= float64(n + 9 - 1)
			}
		}
		s := inverse3(cov)
		total := 0.0
		for y := range n {
			g := across(y)
			var d [3]float64
			for ch := range 3 {
				d[ch] = g[ch] - mu[ch]
			}
			for p := range 3 {
				for q := range 3 {
					total += d[p] * s[p][q] * d[q]
				}
			}
		}
		return total
	}
	sub := func(u, v [3]float64) [3]float64 { return [3]float64{u[0] - v[0], u[1] - v[1], u[2] - v[2]} }
	lr := mgc(func(y int) [3]float64 { return lab(a, n-2, y) }, func(y int) [3]float64 { return lab(a, n-1, y) },
		func(y int) [3]float64 { return sub(lab(b, 0, y), lab(a, n-1, y)) })
	rl := mgc(func(y int) [3]float64 { return lab(b, 1, y) }, func(y int) [3]float64 { return lab(b, 0, y) },
		func(y int) [3]float64 { return sub(lab(a, n-1, y), lab(b, 0, y)) })
	// the prediction term: each edge's pixels extrapolated across the
	// joint against the other edge's
	sq := 0.0
	for y := range n {
		a0, a1, b0, b1 := lab(a, n-1, y), lab(a, n-2, y), lab(b, 0, y), lab(b, 1, y)
		for ch := range 3 {
			u, v := 2*a0[ch]-a1[ch]-b0[ch], 2*b0[ch]-b1[ch]-a0[ch]
			sq += u*u + v*v
		}
	}
	return lr + rl + pred*sq
}

// TestCompatMatchesDefinition checks every pairing of a few pieces, in all
// rotations, against a direct computation of both metrics, MGC with and
// without the prediction term.
func TestCompatMatchesDefinition(t *testing.T) {
	g := loadGrid(t, "bgu10-crop.png")
	pz := &Puzzle{PieceSize: 28, Pieces: g.Pieces[:6], Rotated: true}
	for _, opts := range []CompatOptions{{Metric: MGC}, {Metric: MGC, Pred: PredWeight}, {Metric: MGC, Pred: 1}, {Metric: LabSSD}} {
		metric := opts.Metric
		c, err := NewCompat(context.Background(), pz, opts)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 6 {
			for j := range 6 {
				for ri := range Rotation(4) {
					for rj := range Rotation(4) {
						got := float64(c.D(i, SideAt(Right, ri), j, SideAt(Left, rj)))
						if i == j {
							if !math.IsInf(got, 1) {
								t.Fatalf("D of a piece with itself = %g", got)
							}
							continue
						}
						want := refDissimilarity(metric, opts.Pred, pz.Pieces[i], pz.Pieces[j], ri, rj)
						if math.Abs(got-want) > 1e-3*max(1, want) {
							t.Fatalf("%v: D(%d turned %d, %d turned %d) = %g, want %g", metric, i, ri, j, rj, got, want)
						}
					}
				}
			}
		}
	}
}

// TestCompatSparseAndWorkers checks that the candidate lists and D do not
// depend on the dense table or on the number of workers, and that the true
// neighbours are found.
func TestCompatSparseAndWorkers(t *testing.T) {
	grids := []*Grid{loadGrid(t, "mit5-crop.png"), loadGrid(t, "bgu10-crop.png")}
	for _, rotate := range []bool{false, true} {
		pz, truth := Scramble(grids, ScrambleOptions{Rotate: rotate, Seed: 9})
		dense, err := NewCompat(context.Background(), pz, CompatOptions{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		sparse, err := NewCompat(context.Background(), pz, CompatOptions{Workers: 3, MaxDenseBytes: -1, K: 5})
		if err != nil {
			t.Fatal(err)
		}
		if !dense.Dense() || sparse.Dense() || dense.Mean() != sparse.Mean() {
			t.Fatalf("dense %v sparse %v means %g %g", dense.Dense(), sparse.Dense(), dense.Mean(), sparse.Mean())
		}
		for i := range pz.Pieces {
			for a := range Side(4) {
				cd, cs := dense.Candidates(i, a), sparse.Candidates(i, a)
				if len(cs) != 5 || len(cd) != DefaultK {
					t.Fatalf("%d and %d candidates", len(cd), len(cs))
				}
				for k := range cs {
					if cs[k] != cd[k] || dense.D(i, a, int(cs[k].Piece), cs[k].Side) != cs[k].D || sparse.D(i, a, int(cs[k].Piece), cs[k].Side) != cs[k].D {
						t.Fatalf("candidate %d of (%d, %v) differs", k, i, a)
					}
				}
			}
		}
		// best buddies are mostly true neighbours on these textured crops
		pos := map[[3]int]int{}
		for k, o := range truth.Pieces {
			pos[[3]int{o.Image, o.Row, o.Col}] = k
		}
		bb, right := 0, 0
		for k, o := range truth.Pieces {
			for d := range Side(4) {
				a := SideAt(d, o.Rotation.Inverse())
				x, ok := dense.BestBuddy(k, a)
				if !ok {
					continue
				}
				bb++
				dr, dc := Offset(d)
				if nb, has := pos[[3]int{o.Image, o.Row + dr, o.Col + dc}]; has && int(x.Piece) == nb && x.Side == SideAt(d.Opposite(), truth.Pieces[nb].Rotation.Inverse()) {
					right++
				}
			}
		}
		if bb < 200 || float64(right) < 0.97*float64(bb) {
			t.Fatalf("rotate %v: %d best-buddy edges, %d true", rotate, bb, right)
		}
	}
}

// TestFit: the truth has a lower summed dissimilarity than the sheet's
// own order, and turning or shifting it changes nothing.
func TestFit(t *testing.T) {
	pz, truth := Scramble([]*Grid{loadGrid(t, "bgu10-crop.png")}, ScrambleOptions{Rotate: true, Seed: 8})
	c, err := NewCompat(context.Background(), pz, CompatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	right := c.Fit(truth.Placement())
	sheet := &Placement{Images: 1}
	for k := range pz.Pieces {
		sheet.Pieces = append(sheet.Pieces, Placed{Piece: k, Row: k / 8, Col: k % 8})
	}
	wrong := c.Fit(sheet)
	if right.Adjacencies != 82 || wrong.Adjacencies != 82 || right.Dissimilarity >= wrong.Dissimilarity/2 ||
		right.BestBuddyShare() < 0.9 || wrong.BestBuddies > 2 {
		t.Fatalf("truth %+v, sheet %+v", right, wrong)
	}
	turned := c.Fit(turn(truth.Placement(), 3, 2, 2))
	if turned.Adjacencies != right.Adjacencies || math.Abs(turned.Dissimilarity-right.Dissimilarity) > 1e-6*right.Dissimilarity || turned.BestBuddies != right.BestBuddies {
		t.Fatalf("turned %+v, upright %+v", turned, right)
	}
}

func TestCompatCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pz, _ := Scramble([]*Grid{loadGrid(t, "mit5-crop.png")}, ScrambleOptions{})
	if _, err := NewCompat(ctx, pz, CompatOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

func BenchmarkCompatType2MIT(b *testing.B) {
	img, err := imageio.Load("../../shared/data/jigsaw/mit432/1.png", imageio.Options{})
	if err != nil {
		b.Skip(err)
	}
	g, _ := Cut(img.Pix, 28, CutOptions{})
	pz, _ := Scramble([]*Grid{g}, ScrambleOptions{Rotate: true, Seed: 1})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewCompat(context.Background(), pz, CompatOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(16*432*431/2)*float64(b.N)/b.Elapsed().Seconds(), "pairings/s")
}

func FuzzReadSheet(f *testing.F) {
	var b bytes.Buffer
	pz, _ := Scramble([]*Grid{{Rows: 1, Cols: 2, PieceSize: 3, Pieces: []Piece{NewPiece(3), NewPiece(3)}}}, ScrambleOptions{})
	WriteSheet(&b, pz, 0)
	f.Add(b.Bytes(), 0)
	f.Add(b.Bytes(), 3)
	if data, err := os.ReadFile("testdata/bgu10-crop.png"); err == nil {
		f.Add(data, 28)
	}
	f.Fuzz(func(t *testing.T, data []byte, size int) {
		pz, err := ReadSheet(bytes.NewReader(data), SheetOptions{PieceSize: size % 64, Decode: imageio.Options{MaxPixels: 1 << 18}})
		if err != nil {
			return
		}
		if len(pz.Pieces) == 0 || pz.PieceSize < 2 {
			t.Fatalf("%d pieces of %d", len(pz.Pieces), pz.PieceSize)
		}
		if len(pz.Pieces) <= 256 { // NewCompat is quadratic
			if _, err := NewCompat(context.Background(), pz, CompatOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func FuzzReadTruth(f *testing.F) {
	f.Add([]byte(`{"piece_size": 28, "rotations": true, "images": [{"name": "a", "rows": 1, "cols": 2}], "pieces": [{"row": 0, "col": 1, "rotation": 3}, {"row": 0, "col": 0}]}`))
	f.Add([]byte(`{"images": [{"rows": 1, "cols": 1}], "pieces": [{"image": -1}]}`))
	f.Add([]byte(`{"piece_size": 2, "images": [{"name": "a", "rows": 1, "cols": 3}, {"name": "s", "rows": 2, "cols": 2, "stray": true}], "pieces": [{"row": 0, "col": 1}, {"image": 1, "row": 1, "col": 1}], "missing": 2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		truth, err := ReadTruth(bytes.NewReader(data))
		if err != nil {
			return
		}
		acc, err := Score(truth, truth.Placement(), ScoreOptions{})
		if err != nil || !acc.Perfect {
			t.Fatalf("truth does not score perfect: %v %v", acc, err)
		}
	})
}

func FuzzReadPlacement(f *testing.F) {
	f.Add([]byte(`{"images": 1, "placements": [{"piece": 1, "row": -4, "col": 7, "rotation": 2}, {"piece": 0, "row": -4, "col": 8}]}`))
	f.Add([]byte(`{"images": 1, "placements": [{"piece": 1, "row": 0, "col": 1}], "frames": [{"image": 0, "row": 0, "col": 0, "rows": 1, "cols": 3}]}`))
	truth := &Truth{Rotations: true, Images: []TruthImage{{Rows: 1, Cols: 2}}, Pieces: []Origin{{Col: 0}, {Col: 1, Rotation: 1}}}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadPlacement(bytes.NewReader(data), 2, true)
		if err != nil {
			return
		}
		acc, err := Score(truth, p, ScoreOptions{})
		if err != nil || acc.Direct < 0 || acc.Direct > 1 || acc.Neighbor < 0 || acc.Neighbor > 1 {
			t.Fatalf("%v %v", acc, err)
		}
	})
}

// TestMedianBestD: the median over all edges of their lowest D, computed
// from D itself over every pairing, and below the mean of all pairings
// on a real picture (true neighbours fit better than chance).
func TestMedianBestD(t *testing.T) {
	g := loadGrid(t, "mit5-crop.png")
	pz, _ := Scramble([]*Grid{g}, ScrambleOptions{Rotate: true, Seed: 2})
	c, err := NewCompat(context.Background(), pz, CompatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := len(pz.Pieces)
	var best []float64
	for i := range n {
		for a := range Side(4) {
			b := math.Inf(1)
			for j := range n {
				for s := range Side(4) {
					b = math.Min(b, float64(c.D(i, a, j, s)))
				}
			}
			best = append(best, b)
		}
	}
	slices.Sort(best)
	if got, want := float64(c.MedianBestD()), best[len(best)/2]; got != want || got >= c.Mean() {
		t.Errorf("MedianBestD %g, want %g (below the mean %g)", got, want, c.Mean())
	}
}

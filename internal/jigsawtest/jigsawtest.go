// Package jigsawtest holds the test helpers that the square-piece
// jigsaw solvers' packages (jigsaw/greedy, jigsaw/ga, jigsaw/bag) share:
// the test pictures of jigsaw/testdata cut into pieces, the shared MIT
// set, and smooth synthetic pictures. Only tests import it.
package jigsawtest

import (
	"errors"
	"image"
	"math"
	"math/rand/v2"
	"testing"

	"tessera/internal/datadir"
	"tessera/jigsaw"
)

// Images are the 8x6-piece crops of the MIT and BGU sets, as a package
// of jigsaw/ names them.
var Images = []string{"../testdata/mit5-crop.png", "../testdata/bgu10-crop.png"}

// MITDir returns the shared MIT set's folder, skipping the test without
// it.
func MITDir(t testing.TB) string {
	t.Helper()
	dir, err := datadir.Path("jigsaw", "mit432")
	if err != nil {
		t.Skip(err)
	}
	return dir
}

// Grid cuts the picture path into 28-pixel pieces, named path.
func Grid(t testing.TB, path string) *jigsaw.Grid {
	t.Helper()
	g, err := jigsaw.CutFile(path, 28, jigsaw.CutOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// Refuses checks that s refuses a puzzle of no pieces (jigsaw.ErrNoPieces)
// and pz with the compatibilities of another puzzle.
func Refuses(t *testing.T, s jigsaw.Solver, pz *jigsaw.Puzzle) {
	t.Helper()
	if _, err := s.Solve(t.Context(), &jigsaw.Problem{Puzzle: &jigsaw.Puzzle{PieceSize: 28}}); !errors.Is(err, jigsaw.ErrNoPieces) {
		t.Errorf("no pieces: %v", err)
	}
	other, _ := jigsaw.Scramble([]*jigsaw.Grid{Grid(t, Images[0])}, jigsaw.ScrambleOptions{Rotate: true})
	c, _ := jigsaw.NewCompat(t.Context(), other, jigsaw.CompatOptions{})
	if _, err := s.Solve(t.Context(), &jigsaw.Problem{Puzzle: pz, Compat: c}); err == nil {
		t.Error("compatibilities of another puzzle accepted")
	}
}

// Synthetic returns a rows x cols grid of size-pixel pieces cut from a
// smooth random picture (a sum of random waves drawn from seed), the
// kind of puzzle that MGC solves from its gradients.
func Synthetic(rows, cols, size int, seed uint64) *jigsaw.Grid {
	return waves(rows, cols, size, seed, false)
}

// Grain is Synthetic whose pattern, like a wood grain, runs on across its
// left and right edges: every wave has a whole number of periods across
// the width, so that its last column joins its first as smoothly as its
// neighbours.
func Grain(rows, cols, size int, seed uint64) *jigsaw.Grid {
	return waves(rows, cols, size, seed, true)
}

// waves draws Synthetic's picture or, with wrap, Grain's.
func waves(rows, cols, size int, seed uint64, wrap bool) *jigsaw.Grid {
	rng := rand.New(rand.NewPCG(seed, 1))
	w, h := cols*size, rows*size
	type wave struct{ fx, fy, ph, amp [3]float64 }
	waves := make([]wave, 6)
	for i := range waves {
		for ch := range 3 {
			waves[i].fx[ch] = rng.Float64() * 0.08
			if wrap {
				waves[i].fx[ch] = 2 * math.Pi * float64(1+rng.IntN(3)) / float64(w)
			}
			waves[i].fy[ch] = rng.Float64() * 0.08
			waves[i].ph[ch] = rng.Float64() * 6.3
			waves[i].amp[ch] = 4000 + rng.Float64()*6000
		}
	}
	m := image.NewNRGBA64(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			var v [3]float64
			for _, wv := range waves {
				for ch := range 3 {
					v[ch] += wv.amp[ch] * math.Sin(wv.fx[ch]*float64(x)+wv.fy[ch]*float64(y)+wv.ph[ch])
				}
			}
			i := m.PixOffset(x, y)
			for ch := range 3 {
				c := uint16(max(0, min(65535, 32768+v[ch])))
				m.Pix[i+2*ch], m.Pix[i+2*ch+1] = uint8(c>>8), uint8(c)
			}
			m.Pix[i+6], m.Pix[i+7] = 0xff, 0xff
		}
	}
	g, err := jigsaw.Cut(m, size, jigsaw.CutOptions{})
	if err != nil {
		panic(err)
	}
	return g
}

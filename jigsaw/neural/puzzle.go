package neural

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math/rand/v2"

	"golang.org/x/image/draw"

	"tessera/jigsaw"
)

// Geometry is the shape of a gap puzzle: a Grid x Grid array of cells of
// Patch+Gap pixels, of which only the central Patch x Patch pixels are
// kept, so that neighbouring patches are Gap pixels apart and never touch.
// The zero value means the source's setting: 3 x 3 cells, 40 px patches,
// 4 px gaps (a 132 px square region). Since a zero Gap means 4 px, patches
// that touch (Alphazzle's 2x2 row of Table 6) have Gap NoGap; GapPx is the
// gap in pixels either way.
type Geometry struct {
	Grid, Patch, Gap int
}

// NoGap is the Gap of patches that touch: 0 px between them.
const NoGap = -1

// GapOf is the Gap of a geometry with px pixels between patches: px, or
// NoGap for 0 (how a command-line -gap 0 or a model's 0 px gap becomes a
// Geometry).
func GapOf(px int) int {
	if px == 0 {
		return NoGap
	}
	return px
}

// GapPx is the gap between patches in pixels: Gap, or 0 for NoGap.
func (g Geometry) GapPx() int { return max(g.Gap, 0) }

// Defaults fills the zero fields of g.
func (g Geometry) Defaults() Geometry {
	if g.Grid == 0 {
		g.Grid = 3
	}
	if g.Patch == 0 {
		g.Patch = 40
	}
	if g.Gap == 0 {
		g.Gap = 4
	}
	return g
}

// Validate reports whether g (after Defaults) describes a puzzle.
func (g Geometry) Validate() error {
	if g.Grid < 2 || g.Grid > 8 {
		return fmt.Errorf("neural: grid %d: want 2 to 8", g.Grid)
	}
	if g.Patch < 8 || g.Patch > 256 {
		return fmt.Errorf("neural: patch %d px: want 8 to 256", g.Patch)
	}
	if g.Gap < NoGap || g.GapPx() > g.Patch {
		return fmt.Errorf("neural: gap %d px: want 0 to the patch size", g.Gap)
	}
	return nil
}

// Cells is the number of cells (and patches), Grid*Grid.
func (g Geometry) Cells() int { return g.Grid * g.Grid }

// Cell is the side of a cell in pixels, Patch+GapPx.
func (g Geometry) Cell() int { return g.Patch + g.GapPx() }

// Side is the side of the region a puzzle is cut from, Grid*Cell().
func (g Geometry) Side() int { return g.Grid * g.Cell() }

// Puzzle is a gap puzzle: its patches in the order given (scrambled), and,
// when known, the true cell of each.
type Puzzle struct {
	Geometry
	// Patches are the pieces, Patch pixels square, in the order given.
	Patches []jigsaw.Piece
	// Truth[i] is the true cell (row*Grid+col) of patch i, -1 for a
	// foreign patch (a stray from another picture); nil when the solution
	// is unknown (a sheet read from disk).
	Truth []int
	// Depth is the bits per channel of the source (8 or 16).
	Depth int
	// Fragments marks a puzzle of any number of patches for its
	// Grid x Grid cells, as fragments are found: some cells' patches may
	// be missing (those cells stay empty) and foreign patches may be
	// mixed in (they are to be set aside). Its game is the game of
	// fragments (NewFragmentState).
	Fragments bool
}

// MakeFragments returns a puzzle of fragments made of the complete
// puzzle pz (its truth known): missing of its patches, drawn from rng,
// are taken away, and the patches strays (from another picture, of the
// same size) are mixed in as foreign (Truth -1); the patches come
// shuffled. It fails unless 0 <= missing < the number of cells.
func MakeFragments(pz *Puzzle, missing int, strays []jigsaw.Piece, rng *rand.Rand) (*Puzzle, error) {
	n := len(pz.Patches)
	if pz.Truth == nil || n != pz.Cells() || pz.Fragments {
		return nil, errors.New("neural: fragments are made of a complete puzzle with its truth")
	}
	if err := pz.CheckFragments(missing, len(strays)); err != nil {
		return nil, err
	}
	out := &Puzzle{Geometry: pz.Geometry, Depth: pz.Depth, Fragments: true}
	for _, i := range rng.Perm(n)[missing:] {
		out.Patches = append(out.Patches, pz.Patches[i])
		out.Truth = append(out.Truth, pz.Truth[i])
	}
	for _, p := range strays {
		if p.Size != pz.Patch {
			return nil, fmt.Errorf("neural: a %d px stray among %d px patches", p.Size, pz.Patch)
		}
		out.Patches = append(out.Patches, p)
		out.Truth = append(out.Truth, -1)
	}
	out.Shuffle(rng)
	return out, nil
}

// CheckFragments reports whether a complete puzzle of g can be made one
// of fragments with missing of its patches taken away and foreign strays
// mixed in (MakeFragments).
func (g Geometry) CheckFragments(missing, foreign int) error {
	n := g.Cells()
	if missing < 0 || missing >= n {
		return fmt.Errorf("neural: %d patches missing of %d: want 0 to %d", missing, n, n-1)
	}
	if k := n - missing + min(foreign, n); k > 127 {
		return fmt.Errorf("neural: %d patches: want at most 127", k)
	}
	return nil
}

// RandomFragments is a random puzzle of img (Random) made one of
// fragments (MakeFragments): missing of its patches taken away and, when
// foreign > 0, that many strays (Strays) cut from the picture that pick
// chooses, every draw from rng in that order.
func RandomFragments(img image.Image, g Geometry, missing, foreign int, rng *rand.Rand, pick func(*rand.Rand) (image.Image, error)) (*Puzzle, error) {
	pz := Random(img, g, rng)
	var strays []jigsaw.Piece
	if foreign > 0 {
		other, err := pick(rng)
		if err != nil {
			return nil, err
		}
		strays = Strays(other, g, foreign, rng)
	}
	return MakeFragments(pz, missing, strays, rng)
}

// Aside returns, for a reassembly cells of pz (cells[i] the cell of patch
// i, -1 set aside), the patches set aside and the cells left empty.
func (pz *Puzzle) Aside(cells []int) (aside, empty []int) {
	used := make([]bool, pz.Cells())
	for i, c := range cells {
		if c < 0 {
			aside = append(aside, i)
		} else {
			used[c] = true
		}
	}
	for c, u := range used {
		if !u {
			empty = append(empty, c)
		}
	}
	return aside, empty
}

// Strays draws k patches of a random puzzle of img with g's patches
// (Random): the foreign patches MakeFragments mixes in.
func Strays(img image.Image, g Geometry, k int, rng *rand.Rand) []jigsaw.Piece {
	if k <= 0 {
		return nil
	}
	other := Random(img, g, rng)
	return other.Patches[:min(k, len(other.Patches))]
}

// ErrTooSmall is returned when an image cannot hold a puzzle region.
var ErrTooSmall = errors.New("neural: image too small")

// Cut cuts the square region of img with top-left corner (x0, y0) and side
// g.Side() into a puzzle whose patches are in cell order (patch i belongs
// in cell i). O(region pixels).
func Cut(img image.Image, x0, y0 int, g Geometry) *Puzzle {
	g = g.Defaults()
	pz := &Puzzle{Geometry: g, Depth: 8}
	if _, ok := img.(*image.NRGBA64); ok {
		pz.Depth = 16
	}
	off := g.GapPx() / 2
	for r := range g.Grid {
		for c := range g.Grid {
			p := jigsaw.NewPiece(g.Patch)
			px, py := x0+c*g.Cell()+off, y0+r*g.Cell()+off
			for y := range g.Patch {
				for x := range g.Patch {
					cr, cg, cb, _ := img.At(px+x, py+y).RGBA()
					i := 3 * (y*g.Patch + x)
					p.Pix[i], p.Pix[i+1], p.Pix[i+2] = uint16(cr), uint16(cg), uint16(cb)
				}
			}
			pz.Patches = append(pz.Patches, p)
			pz.Truth = append(pz.Truth, r*g.Grid+c)
		}
	}
	return pz
}

// Shuffle permutes the patches of pz (and its Truth) with rng.
func (pz *Puzzle) Shuffle(rng *rand.Rand) {
	rng.Shuffle(len(pz.Patches), func(i, j int) {
		pz.Patches[i], pz.Patches[j] = pz.Patches[j], pz.Patches[i]
		if pz.Truth != nil {
			pz.Truth[i], pz.Truth[j] = pz.Truth[j], pz.Truth[i]
		}
	})
}

// Random cuts a puzzle from a random square of img at a random scale: the
// square's side is drawn uniformly between g.Side() pixels (scale 1) and
// the image's short side (the whole height or width shrunk to the region),
// its position uniformly, and it is resampled (Catmull-Rom) to g.Side()
// pixels. The patches come shuffled. An image whose short side is below
// g.Side() is scaled up. Deterministic for a given rng state.
func Random(img image.Image, g Geometry, rng *rand.Rand) *Puzzle {
	g = g.Defaults()
	b := img.Bounds()
	short := min(b.Dx(), b.Dy())
	side := g.Side()
	l := short
	if short > side {
		l = side + rng.IntN(short-side+1)
	}
	x0 := b.Min.X + rng.IntN(b.Dx()-l+1)
	y0 := b.Min.Y + rng.IntN(b.Dy()-l+1)
	src := image.Rect(x0, y0, x0+l, y0+l)
	var m image.Image
	if l == side {
		m = subImage(img, src)
	} else {
		dst := image.NewNRGBA64(image.Rect(0, 0, side, side))
		draw.CatmullRom.Scale(dst, dst.Bounds(), img, src, draw.Src, nil)
		m = dst
	}
	pz := Cut(m, m.Bounds().Min.X, m.Bounds().Min.Y, g)
	pz.Depth = depthOf(img)
	pz.Shuffle(rng)
	return pz
}

// Centre cuts a puzzle from the central square of img (the largest one),
// resampled to g.Side() pixels, with its patches shuffled by seed: how
// "tessera jigsaw solve" makes a puzzle of a photograph.
func Centre(img image.Image, g Geometry, seed uint64) *Puzzle {
	g = g.Defaults()
	b := img.Bounds()
	l := min(b.Dx(), b.Dy())
	x0, y0 := b.Min.X+(b.Dx()-l)/2, b.Min.Y+(b.Dy()-l)/2
	side := g.Side()
	dst := image.NewNRGBA64(image.Rect(0, 0, side, side))
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, image.Rect(x0, y0, x0+l, y0+l), draw.Src, nil)
	pz := Cut(dst, 0, 0, g)
	pz.Depth = depthOf(img)
	pz.Shuffle(rand.New(rand.NewPCG(seed, 0x63656e74)))
	return pz
}

func depthOf(img image.Image) int {
	switch img.(type) {
	case *image.NRGBA64, *image.RGBA64, *image.Gray16:
		return 16
	}
	return 8
}

func subImage(img image.Image, r image.Rectangle) image.Image {
	if s, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	}); ok {
		return s.SubImage(r)
	}
	dst := image.NewNRGBA64(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(dst, dst.Bounds(), img, r.Min, draw.Src)
	return dst
}

// FromPieces makes a puzzle of patches read from a sheet (see
// jigsaw.ReadSheet): their size must be g.Patch; when their number is
// not g.Cells() (1 to 127 patches) the puzzle is one of fragments (some
// cells may stay empty, some patches be set aside). The truth is
// unknown.
func FromPieces(pieces []jigsaw.Piece, g Geometry, depth int) (*Puzzle, error) {
	g = g.Defaults()
	if len(pieces) < 1 || len(pieces) > 127 {
		return nil, fmt.Errorf("neural: %d patches: want 1 to 127", len(pieces))
	}
	for _, p := range pieces {
		if p.Size != g.Patch {
			return nil, fmt.Errorf("neural: %d px patches, want %d", p.Size, g.Patch)
		}
	}
	return &Puzzle{Geometry: g, Patches: pieces, Depth: depth, Fragments: len(pieces) != g.Cells()}, nil
}

// Sheet returns the patches as a jigsaw puzzle (for jigsaw.WriteSheet).
func (pz *Puzzle) Sheet() *jigsaw.Puzzle {
	return &jigsaw.Puzzle{PieceSize: pz.Patch, Pieces: pz.Patches, Depth: pz.Depth}
}

// Render draws the reassembly cells (cells[i] is the cell of patch i, -1
// for an unplaced patch) with the gaps between patches, over background
// (transparent when nil).
func (pz *Puzzle) Render(cells []int, background color.Color) *image.NRGBA64 {
	side := pz.Side()
	m := image.NewNRGBA64(image.Rect(0, 0, side, side))
	if background != nil {
		draw.Draw(m, m.Bounds(), image.NewUniform(background), image.Point{}, draw.Src)
	}
	off := pz.GapPx() / 2
	for i, cell := range cells {
		if cell < 0 {
			continue
		}
		p := pz.Patches[i]
		x0, y0 := (cell%pz.Grid)*pz.Cell()+off, (cell/pz.Grid)*pz.Cell()+off
		for y := range pz.Patch {
			for x := range pz.Patch {
				r, g, b := p.RGB(x, y)
				m.SetNRGBA64(x0+x, y0+y, color.NRGBA64{R: r, G: g, B: b, A: 0xffff})
			}
		}
	}
	return m
}

// Accuracy is how close a reassembly is to the truth.
type Accuracy struct {
	// Patch is the share of the puzzle's own patches in their true cell
	// (direct accuracy).
	Patch float64 `json:"patch"`
	// Neighbor is the share of the true adjacencies (pairs of own patches
	// side by side in the picture) that the reassembly keeps.
	Neighbor float64 `json:"neighbor"`
	// Perfect reports every own patch in its true cell and every foreign
	// one set aside.
	Perfect bool `json:"perfect"`
	// Strays is the number of foreign patches, StraysFound how many of
	// them were set aside; OwnAside counts own patches set aside (or
	// left unplaced) wrongly. Zero for a complete puzzle.
	Strays      int `json:"strays,omitempty"`
	StraysFound int `json:"strays_found,omitempty"`
	OwnAside    int `json:"own_aside,omitempty"`
}

// Score compares a complete reassembly (cells[i] the cell of patch i, -1
// set aside) with the truth. It panics if pz has no truth.
func (pz *Puzzle) Score(cells []int) Accuracy {
	n, g := pz.Cells(), pz.Grid
	var acc Accuracy
	right, own := 0, 0
	for i, c := range cells {
		switch t := pz.Truth[i]; {
		case t < 0:
			acc.Strays++
			if c < 0 {
				acc.StraysFound++
			}
		case c == t:
			own++
			right++
		default:
			own++
			if c < 0 {
				acc.OwnAside++
			}
		}
	}
	byTruth := make([]int, n) // the patch whose true cell is c (-1: missing)
	for i := range byTruth {
		byTruth[i] = -1
	}
	for i, c := range pz.Truth {
		if c >= 0 {
			byTruth[c] = i
		}
	}
	kept, pairs := 0, 0
	for c := range n {
		r, col := c/g, c%g
		for _, nb := range [2]int{c + 1, c + g} {
			if (nb == c+1 && col == g-1) || (nb == c+g && r == g-1) {
				continue
			}
			a, b := byTruth[c], byTruth[nb]
			if a < 0 || b < 0 {
				continue
			}
			pairs++
			ca, cb := cells[a], cells[b]
			if ca >= 0 && cb >= 0 && cb-ca == nb-c && (nb != c+1 || ca%g != g-1) {
				kept++
			}
		}
	}
	acc.Patch = float64(right) / float64(max(own, 1))
	acc.Neighbor = 1
	if pairs > 0 {
		acc.Neighbor = float64(kept) / float64(pairs)
	}
	acc.Perfect = right == own && acc.StraysFound == acc.Strays
	return acc
}

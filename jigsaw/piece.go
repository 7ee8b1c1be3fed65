package jigsaw

import (
	"context"
	"errors"
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"slices"
)

// Side names an edge of a square piece, clockwise from the top, in the
// piece's own (sheet) orientation.
type Side uint8

const (
	Top Side = iota
	Right
	Bottom
	Left
)

var sideNames = [...]string{"top", "right", "bottom", "left"}

// String returns "top", "right", "bottom" or "left".
func (s Side) String() string {
	if s < 4 {
		return sideNames[s]
	}
	return fmt.Sprintf("Side(%d)", s)
}

// Opposite returns the side across the piece: Top <-> Bottom, Left <-> Right.
func (s Side) Opposite() Side { return (s + 2) & 3 }

// Turn returns where side s points after the piece is turned by r:
// (s + r) mod 4.
func (s Side) Turn(r Rotation) Side { return (s + Side(r)) & 3 }

// Rotation is a number of quarter turns clockwise, 0 to 3.
type Rotation uint8

// Inverse returns the rotation that undoes r.
func (r Rotation) Inverse() Rotation { return (4 - r) & 3 }

// Add composes two rotations.
func (r Rotation) Add(q Rotation) Rotation { return (r + q) & 3 }

// SideAt returns which of a piece's own sides faces direction d (a Side in
// the output's frame) when the piece is shown turned by r: (d - r) mod 4.
func SideAt(d Side, r Rotation) Side { return (d - Side(r)) & 3 }

// Offset returns the (row, column) step from a cell to its neighbour in
// direction d: Top is (-1, 0), Right (0, 1), Bottom (1, 0), Left (0, -1).
func Offset(d Side) (dr, dc int) {
	switch d & 3 {
	case Top:
		return -1, 0
	case Right:
		return 0, 1
	case Bottom:
		return 1, 0
	}
	return 0, -1
}

// Errors of Cut and ReadSheet.
var (
	// ErrPieceSize is returned for a piece size below 2 pixels or larger
	// than the image.
	ErrPieceSize = errors.New("jigsaw: bad piece size")
	// ErrNotDivisible is returned by Cut, without CutOptions.Crop, and by
	// ReadSheet for an image whose sides are not multiples of the piece size.
	ErrNotDivisible = errors.New("jigsaw: image size is not a multiple of the piece size")
	// ErrNoPieces is returned for a puzzle without pieces.
	ErrNoPieces = errors.New("jigsaw: no pieces")
	// ErrTooManyPieces is returned, before decoding or cutting, for an
	// image that would make more pieces than the limit
	// (SheetOptions.MaxPieces, CutOptions.MaxPieces).
	ErrTooManyPieces = errors.New("jigsaw: too many pieces")
)

// Piece is a square of Size x Size pixels, RGB with 16 bits per channel.
type Piece struct {
	Size int
	// Pix holds 3*Size*Size samples, row-major: R, G, B of (0,0), (1,0), ...
	Pix []uint16
}

// NewPiece returns a black piece of the given size.
func NewPiece(size int) Piece { return Piece{Size: size, Pix: make([]uint16, 3*size*size)} }

// RGB returns the colour at column x, row y.
func (p Piece) RGB(x, y int) (r, g, b uint16) {
	i := 3 * (y*p.Size + x)
	return p.Pix[i], p.Pix[i+1], p.Pix[i+2]
}

// Rotate returns a copy of p turned by r quarter turns clockwise.
func (p Piece) Rotate(r Rotation) Piece {
	n := p.Size
	q := NewPiece(n)
	for y := range n {
		for x := range n {
			sx, sy := rotateSource(x, y, n, r)
			copy(q.Pix[3*(y*n+x):3*(y*n+x)+3], p.Pix[3*(sy*n+sx):])
		}
	}
	return q
}

// rotateSource returns the pixel of the unturned piece shown at (x, y) of
// the piece turned by r.
func rotateSource(x, y, n int, r Rotation) (int, int) {
	switch r & 3 {
	case 1:
		return y, n - 1 - x
	case 2:
		return n - 1 - x, n - 1 - y
	case 3:
		return n - 1 - y, x
	}
	return x, y
}

// Puzzle is a bag of square pieces to assemble.
type Puzzle struct {
	PieceSize int
	Pieces    []Piece
	// Rotated reports that pieces may be turned (Type 2): a solver must
	// find each piece's rotation as well as its cell.
	Rotated bool
	// Depth is the bits per channel of the source (8 or 16), used when the
	// pieces are written out.
	Depth int
}

// Grid is an image cut into pieces, before scrambling.
type Grid struct {
	// Name identifies the source image (a file name) in the ground truth.
	Name       string
	Rows, Cols int
	// Pieces are row-major: the piece at row r, column c is Pieces[r*Cols+c].
	Pieces    []Piece
	PieceSize int
	// Crop is the part of the source image that was cut, in its pixel
	// coordinates; it is the whole image unless CutOptions.Crop removed a
	// margin.
	Crop image.Rectangle
	// Source is the bounds of the whole source image.
	Source image.Rectangle
	Depth  int
}

// CutOptions configure Cut. The zero value refuses images whose sides are
// not multiples of the piece size.
type CutOptions struct {
	// Crop removes the remainder of each side, half on each end (the extra
	// pixel of an odd remainder at the right or bottom), instead of
	// refusing the image. Grid.Crop tells what was kept.
	Crop bool
	// Depth records the source's bits per channel (8 or 16); 0 means 16
	// for 16-bit image types and 8 otherwise.
	Depth int
	// MaxPieces refuses an image that would make more pieces
	// (ErrTooManyPieces); 0 means DefaultMaxPieces, a negative value no
	// limit.
	MaxPieces int
}

// Cut cuts img into square pieces of size x size pixels, row-major.
// Transparent pixels are composited over black. It returns ErrPieceSize
// when the piece does not fit the image and ErrNotDivisible when a side is
// not a multiple of size (unless opts.Crop). O(pixels).
func Cut(img image.Image, size int, opts CutOptions) (*Grid, error) {
	return CutContext(context.Background(), img, size, opts)
}

// CutContext is Cut bounded by ctx: it stops when ctx ends, with an error
// that wraps ctx.Err().
func CutContext(ctx context.Context, img image.Image, size int, opts CutOptions) (*Grid, error) {
	b := img.Bounds()
	if size < 2 {
		return nil, fmt.Errorf("%w: %d pixels (at least 2)", ErrPieceSize, size)
	}
	if size > b.Dx() || size > b.Dy() {
		return nil, fmt.Errorf("%w: %d-pixel pieces do not fit a %dx%d image", ErrPieceSize, size, b.Dx(), b.Dy())
	}
	rx, ry := b.Dx()%size, b.Dy()%size
	if (rx != 0 || ry != 0) && !opts.Crop {
		return nil, fmt.Errorf("%w: %dx%d is not a multiple of %d (crop to %dx%d)", ErrNotDivisible,
			b.Dx(), b.Dy(), size, b.Dx()-rx, b.Dy()-ry)
	}
	maxPieces := opts.MaxPieces
	if maxPieces == 0 {
		maxPieces = DefaultMaxPieces
	}
	if n := (b.Dx() / size) * (b.Dy() / size); maxPieces > 0 && n > maxPieces {
		return nil, fmt.Errorf("%w: %dx%d cut into %d-pixel pieces makes %d, over the limit of %d", ErrTooManyPieces, b.Dx(), b.Dy(), size, n, maxPieces)
	}
	crop := image.Rect(b.Min.X+rx/2, b.Min.Y+ry/2, b.Max.X-(rx-rx/2), b.Max.Y-(ry-ry/2))
	g := &Grid{Rows: crop.Dy() / size, Cols: crop.Dx() / size, PieceSize: size, Crop: crop, Source: b, Depth: opts.Depth}
	if g.Depth == 0 {
		g.Depth = 8
		switch img.(type) {
		case *image.RGBA64, *image.NRGBA64, *image.Gray16:
			g.Depth = 16
		}
	}
	g.Pieces = make([]Piece, g.Rows*g.Cols)
	nrgba, _ := img.(*image.NRGBA64)
	for r := range g.Rows {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("jigsaw: cutting: %w", err)
		}
		for c := range g.Cols {
			p := NewPiece(size)
			x0, y0 := crop.Min.X+c*size, crop.Min.Y+r*size
			for y := range size {
				for x := range size {
					var cr, cg, cb uint32
					if nrgba != nil && nrgba.Pix[nrgba.PixOffset(x0+x, y0+y)+6] == 0xff && nrgba.Pix[nrgba.PixOffset(x0+x, y0+y)+7] == 0xff {
						s := nrgba.Pix[nrgba.PixOffset(x0+x, y0+y):]
						cr, cg, cb = uint32(s[0])<<8|uint32(s[1]), uint32(s[2])<<8|uint32(s[3]), uint32(s[4])<<8|uint32(s[5])
					} else {
						cr, cg, cb, _ = img.At(x0+x, y0+y).RGBA() // premultiplied: over black
					}
					i := 3 * (y*size + x)
					p.Pix[i], p.Pix[i+1], p.Pix[i+2] = uint16(cr), uint16(cg), uint16(cb)
				}
			}
			g.Pieces[r*g.Cols+c] = p
		}
	}
	return g, nil
}

// Puzzle returns the grid's pieces in order, as an unscrambled puzzle.
func (g *Grid) Puzzle() *Puzzle {
	return &Puzzle{PieceSize: g.PieceSize, Pieces: g.Pieces, Depth: g.Depth}
}

// ScrambleOptions configure Scramble.
type ScrambleOptions struct {
	// Rotate turns each piece by a random multiple of 90 degrees (Type 2).
	Rotate bool
	// Seed selects the permutation and the rotations (and the pieces
	// dropped and the strays, from a stream of their own, so that a
	// puzzle without them is scrambled as it always was).
	Seed uint64
	// Drop loses this share (0 to 1) of each picture's pieces, rounded to
	// the nearest whole number: a box with pieces missing.
	Drop float64
	// Strays are grids of other pictures, and StrayPieces the number of
	// their pieces (at most all of them) mixed into the puzzle: strays from
	// another box. The truth lists these grids after the others, marked
	// Stray.
	Strays      []*Grid
	StrayPieces int
}

// Scramble shuffles the pieces of one or several grids (a mixed bag) into
// one puzzle and returns it with its ground truth. The pieces are permuted
// uniformly from opts.Seed and, with opts.Rotate, each is turned by a
// uniform random rotation; Truth.Pieces[k] says where puzzle piece k came
// from. All grids must have the same piece size (it panics otherwise).
func Scramble(grids []*Grid, opts ScrambleOptions) (*Puzzle, *Truth) {
	if len(grids) == 0 {
		panic("jigsaw: Scramble of no grids")
	}
	rng := rand.New(rand.NewPCG(opts.Seed, 0x6a6967736177))
	size := grids[0].PieceSize
	t := &Truth{PieceSize: size, Rotations: opts.Rotate}
	pz := &Puzzle{PieceSize: size, Rotated: opts.Rotate, Depth: 8}
	var origins []Origin
	var pieces []Piece
	lose := rand.New(rand.NewPCG(opts.Seed, 0x6c6f7374))
	all := append(slices.Clip(grids), opts.Strays...)
	for gi, g := range all {
		if g.PieceSize != size {
			panic("jigsaw: Scramble of grids with different piece sizes")
		}
		stray := gi >= len(grids)
		pz.Depth = max(pz.Depth, g.Depth)
		t.Images = append(t.Images, TruthImage{Name: g.Name, Rows: g.Rows, Cols: g.Cols,
			Crop: [4]int{g.Crop.Min.X, g.Crop.Min.Y, g.Crop.Max.X, g.Crop.Max.Y}, Stray: stray})
		keep := make([]bool, len(g.Pieces))
		drop := 0
		if !stray && opts.Drop > 0 {
			drop = min(len(g.Pieces)-1, int(math.Round(opts.Drop*float64(len(g.Pieces)))))
		}
		for k, j := range lose.Perm(len(g.Pieces)) {
			keep[j] = !stray && k >= drop
		}
		t.Missing += drop
		for k, p := range g.Pieces {
			if keep[k] {
				origins = append(origins, Origin{Image: gi, Row: k / g.Cols, Col: k % g.Cols})
				pieces = append(pieces, p)
			}
		}
	}
	// the strays: StrayPieces cells of the stray grids, uniformly
	var cells [][2]int
	for gi := len(grids); gi < len(all); gi++ {
		for k := range all[gi].Pieces {
			cells = append(cells, [2]int{gi, k})
		}
	}
	for _, j := range lose.Perm(len(cells))[:min(max(opts.StrayPieces, 0), len(cells))] {
		gi, k := cells[j][0], cells[j][1]
		origins = append(origins, Origin{Image: gi, Row: k / all[gi].Cols, Col: k % all[gi].Cols})
		pieces = append(pieces, all[gi].Pieces[k])
	}
	perm := rng.Perm(len(pieces))
	pz.Pieces = make([]Piece, len(pieces))
	t.Pieces = make([]Origin, len(pieces))
	for k, src := range perm {
		o := origins[src]
		p := pieces[src]
		if opts.Rotate {
			o.Rotation = Rotation(rng.IntN(4))
			p = p.Rotate(o.Rotation)
		}
		pz.Pieces[k], t.Pieces[k] = p, o
	}
	return pz, t
}

package jigsaw

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"tessera/imageio"
)

// sheetKeyword is the PNG tEXt keyword that records the piece size.
const sheetKeyword = "tessera-piece-size"

// SheetCols returns the number of columns of a near-square sheet of n
// pieces: ceil(sqrt(n)).
func SheetCols(n int) int {
	c := int(math.Ceil(math.Sqrt(float64(n))))
	for c*c < n {
		c++
	}
	return max(c, 1)
}

// Sheet returns the puzzle's pieces laid out row-major on a grid of cols
// columns (SheetCols(n) when cols <= 0); cells after the last piece are
// transparent. The image is 16-bit when pz.Depth is 16.
func Sheet(pz *Puzzle, cols int) image.Image {
	n := len(pz.Pieces)
	if cols <= 0 {
		cols = SheetCols(n)
	}
	rows := (n + cols - 1) / cols
	pl := &Placement{Images: 1}
	for k := range pz.Pieces {
		pl.Pieces = append(pl.Pieces, Placed{Piece: k, Row: k / cols, Col: k % cols})
	}
	return render(pz, pl, 0, image.Rect(0, 0, cols, rows))
}

// WriteSheet writes the puzzle as a PNG sheet (see Sheet) with the piece
// size in a tEXt chunk, so that ReadSheet needs no size.
func WriteSheet(w io.Writer, pz *Puzzle, cols int) error {
	return WriteSheetContext(context.Background(), w, pz, cols)
}

// WriteSheetContext is WriteSheet bounded by ctx: encoding stops when it
// ends, before anything is written to w, with an error wrapping
// ctx.Err().
func WriteSheetContext(ctx context.Context, w io.Writer, pz *Puzzle, cols int) error {
	return writePNG(ctx, w, Sheet(pz, cols), pz.PieceSize)
}

// ctxWriter is a writer that fails once its context has ended.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// writePNG encodes m, adding the piece size as text when size > 0.
func writePNG(ctx context.Context, w io.Writer, m image.Image, size int) error {
	var buf bytes.Buffer
	if err := png.Encode(ctxWriter{ctx, &buf}, m); err != nil {
		return fmt.Errorf("jigsaw: encoding PNG: %w", err)
	}
	data := buf.Bytes()
	if size > 0 {
		const ihdrEnd = 8 + 8 + 13 + 4
		text := append([]byte(sheetKeyword+"\x00"), strconv.Itoa(size)...)
		chunk := make([]byte, 0, 12+len(text))
		chunk = binary.BigEndian.AppendUint32(chunk, uint32(len(text)))
		chunk = append(chunk, "tEXt"...)
		chunk = append(chunk, text...)
		chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
		data = append(data[:ihdrEnd:ihdrEnd], append(chunk, data[ihdrEnd:]...)...)
	}
	bw := bufio.NewWriter(w)
	bw.Write(data)
	return bw.Flush()
}

// SheetPieceSize returns the piece size recorded in a PNG sheet written by
// WriteSheet, or 0.
func SheetPieceSize(data []byte) int {
	if imageio.Sniff(data) != "png" {
		return 0
	}
	for i := 8; i+12 <= len(data); {
		n := int(binary.BigEndian.Uint32(data[i:]))
		if n < 0 || n > len(data)-i-12 {
			return 0
		}
		typ := string(data[i+4 : i+8])
		if typ == "IDAT" {
			return 0
		}
		if typ == "tEXt" {
			if v, ok := strings.CutPrefix(string(data[i+8:i+8+n]), sheetKeyword+"\x00"); ok {
				if s, err := strconv.Atoi(v); err == nil && s > 0 {
					return s
				}
			}
		}
		i += 12 + n
	}
	return 0
}

// DefaultMaxPieces is the number of pieces ReadSheet cuts at most by
// default (SheetOptions.MaxPieces): more than three times the largest
// puzzle solved here (14,160 pieces); the compatibilities take time
// O(n^2), hours beyond it.
const DefaultMaxPieces = 50_000

// SheetOptions configure ReadSheet.
type SheetOptions struct {
	// PieceSize is the side of the pieces in pixels; 0 reads it from the
	// sheet's tEXt chunk (written by WriteSheet). A size other than the
	// one the sheet records is refused unless ForcePieceSize.
	PieceSize      int
	ForcePieceSize bool
	// MaxPieces refuses a sheet that would be cut into more pieces,
	// before decoding it; 0 means DefaultMaxPieces, a negative value no
	// limit.
	MaxPieces int
	// Rotated marks the puzzle as Type 2: the pieces may be turned.
	Rotated bool
	// Decode bounds the image decoder (pixel and byte limits).
	Decode imageio.Options
}

// ReadSheet reads a sheet of pieces: any PNG, JPEG or WebP image whose
// sides are multiples of the piece size, cut row-major into pieces; cells
// that are entirely transparent are not pieces. Errors name the problem:
// the decoder's first (an empty, unknown, corrupt or too large file),
// then ErrPieceSize, ErrNotDivisible, ErrTooManyPieces, ErrNoPieces.
func ReadSheet(r io.Reader, opts SheetOptions) (*Puzzle, error) {
	return ReadSheetContext(context.Background(), r, opts)
}

// statReader reads from one reader and tells the size of another (the
// file it reads, after a part of it read already).
type statReader struct {
	io.Reader
	stat func() (os.FileInfo, error)
}

func (s statReader) Stat() (os.FileInfo, error) { return s.stat() }

// sheetPieces returns the piece size to cut a w x h sheet into, given
// the recorded size (0 if none) and the options: 0 when neither gives
// one, ErrPieceSize for a size other than the recorded one (unless
// forced) or one that does not fit, ErrTooManyPieces over the bound.
func sheetPieces(opts SheetOptions, recorded, w, h int) (int, error) {
	size := opts.PieceSize
	switch {
	case size == 0 && recorded == 0:
		return 0, nil
	case size == 0:
		size = recorded
	case recorded != 0 && size != recorded && !opts.ForcePieceSize:
		return 0, fmt.Errorf("%w: the sheet records %d-pixel pieces, not %d", ErrPieceSize, recorded, size)
	}
	if size < 2 || size > w || size > h {
		return 0, fmt.Errorf("%w: %d-pixel pieces on a %dx%d sheet", ErrPieceSize, size, w, h)
	}
	maxPieces := opts.MaxPieces
	if maxPieces == 0 {
		maxPieces = DefaultMaxPieces
	}
	if n := (w / size) * (h / size); maxPieces > 0 && n > maxPieces {
		return 0, fmt.Errorf("%w: a %dx%d sheet of %d-pixel pieces has %d cells, over the limit of %d", ErrTooManyPieces, w, h, size, n, maxPieces)
	}
	return size, nil
}

// ReadSheetContext is ReadSheet bounded by ctx: decoding and cutting stop
// when it ends, with an error that says which stage it ended and wraps
// ctx.Err().
func ReadSheetContext(ctx context.Context, r io.Reader, opts SheetOptions) (*Puzzle, error) {
	// The header and the recorded size come first in the file: refuse a
	// sheet by them before reading the rest.
	head := make([]byte, 64<<10)
	n, err := io.ReadFull(r, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, fmt.Errorf("jigsaw: reading sheet: %w", err)
	}
	head = head[:n]
	if _, w, h, err := imageio.Header(head, opts.Decode); err == nil {
		if _, err := sheetPieces(opts, SheetPieceSize(head), w, h); err != nil {
			return nil, err
		}
	}
	rest := io.MultiReader(bytes.NewReader(head), r)
	if f, ok := r.(interface{ Stat() (os.FileInfo, error) }); ok {
		rest = statReader{rest, f.Stat}
	}
	data, err := imageio.ReadAllContext(ctx, rest, opts.Decode)
	if err != nil {
		return nil, fmt.Errorf("jigsaw: reading sheet: %w", err)
	}
	_, w, h, err := imageio.Header(data, opts.Decode)
	if err != nil {
		return nil, fmt.Errorf("jigsaw: sheet: %w", err)
	}
	size, err := sheetPieces(opts, SheetPieceSize(data), w, h)
	if err != nil {
		return nil, err
	}
	img, err := imageio.DecodeBytesContext(ctx, data, opts.Decode)
	if err != nil {
		return nil, fmt.Errorf("jigsaw: decoding the sheet: %w", err)
	}
	m := img.Pix
	w, h = m.Bounds().Dx(), m.Bounds().Dy()
	var grid SheetGrid
	if size == 0 {
		if grid, err = DetectGrid(m); err != nil {
			return nil, fmt.Errorf("%w: the sheet does not record its piece size, and %w; give it", ErrPieceSize, err)
		}
		if _, err := sheetPieces(SheetOptions{PieceSize: grid.Size, MaxPieces: opts.MaxPieces}, 0, w, h); err != nil {
			return nil, err
		}
	} else {
		if w%size != 0 || h%size != 0 {
			return nil, fmt.Errorf("%w: the sheet is %dx%d, not a multiple of %d", ErrNotDivisible, w, h, size)
		}
		grid = SheetGrid{Size: size, Pitch: size, Cols: w / size, Rows: h / size}
	}
	pz := &Puzzle{PieceSize: grid.Size, Rotated: opts.Rotated, Depth: img.Depth}
	for r := range grid.Rows {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("jigsaw: cutting the sheet: %w", err)
		}
		for c := range grid.Cols {
			if p, opaque := cutCell(m, grid, r, c); opaque {
				pz.Pieces = append(pz.Pieces, p)
			}
		}
	}
	if len(pz.Pieces) == 0 {
		return nil, fmt.Errorf("%w: every cell of the sheet is transparent", ErrNoPieces)
	}
	return pz, nil
}

// cutCell returns the piece in cell (r, c) of the grid on m, composited
// over black, and whether any of its pixels is not transparent.
func cutCell(m *image.NRGBA64, g SheetGrid, r, c int) (Piece, bool) {
	size := g.Size
	p := NewPiece(size)
	opaque := false
	x0, y0 := m.Rect.Min.X+g.X0+c*g.Pitch, m.Rect.Min.Y+g.Y0+r*g.Pitch
	for y := range size {
		row := m.Pix[m.PixOffset(x0, y0+y):]
		for x := range size {
			s := row[8*x : 8*x+8 : 8*x+8]
			a := uint32(s[6])<<8 | uint32(s[7])
			opaque = opaque || a != 0
			i := 3 * (y*size + x)
			for ch := range 3 {
				v := uint32(s[2*ch])<<8 | uint32(s[2*ch+1])
				p.Pix[i+ch] = uint16(v * a / 0xffff) // over black
			}
		}
	}
	return p, opaque
}

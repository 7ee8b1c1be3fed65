package jigsaw

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"io"
	"math"
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
	return writePNG(w, Sheet(pz, cols), pz.PieceSize)
}

// writePNG encodes m, adding the piece size as text when size > 0.
func writePNG(w io.Writer, m image.Image, size int) error {
	var buf bytes.Buffer
	if err := png.Encode(&buf, m); err != nil {
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

// SheetOptions configure ReadSheet.
type SheetOptions struct {
	// PieceSize is the side of the pieces in pixels; 0 reads it from the
	// sheet's tEXt chunk (written by WriteSheet).
	PieceSize int
	// Rotated marks the puzzle as Type 2: the pieces may be turned.
	Rotated bool
	// Decode bounds the image decoder (pixel and byte limits).
	Decode imageio.Options
}

// ReadSheet reads a sheet of pieces: any PNG, JPEG or WebP image whose
// sides are multiples of the piece size, cut row-major into pieces; cells
// that are entirely transparent are not pieces. Errors name the problem:
// ErrPieceSize, ErrNotDivisible, ErrNoPieces, or the decoder's.
func ReadSheet(r io.Reader, opts SheetOptions) (*Puzzle, error) {
	max := opts.Decode.MaxBytes
	if max <= 0 {
		max = imageio.DefaultMaxBytes
	}
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, fmt.Errorf("jigsaw: reading sheet: %w", err)
	}
	size := opts.PieceSize
	if size == 0 {
		size = SheetPieceSize(data)
		if size == 0 {
			return nil, fmt.Errorf("%w: the sheet does not record its piece size; give it", ErrPieceSize)
		}
	}
	img, err := imageio.Decode(bytes.NewReader(data), opts.Decode)
	if err != nil {
		return nil, fmt.Errorf("jigsaw: sheet: %w", err)
	}
	m := img.Pix
	w, h := m.Bounds().Dx(), m.Bounds().Dy()
	if size < 2 || size > w || size > h {
		return nil, fmt.Errorf("%w: %d-pixel pieces on a %dx%d sheet", ErrPieceSize, size, w, h)
	}
	if w%size != 0 || h%size != 0 {
		return nil, fmt.Errorf("%w: the sheet is %dx%d, not a multiple of %d", ErrNotDivisible, w, h, size)
	}
	pz := &Puzzle{PieceSize: size, Rotated: opts.Rotated, Depth: img.Depth}
	for r := range h / size {
		for c := range w / size {
			p := NewPiece(size)
			opaque := false
			for y := range size {
				row := m.Pix[m.PixOffset(c*size, r*size+y):]
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
			if opaque {
				pz.Pieces = append(pz.Pieces, p)
			}
		}
	}
	if len(pz.Pieces) == 0 {
		return nil, fmt.Errorf("%w: every cell of the sheet is transparent", ErrNoPieces)
	}
	return pz, nil
}

package jigsaw

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io"
	"slices"
)

// Placed puts one piece in a cell of an output image.
type Placed struct {
	Piece int `json:"piece"`
	Image int `json:"image"`
	Row   int `json:"row"`
	Col   int `json:"col"`
	// Rotation turns the piece, as it is in the puzzle, clockwise.
	Rotation Rotation `json:"rotation"`
}

// Placement is a solution: pieces in cells of one or several output
// images. Cells may be any integers (negative too) and need not fill a
// rectangle; a piece appears at most once and a cell holds at most one
// piece. Pieces that are not placed are absent.
type Placement struct {
	// Images is the number of output images; Placed.Image is below it.
	Images int      `json:"images"`
	Pieces []Placed `json:"placements"`
	// Frames, when a solver gives them, are the rectangles of the output
	// images (at most one per image): the picture's frame, whose empty
	// cells are holes where pieces are missing. Without one an image's
	// frame is its Bounds.
	Frames []Frame `json:"frames,omitempty"`
}

// Frame is the rectangle of cells of output image Image: Rows x Cols from
// (Row, Col).
type Frame struct {
	Image int `json:"image"`
	Row   int `json:"row"`
	Col   int `json:"col"`
	Rows  int `json:"rows"`
	Cols  int `json:"cols"`
}

// Rect returns the frame as a rectangle of cells (X the column).
func (f Frame) Rect() image.Rectangle { return image.Rect(f.Col, f.Row, f.Col+f.Cols, f.Row+f.Rows) }

// Frame returns the frame of output image img: the one recorded in
// Frames, or else its Bounds.
func (p *Placement) Frame(img int) image.Rectangle {
	for _, f := range p.Frames {
		if f.Image == img {
			return f.Rect()
		}
	}
	return p.Bounds(img)
}

// Holes returns the number of empty cells in the frame of output image
// img.
func (p *Placement) Holes(img int) int {
	r := p.Frame(img)
	in := 0
	for _, q := range p.Pieces {
		if q.Image == img && image.Pt(q.Col, q.Row).In(r) {
			in++
		}
	}
	return r.Dx()*r.Dy() - in
}

// Bounds returns the cells spanned by output image img: X is the column,
// Y the row, Max exclusive. It is empty when the image has no piece.
func (p *Placement) Bounds(img int) image.Rectangle {
	var r image.Rectangle
	first := true
	for _, q := range p.Pieces {
		if q.Image != img {
			continue
		}
		c := image.Rect(q.Col, q.Row, q.Col+1, q.Row+1)
		if first {
			r, first = c, false
		} else {
			r = r.Union(c)
		}
	}
	return r
}

// Normalize shifts each output image so that its bounds (or its frame,
// when it has one) start at row 0, column 0, and sorts the pieces by
// image, row and column.
func (p *Placement) Normalize() {
	for img := range p.Images {
		b := p.Frame(img)
		for i := range p.Pieces {
			if p.Pieces[i].Image == img {
				p.Pieces[i].Row -= b.Min.Y
				p.Pieces[i].Col -= b.Min.X
			}
		}
		for i := range p.Frames {
			if p.Frames[i].Image == img {
				p.Frames[i].Row -= b.Min.Y
				p.Frames[i].Col -= b.Min.X
			}
		}
	}
	slices.SortFunc(p.Pieces, func(a, b Placed) int {
		return cmp.Or(cmp.Compare(a.Image, b.Image), cmp.Compare(a.Row, b.Row), cmp.Compare(a.Col, b.Col))
	})
}

// Grid returns output image img as a rectangle of piece indices (-1 for an
// empty cell) covering its bounds, with the rotations alongside.
func (p *Placement) Grid(img int) (cells []int, rots []Rotation, bounds image.Rectangle) {
	bounds = p.Bounds(img)
	cells = make([]int, bounds.Dx()*bounds.Dy())
	rots = make([]Rotation, len(cells))
	for i := range cells {
		cells[i] = -1
	}
	for _, q := range p.Pieces {
		if q.Image == img {
			i := (q.Row-bounds.Min.Y)*bounds.Dx() + q.Col - bounds.Min.X
			cells[i], rots[i] = q.Piece, q.Rotation
		}
	}
	return cells, rots, bounds
}

// Validate checks that p places pieces below n at most once each, in
// images below p.Images, with rotations 0 to 3 (none when rotations is
// false), and at most one piece per cell.
func (p *Placement) Validate(n int, rotations bool) error {
	if p.Images < 0 {
		return fmt.Errorf("jigsaw: placement: %d images", p.Images)
	}
	seen := make([]bool, n)
	cells := make(map[[3]int]int, len(p.Pieces))
	for _, q := range p.Pieces {
		switch {
		case q.Piece < 0 || q.Piece >= n:
			return fmt.Errorf("jigsaw: placement: piece %d out of range (the puzzle has %d)", q.Piece, n)
		case seen[q.Piece]:
			return fmt.Errorf("jigsaw: placement: piece %d placed twice", q.Piece)
		case q.Image < 0 || q.Image >= p.Images:
			return fmt.Errorf("jigsaw: placement: piece %d in image %d of %d", q.Piece, q.Image, p.Images)
		case q.Rotation > 3:
			return fmt.Errorf("jigsaw: placement: piece %d: rotation %d (want 0 to 3)", q.Piece, q.Rotation)
		case q.Rotation != 0 && !rotations:
			return fmt.Errorf("jigsaw: placement: piece %d is rotated in a puzzle without rotations", q.Piece)
		case q.Row < -1<<24 || q.Row > 1<<24 || q.Col < -1<<24 || q.Col > 1<<24:
			return fmt.Errorf("jigsaw: placement: piece %d: cell (%d, %d) too far out", q.Piece, q.Row, q.Col)
		}
		seen[q.Piece] = true
		key := [3]int{q.Image, q.Row, q.Col}
		if prev, dup := cells[key]; dup {
			return fmt.Errorf("jigsaw: placement: pieces %d and %d share image %d cell (%d, %d)", prev, q.Piece, q.Image, q.Row, q.Col)
		}
		cells[key] = q.Piece
	}
	framed := make([]bool, p.Images)
	for _, f := range p.Frames {
		switch {
		case f.Image < 0 || f.Image >= p.Images:
			return fmt.Errorf("jigsaw: placement: a frame of image %d of %d", f.Image, p.Images)
		case framed[f.Image]:
			return fmt.Errorf("jigsaw: placement: two frames of image %d", f.Image)
		case f.Rows < 1 || f.Cols < 1 || f.Rows > 1<<20 || f.Cols > 1<<20 || f.Rows*f.Cols > 4*n+4:
			return fmt.Errorf("jigsaw: placement: image %d has a frame of %dx%d cells for %d pieces", f.Image, f.Rows, f.Cols, n)
		case f.Row < -1<<24 || f.Row > 1<<24 || f.Col < -1<<24 || f.Col > 1<<24:
			return fmt.Errorf("jigsaw: placement: the frame of image %d starts too far out", f.Image)
		}
		framed[f.Image] = true
	}
	return nil
}

// WriteJSON writes p as JSON, one placement per line.
func (p *Placement) WriteJSON(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\"images\": %d, \"placements\": [", p.Images)
	for i, q := range p.Pieces {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "\n\t{\"piece\": %d, \"image\": %d, \"row\": %d, \"col\": %d, \"rotation\": %d}", q.Piece, q.Image, q.Row, q.Col, q.Rotation)
	}
	b.WriteString("\n]")
	if len(p.Frames) > 0 {
		b.WriteString(", \"frames\": [")
		for i, f := range p.Frames {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "\n\t{\"image\": %d, \"row\": %d, \"col\": %d, \"rows\": %d, \"cols\": %d}", f.Image, f.Row, f.Col, f.Rows, f.Cols)
		}
		b.WriteString("\n]")
	}
	b.WriteString("}\n")
	_, err := w.Write(b.Bytes())
	return err
}

// ReadPlacement reads a placement JSON file and checks it against a
// puzzle of n pieces (with or without rotations).
func ReadPlacement(r io.Reader, n int, rotations bool) (*Placement, error) {
	var p Placement
	if err := decodeJSON(r, &p, "placement"); err != nil {
		return nil, err
	}
	if err := p.Validate(n, rotations); err != nil {
		return nil, err
	}
	return &p, nil
}

// jsonErrorWhere adds the line and column of a JSON syntax or type error.
func jsonErrorWhere(data []byte, err error) string {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 || off > int64(len(data)) {
		return err.Error()
	}
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := off - int64(bytes.LastIndexByte(data[:off], '\n'))
	return fmt.Sprintf("line %d, column %d: %v", line, col, err)
}

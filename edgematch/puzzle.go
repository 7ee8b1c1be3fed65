package edgematch

import (
	"errors"
	"fmt"
)

// Colour is the colour (motif) of one edge. Grey, the colour 0, is the
// frame of a framed puzzle; it never matches across an internal edge.
type Colour uint8

// Grey is the frame colour of framed puzzles.
const Grey Colour = 0

// Sides of a tile or a cell, clockwise from the top.
const (
	North = 0
	East  = 1
	South = 2
	West  = 3
)

// Tile is a square piece: the colours of its top, right, bottom and left
// edges (N E S W, clockwise from the top), as listed in a piece file.
type Tile [4]Colour

// Rotate returns the tile turned clockwise by r quarter turns: side d of the
// result shows side (d-r) mod 4 of t.
func (t Tile) Rotate(r int) Tile {
	r &= 3
	return Tile{t[(4-r)&3], t[(5-r)&3], t[(6-r)&3], t[(7-r)&3]}
}

// Hint fixes a piece in a cell with a rotation, as Eternity II's starter
// piece 139 at I8 (row 8, column 7, rotation 2). Piece, Row and Col count
// from 0.
type Hint struct {
	Piece, Row, Col, Rot int
}

// Puzzle is an edge-matching puzzle: Rows x Cols cells to fill with the
// Rows*Cols tiles, each used once, rotated as needed, so that abutting edges
// have the same colour and the edges on the outside show the frame.
type Puzzle struct {
	Rows, Cols int
	// Tiles are the pieces; piece i is Tiles[i] (files number them from 1).
	Tiles []Tile
	// Frame holds the colours the outward edges must show, 2*(Rows+Cols) of
	// them: the top edge left to right, the right edge top to bottom, the
	// bottom edge left to right, the left edge top to bottom. Nil means a
	// grey frame (every outward edge Grey), the usual case.
	Frame []Colour
	// Hints are pieces fixed in place before the search.
	Hints []Hint
	// FixedOrientation forbids rotations: every piece must be placed as
	// listed (the source's puzzles "with known orientation").
	FixedOrientation bool
}

// MaxSide is the largest number of rows or columns of a puzzle.
const MaxSide = 64

// Cells returns Rows*Cols.
func (p *Puzzle) Cells() int { return p.Rows * p.Cols }

// MaxScore returns the number of internal edges, Rows*(Cols-1) +
// Cols*(Rows-1): 480 for a 16x16 board.
func (p *Puzzle) MaxScore() int { return p.Rows*(p.Cols-1) + p.Cols*(p.Rows-1) }

// FrameColour returns the colour that the outward side of border cell
// (row, col) must show. It panics if that side does not face outward.
func (p *Puzzle) FrameColour(row, col, side int) Colour {
	i := FrameIndex(p.Rows, p.Cols, row, col, side)
	if i < 0 {
		panic(fmt.Sprintf("edgematch: side %d of cell (%d,%d) is not on the frame", side, row, col))
	}
	if p.Frame == nil {
		return Grey
	}
	return p.Frame[i]
}

// FrameIndex returns the index in Puzzle.Frame of the outward side of
// (row, col), or -1 if that side faces another cell.
func FrameIndex(rows, cols, row, col, side int) int {
	switch {
	case side == North && row == 0:
		return col
	case side == East && col == cols-1:
		return cols + row
	case side == South && row == rows-1:
		return cols + rows + col
	case side == West && col == 0:
		return 2*cols + rows + row
	}
	return -1
}

// OutwardMask returns the sides of (row, col) that face the frame, as bits
// 1<<side.
func OutwardMask(rows, cols, row, col int) int {
	m := 0
	if row == 0 {
		m |= 1 << North
	}
	if col == cols-1 {
		m |= 1 << East
	}
	if row == rows-1 {
		m |= 1 << South
	}
	if col == 0 {
		m |= 1 << West
	}
	return m
}

// Colours returns one more than the largest colour used by the tiles and
// the frame: the size of a table indexed by colour.
func (p *Puzzle) Colours() int {
	m := 0
	for _, t := range p.Tiles {
		for _, c := range t {
			m = max(m, int(c))
		}
	}
	for _, c := range p.Frame {
		m = max(m, int(c))
	}
	return m + 1
}

// Describe names the puzzle's shape for people: "16x16, 256 pieces, 22
// colours", then ", coloured frame", ", fixed orientation" and the number of
// hints where they apply.
func (p *Puzzle) Describe() string {
	s := fmt.Sprintf("%dx%d, %s, %s", p.Rows, p.Cols, plural(len(p.Tiles), "piece"), plural(p.Colours()-1, "colour"))
	if p.Frame != nil {
		s += ", coloured frame"
	}
	if p.FixedOrientation {
		s += ", fixed orientation"
	}
	if n := len(p.Hints); n > 0 {
		s += ", " + plural(n, "hint")
	}
	return s
}

// plural writes n and the noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Validate checks the puzzle's shape: the sizes, the tile count, the frame
// length, and hints in range on distinct cells with distinct pieces. It
// does not decide whether the puzzle has a solution.
func (p *Puzzle) Validate() error {
	if p.Rows < 1 || p.Cols < 1 || p.Rows > MaxSide || p.Cols > MaxSide {
		return fmt.Errorf("edgematch: %dx%d board: rows and columns must be 1..%d", p.Rows, p.Cols, MaxSide)
	}
	if len(p.Tiles) != p.Cells() {
		return fmt.Errorf("edgematch: %d pieces for a %dx%d board, want %d", len(p.Tiles), p.Rows, p.Cols, p.Cells())
	}
	if p.Frame != nil && len(p.Frame) != 2*(p.Rows+p.Cols) {
		return fmt.Errorf("edgematch: frame of %d colours for a %dx%d board, want %d", len(p.Frame), p.Rows, p.Cols, 2*(p.Rows+p.Cols))
	}
	cells := make(map[int]int)
	pieces := make(map[int]int)
	for i, h := range p.Hints {
		switch {
		case h.Piece < 0 || h.Piece >= len(p.Tiles):
			return fmt.Errorf("edgematch: hint %d: piece %d out of range 1..%d", i+1, h.Piece+1, len(p.Tiles))
		case h.Row < 0 || h.Row >= p.Rows || h.Col < 0 || h.Col >= p.Cols:
			return fmt.Errorf("edgematch: hint %d: cell (%d,%d) outside the %dx%d board", i+1, h.Row, h.Col, p.Rows, p.Cols)
		case h.Rot < 0 || h.Rot > 3:
			return fmt.Errorf("edgematch: hint %d: rotation %d out of range 0..3", i+1, h.Rot)
		case p.FixedOrientation && h.Rot != 0:
			return fmt.Errorf("edgematch: hint %d: rotation %d in a puzzle with fixed orientation", i+1, h.Rot)
		}
		if j, ok := cells[h.Row*p.Cols+h.Col]; ok {
			return fmt.Errorf("edgematch: hints %d and %d fix the same cell (%d,%d)", j+1, i+1, h.Row, h.Col)
		}
		if j, ok := pieces[h.Piece]; ok {
			return fmt.Errorf("edgematch: hints %d and %d fix the same piece %d", j+1, i+1, h.Piece+1)
		}
		cells[h.Row*p.Cols+h.Col] = i
		pieces[h.Piece] = i
	}
	return nil
}

// Clone returns a deep copy of p.
func (p *Puzzle) Clone() *Puzzle {
	q := *p
	q.Tiles = append([]Tile(nil), p.Tiles...)
	if p.Frame != nil {
		q.Frame = append([]Colour(nil), p.Frame...)
	}
	q.Hints = append([]Hint(nil), p.Hints...)
	return &q
}

// Sentinel errors of the solvers.
var (
	// ErrBudget is returned (wrapped) when a solver stops at one of its
	// limits (nodes, time) before finishing; the result holds the best found.
	ErrBudget = errors.New("edgematch: budget exhausted")
	// ErrNoSolution is returned when an exhaustive search proves that the
	// puzzle (with its hints) has no solution.
	ErrNoSolution = errors.New("edgematch: no solution")
)

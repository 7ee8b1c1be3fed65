package edgematch

import (
	"fmt"
)

// NoPiece marks an empty cell.
const NoPiece = -1

// Placement is the content of one cell: a piece (counting from 0, or
// NoPiece) turned clockwise by Rot quarter turns.
type Placement struct {
	Piece int
	Rot   int
}

// Board is a (partial) placement of the pieces: Cells holds Rows*Cols
// placements row by row from the top left.
type Board struct {
	Rows, Cols int
	Cells      []Placement
}

// NewBoard returns an empty rows x cols board.
func NewBoard(rows, cols int) *Board {
	b := &Board{Rows: rows, Cols: cols, Cells: make([]Placement, rows*cols)}
	for i := range b.Cells {
		b.Cells[i].Piece = NoPiece
	}
	return b
}

// At returns the placement at (row, col).
func (b *Board) At(row, col int) Placement { return b.Cells[row*b.Cols+col] }

// Set places piece turned rot times at (row, col).
func (b *Board) Set(row, col, piece, rot int) { b.Cells[row*b.Cols+col] = Placement{piece, rot & 3} }

// Clone returns a copy of b.
func (b *Board) Clone() *Board {
	return &Board{Rows: b.Rows, Cols: b.Cols, Cells: append([]Placement(nil), b.Cells...)}
}

// Filled returns the number of non-empty cells.
func (b *Board) Filled() int {
	n := 0
	for _, c := range b.Cells {
		if c.Piece != NoPiece {
			n++
		}
	}
	return n
}

// Edge returns the colour that the placement at cell i shows on side d.
func (p *Puzzle) Edge(c Placement, d int) Colour {
	return p.Tiles[c.Piece][(d-c.Rot)&3]
}

// Score is the canonical evaluation of a board, computed from the pieces
// alone: it never trusts a solver's own count.
type Score struct {
	// Matched counts the internal edges whose two sides show the same
	// colour, grey excepted: the community's score (470 of 480 is the
	// Eternity II record).
	Matched int
	// Max is the number of internal edges, Puzzle.MaxScore.
	Max int
	// FrameErrors counts outward edges of filled border cells that do not
	// show the frame colour (grey must face out).
	FrameErrors int
	// Empty counts empty cells.
	Empty int
}

// Solved reports whether the board is a complete solution.
func (s Score) Solved() bool { return s.Matched == s.Max && s.FrameErrors == 0 && s.Empty == 0 }

// Mismatches returns Max - Matched.
func (s Score) Mismatches() int { return s.Max - s.Matched }

// String formats the score as "470/480", with frame errors and empty cells
// when there are any.
func (s Score) String() string {
	t := fmt.Sprintf("%d/%d", s.Matched, s.Max)
	if s.FrameErrors > 0 {
		t += fmt.Sprintf(", %d frame errors", s.FrameErrors)
	}
	if s.Empty > 0 {
		t += fmt.Sprintf(", %d empty cells", s.Empty)
	}
	return t
}

// Score evaluates b against p. An edge next to an empty cell does not
// match. Score panics if b does not fit p (different size, piece out of
// range); Check tells that first.
func (p *Puzzle) Score(b *Board) Score {
	if b.Rows != p.Rows || b.Cols != p.Cols {
		panic(fmt.Sprintf("edgematch: scoring a %dx%d board against a %dx%d puzzle", b.Rows, b.Cols, p.Rows, p.Cols))
	}
	s := Score{Max: p.MaxScore()}
	for r := range p.Rows {
		for c := range p.Cols {
			cell := b.Cells[r*p.Cols+c]
			if cell.Piece == NoPiece {
				s.Empty++
				continue
			}
			for d := range 4 {
				if FrameIndex(p.Rows, p.Cols, r, c, d) >= 0 && p.Edge(cell, d) != p.FrameColour(r, c, d) {
					s.FrameErrors++
				}
			}
			if c+1 < p.Cols {
				if right := b.Cells[r*p.Cols+c+1]; right.Piece != NoPiece {
					if e := p.Edge(cell, East); e != Grey && e == p.Edge(right, West) {
						s.Matched++
					}
				}
			}
			if r+1 < p.Rows {
				if below := b.Cells[(r+1)*p.Cols+c]; below.Piece != NoPiece {
					if e := p.Edge(cell, South); e != Grey && e == p.Edge(below, North) {
						s.Matched++
					}
				}
			}
		}
	}
	return s
}

// Check reports whether b fits p: the same size, pieces in range, each
// piece at most once, rotations 0..3 (0 only with FixedOrientation). Empty
// cells are allowed.
func (p *Puzzle) Check(b *Board) error {
	if b.Rows != p.Rows || b.Cols != p.Cols {
		return fmt.Errorf("edgematch: %dx%d board for a %dx%d puzzle", b.Rows, b.Cols, p.Rows, p.Cols)
	}
	if len(b.Cells) != b.Rows*b.Cols {
		return fmt.Errorf("edgematch: board has %d cells, want %d", len(b.Cells), b.Rows*b.Cols)
	}
	where := make([]int, len(p.Tiles))
	for i, c := range b.Cells {
		r, col := i/b.Cols+1, i%b.Cols+1
		if c.Piece == NoPiece {
			continue
		}
		if c.Piece < 0 || c.Piece >= len(p.Tiles) {
			return fmt.Errorf("edgematch: row %d, column %d: piece %d out of range 1..%d", r, col, c.Piece+1, len(p.Tiles))
		}
		if c.Rot < 0 || c.Rot > 3 {
			return fmt.Errorf("edgematch: row %d, column %d: rotation %d out of range 0..3", r, col, c.Rot)
		}
		if p.FixedOrientation && c.Rot != 0 {
			return fmt.Errorf("edgematch: row %d, column %d: piece %d rotated in a puzzle with fixed orientation", r, col, c.Piece+1)
		}
		if j := where[c.Piece]; j != 0 {
			return fmt.Errorf("edgematch: piece %d is placed twice: row %d, column %d and row %d, column %d", c.Piece+1, (j-1)/b.Cols+1, (j-1)%b.Cols+1, r, col)
		}
		where[c.Piece] = i + 1
	}
	return nil
}

// Verify checks that b is a complete placement for p: it fits p (Check),
// every piece is placed exactly once, and every hint is respected. It does
// not require the edges to match; Score counts them.
func (p *Puzzle) Verify(b *Board) error {
	if err := p.Check(b); err != nil {
		return err
	}
	for i, c := range b.Cells {
		if c.Piece == NoPiece {
			return fmt.Errorf("edgematch: row %d, column %d is empty", i/b.Cols+1, i%b.Cols+1)
		}
	}
	for _, h := range p.Hints {
		got := b.At(h.Row, h.Col)
		if got.Piece != h.Piece || got.Rot != h.Rot {
			return fmt.Errorf("edgematch: hint not respected: piece %d rotation %d belongs at row %d, column %d, which holds piece %d rotation %d",
				h.Piece+1, h.Rot, h.Row+1, h.Col+1, got.Piece+1, got.Rot)
		}
	}
	return nil
}

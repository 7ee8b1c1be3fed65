package npuzzle

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Board sizes accepted by this package, for rows and columns alike.
const (
	MinSide = 2
	MaxSide = 10
)

// Goal selects where the blank sits on the solved board.
type Goal uint8

const (
	// BlankLast is the game's goal: 1 2 ... n-1 with the blank bottom-right.
	BlankLast Goal = iota
	// BlankFirst is the goal of Korf's benchmark data: the blank top-left,
	// then 1 2 ... n-1.
	BlankFirst
)

// String returns "blank-last" or "blank-first".
func (g Goal) String() string {
	if g == BlankFirst {
		return "blank-first"
	}
	return "blank-last"
}

// ParseGoal parses "blank-last" or "blank-first".
func ParseGoal(s string) (Goal, error) {
	switch s {
	case "blank-last", "last":
		return BlankLast, nil
	case "blank-first", "first":
		return BlankFirst, nil
	}
	return 0, fmt.Errorf("npuzzle: unknown goal %q (want blank-last or blank-first)", s)
}

// goalCell returns the cell of tile t on the solved board of n cells.
func (g Goal) goalCell(t, n int) int {
	if g == BlankFirst {
		return t
	}
	if t == 0 {
		return n - 1
	}
	return t - 1
}

// goalTile returns the tile at cell c of the solved board of n cells.
func (g Goal) goalTile(c, n int) int {
	if g == BlankFirst {
		return c
	}
	if c == n-1 {
		return 0
	}
	return c + 1
}

// Move names a move by the direction the tile moves into the blank: Up
// moves the tile below the blank up.
type Move uint8

// The four moves. Moves lists them in the order up, left, right, down of the
// blank (Korf's order), which is Down, Right, Left, Up of the tile.
const (
	Up Move = iota
	Down
	Left
	Right
)

var moveLetters = [4]byte{'U', 'D', 'L', 'R'}

// String returns "U", "D", "L" or "R".
func (m Move) String() string {
	if m > Right {
		return "?"
	}
	return string(moveLetters[m])
}

// Inverse returns the move that undoes m.
func (m Move) Inverse() Move { return m ^ 1 }

// FormatMoves writes moves as letters, for example "RDLU".
func FormatMoves(moves []Move) string {
	b := make([]byte, len(moves))
	for i, m := range moves {
		b[i] = moveLetters[m&3]
	}
	return string(b)
}

// ParseMoves reads moves written as the letters U, D, L, R (either case),
// optionally separated by spaces or commas.
func ParseMoves(s string) ([]Move, error) {
	var moves []Move
	for i, r := range s {
		switch r {
		case 'U', 'u':
			moves = append(moves, Up)
		case 'D', 'd':
			moves = append(moves, Down)
		case 'L', 'l':
			moves = append(moves, Left)
		case 'R', 'r':
			moves = append(moves, Right)
		case ' ', ',', '\t', '\n':
		default:
			return nil, fmt.Errorf("npuzzle: move %q at offset %d is not one of U, D, L, R", r, i)
		}
	}
	return moves, nil
}

// Board is a sliding-tile puzzle of Rows x Cols cells holding the tiles
// 1 .. Rows*Cols-1 and the blank, 0. Methods that change the board take a
// pointer; use Clone to keep a copy.
type Board struct {
	rows, cols int
	cells      []uint8 // the tile at each cell, row-major
	blank      int     // the cell of the blank
}

// Size is the shape of a board, written "ROWSxCOLS" (rows first, as in
// "an m x n board").
type Size struct{ Rows, Cols int }

// String returns "ROWSxCOLS".
func (s Size) String() string { return fmt.Sprintf("%dx%d", s.Rows, s.Cols) }

// ParseSize reads "ROWSxCOLS", such as "4x4" or "3x5", or a single number for
// a square board, and checks it against MinSide and MaxSide.
func ParseSize(s string) (Size, error) {
	r, c, found := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if !found {
		c = r
	}
	rows, err1 := strconv.Atoi(r)
	cols, err2 := strconv.Atoi(c)
	if err1 != nil || err2 != nil {
		return Size{}, fmt.Errorf("npuzzle: size %q is not ROWSxCOLS, such as 4x4", s)
	}
	sz := Size{rows, cols}
	return sz, sz.check()
}

func (s Size) check() error {
	if s.Rows < MinSide || s.Rows > MaxSide || s.Cols < MinSide || s.Cols > MaxSide {
		return fmt.Errorf("npuzzle: size %v out of range: rows and columns must be %d to %d", s, MinSide, MaxSide)
	}
	return nil
}

// Solved returns the goal board of the given size. It panics if the size
// is out of range (programmer misuse; ParseSize checks user input).
func Solved(s Size, g Goal) *Board {
	if err := s.check(); err != nil {
		panic(err)
	}
	n := s.Rows * s.Cols
	b := &Board{rows: s.Rows, cols: s.Cols, cells: make([]uint8, n)}
	for c := range n {
		b.cells[c] = uint8(g.goalTile(c, n))
		if b.cells[c] == 0 {
			b.blank = c
		}
	}
	return b
}

// FromTiles builds a board from its tiles in row-major order, checking that
// they are a permutation of 0 .. rows*cols-1.
func FromTiles(s Size, tiles []int) (*Board, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	n := s.Rows * s.Cols
	if len(tiles) != n {
		return nil, fmt.Errorf("npuzzle: %d tiles for a %v board, want %d", len(tiles), s, n)
	}
	b := &Board{rows: s.Rows, cols: s.Cols, cells: make([]uint8, n)}
	seen := make([]int, n) // 1 + the cell where each tile was seen
	for c, t := range tiles {
		if t < 0 || t >= n {
			return nil, fmt.Errorf("npuzzle: tile %d at cell %d is out of range 0..%d", t, c+1, n-1)
		}
		if seen[t] != 0 {
			return nil, fmt.Errorf("npuzzle: tile %d appears twice (cells %d and %d)", t, seen[t], c+1)
		}
		seen[t] = c + 1
		b.cells[c] = uint8(t)
		if t == 0 {
			b.blank = c
		}
	}
	return b, nil
}

// Size returns the board's shape.
func (b *Board) Size() Size { return Size{b.rows, b.cols} }

// Rows returns the number of rows.
func (b *Board) Rows() int { return b.rows }

// Cols returns the number of columns.
func (b *Board) Cols() int { return b.cols }

// Len returns the number of cells, Rows*Cols.
func (b *Board) Len() int { return len(b.cells) }

// At returns the tile at row r, column c (0 for the blank).
func (b *Board) At(r, c int) int { return int(b.cells[r*b.cols+c]) }

// Tiles returns the tiles in row-major order.
func (b *Board) Tiles() []int {
	t := make([]int, len(b.cells))
	for i, v := range b.cells {
		t[i] = int(v)
	}
	return t
}

// Blank returns the row and column of the blank.
func (b *Board) Blank() (r, c int) { return b.blank / b.cols, b.blank % b.cols }

// Clone returns an independent copy of b.
func (b *Board) Clone() *Board {
	c := *b
	c.cells = append([]uint8(nil), b.cells...)
	return &c
}

// Equal reports whether a and b have the same size and tiles.
func (b *Board) Equal(o *Board) bool {
	return b.rows == o.rows && b.cols == o.cols && string(b.cells) == string(o.cells)
}

// IsSolved reports whether b is the goal board for g.
func (b *Board) IsSolved(g Goal) bool {
	n := len(b.cells)
	for c, t := range b.cells {
		if int(t) != g.goalTile(c, n) {
			return false
		}
	}
	return true
}

// target returns the cell the blank reaches with move m from cell blank, or
// -1 if m is not legal there.
func target(rows, cols, blank int, m Move) int {
	r, c := blank/cols, blank%cols
	switch m {
	case Up: // the tile below moves up
		if r < rows-1 {
			return blank + cols
		}
	case Down:
		if r > 0 {
			return blank - cols
		}
	case Left: // the tile to the right moves left
		if c < cols-1 {
			return blank + 1
		}
	case Right:
		if c > 0 {
			return blank - 1
		}
	}
	return -1
}

// korfOrder lists the moves in Korf's order of the blank: up, left, right,
// down.
var korfOrder = [4]Move{Down, Right, Left, Up}

// Moves returns the legal moves, in Korf's order (blank up, left, right,
// down).
func (b *Board) Moves() []Move {
	var ms []Move
	for _, m := range korfOrder {
		if target(b.rows, b.cols, b.blank, m) >= 0 {
			ms = append(ms, m)
		}
	}
	return ms
}

// ErrIllegalMove is returned by Apply and Replay for a move that has no tile
// to slide.
var ErrIllegalMove = errors.New("npuzzle: illegal move")

// Apply slides a tile into the blank, in place.
func (b *Board) Apply(m Move) error {
	t := target(b.rows, b.cols, b.blank, m)
	if t < 0 {
		return fmt.Errorf("%w: no tile can move %v", ErrIllegalMove, m)
	}
	b.cells[b.blank], b.cells[t] = b.cells[t], 0
	b.blank = t
	return nil
}

// TileAt returns the move that slides the tile at row r, column c into the
// blank, and false if that tile is not next to the blank.
func (b *Board) TileAt(r, c int) (Move, bool) {
	for _, m := range korfOrder {
		if t := target(b.rows, b.cols, b.blank, m); t >= 0 && t == r*b.cols+c {
			return m, true
		}
	}
	return 0, false
}

// Replay applies moves to a copy of b and returns the board reached, or an
// error naming the first illegal move.
func Replay(b *Board, moves []Move) (*Board, error) {
	c := b.Clone()
	for i, m := range moves {
		if err := c.Apply(m); err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	return c, nil
}

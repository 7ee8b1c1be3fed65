package samegame

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Limits of a Board.
const (
	MaxSize   = 20 // the most columns and the most rows
	MaxColors = 10 // the most colours
)

// Rules says what a click removes, how the board closes up and what is
// counted. See the package documentation for the full statement.
type Rules uint8

const (
	// Standard is SameGame as in the literature: groups of two or more,
	// (n-2)^2 points, +1000 for an empty board, columns shift left.
	Standard Rules = iota
	// Dust is the source blog's game: any group (even one cell) may be
	// clicked, each row is packed toward the centre, fewest clicks wins.
	Dust
)

// String returns "standard" or "dust".
func (r Rules) String() string {
	switch r {
	case Standard:
		return "standard"
	case Dust:
		return "dust"
	}
	return fmt.Sprintf("Rules(%d)", uint8(r))
}

// ParseRules reads "standard" (or "samegame") and "dust".
func ParseRules(s string) (Rules, error) {
	switch strings.ToLower(s) {
	case "standard", "samegame", "std":
		return Standard, nil
	case "dust":
		return Dust, nil
	}
	return 0, fmt.Errorf("samegame: unknown rules %q (want standard or dust)", s)
}

// MinGroup is the smallest group a click removes: 2 for Standard, 1 for Dust.
func (r Rules) MinGroup() int {
	if r == Dust {
		return 1
	}
	return 2
}

// Points is what removing a group of n cells scores: (n-2)^2 under
// Standard, 0 under Dust (where only clicks count).
func (r Rules) Points(n int) int {
	if r == Dust || n < 2 {
		return 0
	}
	return (n - 2) * (n - 2)
}

// ClearBonus is the bonus for emptying the board under Standard rules.
const ClearBonus = 1000

// Color is the content of a cell: Empty, or a colour 0 .. MaxColors-1.
type Color int8

// Empty is the colour of an empty cell.
const Empty Color = -1

// Layout of Board.cells: column-major with a border. Column x of the board
// is stored at column x+1 of the array; every array column has stride
// entries, of which row MaxSize is always empty. So the neighbours of a cell
// i are i-1, i+1, i-stride and i+stride with no bounds checks: a step off
// the board lands on an empty border cell.
const (
	stride   = MaxSize + 1
	numCells = (MaxSize + 2) * stride
	// cellMask: the arrays indexed by cell have cellMask+1 entries, a power
	// of two, so that indexing with i&cellMask needs no bounds check.
	cellMask = 511
)

// Board is a SameGame position. Coordinates: x is the column from the left
// (0 .. Width-1), y the row from the bottom (0 .. Height-1), as in the data
// files' move lists; text formats list the top row first.
//
// A Board is always settled: no cell floats above an empty one, and the
// board is closed up as its Rules demand (no empty column left of a
// non-empty one under Standard; every row packed toward the centre under
// Dust). A Board is a value of fixed size (about 500 bytes) with no
// pointers: assignment copies it, and the zero value is an empty 0x0 board.
type Board struct {
	w, h   uint8
	rules  Rules
	colors uint8               // size of the palette: every colour is below it
	height [MaxSize]uint8      // number of filled cells of each column
	cells  [cellMask + 1]uint8 // 0 empty, c+1 for colour c; numCells used
}

// idx returns the index of cell (x, y) in cells.
func idx(x, y int) int { return (x+1)*stride + y }

// NewBoard returns an empty board of w columns and h rows with a palette of
// colors colours. It returns an error when a size is out of 1 .. MaxSize or
// colors out of 1 .. MaxColors.
func NewBoard(w, h, colors int, rules Rules) (*Board, error) {
	if w < 1 || w > MaxSize || h < 1 || h > MaxSize {
		return nil, fmt.Errorf("samegame: board size %dx%d out of range (1x1 to %dx%d)", w, h, MaxSize, MaxSize)
	}
	if colors < 1 || colors > MaxColors {
		return nil, fmt.Errorf("samegame: %d colours out of range (1 to %d)", colors, MaxColors)
	}
	if rules > Dust {
		return nil, fmt.Errorf("samegame: unknown rules %d", rules)
	}
	return &Board{w: uint8(w), h: uint8(h), rules: rules, colors: uint8(colors)}, nil
}

// FromRows builds a board from rows listed top row first, each with one
// Color per column (Empty for empty cells). The board must be settled (see
// Board); colors is the palette size, or 0 for one more than the largest
// colour used.
func FromRows(rows [][]Color, colors int, rules Rules) (*Board, error) {
	h := len(rows)
	if h == 0 {
		return nil, fmt.Errorf("samegame: board has no rows")
	}
	w := len(rows[0])
	maxc := -1
	for r, row := range rows {
		if len(row) != w {
			return nil, fmt.Errorf("samegame: row %d has %d cells, row 1 has %d", r+1, len(row), w)
		}
		for _, c := range row {
			if c < Empty || int(c) >= MaxColors {
				return nil, fmt.Errorf("samegame: row %d: colour %d out of range (0 to %d)", r+1, c, MaxColors-1)
			}
			maxc = max(maxc, int(c))
		}
	}
	if colors == 0 {
		colors = max(1, maxc+1)
	}
	if maxc >= colors {
		return nil, fmt.Errorf("samegame: colour %d outside a palette of %d colours", maxc, colors)
	}
	b, err := NewBoard(w, h, colors, rules)
	if err != nil {
		return nil, err
	}
	for r, row := range rows {
		y := h - 1 - r
		for x, c := range row {
			b.cells[idx(x, y)] = uint8(c + 1)
		}
	}
	for x := range w {
		for y := range h {
			if b.cells[idx(x, y)] != 0 {
				b.height[x] = uint8(y + 1)
			}
		}
	}
	if err := b.checkSettled(); err != nil {
		return nil, err
	}
	return b, nil
}

// checkSettled reports why the board is not settled under its rules.
func (b *Board) checkSettled() error {
	w, h := int(b.w), int(b.h)
	for x := range w {
		for y := range int(b.height[x]) {
			if b.cells[idx(x, y)] == 0 {
				return fmt.Errorf("samegame: cell (%d,%d) is empty below a filled cell (x from the left, y from the bottom)", x, y)
			}
		}
	}
	switch b.rules {
	case Standard:
		for x := 1; x < w; x++ {
			if b.height[x] > 0 && b.height[x-1] == 0 {
				return fmt.Errorf("samegame: column %d is empty but column %d is not (standard rules close columns up to the left)", x-1, x)
			}
		}
	case Dust:
		mid := w / 2
		for y := range h {
			for x := 1; x < mid; x++ {
				if b.cells[idx(x-1, y)] != 0 && b.cells[idx(x, y)] == 0 {
					return fmt.Errorf("samegame: row %d is not packed toward the centre at column %d (dust rules)", y, x)
				}
			}
			for x := mid + 1; x < w; x++ {
				if b.cells[idx(x, y)] != 0 && b.cells[idx(x-1, y)] == 0 {
					return fmt.Errorf("samegame: row %d is not packed toward the centre at column %d (dust rules)", y, x)
				}
			}
		}
	}
	return nil
}

// Random returns a full board of w x h cells, each of a colour drawn
// uniformly from colors colours by rng. It panics when a size is out of
// range (programmer misuse).
func Random(w, h, colors int, rules Rules, rng *rand.Rand) *Board {
	b, err := NewBoard(w, h, colors, rules)
	if err != nil {
		panic(err)
	}
	// Row by row from the top, left to right, as the files list them.
	for y := h - 1; y >= 0; y-- {
		for x := range w {
			b.cells[idx(x, y)] = uint8(rng.IntN(colors) + 1)
		}
	}
	for x := range w {
		b.height[x] = uint8(h)
	}
	return b
}

// Width returns the number of columns.
func (b *Board) Width() int { return int(b.w) }

// Height returns the number of rows.
func (b *Board) Height() int { return int(b.h) }

// Rules returns the board's rules.
func (b *Board) Rules() Rules { return b.rules }

// Colors returns the size of the palette: every colour is below it.
func (b *Board) Colors() int { return int(b.colors) }

// At returns the colour of cell (x, y), or Empty. It panics when (x, y) is
// off the board.
func (b *Board) At(x, y int) Color {
	if x < 0 || x >= int(b.w) || y < 0 || y >= int(b.h) {
		panic(fmt.Sprintf("samegame: cell (%d,%d) off a %dx%d board", x, y, b.w, b.h))
	}
	return Color(b.cells[idx(x, y)]) - 1
}

// ColumnHeight returns the number of filled cells of column x.
func (b *Board) ColumnHeight(x int) int { return int(b.height[x]) }

// setFrom makes b a copy of src, which must have b's size and rules, copying
// only the columns in use (the others stay empty on both).
func (b *Board) setFrom(src *Board) {
	b.height = src.height
	n := (int(src.w) + 2) * stride
	copy(b.cells[:n], src.cells[:n])
}

// Clone returns a copy of b.
func (b *Board) Clone() *Board {
	c := *b
	return &c
}

// Equal reports whether b and c have the same size, rules and cells.
func (b *Board) Equal(c *Board) bool {
	return b.w == c.w && b.h == c.h && b.rules == c.rules && b.height == c.height && b.cells == c.cells
}

// Cells returns the number of filled cells.
func (b *Board) Cells() int {
	n := 0
	for x := range int(b.w) {
		n += int(b.height[x])
	}
	return n
}

// IsEmpty reports whether every cell is empty.
func (b *Board) IsEmpty() bool {
	for x := range int(b.w) {
		if b.height[x] != 0 {
			return false
		}
	}
	return true
}

// ColorCounts returns the number of cells of each colour.
func (b *Board) ColorCounts() [MaxColors]int {
	var n [MaxColors]int
	for x := range int(b.w) {
		base := idx(x, 0)
		for i := base; i < base+int(b.height[x]); i++ {
			n[b.cells[i]-1]++
		}
	}
	return n
}

// ColorsLeft returns the number of distinct colours on the board: a lower
// bound on the clicks needed to clear it.
func (b *Board) ColorsLeft() int {
	var seen uint16
	for x := range int(b.w) {
		base := idx(x, 0)
		for i := base; i < base+int(b.height[x]); i++ {
			seen |= 1 << b.cells[i]
		}
	}
	n := 0
	for ; seen != 0; seen &= seen - 1 {
		n++
	}
	return n
}

// GameOver reports whether no click is possible: under Dust when the board
// is empty, under Standard when no two adjacent cells share a colour.
func (b *Board) GameOver() bool {
	if b.rules == Dust {
		return b.IsEmpty()
	}
	for x := range int(b.w) {
		base := idx(x, 0)
		for i := base; i < base+int(b.height[x]); i++ {
			c := b.cells[i]
			if b.cells[i+1] == c || b.cells[i+stride] == c {
				return false
			}
		}
	}
	return true
}

// String formats the board in the digit format (see Format).
func (b *Board) String() string { return Format(b, Digits) }

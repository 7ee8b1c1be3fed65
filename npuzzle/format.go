package npuzzle

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseError describes a malformed board: the token (1-based, counting
// tiles) or line where the problem is, and what is wrong.
type ParseError struct {
	Line  int    // 1-based line (row) of the problem, 0 if not about one line
	Token int    // 1-based index of the tile, 0 if not about one tile
	Msg   string // what is wrong
}

func (e *ParseError) Error() string {
	switch {
	case e.Token > 0:
		return fmt.Sprintf("npuzzle: tile %d: %s", e.Token, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("npuzzle: row %d: %s", e.Line, e.Msg)
	}
	return "npuzzle: " + e.Msg
}

// Parse reads a board: tile numbers separated by spaces or commas, 0 (or
// "_") for the blank, rows separated by newlines or "/". With size zero the
// shape comes from the rows, or for a single row of a square number of tiles
// from that number; otherwise the tiles must fill the given size.
//
// Examples: "1 2 3 4 5 6 7 8 0", "1 2 3/4 5 6/7 8 0", and the output of
// Board.String.
func Parse(text string, size Size) (*Board, error) {
	var rows [][]string
	for _, line := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '/' || r == ';' }) {
		f := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\r' })
		if len(f) > 0 {
			rows = append(rows, f)
		}
	}
	if len(rows) == 0 {
		return nil, &ParseError{Msg: "empty board"}
	}
	var tiles []int
	for _, r := range rows {
		for _, tok := range r {
			if tok == "_" || tok == "." {
				tok = "0"
			}
			v, err := strconv.Atoi(tok)
			if err != nil {
				return nil, &ParseError{Token: len(tiles) + 1, Msg: fmt.Sprintf("%q is not a number", tok)}
			}
			tiles = append(tiles, v)
		}
	}
	switch {
	case len(rows) > 1:
		for i, r := range rows {
			if len(r) != len(rows[0]) {
				return nil, &ParseError{Line: i + 1, Msg: fmt.Sprintf("%d tiles, but row 1 has %d", len(r), len(rows[0]))}
			}
		}
		shape := Size{len(rows), len(rows[0])}
		if size != (Size{}) && size != shape {
			return nil, &ParseError{Msg: fmt.Sprintf("%v rows and columns given for a %v board", shape, size)}
		}
		size = shape
	case size == Size{}:
		side := int(math.Round(math.Sqrt(float64(len(tiles)))))
		if side*side != len(tiles) {
			return nil, &ParseError{Msg: fmt.Sprintf("cannot tell the shape of %d tiles in one row: give the size (such as 3x4) or one line per row", len(tiles))}
		}
		size = Size{side, side}
	}
	if err := size.check(); err != nil {
		return nil, err
	}
	if len(tiles) != size.Rows*size.Cols {
		return nil, &ParseError{Msg: fmt.Sprintf("%d tiles for a %v board, want %d", len(tiles), size, size.Rows*size.Cols)}
	}
	hasBlank := false
	for _, t := range tiles {
		hasBlank = hasBlank || t == 0
	}
	seen := make([]int, len(tiles))
	for i, t := range tiles {
		if t == len(tiles) && !hasBlank {
			return nil, &ParseError{Msg: fmt.Sprintf("no blank: tiles are 1..%d and 0 (or _) for the blank", len(tiles)-1)}
		}
		if t < 0 || t >= len(tiles) {
			return nil, &ParseError{Token: i + 1, Msg: fmt.Sprintf("%d is out of range 0..%d", t, len(tiles)-1)}
		}
		if seen[t] != 0 {
			return nil, &ParseError{Token: i + 1, Msg: fmt.Sprintf("%d appears twice (also tile %d)", t, seen[t])}
		}
		seen[t] = i + 1
	}
	return FromTiles(size, tiles)
}

// String formats the board as rows of right-aligned numbers, 0 for the
// blank, one row per line. Parse reads it back.
func (b *Board) String() string {
	return b.join('\n', len(strconv.Itoa(len(b.cells)-1)))
}

// Line formats the board on one line with "/" between rows, such as
// "1 2 3/4 5 6/7 8 0". Parse reads it back.
func (b *Board) Line() string { return b.join('/', 0) }

// join writes the tiles row by row, a space between tiles and rowSep
// between rows, each number right-aligned to width characters.
func (b *Board) join(rowSep byte, width int) string {
	var sb strings.Builder
	for i, t := range b.cells {
		if i > 0 {
			if i%b.cols == 0 {
				sb.WriteByte(rowSep)
			} else {
				sb.WriteByte(' ')
			}
		}
		num := strconv.Itoa(int(t))
		for range width - len(num) {
			sb.WriteByte(' ')
		}
		sb.WriteString(num)
	}
	return sb.String()
}

// MarshalText encodes the board as Line does.
func (b *Board) MarshalText() ([]byte, error) { return []byte(b.Line()), nil }

// UnmarshalText decodes a board written by MarshalText or String.
func (b *Board) UnmarshalText(text []byte) error {
	p, err := Parse(string(text), Size{})
	if err != nil {
		return err
	}
	*b = *p
	return nil
}

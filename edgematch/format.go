package edgematch

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ParseError describes a malformed file: the line (1-based, 0 if about
// the whole file) and what is wrong.
type ParseError struct {
	What string // "puzzle", "board" or "hints"
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("edgematch: %s line %d: %s", e.What, e.Line, e.Msg)
	}
	return fmt.Sprintf("edgematch: %s: %s", e.What, e.Msg)
}

// maxFileBytes bounds what the parsers read.
const maxFileBytes = 16 << 20

// dataLines returns the lines of r without comments ("#" to the end of the
// line) and blank lines, each split into fields, with its line number.
func dataLines(r io.Reader, what string) ([]numberedLine, error) {
	sc := bufio.NewScanner(io.LimitReader(r, maxFileBytes))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var out []numberedLine
	n := 0
	for sc.Scan() {
		n++
		data, _, _ := strings.Cut(sc.Text(), "#") // comments run to the end of the line
		if f := strings.Fields(data); len(f) > 0 {
			out = append(out, numberedLine{n, f})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &ParseError{What: what, Line: n + 1, Msg: err.Error()}
	}
	return out, nil
}

type numberedLine struct {
	n int
	f []string
}

// atoi parses a non-negative integer at most hi.
func atoi(s string, hi int, what string) (int, error) {
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%s %q is not a non-negative integer", what, s)
	}
	if v > hi {
		return 0, fmt.Errorf("%s %d is above %d", what, v, hi)
	}
	return v, nil
}

// parseSize reads the "ROWS COLS" line.
func parseSize(l numberedLine, what string) (int, int, error) {
	if len(l.f) != 2 {
		return 0, 0, &ParseError{what, l.n, fmt.Sprintf("want \"ROWS COLS\", got %q", strings.Join(l.f, " "))}
	}
	rows, err1 := strconv.Atoi(l.f[0])
	cols, err2 := strconv.Atoi(l.f[1])
	if err1 != nil || err2 != nil || rows < 1 || cols < 1 || rows > MaxSide || cols > MaxSide {
		return 0, 0, &ParseError{what, l.n, fmt.Sprintf("size %q: rows and columns must be integers 1..%d", strings.Join(l.f, " "), MaxSide)}
	}
	return rows, cols, nil
}

// sizedLines reads the data lines of a file that opens with its "ROWS
// COLS" line (dataLines, parseSize) and returns the size and the lines
// after it; body says what an empty file lacks after the size line.
func sizedLines(r io.Reader, what, body string) (rows, cols int, lines []numberedLine, err error) {
	if lines, err = dataLines(r, what); err != nil {
		return 0, 0, nil, err
	}
	if len(lines) == 0 {
		return 0, 0, nil, &ParseError{What: what, Msg: "empty file: want a \"ROWS COLS\" line, then " + body}
	}
	if rows, cols, err = parseSize(lines[0], what); err != nil {
		return 0, 0, nil, err
	}
	return rows, cols, lines[1:], nil
}

// ParseSize reads a board size written "ROWSxCOLS" ("8x8", "16X16"), as
// command lines and generated puzzle names write it.
func ParseSize(s string) (rows, cols int, err error) {
	a, b, ok := strings.Cut(strings.ToLower(s), "x")
	r, err1 := strconv.Atoi(a)
	c, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || r < 1 || c < 1 {
		return 0, 0, fmt.Errorf("edgematch: size %q: want ROWSxCOLS such as 8x8", s)
	}
	return r, c, nil
}

// ParsePuzzle reads a piece set in the shared text format:
//
//	# comments start with '#'
//	ROWS COLS
//	N E S W          one line per piece, colours clockwise from the top
//
// with these optional extension lines anywhere after the size:
//
//	frame C1 ... Ck  the colours the outward edges must show (k = 2*(ROWS+COLS)):
//	                 top left to right, right top to bottom, bottom left to
//	                 right, left top to bottom; without it the frame is grey (0)
//	hint P R C T     piece P (from 1) fixed at row R, column C (from 0, as in
//	                 eternity2_clues.txt) turned T quarter turns clockwise
//	orientation fixed  pieces may not be rotated
//
// Colours are integers 0..255, 0 being grey. The pieces must fill the
// board exactly, and the result passes Validate.
func ParsePuzzle(r io.Reader) (*Puzzle, error) {
	rows, cols, lines, err := sizedLines(r, "puzzle", "one \"N E S W\" line per piece")
	if err != nil {
		return nil, err
	}
	p := &Puzzle{Rows: rows, Cols: cols}
	bad := func(l numberedLine, format string, args ...any) error {
		return &ParseError{"puzzle", l.n, fmt.Sprintf(format, args...)}
	}
	for _, l := range lines {
		switch l.f[0] {
		case "frame":
			if p.Frame != nil {
				return nil, bad(l, "a second frame line")
			}
			if want := 2 * (rows + cols); len(l.f)-1 != want {
				return nil, bad(l, "frame of %d colours, want %d (2*(ROWS+COLS))", len(l.f)-1, want)
			}
			for _, s := range l.f[1:] {
				v, err := atoi(s, 255, "colour")
				if err != nil {
					return nil, bad(l, "frame: %v", err)
				}
				p.Frame = append(p.Frame, Colour(v))
			}
		case "hint":
			if len(l.f) != 5 {
				return nil, bad(l, "want \"hint PIECE ROW COL ROT\"")
			}
			h, err := parseHint(l.f[1:])
			if err != nil {
				return nil, bad(l, "hint: %v", err)
			}
			p.Hints = append(p.Hints, h)
		case "orientation":
			if len(l.f) != 2 || l.f[1] != "fixed" {
				return nil, bad(l, "want \"orientation fixed\"")
			}
			p.FixedOrientation = true
		default:
			if len(l.f) != 4 {
				return nil, bad(l, "want 4 colours \"N E S W\", got %d fields", len(l.f))
			}
			var t Tile
			for d, s := range l.f {
				v, err := atoi(s, 255, "colour")
				if err != nil {
					return nil, bad(l, "piece %d: %v", len(p.Tiles)+1, err)
				}
				t[d] = Colour(v)
			}
			if len(p.Tiles) == rows*cols {
				return nil, bad(l, "more than %d pieces for a %dx%d board", rows*cols, rows, cols)
			}
			p.Tiles = append(p.Tiles, t)
		}
	}
	if err := p.Validate(); err != nil {
		return nil, &ParseError{What: "puzzle", Msg: strings.TrimPrefix(err.Error(), "edgematch: ")}
	}
	return p, nil
}

// parseHint reads "PIECE ROW COL ROT" (piece from 1, row and column from 0).
func parseHint(f []string) (Hint, error) {
	piece, err := atoi(f[0], 1<<20, "piece")
	if err != nil {
		return Hint{}, err
	}
	if piece == 0 {
		return Hint{}, fmt.Errorf("piece 0: pieces count from 1")
	}
	row, err := atoi(f[1], MaxSide, "row")
	if err != nil {
		return Hint{}, err
	}
	col, err := atoi(f[2], MaxSide, "column")
	if err != nil {
		return Hint{}, err
	}
	rot, err := atoi(f[3], 3, "rotation")
	if err != nil {
		return Hint{}, err
	}
	return Hint{Piece: piece - 1, Row: row, Col: col, Rot: rot}, nil
}

// ParseHints reads a hints file such as eternity2_clues.txt: one hint a
// line, "PIECE ROW COL ROT" (piece from 1, row and column from 0 with row 0
// at the top), optionally followed by a label and the four placed colours
// N E S W, which are then checked against p. It returns at most limit hints
// (all when limit <= 0), in file order.
func ParseHints(r io.Reader, p *Puzzle, limit int) ([]Hint, error) {
	lines, err := dataLines(r, "hints")
	if err != nil {
		return nil, err
	}
	var hints []Hint
	for _, l := range lines {
		if limit > 0 && len(hints) == limit {
			break
		}
		if len(l.f) != 4 && len(l.f) != 9 {
			return nil, &ParseError{"hints", l.n, "want \"PIECE ROW COL ROT [LABEL N E S W]\""}
		}
		h, err := parseHint(l.f[:4])
		if err != nil {
			return nil, &ParseError{"hints", l.n, err.Error()}
		}
		if h.Piece >= len(p.Tiles) || h.Row >= p.Rows || h.Col >= p.Cols {
			return nil, &ParseError{"hints", l.n, fmt.Sprintf("piece %d at (%d,%d) does not fit the %dx%d puzzle of %d pieces", h.Piece+1, h.Row, h.Col, p.Rows, p.Cols, len(p.Tiles))}
		}
		if len(l.f) == 9 {
			var want Tile
			for d, s := range l.f[5:] {
				v, err := atoi(s, 255, "colour")
				if err != nil {
					return nil, &ParseError{"hints", l.n, err.Error()}
				}
				want[d] = Colour(v)
			}
			if got := p.Tiles[h.Piece].Rotate(h.Rot); got != want {
				return nil, &ParseError{"hints", l.n, fmt.Sprintf("piece %d turned %d shows %v, the file says %v: wrong piece set?", h.Piece+1, h.Rot, got, want)}
			}
		}
		hints = append(hints, h)
	}
	return hints, nil
}

// WriteTo writes p in the format ParsePuzzle reads, with the extension
// lines only when needed.
func (p *Puzzle) WriteTo(w io.Writer) (int64, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d %d\n", p.Rows, p.Cols)
	if p.FixedOrientation {
		b.WriteString("orientation fixed\n")
	}
	if p.Frame != nil {
		b.WriteString("frame")
		for _, c := range p.Frame {
			fmt.Fprintf(&b, " %d", c)
		}
		b.WriteByte('\n')
	}
	for _, h := range p.Hints {
		fmt.Fprintf(&b, "hint %d %d %d %d\n", h.Piece+1, h.Row, h.Col, h.Rot)
	}
	for _, t := range p.Tiles {
		fmt.Fprintf(&b, "%d %d %d %d\n", t[0], t[1], t[2], t[3])
	}
	return b.WriteTo(w)
}

// ParseBoard reads a board in the shared format:
//
//	# comments start with '#'
//	ROWS COLS
//	P/T P/T ...      ROWS lines of COLS cells, row 1 at the top
//
// where P is a piece number from 1 (0 for an empty cell, written 0/0) and T
// the clockwise quarter turns 0..3 applied to the piece as listed. A piece
// placed twice is an error. Check then tells whether the board fits a
// puzzle.
func ParseBoard(r io.Reader) (*Board, error) {
	rows, cols, lines, err := sizedLines(r, "board", "ROWS lines of \"PIECE/ROT\" cells")
	if err != nil {
		return nil, err
	}
	if len(lines) != rows {
		return nil, &ParseError{What: "board", Msg: fmt.Sprintf("%d rows of cells for a %dx%d board", len(lines), rows, cols)}
	}
	b := NewBoard(rows, cols)
	where := make(map[int]int)
	for r, l := range lines {
		if len(l.f) != cols {
			return nil, &ParseError{"board", l.n, fmt.Sprintf("%d cells, want %d", len(l.f), cols)}
		}
		for c, tok := range l.f {
			ps, rs, ok := strings.Cut(tok, "/")
			if !ok {
				return nil, &ParseError{"board", l.n, fmt.Sprintf("column %d: %q is not PIECE/ROT", c+1, tok)}
			}
			piece, err := atoi(ps, 1<<20, "piece")
			if err != nil {
				return nil, &ParseError{"board", l.n, fmt.Sprintf("column %d: %v", c+1, err)}
			}
			rot, err := atoi(rs, 3, "rotation")
			if err != nil {
				return nil, &ParseError{"board", l.n, fmt.Sprintf("column %d: %v", c+1, err)}
			}
			if piece == 0 {
				continue
			}
			if j, dup := where[piece]; dup {
				return nil, &ParseError{"board", l.n, fmt.Sprintf("column %d: piece %d is also at row %d, column %d", c+1, piece, j/cols+1, j%cols+1)}
			}
			where[piece] = r*cols + c
			b.Set(r, c, piece-1, rot)
		}
	}
	return b, nil
}

// WriteTo writes b in the format ParseBoard reads.
func (b *Board) WriteTo(w io.Writer) (int64, error) {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "%d %d\n", b.Rows, b.Cols)
	for r := range b.Rows {
		for c := range b.Cols {
			if c > 0 {
				buf.WriteByte(' ')
			}
			cell := b.At(r, c)
			fmt.Fprintf(&buf, "%d/%d", cell.Piece+1, cell.Rot)
		}
		buf.WriteByte('\n')
	}
	return buf.WriteTo(w)
}

// String returns the board in the format ParseBoard reads.
func (b *Board) String() string {
	var sb strings.Builder
	b.WriteTo(&sb)
	return sb.String()
}

// Format returns the text that WriteTo writes, after comment lines (each
// prefixed with "# "), ready to save to a file.
func Format(w io.WriterTo, comments ...string) []byte {
	var buf bytes.Buffer
	for _, c := range comments {
		for _, line := range strings.Split(c, "\n") {
			buf.WriteString("# " + line + "\n")
		}
	}
	w.WriteTo(&buf)
	return buf.Bytes()
}

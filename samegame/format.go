package samegame

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Notation is how a board's cells are written.
type Notation uint8

const (
	// Digits writes colour c as the digit c, separated by spaces (the
	// standard set's format): "3 1 1 4".
	Digits Notation = iota
	// Letters writes colours as the letters of LetterColors with no spaces
	// (the source blog's format): "GGGGBOYO".
	Letters
)

// LetterColors are the letters of colours 0 .. 9: the blog's G O R Y B
// (green, orange, red, yellow, blue), then P C M W K (purple, cyan,
// magenta, white, black). Parsing ignores case.
const LetterColors = "GORYBPCMWK"

// EmptyCell is how an empty cell is written; '_' and '-' are read too.
const EmptyCell = '.'

// Format writes b with the top row first, one row per line (each line ends
// with a newline). Empty cells are written '.'.
func Format(b *Board, n Notation) string {
	var sb strings.Builder
	for y := int(b.h) - 1; y >= 0; y-- {
		for x := range int(b.w) {
			v := b.cells[idx(x, y)]
			if n == Digits && x > 0 {
				sb.WriteByte(' ')
			}
			switch {
			case v == 0:
				sb.WriteByte(EmptyCell)
			case n == Letters:
				sb.WriteByte(LetterColors[v-1])
			default:
				sb.WriteByte('0' + v - 1)
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// Line formats b on one line, rows top first separated by "/".
func Line(b *Board, n Notation) string {
	return strings.ReplaceAll(strings.TrimSuffix(Format(b, n), "\n"), "\n", "/")
}

// cellColor reads one cell character: a colour, Empty, or ok false.
func cellColor(ch byte) (c Color, letter, ok bool) {
	switch {
	case ch == EmptyCell || ch == '_' || ch == '-':
		return Empty, false, true
	case ch >= '0' && ch <= '9':
		return Color(ch - '0'), false, true
	}
	if i := strings.IndexByte(LetterColors, upper(ch)); i >= 0 {
		return Color(i), true, true
	}
	return 0, false, false
}

func upper(ch byte) byte {
	if ch >= 'a' && ch <= 'z' {
		return ch - 'a' + 'A'
	}
	return ch
}

// rowParser collects the rows of one board and remembers its notation.
type rowParser struct {
	rows    [][]Color
	digits  bool
	letters bool
}

// parseRow reads one row: several one-character cells separated by
// whitespace ("3 1 1 4"), or one word whose characters are the cells
// ("GGGGBOYO").
func (p *rowParser) parseRow(fields []string) error {
	var cells []byte
	if len(fields) == 1 {
		cells = []byte(fields[0])
	} else {
		for _, f := range fields {
			if len(f) != 1 {
				return fmt.Errorf("cell %q is not one character", f)
			}
			cells = append(cells, f[0])
		}
	}
	if len(cells) > MaxSize {
		return fmt.Errorf("row has %d cells, more than %d", len(cells), MaxSize)
	}
	row := make([]Color, len(cells))
	for i, ch := range cells {
		c, letter, ok := cellColor(ch)
		if !ok {
			return fmt.Errorf("unknown colour %q in column %d (colours are the digits 0-9 or the letters %s, '.' is empty)", ch, i, LetterColors)
		}
		if c != Empty {
			if letter {
				p.letters = true
			} else {
				p.digits = true
			}
		}
		row[i] = c
	}
	if p.letters && p.digits {
		return fmt.Errorf("board mixes digit and letter colours")
	}
	if len(p.rows) > 0 && len(row) != len(p.rows[0]) {
		return fmt.Errorf("ragged rows: this row has %d cells, the board's first row %d", len(row), len(p.rows[0]))
	}
	if len(p.rows) == MaxSize {
		return fmt.Errorf("board has more than %d rows", MaxSize)
	}
	p.rows = append(p.rows, row)
	return nil
}

// ParseBoard reads one board: rows top first, separated by newlines, "/" or
// ",", in either notation. Lines starting with '#' are comments. The board
// must be settled under rules (see Board).
func ParseBoard(text string, rules Rules) (*Board, error) {
	var p rowParser
	lines := strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '/' || r == ',' })
	for n, line := range lines {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if err := p.parseRow(strings.Fields(line)); err != nil {
			return nil, fmt.Errorf("samegame: board row %d: %v", n+1, err)
		}
	}
	return FromRows(p.rows, 0, rules)
}

// Notation of text: Letters if any cell of a board row in it is a letter,
// else Digits. Commands use it to guess the rules of a file (the blog's
// dust boards are written in letters).
func DetectNotation(text string) Notation {
	for line := range strings.Lines(text) {
		f := strings.Fields(line)
		if len(f) == 1 && len(f[0]) > 1 && !keyword(f[0]) {
			var p rowParser
			if p.parseRow(f) == nil && p.letters {
				return Letters
			}
		}
	}
	return Digits
}

func keyword(w string) bool {
	switch strings.ToLower(w) {
	case "board", "position", "example", "moves", "optimal":
		return true
	}
	return false
}

// Record is a recorded click of a file's move list: the click and, when the
// file gives them, the colour and size of the group it removed (else Color
// is Empty and Size 0).
type Record struct {
	Move
	Color Color
	Size  int
}

// Entry is one board of a set file.
type Entry struct {
	// Name is "position N", "example NAME", or "board K" for an unnamed
	// board (K counts from 1 in the file).
	Name string
	// Line is the line of the file where the board's first row is.
	Line  int
	Board *Board
	// Notation is how the file writes the board.
	Notation Notation
	// Optimal is the proven optimum the file states ("optimal N"), or 0.
	Optimal int
	// Moves is the file's move list ("moves K" and K lines "x y [C n]").
	Moves []Record
	// Info holds the file's other "key value" lines about this board
	// (such as "nn 17").
	Info map[string]string
}

// MaxSetBytes bounds the input of ReadSet and ParseSet: 16 MiB, some
// 30,000 boards of 20x20 (the shared sets are under 1 MiB).
const MaxSetBytes = 16 << 20

// ErrTooLarge is returned (wrapped) for an input over MaxSetBytes.
var ErrTooLarge = errors.New("samegame: input too large")

// ReadSet reads a whole set file from r, at most MaxSetBytes: it stops
// reading there and returns an error wrapping ErrTooLarge, so that a huge
// file costs no memory. Commands read a file with it before ParseSet (and
// DetectNotation) see the text.
func ReadSet(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxSetBytes+1))
	if err != nil {
		return nil, fmt.Errorf("samegame: %w", err)
	}
	if len(data) > MaxSetBytes {
		return nil, fmt.Errorf("%w: more than %d MiB (a set file holds at most %d MiB)", ErrTooLarge, MaxSetBytes>>20, MaxSetBytes>>20)
	}
	return data, nil
}

// ParseSet reads a file of boards in the formats of the shared data: the
// standard set ("position N" then rows of digits) and the blog examples
// ("example NAME", "board", rows of letters, "optimal N", "moves K" and K
// move lines). Boards without a header are separated by blank lines. Lines
// starting with '#' are comments. Every board must be settled under rules.
// Errors name the line. It reads at most MaxSetBytes (see ReadSet).
func ParseSet(r io.Reader, rules Rules) ([]Entry, error) {
	lr := &io.LimitedReader{R: r, N: MaxSetBytes + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	p := setParser{rules: rules}
	for sc.Scan() {
		p.lineNo++
		if err := p.line(strings.TrimSpace(sc.Text())); err != nil {
			return nil, fmt.Errorf("samegame: line %d: %v", p.lineNo, err)
		}
	}
	if lr.N <= 0 {
		return nil, fmt.Errorf("%w: more than %d MiB (a set file holds at most %d MiB)", ErrTooLarge, MaxSetBytes>>20, MaxSetBytes>>20)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("samegame: line %d: %v", p.lineNo+1, err)
	}
	if p.movesTo > 0 {
		return nil, fmt.Errorf("samegame: line %d: %s: %d moves missing at the end of the file", p.lineNo, p.cur.Name, p.movesTo)
	}
	if err := p.finish(); err != nil {
		return nil, fmt.Errorf("samegame: line %d: %v", p.lineNo, err)
	}
	if len(p.entries) == 0 {
		return nil, fmt.Errorf("samegame: no board in the file")
	}
	return p.entries, nil
}

// setParser is ParseSet's state between lines.
type setParser struct {
	rules   Rules
	entries []Entry
	cur     *Entry // the entry being read
	rows    rowParser
	inRows  bool // reading the rows of cur
	movesTo int  // moves still to read
	lineNo  int
}

// finish makes the board of the entry being read from its rows.
func (p *setParser) finish() error {
	if p.cur == nil || p.cur.Board != nil {
		return nil
	}
	if len(p.rows.rows) == 0 {
		return fmt.Errorf("%s has no board", p.cur.Name)
	}
	b, err := FromRows(p.rows.rows, 0, p.rules)
	if err != nil {
		return fmt.Errorf("%s: %v", p.cur.Name, strings.TrimPrefix(err.Error(), "samegame: "))
	}
	p.cur.Board = b
	if p.rows.letters {
		p.cur.Notation = Letters
	}
	p.rows = rowParser{}
	return nil
}

// start finishes the entry being read and starts one named name.
func (p *setParser) start(name string) error {
	if err := p.finish(); err != nil {
		return err
	}
	p.entries = append(p.entries, Entry{Name: name, Notation: Digits})
	p.cur = &p.entries[len(p.entries)-1]
	return nil
}

// endRows ends the rows being read, if any, and makes their board.
func (p *setParser) endRows() error {
	p.inRows = false
	return p.finish()
}

// line reads one line, trimmed; errors leave the line number to ParseSet.
func (p *setParser) line(line string) error {
	if line == "" || line[0] == '#' {
		if line == "" && p.inRows {
			return p.endRows()
		}
		return nil
	}
	f := strings.Fields(line)
	if p.movesTo > 0 {
		rec, err := parseRecord(f)
		if err != nil {
			return fmt.Errorf("move %d of %s: %v", len(p.cur.Moves)+1, p.cur.Name, err)
		}
		p.cur.Moves = append(p.cur.Moves, rec)
		p.movesTo--
		return nil
	}
	switch strings.ToLower(f[0]) {
	case "position", "example":
		if len(f) != 2 {
			return fmt.Errorf("want %q followed by a name", f[0])
		}
		p.inRows = false
		return p.start(strings.ToLower(f[0]) + " " + f[1])
	case "board":
		if len(f) != 1 {
			return fmt.Errorf("unexpected text after \"board\"")
		}
		if p.cur == nil || p.cur.Board != nil || p.inRows || len(p.rows.rows) > 0 {
			return p.start(fmt.Sprintf("board %d", len(p.entries)+1))
		}
		return nil
	case "moves":
		return p.moves(f)
	case "optimal":
		if p.cur == nil {
			return fmt.Errorf("optimal before any board")
		}
		k, err := strconv.Atoi(f[len(f)-1])
		if len(f) != 2 || err != nil || k < 0 {
			return fmt.Errorf("want \"optimal N\"")
		}
		p.cur.Optimal = k
		p.inRows = false
		return nil
	}
	if len(f) == 2 && len(f[0]) > 1 && p.cur != nil && (p.cur.Board != nil || len(p.rows.rows) > 0) {
		// "key value" information about the board.
		if err := p.endRows(); err != nil {
			return err
		}
		if p.cur.Info == nil {
			p.cur.Info = map[string]string{}
		}
		p.cur.Info[f[0]] = f[1]
		return nil
	}
	return p.row(f)
}

// moves reads a "moves K" line: the next K lines are moves.
func (p *setParser) moves(f []string) error {
	if p.cur == nil {
		return fmt.Errorf("moves before any board")
	}
	if len(f) != 2 {
		return fmt.Errorf("want \"moves K\"")
	}
	k, err := strconv.Atoi(f[1])
	if err != nil || k < 0 || k > MaxSize*MaxSize {
		return fmt.Errorf("bad move count %q", f[1])
	}
	if err := p.endRows(); err != nil {
		return err
	}
	p.movesTo = k
	return nil
}

// row reads a board row, starting a board when none is being read.
func (p *setParser) row(f []string) error {
	if p.cur == nil || p.cur.Board != nil {
		if err := p.start(fmt.Sprintf("board %d", len(p.entries)+1)); err != nil {
			return err
		}
	}
	if !p.inRows {
		p.cur.Line = p.lineNo
	}
	p.inRows = true
	if err := p.rows.parseRow(f); err != nil {
		return fmt.Errorf("%s: %v", p.cur.Name, err)
	}
	return nil
}

// parseRecord reads a move line "x y" or "x y C n".
func parseRecord(f []string) (Record, error) {
	if len(f) != 2 && len(f) != 4 {
		return Record{}, fmt.Errorf("want \"x y\" or \"x y COLOUR SIZE\", got %q", strings.Join(f, " "))
	}
	m, err := parseXY(f[0], f[1])
	if err != nil {
		return Record{}, err
	}
	rec := Record{Move: m, Color: Empty}
	if len(f) == 4 {
		if len(f[2]) != 1 {
			return Record{}, fmt.Errorf("colour %q is not one character", f[2])
		}
		c, _, ok := cellColor(f[2][0])
		if !ok || c == Empty {
			return Record{}, fmt.Errorf("unknown colour %q", f[2])
		}
		n, err := strconv.Atoi(f[3])
		if err != nil || n < 1 || n > MaxSize*MaxSize {
			return Record{}, fmt.Errorf("bad group size %q", f[3])
		}
		rec.Color, rec.Size = c, n
	}
	return rec, nil
}

func parseXY(xs, ys string) (Move, error) {
	x, err1 := strconv.Atoi(xs)
	y, err2 := strconv.Atoi(ys)
	if err1 != nil || err2 != nil || x < 0 || y < 0 || x >= MaxSize || y >= MaxSize {
		return Move{}, fmt.Errorf("bad cell %q %q (want two numbers from 0 to %d)", xs, ys, MaxSize-1)
	}
	return Move{int8(x), int8(y)}, nil
}

// FormatMoves writes moves as "x,y" separated by spaces.
func FormatMoves(moves []Move) string {
	var sb strings.Builder
	for i, m := range moves {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(m.String())
	}
	return sb.String()
}

// ParseMoves reads a move list: "x,y" pairs separated by spaces,
// semicolons or newlines (as FormatMoves writes them), or one "x y" pair
// per line.
func ParseMoves(text string) ([]Move, error) {
	var moves []Move
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' || r == ';' })
		if len(f) == 2 && !strings.Contains(line, ",") {
			m, err := parseXY(f[0], f[1])
			if err != nil {
				return nil, fmt.Errorf("samegame: moves line %d: %v", n+1, err)
			}
			moves = append(moves, m)
			continue
		}
		for _, tok := range f {
			xs, ys, ok := strings.Cut(tok, ",")
			if !ok {
				return nil, fmt.Errorf("samegame: moves line %d: %q is not \"x,y\"", n+1, tok)
			}
			m, err := parseXY(xs, ys)
			if err != nil {
				return nil, fmt.Errorf("samegame: moves line %d: %v", n+1, err)
			}
			moves = append(moves, m)
		}
	}
	return moves, nil
}

package tangram

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
)

// ParseError is a syntax or content error in a puzzle or solution file,
// with the line where it was found (0 when it concerns the whole file).
type ParseError struct {
	What string // "puzzle" or "solution"
	Line int
	Msg  string
	Err  error // the sentinel or validation error behind Msg, if any
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("tangram: %s line %d: %s", e.What, e.Line, e.Msg)
	}
	return fmt.Sprintf("tangram: %s: %s", e.What, e.Msg)
}

func (e *ParseError) Unwrap() error { return e.Err }

// Bounds on what the parsers read.
const (
	MaxFileBytes = 1 << 20  // a puzzle or solution file
	maxLineBytes = 64 << 10 // one line
)

type numberedLine struct {
	n int
	f []string
}

// readLines reads at most MaxFileBytes (an error past that) and returns
// the non-empty lines split into fields, comments from '#' removed.
func readLines(r io.Reader, what string) ([]numberedLine, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, &ParseError{What: what, Msg: err.Error(), Err: err}
	}
	if len(data) > MaxFileBytes {
		return nil, &ParseError{What: what, Msg: fmt.Sprintf("file larger than %d bytes", MaxFileBytes)}
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), maxLineBytes)
	var out []numberedLine
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if f := strings.Fields(line); len(f) > 0 {
			out = append(out, numberedLine{n, f})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &ParseError{What: what, Line: n + 1, Msg: fmt.Sprintf("%v (lines are at most %d bytes)", err, maxLineBytes)}
	}
	return out, nil
}

// ParsePuzzle reads a puzzle in the text format documented in the package
// comment: "name", "turns", "piece" and "silhouette" lines. Clockwise
// polygons are reversed to counter-clockwise (their first vertex kept
// first); otherwise vertices are kept as written. The file, the pieces
// and the vertices are bounded (MaxFileBytes, MaxPieces, MaxVertices,
// MaxTotalVertices, MaxCoord) before they are read, and the puzzle is
// validated (Puzzle.Validate), so an accepted puzzle is well formed and
// its areas add up.
func ParsePuzzle(r io.Reader) (*Puzzle, error) {
	lines, err := readLines(r, "puzzle")
	if err != nil {
		return nil, err
	}
	p := &Puzzle{}
	bad := func(l numberedLine, format string, args ...any) error {
		return &ParseError{What: "puzzle", Line: l.n, Msg: fmt.Sprintf(format, args...)}
	}
	seenName, seenTurns, seenSil := false, false, false
	total := 0
	for _, l := range lines {
		switch l.f[0] {
		case "name":
			if seenName || len(l.f) != 2 {
				return nil, bad(l, "want one \"name NAME\" line")
			}
			if err := checkName(l.f[1]); err != nil {
				return nil, bad(l, "%v", err)
			}
			seenName, p.Name = true, l.f[1]
		case "turns":
			if seenTurns || len(l.f) != 2 {
				return nil, bad(l, "want one \"turns none|rotate|flip\" line")
			}
			switch l.f[1] {
			case "none":
				p.Turns = TurnsNone
			case "rotate":
				p.Turns = TurnsRotate
			case "flip":
				p.Turns = TurnsFlip
			default:
				return nil, bad(l, "turns %q: want none, rotate or flip", l.f[1])
			}
			seenTurns = true
		case "piece", "silhouette", "part", "hole":
			coords := l.f[1:]
			name := ""
			if l.f[0] == "piece" {
				if len(p.Pieces) == MaxPieces {
					return nil, bad(l, "more than %d pieces", MaxPieces)
				}
				if len(coords) == 0 {
					return nil, bad(l, "want \"piece NAME X1 Y1 X2 Y2 ...\"")
				}
				name, coords = coords[0], coords[1:]
				if err := checkName(name); err != nil {
					return nil, bad(l, "%v", err)
				}
			} else if l.f[0] == "silhouette" && seenSil {
				return nil, bad(l, "a second silhouette")
			} else if l.f[0] != "silhouette" && len(p.Parts)+len(p.Holes) == MaxRegionPolygons {
				return nil, bad(l, "more than %d part and hole lines", MaxRegionPolygons)
			}
			if len(coords)%2 != 0 {
				return nil, bad(l, "odd number of coordinates")
			}
			if len(coords)/2 > MaxVertices {
				return nil, bad(l, "%d vertices, at most %d", len(coords)/2, MaxVertices)
			}
			if total += len(coords) / 2; total > MaxTotalVertices {
				return nil, bad(l, "more than %d vertices in all", MaxTotalVertices)
			}
			pg, err := parsePolygon(coords)
			if err != nil {
				return nil, bad(l, "%v", err)
			}
			if err := pg.Validate(); err != nil {
				return nil, &ParseError{What: "puzzle", Line: l.n, Msg: err.Error(), Err: err}
			}
			pg = ccw(pg)
			if l.f[0] == "piece" {
				for _, q := range p.Pieces {
					if q.Name == name {
						return nil, bad(l, "a second piece named %q", name)
					}
				}
				p.Pieces = append(p.Pieces, Piece{name, pg})
			} else if l.f[0] == "part" {
				p.Parts = append(p.Parts, pg)
			} else if l.f[0] == "hole" {
				p.Holes = append(p.Holes, pg)
			} else {
				p.Silhouette, seenSil = pg, true
			}
		default:
			return nil, bad(l, "unknown line %q: want name, turns, piece, silhouette, part or hole", l.f[0])
		}
	}
	if len(p.Pieces) == 0 {
		return nil, &ParseError{What: "puzzle", Msg: "no piece lines"}
	}
	if !seenSil {
		return nil, &ParseError{What: "puzzle", Msg: "no silhouette line"}
	}
	if err := p.Validate(); err != nil {
		return nil, &ParseError{What: "puzzle", Msg: strings.TrimPrefix(err.Error(), "tangram: "), Err: err}
	}
	return p, nil
}

func parsePolygon(coords []string) (Polygon, error) {
	pg := make(Polygon, len(coords)/2)
	for k := range pg {
		x, err := ParseNum(coords[2*k])
		if err != nil {
			return nil, err
		}
		y, err := ParseNum(coords[2*k+1])
		if err != nil {
			return nil, err
		}
		pg[k] = Point{x, y}
	}
	return pg, nil
}

// ccw returns a valid polygon counter-clockwise, first vertex kept first.
func ccw(pg Polygon) Polygon {
	if pg.area8().sign() > 0 {
		return pg
	}
	out := make(Polygon, len(pg))
	out[0] = pg[0]
	for k := 1; k < len(pg); k++ {
		out[k] = pg[len(pg)-k]
	}
	return out
}

// FormatPuzzle writes p in the format ParsePuzzle reads; a valid puzzle
// round-trips exactly.
func FormatPuzzle(w io.Writer, p *Puzzle) error {
	var b strings.Builder
	if p.Name != "" {
		fmt.Fprintf(&b, "name %s\n", p.Name)
	}
	if p.Turns != TurnsNone {
		fmt.Fprintf(&b, "turns %v\n", p.Turns)
	}
	for _, pc := range p.Pieces {
		b.WriteString("piece " + pc.Name)
		writeCoords(&b, pc.Shape)
	}
	b.WriteString("silhouette")
	writeCoords(&b, p.Silhouette)
	for _, pg := range p.Parts {
		b.WriteString("part")
		writeCoords(&b, pg)
	}
	for _, pg := range p.Holes {
		b.WriteString("hole")
		writeCoords(&b, pg)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeCoords(b *strings.Builder, pg Polygon) {
	for _, v := range pg {
		b.WriteString(" " + v.X.String() + " " + v.Y.String())
	}
	b.WriteByte('\n')
}

// String returns the puzzle in its text format.
func (p *Puzzle) String() string {
	var b strings.Builder
	FormatPuzzle(&b, p)
	return b.String()
}

// ParseSolution reads a solution of p: one line per placed piece,
// "place NAME X Y [turn K] [flip]" (K in 0..7, multiples of 45 degrees
// counter-clockwise about the piece's first vertex; flip mirrors x -> -x
// first). Pieces not named stay unplaced; orientations must be allowed by
// p.Turns. It checks the syntax, not the geometry (see Check).
func ParseSolution(r io.Reader, p *Puzzle) (*Solution, error) {
	lines, err := readLines(r, "solution")
	if err != nil {
		return nil, err
	}
	if len(lines) > len(p.Pieces) {
		return nil, &ParseError{What: "solution", Line: lines[len(p.Pieces)].n, Msg: fmt.Sprintf("more lines than the %d pieces", len(p.Pieces))}
	}
	index := map[string]int{}
	for k, pc := range p.Pieces {
		index[pc.Name] = k
	}
	s := NewSolution(len(p.Pieces))
	for _, l := range lines {
		bad := func(format string, args ...any) error {
			return &ParseError{What: "solution", Line: l.n, Msg: fmt.Sprintf(format, args...)}
		}
		f := l.f
		if f[0] != "place" || len(f) < 4 || len(f) > 7 {
			return nil, bad("want \"place NAME X Y [turn K] [flip]\"")
		}
		k, ok := index[f[1]]
		if !ok {
			return nil, bad("no piece named %q", f[1])
		}
		if s.Placements[k].Placed {
			return nil, bad("piece %q placed twice", f[1])
		}
		x, err := ParseNum(f[2])
		if err != nil {
			return nil, bad("%v", err)
		}
		y, err := ParseNum(f[3])
		if err != nil {
			return nil, bad("%v", err)
		}
		turn, flip := 0, false
		rest := f[4:]
		if len(rest) >= 2 && rest[0] == "turn" {
			if len(rest[1]) != 1 || rest[1][0] < '0' || rest[1][0] > '7' {
				return nil, bad("turn %q: want 0 to 7", rest[1])
			}
			turn = int(rest[1][0] - '0')
			rest = rest[2:]
		}
		if len(rest) == 1 && rest[0] == "flip" {
			flip, rest = true, nil
		}
		if len(rest) != 0 {
			return nil, bad("unexpected %q: want \"place NAME X Y [turn K] [flip]\"", strings.Join(rest, " "))
		}
		o := NewOrientation(turn, flip)
		if !p.Turns.Allows(o) {
			return nil, bad("orientation %v not allowed: the puzzle has turns %v", o, p.Turns)
		}
		s.Place(k, Point{x, y}, o)
	}
	return s, nil
}

// FormatSolution writes the placed pieces of s in the format ParseSolution
// reads, in the puzzle's order.
func FormatSolution(w io.Writer, p *Puzzle, s *Solution) error {
	var b strings.Builder
	for k, pl := range s.Placements {
		if !pl.Placed {
			continue
		}
		fmt.Fprintf(&b, "place %s %v %v", p.Pieces[k].Name, pl.T.X, pl.T.Y)
		if t := pl.Orient.Turn(); t != 0 {
			fmt.Fprintf(&b, " turn %d", t)
		}
		if pl.Orient.Flipped() {
			b.WriteString(" flip")
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

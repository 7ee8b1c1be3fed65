package bench

import (
	"context"
	"errors"
	"fmt"
	"io"

	"tessera/edgematch"
	"tessera/edgematch/sat"
)

// EdgeMatchHints are the hints a front end adds to its puzzles: the first
// N of the hints file File ("": none; N 0: all of them).
type EdgeMatchHints struct {
	File string
	N    int
}

// Check refuses a negative N and an N without a File: UsageErrors naming
// the flags (-nhints, -hints).
func (h EdgeMatchHints) Check() error {
	switch {
	case h.N < 0:
		return Usagef("-nhints %d: want a count (0: all the hints)", h.N)
	case h.File == "" && h.N != 0:
		return Usagef("-nhints needs -hints")
	}
	return nil
}

// ReadEdgeMatchPuzzle reads the piece-set file a front end names ("-":
// in) and adds the hints of h (checked first). A file that cannot be read,
// is not a regular file or is malformed is a UsageError naming it and, for
// a malformed one, the line.
func ReadEdgeMatchPuzzle(path string, in io.Reader, h EdgeMatchHints) (*edgematch.Puzzle, error) {
	if err := h.Check(); err != nil {
		return nil, err
	}
	var p *edgematch.Puzzle
	var err error
	switch {
	case path == "-":
		if p, err = edgematch.ParsePuzzle(in); err != nil {
			err = fmt.Errorf("-: %w", err)
		}
	default:
		if err = RegularFile(path); err == nil {
			p, err = edgematch.ReadPuzzleFile(path)
		}
	}
	if err == nil && h.File != "" {
		err = p.AddHintsFile(h.File, h.N)
	}
	if err != nil {
		return nil, Usagef("%v", err)
	}
	return p, nil
}

// ReadEdgeMatchBoard reads a board of p that a front end names, a board
// file or an e2.bucas.name viewer URL: one that cannot be read, is
// malformed or does not fit p is a UsageError.
func ReadEdgeMatchBoard(path string, p *edgematch.Puzzle) (*edgematch.Board, error) {
	err := RegularFile(path) // a viewer URL does not exist: it passes
	var b *edgematch.Board
	if err == nil {
		b, err = edgematch.ReadBoard(path, p)
	}
	if err != nil {
		return nil, Usagef("%v", err)
	}
	return b, nil
}

// EdgeMatchScans returns the scans `edgematch estimate` estimates: with
// corners the 16 scans from every corner (edgematch.Scans), else the scan
// of order ("all": the four orders from the top left corner). An unknown
// order, and an order with corners, are UsageErrors.
func EdgeMatchScans(order string, corners bool) ([]edgematch.Scan, error) {
	switch {
	case corners && order != "all":
		return nil, Usagef("-scans and -order exclude each other")
	case corners:
		return edgematch.Scans(), nil
	case order != "all":
		o, err := edgematch.ParseOrder(order)
		if err != nil {
			return nil, Usagef("%v", err)
		}
		return []edgematch.Scan{{Order: o}}, nil
	}
	var scans []edgematch.Scan
	for _, o := range []edgematch.Order{edgematch.OrderRows, edgematch.OrderColumns, edgematch.OrderFrameFirst, edgematch.OrderSpiral} {
		scans = append(scans, edgematch.Scan{Order: o})
	}
	return scans, nil
}

// WriteEdgeMatchCNF writes p as a DIMACS CNF formula (sat.EncodeSAT with
// o), titled title, to path atomically or to stdout when path is "". A
// formula estimated above o.MaxClauses is refused before it is built, with
// the bound that would allow it.
func WriteEdgeMatchCNF(ctx context.Context, stdout io.Writer, path, title string, p *edgematch.Puzzle, o sat.SATEncodeOptions) error {
	e, err := sat.EncodeSAT(ctx, p, o)
	if err != nil {
		var se *sat.SATSizeError
		if errors.As(err, &se) {
			return fmt.Errorf("%w; -max-clauses %d would allow it", err, se.Need)
		}
		return err
	}
	if path == "" {
		return e.WriteDIMACS(stdout, title)
	}
	return WriteFileAtomic(path, func(w io.Writer) error { return e.WriteDIMACS(w, title) })
}

// ReadEdgeMatchBoardOf reads a puzzle with the hints of h
// (ReadEdgeMatchPuzzle) and a board of it (ReadEdgeMatchBoard), as the
// verbs that take both name them.
func ReadEdgeMatchBoardOf(puzzle, board string, in io.Reader, h EdgeMatchHints) (*edgematch.Puzzle, *edgematch.Board, error) {
	p, err := ReadEdgeMatchPuzzle(puzzle, in, h)
	if err != nil {
		return nil, nil, err
	}
	b, err := ReadEdgeMatchBoard(board, p)
	return p, b, err
}

// RenderEdgeMatch draws b of p (edgematch.Puzzle.Render with o) as a PNG to
// path atomically and says so on w, with the picture's size and the
// board's score.
func RenderEdgeMatch(w io.Writer, path string, p *edgematch.Puzzle, b *edgematch.Board, o edgematch.RenderOptions) error {
	img := p.Render(b, o)
	if err := WritePNG(path, img); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%s: %dx%d pixels, score %v\n", path, img.Bounds().Dx(), img.Bounds().Dy(), p.Score(b))
	return err
}

// GenerateEdgeMatch is `edgematch generate`: a random puzzle of o, of the
// kind and size their flags name, and its planted solution, each as the
// text of its file headed by the command line that makes it. A kind, a
// size or options out of range, and -rotate with a framed kind, are
// UsageErrors.
func GenerateEdgeMatch(kind, size string, o edgematch.GenerateOptions) (puzzle, solution []byte, err error) {
	if o.Kind, err = edgematch.ParseKind(kind); err != nil {
		return nil, nil, Usagef("%v", err)
	}
	if o.Rows, o.Cols, err = edgematch.ParseSize(size); err != nil {
		return nil, nil, Usagef("%v", err)
	}
	if o.Rotate && o.Kind != edgematch.Kovalsky {
		return nil, nil, Usagef("-rotate applies to -kind kovalsky (framed puzzles are always rotated)")
	}
	p, sol, err := edgematch.Generate(o)
	if err != nil {
		return nil, nil, Usagef("%v", err)
	}
	header := o.Command()
	return edgematch.Format(p, header, "format: \"ROWS COLS\", then one piece per line \"N E S W\" (clockwise from the top); colour 0 = grey"),
		edgematch.Format(sol, "planted solution of: "+header), nil
}

package bench

import (
	"fmt"
	"io"

	"tessera/edgematch"
)

// ReadEdgeMatchPuzzle reads the piece-set file a front end names ("-":
// in) and adds the first nhints hints of the hints file (none when hints is
// ""; all when nhints is 0). A file that cannot be read, is not a regular
// file or is malformed is a UsageError naming it and, for a malformed one,
// the line.
func ReadEdgeMatchPuzzle(path string, in io.Reader, hints string, nhints int) (*edgematch.Puzzle, error) {
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
	if err == nil && hints != "" {
		err = p.AddHintsFile(hints, nhints)
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

package edgematch

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// ReadPuzzleFile reads a piece-set file (ParsePuzzle); a parse error names
// the file.
func ReadPuzzleFile(path string) (*Puzzle, error) {
	var p *Puzzle
	err := readFile(path, func(r io.Reader) (err error) { p, err = ParsePuzzle(r); return err })
	return p, err
}

// ReadBoard reads a board of p from a board file (ParseBoard, then
// Puzzle.Check) or, when fileOrURL is an e2.bucas.name viewer URL, from the
// URL (ParseBucasURL).
func ReadBoard(fileOrURL string, p *Puzzle) (*Board, error) {
	if strings.Contains(fileOrURL, "board_edges=") {
		return ParseBucasURL(fileOrURL, p)
	}
	var b *Board
	err := readFile(fileOrURL, func(r io.Reader) (err error) {
		if b, err = ParseBoard(r); err == nil {
			err = p.Check(b)
		}
		return err
	})
	return b, err
}

// AddHintsFile adds the first limit hints (all when limit <= 0) of a hints
// file (ParseHints) to p and validates p.
func (p *Puzzle) AddHintsFile(path string, limit int) error {
	var hints []Hint
	if err := readFile(path, func(r io.Reader) (err error) { hints, err = ParseHints(r, p, limit); return err }); err != nil {
		return err
	}
	p.Hints = append(p.Hints, hints...)
	return p.Validate()
}

// readFile opens path and calls parse with it; parse's error is prefixed
// with the path (the parsers bound what they read).
func readFile(path string, parse func(io.Reader) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := parse(f); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

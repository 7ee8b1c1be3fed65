package edgematch

import (
	"cmp"
	"fmt"
	"math/rand/v2"
)

// Kind names a family of generated puzzles.
type Kind uint8

const (
	// Framed puzzles have a grey frame, like Eternity II and Brendan
	// Owen's sets: edges between two border cells take one of the frame
	// colours, every other internal edge one of the inner colours.
	Framed Kind = iota
	// Kovalsky puzzles are the random puzzles of Kovalsky, Glasner and
	// Basri: every edge, the frame's included, takes one of the colours at
	// random, and the outward colours are given as the puzzle's frame.
	Kovalsky
)

// String returns "framed" or "kovalsky".
func (k Kind) String() string {
	if k == Kovalsky {
		return "kovalsky"
	}
	return "framed"
}

// ParseKind parses "framed" or "kovalsky".
func ParseKind(s string) (Kind, error) {
	switch s {
	case "framed":
		return Framed, nil
	case "kovalsky":
		return Kovalsky, nil
	}
	return 0, fmt.Errorf("edgematch: unknown puzzle kind %q (want framed or kovalsky)", s)
}

// GenerateOptions describe a random puzzle.
type GenerateOptions struct {
	Kind       Kind
	Rows, Cols int
	// Colours is the number of inner colours (Framed) or of all colours
	// (Kovalsky). Colours are numbered from 1; Framed puzzles use 1..Frame
	// on the frame and Frame+1..Frame+Colours inside.
	Colours int
	// Frame is the number of frame colours of a Framed puzzle (0: about a
	// third of Colours, at least 1).
	Frame int
	// Rotate turns every piece of a Kovalsky puzzle by a random quarter
	// turn and lets the solver rotate them (unknown orientation); without
	// it the pieces keep their orientation and the puzzle has
	// FixedOrientation. Framed puzzles are always rotated.
	Rotate bool
	Seed   uint64
}

// DefaultFrame returns the number of frame colours used for inner colours
// when GenerateOptions.Frame is 0: (inner+1)/3, at least 1 (Eternity II has
// 5 frame and 17 inner colours, Brendan's 8x8 3 and 8).
func DefaultFrame(inner int) int { return max(1, (inner+1)/3) }

// Generate returns a random puzzle with a planted solution: the edge
// colours are drawn for the solved board, then the pieces are shuffled
// (and turned). The same options give the same puzzle.
func Generate(o GenerateOptions) (*Puzzle, *Board, error) {
	if o.Rows < 2 || o.Cols < 2 || o.Rows > MaxSide || o.Cols > MaxSide {
		return nil, nil, fmt.Errorf("edgematch: generate: %dx%d: rows and columns must be 2..%d", o.Rows, o.Cols, MaxSide)
	}
	frame := o.Frame
	if frame == 0 {
		frame = DefaultFrame(o.Colours)
	}
	switch {
	case o.Colours < 1:
		return nil, nil, fmt.Errorf("edgematch: generate: %d colours, want at least 1", o.Colours)
	case o.Kind == Framed && (frame < 1 || frame+o.Colours > 255):
		return nil, nil, fmt.Errorf("edgematch: generate: %d frame and %d inner colours: want at least 1 frame colour and at most 255 in all", frame, o.Colours)
	case o.Kind == Kovalsky && o.Colours > 255:
		return nil, nil, fmt.Errorf("edgematch: generate: %d colours, at most 255", o.Colours)
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x65646765))
	rows, cols := o.Rows, o.Cols
	// h[r][c] is the colour between (r,c) and (r,c+1) (c = -1 and cols-1:
	// the frame); v[r][c] between (r,c) and (r+1,c).
	h := make([][]Colour, rows)
	v := make([][]Colour, rows+1)
	draw := func(border bool) Colour {
		switch {
		case o.Kind == Kovalsky:
			return Colour(1 + rng.IntN(o.Colours))
		case border:
			return Colour(1 + rng.IntN(frame))
		}
		return Colour(1 + frame + rng.IntN(o.Colours))
	}
	for r := range rows {
		h[r] = make([]Colour, cols+1)
		for c := range cols + 1 {
			if c == 0 || c == cols {
				if o.Kind == Kovalsky {
					h[r][c] = draw(false)
				}
				continue
			}
			h[r][c] = draw(r == 0 || r == rows-1)
		}
	}
	for r := range rows + 1 {
		v[r] = make([]Colour, cols)
		for c := range cols {
			if r == 0 || r == rows {
				if o.Kind == Kovalsky {
					v[r][c] = draw(false)
				}
				continue
			}
			v[r][c] = draw(c == 0 || c == cols-1)
		}
	}
	p := &Puzzle{Rows: rows, Cols: cols, Tiles: make([]Tile, rows*cols)}
	if o.Kind == Kovalsky {
		p.FixedOrientation = !o.Rotate
		p.Frame = make([]Colour, 2*(rows+cols))
		for c := range cols {
			p.Frame[c] = v[0][c]
			p.Frame[cols+rows+c] = v[rows][c]
		}
		for r := range rows {
			p.Frame[cols+r] = h[r][cols]
			p.Frame[2*cols+rows+r] = h[r][0]
		}
	}
	solved := make([]Tile, rows*cols)
	for r := range rows {
		for c := range cols {
			solved[r*cols+c] = Tile{v[r][c], h[r][c+1], v[r+1][c], h[r][c]}
		}
	}
	// Shuffle: cell i holds piece perm[i], listed turned by turn[i], so it
	// is placed with rotation (4 - turn[i]) mod 4.
	perm := rng.Perm(rows * cols)
	sol := NewBoard(rows, cols)
	rotate := o.Kind == Framed || o.Rotate
	for i, t := range solved {
		turn := 0
		if rotate {
			turn = rng.IntN(4)
		}
		p.Tiles[perm[i]] = t.Rotate(turn)
		sol.Cells[i] = Placement{perm[i], (4 - turn) & 3}
	}
	return p, sol, nil
}

// Command is the tessera command line that generates the puzzle of o
// (o.Kind, o.Rows and o.Cols set; the framed frame count filled in), as
// generated puzzle files name it.
func (o GenerateOptions) Command() string {
	c := fmt.Sprintf("tessera edgematch generate -kind %s -size %dx%d -colors %d", o.Kind, o.Rows, o.Cols, o.Colours)
	if o.Kind == Framed {
		c += fmt.Sprintf(" -frame %d", cmp.Or(o.Frame, DefaultFrame(o.Colours)))
	}
	if o.Rotate {
		c += " -rotate"
	}
	return c + fmt.Sprintf(" -seed %d", o.Seed)
}

package jigsaw

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
)

// Truth is the ground truth of a scrambled puzzle, used only for scoring.
// Its JSON form is documented in the package comment.
type Truth struct {
	PieceSize int  `json:"piece_size"`
	Rotations bool `json:"rotations"`
	// Images are the source images, in the order Origin.Image counts them.
	Images []TruthImage `json:"images"`
	// Pieces[k] is the origin of puzzle piece k.
	Pieces []Origin `json:"pieces"`
	// Missing is the number of cells of the pictures (the images not
	// marked Stray) that no piece comes from: pieces lost from the box.
	Missing int `json:"missing,omitempty"`
}

// TruthImage describes one source image of a puzzle.
type TruthImage struct {
	Name string `json:"name"`
	Rows int    `json:"rows"`
	Cols int    `json:"cols"`
	// Crop is the part of the source that was cut: x0, y0, x1, y1 in pixels.
	Crop [4]int `json:"crop"`
	// Stray marks a picture that only lent stray pieces to the puzzle
	// (pieces from another box), not one to reassemble; stray images come
	// after the others.
	Stray bool `json:"stray,omitempty"`
}

// Pictures returns the number of images to reassemble: those before the
// first stray one.
func (t *Truth) Pictures() int {
	for i, im := range t.Images {
		if im.Stray {
			return i
		}
	}
	return len(t.Images)
}

// IsStray reports whether puzzle piece k is a stray.
func (t *Truth) IsStray(k int) bool { return t.Images[t.Pieces[k].Image].Stray }

// Origin says where a puzzle piece came from: the cell (Row, Col) of source
// image Image, turned by Rotation quarter turns clockwise on the sheet. To
// show it upright, turn it by Rotation.Inverse().
type Origin struct {
	Image    int      `json:"image"`
	Row      int      `json:"row"`
	Col      int      `json:"col"`
	Rotation Rotation `json:"rotation"`
}

// Placement returns the solution that the truth describes: every piece in
// its source image's cell, upright, strays set aside, each picture's
// frame recorded when pieces are missing. Scoring it gives 100% on every
// measure.
func (t *Truth) Placement() *Placement {
	p := &Placement{Images: t.Pictures()}
	for k, o := range t.Pieces {
		if o.Image < p.Images {
			p.Pieces = append(p.Pieces, Placed{Piece: k, Image: o.Image, Row: o.Row, Col: o.Col, Rotation: o.Rotation.Inverse()})
		}
	}
	if t.Missing > 0 {
		for i := range p.Images {
			p.Frames = append(p.Frames, Frame{Image: i, Rows: t.Images[i].Rows, Cols: t.Images[i].Cols})
		}
	}
	return p
}

// WriteJSON writes t as indented JSON.
func (t *Truth) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(t, "", "\t")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// maxJSONBytes bounds the truth and placement files read.
const maxJSONBytes = 256 << 20

// ReadTruth reads and validates a ground-truth JSON file: every source cell
// holds exactly one piece, and every field is in range.
func ReadTruth(r io.Reader) (*Truth, error) {
	var t Truth
	if err := decodeJSON(r, &t, "truth"); err != nil {
		return nil, err
	}
	if err := t.validate(); err != nil {
		return nil, err
	}
	return &t, nil
}

func (t *Truth) validate() error {
	if t.PieceSize < 0 {
		return fmt.Errorf("jigsaw: truth: piece_size %d is negative", t.PieceSize)
	}
	if len(t.Pieces) == 0 {
		return fmt.Errorf("jigsaw: truth: %w", ErrNoPieces)
	}
	if len(t.Images) == 0 {
		return fmt.Errorf("jigsaw: truth: no images")
	}
	total, strayCells, stray := 0, 0, false
	for i, im := range t.Images {
		if im.Rows <= 0 || im.Cols <= 0 || im.Rows > 1<<20 || im.Cols > 1<<20 {
			return fmt.Errorf("jigsaw: truth: image %d has %dx%d cells", i, im.Rows, im.Cols)
		}
		switch {
		case im.Stray:
			strayCells += im.Rows * im.Cols
			stray = true
		case stray:
			return fmt.Errorf("jigsaw: truth: image %d comes after a stray image", i)
		default:
			total += im.Rows * im.Cols
		}
		if total > len(t.Pieces)+t.Missing || strayCells > len(t.Pieces) {
			break
		}
	}
	if t.Missing < 0 {
		return fmt.Errorf("jigsaw: truth: %d missing pieces", t.Missing)
	}
	if stray && !slices.ContainsFunc(t.Images, func(im TruthImage) bool { return !im.Stray }) {
		return fmt.Errorf("jigsaw: truth: every image is stray")
	}
	strays := 0
	for _, o := range t.Pieces {
		if o.Image >= 0 && o.Image < len(t.Images) && t.Images[o.Image].Stray {
			strays++
		}
	}
	if total != len(t.Pieces)-strays+t.Missing {
		return fmt.Errorf("jigsaw: truth: the images have %d cells but there are %d pieces of them and %d missing", total, len(t.Pieces)-strays, t.Missing)
	}
	seen := make(map[[3]int]int, len(t.Pieces))
	for k, o := range t.Pieces {
		if o.Image < 0 || o.Image >= len(t.Images) {
			return fmt.Errorf("jigsaw: truth: piece %d: image %d out of range", k, o.Image)
		}
		im := t.Images[o.Image]
		if o.Row < 0 || o.Row >= im.Rows || o.Col < 0 || o.Col >= im.Cols {
			return fmt.Errorf("jigsaw: truth: piece %d: cell (%d, %d) outside image %d's %dx%d", k, o.Row, o.Col, o.Image, im.Rows, im.Cols)
		}
		if o.Rotation > 3 {
			return fmt.Errorf("jigsaw: truth: piece %d: rotation %d (want 0 to 3)", k, o.Rotation)
		}
		if o.Rotation != 0 && !t.Rotations {
			return fmt.Errorf("jigsaw: truth: piece %d is rotated but rotations is false", k)
		}
		key := [3]int{o.Image, o.Row, o.Col}
		if prev, dup := seen[key]; dup {
			return fmt.Errorf("jigsaw: truth: pieces %d and %d both come from image %d cell (%d, %d)", prev, k, o.Image, o.Row, o.Col)
		}
		seen[key] = k
	}
	return nil
}

// decodeJSON decodes one JSON value, refusing unknown fields and trailing
// data, with the byte offset of a syntax error.
func decodeJSON(r io.Reader, v any, what string) error {
	data, err := io.ReadAll(io.LimitReader(r, maxJSONBytes+1))
	if err != nil {
		return fmt.Errorf("jigsaw: reading %s: %w", what, err)
	}
	if len(data) > maxJSONBytes {
		return fmt.Errorf("jigsaw: %s: more than %d bytes", what, maxJSONBytes)
	}
	if len(data) == 0 {
		return fmt.Errorf("jigsaw: %s: empty file", what)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("jigsaw: %s: %s", what, jsonErrorWhere(data, err))
	}
	if dec.More() {
		return fmt.Errorf("jigsaw: %s: data after the JSON object at byte %d", what, dec.InputOffset())
	}
	return nil
}

package jigsaw

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
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
}

// TruthImage describes one source image of a puzzle.
type TruthImage struct {
	Name string `json:"name"`
	Rows int    `json:"rows"`
	Cols int    `json:"cols"`
	// Crop is the part of the source that was cut: x0, y0, x1, y1 in pixels.
	Crop [4]int `json:"crop"`
}

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
// its source image's cell, upright. Scoring it gives 100% on every measure.
func (t *Truth) Placement() *Placement {
	p := &Placement{Images: len(t.Images)}
	for k, o := range t.Pieces {
		p.Pieces = append(p.Pieces, Placed{Piece: k, Image: o.Image, Row: o.Row, Col: o.Col, Rotation: o.Rotation.Inverse()})
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
	total := 0
	for i, im := range t.Images {
		if im.Rows <= 0 || im.Cols <= 0 || im.Rows > 1<<20 || im.Cols > 1<<20 {
			return fmt.Errorf("jigsaw: truth: image %d has %dx%d cells", i, im.Rows, im.Cols)
		}
		total += im.Rows * im.Cols
		if total > len(t.Pieces) {
			break
		}
	}
	if total != len(t.Pieces) {
		return fmt.Errorf("jigsaw: truth: the images have %d cells but there are %d pieces", total, len(t.Pieces))
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

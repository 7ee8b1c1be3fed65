package neural

import (
	"bytes"
	"fmt"
	"image"
	"os"

	"tessera/imageio"
	"tessera/jigsaw"
)

// ReadPuzzle reads a gap puzzle from a file's contents: a sheet written by
// tessera (jigsaw.WriteSheet, with its piece size recorded) is read as the
// puzzle's g.Cells() patches of g.Patch pixels, truth unknown; any other
// image (PNG, JPEG, WebP) is cut with Centre, its patches shuffled by
// seed, truth known.
func ReadPuzzle(data []byte, g Geometry, seed uint64) (*Puzzle, error) {
	if jigsaw.SheetPieceSize(data) == 0 {
		img, err := imageio.Decode(bytes.NewReader(data), imageio.Options{})
		if err != nil {
			return nil, err
		}
		return Centre(img.Pix, g, seed), nil
	}
	sheet, err := jigsaw.ReadSheet(bytes.NewReader(data), jigsaw.SheetOptions{PieceSize: g.Patch})
	if err != nil {
		return nil, err
	}
	return FromPieces(sheet.Pieces, g, sheet.Depth)
}

// ReadPuzzleFile reads the gap puzzle at path (see ReadPuzzle). An error
// reading the file is returned as it is; an error in its contents is
// prefixed with the path.
func ReadPuzzleFile(path string, g Geometry, seed uint64) (*Puzzle, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	pz, err := ReadPuzzle(data, g, seed)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return pz, nil
}

// LoadImages decodes image files (PNG, JPEG, WebP), such as a training
// set.
func LoadImages(files []string) ([]image.Image, error) {
	out := make([]image.Image, 0, len(files))
	for _, f := range files {
		img, err := imageio.Load(f, imageio.Options{})
		if err != nil {
			return nil, fmt.Errorf("neural: %w", err)
		}
		out = append(out, img.Pix)
	}
	return out, nil
}

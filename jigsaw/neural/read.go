package neural

import (
	"bytes"
	"context"
	"fmt"
	"image"

	"tessera/imageio"
	"tessera/jigsaw"
)

// ReadPuzzle reads a gap puzzle from a file's contents: a sheet written by
// tessera (jigsaw.WriteSheet, with its piece size recorded) is read as the
// puzzle's g.Cells() patches of g.Patch pixels, truth unknown; any other
// image (PNG, JPEG, WebP) is cut with Centre, its patches shuffled by
// seed, truth known.
func ReadPuzzle(data []byte, g Geometry, seed uint64) (*Puzzle, error) {
	return ReadPuzzleContext(context.Background(), data, g, seed)
}

// ReadPuzzleContext is ReadPuzzle bounded by ctx: decoding an image stops
// with an error wrapping ctx.Err() once ctx has ended.
func ReadPuzzleContext(ctx context.Context, data []byte, g Geometry, seed uint64) (*Puzzle, error) {
	if jigsaw.SheetPieceSize(data) == 0 {
		img, err := imageio.DecodeBytesContext(ctx, data, imageio.Options{})
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
	return ReadPuzzleFileContext(context.Background(), path, g, seed)
}

// ReadPuzzleFileContext is ReadPuzzleFile bounded by ctx, reading and
// decoding included; the file is read through imageio.ReadAllContext, so
// it is bounded by imageio.DefaultMaxBytes before it is read.
func ReadPuzzleFileContext(ctx context.Context, path string, g Geometry, seed uint64) (*Puzzle, error) {
	data, err := imageio.ReadFileContext(ctx, path, imageio.Options{})
	if err != nil {
		return nil, err
	}
	pz, err := ReadPuzzleContext(ctx, data, g, seed)
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

package jigsaw

import (
	"context"
	"fmt"
	"io"
	"os"
	"tessera/imageio"
)

// ReadSheetFile reads the sheet at path (see ReadSheet). An error opening
// the file is returned as it is; an error in its contents is prefixed
// with the path and wraps ReadSheet's (errors.Unwrap gives it back).
func ReadSheetFile(path string, opts SheetOptions) (*Puzzle, error) {
	return ReadSheetFileContext(context.Background(), path, opts)
}

// ReadSheetFileContext is ReadSheetFile bounded by ctx (see
// ReadSheetContext).
func ReadSheetFileContext(ctx context.Context, path string, opts SheetOptions) (*Puzzle, error) {
	return readFile(path, func(r io.Reader) (*Puzzle, error) { return ReadSheetContext(ctx, r, opts) })
}

// ReadTruthFile reads the ground truth at path (see ReadTruth); errors
// as ReadSheetFile's.
func ReadTruthFile(path string) (*Truth, error) { return readFile(path, ReadTruth) }

// ReadPlacementFile reads the placement at path and checks it against a
// puzzle of n pieces (see ReadPlacement); errors as ReadSheetFile's.
func ReadPlacementFile(path string, n int, rotations bool) (*Placement, error) {
	return readFile(path, func(r io.Reader) (*Placement, error) { return ReadPlacement(r, n, rotations) })
}

// readFile opens path and parses it, naming path in a parse error.
func readFile[T any](path string, parse func(io.Reader) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	v, err := parse(f)
	if err != nil {
		return v, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// CutFile reads the picture path (PNG, JPEG or WebP, as imageio.Load
// reads it) and cuts it into size-pixel pieces at its depth (Cut), the
// grid named path.
func CutFile(path string, size int, opts CutOptions) (*Grid, error) {
	img, err := imageio.Load(path, imageio.Options{})
	if err != nil {
		return nil, err
	}
	opts.Depth = img.Depth
	g, err := Cut(img.Pix, size, opts)
	if err != nil {
		return nil, err
	}
	g.Name = path
	return g, nil
}

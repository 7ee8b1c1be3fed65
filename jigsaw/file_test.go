package jigsaw

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tessera/imageio"
)

// TestReadFiles: a sheet, its truth and a placement written to files
// read back; a missing file's error is the open error; a bad file's names
// the path and wraps the parser's error.
func TestReadFiles(t *testing.T) {
	dir := t.TempDir()
	pz, truth := Scramble([]*Grid{loadGrid(t, "mit5-crop.png")}, ScrambleOptions{Rotate: true, Seed: 4})
	sheet, truthPath, plPath := filepath.Join(dir, "s.png"), filepath.Join(dir, "t.json"), filepath.Join(dir, "p.json")
	for path, write := range map[string]func(f *os.File) error{
		sheet:     func(f *os.File) error { return WriteSheet(f, pz, 0) },
		truthPath: func(f *os.File) error { return truth.WriteJSON(f) },
		plPath:    func(f *os.File) error { return truth.Placement().WriteJSON(f) },
	} {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := errors.Join(write(f), f.Close()); err != nil {
			t.Fatal(err)
		}
	}
	back, err := ReadSheetFile(sheet, SheetOptions{Rotated: true})
	if err != nil || len(back.Pieces) != 48 || back.PieceSize != 28 || !back.Rotated {
		t.Fatalf("sheet: %v", err)
	}
	tr, err := ReadTruthFile(truthPath)
	if err != nil || len(tr.Pieces) != 48 {
		t.Fatalf("truth: %v", err)
	}
	pl, err := ReadPlacementFile(plPath, 48, true)
	if err != nil || len(pl.Pieces) != 48 {
		t.Fatalf("placement: %v", err)
	}
	missing := filepath.Join(dir, "none.json")
	if _, err := ReadTruthFile(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	_, err = ReadSheetFile(truthPath, SheetOptions{})
	if !errors.Is(err, imageio.ErrFormat) || !strings.HasPrefix(err.Error(), truthPath+": jigsaw: ") || !strings.HasPrefix(errors.Unwrap(err).Error(), "jigsaw: ") {
		t.Errorf("a JSON file as a sheet: %v", err)
	}
	if _, err := ReadPlacementFile(plPath, 40, true); err == nil || !strings.HasPrefix(err.Error(), plPath+": ") || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("placement of too many pieces: %v", err)
	}
}

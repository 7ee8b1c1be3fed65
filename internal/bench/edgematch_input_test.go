package bench

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tessera/edgematch"
)

// The puzzle and board readers of the front ends: a file or stdin, its
// hints, and every bad input a UsageError that names the file.
func TestReadEdgeMatchInput(t *testing.T) {
	p, sol, err := edgematch.Generate(edgematch.GenerateOptions{Rows: 3, Cols: 3, Colours: 3, Frame: 2, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	text := edgematch.Format(p, "test")
	pf, bf := write("p.txt", text), write("s.board", edgematch.Format(sol, "planted"))
	c := sol.Cells[0]
	hints := write("hints.txt", fmt.Appendf(nil, "%d 0 0 %d\n%d 0 1 %d\n", c.Piece+1, c.Rot, sol.Cells[1].Piece+1, sol.Cells[1].Rot))
	got, err := ReadEdgeMatchPuzzle(pf, nil, hints, 1)
	if err != nil || len(got.Tiles) != len(p.Tiles) || len(got.Hints) != 1 {
		t.Fatalf("file with a hint: %v", err)
	}
	if got, err = ReadEdgeMatchPuzzle("-", strings.NewReader(string(text)), "", 0); err != nil || len(got.Tiles) != len(p.Tiles) {
		t.Fatalf("stdin: %v", err)
	}
	if b, err := ReadEdgeMatchBoard(bf, got); err != nil || !got.Score(b).Solved() {
		t.Fatalf("board: %v", err)
	}
	var ue *UsageError
	for name, err := range map[string]error{
		"missing":        second(ReadEdgeMatchPuzzle(filepath.Join(dir, "none.txt"), nil, "", 0)),
		"folder":         second(ReadEdgeMatchPuzzle(dir, nil, "", 0)),
		"malformed":      second(ReadEdgeMatchPuzzle(write("bad.txt", []byte("3 3\n1 2\n")), nil, "", 0)),
		"stdin":          second(ReadEdgeMatchPuzzle("-", strings.NewReader("x"), "", 0)),
		"missing hints":  second(ReadEdgeMatchPuzzle(pf, nil, filepath.Join(dir, "none"), 0)),
		"board of other": second(ReadEdgeMatchBoard(write("o.board", []byte("2 2\n1/0 2/0\n3/0 4/0\n")), p)),
	} {
		if !errors.As(err, &ue) {
			t.Errorf("%s: %v, want a usage error", name, err)
		}
	}
}

func second[T any](_ T, err error) error { return err }

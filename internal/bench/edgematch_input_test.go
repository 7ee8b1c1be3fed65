package bench

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tessera/edgematch"
	"tessera/edgematch/sat"
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

// The scans of estimate: the four orders, one order, the 16 corner
// scans; an unknown order and an order with the corners are usage errors.
func TestEdgeMatchScans(t *testing.T) {
	for _, c := range []struct {
		order   string
		corners bool
		n       int
	}{{"all", false, 4}, {"spiral", false, 1}, {"all", true, 16}} {
		if s, err := EdgeMatchScans(c.order, c.corners); err != nil || len(s) != c.n {
			t.Errorf("%+v: %d scans, %v", c, len(s), err)
		}
	}
	var ue *UsageError
	for _, c := range [][2]string{{"diagonal", ""}, {"rows", "corners"}} {
		if _, err := EdgeMatchScans(c[0], c[1] != ""); !errors.As(err, &ue) {
			t.Errorf("%q: %v", c, err)
		}
	}
}

// WriteEdgeMatchCNF writes a formula whose header names it, and refuses
// one above its clause bound with the bound that would allow it.
func TestWriteEdgeMatchCNF(t *testing.T) {
	p, _, err := edgematch.Generate(edgematch.GenerateOptions{Rows: 3, Cols: 3, Colours: 3, Frame: 2, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := WriteEdgeMatchCNF(t.Context(), &out, "", "p3", p, sat.SATEncodeOptions{MaxClauses: sat.DefaultSATMaxClauses}); err != nil ||
		!strings.Contains(out.String(), "p cnf ") || !strings.Contains(out.String(), "p3") {
		t.Fatalf("%v\n%.300s", err, out.String())
	}
	path := filepath.Join(t.TempDir(), "f.cnf")
	if err := WriteEdgeMatchCNF(t.Context(), nil, path, "p3", p, sat.SATEncodeOptions{MaxClauses: sat.DefaultSATMaxClauses}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != out.String() {
		t.Errorf("the file differs from stdout's formula: %v", err)
	}
	if err := WriteEdgeMatchCNF(t.Context(), &out, "", "p3", p, sat.SATEncodeOptions{MaxClauses: 10}); err == nil || !strings.Contains(err.Error(), "-max-clauses") {
		t.Errorf("10 clauses: %v", err)
	}
}

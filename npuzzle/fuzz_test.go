package npuzzle

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics, that every board it accepts is
// well formed, and that its formats read back to the same board.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"1 2 3 4 5 6 7 8 0", "1 2 3/4 5 6/7 8 0", "0 1\n2 3", "1,2,3,_", "", "x", "1 2 3/4", "99999999999999999999", "0 1 2 3 4 5"} {
		f.Add(s, "")
		f.Add(s, "2x3")
	}
	f.Fuzz(func(t *testing.T, text, size string) {
		var sz Size
		if size != "" {
			var err error
			if sz, err = ParseSize(size); err != nil {
				return
			}
		}
		b, err := Parse(text, sz)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "npuzzle: ") {
				t.Fatalf("error without the package name: %v", err)
			}
			return
		}
		n := b.Len()
		if b.Rows() < MinSide || b.Cols() < MinSide || b.Rows() > MaxSide || b.Cols() > MaxSide || n != b.Rows()*b.Cols() {
			t.Fatalf("accepted a %dx%d board", b.Rows(), b.Cols())
		}
		seen := make([]bool, n)
		for _, tile := range b.Tiles() {
			if tile < 0 || tile >= n || seen[tile] {
				t.Fatalf("accepted tiles %v", b.Tiles())
			}
			seen[tile] = true
		}
		if r, c := b.Blank(); b.At(r, c) != 0 {
			t.Fatalf("blank position wrong in %q", b.Line())
		}
		c, err := Parse(b.Line(), Size{})
		if err != nil || !c.Equal(b) {
			t.Fatalf("%q does not read back: %v", b.Line(), err)
		}
	})
}

// FuzzParsePartition checks that ParsePartition never panics and that what
// it accepts is a valid partition: disjoint patterns of real tiles.
func FuzzParsePartition(f *testing.F) {
	for _, s := range []string{"7-8", "6-6-6-6", "1,2,3/4,5,6", "1,2//3", "1,1", "", "/", "0", "99", "1 2 3/4,5"} {
		f.Add(s, "4x4", false)
		f.Add(s, "3x3", true)
		f.Add(s, "", false)
	}
	f.Fuzz(func(t *testing.T, text, size string, last bool) {
		var sz Size
		if size != "" {
			var err error
			if sz, err = ParseSize(size); err != nil {
				return
			}
		}
		g := BlankFirst
		if last {
			g = BlankLast
		}
		p, err := ParsePartition(text, sz, g)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "npuzzle: ") {
				t.Fatalf("error without the package name: %v", err)
			}
			return
		}
		n := p.Size.Rows * p.Size.Cols
		seen := make([]bool, n)
		for _, pat := range p.Patterns {
			if len(pat) == 0 {
				t.Fatalf("%q: empty pattern", text)
			}
			for _, tile := range pat {
				if tile < 1 || tile >= n || seen[tile] {
					t.Fatalf("%q: tiles %v", text, p.Patterns)
				}
				seen[tile] = true
			}
		}
	})
}

// FuzzReadTable checks that any file content is either the exact table or
// rejected, never a panic.
func FuzzReadTable(f *testing.F) {
	s, tiles := Size{2, 3}, []int{1, 2}
	good, err := buildTable(f.Context(), s, tiles, 1, nil)
	if err != nil {
		f.Fatal(err)
	}
	path := f.TempDir() + "/t.pdb"
	if err := writeTable(path, good); err != nil {
		f.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	f.Add(data)
	f.Add(data[:20])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		p := t.TempDir() + "/t.pdb"
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		tb, err := readTable(p, s, tiles)
		if err == nil && !bytes.Equal(tb.data, good.data) {
			t.Fatal("accepted a table with other entries")
		}
	})
}

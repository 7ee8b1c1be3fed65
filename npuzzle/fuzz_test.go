package npuzzle

import (
	"bytes"
	"os"
	"testing"

	"tessera/internal/fuzztest"
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
		if fuzztest.Refused(t, "npuzzle", err) {
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
		if fuzztest.Refused(t, "npuzzle", err) {
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

// FuzzParseSet checks that ParseSet never panics, that errors carry the
// package name, and that what it reads is boards of one square size,
// numbered in order, with a length or -1, under a goal that every board
// can reach when the boards decided it.
func FuzzParseSet(f *testing.F) {
	for _, s := range []string{"1 2 3 4 5 6 7 0 8 2\n", "# c\n\n1 0 2 3\n", "1 2 3 4 5 6 7 0 8 x\n", "0 1 2 3\n1 2 3 4 5 6 7 8 0\n", "",
		"99999999999999999999 1 2 3 4", "# goal blank-first\n1 2 3 0\n", "#goal: last\n0 1 2 3 9\n", "1 2 3 0 2\n1 2 0 3 1\n"} {
		f.Add([]byte(s), "set.txt")
	}
	f.Add([]byte("1 2 3 0\n"), "set-blank-first.txt")
	f.Fuzz(func(t *testing.T, data []byte, name string) {
		set, err := ParseSet(bytes.NewReader(data), name)
		if fuzztest.Refused(t, "npuzzle", err) {
			return
		}
		size := set.Instances[0].Board.Size()
		for i, inst := range set.Instances {
			if inst.Board.Size() != size || size.Rows != size.Cols || inst.Number != i+1 || inst.Published < -1 || inst.Line < 1 {
				t.Fatalf("instance %d: %+v, size %v", i+1, inst, inst.Board.Size())
			}
			if set.GoalFrom == "boards" && !Solvable(inst.Board, set.Goal) {
				t.Fatalf("instance %d cannot reach the goal %v found from the boards", i+1, set.Goal)
			}
		}
	})
}

package npuzzle

import (
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

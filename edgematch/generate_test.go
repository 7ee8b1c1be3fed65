package edgematch

import "testing"

// TestGenerateCommand: the command line names every option that changes
// the puzzle, the framed default frame filled in.
func TestGenerateCommand(t *testing.T) {
	for _, c := range []struct {
		o    GenerateOptions
		want string
	}{
		{GenerateOptions{Kind: Framed, Rows: 5, Cols: 6, Colours: 7, Seed: 3}, "tessera edgematch generate -kind framed -size 5x6 -colors 7 -frame 2 -seed 3"},
		{GenerateOptions{Kind: Framed, Rows: 4, Cols: 4, Colours: 7, Frame: 4, Seed: 1}, "tessera edgematch generate -kind framed -size 4x4 -colors 7 -frame 4 -seed 1"},
		{GenerateOptions{Kind: Kovalsky, Rows: 3, Cols: 3, Colours: 2, Rotate: true, Seed: 9}, "tessera edgematch generate -kind kovalsky -size 3x3 -colors 2 -rotate -seed 9"},
	} {
		if got := c.o.Command(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.o, got, c.want)
		}
	}
}

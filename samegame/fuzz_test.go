package samegame

import (
	"strings"
	"testing"

	"tessera/internal/fuzztest"
)

// FuzzParseSet checks that ParseSet never panics, that errors carry the
// package name, and that every board it accepts is settled and formats
// back to itself.
func FuzzParseSet(f *testing.F) {
	for _, s := range []string{
		"position 1\n1 2 3\n3 2 1\n",
		"example x\nboard\nGGO.\nROOY\noptimal 2\nmoves 1\n0 0 G 1\n",
		"1 2\n\n3 4\n",
		"board\n..GR\n..OB\nnn 17\n",
		"1 2 3\n1 2\n",
		"GX\n",
		"moves 3\n",
		"position 1\n" + strings.Repeat("1 ", 21) + "\n",
		"12\n.1\n",
		"# only a comment\n",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, text string, dust bool) {
		rules := Standard
		if dust {
			rules = Dust
		}
		entries, err := ParseSet(strings.NewReader(text), rules)
		if fuzztest.Refused(t, "samegame", err) {
			return
		}
		for _, e := range entries {
			b := e.Board
			if b == nil || b.Width() < 1 || b.Width() > MaxSize || b.Height() < 1 || b.Height() > MaxSize {
				t.Fatalf("%s: bad board", e.Name)
			}
			if err := b.checkSettled(); err != nil {
				t.Fatalf("%s: accepted an unsettled board: %v", e.Name, err)
			}
			for _, n := range []Notation{Digits, Letters} {
				c, err := ParseBoard(Format(b, n), rules)
				if err != nil && !(n == Digits || b.Cells() == 0) {
					t.Fatalf("%s does not read back: %v", Format(b, n), err)
				}
				if err == nil && b.Cells() > 0 && !c.Equal(b) && c.Width() == b.Width() {
					t.Fatalf("%q reads back differently", Format(b, n))
				}
			}
			// Recorded moves either replay or fail cleanly.
			moves := make([]Move, len(e.Moves))
			for i, r := range e.Moves {
				moves[i] = r.Move
			}
			if _, err := Replay(b, moves); err != nil && !strings.HasPrefix(err.Error(), "samegame: move ") {
				t.Fatalf("replay error %v", err)
			}
		}
	})
}

// FuzzParseMoves checks that ParseMoves never panics and that what it
// accepts formats back to itself.
func FuzzParseMoves(f *testing.F) {
	for _, s := range []string{"7,0 3,1", "7 0\n3 1\n", "1,2;3,4", "x", "1,", "99,99", "-1,0", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		moves, err := ParseMoves(text)
		if fuzztest.Refused(t, "samegame", err) {
			return
		}
		back, err := ParseMoves(FormatMoves(moves))
		if err != nil || len(back) != len(moves) {
			t.Fatalf("%q does not read back: %v", FormatMoves(moves), err)
		}
		for i := range moves {
			if back[i] != moves[i] || moves[i].X < 0 || moves[i].Y < 0 || moves[i].X >= MaxSize || moves[i].Y >= MaxSize {
				t.Fatalf("move %d: %v", i, moves[i])
			}
		}
	})
}

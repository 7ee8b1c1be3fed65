package jigsaw

import (
	"bytes"
	"testing"
)

// A scramble with pieces dropped and strays mixed in: the truth records
// both, round-trips through JSON, and its own placement scores perfect,
// with every hole where a piece is missing and every stray set aside.
func TestScrambleHoles(t *testing.T) {
	g, other := loadGrid(t, "mit5-crop.png"), loadGrid(t, "bgu10-crop.png")
	pz, truth := Scramble([]*Grid{g}, ScrambleOptions{Rotate: true, Seed: 4, Drop: 0.25, Strays: []*Grid{other}, StrayPieces: 5})
	cells := g.Rows * g.Cols
	missing := (cells + 2) / 4
	if truth.Missing != missing || len(pz.Pieces) != cells-missing+5 || truth.Pictures() != 1 || !truth.Images[1].Stray {
		t.Fatalf("missing %d, %d pieces, %d pictures", truth.Missing, len(pz.Pieces), truth.Pictures())
	}
	var buf bytes.Buffer
	if err := truth.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := ReadTruth(&buf)
	if err != nil {
		t.Fatal(err)
	}
	p := back.Placement()
	buf.Reset()
	if err := p.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	p, err = ReadPlacement(&buf, len(pz.Pieces), true)
	if err != nil {
		t.Fatal(err)
	}
	acc, err := Score(back, p, ScoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !acc.Perfect || acc.Direct != 1 || acc.Neighbor != 1 || acc.HolesRight != missing || acc.Holes != missing ||
		acc.Strays != 5 || acc.StraysAside != 5 || acc.Aside != 0 || acc.Images[0].Pieces != cells-missing {
		t.Fatalf("%+v", acc)
	}
	// Placing a stray in a hole: the hole is no longer found, the stray
	// no longer set aside.
	for k := range pz.Pieces {
		if truth.IsStray(k) {
			for r := range g.Rows {
				for c := range g.Cols {
					if !occupied(p, r, c) {
						p.Pieces = append(p.Pieces, Placed{Piece: k, Row: r, Col: c})
						acc, _ := Score(back, p, ScoreOptions{})
						if acc.HolesRight != missing-1 || acc.StraysAside != 4 || acc.Perfect {
							t.Fatalf("a stray in a hole: %+v", acc)
						}
						return
					}
				}
			}
		}
	}
	t.Fatal("no stray")
}

func occupied(p *Placement, r, c int) bool {
	for _, q := range p.Pieces {
		if q.Row == r && q.Col == c {
			return true
		}
	}
	return false
}

// A scramble without drops or strays is the scramble it always was.
func TestScrambleUnchanged(t *testing.T) {
	g := loadGrid(t, "mit5-crop.png")
	a, ta := Scramble([]*Grid{g}, ScrambleOptions{Rotate: true, Seed: 9})
	b, tb := Scramble([]*Grid{g}, ScrambleOptions{Rotate: true, Seed: 9, Strays: []*Grid{g}})
	if tb.Missing != 0 || len(tb.Images) != 2 || len(a.Pieces) != len(b.Pieces) {
		t.Fatal("strays of 0 pieces changed the puzzle")
	}
	for k := range ta.Pieces {
		if ta.Pieces[k] != tb.Pieces[k] {
			t.Fatalf("piece %d: %+v vs %+v", k, ta.Pieces[k], tb.Pieces[k])
		}
	}
}

// Truths that do not add up are refused.
func TestTruthHolesRefused(t *testing.T) {
	for _, s := range []string{
		`{"piece_size": 2, "images": [{"name": "a", "rows": 1, "cols": 3}], "pieces": [{"row": 0, "col": 1}, {"row": 0, "col": 0}]}`,
		`{"piece_size": 2, "images": [{"name": "a", "rows": 1, "cols": 3}], "pieces": [{"row": 0, "col": 1}, {"row": 0, "col": 0}], "missing": 2}`,
		`{"piece_size": 2, "images": [{"name": "a", "rows": 1, "cols": 2, "stray": true}], "pieces": [{"row": 0, "col": 1}]}`,
		`{"piece_size": 2, "images": [{"name": "s", "rows": 1, "cols": 2, "stray": true}, {"name": "a", "rows": 1, "cols": 1}], "pieces": [{"image": 1, "row": 0, "col": 0}]}`,
		`{"piece_size": 2, "images": [{"name": "a", "rows": 1, "cols": 2}], "pieces": [{"row": 0, "col": 1}], "missing": -1}`,
	} {
		if _, err := ReadTruth(bytes.NewReader([]byte(s))); err == nil {
			t.Errorf("accepted %s", s)
		}
	}
	ok := `{"piece_size": 2, "images": [{"name": "a", "rows": 1, "cols": 3}, {"name": "s", "rows": 2, "cols": 2, "stray": true}], "pieces": [{"row": 0, "col": 1}, {"image": 1, "row": 1, "col": 1}], "missing": 2}`
	if _, err := ReadTruth(bytes.NewReader([]byte(ok))); err != nil {
		t.Errorf("refused %s: %v", ok, err)
	}
}

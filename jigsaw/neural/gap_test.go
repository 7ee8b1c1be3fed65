package neural

import (
	"image"
	"image/color"
	"testing"
)

// Touching patches (Gap NoGap) are cut side by side: the patch of cell 1
// starts at column Patch of the region, and a zero Gap still means 4 px.
func TestNoGapCut(t *testing.T) {
	img := image.NewNRGBA64(image.Rect(0, 0, 100, 100))
	for y := range 100 {
		for x := range 100 {
			img.SetNRGBA64(x, y, color.NRGBA64{R: uint16(x * 600), G: uint16(y * 600), A: 0xffff})
		}
	}
	for _, tc := range []struct {
		gap, cell, x1 int // Gap, Cell(), first column of cell 1's patch
	}{
		{NoGap, 20, 20},
		{0, 24, 2 + 24}, // the default 4 px: 2 px each side
		{6, 26, 3 + 26},
	} {
		g := Geometry{Grid: 2, Patch: 20, Gap: tc.gap}.Defaults()
		if err := g.Validate(); err != nil {
			t.Fatalf("gap %d: %v", tc.gap, err)
		}
		if g.Cell() != tc.cell || g.Side() != 2*tc.cell {
			t.Errorf("gap %d: cell %d side %d, want %d and %d", tc.gap, g.Cell(), g.Side(), tc.cell, 2*tc.cell)
		}
		pz := Cut(img, 0, 0, g)
		if r, _, _ := pz.Patches[1].RGB(0, 0); r != uint16(tc.x1*600) {
			t.Errorf("gap %d: cell 1 starts at column %d, want %d", tc.gap, r/600, tc.x1)
		}
	}
	if GapOf(0) != NoGap || GapOf(4) != 4 || (Geometry{Gap: NoGap}).GapPx() != 0 {
		t.Error("GapOf/GapPx")
	}
	if err := (Geometry{Grid: 2, Patch: 20, Gap: -2}).Validate(); err == nil {
		t.Error("gap -2 accepted")
	}
}

// A model of touching patches fits puzzles of Gap NoGap, not the default.
func TestNoGapModel(t *testing.T) {
	g := Geometry{Grid: 2, Patch: 12, Gap: NoGap}
	m, err := NewModel(g, Arch{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if m.Gap != 0 || m.Geometry(2) != g {
		t.Fatalf("model gap %d, geometry %+v", m.Gap, m.Geometry(2))
	}
	m.Heads[2] = Heads{}
	if err := m.Fits(g); err != nil {
		t.Error(err)
	}
	if err := m.Fits(Geometry{Grid: 2, Patch: 12}.Defaults()); err == nil {
		t.Error("a 0 px model fits 4 px puzzles")
	}
}

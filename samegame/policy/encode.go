package policy

import (
	"fmt"
	"slices"

	"tessera/samegame"
)

// Geometry is the board size and palette a network is built for.
type Geometry struct {
	W, H, Colors int
}

// DustGeometry is the source blog's board: 8 columns, 6 rows, 5 colours.
var DustGeometry = Geometry{W: 8, H: 6, Colors: 5}

// Channels is the number of input planes: empty, then one per colour.
func (g Geometry) Channels() int { return 1 + g.Colors }

// InputSize is the number of values Encode writes per board.
func (g Geometry) InputSize() int { return g.W * g.H * g.Channels() }

// Cells is the number of cells, and of outputs of the network.
func (g Geometry) Cells() int { return g.W * g.H }

// Fits reports whether b has g's size and at most its colours.
func (g Geometry) Fits(b *samegame.Board) error {
	if b.Width() != g.W || b.Height() != g.H || b.Colors() > g.Colors {
		return fmt.Errorf("policy: the network is for %dx%d boards of %d colours, not %dx%d of %d",
			g.W, g.H, g.Colors, b.Width(), b.Height(), b.Colors())
	}
	return nil
}

// Encode appends the one-hot encoding of b to dst: for each row y (from the
// bottom) and column x, Channels values, 1 at index 0 for an empty cell or
// at 1+c for colour c, 0 elsewhere. It is the source's input encoding, laid
// out as an [H, W, Channels] image. b must fit g.
func (g Geometry) Encode(dst []float32, b *samegame.Board) []float32 {
	ch := g.Channels()
	n := len(dst)
	dst = append(dst, make([]float32, g.InputSize())...)
	for y := range g.H {
		for x := range g.W {
			dst[n+(y*g.W+x)*ch+int(b.At(x, y))+1] = 1
		}
	}
	return dst
}

// Decode is the inverse of Encode: it reads one encoded board back under
// rules. It returns an error for values that are not a one-hot encoding of
// a settled board.
func (g Geometry) Decode(v []float32, rules samegame.Rules) (*samegame.Board, error) {
	if len(v) != g.InputSize() {
		return nil, fmt.Errorf("policy: %d values, want %d", len(v), g.InputSize())
	}
	ch := g.Channels()
	rows := make([][]samegame.Color, g.H)
	for r := range rows {
		y := g.H - 1 - r
		rows[r] = make([]samegame.Color, g.W)
		for x := range g.W {
			c := -1
			for k := range ch {
				switch v[(y*g.W+x)*ch+k] {
				case 1:
					if c >= 0 {
						return nil, fmt.Errorf("policy: cell %d,%d has two channels set", x, y)
					}
					c = k
				case 0:
				default:
					return nil, fmt.Errorf("policy: cell %d,%d is not one-hot", x, y)
				}
			}
			if c < 0 {
				return nil, fmt.Errorf("policy: cell %d,%d has no channel set", x, y)
			}
			rows[r][x] = samegame.Color(c - 1)
		}
	}
	return samegame.FromRows(rows, g.Colors, rules)
}

// components labels the groups of b: comp[y*W+x] is the index in groups of
// the group holding cell (x, y), or -1 for an empty cell, where groups is
// b.Groups (every group, single cells too). O(cells).
func components(b *samegame.Board, groups []samegame.Group, comp []int) []int {
	w, h := b.Width(), b.Height()
	comp = comp[:0]
	for range w * h {
		comp = append(comp, -1)
	}
	var stack []int
	for gi, gr := range groups {
		start := int(gr.Y)*w + int(gr.X)
		comp[start] = gi
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			x, y := c%w, c/w
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				nx, ny := x+d[0], y+d[1]
				if nx < 0 || ny < 0 || nx >= w || ny >= h {
					continue
				}
				n := ny*w + nx
				if comp[n] < 0 && b.At(nx, ny) == gr.Color {
					comp[n] = gi
					stack = append(stack, n)
				}
			}
		}
	}
	return comp
}

// Mask appends the target of a click to dst: W*H values, 1 on the cells of
// the group g of b (cell (x, y) at index y*W+x), 0 elsewhere.
func (g Geometry) Mask(dst []float32, b *samegame.Board, gr samegame.Group) []float32 {
	return g.MaskAll(dst, b, []samegame.Group{gr})
}

// MaskAll is Mask for several groups: the cells of every one of grs are 1.
func (g Geometry) MaskAll(dst []float32, b *samegame.Board, grs []samegame.Group) []float32 {
	groups := b.Groups(nil)
	comp := components(b, groups, nil)
	var target []int
	for _, gr := range grs {
		target = append(target, comp[int(gr.Y)*g.W+int(gr.X)])
	}
	for _, c := range comp {
		if c >= 0 && slices.Contains(target, c) {
			dst = append(dst, 1)
		} else {
			dst = append(dst, 0)
		}
	}
	return dst
}

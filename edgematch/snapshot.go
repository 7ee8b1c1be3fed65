package edgematch

import (
	"fmt"
	"image"
	"image/color"
)

// LPIterate is the state of Algorithm 1 after one LP, as relax.LP.OnLP receives
// it: the matrix P, the LP's objective and the board that P rounds to.
// Every field is a fresh copy that the callee may keep.
type LPIterate struct {
	// Iteration is 1 for the first LP.
	Iteration int
	// Cells (Rows*Cols) and Pieces (as many) are P's rows and pieces;
	// Rotations is 1 for a puzzle of fixed orientation, else 4.
	Cells, Pieces, Rotations int
	// P is the LP's solution, Cells x Pieces x Rotations in row-major
	// order: P[(cell*Pieces+piece)*Rotations+rot] is the mass of the piece
	// turned rot quarter turns clockwise in the cell (0 for the pairs the
	// frame, the hints or the pruning rule out, and for a rotation that
	// repeats an earlier one of a symmetric piece). Every cell's entries sum
	// to 1 and so do every piece's, within the LP backend's tolerance.
	P []float64
	// Objective is <P(n-1), P(n)>, the LP's objective (0 for the first).
	Objective float64
	// Fractional counts the entries strictly between relax.LP.Tol and 1-Tol.
	Fractional int
	// Board is P rounded as the solver rounds it before its search: the
	// assignment of pieces to cells of largest total mass, each piece with
	// its heaviest rotation; Score is its score.
	Board *Board
	Score Score
}

// At returns the mass of piece in cell, summed over the rotations.
func (it LPIterate) At(cell, piece int) float64 {
	s := 0.0
	for _, v := range it.P[(cell*it.Pieces+piece)*it.Rotations:][:it.Rotations] {
		s += v
	}
	return s
}

// SnapshotOptions tune RenderP and RenderIterates. The zero value draws
// 32-pixel cells and P summed over the rotations, black for 0 and white
// for 1 (the paper's Figure 4c), as tall as the board's cells.
type SnapshotOptions struct {
	// Cell is the side of a board cell in pixels (0: 32).
	Cell int
	// Scale is the side of an entry of P in pixels (0: Cell/Cols, at
	// least 1, so that P is as tall as the board's cells).
	Scale int
	// Rotations draws the rotations of a puzzle of unknown orientation
	// side by side, one Cells x Pieces block per rotation (0 to 3 quarter
	// turns, left to right), instead of summing them.
	Rotations bool
	// BlackOne draws 1 black and 0 white; by default 1 is white and 0
	// black, as in the paper's Figure 4c.
	BlackOne bool
}

func (o SnapshotOptions) sizes(cols int) (cell, scale int) {
	cell = o.Cell
	if cell <= 0 {
		cell = 32
	}
	scale = o.Scale
	if scale <= 0 {
		scale = max(1, cell/max(1, cols))
	}
	return cell, scale
}

// cols returns the board's number of columns (that of a square board when
// the iterate has no board).
func (it LPIterate) cols() int {
	if it.Board != nil {
		return it.Board.Cols
	}
	c := 1
	for (c+1)*(c+1) <= it.Cells {
		c++
	}
	return c
}

// RenderP draws the matrix P of an iterate as a heat map: a row of pixels
// per cell (row-major board order, top to bottom), a column per piece (in
// file order, left to right), grey levels from black for 0 to white for 1
// as in the paper's Figure 4c (the reverse with BlackOne), inside a one-pixel grey border. The image is
// Pieces*Scale+2 pixels wide (Rotations*(Pieces*Scale+1)+1 with
// o.Rotations) and Cells*Scale+2 high.
func RenderP(it LPIterate, o SnapshotOptions) *image.RGBA {
	_, scale := o.sizes(it.cols())
	blocks := 1
	if o.Rotations {
		blocks = it.Rotations
	}
	bw := it.Pieces * scale
	img := image.NewRGBA(image.Rect(0, 0, blocks*(bw+1)+1, it.Cells*scale+2))
	border := color.RGBA{0x90, 0x90, 0x90, 0xff}
	for y := range img.Rect.Dy() {
		for x := range img.Rect.Dx() {
			img.SetRGBA(x, y, border)
		}
	}
	for cell := range it.Cells {
		for piece := range it.Pieces {
			for b := range blocks {
				v := it.At(cell, piece)
				if o.Rotations {
					v = it.P[(cell*it.Pieces+piece)*it.Rotations+b]
				}
				v = min(1, max(0, v))
				if o.BlackOne {
					v = 1 - v
				}
				g := uint8(255*v + 0.5)
				col := color.RGBA{g, g, g, 0xff}
				x0, y0 := 1+b*(bw+1)+piece*scale, 1+cell*scale
				for y := range scale {
					for x := range scale {
						img.SetRGBA(x0+x, y0+y, col)
					}
				}
			}
		}
	}
	return img
}

// RenderIterates draws the iterates of Algorithm 1 left to right on white,
// as the paper's Figure 4c: for each, the board its P rounds to (as Render
// draws it, mismatches marked) above P (as RenderP draws it), both centred
// in their column, with an 8-pixel gap between columns and rows.
func (p *Puzzle) RenderIterates(its []LPIterate, o SnapshotOptions) (*image.RGBA, error) {
	if len(its) == 0 {
		return nil, fmt.Errorf("edgematch: render iterates: no iterates")
	}
	const gap = 8
	cell, _ := o.sizes(p.Cols)
	var boards, ps []*image.RGBA
	colW, boardH, pH := 0, 0, 0
	for k, it := range its {
		if it.Board == nil || it.Board.Rows != p.Rows || it.Board.Cols != p.Cols || it.Cells != p.Cells() {
			return nil, fmt.Errorf("edgematch: render iterates: iterate %d does not fit the %dx%d puzzle", k+1, p.Rows, p.Cols)
		}
		b := p.Render(it.Board, RenderOptions{Cell: cell})
		m := RenderP(it, o)
		boards, ps = append(boards, b), append(ps, m)
		colW = max(colW, b.Rect.Dx(), m.Rect.Dx())
		boardH, pH = max(boardH, b.Rect.Dy()), max(pH, m.Rect.Dy())
	}
	w := len(its)*(colW+gap) - gap
	if w > 1<<15 {
		return nil, fmt.Errorf("edgematch: render iterates: %d pixels wide is too large; lower Cell or Scale", w)
	}
	out := image.NewRGBA(image.Rect(0, 0, w, boardH+gap+pH))
	for i := range out.Pix {
		out.Pix[i] = 255
	}
	put := func(img *image.RGBA, x0, y0 int) {
		for y := range img.Rect.Dy() {
			copy(out.Pix[(y0+y)*out.Stride+4*x0:], img.Pix[y*img.Stride:y*img.Stride+4*img.Rect.Dx()])
		}
	}
	for k := range its {
		x := k * (colW + gap)
		put(boards[k], x+(colW-boards[k].Rect.Dx())/2, 0)
		put(ps[k], x+(colW-ps[k].Rect.Dx())/2, boardH+gap)
	}
	return out, nil
}

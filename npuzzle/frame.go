package npuzzle

// maxCells bounds the cells of any board (MaxSide squared), rounded up to a
// power of two so that hot loops can index fixed arrays with a mask.
const maxCells = 128

// frame is a board seen in the blank-first frame, where tile t belongs at
// cell t: the specialised solvers and the pattern databases work there only.
// A blank-last board is rotated by 180 degrees and its tiles renamed (tile t
// becomes n-t), a symmetry that maps its goal to the blank-first goal and
// keeps every distance; a move in the frame is then the inverse move on the
// board (the blank going down in the frame goes up on the board).
type frame struct {
	rows, cols int
	cells      []uint8
	rotated    bool
}

func newFrame(b *Board, g Goal) frame {
	f := frame{rows: b.rows, cols: b.cols, cells: make([]uint8, len(b.cells)), rotated: g == BlankLast}
	n := len(b.cells)
	for c, t := range b.cells {
		if !f.rotated {
			f.cells[c] = t
		} else if t != 0 {
			f.cells[n-1-c] = uint8(n - int(t))
		}
	}
	return f
}

// blank returns the blank's cell.
func (f frame) blank() int {
	for c, t := range f.cells {
		if t == 0 {
			return c
		}
	}
	panic("npuzzle: frame without a blank")
}

// manhattan returns the Manhattan distance to the blank-first goal.
func (f frame) manhattan() int {
	h := 0
	for c, t := range f.cells {
		if t != 0 {
			h += abs(c/f.cols-int(t)/f.cols) + abs(c%f.cols-int(t)%f.cols)
		}
	}
	return h
}

// boardMove returns the move on the board for move m in the frame.
func (f frame) boardMove(m Move) Move {
	if f.rotated {
		return m.Inverse()
	}
	return m
}

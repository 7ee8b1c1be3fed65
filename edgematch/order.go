package edgematch

import "fmt"

// Order is the scan order in which a backtracker fills the cells.
type Order uint8

const (
	// OrderAuto is OrderRows when the board is at least as tall as it is
	// wide, else OrderColumns: the scan runs along the shorter side, which
	// keeps the open frontier short.
	OrderAuto Order = iota
	// OrderRows fills row by row from the top left ("row-scan").
	OrderRows
	// OrderColumns fills column by column from the top left.
	OrderColumns
	// OrderFrameFirst fills the border clockwise from the top left corner,
	// then the interior row by row.
	OrderFrameFirst
	// OrderSpiral fills rings from the outside in, each clockwise from its
	// top left corner.
	OrderSpiral
)

var orderNames = [...]string{OrderAuto: "auto", OrderRows: "rows", OrderColumns: "columns", OrderFrameFirst: "frame", OrderSpiral: "spiral"}

// String returns "auto", "rows", "columns", "frame" or "spiral".
func (o Order) String() string {
	if int(o) < len(orderNames) {
		return orderNames[o]
	}
	return fmt.Sprintf("Order(%d)", o)
}

// ParseOrder parses a name written by String.
func ParseOrder(s string) (Order, error) {
	for i, n := range orderNames {
		if s == n {
			return Order(i), nil
		}
	}
	return 0, fmt.Errorf("edgematch: unknown scan order %q (want auto, rows, columns, frame or spiral)", s)
}

// Cells returns the cells (row*cols + col) of a rows x cols board in the
// order o visits them.
func (o Order) Cells(rows, cols int) []int {
	if o == OrderAuto {
		o = OrderRows
		if cols > rows {
			o = OrderColumns
		}
	}
	out := make([]int, 0, rows*cols)
	switch o {
	case OrderColumns:
		for c := range cols {
			for r := range rows {
				out = append(out, r*cols+c)
			}
		}
	case OrderFrameFirst:
		out = appendRing(out, rows, cols, 0)
		for r := 1; r < rows-1; r++ {
			for c := 1; c < cols-1; c++ {
				out = append(out, r*cols+c)
			}
		}
	case OrderSpiral:
		for k := 0; 2*k < rows && 2*k < cols; k++ {
			out = appendRing(out, rows, cols, k)
		}
	default:
		for i := range rows * cols {
			out = append(out, i)
		}
	}
	return out
}

// appendRing appends ring k (the cells at distance k from the border)
// clockwise from its top left corner.
func appendRing(out []int, rows, cols, k int) []int {
	top, left, bottom, right := k, k, rows-1-k, cols-1-k
	for c := left; c <= right; c++ {
		out = append(out, top*cols+c)
	}
	for r := top + 1; r <= bottom; r++ {
		out = append(out, r*cols+right)
	}
	if bottom > top {
		for c := right - 1; c >= left; c-- {
			out = append(out, bottom*cols+c)
		}
	}
	if right > left {
		for r := bottom - 1; r > top; r-- {
			out = append(out, r*cols+left)
		}
	}
	return out
}

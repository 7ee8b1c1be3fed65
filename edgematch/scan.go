package edgematch

import "fmt"

// Scan is a scan order placed on the board: an Order (rows, frame-first
// or spiral, as from the top left corner) turned by transposing and
// mirroring the board, so that it starts from any corner in either
// direction. The zero Scan is OrderAuto's static choice.
type Scan struct {
	Order Order
	// Transpose swaps rows and columns (rows become columns, a clockwise
	// spiral a counter-clockwise one).
	Transpose bool
	// Flip mirrors the scan: bit 0 left to right, bit 1 top to bottom.
	Flip uint8
}

// Cells returns the cells (row*cols + col) of a rows x cols board in scan
// order.
func (s Scan) Cells(rows, cols int) []int {
	r, c := rows, cols
	if s.Transpose {
		r, c = cols, rows
	}
	out := s.Order.Cells(r, c)
	for i, cell := range out {
		y, x := cell/c, cell%c
		if s.Transpose {
			y, x = x, y
		}
		if s.Flip&1 != 0 {
			x = cols - 1 - x
		}
		if s.Flip&2 != 0 {
			y = rows - 1 - y
		}
		out[i] = y*cols + x
	}
	return out
}

// String names the scan: "rows from the top left", "columns from the
// bottom right", "spiral clockwise from the top right", ...
func (s Scan) String() string {
	if s.Order == OrderAuto {
		return s.Order.String()
	}
	corner := [4]string{"top left", "top right", "bottom left", "bottom right"}[s.Flip&3]
	name := s.Order.String()
	switch s.Order {
	case OrderRows, OrderColumns:
		if s.Transpose != (s.Order == OrderColumns) {
			name = "columns"
		} else {
			name = "rows"
		}
	case OrderSpiral, OrderFrameFirst:
		turns := 0
		if s.Transpose {
			turns++
		}
		turns += int(s.Flip&1) + int(s.Flip>>1&1)
		if turns%2 == 0 {
			name += " clockwise"
		} else {
			name += " counter-clockwise"
		}
	}
	return fmt.Sprintf("%s from the %s", name, corner)
}

// Scans returns rows and columns from each corner and a spiral from each
// corner in both directions: 16 scans, which exact.EstimateScan compares.
func Scans() []Scan {
	var out []Scan
	for _, o := range []Order{OrderRows, OrderSpiral} {
		for _, tr := range []bool{false, true} {
			for f := range uint8(4) {
				out = append(out, Scan{Order: o, Transpose: tr, Flip: f})
			}
		}
	}
	return out
}

// ParseScan parses an Order's name ("rows", "spiral", ...: from the top
// left corner) or a name written by Scan.String ("rows from the bottom
// right", "spiral counter-clockwise from the top right", ...).
func ParseScan(s string) (Scan, error) {
	if o, err := ParseOrder(s); err == nil {
		return Scan{Order: o}, nil
	}
	for _, sc := range Scans() {
		if sc.String() == s {
			return sc, nil
		}
	}
	return Scan{}, fmt.Errorf("edgematch: unknown scan order %q (want auto, rows, columns, frame, spiral, or a scan such as \"rows from the bottom right\")", s)
}

package jigsaw

import (
	"errors"
	"fmt"
	"image"
	"slices"
)

// SheetGrid says where the pieces lie on a sheet: square cells of Size
// pixels, the first at (X0, Y0) from the sheet's top-left corner, one every Pitch pixels (Size plus the
// gutter between two pieces), Cols x Rows of them.
type SheetGrid struct {
	Size, Pitch, X0, Y0, Cols, Rows int
}

// Gutter returns the width of the gutter between two pieces.
func (g SheetGrid) Gutter() int { return g.Pitch - g.Size }

// ErrAmbiguousGrid is returned by DetectGrid for a sheet on which no grid
// of equal squares, or more than one, can be told.
var ErrAmbiguousGrid = errors.New("jigsaw: the piece size cannot be told from the sheet")

// MinDetectSize is the smallest piece DetectGrid looks for, in pixels.
const MinDetectSize = 4

// boundaryRatio is how much stronger than the typical step between two
// pixel columns (rows) of a sheet every boundary between two cells must
// be for DetectGrid to take a piece size: the sheet's neighbouring pieces
// are unrelated, so their common edge is a step in colour that, averaged
// along the whole line, stands far above the steps inside pieces (which
// the scrambling scatters).
const boundaryRatio = 2.5

// DetectGrid finds the grid of equal square pieces of a sheet that does
// not record its piece size: first gutters (whole columns and rows of one
// colour, transparent or not, between equal runs of picture), then, in
// what they leave (the whole sheet without gutters), the smallest piece
// size whose every cell boundary is a much stronger step in colour than
// the steps between other pixel lines, the larger sizes that also fit
// being multiples of it. It returns ErrAmbiguousGrid, saying why, when no
// size fits (not a sheet of pieces, or a single piece), when two sizes
// that are not multiples of each other fit, or when the sheet has fewer
// than two cells. Time O(width x height), memory O(width + height).
func DetectGrid(m *image.NRGBA64) (SheetGrid, error) {
	b := m.Bounds()
	w, h := b.Dx(), b.Dy()
	if w < MinDetectSize || h < MinDetectSize {
		return SheetGrid{}, fmt.Errorf("%w: a %dx%d sheet is smaller than the smallest piece looked for (%d pixels)", ErrAmbiguousGrid, w, h, MinDetectSize)
	}
	pr := sheetProfiles(m)
	if g, ok, err := gutterGrid(pr, w, h); ok || err != nil {
		return g, err
	}
	// The content box: without the margins of one colour round the
	// sheet, if any.
	x0, x1 := contentRange(pr.colUniform, pr.colColour, pr.bg)
	y0, y1 := contentRange(pr.rowUniform, pr.rowColour, pr.bg)
	if x1-x0 < MinDetectSize || y1-y0 < MinDetectSize {
		return SheetGrid{}, fmt.Errorf("%w: the sheet is of one colour", ErrAmbiguousGrid)
	}
	size, err := boundarySize(pr.colStep[x0:x1], pr.rowStep[y0:y1])
	if err != nil && (x0 > 0 || y0 > 0 || x1 < w || y1 < h) {
		// The margins may be lines of one colour inside the pieces.
		if s2, err2 := boundarySize(pr.colStep, pr.rowStep); err2 == nil {
			size, err, x0, x1, y0, y1 = s2, nil, 0, w, 0, h
		}
	}
	if err != nil {
		return SheetGrid{}, err
	}
	return SheetGrid{Size: size, Pitch: size, X0: x0, Y0: y0, Cols: (x1 - x0) / size, Rows: (y1 - y0) / size}, nil
}

// profiles are a sheet's per-line statistics.
type profiles struct {
	// colStep[x] is the mean colour step between pixel columns x-1 and x
	// (colStep[0] is 0); rowStep likewise between rows.
	colStep, rowStep []float64
	// colUniform[x] says that column x is one colour, colColour[x].
	colUniform, rowUniform []bool
	colColour, rowColour   []uint64
	// bg is the colour of most uniform lines, or hasBg false if none.
	bg    uint64
	hasBg bool
}

// pixelAt returns the pixel at (x, y) of m, relative to its bounds, as one
// word: transparent pixels all alike, others premultiplied over black.
func pixelAt(m *image.NRGBA64, x, y int) uint64 {
	s := m.Pix[m.PixOffset(m.Rect.Min.X+x, m.Rect.Min.Y+y):]
	a := uint64(s[6])<<8 | uint64(s[7])
	if a == 0 {
		return 0
	}
	var v uint64
	for ch := range 3 {
		c := uint64(s[2*ch])<<8 | uint64(s[2*ch+1])
		v = v<<16 | c*a/0xffff
	}
	return v<<16 | a
}

// step is the sum over the four channels of the absolute differences.
func step(p, q uint64) float64 {
	d := 0
	for range 4 {
		a, b := int(p&0xffff), int(q&0xffff)
		d += max(a-b, b-a)
		p, q = p>>16, q>>16
	}
	return float64(d)
}

func sheetProfiles(m *image.NRGBA64) *profiles {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	pr := &profiles{colStep: make([]float64, w), rowStep: make([]float64, h),
		colUniform: make([]bool, w), rowUniform: make([]bool, h),
		colColour: make([]uint64, w), rowColour: make([]uint64, h)}
	for x := range w {
		pr.colUniform[x], pr.colColour[x] = true, pixelAt(m, x, 0)
	}
	prev := make([]uint64, w)
	cur := make([]uint64, w)
	for y := range h {
		for x := range w {
			cur[x] = pixelAt(m, x, y)
		}
		pr.rowUniform[y], pr.rowColour[y] = true, cur[0]
		for x := range w {
			if cur[x] != cur[0] {
				pr.rowUniform[y] = false
			}
			if cur[x] != pr.colColour[x] {
				pr.colUniform[x] = false
			}
			if x > 0 {
				pr.colStep[x] += step(cur[x], cur[x-1])
			}
			if y > 0 {
				pr.rowStep[y] += step(cur[x], prev[x])
			}
		}
		prev, cur = cur, prev
	}
	for x := range pr.colStep {
		pr.colStep[x] /= float64(h)
	}
	for y := range pr.rowStep {
		pr.rowStep[y] /= float64(w)
	}
	count := map[uint64]int{}
	for x, u := range pr.colUniform {
		if u {
			count[pr.colColour[x]]++
		}
	}
	for y, u := range pr.rowUniform {
		if u {
			count[pr.rowColour[y]]++
		}
	}
	for c, k := range count {
		if !pr.hasBg || k > count[pr.bg] || k == count[pr.bg] && c < pr.bg {
			pr.bg, pr.hasBg = c, true
		}
	}
	return pr
}

// contentRange returns the lines between the margins of background colour.
func contentRange(uniform []bool, colour []uint64, bg uint64) (lo, hi int) {
	lo, hi = 0, len(uniform)
	for lo < hi && uniform[lo] && colour[lo] == bg {
		lo++
	}
	for hi > lo && uniform[hi-1] && colour[hi-1] == bg {
		hi--
	}
	return lo, hi
}

// runs returns the [start, end) runs of lines that are not gutters.
func runs(uniform []bool, colour []uint64, bg uint64) [][2]int {
	var out [][2]int
	for i := 0; i < len(uniform); {
		if uniform[i] && colour[i] == bg {
			i++
			continue
		}
		j := i
		for j < len(uniform) && !(uniform[j] && colour[j] == bg) {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

// evenRuns reports whether runs all have length size and start pitch
// apart (any pitch when there is one run).
func evenRuns(rs [][2]int, size, pitch int) bool {
	for i, r := range rs {
		if r[1]-r[0] != size || i > 0 && r[0]-rs[i-1][0] != pitch {
			return false
		}
	}
	return true
}

// gutterGrid finds a grid of pieces separated by gutters of the
// background colour; ok is false when the sheet has no such gutters
// between pieces (it may still have margins).
func gutterGrid(pr *profiles, w, h int) (SheetGrid, bool, error) {
	if !pr.hasBg {
		return SheetGrid{}, false, nil
	}
	cr := runs(pr.colUniform, pr.colColour, pr.bg)
	rr := runs(pr.rowUniform, pr.rowColour, pr.bg)
	if len(cr) == 0 || len(rr) == 0 || len(cr) == 1 && len(rr) == 1 {
		return SheetGrid{}, false, nil
	}
	size := cr[0][1] - cr[0][0]
	pitch := 0
	if len(cr) > 1 {
		pitch = cr[1][0] - cr[0][0]
	} else {
		pitch = rr[1][0] - rr[0][0]
	}
	if size < MinDetectSize || !evenRuns(cr, size, pitch) || !evenRuns(rr, size, pitch) || pitch <= size {
		// Runs of picture of unequal sizes: a line of one colour inside
		// the pieces, not a gutter; or pieces in runs without gutters
		// between them, which the boundary steps tell.
		return SheetGrid{}, false, nil
	}
	return SheetGrid{Size: size, Pitch: pitch, X0: pr0(cr), Y0: pr0(rr), Cols: len(cr), Rows: len(rr)}, true, nil
}

func pr0(rs [][2]int) int { return rs[0][0] }

// boundarySize returns the smallest piece size whose cell boundaries,
// along both axes, are (four in five at least) much stronger steps than
// the other lines.
func boundarySize(cols, rows []float64) (int, error) {
	w, h := len(cols), len(rows)
	var fits []int
	tried := false
	for s := MinDetectSize; s <= min(w, h); s++ {
		if w%s != 0 || h%s != 0 || (w == s && h == s) {
			continue
		}
		tried = true
		var on, off []float64
		for x := 1; x < w; x++ {
			if x%s == 0 {
				on = append(on, cols[x])
			} else {
				off = append(off, cols[x])
			}
		}
		for y := 1; y < h; y++ {
			if y%s == 0 {
				on = append(on, rows[y])
			} else {
				off = append(off, rows[y])
			}
		}
		if len(off) == 0 {
			continue
		}
		slices.Sort(off)
		slices.Sort(on)
		// A fifth of the boundaries may be weak (two pieces that happen
		// to match, transparent cells); a divisor of the piece size has
		// at least half of its lines weak.
		if low := on[len(on)/5]; low > boundaryRatio*off[len(off)/2] && low > 0 {
			fits = append(fits, s)
		}
	}
	switch {
	case !tried:
		return 0, fmt.Errorf("%w: a %dx%d sheet cannot be cut into two or more equal squares of at least %d pixels", ErrAmbiguousGrid, w, h, MinDetectSize)
	case len(fits) == 0:
		return 0, fmt.Errorf("%w: no grid of equal squares stands out on the %dx%d sheet (a single piece, or not a sheet of pieces)", ErrAmbiguousGrid, w, h)
	}
	for _, s := range fits[1:] {
		if s%fits[0] != 0 {
			return 0, fmt.Errorf("%w: pieces of %d and of %d pixels both fit the %dx%d sheet", ErrAmbiguousGrid, fits[0], s, w, h)
		}
	}
	return fits[0], nil
}

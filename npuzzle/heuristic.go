package npuzzle

import "fmt"

// Heuristic names an estimate of the number of moves to the goal. All are
// admissible (never above the true distance), so the optimal solvers stay
// optimal with any of them.
type Heuristic uint8

const (
	// LinearConflict is Manhattan distance plus two moves for every tile
	// that must leave its goal row or column to let another pass (Hansson,
	// Mayer and Yung 1992), counted exactly per line as the tiles outside a
	// longest increasing subsequence. The default.
	LinearConflict Heuristic = iota
	// Manhattan is the sum over tiles of the row and column distances to
	// their goal cells.
	Manhattan
	// Misplaced counts the tiles not on their goal cell.
	Misplaced
	// PatternDB is an additive pattern database (the solver's PDB), the
	// strongest: see PDB.
	PatternDB
)

var heuristicNames = [...]string{LinearConflict: "linear", Manhattan: "manhattan", Misplaced: "misplaced", PatternDB: "pdb"}

// String returns "linear", "manhattan", "misplaced" or "pdb".
func (h Heuristic) String() string {
	if int(h) < len(heuristicNames) {
		return heuristicNames[h]
	}
	return fmt.Sprintf("Heuristic(%d)", h)
}

// ParseHeuristic parses a name written by String.
func ParseHeuristic(s string) (Heuristic, error) {
	for h, n := range heuristicNames {
		if s == n {
			return Heuristic(h), nil
		}
	}
	if s == "md" || s == "lc" {
		return map[string]Heuristic{"md": Manhattan, "lc": LinearConflict}[s], nil
	}
	return 0, fmt.Errorf("npuzzle: unknown heuristic %q (want linear, manhattan, misplaced or pdb)", s)
}

// goalTable holds, for one size and goal, each tile's goal row and column.
type goalTable struct {
	rows, cols int
	row, col   []int8 // indexed by tile
}

func newGoalTable(s Size, g Goal) *goalTable {
	n := s.Rows * s.Cols
	t := &goalTable{rows: s.Rows, cols: s.Cols, row: make([]int8, n), col: make([]int8, n)}
	for tile := range n {
		c := g.goalCell(tile, n)
		t.row[tile], t.col[tile] = int8(c/s.Cols), int8(c%s.Cols)
	}
	return t
}

// misplaced counts tiles off their goal cell; cells is row-major.
func (t *goalTable) misplaced(cells string) int {
	h := 0
	for c := 0; c < len(cells); c++ {
		if tile := cells[c]; tile != 0 && (int(t.row[tile]) != c/t.cols || int(t.col[tile]) != c%t.cols) {
			h++
		}
	}
	return h
}

// manhattan is the sum of the tiles' distances to their goal cells.
func (t *goalTable) manhattan(cells string) int {
	h := 0
	for c := 0; c < len(cells); c++ {
		if tile := cells[c]; tile != 0 {
			h += abs(int(t.row[tile])-c/t.cols) + abs(int(t.col[tile])-c%t.cols)
		}
	}
	return h
}

// linearConflict is Manhattan distance plus 2 per tile that must leave its
// goal line: in each row (and column), the tiles whose goal is in that line,
// minus a longest subsequence of them already in goal order.
func (t *goalTable) linearConflict(cells string) int {
	return t.manhattan(cells) +
		lineConflicts(cells, t.rows, t.cols, t.cols, 1, t.row, t.col) +
		lineConflicts(cells, t.cols, t.rows, 1, t.cols, t.col, t.row)
}

// lineConflicts returns the linear-conflict moves of the lines (rows or
// columns) of a board: line l's cells are l*stride + j*step for j below
// length, lineOf[tile] is the goal line of a tile and posOf[tile] its goal
// place along it.
func lineConflicts(cells string, lines, length, stride, step int, lineOf, posOf []int8) int {
	var line [MaxSide]int8
	h := 0
	for l := range lines {
		k := 0
		for j := range length {
			if tile := cells[l*stride+j*step]; tile != 0 && int(lineOf[tile]) == l {
				line[k] = posOf[tile]
				k++
			}
		}
		h += 2 * (k - lis(line[:k]))
	}
	return h
}

// lis returns the length of a longest strictly increasing subsequence of
// the distinct values xs (at most MaxSide of them), by patience sorting.
func lis(xs []int8) int {
	var tails [MaxSide]int8
	n := 0
	for _, x := range xs {
		i := 0
		for i < n && tails[i] < x {
			i++
		}
		tails[i] = x
		if i == n {
			n++
		}
	}
	return n
}

// estimate returns the function for heuristic h.
func (t *goalTable) estimate(h Heuristic) func(string) int {
	switch h {
	case Manhattan:
		return t.manhattan
	case Misplaced:
		return t.misplaced
	}
	return t.linearConflict
}

// Estimate returns heuristic h of board b for goal g. It panics for
// PatternDB, which needs its tables: use PDB.Estimate.
func Estimate(b *Board, g Goal, h Heuristic) int {
	if h == PatternDB {
		panic("npuzzle: Estimate with PatternDB: use PDB.Estimate")
	}
	return newGoalTable(b.Size(), g).estimate(h)(string(b.cells))
}

package catalog

import (
	"fmt"

	"tessera/npuzzle"
)

// A sliding game may have its gap anywhere: the web's game lets the first
// tile tapped on the whole picture become the gap. The tiles are numbered
// in reading order around the gap's home cell k: tile t's home is cell t-1
// when t-1 < k, else cell t, so the goal reads 1 2 ... n-1 with the blank
// at k (k = n-1 is the usual blank-last goal, k = 0 blank-first).
//
// The solvers know the blank-last goal only, so a board with another home
// is solved through an NpuzzleGoalMap: a mirror of the board (left-right,
// top-down or both) brings the home nearest the last cell, the tiles are
// renamed so that the mirrored goal with its blank walked to the last cell
// (right, then down) is the blank-last goal, the solver solves that board,
// and the answer is mapped back, followed by the walk undone. A home in a
// corner needs no walk, and the solver's shortest answers stay shortest;
// any other home adds the walk, and the answer is not proven shortest.

// NpuzzleGoalMap maps boards with the blank's home at cell k to blank-last
// boards.
type NpuzzleGoalMap struct {
	rows, cols, k int
	flipH, flipV  bool
	walk          []npuzzle.Move // from the mirrored home to the last cell
	rename        []int          // tile of the original numbering -> the solver's
}

// npuzzleHomeOf returns the home cell of tile t (1..n-1) when the blank's
// home is k, and k for the blank.
func npuzzleHomeOf(t, k int) int {
	switch {
	case t == 0:
		return k
	case t-1 < k:
		return t - 1
	}
	return t
}

// NpuzzleGoalBoard returns the goal with the blank at home k.
func NpuzzleGoalBoard(s npuzzle.Size, k int) *npuzzle.Board {
	n := s.Rows * s.Cols
	cells := make([]int, n)
	for t := 1; t < n; t++ {
		cells[npuzzleHomeOf(t, k)] = t
	}
	b, err := npuzzle.FromTiles(s, cells)
	if err != nil {
		panic(err) // a permutation by construction
	}
	return b
}

// NpuzzleIsGoal reports whether b is the goal with the blank at home k.
func NpuzzleIsGoal(b *npuzzle.Board, k int) bool { return b.Equal(NpuzzleGoalBoard(b.Size(), k)) }

// NewNpuzzleGoalMap returns the map of boards of size s whose blank's home
// is cell k (0 <= k < cells).
func NewNpuzzleGoalMap(s npuzzle.Size, k int) *NpuzzleGoalMap {
	g := &NpuzzleGoalMap{rows: s.Rows, cols: s.Cols, k: k}
	r, c := k/s.Cols, k%s.Cols
	g.flipH = c < s.Cols-1-c
	g.flipV = r < s.Rows-1-r
	mr, mc := g.cell(r, c)
	for ; mc < s.Cols-1; mc++ {
		g.walk = append(g.walk, npuzzle.Left) // the blank moves right
	}
	for ; mr < s.Rows-1; mr++ {
		g.walk = append(g.walk, npuzzle.Up) // the blank moves down
	}
	// The mirrored goal, walked: its tile at cell c gets the name c+1.
	n := s.Rows * s.Cols
	mirrored, _ := npuzzle.FromTiles(s, g.mirror(NpuzzleGoalBoard(s, k).Tiles()))
	walked, err := npuzzle.Replay(mirrored, g.walk)
	if err != nil {
		panic(err) // the walk stays on the board
	}
	g.rename = make([]int, n)
	for c, t := range walked.Tiles() {
		if t != 0 {
			g.rename[t] = c + 1
		}
	}
	return g
}

// cell returns where the mirror takes row r, column c.
func (g *NpuzzleGoalMap) cell(r, c int) (int, int) {
	if g.flipH {
		c = g.cols - 1 - c
	}
	if g.flipV {
		r = g.rows - 1 - r
	}
	return r, c
}

// mirror returns the cells of a board mirrored.
func (g *NpuzzleGoalMap) mirror(cells []int) []int {
	out := make([]int, len(cells))
	for i, t := range cells {
		r, c := g.cell(i/g.cols, i%g.cols)
		out[r*g.cols+c] = t
	}
	return out
}

// Identity reports whether the map changes nothing: the usual goal.
func (g *NpuzzleGoalMap) Identity() bool { return !g.flipH && !g.flipV && len(g.walk) == 0 }

// Walk is the number of moves the map's answers end with to walk the
// blank home (0 for a home in a corner).
func (g *NpuzzleGoalMap) Walk() int { return len(g.walk) }

// ToSolver returns b mirrored and renamed: the board the solver solves.
func (g *NpuzzleGoalMap) ToSolver(b *npuzzle.Board) *npuzzle.Board {
	cells := g.mirror(b.Tiles())
	for i, t := range cells {
		cells[i] = g.rename[t]
	}
	out, err := npuzzle.FromTiles(b.Size(), cells)
	if err != nil {
		panic(err)
	}
	return out
}

// FromSolver maps moves found on the solver's board back to the original
// board (the mirror swaps left and right, or up and down); with finish
// set it appends the walk undone, which ends on the original goal.
func (g *NpuzzleGoalMap) FromSolver(moves []npuzzle.Move, finish bool) []npuzzle.Move {
	out := make([]npuzzle.Move, 0, len(moves)+len(g.walk))
	out = append(out, moves...)
	if finish {
		for i := len(g.walk) - 1; i >= 0; i-- {
			out = append(out, g.walk[i].Inverse())
		}
	}
	for i, m := range out {
		switch {
		case g.flipH && (m == npuzzle.Left || m == npuzzle.Right):
			out[i] = m.Inverse()
		case g.flipV && (m == npuzzle.Up || m == npuzzle.Down):
			out[i] = m.Inverse()
		}
	}
	return out
}

// FromSolverBoard is ToSolver undone: the original board of a board in the
// solver's numbering.
func (g *NpuzzleGoalMap) FromSolverBoard(b *npuzzle.Board) *npuzzle.Board {
	back := make([]int, len(g.rename))
	for t, u := range g.rename {
		back[u] = t
	}
	cells := b.Tiles()
	for i, t := range cells {
		cells[i] = back[t]
	}
	out, err := npuzzle.FromTiles(b.Size(), g.mirror(cells))
	if err != nil {
		panic(err)
	}
	return out
}

// NpuzzleSolvableFor reports whether b reaches the goal with the blank at
// home k.
func NpuzzleSolvableFor(b *npuzzle.Board, k int) bool {
	return npuzzle.Solvable(NewNpuzzleGoalMap(b.Size(), k).ToSolver(b), npuzzle.BlankLast)
}

// NpuzzleGoalName is the goal a record names for the blank's home k on
// boards of size s: blank-last, blank-first or "blank at cell k".
func NpuzzleGoalName(s npuzzle.Size, k int) string {
	switch k {
	case 0:
		return npuzzle.BlankFirst.String()
	case s.Rows*s.Cols - 1:
		return npuzzle.BlankLast.String()
	}
	return fmt.Sprintf("blank at cell %d", k)
}

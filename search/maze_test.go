package search

import (
	"iter"
	"math/rand/v2"
	"strings"
)

// maze is a grid of open cells ('.') and walls ('#'), a test space whose
// distances are easy to compute independently.
type maze struct {
	rows, cols int
	wall       []bool
	goal       int
}

// newMaze parses rows of '.' and '#'.
func newMaze(rows ...string) *maze {
	m := &maze{rows: len(rows), cols: len(rows[0])}
	for _, r := range rows {
		for _, c := range r {
			m.wall = append(m.wall, c == '#')
		}
	}
	m.goal = len(m.wall) - 1
	return m
}

// randomMaze returns a rows x cols maze with a fraction p of walls, with the
// corners open.
func randomMaze(rng *rand.Rand, rows, cols int, p float64) *maze {
	var lines []string
	for range rows {
		var b strings.Builder
		for range cols {
			if rng.Float64() < p {
				b.WriteByte('#')
			} else {
				b.WriteByte('.')
			}
		}
		lines = append(lines, b.String())
	}
	m := newMaze(lines...)
	m.wall[0], m.wall[m.goal] = false, false
	return m
}

func (m *maze) Key(s int) int     { return s }
func (m *maze) IsGoal(s int) bool { return s == m.goal }
func (m *maze) manhattan(s int) int {
	r, c := s/m.cols, s%m.cols
	gr, gc := m.goal/m.cols, m.goal%m.cols
	return abs(r-gr) + abs(c-gc)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Successors yields the open neighbours, named by direction.
func (m *maze) Successors(s int) iter.Seq2[byte, int] {
	return func(yield func(byte, int) bool) {
		r, c := s/m.cols, s%m.cols
		if r > 0 && !m.wall[s-m.cols] && !yield('U', s-m.cols) {
			return
		}
		if c > 0 && !m.wall[s-1] && !yield('L', s-1) {
			return
		}
		if c < m.cols-1 && !m.wall[s+1] && !yield('R', s+1) {
			return
		}
		if r < m.rows-1 && !m.wall[s+m.cols] && !yield('D', s+m.cols) {
			return
		}
	}
}

// Predecessors yields (m, p) with p --m--> s: the reverse of each neighbour.
func (m *maze) Predecessors(s int) iter.Seq2[byte, int] {
	return func(yield func(byte, int) bool) {
		rev := map[byte]byte{'U': 'D', 'D': 'U', 'L': 'R', 'R': 'L'}
		for mv, t := range m.Successors(s) {
			if !yield(rev[mv], t) {
				return
			}
		}
	}
}

// follow applies moves from s and reports the cell reached, or -1 if a move
// is illegal.
func (m *maze) follow(s int, moves []byte) int {
	for _, mv := range moves {
		next := -1
		for mm, t := range m.Successors(s) {
			if mm == mv {
				next = t
			}
		}
		if next < 0 {
			return -1
		}
		s = next
	}
	return s
}

// distances computes shortest distances from the goal with a plain queue,
// independently of the package (-1 for unreachable cells).
func (m *maze) distances() []int {
	d := make([]int, len(m.wall))
	for i := range d {
		d[i] = -1
	}
	d[m.goal] = 0
	q := []int{m.goal}
	for len(q) > 0 {
		s := q[0]
		q = q[1:]
		for _, t := range m.Successors(s) {
			if d[t] < 0 {
				d[t] = d[s] + 1
				q = append(q, t)
			}
		}
	}
	return d
}

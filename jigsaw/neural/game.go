package neural

// State is a position of the reassembly game: the patches are placed one
// by one in a fixed order, each in an empty cell, until every cell is
// full. States are small values; Clone copies one.
type State struct {
	// Order is the patch placed at each turn (a permutation of the
	// patches), shared between clones and never changed.
	Order []int
	// CellOf[i] is the cell of patch i, -1 while it is not placed.
	CellOf []int8
	// At[c] is the patch in cell c, -1 while it is empty.
	At []int8
	// Placed is the number of patches placed: Order[Placed] is the next.
	Placed int
}

// NewState returns the empty reassembly of n cells with the placing order
// order (a permutation of 0..n-1, n <= 127).
func NewState(order []int) *State {
	n := len(order)
	s := &State{Order: order, CellOf: make([]int8, n), At: make([]int8, n)}
	for i := range n {
		s.CellOf[i], s.At[i] = -1, -1
	}
	return s
}

// Done reports whether every patch is placed.
func (s *State) Done() bool { return s.Placed == len(s.Order) }

// Next is the patch to place now; it panics when Done.
func (s *State) Next() int { return s.Order[s.Placed] }

// Legal appends the legal actions, the empty cells, to dst in increasing
// order (none when Done).
func (s *State) Legal(dst []int) []int {
	if s.Done() {
		return dst
	}
	for c, p := range s.At {
		if p < 0 {
			dst = append(dst, c)
		}
	}
	return dst
}

// Play puts the next patch in the empty cell c. It panics if c is not
// empty or the game is over (programmer error).
func (s *State) Play(c int) {
	if s.At[c] >= 0 {
		panic("neural: cell is not empty")
	}
	p := s.Order[s.Placed]
	s.At[c], s.CellOf[p] = int8(p), int8(c)
	s.Placed++
}

// Clone returns an independent copy (the order is shared).
func (s *State) Clone() *State {
	return &State{Order: s.Order, CellOf: append([]int8(nil), s.CellOf...), At: append([]int8(nil), s.At...), Placed: s.Placed}
}

// CopyFrom makes s a copy of src without allocating (same number of
// cells).
func (s *State) CopyFrom(src *State) {
	s.Order = src.Order
	copy(s.CellOf, src.CellOf)
	copy(s.At, src.At)
	s.Placed = src.Placed
}

// Cells returns the cell of every patch (-1 for unplaced ones), as
// Puzzle.Score and Puzzle.Render take them.
func (s *State) Cells() []int {
	out := make([]int, len(s.CellOf))
	for i, c := range s.CellOf {
		out[i] = int(c)
	}
	return out
}

// Correct reports whether every placed patch is in its true cell
// (truth[i] the true cell of patch i).
func (s *State) Correct(truth []int) bool {
	for _, p := range s.Order[:s.Placed] {
		if int(s.CellOf[p]) != truth[p] {
			return false
		}
	}
	return true
}

// Reward is the ground-truth reward of a complete reassembly: 1 when
// every patch is in its true cell, else 0.
func (s *State) Reward(truth []int) float64 {
	if s.Done() && s.Correct(truth) {
		return 1
	}
	return 0
}

// ValueTarget is what V learns for a state (Correct against truth): 0
// when a patch is misplaced; 1 for a complete correct reassembly; for a
// correct partial one with k patches left, 1 with ValueCorrect (the
// reassembly can still be completed correctly, the default) or 1/k! with
// ValueRandom (the probability that a uniformly random completion is
// correct, the source's definition).
type ValueTarget uint8

const (
	// ValueCorrect: a correct partial reassembly is worth 1.
	ValueCorrect ValueTarget = iota
	// ValueRandom: a correct partial reassembly with k patches left is
	// worth 1/k!.
	ValueRandom
)

// Target returns the value V is trained to predict for s.
func (t ValueTarget) Target(s *State, truth []int) float64 {
	if !s.Correct(truth) {
		return 0
	}
	if t == ValueCorrect {
		return 1
	}
	v := 1.0
	for k := 2; k <= len(s.Order)-s.Placed; k++ {
		v /= float64(k)
	}
	return v
}

package neural

// State is a position of the reassembly game: the patches are placed one
// by one in a fixed order, each in an empty cell, until every cell is
// full. In the unordered game (Free) a move chooses the patch too. States
// are small values; Clone copies one.
type State struct {
	// Order is the patch placed at each turn (a permutation of the
	// patches), shared between clones and never changed. In the unordered
	// game Order[:Placed] are the patches placed, in the order they were,
	// and Order[Placed:] the others; each state then owns its Order.
	Order []int
	// CellOf[i] is the cell of patch i, -1 while it is not placed.
	CellOf []int8
	// At[c] is the patch in cell c, -1 while it is empty.
	At []int8
	// Placed is the number of patches placed: Order[Placed] is the next.
	Placed int
	// Free marks the unordered game: PlayPatch places any patch not
	// placed yet (Moves lists them with the empty cells).
	Free bool
	// Fragments marks the game of m patches for n cells
	// (NewFragmentState): a patch may also be set aside (the move
	// AsideMove(), CellOf SetAside), cells may stay empty, and the game
	// ends when every patch is placed or set aside.
	Fragments bool
}

// SetAside is the CellOf of a patch set aside (a stray, in the game of
// fragments).
const SetAside = -2

// NewFragmentState returns the empty reassembly of cells cells for the
// patches of order (a permutation of 0..m-1, any m <= 127, cells <= 127)
// in the game of fragments: each patch in turn goes to an empty cell or
// is set aside.
func NewFragmentState(order []int, cells int) *State {
	s := &State{Order: order, CellOf: make([]int8, len(order)), At: make([]int8, cells), Fragments: true}
	for i := range s.CellOf {
		s.CellOf[i] = -1
	}
	for i := range s.At {
		s.At[i] = -1
	}
	return s
}

// AsideMove is the move that sets the next patch aside in the game of
// fragments: the number of cells.
func (s *State) AsideMove() int { return len(s.At) }

// Aside is the number of patches set aside.
func (s *State) Aside() int {
	k := 0
	for _, c := range s.CellOf {
		if c == SetAside {
			k++
		}
	}
	return k
}

// NewFreeState returns the empty reassembly of n cells of the unordered
// game: any patch may be placed next; order only ranks the moves.
func NewFreeState(order []int) *State {
	s := NewState(append([]int(nil), order...))
	s.Free = true
	return s
}

// Moves appends the legal moves to dst: in the ordered game the empty
// cells (as Legal); in the unordered game p*n+c for every patch p not
// placed (in the order of Order[Placed:]) and every empty cell c, in
// increasing order.
func (s *State) Moves(dst []int) []int {
	if !s.Free {
		return s.Legal(dst)
	}
	n := len(s.Order)
	for _, p := range s.Order[s.Placed:] {
		for c, q := range s.At {
			if q < 0 {
				dst = append(dst, p*n+c)
			}
		}
	}
	return dst
}

// PlayMove makes a move of Moves: Play(m) in the ordered game,
// PlayPatch(m/n, m%n) in the unordered one.
func (s *State) PlayMove(m int) {
	if !s.Free {
		s.Play(m)
		return
	}
	n := len(s.Order)
	s.PlayPatch(m/n, m%n)
}

// PlayPatch puts patch p (not placed yet) in the empty cell c: it becomes
// the next patch of the order, then is played. It panics if p is placed
// or c is not empty; the state must own its Order (Free states do).
func (s *State) PlayPatch(p, c int) {
	if s.CellOf[p] >= 0 {
		panic("neural: patch already placed")
	}
	for i := s.Placed; i < len(s.Order); i++ {
		if s.Order[i] == p {
			s.Order[i], s.Order[s.Placed] = s.Order[s.Placed], s.Order[i]
			break
		}
	}
	s.Play(c)
}

// WithNext returns a copy of s (an ordered state with its own Order)
// whose next patch is p, not placed yet: the state P is asked about when
// the unordered game considers placing p.
func (s *State) WithNext(p int) *State {
	t := &State{Order: append([]int(nil), s.Order...), CellOf: append([]int8(nil), s.CellOf...), At: append([]int8(nil), s.At...), Placed: s.Placed}
	for i := t.Placed; i < len(t.Order); i++ {
		if t.Order[i] == p {
			t.Order[i], t.Order[t.Placed] = t.Order[t.Placed], t.Order[i]
			break
		}
	}
	return t
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
// order (none when Done); in the game of fragments then AsideMove.
func (s *State) Legal(dst []int) []int {
	if s.Done() {
		return dst
	}
	for c, p := range s.At {
		if p < 0 {
			dst = append(dst, c)
		}
	}
	if s.Fragments {
		dst = append(dst, s.AsideMove())
	}
	return dst
}

// Play puts the next patch in the empty cell c (sets it aside when c is
// AsideMove in the game of fragments). It panics if c is not empty or
// the game is over (programmer error).
func (s *State) Play(c int) {
	p := s.Order[s.Placed]
	if s.Fragments && c == len(s.At) {
		s.CellOf[p] = SetAside
		s.Placed++
		return
	}
	if s.At[c] >= 0 {
		panic("neural: cell is not empty")
	}
	s.At[c], s.CellOf[p] = int8(p), int8(c)
	s.Placed++
}

// Clone returns an independent copy (the order is shared, but for the
// unordered game's states, which own theirs).
func (s *State) Clone() *State {
	order := s.Order
	if s.Free {
		order = append([]int(nil), s.Order...)
	}
	return &State{Order: order, CellOf: append([]int8(nil), s.CellOf...), At: append([]int8(nil), s.At...), Placed: s.Placed, Free: s.Free, Fragments: s.Fragments}
}

// CopyFrom makes s a copy of src without allocating (same number of
// cells; an unordered state keeps its own Order).
func (s *State) CopyFrom(src *State) {
	if src.Free {
		if !s.Free || len(s.Order) != len(src.Order) {
			s.Order = make([]int, len(src.Order))
		}
		copy(s.Order, src.Order)
	} else {
		s.Order = src.Order
	}
	s.Free, s.Fragments = src.Free, src.Fragments
	copy(s.CellOf, src.CellOf)
	copy(s.At, src.At)
	s.Placed = src.Placed
}

// Cells returns the cell of every patch (-1 for unplaced ones and those
// set aside), as Puzzle.Score and Puzzle.Render take them.
func (s *State) Cells() []int {
	out := make([]int, len(s.CellOf))
	for i, c := range s.CellOf {
		out[i] = max(int(c), -1)
	}
	return out
}

// Correct reports whether every placed patch is in its true cell
// (truth[i] the true cell of patch i; -1 for a foreign patch, which is
// right when set aside).
func (s *State) Correct(truth []int) bool {
	for _, p := range s.Order[:s.Placed] {
		if max(int(s.CellOf[p]), -1) != truth[p] {
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

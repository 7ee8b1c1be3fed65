package neural

import (
	"fmt"
	"math/rand/v2"
)

// Misplaced is the number of pz's own patches (Truth >= 0) not in their
// true cell in the reassembly cells (cells[i] the cell of patch i, -1 set
// aside or not placed), plus the foreign patches (Truth -1) placed in a
// cell: how far a wrong answer is from the truth, as Alphazzle reads its
// errors ("two or four patches swapped"). It panics if pz has no truth.
func (pz *Puzzle) Misplaced(cells []int) int {
	k := 0
	for i, c := range cells {
		if pz.Truth[i] >= 0 && c != pz.Truth[i] || pz.Truth[i] < 0 && c >= 0 {
			k++
		}
	}
	return k
}

// ErrorStats is the error distribution of a bench: how many patches the
// wrong answers misplace, and how V judges complete reassemblies by the
// number of patches they misplace (Alphazzle: V finds one inversion, two
// patches swapped, hard to see, and more errors easy). Add a puzzle's
// answer with Answer and V's verdicts with Judge.
type ErrorStats struct {
	// Wrong[k] is the number of wrong answers with k patches misplaced
	// (Puzzle.Misplaced); Flagged[k] how many of them V valued below 1/2
	// (it knew the answer was wrong).
	Wrong, Flagged []int
	// VRight[k] of VSeen[k] complete reassemblies with exactly k patches
	// misplaced V judged right at 1/2 (above it for k = 0, the truth;
	// below it otherwise; k = 1 cannot happen in a complete one).
	VRight, VSeen []int
}

// grow makes room for index k in every slice.
func (e *ErrorStats) grow(k int) {
	for _, s := range []*[]int{&e.Wrong, &e.Flagged, &e.VRight, &e.VSeen} {
		for len(*s) <= k {
			*s = append(*s, 0)
		}
	}
}

// Answer adds a solver's answer cells, valued value by V, of pz (its
// truth known) when it is wrong.
func (e *ErrorStats) Answer(pz *Puzzle, cells []int, value float64) {
	k := pz.Misplaced(cells)
	if k == 0 {
		return
	}
	e.grow(k)
	e.Wrong[k]++
	if value < 0.5 {
		e.Flagged[k]++
	}
}

// Judge values with the model's V, for the complete puzzle pz (its truth
// known, every cell filled by its own patch), the true reassembly and one
// reassembly with exactly k patches misplaced for every k from 2 to the
// number of patches (k patches drawn from rng, their cells permuted with
// no patch left in its own), and counts V's right verdicts.
func (e *ErrorStats) Judge(m *Model, pz *Puzzle, rng *rand.Rand) error {
	n := pz.Cells()
	if len(pz.Patches) != n || pz.Truth == nil {
		return fmt.Errorf("neural: V is judged on complete puzzles with their truth")
	}
	h, ok := m.Heads[pz.Grid]
	if !ok {
		return fmt.Errorf("neural: no heads for %dx%d", pz.Grid, pz.Grid)
	}
	t, err := m.Table(pz)
	if err != nil {
		return err
	}
	var states []*State
	for k := 0; k <= n; k++ {
		if k == 1 {
			continue
		}
		states = append(states, completeState(pz, deranged(pz.Truth, k, rng)))
	}
	vals, err := h.Values(t, states, pz.Grid)
	if err != nil {
		return err
	}
	e.grow(n)
	for _, s := range states {
		k := pz.Misplaced(s.Cells())
		e.VSeen[k]++
		if (k == 0) == (vals[0] >= 0.5) {
			e.VRight[k]++
		}
		vals = vals[1:]
	}
	return nil
}

// deranged returns a copy of truth with k of its entries (drawn from rng)
// permuted so that none keeps its value (k = 0: the truth; k >= 2).
func deranged(truth []int, k int, rng *rand.Rand) []int {
	cells := append([]int(nil), truth...)
	if k < 2 {
		return cells
	}
	pick := rng.Perm(len(truth))[:k]
	for {
		perm := rng.Perm(k)
		ok := true
		for i, j := range perm {
			if i == j {
				ok = false
				break
			}
		}
		if ok {
			for i, j := range perm {
				cells[pick[i]] = truth[pick[j]]
			}
			return cells
		}
	}
}

// completeState returns the state of the complete reassembly cells
// (cells[i] the cell of patch i, every cell used once).
func completeState(pz *Puzzle, cells []int) *State {
	order := make([]int, len(cells))
	for i := range order {
		order[i] = i
	}
	s := NewState(order)
	for _, p := range order {
		s.At[cells[p]], s.CellOf[p] = int8(p), int8(cells[p])
	}
	s.Placed = len(order)
	return s
}

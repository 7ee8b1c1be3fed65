package samegame

import "math/bits"

// The half bound of the exact Dust solver. Under Dust rules no cell ever
// crosses the centre: gravity moves cells down their column and packing
// moves a cell of the left half right only up to column w/2-1, a cell of
// the right half left only down to column w/2. How the cells of a half
// move depends on that half alone. So the clicks that meet the left half
// play, on the left half alone, a game of their own (the relaxed half
// game): a click's cells in the half are one group of the half, or several
// groups of one colour that each touch the centre column (they join
// through the other half, and only cells of the centre column have
// neighbours there). Every solution of the board gives one of each half's
// relaxed game with no more clicks, so the optimum of either half's
// relaxed game is a lower bound on the board's clicks. It is cheap: a
// half of an 8x6 board has 24 cells, its relaxed optimum takes a small
// search (tens to hundreds of boards, TestHalfBound), and the halves
// recur across the main search (a click that stays in one half leaves the
// other as it was), so a table keeps their optima. On the issue 43 set it
// is 6 to 8 at the root (the colours' bound: 5 or 6), and 1 to 3 above
// the colours' bound at the boards that the last iteration of the main
// search expands most (measured on board 1; docs/results/samegame.md).

// halfSearch computes the relaxed optima of the halves of boards.
type halfSearch struct {
	geom   *bitGeom
	left   uint64    // the cells of the left half
	centre [2]uint64 // the centre column of the left half, of the right half
	exact  *table    // a half's hash to its relaxed optimum
	lbs    *table    // a half's hash to a lower bound on it (the search's table)
	groups [][]bitGroup
	nodes  int64
}

// newHalfSearch returns the half bound's search for boards of geom, or
// nil where it does not apply: fewer than 2 columns, or more than 8 rows
// (where a colour may have many groups on the centre column, and the
// unions to try grow as 2 to their number).
func newHalfSearch(geom *bitGeom) *halfSearch {
	if geom.rules != Dust || geom.w < 2 || geom.h > 8 {
		return nil
	}
	mid := geom.w / 2
	hs := &halfSearch{geom: geom, exact: newTable(20), lbs: newTable(20),
		centre: [2]uint64{geom.cols[mid-1], geom.cols[mid]}, groups: make([][]bitGroup, geom.w*geom.h+2)}
	for x := range mid {
		hs.left |= geom.cols[x]
	}
	return hs
}

// optima returns the relaxed optima of s's halves (left, right), each a
// lower bound on the clicks that clear s. A half that click (the cells
// removed from the parent, whose halves' optima are parent) does not meet
// is the parent's half, as it was: its optimum is the parent's.
func (hs *halfSearch) optima(s *bitBoard, click uint64, parent [2]int8) [2]int8 {
	v := parent
	var h bitBoard
	for side, m := range [2]uint64{hs.left, hs.geom.all &^ hs.left} {
		if click&m == 0 {
			continue
		}
		for c := range hs.geom.colors {
			h.planes[c] = s.planes[c] & m
		}
		h.occ = s.occ & m
		v[side] = int8(hs.optimum(&h, side))
	}
	return v
}

// optimum returns the relaxed optimum of half h (side 0: left, 1: right).
func (hs *halfSearch) optimum(h *bitBoard, side int) int {
	if h.occ == 0 {
		return 0
	}
	key := hs.geom.hash(h)
	if v := hs.exact.get(key); v > 0 {
		return v
	}
	b := max(hs.lb(h, side), hs.lbs.get(key))
	for !hs.solve(h, side, b, 0) {
		b++
	}
	hs.exact.put(key, b)
	return b
}

// lb is the relaxed game's colour bound: the colours of h, plus one when
// no colour can go in one relaxed click (one group, or groups that all
// touch the centre column).
func (hs *halfSearch) lb(h *bitBoard, side int) int {
	g := hs.geom
	k, one := 0, false
	for c := range g.colors {
		p := h.planes[c]
		if p == 0 {
			continue
		}
		k++
		if one {
			continue
		}
		one = true
		for m := p; m != 0 && one; {
			grp := g.group(m&-m, m)
			m &^= grp
			one = grp == p || grp&hs.centre[side] != 0
		}
	}
	if !one {
		k++
	}
	return k
}

// solve reports whether half h can be cleared in at most budget relaxed
// clicks (depth: for the scratch slices). A failure is kept in lbs.
func (hs *halfSearch) solve(h *bitBoard, side, budget, depth int) bool {
	if h.occ == 0 {
		return true
	}
	if hs.lb(h, side) > budget {
		return false
	}
	g := hs.geom
	key := g.hash(h)
	if hs.lbs.get(key) > budget {
		return false
	}
	hs.nodes++
	groups := g.groups(h, hs.groups[depth][:0], 1)
	hs.groups[depth] = groups
	for _, grp := range groups {
		child := *h
		g.play(&child, grp.mask, int(grp.color))
		if hs.solve(&child, side, budget-1, depth+1) {
			return true
		}
	}
	// The unions of two or more groups of a colour on the centre column.
	span := g.spans(groups)
	for c := range g.colors {
		var on [4]uint64 // at most 4 groups of a colour meet a column of 8 cells
		n := 0
		for _, grp := range groups[span[c]:span[c+1]] {
			if grp.mask&hs.centre[side] != 0 {
				on[n] = grp.mask
				n++
			}
		}
		for sub := uint(3); sub < 1<<n; sub++ {
			if bits.OnesCount(sub) < 2 {
				continue
			}
			m := uint64(0)
			for j := range n {
				if sub>>j&1 != 0 {
					m |= on[j]
				}
			}
			child := *h
			g.play(&child, m, c)
			if hs.solve(&child, side, budget-1, depth+1) {
				return true
			}
		}
	}
	hs.lbs.put(key, budget+1)
	return false
}

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
// neighbours there).
//
// The game counts half clicks: two for a move that does not touch the
// centre column, one for a move that does. A click of the board that
// meets both halves touches both centre columns, so it costs one half
// click in each half's game; a click that meets one half costs at most two
// there and nothing in the other. So a solution of T clicks gives the two
// halves' games solutions of L and R half clicks with L + R <= 2T, and
// the board needs at least (L* + R*) / 2 clicks, rounded up, where L* and
// R* are the games' optima. (The plain count, one a move, gives the
// larger of the two optima as a bound: weaker on the issue 43 set, and
// measured slower.)
//
// A half of an 8x6 board has 24 cells: its optimum takes a small search
// (tens to a few thousand boards at the roots of the issue 43 set), and
// the halves recur across the main search (a click that stays in one half
// leaves the other as it was), so a table keeps their optima. On the
// issue 43 set the bound is 7 to 9 at the root (the colours' bound: 5 or 6),
// and 8 on three boards sampled from the last iteration of board 1's
// proof, where the colours' bound was 6 (their optima: 9 to 11). It cuts
// the main search's boards by a hundred; the half searches are then most
// of the work (95% of the boards on board 5).

// halfSearch computes the relaxed optima of the halves of boards.
type halfSearch struct {
	geom   *bitGeom
	left   uint64    // the cells of the left half
	centre [2]uint64 // the centre column of the left half, of the right half
	exact  *table    // a half's hash to its relaxed optimum
	lbs    *table    // a half's hash to a lower bound on it (the search's table)
	groups [][]bitGroup
	boards []bitBoard // per depth: the children (not on the stack: solve recurses)
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
	hs := &halfSearch{geom: geom, exact: newTable(22), lbs: newTable(22),
		centre: [2]uint64{geom.cols[mid-1], geom.cols[mid]}, groups: make([][]bitGroup, geom.w*geom.h+2), boards: make([]bitBoard, geom.w*geom.h+2)}
	for x := range mid {
		hs.left |= geom.cols[x]
	}
	return hs
}

// optima returns the optima of the halves of s (left, right) in their
// relaxed games, in half clicks. A half that click (the cells removed
// from the parent, whose halves' optima are parent) does not meet is the
// parent's half, as it was: its optimum is the parent's.
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

// bound returns the half bound of a board whose halves' optima are v: a
// lower bound on its clicks.
func (hs *halfSearch) bound(v [2]int8) int {
	return (int(v[0]) + int(v[1]) + 1) / 2
}

// optimum returns the optimum of half h (side 0: left, 1: right) in its
// relaxed game, in half clicks (at most 63: the table's limit, still a
// lower bound).
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

// lb is the relaxed game's colour bound: the colours of h (a move, one
// half click at least, removes cells of one colour), plus one when no
// colour can go in one move (one group, or groups that all touch the
// centre column).
func (hs *halfSearch) lb(h *bitBoard, side int) int {
	groups := hs.geom.groups(h, hs.groups[0][:0], 1)
	hs.groups[0] = groups
	span := hs.geom.spans(groups)
	return hs.lbGroups(groups, &span, side)
}

// lbGroups is lb from the groups of h, colour by colour (span).
func (hs *halfSearch) lbGroups(groups []bitGroup, span *[MaxColors + 1]int, side int) int {
	k, one := 0, false
	for c := range hs.geom.colors {
		n := span[c+1] - span[c]
		if n == 0 {
			continue
		}
		k++
		if one {
			continue
		}
		one = true
		for _, grp := range groups[span[c]:span[c+1]] {
			one = one && (n == 1 || grp.mask&hs.centre[side] != 0)
		}
	}
	if !one {
		k++
	}
	return k
}

// cost returns the half clicks of the move that removes m.
func (hs *halfSearch) cost(m uint64, side int) int {
	if m&hs.centre[side] == 0 {
		return 2
	}
	return 1
}

// solve reports whether half h can be cleared in at most budget half
// clicks (depth: for the scratch slices). A failure is kept in lbs.
func (hs *halfSearch) solve(h *bitBoard, side, budget, depth int) bool {
	if h.occ == 0 || budget < 0 {
		return h.occ == 0 && budget >= 0
	}
	g := hs.geom
	if g.colorsLeft(h) > budget {
		return false
	}
	key := g.hash(h)
	if hs.lbs.get(key) > budget {
		return false
	}
	groups := g.groups(h, hs.groups[depth][:0], 1)
	hs.groups[depth] = groups
	span := g.spans(groups)
	if hs.lbGroups(groups, &span, side) > budget {
		return false
	}
	hs.nodes++
	child := &hs.boards[depth+1]
	// The unions of two or more groups of a colour on the centre column
	// first, then the groups on it (the moves of one half click), then the
	// others: a solution, when there is one, comes sooner.
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
			*child = *h
			g.play(child, m, c)
			if hs.solve(child, side, budget-1, depth+1) {
				return true
			}
		}
	}
	for pass := range 2 {
		for _, grp := range groups {
			if (grp.mask&hs.centre[side] != 0) != (pass == 0) {
				continue
			}
			*child = *h
			g.play(child, grp.mask, int(grp.color))
			if hs.solve(child, side, budget-hs.cost(grp.mask, side), depth+1) {
				return true
			}
		}
	}
	hs.lbs.put(key, budget+1)
	return false
}

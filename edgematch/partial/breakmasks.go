package partial

import "slices"

// Candidate masks for the break search, as masks.go has them for the
// exact backtracker: on the steps whose table is masked, the candidates
// matching both key sides are taken by trailing-zero counts from avail (a
// word per list: the free pieces) and hmask (per list and number m of
// heuristic sides still missing: the candidates with at least m such
// sides); the candidates that cost a break are read one by one. A table
// is masked when many steps use it, its lists match at most 64 pieces,
// and every piece then has at most four entries in the masked tables (an
// interior piece's four rotations in Eternity II's inner table). The
// order of the candidates, and so the search, is that of the plain loop.

// maskStepsMin is the number of steps that must share a table for it to
// be masked: flipping a piece's entries on every placement pays only on
// tables that many steps read.
const maskStepsMin = 8

// chooseMasked picks the masked tables and marks their steps.
func (bp *breakPlan) chooseMasked() {
	k2 := int32(bp.c.K * bp.c.K)
	uses := map[int32]int{}
	for _, t := range bp.tab {
		uses[t]++
	}
	var tabs []int32
	for t0, u := range uses {
		if u < maskStepsMin {
			continue
		}
		ok := true
		for t := t0; t < t0+k2; t++ {
			ok = ok && bp.mid[t]-bp.lo[t] <= 64
		}
		if ok {
			tabs = append(tabs, t0)
		}
	}
	// The most used first; ties by table.
	slices.SortFunc(tabs, func(a, b int32) int {
		if uses[a] != uses[b] {
			return uses[b] - uses[a]
		}
		return int(a - b)
	})
	count := make([]int, len(bp.c.P.Tiles))
	masked := map[int32]bool{}
	for _, t0 := range tabs {
		add := make([]int, len(count))
		fits := true
		for t := t0; t < t0+k2 && fits; t++ {
			for j := bp.lo[t]; j < bp.mid[t]; j++ {
				p := bp.cand[j].piece
				add[p]++
				fits = fits && count[p]+add[p] <= 4
			}
		}
		if !fits {
			continue
		}
		for p, a := range add {
			count[p] += a
		}
		masked[t0] = true
		bp.maskedTabs = append(bp.maskedTabs, t0)
	}
	for i := range bp.steps {
		bp.steps[i].masked = masked[bp.steps[i].tab]
	}
}

// buildMasks sets the worker's toggles and heuristic masks for the
// candidate order of the restart (after shuffle).
func (w *breakWorker) buildMasks() {
	bp := w.bp
	nl := len(bp.lists)
	if w.avail == nil {
		w.avail = make([]uint64, nl+1) // the last word is spare
		w.hmask = make([]uint64, nl*8)
		w.tog4 = make([][4]uint32, len(bp.c.P.Tiles))
	}
	spare := uint32(nl) << 6
	for p := range w.tog4 {
		w.tog4[p] = [4]uint32{spare, spare, spare, spare}
	}
	fill := make([]int, len(w.tog4))
	k2 := int32(bp.c.K * bp.c.K)
	for _, t0 := range bp.maskedTabs {
		for t := t0; t < t0+k2; t++ {
			lo, mid := bp.lists[t].lo, bp.lists[t].mid
			var hm [6]uint64
			for j := lo; j < mid; j++ {
				e := w.cand[j]
				bit := uint64(1) << (j - lo)
				for m := range min(int(e.h), 4) + 1 {
					hm[m] |= bit
				}
				w.tog4[e.piece][fill[e.piece]] = uint32(t)<<6 | uint32(j-lo)
				fill[e.piece]++
			}
			copy(w.hmask[t<<3:], hm[:])
		}
	}
}

// fillAvail sets avail to the free pieces' entries of the masked tables.
func (w *breakWorker) fillAvail() {
	bp := w.bp
	clear(w.avail)
	k2 := int32(bp.c.K * bp.c.K)
	for _, t0 := range bp.maskedTabs {
		for t := t0; t < t0+k2; t++ {
			lo, mid := bp.lists[t].lo, bp.lists[t].mid
			for j := lo; j < mid; j++ {
				if p := w.cand[j].piece; w.used[p>>6]&(1<<(p&63)) == 0 {
					w.avail[t] |= 1 << (j - lo)
				}
			}
		}
	}
}

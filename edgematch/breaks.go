package edgematch

import (
	"context"
	"encoding/binary"
)

// breakSchedule returns the cumulative number of mismatched edges ("breaks")
// allowed once steps 0..i are filled, for n steps: none before step start,
// then one more every gap steps (Blackwood's solver allows its breaks at
// fixed fill positions in the same way).
func breakSchedule(n, start, gap int) []int {
	b := make([]int, n)
	for i := range b {
		if i >= start {
			b[i] = (i-start)/gap + 1
		}
	}
	return b
}

// breakDFS completes the error-free placement prefix (the first steps of
// the row-scan order of c, which must be compiled with OrderRows) by a
// backtracker that tolerates mismatched edges within the break schedule:
// at each cell it tries the pieces that match both known sides, then (when
// the schedule allows) those that match the left or the top side only,
// then any piece that fits. Once a complete board is found, only boards
// with fewer breaks are sought. It returns the placements of the best
// complete board (nil if none) and its breaks, after at most about
// maxNodes placements.
func breakDFS(ctx context.Context, c *compiled, prefix []uint16, budget []int, maxNodes int64) ([]uint16, int, int64) {
	n := c.n
	w := newDFSWorker(c)
	w.reset(prefix)
	col, used, placed := w.col, w.used, w.placed
	base := len(prefix)
	if base == n {
		return append([]uint16(nil), prefix...), 0, 0
	}
	cost := make([]int, n+1) // breaks after the first i steps
	tier := make([]int, n)
	pos := make([]int32, n)
	end := make([]int32, n)
	// The four tables of each step: both sides, left only, top only, none.
	var tabs [][4]int32
	for i := range n {
		cell := int(c.stepCell[i])
		mask := outwardMask(c.rows, c.cols, cell/c.cols, cell%c.cols)
		tabs = append(tabs, [4]int32{
			c.table(tabKey{mask, West, North}), c.table(tabKey{mask, West, -1}),
			c.table(tabKey{mask, North, -1}), c.table(tabKey{mask, -1, -1})})
	}
	var best []uint16
	bestBreaks := budget[n-1] + 1
	var nodes int64
	// rangeOf returns the candidates of tier t at step i.
	rangeOf := func(i, t int) (int32, int32) {
		w, nn := int(col[c.srcA[i]]), int(col[c.srcB[i]])
		var idx int
		switch t {
		case 0:
			idx = int(tabs[i][0]) + c.key(w, nn)
		case 1:
			idx = int(tabs[i][1]) + c.key(w, 0)
		case 2:
			idx = int(tabs[i][2]) + c.key(nn, 0)
		default:
			idx = int(tabs[i][3])
		}
		return c.start[idx], c.start[idx+1]
	}
	i := base
	tier[i] = 0
	pos[i], end[i] = rangeOf(i, 0)
	for {
		allowed := min(budget[i], bestBreaks-1) - cost[i]
		if pos[i] >= end[i] {
			// Next tier: one break for the one-sided tables, two for any piece.
			if t := tier[i] + 1; t <= 3 && (t < 3 && allowed >= 1 || allowed >= 2) {
				tier[i] = t
				pos[i], end[i] = rangeOf(i, t)
				continue
			}
			if i == base {
				break
			}
			i--
			p := c.oriPiece[placed[i]]
			used[p>>6] &^= 1 << (p & 63)
			continue
		}
		e := c.cand[pos[i]]
		pos[i]++
		p := e.piece
		if used[p>>6]&(1<<(p&63)) != 0 {
			continue
		}
		w, nn := col[c.srcA[i]], col[c.srcB[i]]
		ew, en := byte(e.packed>>(8*West)), byte(e.packed>>(8*North))
		// Each candidate is tried in one tier only.
		switch tier[i] {
		case 1:
			if en == nn {
				continue
			}
		case 2:
			if ew == w {
				continue
			}
		case 3:
			if ew == w || en == nn {
				continue
			}
		}
		// The tables keep grey on the outward sides only, so a side that
		// matches is never grey-on-grey inside the board.
		breaks := 0
		if ew != w {
			breaks++
		}
		if en != nn {
			breaks++
		}
		for j := c.xStart[i]; j < c.xStart[i+1]; j++ {
			if byte(e.packed>>(8*c.xSide[j])) != col[c.xSrc[j]] {
				breaks++
			}
		}
		if breaks > allowed {
			continue
		}
		nodes++
		placed[i] = e.o
		binary.LittleEndian.PutUint32(col[c.stepPad[i]*4:], e.packed)
		cost[i+1] = cost[i] + breaks
		if nodes&(checkEvery-1) == 0 && (nodes >= maxNodes || ctx.Err() != nil) {
			break
		}
		if i+1 == n {
			best = append(best[:0], placed...)
			bestBreaks = cost[n]
			if bestBreaks == 0 {
				break
			}
			continue
		}
		used[p>>6] |= 1 << (p & 63)
		i++
		tier[i] = 0
		pos[i], end[i] = rangeOf(i, 0)
	}
	return best, bestBreaks, nodes
}

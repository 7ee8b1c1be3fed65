package partial

import (
	"context"
	"encoding/binary"

	"tessera/edgematch"
	"tessera/edgematch/internal/kernel"
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
func breakDFS(ctx context.Context, c *kernel.Compiled, prefix []uint16, budget []int, maxNodes int64) ([]uint16, int, int64) {
	n := c.N
	w := kernel.NewWorker(c)
	w.Reset(prefix)
	col, used, placed := w.Col, w.Used, w.Placed
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
		cell := int(c.StepCell[i])
		mask := edgematch.OutwardMask(c.Rows, c.Cols, cell/c.Cols, cell%c.Cols)
		tabs = append(tabs, [4]int32{
			c.Table(kernel.TabKey{Mask: mask, A: edgematch.West, B: edgematch.North}), c.Table(kernel.TabKey{Mask: mask, A: edgematch.West, B: -1}),
			c.Table(kernel.TabKey{Mask: mask, A: edgematch.North, B: -1}), c.Table(kernel.TabKey{Mask: mask, A: -1, B: -1})})
	}
	var best []uint16
	bestBreaks := budget[n-1] + 1
	var nodes int64
	// rangeOf returns the candidates of tier t at step i.
	rangeOf := func(i, t int) (int32, int32) {
		w, nn := int(col[c.SrcA[i]]), int(col[c.SrcB[i]])
		var idx int
		switch t {
		case 0:
			idx = int(tabs[i][0]) + c.Key(w, nn)
		case 1:
			idx = int(tabs[i][1]) + c.Key(w, 0)
		case 2:
			idx = int(tabs[i][2]) + c.Key(nn, 0)
		default:
			idx = int(tabs[i][3])
		}
		return c.Start[idx], c.Start[idx+1]
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
			p := c.OriPiece[placed[i]]
			used[p>>6] &^= 1 << (p & 63)
			continue
		}
		e := c.Cand[pos[i]]
		pos[i]++
		p := e.Piece
		if used[p>>6]&(1<<(p&63)) != 0 {
			continue
		}
		w, nn := col[c.SrcA[i]], col[c.SrcB[i]]
		ew, en := byte(e.Packed>>(8*edgematch.West)), byte(e.Packed>>(8*edgematch.North))
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
		for j := c.XStart[i]; j < c.XStart[i+1]; j++ {
			if byte(e.Packed>>(8*c.XSide[j])) != col[c.XSrc[j]] {
				breaks++
			}
		}
		if breaks > allowed {
			continue
		}
		nodes++
		placed[i] = e.O
		binary.LittleEndian.PutUint32(col[c.StepPad[i]*4:], e.Packed)
		cost[i+1] = cost[i] + breaks
		if nodes&(kernel.CheckEvery-1) == 0 && (nodes >= maxNodes || ctx.Err() != nil) {
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

package kernel

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"unsafe"
)

// Candidate masks: the exact backtracker's fast path.
//
// Every candidate list of the steps' tables (at most 64 entries) gets a
// word of avail: bit j is set when candidate start[t]+j may be placed now,
// that is its piece is free and, for a piece with an identical twin of
// lower number, that twin is placed. A step then takes its next candidate
// with a trailing-zero count instead of reading and rejecting the used
// pieces one by one, and placing or freeing piece p flips the bits listed
// in tog[togStart[p]:togStart[p+1]]: p's own entries and those of its next
// twin, which become eligible exactly while p is placed. The tree walked,
// its order and the placements counted are those of the plain loop.

// buildMasks fills maskOK, togStart and tog; it runs at the end of compile.
func (c *Compiled) buildMasks() {
	lists := len(c.Start)
	if lists >= 1<<26 {
		return
	}
	// The lists of the step tables.
	k2 := 1 << (2 * c.ks)
	isStep := map[int32]bool{}
	for _, t := range c.tab {
		isStep[t] = true
	}
	nextTwin := make([]int32, len(c.P.Tiles))
	prev := make([]int32, len(c.P.Tiles))
	for i := range nextTwin {
		nextTwin[i], prev[i] = -1, -1
	}
	for o, q := range c.oriPrev {
		if q >= 0 {
			nextTwin[q] = c.OriPiece[o]
			prev[c.OriPiece[o]] = q
		}
	}
	own := make([][]uint32, len(c.P.Tiles))
	for t0 := range isStep {
		for t := t0; t < t0+int32(k2); t++ {
			lo, hi := c.Start[t], c.Start[t+1]
			if hi-lo > 64 {
				return
			}
			for j := lo; j < hi; j++ {
				p := c.Cand[j].Piece
				own[p] = append(own[p], uint32(t)<<6|uint32(j-lo))
			}
		}
	}
	c.togStart = make([]int32, len(c.P.Tiles)+1)
	c.tog = c.tog[:0]
	for p := range own {
		c.togStart[p] = int32(len(c.tog))
		c.tog = append(c.tog, own[p]...)
		if q := nextTwin[p]; q >= 0 {
			c.tog = append(c.tog, own[q]...)
		}
	}
	c.togStart[len(own)] = int32(len(c.tog))
	// tog4: the toggles of each piece padded to four with a spare word.
	c.tog4 = make([][4]uint32, len(own))
	for p := range own {
		tg := c.tog[c.togStart[p]:c.togStart[p+1]]
		if len(tg) > 4 {
			return
		}
		for j := range 4 {
			c.tog4[p][j] = uint32(lists) << 6
			if j < len(tg) {
				c.tog4[p][j] = tg[j]
			}
		}
	}
	lists++ // the spare word
	c.prevPiece = prev
	c.lists = lists
	c.MaskOK = true
}

// loopStep is what the loops read of step i, side by side: its table,
// its cell's offset in col, the offsets in col of its key colours, or the
// shift of the side of step i-1's piece that shows them (-1: none), and
// its extra sides xSide[xs:xe]. aRot is the rotation that brings the
// side at aSh to bits ks..ks+7 (the list key's high part, in one rotate
// and a mask).
type loopStep struct {
	tab        int32
	Pad4       int32
	SrcA, SrcB int32
	Xs, Xe     int32
	ASh, BSh   int8
	aRot       uint8
	// watch is set in a worker's copy (runMasks) on the steps where a
	// placement needs a look: a new maximum depth or the limit.
	watch bool
	_     [4]byte // 32 bytes: steps[i] is a shift away
}

// buildPrevKeys fills aPrev, bPrev and steps: the key sides of a step
// that the previous step's piece shows are read from the piece just
// placed rather than from col (a store and a load on the path from one
// placement to the next).
func (c *Compiled) buildPrevKeys() {
	c.aPrev = make([]int8, c.N+1)
	c.bPrev = make([]int8, c.N+1)
	c.Steps = make([]loopStep, c.N+1)
	for i := range c.N + 1 {
		c.aPrev[i], c.bPrev[i] = -1, -1
		if i == c.N {
			c.Steps[i] = loopStep{ASh: -1, BSh: -1}
			continue
		}
		for d := range int32(4) {
			if i > 0 && c.SrcA[i] == c.StepPad[i-1]*4+d {
				c.aPrev[i] = int8(8 * d)
			}
			if i > 0 && c.SrcB[i] == c.StepPad[i-1]*4+d {
				c.bPrev[i] = int8(8 * d)
			}
		}
		c.Steps[i] = loopStep{tab: c.tab[i], Pad4: c.StepPad[i] * 4, SrcA: c.SrcA[i], SrcB: c.SrcB[i],
			Xs: c.XStart[i], Xe: c.XStart[i+1], ASh: c.aPrev[i], BSh: c.bPrev[i],
			aRot: uint8(int(c.ks)-int(c.aPrev[i])) & 31}
	}
}

// fillAvail sets avail to the candidates that may be placed given the
// used pieces. It returns false when a piece is used while the twin it
// must follow is free (a prefix given out of order): the masks cannot
// follow that, and the plain loop takes over.
func (c *Compiled) fillAvail(avail, used []uint64) bool {
	clear(avail)
	isUsed := func(p int32) bool { return used[p>>6]&(1<<(p&63)) != 0 }
	for p := range int32(len(c.P.Tiles)) {
		q := c.prevPiece[p]
		if isUsed(p) {
			if q >= 0 && !isUsed(q) {
				return false
			}
			continue
		}
		if q >= 0 && !isUsed(q) {
			continue // eligible once its twin is placed
		}
		// p's own entries come first in its toggles.
		for _, tg := range c.tog[c.togStart[p]:c.togStart[p+1]] {
			if int32(c.Cand[c.Start[tg>>6]+int32(tg&63)].Piece) != p {
				break
			}
			avail[tg>>6] |= 1 << (tg & 63)
		}
	}
	return true
}

// lowBits returns a word with the n lowest bits set (n in 0..64).
func lowBits(n int32) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(n) - 1
}

// runMasks is run on the candidate masks: c.maskOK must hold and
// w.avail must be filled (by fillAvail). It leaves w.used as it found it:
// the masks stand for it.
//
// The inner loop is maskRun (an assembly kernel on amd64, maskRunGo
// elsewhere): it places, looks ahead, descends and backtracks until a
// placement needs a look (the step's watch flag: a new maximum depth or
// the limit can be reached there; or the countdown to the next check
// ends) or the subtree is exhausted. runMasks does the rest.
func (w *Worker) runMasks(base, limit int, lo, hi int32, visit func(placed []uint16) bool, check func(depth int) bool) dfsStop {
	c := w.c
	col, placed, path, pos, end := w.Col, w.Placed, w.Path, w.Pos, w.End
	frames, cand := w.frames, c.Cand
	stop := w.StopNodes
	maxDepth := w.maxDepth

	if base == limit {
		if visit(placed[:base]) {
			return dfsFound
		}
		return dfsDone
	}
	// The worker's copy of the steps, with the watch flags set from
	// step watch-1 on: watch is the depth from which a placement needs a
	// look.
	if len(w.steps) != len(c.Steps) {
		w.steps = slices.Clone(c.Steps)
	}
	steps := w.steps
	watch := min(maxDepth+1, limit)
	for j := range steps {
		steps[j].watch = j+1 >= watch
	}
	st := &steps[base]
	t := st.tab + (int32(col[st.SrcA])<<c.ks | int32(col[st.SrcB]))
	lb := c.Start[t]
	k := &w.kernel
	*k = MaskKernel{
		i: int64(base), base: int64(base), lb: int64(lb),
		r:     w.avail[t] & lowBits(hi-lb) &^ lowBits(lo-lb),
		left:  stop - w.Nodes,
		steps: steps, cand: cand, avail: w.avail, frames: frames, tog4: c.tog4,
		col: col, path: path, start: c.Start, xSide: c.XSide, xSrc: c.XSrc,
		keyHi: uint64(0xff) << c.ks, ks: uint64(c.ks),
	}
	entry := KernelTop
	for {
		if MaskRunFn(k, entry) == KernelDone {
			w.Nodes, w.maxDepth = stop-k.left, maxDepth
			return dfsDone
		}
		// A look at the placement of candidate ci at step i.
		i := int(k.i)
		ci := int32(k.ci)
		e := cand[ci]
		path[i] = ci
		binary.LittleEndian.PutUint32(col[steps[i].Pad4:], e.Packed)
		if i+1 > maxDepth {
			for j := base; j <= i; j++ {
				placed[j] = cand[path[j]].O
			}
			maxDepth = i + 1
			w.Deepest = append(w.Deepest[:0], placed[:maxDepth]...)
			// Steps before the new watch need no look any more.
			for j := watch - 1; j < min(maxDepth+1, limit)-1; j++ {
				steps[j].watch = false
			}
			watch = min(maxDepth+1, limit)
		}
		if k.left <= 0 {
			w.Nodes, w.maxDepth = stop-k.left, maxDepth
			frames[i] = maskFrame{k.r, int32(k.lb), e.Piece}
			// check sees (and may shorten) the ranges pos[d]..end[d].
			for d := base; d <= i; d++ {
				if f := frames[d]; f.r == 0 {
					pos[d], end[d] = f.lb, f.lb
				} else {
					pos[d] = f.lb + int32(bits.TrailingZeros64(f.r))
					end[d] = f.lb + 64 - int32(bits.LeadingZeros64(f.r))
				}
			}
			if check(i) {
				return dfsBudget
			}
			for d := base; d <= i; d++ {
				frames[d].r &= lowBits(end[d] - frames[d].lb)
			}
			k.r = frames[i].r
			stop = w.StopNodes
			k.left = stop - w.Nodes
		}
		entry = KernelResume
		if i+1 == limit {
			for j := base; j <= i; j++ {
				placed[j] = cand[path[j]].O
			}
			if visit(placed[:limit]) {
				w.Nodes, w.maxDepth = stop-k.left, maxDepth
				return dfsFound
			}
			entry = KernelTop
		}
	}
}

// MaskKernel is the state of the inner loop of runMasks, in one struct
// that the assembly kernel reads at fixed offsets (go_asm.h): step i,
// its candidates still to try r (bits above lb), the placements left
// before the next check, the candidate ci of the last look, and the
// tables.
type MaskKernel struct {
	i, lb  int64
	r      uint64
	left   int64
	ci     int64
	base   int64
	steps  []loopStep
	cand   []candidate
	avail  []uint64
	frames []maskFrame
	tog4   [][4]uint32
	col    []byte
	path   []int32
	start  []int32
	xSide  []uint8
	xSrc   []int32
	keyHi  uint64 // 0xff << ks
	ks     uint64
}

// How maskRun is entered and why it returns.
const (
	KernelTop    = 0 // entry: take step i's next candidate
	KernelResume = 1 // entry: candidate ci at step i had its look; go on
	KernelDone   = 0 // return: step base has no candidates left
	KernelLook   = 1 // return: candidate ci placed at step i needs a look
)

// maskRunFn is the kernel runMasks calls (a variable so that the tests
// can run the Go kernel beside the assembly one).
var MaskRunFn = MaskRun

// MaskRunGo is the inner loop of runMasks in Go: the reference for the
// assembly kernel, and the kernel where there is none (maskRun). At a
// look it returns with the candidate in ci and the state in k; path[i]
// and the colours of step i are written only when it descends.
func MaskRunGo(k *MaskKernel, entry int) int {
	steps, cand, avail, frames, tog4 := k.steps, k.cand, k.avail, k.frames, k.tog4
	col, path, start, xSide, xSrc := k.col, k.path, k.start, k.xSide, k.xSrc
	ks, keyHi := uint8(k.ks), uint32(k.keyHi)
	i, r, lb, left := int32(k.i), k.r, int32(k.lb), k.left
	base := int32(k.base)
	ci := int32(k.ci)
	resume := entry == KernelResume
	for {
		var e candidate
		var st *loopStep
		if resume {
			resume = false
			e, st = *At(cand, ci), At(steps, i)
		} else {
			if r == 0 {
				// Backtrack: free the piece placed at the step before.
				if i == base {
					k.i, k.r, k.lb, k.left = int64(i), r, int64(lb), left
					return KernelDone
				}
				i--
				f := At(frames, i)
				r, lb = f.r, f.lb
				tg := At(tog4, int32(f.p))
				*At(avail, int32(tg[0]>>6)) ^= 1 << (tg[0] & 63)
				*At(avail, int32(tg[1]>>6)) ^= 1 << (tg[1] & 63)
				*At(avail, int32(tg[2]>>6)) ^= 1 << (tg[2] & 63)
				*At(avail, int32(tg[3]>>6)) ^= 1 << (tg[3] & 63)
				continue
			}
			ci = lb + int32(bits.TrailingZeros64(r))
			r &= r - 1
			e = *At(cand, ci)
			st = At(steps, i)
			if xs, xe := st.Xs, st.Xe; xs != xe && !ExtrasMatch(e.Packed, col, xSide[xs:xe], xSrc[xs:xe]) {
				continue
			}
			left--
			if left <= 0 || st.watch {
				k.i, k.r, k.lb, k.left, k.ci = int64(i), r, int64(lb), left, int64(ci)
				return KernelLook
			}
		}
		// The next step's candidates, as they will be once p is placed:
		// when there are none, the placement is a leaf, and p need not be
		// marked nor step i's state saved. Most leaves have an empty list
		// before p's own entries are taken out.
		st1 := At(steps, i+1)
		// ka: the key's high part, a<<ks; kb: its low part, b.
		var ka, kb int32
		if st1.ASh >= 0 {
			ka = int32(bits.RotateLeft32(e.Packed, int(st1.aRot)) & keyHi)
		} else {
			ka = int32(*At(col, st1.SrcA)) << ks
		}
		if sh := st1.BSh; sh >= 0 {
			kb = int32(byte(e.Packed >> (uint8(sh) & 31)))
		} else {
			kb = int32(*At(col, st1.SrcB))
		}
		t := st1.tab + (ka | kb)
		rn := *At(avail, t)
		if rn == 0 {
			continue
		}
		p := e.Piece
		tg := At(tog4, int32(p))
		if int32(tg[0]>>6) == t {
			rn ^= 1 << (tg[0] & 63)
		}
		if int32(tg[1]>>6) == t {
			rn ^= 1 << (tg[1] & 63)
		}
		if int32(tg[2]>>6) == t {
			rn ^= 1 << (tg[2] & 63)
		}
		if int32(tg[3]>>6) == t {
			rn ^= 1 << (tg[3] & 63)
		}
		if rn == 0 {
			continue
		}
		*At(frames, i) = maskFrame{r, lb, p}
		lb, r = *At(start, t), rn
		*At(path, i) = ci
		*(*uint32)(unsafe.Pointer(At(col, st.Pad4))) = e.Packed
		*At(avail, int32(tg[0]>>6)) ^= 1 << (tg[0] & 63)
		*At(avail, int32(tg[1]>>6)) ^= 1 << (tg[1] & 63)
		*At(avail, int32(tg[2]>>6)) ^= 1 << (tg[2] & 63)
		*At(avail, int32(tg[3]>>6)) ^= 1 << (tg[3] & 63)
		i++
	}
}

// maskFrame is a step's state in runMasks: the candidates still to try,
// as bits above the list's first index lb, and the piece placed.
type maskFrame struct {
	r  uint64
	lb int32
	p  uint16 // the piece placed
}

package samegame

import (
	"context"
	"fmt"
	"slices"
)

// Beam search keeps, depth by depth, the BeamWidth best distinct boards
// (by Zobrist hash) among the children of the previous depth's boards. A
// board's value is, under Standard, its points plus the points its groups
// would give now, sum of (n-2)^2 (a greedy estimate of what is still to
// win); under Dust, minus the clicks so far and half the groups left (a
// board with fewer, larger groups needs fewer clicks); Dust boards of at
// most 64 cells run on bit boards (beamBits). Every game that ends in the
// beam is a candidate; the best is returned (under Dust, the first to
// clear the board). O(depth * width * branching * cells) time,
// O(width * cells) memory plus the path links.

type beamState struct {
	board  Board
	points int
}

type beamCand struct {
	parent int32
	group  Group
	hash   uint64
	value  float64
}

// beamLink is how a state of a depth was reached: its parent's index in
// the previous depth and the click.
type beamLink struct {
	parent int32
	move   Move
}

func solveBeam(ctx context.Context, b *Board, opts options) (Solution, error) {
	width := opts.BeamWidth
	if width == 0 {
		width = 1000
	}
	if width < 1 {
		return Solution{}, fmt.Errorf("samegame: beam width %d must be positive", width)
	}
	if b.rules == Dust && fitsBits(b) {
		return beamBits(ctx, b, width, opts)
	}
	var (
		cur       = []beamState{{board: *b}}
		next      []beamState
		links     [][]beamLink // links[d][i]: how state i of depth d+1 was reached
		cands     []beamCand
		groups    []Group
		scr       scratch
		child     Board
		seen      = map[uint64]bool{}
		best      Solution
		bestFound bool
		valueBuf  []Group
		nodes     int64
		err       error
	)
	best.Score = -1
	// path rebuilds the clicks to state i of depth d (depth 0: the root).
	path := func(d int, i int32, last Move) []Move {
		moves := make([]Move, d+1)
		moves[d] = last
		for k := d - 1; k >= 0; k-- {
			l := links[k][i]
			moves[k], i = l.move, l.parent
		}
		return moves
	}
	offer := func(d int, i int32, last Move, clicks, score int) {
		better := !bestFound || (b.rules == Dust && clicks < best.Clicks) || (b.rules == Standard && score > best.Score)
		if better {
			bestFound = true
			best.Clicks, best.Score = clicks, score
			best.Moves = path(d, i, last)
		}
	}
	if b.GameOver() {
		cur = nil
	}
	for depth := 0; len(cur) > 0; depth++ {
		cands = cands[:0]
		for i := range cur {
			s := &cur[i]
			nodes++
			if nodes&255 == 0 {
				err = checkBudget(ctx, nodes, opts.MaxNodes)
				if opts.Progress != nil {
					opts.Progress(Solution{Score: best.Score, Clicks: best.Clicks, Cleared: bestFound && b.rules == Dust, Nodes: nodes})
				}
			}
			if err != nil {
				break
			}
			groups = s.board.groupsWith(groups[:0], b.rules.MinGroup(), &scr)
			for _, g := range groups {
				child = s.board
				n := child.PlayGroup(g)
				points := s.points + b.rules.Points(n)
				if child.GameOver() {
					offer(depth, int32(i), g.Move(), depth+1, score(b.rules, points, &child))
					continue
				}
				cands = append(cands, beamCand{parent: int32(i), group: g, hash: child.Hash(), value: beamValue(&child, points, depth+1, &scr, &valueBuf)})
			}
		}
		if err == nil && ctx.Err() != nil {
			err = ctxErr(ctx.Err()) // do not sort a layer past the budget
		}
		if err != nil || (b.rules == Dust && bestFound) {
			break // under Dust the first clears are the beam's best
		}
		slices.SortStableFunc(cands, func(x, y beamCand) int {
			switch {
			case x.value > y.value:
				return -1
			case x.value < y.value:
				return 1
			}
			return 0
		})
		next = next[:0]
		var lk []beamLink
		for _, c := range firstDistinct(cands, width, func(c *beamCand) uint64 { return c.hash }, seen) {
			s := beamState{board: cur[c.parent].board, points: cur[c.parent].points}
			s.points += b.rules.Points(s.board.PlayGroup(c.group))
			next = append(next, s)
			lk = append(lk, beamLink{parent: c.parent, move: c.group.Move()})
		}
		links = append(links, lk)
		cur, next = next, cur
	}
	if err != nil && len(cur) > 0 {
		// The budget ended inside depth len(links): complete the best
		// state of that depth (cur[0], the layer is sorted) greedily, so
		// that an anytime search always answers.
		prefix := make([]Move, len(links))
		for k, i := len(links)-1, int32(0); k >= 0; k-- {
			l := links[k][i]
			prefix[k], i = l.move, l.parent
		}
		if line, ok := greedyLine(b, prefix); ok {
			if !bestFound || (b.rules == Dust && line.Cleared && line.Clicks < best.Clicks) || (b.rules == Standard && line.Score > best.Score) {
				bestFound, best = true, line
			}
		}
	}
	sol := Solution{Moves: best.Moves, Nodes: nodes}
	if ferr := finish(b, &sol); ferr != nil {
		return sol, ferr
	}
	return sol, err
}

// greedyLine plays prefix on b, then the largest group until the game
// ends: the line an anytime beam returns when its budget ends before a
// game in its beam did. O(clicks * cells).
func greedyLine(b *Board, prefix []Move) (Solution, bool) {
	res, err := Replay(b, prefix)
	if err != nil {
		return Solution{}, false
	}
	moves := slices.Clone(prefix)
	board := res.Board
	var groups []Group
	for {
		groups = board.Moves(groups[:0])
		if len(groups) == 0 {
			break
		}
		g := groups[0]
		for _, h := range groups[1:] {
			if h.Size > g.Size {
				g = h
			}
		}
		moves = append(moves, g.Move())
		board.PlayGroup(g)
	}
	sol := Solution{Moves: moves}
	return sol, finish(b, &sol) == nil
}

// beamValue rates a board reached with points after clicks (higher is
// better).
func beamValue(b *Board, points, clicks int, scr *scratch, buf *[]Group) float64 {
	*buf = b.groupsWith((*buf)[:0], 1, scr)
	gs := *buf
	if b.rules == Dust {
		return -float64(clicks) - 0.5*float64(len(gs))
	}
	v := points
	for _, g := range gs {
		if g.Size >= 2 {
			v += (int(g.Size) - 2) * (int(g.Size) - 2)
		}
	}
	return float64(v)
}

// beamBits is beam search for Dust boards of at most 64 cells on bit
// boards: a board's value is minus its groups and twice its colours (all
// boards of a depth have the same clicks; fewer, larger groups and fewer
// colours need fewer clicks).
func beamBits(ctx context.Context, b *Board, width int, opts options) (Solution, error) {
	geom := newBitGeom(b)
	var (
		layers [][]bitState
		cur    = []bitState{{s: geom.toBits(b), parent: -1}}
		cands  []bitCand
		groups []bitGroup
		kids   []bitGroup
		seen   = map[uint64]bool{}
		nodes  int64
		err    error
	)
	path := func(d int, i int32, last uint64) []Move {
		moves := make([]Move, d+1)
		masks := make([]uint64, d+1)
		masks[d] = last
		for k := d; k > 0; k-- {
			st := layers[k][i]
			masks[k-1], i = st.mask, st.parent
		}
		for k, m := range masks {
			moves[k] = geom.move(m)
		}
		return moves
	}
	layers = append(layers, cur)
	sol := Solution{}
	for depth := 0; len(cur) > 0 && b.Cells() > 0; depth++ {
		cands = cands[:0]
		for i := range cur {
			nodes++
			if nodes&255 == 0 {
				err = checkBudget(ctx, nodes, opts.MaxNodes)
			}
			if err != nil {
				break
			}
			groups = geom.groups(&cur[i].s, groups[:0], 1)
			for _, g := range groups {
				child := cur[i].s
				geom.play(&child, g.mask, int(g.color))
				if child.occ == 0 {
					sol.Moves = path(depth, int32(i), g.mask)
					sol.Nodes = nodes
					return sol, finish(b, &sol)
				}
				cands = append(cands, geom.cand(int32(i), g, &child, &kids))
			}
		}
		if err == nil && ctx.Err() != nil {
			err = ctxErr(ctx.Err()) // do not sort a layer past the budget
		}
		if err != nil {
			break
		}
		cur = geom.nextLayer(cur, cands, width, seen)
		layers = append(layers, cur)
	}
	if err != nil && len(cur) > 0 {
		// The budget ended inside the last layer: complete its best state
		// (cur[0], the layer is sorted) greedily.
		d := len(layers) - 1
		prefix := make([]Move, d)
		for k, i := d, int32(0); k > 0; k-- {
			st := layers[k][i]
			prefix[k-1], i = geom.move(st.mask), st.parent
		}
		if line, ok := greedyLine(b, prefix); ok {
			line.Nodes = nodes
			return line, err
		}
	}
	sol = Solution{Nodes: nodes}
	if ferr := finish(b, &sol); ferr != nil {
		return sol, ferr
	}
	return sol, err
}

// bitState is a position kept by the bit-board beam, with the index of
// its parent in the previous depth and the group clicked to reach it.
type bitState struct {
	s      bitBoard
	parent int32
	mask   uint64
}

// bitCand is a child of a bit-board beam position, not yet built: its
// parent's index, the group, the child's hash and its value (minus its
// groups and twice its colours).
type bitCand struct {
	parent int32
	grp    bitGroup
	hash   uint64
	value  int
}

// cand rates child, reached from parent number parent by clicking g (kids
// is scratch space).
func (g *bitGeom) cand(parent int32, grp bitGroup, child *bitBoard, kids *[]bitGroup) bitCand {
	*kids = g.groups(child, (*kids)[:0], 1)
	return bitCand{parent: parent, grp: grp, hash: g.hash(child), value: -len(*kids) - 2*g.colorsLeft(child)}
}

// nextLayer keeps the width best distinct candidates (stably, by value)
// and builds them from their parents in cur (seen is scratch space).
func (g *bitGeom) nextLayer(cur []bitState, cands []bitCand, width int, seen map[uint64]bool) []bitState {
	slices.SortStableFunc(cands, func(x, y bitCand) int { return y.value - x.value })
	next := make([]bitState, 0, min(width, len(cands)))
	for _, c := range firstDistinct(cands, width, func(c *bitCand) uint64 { return c.hash }, seen) {
		st := bitState{s: cur[c.parent].s, parent: c.parent, mask: c.grp.mask}
		g.play(&st.s, c.grp.mask, int(c.grp.color))
		next = append(next, st)
	}
	return next
}

// firstDistinct returns the first candidates, at most width of them, whose
// hashes differ (seen is scratch space).
func firstDistinct[C any](cands []C, width int, hash func(*C) uint64, seen map[uint64]bool) []C {
	clear(seen)
	k := 0
	for i := range cands {
		if k == width {
			break
		}
		if h := hash(&cands[i]); !seen[h] {
			seen[h] = true
			cands[k] = cands[i]
			k++
		}
	}
	return cands[:k]
}

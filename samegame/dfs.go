package samegame

import (
	"cmp"
	"context"
	"fmt"
	"slices"
)

// The source blog's depth-first branch-and-bound ("Depth first search
// puzzle solving with heuristics", 2021). Under Dust rules it tries the
// clicks of a board in its move order, records every shorter solution,
// and skips a child when clicks so far plus the colours the child has
// left cannot beat the best solution (M + N < best). A click that empties
// the board ends the board's loop: its siblings cannot do better. The
// orderings are the blog's: "standard" (Largest: biggest group first),
// "lookahead" (group size plus the largest group it leaves) and
// "shortlook" (lookahead near the root, size deeper). On boards of at most
// 64 cells (the bit engine) it adds two things the blog's search lacks: a
// table of the boards already searched (a board reached again after as
// many clicks or more is skipped, see firstVisit), and the exact solver's
// extra click in the bound when no colour is a single group (then the
// next click cannot remove a colour). Both are safe: a completed search
// still proves its answer optimal; within a budget they find shorter
// solutions.
//
// Under Standard rules the same search maximises the score: it skips a
// child when its points plus an upper bound on the points left cannot beat
// the best score. The bound gives each colour of n >= 2 cells (n-2)^2, as
// if it went in one group, and the clear bonus unless some colour has a
// single cell left (which can never be removed).

type dfsSearch struct {
	ctx    context.Context
	opts   *options
	rules  Rules
	nodes  int64
	err    error
	scr    scratch
	path   []Move
	best   Solution // best.Moves, best.Clicks (Dust) or best.Score (Standard)
	levels []dfsPly

	// The Dust search on bit boards (boards of at most 64 cells).
	geom     *bitGeom
	bitKids  [][]dfsBitChild
	bitPath  []uint64 // groups clicked from the root
	bitBest  []uint64
	bitGroup []bitGroup
	seen     []uint64 // hash of a board searched (upper bits) | clicks to it (low 6 bits)
	seenBits int
}

type dfsBitChild struct {
	board bitBoard
	mask  uint64
	key   int
}

type dfsPly struct {
	groups   []Group
	children []dfsChild
}

type dfsChild struct {
	board Board
	group Group
	key   int // ordering key: higher first
}

func solveDFS(ctx context.Context, b *Board, opts options) (Solution, error) {
	d := &dfsSearch{ctx: ctx, opts: &opts, rules: b.rules, levels: make([]dfsPly, b.Cells()+1)}
	if opts.LookaheadPlies == 0 {
		d.opts.LookaheadPlies = 6
	}
	d.best.Clicks = 1 << 30
	d.best.Score = -1
	root := *b
	switch {
	case root.GameOver():
	case d.rules == Dust && fitsBits(b):
		d.geom = newBitGeom(b)
		d.bitKids = make([][]dfsBitChild, b.Cells()+1)
		d.seenBits = cmp.Or(opts.TableBits, 22)
		if d.seenBits < 10 || d.seenBits > 32 {
			return Solution{}, fmt.Errorf("samegame: table bits %d out of range (10 to 32)", d.seenBits)
		}
		d.seen = make([]uint64, 1<<d.seenBits)
		s := d.geom.toBits(b)
		d.dustBits(&s, 0)
		d.best.Moves = d.best.Moves[:0]
		for _, m := range d.bitBest {
			d.best.Moves = append(d.best.Moves, d.geom.move(m))
		}
	case d.rules == Dust:
		d.dust(&root, 0)
	default:
		d.standard(&root, 0, 0)
	}
	sol := Solution{Moves: d.best.Moves, Nodes: d.nodes, Optimal: d.err == nil}
	if err := finish(b, &sol); err != nil {
		return sol, err
	}
	return sol, d.err
}

// tick counts a node and reports whether the search must stop.
func (d *dfsSearch) tick() bool {
	d.nodes++
	if d.nodes&1023 == 0 && d.err == nil {
		d.err = checkBudget(d.ctx, d.nodes, d.opts.MaxNodes)
		if d.opts.Progress != nil {
			p := d.best
			p.Nodes = d.nodes
			d.opts.Progress(p)
		}
	}
	return d.err != nil
}

// children fills the ply's children of b in the DFS move order and returns
// them; minSize is the rules' smallest group.
func (d *dfsSearch) children(b *Board, depth int) []dfsChild {
	ply := &d.levels[depth]
	ply.groups = b.groupsWith(ply.groups[:0], d.rules.MinGroup(), &d.scr)
	ply.children = ply.children[:0]
	look := d.opts.Ordering == Lookahead || d.opts.Ordering == ShortLook && depth < d.opts.LookaheadPlies
	var next []Group
	for _, g := range ply.groups {
		ply.children = append(ply.children, dfsChild{board: *b, group: g, key: int(g.Size)})
		c := &ply.children[len(ply.children)-1]
		c.board.PlayGroup(g)
		if look {
			biggest := 0
			next = c.board.groupsWith(next[:0], 1, &d.scr)
			for _, n := range next {
				biggest = max(biggest, int(n.Size))
			}
			c.key += biggest
		}
	}
	slices.SortStableFunc(ply.children, func(x, y dfsChild) int { return y.key - x.key })
	return ply.children
}

// record keeps the current path plus last as the best solution.
func (d *dfsSearch) record(last Move, clicks, score int) {
	d.best.Moves = append(append(d.best.Moves[:0], d.path...), last)
	d.best.Clicks, d.best.Score = clicks, score
}

// dust searches below b, which is not empty, at depth clicks.
func (d *dfsSearch) dust(b *Board, depth int) {
	if d.tick() {
		return
	}
	kids := d.children(b, depth)
	for i := range kids {
		c := &kids[i]
		if c.board.IsEmpty() {
			if depth+1 < d.best.Clicks {
				d.record(c.group.Move(), depth+1, 0)
			}
			return
		}
		if c.board.ColorsLeft()+depth+1 < d.best.Clicks {
			d.path = append(d.path, c.group.Move())
			d.dust(&c.board, depth+1)
			d.path = d.path[:len(d.path)-1]
			if d.err != nil {
				return
			}
		}
	}
}

// dustBits is dust on bit boards.
func (d *dfsSearch) dustBits(s *bitBoard, depth int) {
	if d.tick() {
		return
	}
	g := d.geom
	d.bitGroup = g.groups(s, d.bitGroup[:0], 1)
	look := d.opts.Ordering == Lookahead || d.opts.Ordering == ShortLook && depth < d.opts.LookaheadPlies
	kids := d.bitKids[depth][:0]
	for _, grp := range d.bitGroup {
		kids = append(kids, dfsBitChild{board: *s, mask: grp.mask, key: int(grp.size)})
		c := &kids[len(kids)-1]
		g.play(&c.board, grp.mask, int(grp.color))
	}
	if look {
		for i := range kids {
			biggest := 0
			for _, n := range g.groups(&kids[i].board, d.bitGroup[:0], 1) {
				biggest = max(biggest, int(n.size))
			}
			kids[i].key += biggest
		}
	}
	d.bitKids[depth] = kids
	slices.SortStableFunc(kids, func(x, y dfsBitChild) int { return y.key - x.key })
	for i := range kids {
		c := &kids[i]
		if c.board.occ == 0 {
			if depth+1 < d.best.Clicks {
				d.bitBest = append(append(d.bitBest[:0], d.bitPath...), c.mask)
				d.best.Clicks = depth + 1
			}
			return
		}
		lb := g.colorsLeft(&c.board)
		if lb+depth+2 == d.best.Clicks && !g.hasSingle(&c.board) {
			lb++ // no click can remove a colour next
		}
		if lb+depth+1 < d.best.Clicks && d.firstVisit(&c.board, depth+1) {
			d.bitPath = append(d.bitPath, c.mask)
			d.dustBits(&c.board, depth+1)
			d.bitPath = d.bitPath[:len(d.bitPath)-1]
			if d.err != nil {
				return
			}
		}
	}
}

// firstVisit reports whether the board s, reached in clicks, is worth a
// search: not when it was searched before after as few clicks or fewer.
// Then its best continuation r was tried with a best solution no better
// than now: either it made that best (so clicks+r cannot beat it) or it
// did not beat it then and cannot now. The table is lossy (one entry per
// slot, the last wins), which only costs repeated work.
func (d *dfsSearch) firstVisit(s *bitBoard, clicks int) bool {
	if clicks >= 63 {
		return true // beyond the 6 bits of an entry
	}
	h := d.geom.hash(s)
	i := h >> (64 - d.seenBits)
	if v := d.seen[i]; v>>6 == h>>6 && int(v&63) <= clicks {
		return false
	}
	d.seen[i] = h&^63 | uint64(clicks)
	return true
}

// standard searches below b with points scored so far.
func (d *dfsSearch) standard(b *Board, depth, points int) {
	if d.tick() {
		return
	}
	kids := d.children(b, depth)
	for i := range kids {
		c := &kids[i]
		p := points + Standard.Points(int(c.group.Size))
		if c.board.GameOver() {
			if s := score(Standard, p, &c.board); s > d.best.Score {
				d.record(c.group.Move(), depth+1, s)
			}
			continue
		}
		if p+upperPoints(&c.board) > d.best.Score {
			d.path = append(d.path, c.group.Move())
			d.standard(&c.board, depth+1, p)
			d.path = d.path[:len(d.path)-1]
			if d.err != nil {
				return
			}
		}
	}
}

// upperPoints bounds the points still to win on b under Standard rules.
func upperPoints(b *Board) int {
	n := b.ColorCounts()
	u, bonus := 0, ClearBonus
	for _, k := range n {
		if k == 1 {
			bonus = 0
		}
		if k >= 2 {
			u += (k - 2) * (k - 2)
		}
	}
	return u + bonus
}

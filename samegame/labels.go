package samegame

import (
	"context"
	"fmt"
)

// Labelled is a position on one of the shortest lines a beam search found,
// with every click that keeps it on one: training data that marks all the
// good groups of a position, where a solution's move list marks only the
// one its solver took (a Dust board usually has several, for example two
// groups that can be cleared in either order).
type Labelled struct {
	// Moves are the clicks from the searched board to the position.
	Moves []Move
	// Good are the clicks of the position that lie on a shortest line found.
	Good []Move
	// Left is the number of clicks left along those lines.
	Left int
}

// BeamLabels runs the beam search of the Dust solver (bit boards, width
// states per depth, ranked by groups and colours left) on b, which must fit
// in 64 cells, until the first depth at which a position is cleared. Then,
// depth by depth backwards, it marks the kept positions that have a child
// among the marked positions of the next depth (or a child that clears
// the board): each of them is on a shortest line found, and its clicks to
// marked children are its good clicks. It returns at most perDepth
// positions per depth (the best ranked first; 0: all) and the length of
// the shortest lines. On most random 8x6 boards the beam's lines are
// optimal (at width 5,000, on 96 of 100 boards of every set measured), so
// the labels are mostly, not always, optimal.
func BeamLabels(ctx context.Context, b *Board, width, perDepth int) ([]Labelled, int, error) {
	if b.rules != Dust || !fitsBits(b) {
		return nil, 0, fmt.Errorf("%w: beam labels need a Dust board of at most 64 cells", ErrUnsupported)
	}
	if width < 1 {
		return nil, 0, fmt.Errorf("samegame: beam width %d must be positive", width)
	}
	if b.IsEmpty() {
		return nil, 0, nil
	}
	geom := newBitGeom(b)
	var (
		layers = [][]bitState{{{s: geom.toBits(b), parent: -1}}}
		cands  []bitCand
		groups []bitGroup
		kids   []bitGroup
		seen   = map[uint64]bool{}
		nodes  int64
	)
	// good[k] holds the hashes of the positions of depth k on a shortest
	// line found; the last depth's are those with a child that clears.
	var good []map[uint64]bool
	for depth := 0; ; depth++ {
		cur := layers[depth]
		if len(cur) == 0 {
			return nil, 0, fmt.Errorf("samegame: beam labels: the beam ran out of positions")
		}
		cands = cands[:0]
		var clears map[uint64]bool
		for i := range cur {
			nodes++
			if nodes&255 == 0 {
				if err := checkBudget(ctx, nodes, 0); err != nil {
					return nil, 0, err
				}
			}
			groups = geom.groups(&cur[i].s, groups[:0], 1)
			for _, g := range groups {
				child := cur[i].s
				geom.play(&child, g.mask, int(g.color))
				switch {
				case child.occ == 0:
					if clears == nil {
						clears = map[uint64]bool{}
					}
					clears[geom.hash(&cur[i].s)] = true
				case clears == nil:
					cands = append(cands, geom.cand(int32(i), g, &child, &kids))
				}
			}
		}
		if clears != nil {
			good = make([]map[uint64]bool, depth+1)
			good[depth] = clears
			break
		}
		layers = append(layers, geom.nextLayer(cur, cands, width, seen))
	}
	depth := len(good) - 1
	clicks := depth + 1
	// onLine reports whether child, a child of a position of depth k, is
	// on a shortest line found.
	onLine := func(k int, child *bitBoard) bool {
		if k == depth {
			return child.occ == 0
		}
		return good[k+1][geom.hash(child)]
	}
	// Backwards: a position is good when one of its children is.
	for k := depth - 1; k >= 0; k-- {
		good[k] = map[uint64]bool{}
		for i := range layers[k] {
			st := &layers[k][i]
			groups = geom.groups(&st.s, groups[:0], 1)
			for _, g := range groups {
				child := st.s
				geom.play(&child, g.mask, int(g.color))
				if onLine(k, &child) {
					good[k][geom.hash(&st.s)] = true
					break
				}
			}
		}
	}
	// The labels, per depth, of the first perDepth good positions.
	var out []Labelled
	for k := 0; k <= depth; k++ {
		taken := 0
		for i := range layers[k] {
			st := &layers[k][i]
			if (perDepth > 0 && taken == perDepth) || !good[k][geom.hash(&st.s)] {
				continue
			}
			taken++
			l := Labelled{Moves: make([]Move, k), Left: clicks - k}
			for d, j := k, int32(i); d > 0; d-- {
				s := &layers[d][j]
				l.Moves[d-1], j = geom.move(s.mask), s.parent
			}
			groups = geom.groups(&st.s, groups[:0], 1)
			for _, g := range groups {
				child := st.s
				geom.play(&child, g.mask, int(g.color))
				if onLine(k, &child) {
					l.Good = append(l.Good, geom.move(g.mask))
				}
			}
			out = append(out, l)
		}
	}
	return out, clicks, nil
}

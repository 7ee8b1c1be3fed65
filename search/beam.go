package search

import (
	"context"
	"errors"
	"slices"
	"unsafe"
)

// ErrPruned is returned by Beam when its beam empties without reaching a
// goal after it had dropped states for want of width: a goal may still be
// reachable (a wider beam may find it). When nothing was dropped the
// search was exhaustive and Beam returns ErrNoSolution.
var ErrPruned = errors.New("search: the beam lost every path to a goal")

// BeamOptions configure Beam: the limits of Options (Weight is not used),
// the width and duplicate detection.
type BeamOptions struct {
	Options
	// Width is the number of states kept at each depth; zero means 1,000.
	Width int
	// Distinct keeps only the first (best-ranked) successor of each key
	// within a depth. Duplicates across depths are not detected (the beam
	// does not store the states of earlier depths).
	Distinct bool
}

// beamLink is how a kept state was reached: its parent's index in the
// links of the previous depth and the move.
type beamLink[M any] struct {
	move   M
	parent int32
}

// beamCand is a successor waiting for the cut.
type beamCand[S any, K comparable, M any] struct {
	state  S
	move   M
	key    K
	parent int32 // index of the parent in the links
	rank   float64
}

// Beam runs beam search from start (Lowerre 1976): depth by depth it
// generates the successors of every kept state, in order, ranks them by
// rank (lower first; ties keep the order of generation: parents in beam
// order, then their successors' order) and keeps the first opts.Width of
// them, the first of each key only with opts.Distinct. The first successor
// that is a goal ends the search, so the path is the shortest within the
// beam, not necessarily the shortest there is: beam search is neither
// complete nor optimal, in exchange for O(width) memory per depth.
//
// It returns the path to the goal with the statistics (Iterations counts
// the depths); when the beam empties, ErrNoSolution if it never dropped a
// state (the search was exhaustive), else ErrPruned; limits and context
// as for BFS (PeakStored counts the kept states and the candidates of one
// depth). Cost: O(depth x width x branching) successors and rank calls,
// plus a sort of each depth's candidates.
func Beam[S any, K comparable, M any](ctx context.Context, space Space[S, K, M], start S, rank func(s S) float64, opts BeamOptions) (Result[S, M], error) {
	var res Result[S, M]
	width := opts.Width
	if width <= 0 {
		width = 1000
	}
	lim := newLimiter[S](ctx, space, opts.Options,
		unsafe.Sizeof(beamCand[S, K, M]{})+unsafe.Sizeof(beamLink[M]{})+mapEntryBytes[K, struct{}]())
	links := []beamLink[M]{{parent: -1}}
	path := func(i int32, last M) []M {
		var moves []M
		moves = append(moves, last)
		for ; links[i].parent >= 0; i = links[i].parent {
			moves = append(moves, links[i].move)
		}
		slices.Reverse(moves)
		return moves
	}
	lim.store(start)
	if space.IsGoal(start) {
		res.Goal, res.Stats = start, lim.snapshot()
		return res, nil
	}
	type kept struct {
		state S
		link  int32
	}
	cur := []kept{{start, 0}}
	var (
		next   []kept
		cands  []beamCand[S, K, M]
		seen   map[K]struct{}
		pruned bool
	)
	if opts.Distinct {
		seen = map[K]struct{}{}
	}
	for len(cur) > 0 {
		lim.stats.Iterations++
		cands = cands[:0]
		for _, s := range cur {
			if err := lim.expand(int64(len(cur) + len(cands))); err != nil {
				res.Stats = lim.snapshot()
				return res, err
			}
			for m, t := range space.Successors(s.state) {
				lim.stats.Generated++
				if space.IsGoal(t) {
					res.Moves, res.Goal, res.Stats = path(s.link, m), t, lim.snapshot()
					return res, nil
				}
				c := beamCand[S, K, M]{state: t, move: m, parent: s.link, rank: rank(t)}
				if opts.Distinct {
					c.key = space.Key(t)
				}
				cands = append(cands, c)
				lim.store(t)
			}
		}
		slices.SortStableFunc(cands, func(x, y beamCand[S, K, M]) int {
			switch {
			case x.rank < y.rank:
				return -1
			case x.rank > y.rank:
				return 1
			}
			return 0
		})
		clear(seen)
		next = next[:0]
		for i := range cands {
			if len(next) == width {
				pruned = true
				break
			}
			c := &cands[i]
			if opts.Distinct {
				if _, ok := seen[c.key]; ok {
					continue
				}
				seen[c.key] = struct{}{}
			}
			links = append(links, beamLink[M]{move: c.move, parent: c.parent})
			next = append(next, kept{c.state, int32(len(links) - 1)})
		}
		clear(cands) // let the dropped states go
		lim.extraBytes = 0
		for _, s := range next {
			lim.store(s.state)
		}
		cur, next = next, cur
	}
	res.Stats = lim.snapshot()
	if pruned {
		return res, ErrPruned
	}
	return res, ErrNoSolution
}

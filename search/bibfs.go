package search

import (
	"context"
	"unsafe"
)

// BidirectionalBFS finds a shortest path from start to goal by two
// breadth-first searches, one forward from start and one backward from goal,
// expanding one whole layer at a time of whichever frontier is smaller. It
// stops at the first state reached by both; with whole layers expanded in
// turn, that first meeting closes a shortest path.
//
// It stores about 2*b^(d/2) states instead of BFS's b^d. The goal test of
// space is not used: goal is the only goal. Limits and errors are those of
// BFS.
func BidirectionalBFS[S any, K comparable, M any](ctx context.Context, space Reversible[S, K, M], start, goal S, opts Options) (Result[S, M], error) {
	var res Result[S, M]
	type side struct {
		nodes    []treeNode[S, M] // forward: move leads parent -> node; backward: node -> parent
		index    map[K]int32
		frontier int // nodes[frontier:] is the last layer
		forward  bool
	}
	lim := newLimiter[S](ctx, space, opts, unsafe.Sizeof(treeNode[S, M]{})+mapEntryBytes[K, int32]())
	fw := &side{index: map[K]int32{space.Key(start): 0}, nodes: []treeNode[S, M]{{state: start, parent: -1}}, forward: true}
	bw := &side{index: map[K]int32{space.Key(goal): 0}, nodes: []treeNode[S, M]{{state: goal, parent: -1}}}
	lim.store(start)
	lim.store(goal)

	// join builds the path through the state at fi in fw and bi in bw.
	join := func(fi, bi int32) {
		res.Moves = pathTo(fw.nodes, fi)
		for j := bi; bw.nodes[j].parent >= 0; j = bw.nodes[j].parent {
			res.Moves = append(res.Moves, bw.nodes[j].move)
		}
		res.Goal = goal
		res.Stats = lim.snapshot()
	}
	if bi, ok := bw.index[space.Key(start)]; ok {
		join(0, bi)
		return res, nil
	}

	for {
		cur, other := fw, bw
		if len(bw.nodes)-bw.frontier < len(fw.nodes)-fw.frontier {
			cur, other = bw, fw
		}
		end := len(cur.nodes)
		if cur.frontier == end {
			res.Stats = lim.snapshot()
			return res, ErrNoSolution
		}
		lim.stats.Iterations++
		for i := cur.frontier; i < end; i++ {
			if err := lim.expand(int64(len(fw.nodes) + len(bw.nodes))); err != nil {
				res.Stats = lim.snapshot()
				return res, err
			}
			next := space.Successors
			if !cur.forward {
				next = space.Predecessors
			}
			for m, t := range next(cur.nodes[i].state) {
				lim.stats.Generated++
				k := space.Key(t)
				if _, ok := cur.index[k]; ok {
					continue
				}
				ti := int32(len(cur.nodes))
				cur.index[k] = ti
				cur.nodes = append(cur.nodes, treeNode[S, M]{state: t, move: m, parent: int32(i)})
				lim.store(t)
				if oi, ok := other.index[k]; ok {
					if cur.forward {
						join(ti, oi)
					} else {
						join(oi, ti)
					}
					return res, nil
				}
			}
		}
		cur.frontier = end
	}
}

package search

import (
	"context"
	"unsafe"
)

// astarNode is one stored state of A*: its place in the search tree, its
// cost g from the start, its heuristic value h and whether it is closed.
type astarNode[S any, M any] struct {
	treeNode[S, M]
	g, h   int32
	closed bool
}

// openItem is an entry of the open list; stale entries (whose g is no longer
// the node's) are skipped when popped.
type openItem struct {
	f   float64
	g   int32
	idx int32
}

// before orders the open list: lowest f first, then deepest (highest g),
// which reaches the goal sooner among equal f, then oldest.
func (a openItem) before(b openItem) bool {
	if a.f != b.f {
		return a.f < b.f
	}
	if a.g != b.g {
		return a.g > b.g
	}
	return a.idx < b.idx
}

// openList is a binary min-heap of openItems.
type openList []openItem

func (q *openList) push(it openItem) {
	*q = append(*q, it)
	h := *q
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !h[i].before(h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (q *openList) pop() openItem {
	h := *q
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if c+1 < len(h) && h[c+1].before(h[c]) {
			c++
		}
		if !h[c].before(h[i]) {
			break
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
	*q = h
	return top
}

// AStar finds a path from start to a goal by best-first search on
// f = g + w*h (Hart, Nilsson and Raphael 1968; weighted by Pohl 1970), with
// w = opts.Weight. With w = 1 and an admissible h the path is shortest: a
// state whose cost improves after it was expanded is reopened, so h need not
// be consistent. With w > 1 states are never reopened and the path is at
// most w times the shortest when h is consistent.
//
// The goal test is made when a state is expanded. Ties on f go to the
// deepest state. Memory is O(generated states); limits and errors are those
// of BFS.
func AStar[S any, K comparable, M any](ctx context.Context, space Space[S, K, M], start S, h Heuristic[S], opts Options) (Result[S, M], error) {
	var res Result[S, M]
	w := opts.Weight
	if w <= 0 {
		w = 1
	}
	reopen := w == 1
	lim := newLimiter[S](ctx, space, opts,
		unsafe.Sizeof(astarNode[S, M]{})+mapEntryBytes[K, int32]()+unsafe.Sizeof(openItem{}))
	f := func(g, h int32) float64 { return float64(g) + w*float64(h) }

	h0 := int32(h(start))
	nodes := []astarNode[S, M]{{treeNode: treeNode[S, M]{state: start, parent: -1}, h: h0}}
	index := map[K]int32{space.Key(start): 0}
	lim.store(start)
	open := openList{{f: f(0, h0), idx: 0}}
	for len(open) > 0 {
		it := open.pop()
		n := &nodes[it.idx]
		if n.closed || it.g != n.g {
			continue
		}
		if space.IsGoal(n.state) {
			res.Moves = pathTo(nodes, it.idx)
			res.Goal = n.state
			res.Stats = lim.snapshot()
			return res, nil
		}
		n.closed = true
		if err := lim.expand(int64(len(nodes))); err != nil {
			res.Stats = lim.snapshot()
			return res, err
		}
		g := n.g + 1
		for m, t := range space.Successors(n.state) {
			lim.stats.Generated++
			k := space.Key(t)
			if j, ok := index[k]; ok {
				c := &nodes[j]
				if g >= c.g || (c.closed && !reopen) {
					continue
				}
				c.move, c.parent, c.g, c.closed = m, it.idx, g, false
				open.push(openItem{f: f(g, c.h), g: g, idx: j})
				continue
			}
			j := int32(len(nodes))
			ht := int32(h(t))
			nodes = append(nodes, astarNode[S, M]{treeNode: treeNode[S, M]{state: t, move: m, parent: it.idx}, g: g, h: ht})
			index[k] = j
			lim.store(t)
			open.push(openItem{f: f(g, ht), g: g, idx: j})
		}
	}
	res.Stats = lim.snapshot()
	return res, ErrNoSolution
}

package search

import (
	"context"
	"unsafe"
)

// treeNode is one stored state of a breadth-first search with the link to
// the state it was reached from.
type treeNode[S any, M any] struct {
	state  S
	move   M     // the move from the parent to this state
	parent int32 // index of the parent, -1 for the root
}

// link returns the move that reached the node and its parent's index.
func (n treeNode[S, M]) link() (M, int32) { return n.move, n.parent }

// pathTo returns the moves from the root of nodes to nodes[i]; nodes are
// treeNodes or embed one.
func pathTo[N interface{ link() (M, int32) }, M any](nodes []N, i int32) []M {
	n := 0
	for _, p := nodes[i].link(); p >= 0; _, p = nodes[p].link() {
		n++
	}
	moves := make([]M, n)
	for j := i; n > 0; n-- {
		moves[n-1], j = nodes[j].link()
	}
	return moves
}

// BFS finds a shortest path from start to a goal by breadth-first search,
// testing states for the goal when they are generated.
//
// It stores every state it reaches, so its memory grows with the number of
// states within the solution depth: O(b^d) for branching factor b. When a
// limit of opts is hit it returns ErrBudget (wrapped) with the statistics so
// far; when the context ends, the context's error.
func BFS[S any, K comparable, M any](ctx context.Context, space Space[S, K, M], start S, opts Options) (Result[S, M], error) {
	var res Result[S, M]
	nodes, hit, lim, err := breadthFirst(ctx, space, start, opts, func(s S, _ int) bool { return space.IsGoal(s) })
	res.Stats = lim.snapshot()
	if err != nil {
		return res, err
	}
	if hit < 0 {
		return res, ErrNoSolution
	}
	res.Moves = pathTo(nodes, hit)
	res.Goal = nodes[hit].state
	return res, nil
}

// Explore visits every state reachable from start in breadth-first order,
// calling visit with each state and its distance from start, until visit
// returns false or the space is exhausted. The goal test of space is not
// used. It returns the statistics of the traversal and, when a limit of opts
// or the context stops it, the error that did.
func Explore[S any, K comparable, M any](ctx context.Context, space Space[S, K, M], start S, opts Options, visit func(s S, depth int) bool) (Stats, error) {
	_, _, lim, err := breadthFirst(ctx, space, start, opts, func(s S, d int) bool { return !visit(s, d) })
	return lim.snapshot(), err
}

// breadthFirst runs a layered breadth-first search from start until stop
// returns true for a reached state (hit is its index in nodes) or the space
// is exhausted (hit is -1).
func breadthFirst[S any, K comparable, M any](ctx context.Context, space Space[S, K, M], start S, opts Options,
	stop func(s S, depth int) bool) (nodes []treeNode[S, M], hit int32, lim *limiter[S], err error) {
	lim = newLimiter[S](ctx, space, opts, unsafe.Sizeof(treeNode[S, M]{})+mapEntryBytes[K, struct{}]())
	seen := map[K]struct{}{space.Key(start): {}}
	nodes = append(nodes, treeNode[S, M]{state: start, parent: -1})
	lim.store(start)
	if stop(start, 0) {
		return nodes, 0, lim, nil
	}
	depth, layerEnd := 0, 1
	for head := 0; head < len(nodes); head++ {
		if head == layerEnd {
			depth++
			layerEnd = len(nodes)
			lim.stats.Iterations++
		}
		if err := lim.expand(int64(len(nodes))); err != nil {
			return nodes, -1, lim, err
		}
		for m, t := range space.Successors(nodes[head].state) {
			lim.stats.Generated++
			k := space.Key(t)
			if _, ok := seen[k]; ok {
				continue
			}
			seen[k] = struct{}{}
			nodes = append(nodes, treeNode[S, M]{state: t, move: m, parent: int32(head)})
			lim.store(t)
			if stop(t, depth+1) {
				return nodes, int32(len(nodes) - 1), lim, nil
			}
		}
	}
	if len(nodes) > 0 {
		lim.stats.Iterations++
	}
	return nodes, -1, lim, nil
}

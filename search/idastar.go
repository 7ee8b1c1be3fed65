package search

import (
	"context"
	"math"
)

// IDAStar finds a shortest path from start to a goal by iterative-deepening
// A* (Korf 1985): depth-first searches bounded by f = g + h, the bound raised
// each iteration to the smallest f that exceeded it. It is optimal when h is
// admissible and stores only the current path: O(d) memory.
//
// Successors are tried in the order the space yields them. A successor
// whose key equals the grandparent's (the move undoing the last one) is
// pruned before it is counted; every other successor is counted as
// generated, including those cut off by the bound. With this convention and
// a sliding-tile space that moves the blank up, left, right, down, Generated
// is Korf's published node count minus one (the root).
//
// No other duplicates are detected, so on graphs with many short cycles it
// re-expands states, and in a space with cycles and no reachable goal it
// deepens forever: only a limit or the context stops it (ErrNoSolution is
// returned only when the depth-first tree is finite). Limits: MaxExpanded and the context; MaxStates and
// MaxBytes bound the path length.
func IDAStar[S any, K comparable, M any](ctx context.Context, space Space[S, K, M], start S, h Heuristic[S], opts Options) (Result[S, M], error) {
	var res Result[S, M]
	lim := newLimiter[S](ctx, space, opts, 0)
	var (
		moves []M
		keys  []K // keys along the current path, for the grandparent check
		bound int
		err   error
		goal  S
	)
	// dfs searches below s at cost g; it returns whether a goal was found and
	// otherwise the smallest f beyond the bound.
	var dfs func(s S, g int) (bool, int)
	dfs = func(s S, g int) (bool, int) {
		f := g + h(s)
		if f > bound {
			return false, f
		}
		if space.IsGoal(s) {
			goal = s
			return true, f
		}
		if err = lim.expand(int64(len(keys))); err != nil {
			return false, math.MaxInt
		}
		next := math.MaxInt
		for m, t := range space.Successors(s) {
			k := space.Key(t)
			if len(keys) >= 2 && k == keys[len(keys)-2] {
				continue
			}
			lim.stats.Generated++
			moves = append(moves, m)
			keys = append(keys, k)
			found, tf := dfs(t, g+1)
			if found {
				return true, tf
			}
			moves = moves[:len(moves)-1]
			keys = keys[:len(keys)-1]
			if err != nil {
				return false, math.MaxInt
			}
			next = min(next, tf)
		}
		return false, next
	}

	keys = append(keys, space.Key(start))
	bound = h(start)
	for {
		lim.stats.Iterations++
		found, next := dfs(start, 0)
		res.Stats = lim.snapshot()
		switch {
		case found:
			res.Moves = moves
			res.Goal = goal
			return res, nil
		case err != nil:
			return res, err
		case next == math.MaxInt:
			return res, ErrNoSolution
		}
		if opts.Progress != nil {
			opts.Progress(res.Stats)
		}
		bound = next
	}
}

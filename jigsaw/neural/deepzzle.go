package neural

import (
	"container/heap"
	"context"
	"fmt"
	"math"
	"time"
)

// Deepzzle is a baseline in the manner of Deepzzle (Paumard, Picard and
// Tabia, "Deepzzle: Solving Visual Jigsaw Puzzles With Deep Learning and
// Shortest Path Optimization", IEEE TIP 2020), the method Alphazzle
// compares itself with (its Table 5): a pairwise classifier scores where
// one patch lies relative to another, and a shortest path through the
// graph of partial reassemblies finds the reassembly of least total cost.
// Here the pairwise classifier is the model's pair network (its table:
// right or lower neighbour, normalised both ways; Deepzzle's own network
// classifies eight positions around a central patch) and the graph fills
// the cells in raster order, each edge putting an unused patch in the next
// cell at the cost -(log P(b | a) + log P(a | b))/2 for each of its left
// and upper neighbours a. Uniform-cost search (Dijkstra) returns the
// cheapest complete reassembly; at MaxNodes nodes it completes the
// deepest cheapest one greedily. It uses Options.Hints and CentralHint
// (the hints' cells take only their patch, as Deepzzle's central
// fragment) and Seed; no P, V or MCTS.
type Deepzzle struct {
	Model   *Model
	Options Options
	// MaxNodes bounds the search (0: 2^21 nodes, about 50 MB).
	MaxNodes int
}

// Solve reassembles pz.
func (d Deepzzle) Solve(ctx context.Context, pz *Puzzle) (Result, error) {
	start := time.Now()
	opts := d.Options.defaults()
	if err := d.Model.Fits(pz.Geometry); err != nil {
		return Result{}, err
	}
	if err := opts.check(pz, algoMCTS); err != nil {
		return Result{}, err
	}
	t, err := d.Model.Table(pz)
	if err != nil {
		return Result{}, err
	}
	res, err := ShortestPath(ctx, t, pz, HintPatches(pz, opts), d.MaxNodes)
	res.Elapsed = time.Since(start)
	return res, err
}

// dzNode is a partial reassembly of the shortest-path search: the cells
// 0..depth-1 filled, the last with patch.
type dzNode struct {
	cost   float64
	parent int32
	patch  int8
	depth  int8
	used   uint64
}

type dzHeap struct {
	idx   []int32
	nodes *[]dzNode
}

func (h dzHeap) Len() int { return len(h.idx) }
func (h dzHeap) Less(i, j int) bool {
	a, b := &(*h.nodes)[h.idx[i]], &(*h.nodes)[h.idx[j]]
	if a.cost != b.cost {
		return a.cost < b.cost
	}
	return a.depth > b.depth
}
func (h dzHeap) Swap(i, j int) { h.idx[i], h.idx[j] = h.idx[j], h.idx[i] }
func (h *dzHeap) Push(x any)   { h.idx = append(h.idx, x.(int32)) }
func (h *dzHeap) Pop() any     { x := h.idx[len(h.idx)-1]; h.idx = h.idx[:len(h.idx)-1]; return x }
func dzCost(t *Table, d, a, b int) float64 {
	i := a*t.N + b
	return -float64(t.Fwd[d][i]+t.Bwd[d][i]) / 2
}

// ShortestPath is Deepzzle's search on table t of pz (see Deepzzle): the
// hints (patches of pz placed in their true cells) are fixed. The result's
// Value is the mean probability exp(-cost) of its adjacencies. Stopped by
// ctx, it returns a greedy completion with the context's error.
func ShortestPath(ctx context.Context, t *Table, pz *Puzzle, hints []int, maxNodes int) (Result, error) {
	n, grid := pz.Cells(), pz.Grid
	if pz.Fragments || pz.Patches != nil && len(pz.Patches) != n {
		return Result{}, fmt.Errorf("neural: shortest path: a puzzle of fragments (%d patches for %d cells) is not its game", len(pz.Patches), n)
	}
	if n > 64 {
		return Result{}, fmt.Errorf("neural: shortest path: %d patches, at most 64", n)
	}
	if maxNodes <= 0 {
		maxNodes = 1 << 21
	}
	fixed := make([]int, n) // the hint patch of each cell, -1 for none
	for c := range fixed {
		fixed[c] = -1
	}
	var hinted uint64
	for _, p := range hints {
		fixed[pz.Truth[p]] = p
		hinted |= 1 << p
	}
	nodes := []dzNode{{parent: -1, patch: -1}}
	h := &dzHeap{nodes: &nodes}
	heap.Push(h, int32(0))
	deepest := int32(0)
	// step returns the cost of putting patch b in cell c below node at.
	step := func(at int32, c, b int) float64 {
		cost := 0.0
		if c%grid > 0 {
			cost += dzCost(t, Right, patchAt(nodes, at, c-1), b)
		}
		if c >= grid {
			cost += dzCost(t, Below, patchAt(nodes, at, c-grid), b)
		}
		return cost
	}
	candidates := func(nd *dzNode) []int {
		c := int(nd.depth)
		if fixed[c] >= 0 {
			return []int{fixed[c]}
		}
		var out []int
		for b := range n {
			if nd.used&(1<<b) == 0 && hinted&(1<<b) == 0 {
				out = append(out, b)
			}
		}
		return out
	}
	var stopErr error
	found := int32(-1)
	for pops := 1; h.Len() > 0; pops++ {
		at := heap.Pop(h).(int32)
		nd := nodes[at]
		if int(nd.depth) == n {
			found = at
			break
		}
		if nd.depth > nodes[deepest].depth || nd.depth == nodes[deepest].depth && nd.cost < nodes[deepest].cost {
			deepest = at
		}
		if pops&1023 == 0 {
			if err := ctx.Err(); err != nil {
				stopErr = err
				break
			}
		}
		if len(nodes)+n > maxNodes {
			break
		}
		c := int(nd.depth)
		for _, b := range candidates(&nd) {
			nodes = append(nodes, dzNode{cost: nd.cost + step(at, c, b), parent: at, patch: int8(b), depth: nd.depth + 1, used: nd.used | 1<<b})
			heap.Push(h, int32(len(nodes)-1))
		}
	}
	if found < 0 { // complete the deepest node greedily
		at := deepest
		for int(nodes[at].depth) < n {
			nd := nodes[at]
			c, bb, bc := int(nd.depth), -1, math.Inf(1)
			for _, b := range candidates(&nd) {
				if k := step(at, c, b); k < bc {
					bb, bc = b, k
				}
			}
			nodes = append(nodes, dzNode{cost: nd.cost + bc, parent: at, patch: int8(bb), depth: nd.depth + 1, used: nd.used | 1<<bb})
			at = int32(len(nodes) - 1)
		}
		found = at
	}
	cells := make([]int, n)
	for at := found; nodes[at].parent >= 0; at = nodes[at].parent {
		cells[nodes[at].patch] = int(nodes[at].depth) - 1
	}
	edges := 2 * grid * (grid - 1)
	res := Result{Cells: cells, Value: math.Exp(-nodes[found].cost / float64(edges)), Reward: -1,
		Attempts: []Attempt{{Cells: cells}}, Evaluations: int64(len(nodes))}
	res.Attempts[0].Value = res.Value
	if pz.Truth != nil {
		if pz.Score(cells).Perfect {
			res.Reward = 1
		} else {
			res.Reward = 0
		}
	}
	if stopErr != nil {
		return res, fmt.Errorf("neural: shortest path: %w", stopErr)
	}
	return res, nil
}

// patchAt returns the patch of cell c in the partial reassembly of node
// at (c below its depth).
func patchAt(nodes []dzNode, at int32, c int) int {
	for ; int(nodes[at].depth)-1 != c; at = nodes[at].parent {
	}
	return int(nodes[at].patch)
}

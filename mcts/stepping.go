package mcts

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// node is a tree node. Children of a node are contiguous in the node array.
type node[M any] struct {
	move     M
	parent   int32
	first    int32 // first child; -1 until expanded
	kids     int32
	visits   int32
	pending  int32 // leaves below waiting for the Evaluator
	terminal bool
	// exhausted: a terminal node, or an expanded one whose children are
	// all exhausted; its subtree holds nothing the search has not met.
	exhausted bool
	prior     float32
	sum       float64
	sumSq     float64
	max       float64 // the highest value backed up: a terminal's value
}

// Tree is a Monte-Carlo search tree that steps through a game: Think
// grows it from the current state (the root), Best names the move it
// recommends, Advance plays a move and keeps the subtree below it as the
// new tree, and Children shows the root's statistics. Selection, backup,
// choice, Evaluator and batches are those of TreeOptions; Search is a Tree
// that thinks once, for a whole game.
//
//	t := mcts.NewTree(state, mcts.TreeOptions[*S, M]{Selection: mcts.PUCT, Evaluator: ev, Batch: 8})
//	for len(t.State().Moves(nil)) > 0 {
//		if err := t.Think(ctx, 100); err != nil {
//			return err
//		}
//		t.Advance(t.Best())
//	}
//
// A Tree is not safe for concurrent use.
type Tree[G Game[G, M], M any] struct {
	*run[M]
	opts     TreeOptions[G, M]
	root     G   // the current state, owned by the tree
	played   []M // the moves advanced from the first root
	nodes    []node[M]
	spare    []node[M] // the other buffer of Advance's compaction
	created  int64
	lo, hi   float64 // the value bounds: fixed, or the lowest and highest seen
	fixed    bool
	states   []G   // one state per leaf of a batch
	paths    [][]M // the moves to each leaf of a batch, from the first root
	leaves   []Leaf[G, M]
	leafNode []int32
	moves    []M
	tail     []M
	stall    int64 // iterations in a row that only revisited terminal states
}

// NewTree returns a tree of one node for a copy of root (root is not
// changed). The zero values of opts mean the defaults of TreeOptions;
// MaxIterations is not used (Think takes its count).
func NewTree[G Game[G, M], M any](root G, opts TreeOptions[G, M]) *Tree[G, M] {
	opts = opts.defaults()
	t := &Tree[G, M]{run: newRun[M](context.Background(), opts.Budget, 0x74726565), opts: opts,
		root: root.Clone(), lo: math.Inf(1), hi: math.Inf(-1), created: 1}
	if opts.MaxValue > opts.MinValue {
		t.lo, t.hi, t.fixed = opts.MinValue, opts.MaxValue, true
	}
	t.nodes = append(t.nodes, node[M]{parent: -1, first: -1})
	t.states = make([]G, opts.Batch)
	for i := range t.states {
		t.states[i] = root.Clone()
	}
	t.paths = make([][]M, opts.Batch)
	t.leaves = make([]Leaf[G, M], 0, opts.Batch)
	t.leafNode = make([]int32, 0, opts.Batch)
	return t
}

// Think runs n more iterations (an iteration values one leaf: a playout,
// an evaluation, or a terminal state met again) from the root, or fewer
// when ctx ends, the playout budget is spent, the Evaluator fails or the
// root is terminal. It returns nil, or an error wrapping the context's
// error, ErrBudget or the Evaluator's error; the tree stays usable after
// any of them (a budget spent stays spent).
func (t *Tree[G, M]) Think(ctx context.Context, n int64) error {
	t.ctx = ctx
	if t.err != nil && !errors.Is(t.err, ErrBudget) {
		t.err = nil
	}
	for done := int64(0); done < n && !t.nodes[0].terminal; {
		if t.stopped() {
			return t.err
		}
		k, err := t.step(n - done)
		done += k
		if err != nil {
			return err
		}
	}
	return t.err
}

// Over reports whether the root is known to be terminal: Think found it
// has no move (an unexpanded root may be terminal too).
func (t *Tree[G, M]) Over() bool { return t.nodes[0].terminal }

// Best returns the index (in Children) of the root's child that
// TreeOptions.Choice prefers, or -1 when the root is not expanded.
func (t *Tree[G, M]) Best() int {
	p := &t.nodes[0]
	if p.kids == 0 {
		return -1
	}
	b := p.first
	for c := p.first; c < p.first+p.kids; c++ {
		if t.better(c, b) {
			b = c
		}
	}
	return int(b - p.first)
}

// better reports whether child a is to be played rather than child b.
func (t *Tree[G, M]) better(a, b int32) bool {
	na, nb := &t.nodes[a], &t.nodes[b]
	if t.opts.Choice == ByValue {
		if (na.visits > 0) != (nb.visits > 0) {
			return na.visits > 0
		}
		if na.visits == 0 {
			return na.prior > nb.prior
		}
		return t.value(na) > t.value(nb)
	}
	if na.visits != nb.visits {
		return na.visits > nb.visits
	}
	return na.prior > nb.prior
}

// Advance plays the root's i-th move (the index in Children, which is the
// order of the root's Moves) and makes the subtree below it the new tree;
// the rest of the tree is dropped. On a root not yet expanded the tree
// restarts from the new state. It returns an error when i is out of range.
// Cost: O(size of the kept subtree).
func (t *Tree[G, M]) Advance(i int) error {
	p := t.nodes[0]
	if p.kids == 0 {
		t.moves = t.root.Moves(t.moves[:0])
		if i < 0 || i >= len(t.moves) {
			return fmt.Errorf("mcts: advance: move %d of %d", i, len(t.moves))
		}
		m := t.moves[i]
		t.root.Play(m)
		t.played = append(t.played, m)
		t.nodes = append(t.nodes[:0], node[M]{parent: -1, first: -1})
		t.created++
		return nil
	}
	if i < 0 || i >= int(p.kids) {
		return fmt.Errorf("mcts: advance: move %d of %d", i, p.kids)
	}
	c := p.first + int32(i)
	t.root.Play(t.nodes[c].move)
	t.played = append(t.played, t.nodes[c].move)
	// Copy the subtree breadth first: children stay contiguous and in
	// order.
	next := append(t.spare[:0], t.nodes[c])
	next[0].parent = -1
	for j := 0; j < len(next); j++ {
		first, kids := next[j].first, next[j].kids
		if kids == 0 {
			continue
		}
		next[j].first = int32(len(next))
		for o := first; o < first+kids; o++ {
			nd := t.nodes[o]
			nd.parent = int32(j)
			next = append(next, nd)
		}
	}
	t.nodes, t.spare = next, t.nodes
	return nil
}

// NodeStats describes a node of the tree: the move that leads to it, its
// completed visits, its prior (normalised; uniform without an Evaluator),
// the mean and the highest of the values backed up through it (on the
// scale of Game.Score), and whether it is a terminal state (then Max is
// its value).
type NodeStats[M any] struct {
	Move      M
	Visits    int
	Prior     float64
	Mean, Max float64
	Terminal  bool
}

func (t *Tree[G, M]) nodeStats(nd *node[M]) NodeStats[M] {
	s := NodeStats[M]{Move: nd.move, Visits: int(nd.visits), Prior: float64(nd.prior), Terminal: nd.terminal}
	if nd.visits > 0 {
		s.Mean, s.Max = nd.sum/float64(nd.visits), nd.max
	}
	return s
}

// Children returns the statistics of the root's children, in the order
// of the root's Moves. On a root not yet expanded it lists the legal
// moves with no visits and uniform priors.
func (t *Tree[G, M]) Children() []NodeStats[M] {
	p := &t.nodes[0]
	if p.kids == 0 {
		moves := t.root.Moves(nil)
		out := make([]NodeStats[M], len(moves))
		for i, m := range moves {
			out[i] = NodeStats[M]{Move: m, Prior: 1 / float64(len(moves))}
		}
		return out
	}
	out := make([]NodeStats[M], p.kids)
	for i := range out {
		out[i] = t.nodeStats(&t.nodes[p.first+int32(i)])
	}
	return out
}

// Root returns the statistics of the root (Move: the last move advanced).
func (t *Tree[G, M]) Root() NodeStats[M] { return t.nodeStats(&t.nodes[0]) }

// State returns the root's state. It belongs to the tree: the caller must
// not change it.
func (t *Tree[G, M]) State() G { return t.root }

// Played returns the moves advanced since NewTree, in order.
func (t *Tree[G, M]) Played() []M { return t.played }

// Result returns the best complete sequence (from NewTree's root) the
// tree has met so far, its score and the statistics; Moves is empty when
// none was met.
func (t *Tree[G, M]) Result() Result[M] {
	res, _ := t.result()
	return res
}

// Stats returns the work done since NewTree (Nodes counts every node
// created, including those Advance dropped).
func (t *Tree[G, M]) Stats() Stats { return t.snapshot() }

// step runs at most limit iterations: without an Evaluator one, with one
// batch of at most Batch leaves (terminal states met on the way are backed
// up at once and count too). It returns the iterations done.
func (t *Tree[G, M]) step(limit int64) (int64, error) {
	if t.opts.Evaluator == nil {
		st := t.states[0]
		n := t.descend(st, 0)
		t.stats.Iterations++
		if nd := &t.nodes[n]; nd.terminal {
			t.offer(nd.max, t.paths[0], nil)
			t.backup(n, nd.max)
			t.exhaust(n)
			t.stall++
			return 1, nil
		}
		t.stall = 0
		t.expandAndPlay(n, st, 0)
		return 1, nil
	}
	t.leaves, t.leafNode = t.leaves[:0], t.leafNode[:0]
	done := int64(0)
	for len(t.leaves) < t.opts.Batch && done+int64(len(t.leaves)) < limit {
		k := len(t.leaves)
		st := t.states[k]
		n := t.descend(st, k)
		nd := &t.nodes[n]
		if nd.terminal {
			done++
			t.stats.Iterations++
			t.offer(nd.max, t.paths[k], nil)
			t.backup(n, nd.max)
			t.stall++
			if t.exhaust(n) {
				break
			}
			if done&255 == 0 && t.stopped() {
				break
			}
			continue
		}
		if nd.pending > 0 { // the batch found this leaf already: evaluate what we have
			break
		}
		t.moves = st.Moves(t.moves[:0])
		if len(t.moves) == 0 && !t.opts.EvaluateTerminal {
			done++
			t.stats.Iterations++
			nd.terminal = true
			v := st.Score()
			t.offer(v, t.paths[k], nil)
			t.backup(n, v)
			continue
		}
		t.addPending(n, 1)
		leaf := Leaf[G, M]{State: st, Moves: append([]M(nil), t.moves...), Priors: make([]float64, len(t.moves))}
		t.leaves = append(t.leaves, leaf)
		t.leafNode = append(t.leafNode, n)
	}
	if len(t.leaves) == 0 {
		return done, nil
	}
	t.stall = 0
	t.stats.Batches++
	t.stats.Evaluations += int64(len(t.leaves))
	if err := t.opts.Evaluator.Evaluate(t.ctx, t.leaves); err != nil {
		for _, n := range t.leafNode {
			t.addPending(n, -1)
		}
		return done, fmt.Errorf("mcts: evaluator: %w", err)
	}
	for i, leaf := range t.leaves {
		n := t.leafNode[i]
		t.addPending(n, -1)
		t.stats.Iterations++
		done++
		if len(leaf.Moves) == 0 {
			t.nodes[n].terminal = true
			t.offer(leaf.Value, t.paths[i], nil)
		} else {
			t.expand(n, leaf.Moves, leaf.Priors)
		}
		t.backup(n, leaf.Value)
	}
	return done, nil
}

// exhaust marks the terminal node n exhausted, and its ancestors whose
// children are all exhausted; it reports whether the root is. Search stops
// when the root is exhausted (every complete sequence met) or after
// stallLimit iterations in a row that only revisit terminal states (a
// selection rule that starves some branches, as SP-MCTS does with
// unscaled scores): such iterations count as no playout, so a search
// bounded only by MaxPlayouts would otherwise never end. Cost: the
// children of each ancestor marked, plus one.
func (t *Tree[G, M]) exhaust(n int32) bool {
	t.nodes[n].exhausted = true
	for p := t.nodes[n].parent; p >= 0; p = t.nodes[p].parent {
		nd := &t.nodes[p]
		for c := nd.first; c < nd.first+nd.kids; c++ {
			if !t.nodes[c].exhausted {
				return false
			}
		}
		nd.exhausted = true
	}
	return t.nodes[0].exhausted
}

// descend sets st to the root's state and follows the selection rule to a
// leaf, which it returns; t.paths[k] receives the moves from the first
// root.
func (t *Tree[G, M]) descend(st G, k int) int32 {
	st.CopyFrom(t.root)
	path := append(t.paths[k][:0], t.played...)
	n := int32(0)
	for t.nodes[n].kids > 0 {
		n = t.selectChild(n)
		st.Play(t.nodes[n].move)
		path = append(path, t.nodes[n].move)
	}
	t.paths[k] = path
	return n
}

// addPending adds d to the pending leaves of n and its ancestors.
func (t *Tree[G, M]) addPending(n int32, d int32) {
	for ; n >= 0; n = t.nodes[n].parent {
		t.nodes[n].pending += d
	}
}

// expandAndPlay expands leaf n (state st, batch slot k), plays one new
// child and a playout from it, and backs the result up.
func (t *Tree[G, M]) expandAndPlay(n int32, st G, k int) {
	t.moves = st.Moves(t.moves[:0])
	if len(t.moves) == 0 {
		t.nodes[n].terminal = true
		v := st.Score()
		t.offer(v, t.paths[k], nil)
		t.backup(n, v)
		return
	}
	if t.expand(n, t.moves, nil) {
		n = t.selectChild(n)
		st.Play(t.nodes[n].move)
		t.paths[k] = append(t.paths[k], t.nodes[n].move)
	}
	t.tail = t.tail[:0]
	v := playout(st, t.opts.Policy, t.rng, &t.moves, &t.tail)
	t.playout()
	t.offer(v, t.paths[k], t.tail)
	t.backup(n, v)
}

// expand creates the children of n for moves with priors (nil: uniform)
// and reports whether it did (false when the tree is full).
func (t *Tree[G, M]) expand(n int32, moves []M, priors []float64) bool {
	if len(t.nodes)+len(moves) > t.opts.MaxNodes {
		return false
	}
	sum := 0.0
	for _, p := range priors {
		if p > 0 {
			sum += p
		}
	}
	first := int32(len(t.nodes))
	for i, m := range moves {
		p := 1 / float64(len(moves))
		if sum > 0 {
			p = max(priors[i], 0) / sum
		}
		t.nodes = append(t.nodes, node[M]{move: m, parent: n, first: -1, prior: float32(p)})
	}
	t.nodes[n].first, t.nodes[n].kids = first, int32(len(moves))
	t.created += int64(len(moves))
	t.stats.Nodes = t.created
	return true
}

// backup adds value v to n and its ancestors.
func (t *Tree[G, M]) backup(n int32, v float64) {
	if !t.fixed {
		t.lo, t.hi = min(t.lo, v), max(t.hi, v)
	}
	for ; n >= 0; n = t.nodes[n].parent {
		nd := &t.nodes[n]
		if nd.visits == 0 || v > nd.max {
			nd.max = v
		}
		nd.visits++
		nd.sum += v
		nd.sumSq += v * v
	}
}

// scale maps a value to [0, 1] by the value bounds.
func (t *Tree[G, M]) scale(v float64) float64 {
	if t.hi <= t.lo {
		return 0.5
	}
	return (v - t.lo) / (t.hi - t.lo)
}

// value is the value of nd for selection and choice: the mean of its
// values, pending leaves counting as visits of the lowest value, or with
// MaxBackup the highest value (the lowest bound while it has none).
func (t *Tree[G, M]) value(nd *node[M]) float64 {
	if t.opts.Backup == MaxBackup {
		if nd.visits == 0 {
			return t.lo
		}
		return nd.max
	}
	s := nd.sum
	if nd.pending > 0 {
		s += float64(nd.pending) * t.lo
	}
	return s / float64(nd.visits+nd.pending)
}

// selectChild returns the child of n that the selection rule prefers.
// PUCT gives a child without completed visits its parent's mean (first-play
// urgency); its pending leaves count only in the exploration term.
func (t *Tree[G, M]) selectChild(n int32) int32 {
	p := &t.nodes[n]
	parentN := float64(p.visits + p.pending)
	logN := math.Log(max(parentN, 1))
	sqrtN := math.Sqrt(max(parentN, 1))
	fpu := 0.0
	if p.visits > 0 {
		fpu = t.scale(p.sum / float64(p.visits))
	}
	best, bestVal := p.first, math.Inf(-1)
	for c := p.first; c < p.first+p.kids; c++ {
		nd := &t.nodes[c]
		k := float64(nd.visits + nd.pending)
		var val float64
		switch {
		case t.opts.Selection == PUCT:
			q := fpu
			if nd.visits > 0 {
				q = t.scale(t.value(nd))
			}
			val = q + t.opts.C*float64(nd.prior)*sqrtN/(1+k)
		case k == 0:
			return c // UCT and SP-MCTS try every child once first
		case t.opts.Selection == SPMCTS:
			mean := nd.sum / k
			if nd.pending > 0 {
				mean = (nd.sum + float64(nd.pending)*t.lo) / k
			}
			variance := (nd.sumSq - k*mean*mean + t.opts.D) / k
			v := mean
			if t.opts.Backup == MaxBackup {
				v = t.value(nd)
			}
			val = v + t.opts.C*math.Sqrt(logN/k) + math.Sqrt(max(variance, 0))
		default:
			val = t.scale(t.value(nd)) + t.opts.C*math.Sqrt(logN/k)
		}
		if val > bestVal {
			best, bestVal = c, val
		}
	}
	return best
}

// Finish follows the most visited children from the root to a leaf and
// completes the line with a playout of TreeOptions.Policy: the tree's
// recommendation as a complete game. The sequence (from NewTree's root)
// becomes a candidate of Result; Finish returns its score. Search calls it
// at its end.
func (t *Tree[G, M]) Finish() float64 {
	st := t.states[0]
	st.CopyFrom(t.root)
	path := append(t.paths[0][:0], t.played...)
	for n := int32(0); t.nodes[n].kids > 0; {
		p := &t.nodes[n]
		best := p.first
		for c := p.first; c < p.first+p.kids; c++ {
			if t.nodes[c].visits > t.nodes[best].visits {
				best = c
			}
		}
		n = best
		st.Play(t.nodes[n].move)
		path = append(path, t.nodes[n].move)
	}
	t.paths[0] = path
	t.tail = t.tail[:0]
	v := playout(st, t.opts.Policy, t.rng, &t.moves, &t.tail)
	t.offer(v, path, t.tail)
	return v
}

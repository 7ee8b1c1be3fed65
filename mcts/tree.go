package mcts

import (
	"context"
	"fmt"
	"math"
)

// Selection is the rule that picks the child to descend to in a tree
// search.
type Selection uint8

const (
	// UCT is UCB1 applied to trees (Kocsis and Szepesvári 2006): mean
	// value plus C*sqrt(ln N / n), on values scaled to [0, 1] by the lowest
	// and highest values seen.
	UCT Selection = iota
	// SPMCTS is single-player MCTS (Schadd, Winands, van den Herik,
	// Chaslot, Uiterwijk, "Single-Player Monte-Carlo Tree Search", CG
	// 2008): UCT on raw scores plus a variance term
	// sqrt((sum of squares - n*mean^2 + D) / n), which keeps exploring
	// children whose few results spread widely.
	SPMCTS
	// PUCT is the AlphaZero rule (Silver et al. 2017/2018): scaled mean
	// value plus C * prior * sqrt(N) / (1 + n), with priors from an
	// Evaluator (uniform without one).
	PUCT
)

// String returns "uct", "sp-mcts" or "puct".
func (s Selection) String() string {
	switch s {
	case UCT:
		return "uct"
	case SPMCTS:
		return "sp-mcts"
	case PUCT:
		return "puct"
	}
	return fmt.Sprintf("Selection(%d)", uint8(s))
}

// Evaluator estimates states for a tree search: a prior probability for
// every legal move and a value. It is how a learned policy and value (a
// neural network) enter the search; calls get batches of leaves so that a
// network can evaluate them together.
type Evaluator[G any, M any] interface {
	// Evaluate fills Priors and Value of every leaf. It must not keep the
	// leaves or change their states and moves.
	Evaluate(ctx context.Context, leaves []Leaf[G, M]) error
}

// Leaf is a state waiting for an Evaluator.
type Leaf[G any, M any] struct {
	// State is the leaf's state and Moves its legal moves (never empty).
	State G
	Moves []M
	// Priors receives one weight per move (len(Moves) entries, zeroed);
	// the search normalises them and uses uniform priors if they sum to 0.
	Priors []float64
	// Value receives an estimate of the final score reachable from State,
	// on the scale of Game.Score.
	Value float64
}

// EvaluatorFunc adapts a function that evaluates one leaf to an Evaluator.
type EvaluatorFunc[G any, M any] func(leaf *Leaf[G, M]) error

// Evaluate calls f on every leaf.
func (f EvaluatorFunc[G, M]) Evaluate(_ context.Context, leaves []Leaf[G, M]) error {
	for i := range leaves {
		if err := f(&leaves[i]); err != nil {
			return err
		}
	}
	return nil
}

// TreeOptions configure Search.
type TreeOptions[G any, M any] struct {
	Budget
	// Selection is the child-selection rule; the zero value is UCT.
	Selection Selection
	// C is the exploration constant. Zero means 0.7 for UCT (values
	// scaled to [0, 1]), 0.5 for SP-MCTS (raw scores, Schadd et al.) and
	// 1.5 for PUCT.
	C float64
	// D is SP-MCTS's variance constant; zero means 10,000 (Schadd et al.).
	D float64
	// Policy plays the playouts from new leaves; nil means Uniform. It is
	// not used for the leaves an Evaluator values.
	Policy Policy[G, M]
	// Evaluator, when set, gives the priors and the value of every new
	// leaf instead of a playout (AlphaZero style).
	Evaluator Evaluator[G, M]
	// Batch is the number of leaves given to the Evaluator at once; zero
	// means 1. Leaves of one batch are selected with virtual losses (a
	// pending leaf counts as a visit of the lowest value seen), so they
	// differ.
	Batch int
	// MaxNodes bounds the tree; when it is full, leaves are valued (by
	// playout or Evaluator) without being expanded. Zero means 2^22.
	MaxNodes int
	// MaxIterations stops the search after this many iterations (0: no
	// limit besides the context and the playouts).
	MaxIterations int64
}

// node is a tree node. Children of a node are contiguous in the node array.
type node[M any] struct {
	move     M
	parent   int32
	first    int32 // first child; -1 until expanded
	kids     int32
	visits   int32
	pending  int32 // leaves below waiting for the Evaluator
	terminal bool
	prior    float32
	sum      float64
	sumSq    float64
}

// Search runs Monte-Carlo tree search from root for a single-player game
// and returns the best complete sequence found: every playout (and every
// terminal state reached in the tree) is a candidate. An iteration selects
// a path with opts.Selection, expands the leaf (all its children at once,
// with their priors), values it by a playout or by the Evaluator, and backs
// the value up. At the end the most visited path is completed with a
// playout and offered too.
//
// The tree needs about 64 bytes plus the size of M per node. Stopped by
// the context or a budget, it returns the best sequence so far with an
// error wrapping the context's error or ErrBudget; it returns nil when
// MaxIterations ends it.
func Search[G Game[G, M], M any](ctx context.Context, root G, opts TreeOptions[G, M]) (Result[M], error) {
	if opts.C == 0 {
		opts.C = [...]float64{UCT: 0.7, SPMCTS: 0.5, PUCT: 1.5}[opts.Selection]
	}
	if opts.D == 0 {
		opts.D = 10000
	}
	if opts.Policy == nil {
		opts.Policy = Uniform[G, M]{}
	}
	if opts.Batch <= 0 || opts.Evaluator == nil {
		opts.Batch = 1
	}
	if opts.MaxNodes <= 0 {
		opts.MaxNodes = 1 << 22
	}
	t := &tree[G, M]{run: newRun[M](ctx, opts.Budget, 0x74726565), opts: opts, root: root,
		lo: math.Inf(1), hi: math.Inf(-1)}
	t.nodes = append(t.nodes, node[M]{parent: -1, first: -1})
	t.states = make([]G, opts.Batch)
	for i := range t.states {
		t.states[i] = root.Clone()
	}
	t.paths = make([][]M, opts.Batch)
	t.leaves = make([]Leaf[G, M], 0, opts.Batch)
	t.leafNode = make([]int32, 0, opts.Batch)
	for !t.stopped() {
		if opts.MaxIterations > 0 && t.stats.Iterations >= opts.MaxIterations {
			break
		}
		if err := t.step(); err != nil {
			t.err = err
			break
		}
	}
	if t.err == nil || !t.found {
		t.finishPrincipal()
	}
	return t.result()
}

type tree[G Game[G, M], M any] struct {
	*run[M]
	opts     TreeOptions[G, M]
	root     G
	nodes    []node[M]
	lo, hi   float64 // the lowest and highest values backed up
	states   []G     // one state per leaf of a batch
	paths    [][]M   // the moves to each leaf of a batch
	leaves   []Leaf[G, M]
	leafNode []int32
	moves    []M
	tail     []M
	priors   []float64
}

// step runs one batch of iterations (one iteration without an Evaluator).
func (t *tree[G, M]) step() error {
	t.leaves, t.leafNode = t.leaves[:0], t.leafNode[:0]
	for k := 0; k < t.opts.Batch; k++ {
		st := t.states[k]
		st.CopyFrom(t.root)
		path := t.paths[k][:0]
		n := int32(0)
		for t.nodes[n].kids > 0 {
			n = t.selectChild(n)
			st.Play(t.nodes[n].move)
			path = append(path, t.nodes[n].move)
		}
		t.paths[k] = path
		nd := &t.nodes[n]
		if nd.terminal {
			t.stats.Iterations++
			v := st.Score()
			t.offer(v, path, nil)
			t.backup(n, v)
			continue
		}
		if t.opts.Evaluator == nil {
			t.stats.Iterations++
			t.expandAndPlay(n, st, k)
			if t.err != nil {
				return nil
			}
			continue
		}
		if nd.pending > 0 { // the batch found this leaf already: evaluate what we have
			break
		}
		t.moves = st.Moves(t.moves[:0])
		if len(t.moves) == 0 {
			t.stats.Iterations++
			nd.terminal = true
			v := st.Score()
			t.offer(v, path, nil)
			t.backup(n, v)
			continue
		}
		for m := n; m >= 0; m = t.nodes[m].parent {
			t.nodes[m].pending++
		}
		leaf := Leaf[G, M]{State: st, Moves: append([]M(nil), t.moves...), Priors: make([]float64, len(t.moves))}
		t.leaves = append(t.leaves, leaf)
		t.leafNode = append(t.leafNode, n)
	}
	if len(t.leaves) == 0 {
		return nil
	}
	t.stats.Batches++
	t.stats.Evaluations += int64(len(t.leaves))
	if err := t.opts.Evaluator.Evaluate(t.ctx, t.leaves); err != nil {
		return fmt.Errorf("mcts: evaluator: %w", err)
	}
	for i, leaf := range t.leaves {
		n := t.leafNode[i]
		for m := n; m >= 0; m = t.nodes[m].parent {
			t.nodes[m].pending--
		}
		t.stats.Iterations++
		t.expand(n, leaf.Moves, leaf.Priors)
		t.backup(n, leaf.Value)
	}
	return nil
}

// expandAndPlay expands leaf n (state st, batch slot k), plays one new
// child and a playout from it, and backs the result up.
func (t *tree[G, M]) expandAndPlay(n int32, st G, k int) {
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
func (t *tree[G, M]) expand(n int32, moves []M, priors []float64) bool {
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
	t.stats.Nodes = int64(len(t.nodes))
	return true
}

// backup adds value v to n and its ancestors.
func (t *tree[G, M]) backup(n int32, v float64) {
	t.lo, t.hi = min(t.lo, v), max(t.hi, v)
	for ; n >= 0; n = t.nodes[n].parent {
		nd := &t.nodes[n]
		nd.visits++
		nd.sum += v
		nd.sumSq += v * v
	}
}

// scale maps a value to [0, 1] by the lowest and highest values seen.
func (t *tree[G, M]) scale(v float64) float64 {
	if t.hi <= t.lo {
		return 0.5
	}
	return (v - t.lo) / (t.hi - t.lo)
}

// selectChild returns the child of n that the selection rule prefers.
func (t *tree[G, M]) selectChild(n int32) int32 {
	p := &t.nodes[n]
	parentN := float64(p.visits + p.pending)
	logN := math.Log(max(parentN, 1))
	sqrtN := math.Sqrt(max(parentN, 1))
	fpu := 0.0 // PUCT's value of an unvisited child: the parent's mean
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
			if k > 0 {
				q = t.scale((nd.sum + float64(nd.pending)*t.lo) / k)
			}
			val = q + t.opts.C*float64(nd.prior)*sqrtN/(1+k)
		case k == 0:
			return c // UCT and SP-MCTS try every child once first
		case t.opts.Selection == SPMCTS:
			mean := (nd.sum + float64(nd.pending)*t.lo) / k
			variance := (nd.sumSq - k*mean*mean + t.opts.D) / k
			val = mean + t.opts.C*math.Sqrt(logN/k) + math.Sqrt(max(variance, 0))
		default:
			val = t.scale((nd.sum+float64(nd.pending)*t.lo)/k) + t.opts.C*math.Sqrt(logN/k)
		}
		if val > bestVal {
			best, bestVal = c, val
		}
	}
	return best
}

// finishPrincipal follows the most visited children from the root and
// completes the path with a playout: the search's recommendation, offered
// as a candidate sequence.
func (t *tree[G, M]) finishPrincipal() {
	st := t.states[0]
	st.CopyFrom(t.root)
	path := t.paths[0][:0]
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
	t.tail = t.tail[:0]
	v := playout(st, t.opts.Policy, t.rng, &t.moves, &t.tail)
	t.offer(v, path, t.tail)
}

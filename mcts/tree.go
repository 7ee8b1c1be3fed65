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
	// State is the leaf's state and Moves its legal moves: never empty,
	// but for the terminal states of TreeOptions.EvaluateTerminal.
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

// Backup is how a tree search aggregates the values backed up below a
// node.
type Backup uint8

const (
	// MeanBackup averages them (UCT, SP-MCTS, AlphaZero).
	MeanBackup Backup = iota
	// MaxBackup keeps the highest: in a single-player game one good line
	// is enough. Pending leaves do not lower it (they count only in the
	// exploration terms).
	MaxBackup
)

// Choice is how Tree.Best picks the move to play.
type Choice uint8

const (
	// ByVisits picks the most visited child, ties going to the higher
	// prior, then to the first (AlphaZero).
	ByVisits Choice = iota
	// ByValue picks the child of highest value (mean or max by Backup);
	// a visited child comes before an unvisited one, and unvisited
	// children are ordered by prior.
	ByValue
)

// TreeOptions configure Search and NewTree.
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
	// pending leaf counts as a visit of the lowest value, see MinValue),
	// so they differ; terminal states met while a batch is gathered are
	// backed up at once.
	Batch int
	// EvaluateTerminal, with an Evaluator, sends the terminal states too
	// to the Evaluator, with the other leaves of their batch (no moves,
	// no priors): their value is then the Evaluator's rather than
	// Score's, computed once and kept. It suits games whose final score
	// needs the estimator itself (a learned reward).
	EvaluateTerminal bool
	// Backup is how values are aggregated: MeanBackup (the zero value) or
	// MaxBackup.
	Backup Backup
	// Choice is the rule of Tree.Best: ByVisits (the zero value) or
	// ByValue.
	Choice Choice
	// MinValue and MaxValue, when MaxValue > MinValue, are known bounds
	// of the values (scores and the Evaluator's values): UCT and PUCT
	// scale values by them rather than by the lowest and highest values
	// backed up so far, and a pending leaf counts as a visit of MinValue.
	// With [0, 1] the values are used as they are.
	MinValue, MaxValue float64
	// MaxNodes bounds the tree; when it is full, leaves are valued (by
	// playout or Evaluator) without being expanded. Zero means 2^22.
	MaxNodes int
	// MaxIterations stops Search after this many iterations (0: no limit
	// besides the context and the playouts). A Tree's Think takes its own
	// count instead.
	MaxIterations int64
}

// defaults returns the options with their zero values replaced.
func (o TreeOptions[G, M]) defaults() TreeOptions[G, M] {
	if o.C == 0 {
		o.C = [...]float64{UCT: 0.7, SPMCTS: 0.5, PUCT: 1.5}[o.Selection]
	}
	if o.D == 0 {
		o.D = 10000
	}
	if o.Policy == nil {
		o.Policy = Uniform[G, M]{}
	}
	if o.Batch <= 0 || o.Evaluator == nil {
		o.Batch = 1
	}
	if o.MaxNodes <= 0 {
		o.MaxNodes = 1 << 22
	}
	return o
}

// stallLimit is how many iterations in a row may revisit terminal states
// only before Search ends (see Tree.exhaust).
const stallLimit = 1 << 20

// Search runs Monte-Carlo tree search from root for a single-player game
// and returns the best complete sequence found: every playout (and every
// terminal state reached in the tree) is a candidate. An iteration selects
// a path with opts.Selection, expands the leaf (all its children at once,
// with their priors), values it by a playout or by the Evaluator, and backs
// the value up. At the end the most visited path is completed with a
// playout and offered too. It is a Tree (NewTree) thinking from the root
// until its budget ends, never advancing: the whole game is one search.
//
// The tree needs about 72 bytes plus the size of M per node. Stopped by
// the context or a budget, it returns the best sequence so far with an
// error wrapping the context's error or ErrBudget; it returns nil when
// MaxIterations ends it. Search does not change root.
func Search[G Game[G, M], M any](ctx context.Context, root G, opts TreeOptions[G, M]) (Result[M], error) {
	t := NewTree(root, opts)
	t.ctx = ctx
	for !t.stopped() && !t.nodes[0].exhausted && t.stall < stallLimit {
		limit := int64(math.MaxInt64)
		if max := t.opts.MaxIterations; max > 0 {
			if t.stats.Iterations >= max {
				break
			}
			limit = max - t.stats.Iterations
		}
		if _, err := t.step(limit); err != nil {
			t.err = err
			break
		}
	}
	if t.err == nil || !t.found {
		t.Finish()
	}
	return t.result()
}

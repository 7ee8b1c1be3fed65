package neural

import (
	"context"
	"math"

	"tessera/mcts"
)

// treeState is a State as a game of package mcts: the moves are those of
// State.Moves (the empty cells, in increasing order, or in the unordered
// game patch*n+cell).
type treeState struct{ *State }

func (s treeState) Moves(dst []int) []int  { return s.State.Moves(dst) }
func (s treeState) Play(m int)             { s.State.PlayMove(m) }
func (s treeState) Clone() treeState       { return treeState{s.State.Clone()} }
func (s treeState) CopyFrom(src treeState) { s.State.CopyFrom(src.State) }
func (s treeState) Score() float64         { return 0 } // unused: the evaluator values the ends

// treeLeaf is a leaf of the search waiting for the networks.
type treeLeaf = mcts.Leaf[treeState, int]

// treeEvaluator gives package mcts the game's priors and values: V on the
// leaves whose value mode asks for it (every leaf by default), P on the
// unfinished ones unless the priors are uniform (at most two network
// calls per batch), the constant for the others, and for a complete
// reassembly the reward (V's value, the constant, or the oracle's).
type treeEvaluator struct{ g *game }

func (e treeEvaluator) Evaluate(_ context.Context, leaves []treeLeaf) error {
	g := e.g
	var needV, open []*State
	var openMoves [][]int
	for i := range leaves {
		s := leaves[i].State.State
		done := s.Done()
		if (done && g.opts.Reward == Predicted && g.opts.Value.EndByV()) || (!done && g.opts.Value.GameByV()) {
			needV = append(needV, s)
		}
		if !done && g.opts.Prior == PriorP {
			open = append(open, s)
			openMoves = append(openMoves, leaves[i].Moves)
		}
		if g.opts.Visit != nil {
			g.opts.Visit(s)
		}
	}
	var vals []float64
	var err error
	if len(needV) > 0 {
		if vals, err = g.values(needV); err != nil {
			return err
		}
	}
	var pri [][]float64
	if len(open) > 0 {
		if pri, err = g.movePriors(open, openMoves); err != nil {
			return err
		}
	}
	vi, oi := 0, 0
	for i := range leaves {
		l := &leaves[i]
		s := l.State.State
		if s.Done() {
			switch {
			case g.opts.Reward.Oracle():
				l.Value = g.opts.Reward.of(s, g.pz)
			case g.opts.Value.EndByV():
				l.Value = vals[vi]
				vi++
			default:
				l.Value = ValueConstant
			}
			continue
		}
		if g.opts.Value.GameByV() {
			l.Value = vals[vi]
			vi++
		} else {
			l.Value = ValueConstant
		}
		if g.opts.Prior == PriorP {
			copy(l.Priors, pri[oi])
			oi++
		}
	}
	return nil
}

// mcts plays s to the end with Monte-Carlo tree search (Silver et al.,
// "Mastering the game of Go without human knowledge", 2017, in the
// single-player form of Alphazzle, Paumard, Picard and Tabia 2021) on a
// stepping tree of package mcts: before every placement it runs opts.Sims
// simulations from the current state; each descends the tree by PUCT,
// Q + c_puct * prior * sqrt(N) / (1 + n) (or UCT, SP-MCTS: opts.Selection),
// to a leaf, which is expanded at once with P's priors on every legal move
// (AlphaZero expansion; uniform with PriorUniform) and valued by V instead
// of a random playout (or the constant: opts.Value); a complete
// reassembly is valued by the reward (V's prediction, the constant, or an
// oracle's) once and kept. Values lie
// in [0, 1] and are used unscaled. The value is backed up as a mean or a
// max. Leaves are evaluated in batches chosen with virtual losses (a
// pending leaf counts as a visit of value 0; an unvisited child keeps its
// parent's mean). Then it plays the most visited (or most valuable) child
// and keeps its subtree (Tree.Advance). The answer is the reassembly
// reached, or the best complete one met during the search when its reward
// is higher.
func (g *game) mcts(root *State) (*State, float64, error) {
	c := g.opts.CPuct
	if g.opts.Selection != SelectPUCT {
		c = g.opts.C
	}
	opts := mcts.TreeOptions[treeState, int]{Selection: g.opts.Selection.engine(), C: c, D: g.opts.D,
		Evaluator: treeEvaluator{g}, Batch: g.opts.Batch, EvaluateTerminal: true,
		MinValue: 0, MaxValue: 1, Backup: g.opts.Backup, Choice: g.opts.Choice}
	t := mcts.NewTree(treeState{root}, opts)
	// found returns the best complete reassembly met so far and its reward.
	found := func() (*State, float64) {
		res := t.Result()
		if len(res.Moves) == 0 {
			return nil, math.Inf(-1)
		}
		s := root.Clone()
		for _, m := range res.Moves {
			s.PlayMove(m)
		}
		return s, res.Score
	}
	for !t.State().Done() {
		if err := t.Think(g.ctx, int64(g.opts.Sims)); err != nil {
			s, v := found()
			if ctxErr := g.ctx.Err(); ctxErr != nil {
				err = ctxErr
			}
			return s, v, err
		}
		if g.opts.OnStep != nil {
			g.step(t, max(t.Best(), 0))
		}
		if err := t.Advance(max(t.Best(), 0)); err != nil {
			return nil, 0, err
		}
	}
	cur := t.State().State.Clone()
	val := t.Root().Max // a terminal's value
	if !t.Root().Terminal {
		v, err := g.endValue(cur)
		if err != nil {
			s, v := found()
			return s, v, err
		}
		val = v
	}
	if s, v := found(); s != nil && v > val {
		cur = s
	}
	// Report the answer's value (the attempts are compared by it).
	v, err := g.answerValue(cur)
	if err != nil {
		return cur, 0, err
	}
	return cur, v, nil
}

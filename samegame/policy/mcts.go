package policy

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"tessera/mcts"
	"tessera/samegame"
)

// Evaluator is the policy as an mcts.Evaluator for dust games
// (samegame.Position states): the priors of a leaf's moves are the policy's
// group scores, and its value is minus the clicks played plus the value
// head's estimate of the clicks left (Game.Score's scale: minus the final
// clicks). Leaves are evaluated in one batch per call. The policy must
// have a value head.
type Evaluator struct {
	P *Policy
}

// Evaluate fills the priors and values of leaves.
func (e Evaluator) Evaluate(_ context.Context, leaves []mcts.Leaf[*samegame.Position, samegame.Group]) error {
	if !e.P.value {
		return errors.New("policy: the evaluator needs a network with a value head")
	}
	boards := make([]*samegame.Board, len(leaves))
	for i, l := range leaves {
		boards[i] = l.State.Board()
	}
	logits, err := e.P.logits(boards)
	if err != nil {
		return err
	}
	stride := e.P.net.Spec().Outputs
	for i := range leaves {
		l := &leaves[i]
		copy(l.Priors, e.P.groupScores(logits[i*stride:(i+1)*stride], boards[i], l.Moves))
		l.Value = -float64(l.State.Clicks()) - e.P.value1(logits, i, boards[i])
	}
	return nil
}

// MCTSOptions configure MCTS. The zero value means 200 iterations per
// click in batches of 16 and PUCT's constant 1.5.
type MCTSOptions struct {
	// Iterations is the number of tree iterations (leaf evaluations) of
	// the search before each click.
	Iterations int64
	// Batch is the number of leaves evaluated per network call.
	Batch int
	// C is PUCT's exploration constant.
	C float64
}

// MCTS plays a dust board click by click with Monte-Carlo tree search
// guided by the network, AlphaZero style (Silver et al. 2017): one tree of
// package mcts (mcts.Tree) with PUCT selection, the policy's scores as
// priors and the value head's estimate at the leaves instead of random
// playouts (Evaluator) thinks Iterations more iterations before each
// click, then completes its most visited line with Lookahead (Tree.Finish);
// after the click the tree keeps the subtree below it, so what it learned
// about the rest of the game carries over. MCTS keeps the shortest complete
// line seen (the first is Lookahead's from the start) and clicks that
// line's next group, so the answer is never longer than Lookahead's.
// Stopped by ctx, it returns the best line so far with the context's
// error. Cost: about clicks x Iterations/Batch network calls of Batch
// positions; the tree holds the subtrees kept (Solution.Nodes counts
// every node created).
func (p *Policy) MCTS(ctx context.Context, b *samegame.Board, opts MCTSOptions) (samegame.Solution, error) {
	start := time.Now()
	if opts.Iterations <= 0 {
		opts.Iterations = 200
	}
	if opts.Batch <= 0 {
		opts.Batch = 16
	}
	sol, err := p.Lookahead(ctx, b)
	if err != nil {
		return sol, err
	}
	t := mcts.NewTree(samegame.NewPosition(b, false), mcts.TreeOptions[*samegame.Position, samegame.Group]{
		Selection: mcts.PUCT, C: opts.C, Evaluator: Evaluator{P: p}, Batch: opts.Batch,
		Policy: lookaheadPolicy{p}})
	for k := 0; k < len(sol.Moves) && !t.State().Board().GameOver(); k++ {
		err := t.Think(ctx, opts.Iterations)
		sol.Nodes = t.Stats().Nodes
		if err != nil {
			sol.Elapsed = time.Since(start)
			if ctx.Err() != nil {
				return sol, fmt.Errorf("policy: %w", ctx.Err())
			}
			return sol, fmt.Errorf("policy: %w", err)
		}
		t.Finish()
		// Every line the tree meets starts with the clicks played, so a
		// shorter one continues from here.
		if res := t.Result(); len(res.Moves) > 0 && len(res.Moves) < len(sol.Moves) {
			sol.Moves = movesOf(res.Moves)
		}
		i := slices.IndexFunc(t.Children(), func(c mcts.NodeStats[samegame.Group]) bool { return c.Move.Move() == sol.Moves[k] })
		if i < 0 {
			return sol, fmt.Errorf("policy: click %v is not a group of the board", sol.Moves[k])
		}
		if err := t.Advance(i); err != nil {
			return sol, fmt.Errorf("policy: %w", err)
		}
	}
	sol.Clicks = len(sol.Moves)
	sol.Elapsed = time.Since(start)
	return sol, nil
}

// lookaheadPolicy is Lookahead's choice as a playout policy of package
// mcts.
type lookaheadPolicy struct{ p *Policy }

func (l lookaheadPolicy) Choose(pos *samegame.Position, moves []samegame.Group, _ *rand.Rand) int {
	i, err := l.p.lookahead(pos.Board(), moves)
	if err != nil {
		return 0
	}
	return i
}

func movesOf(gs []samegame.Group) []samegame.Move {
	m := make([]samegame.Move, len(gs))
	for i, g := range gs {
		m[i] = g.Move()
	}
	return m
}

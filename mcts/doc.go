// Package mcts holds generic single-player Monte-Carlo searches: tree
// search with UCT, SP-MCTS or PUCT selection (the last with an Evaluator
// that gives priors and values, in batches), mean or max backup, as a
// stepping Tree or as one whole-game Search; Nested Monte-Carlo Search and
// Nested Rollout Policy Adaptation. It imports nothing of the project.
//
// A game is a mutable state type G (usually a pointer) with moves of type
// M that implements Game: Moves appends the legal moves (none: the game is
// over), Play makes one, Score scores the state (searches maximise the
// final score), Clone and CopyFrom copy it. NRPA also needs move codes
// (Coded): a number per move in its context, the key of the learned
// policy.
//
//	type counter struct{ n, steps int }
//
//	func (c *counter) Moves(dst []int) []int {
//		if c.steps == 3 {
//			return dst
//		}
//		return append(dst, 1, 2)
//	}
//	func (c *counter) Play(m int)             { c.n, c.steps = c.n*m+m, c.steps+1 }
//	func (c *counter) Score() float64         { return float64(c.n) }
//	func (c *counter) Clone() *counter        { d := *c; return &d }
//	func (c *counter) CopyFrom(src *counter)  { *c = *src }
//	func (c *counter) Code(m int) uint64      { return uint64(c.steps*2 + m) }
//
//	res, err := mcts.NRPA(ctx, &counter{}, mcts.NRPAOptions{Level: 2, Iterations: 10})
//	// res.Moves = [2 2 2], res.Score = 14
//
// Every search takes a context and a Budget (playouts, seed, progress) and
// returns a Result: the best complete sequence found, its score and Stats.
// Stopped early by the context or the budget, a search returns the best
// sequence so far together with an error wrapping the context's error or
// ErrBudget. Randomness comes from the Budget's seed only, so a run is
// repeatable.
//
// A Tree steps through a game, as a player does: Think runs more
// iterations from the current state, Children shows the root's
// statistics (visits, priors, mean and max values), Best names the move
// TreeOptions.Choice prefers (most visits, or highest value) and Advance
// plays a move and keeps the subtree below it, so the next Think starts
// from what the last one learned:
//
//	t := mcts.NewTree(state, mcts.TreeOptions[*S, M]{Selection: mcts.PUCT, Evaluator: ev, Batch: 8})
//	for len(t.State().Moves(nil)) > 0 {
//		if err := t.Think(ctx, 200); err != nil {
//			return err
//		}
//		t.Advance(t.Best())
//	}
//
// Search is a Tree that thinks once from the root and returns the best
// complete sequence it met. With an Evaluator whose values are known to
// lie in a range (a probability), TreeOptions.MinValue and MaxValue fix
// the scale; EvaluateTerminal lets the Evaluator value the final states
// too, when the score itself is learned. jigsaw/neural (Alphazzle) and
// samegame/policy play with a Tree; samegame's mcts solver runs Search.
//
// NRPALevel, NRPAPolicy and AdaptPolicy take NRPA apart for a
// distributed search (Negrevergne and Cazenave, CGW 2017): the root level
// keeps its policy as plain data, sends a copy with each lower-level search
// (NRPALevel, anywhere) and adapts it toward its best sequence
// (AdaptPolicy gives exactly NRPA's own weights).
//
// NRPAOptions.Stabilize is stabilized NRPA (Cazenave, Sevestre and
// Toulemont 2021): a level-1 iteration makes that many playouts before its
// policy adapts toward the best, which makes the adaptation rarer and so
// each playout cheaper.
//
// NRPAOptions.Portfolio races several top-level searches by successive
// halving: each runs Round iterations with its own policy, the worse half
// is dropped, and so on until one is left, which runs to its end. A
// top-level NRPA settles early on one line; under a short budget the
// portfolio spends its first iterations on several and keeps the best.
// NRPARoots gives the members different roots: versions of one game whose
// Moves filter differently (SameGame: which colour is kept for last), so
// that the race chooses the filter too.
//
// NRPAOptions.Prior is Generalized NRPA (Cazenave 2020): a game that
// implements Prior gives each move a prior weight, the exponential of
// GNRPA's bias; a playout picks a move with probability proportional to
// exp(weight) times its prior and adaptation uses those probabilities, so
// the policy learns the correction to the prior.
//
// NRPAOptions.Repeats is NRPA with limited repetitions (Cazenave 2024): a
// level whose best sequence has come back from the level below that many
// times returns it at once, so the time a settled policy would spend
// finding its line again goes to the level above (and, at the top level
// with Restart, to a fresh search).
//
// Two things make NRPA's playouts cheaper without changing one draw: a
// playout walks the last playout's trail (its states, legal moves and
// codes) for as long as it draws the same moves, and a game that
// implements Keyed (a 128-bit name of its state) gets a cache of the
// legal moves and codes of its last few thousand states
// (NRPAOptions.Cache), so a state reached again by another order of the
// same moves is not searched for its moves again. On SameGame about half
// the states a level-3 search reaches were reached shortly before.
//
// Which search to use: NRPA learns a playout policy and holds the best
// published results on SameGame and Morpion Solitaire (Rosin 2011,
// Cazenave); NMCS needs no codes and is strong at levels 2-3 (Cazenave
// 2009); the tree search with SP-MCTS selection is Schadd et al.'s
// single-player MCTS; PUCT with an Evaluator is the AlphaZero scheme, where
// a neural network (or any estimator) replaces the playouts and the
// evaluations come in batches of TreeOptions.Batch leaves.
package mcts

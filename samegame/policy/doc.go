// Package policy is a learned policy for the dust game of package samegame
// (the source blog's 8x6 board of 5 colours): a network that reads a board
// and marks the cells of the group to click, optionally with a value head
// that estimates the clicks left, played greedily (as in the source), one
// step ahead on its value head, or as the guide of a beam search or of a
// PUCT tree search (package mcts).
//
// # Encoding
//
// The input is the board one-hot encoded as an [H, W, 1+colours] image
// (plane 0: empty, plane 1+c: colour c; row 0 is the bottom row). The
// output is one sigmoid per cell; the target of a position is 1 on every
// cell of the group the solver clicked there, and the loss binary
// cross-entropy (the source's design: 8x6x6 inputs, 48 sigmoid outputs).
// A group's score is the mean output over its cells.
//
// A network built with Arch.Value has ValueBits more sigmoid outputs, an
// ordinal encoding of the clicks left (bit k: more than k clicks remain),
// trained with the same binary cross-entropy; Values sums their
// probabilities into an estimate of the clicks left.
//
// An afterstate network (Arch.After) has a single output that rates a
// board. A position's groups are scored by the boards their clicks leave:
// the softmax of the children's ratings (Scores), so that Greedy, Beam and
// the MCTS priors use it unchanged, at the cost of one evaluation per
// child. It is trained on positions labelled with every good click
// (Geometry.AfterExamples): each position is a group of children whose
// softmax should put its mass on the good ones (nn.TrainOptions.Group,
// nn.LossSoftmaxCE). The network then judges the result of a click, which
// it sees, instead of predicting it from the board.
//
// # Training
//
// Train fits a network to set files of solved boards (Dataset) and
// records its provenance in Info (data, training, result, architecture,
// and the network it started from); New builds an untrained one, Load and
// Save read and write network files (package tessera/nn's format), and
// Default and DefaultAfterstate return the shipped networks, embedded from
// models/ (models/README.md says how they were trained).
//
// Geometry.Examples turns solved boards (the set files of "tessera samegame
// dataset", solved by the exact solver, so every label is an optimal click)
// into examples: each position along a solution with its next click.
// Geometry.Augment applies the game's symmetries to an example (a
// permutation of the colours, the left-right mirror: 240 variants). The
// default architecture, DefaultArch, is two 3x3 convolutions of 32 channels
// and a dense layer of 512; the source's ten dense layers of 1,500 can be
// built with Arch{Hidden: ...}.
//
// # Playing
//
// The solvers are samegame.Solver values that carry their network (nil:
// the shipped one) and parameters. Greedy plays a board by clicking the
// best-scored group at every turn; After does the same with an afterstate
// network, averaging the ratings of Views symmetric views of each child;
// Value clicks the group whose resulting board has the fewest estimated
// clicks left (one step ahead on the value head); Beam keeps the lines
// that are best by the policy's log-probability plus a groups-left
// heuristic, pruned by the greedy line's length and the colours-left
// bound; MCTS runs package mcts's PUCT search, one tree kept from click
// to click (Tree.Advance), with the policy's priors and
// the value head at the leaves (Evaluator):
//
//	sol, _ := policy.Greedy{}.Solve(ctx, board)           // sol.Moves, sol.Clicks
//	sol, _ = policy.Value{}.Solve(ctx, board)             // one step ahead on the value head
//	sol, _ = policy.Beam{Width: 2000}.Solve(ctx, board)   // width 2,000
//	sol, _ = policy.MCTS{Iterations: 200}.Solve(ctx, board)
//	sol, _ = policy.After{Views: 4}.Solve(ctx, board)     // the shipped afterstate network
//
// The methods Greedy, Lookahead, Beam and MCTS of a Policy are the same
// searches with the network as receiver.
//
// The shipped networks, how they were trained and what they score are in
// docs/results/samegame.md; networks and rankings measured and not kept in
// docs/notes/samegame.md.
package policy

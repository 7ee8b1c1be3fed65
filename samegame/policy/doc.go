// Package policy is a learned policy for the dust game of package samegame
// (the source blog's 8x6 board of 5 colours): a network that reads a board
// and marks the cells of the group to click, played greedily (as in the
// source) or as the guide of a beam search.
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
// # Training data
//
// Geometry.Examples turns solved boards (the set files of "tessera samegame
// dataset", solved by the exact solver, so every label is an optimal click)
// into examples: each position along a solution with its next click.
// Geometry.Augment applies the game's symmetries to an example (a
// permutation of the colours, the left-right mirror: 240 variants). The
// default architecture, DefaultArch, is two 3x3 convolutions of 32 channels
// and a dense layer of 256; the source's ten dense layers of 1,500 can be
// built with Arch{Hidden: ...}.
//
// # Playing
//
// Default returns the shipped network (embedded). Greedy plays a board by
// clicking the best-scored group at every turn; Beam keeps the lines that
// are best by the policy's log-probability plus a groups-left heuristic,
// pruned by the greedy line's length and the colours-left bound:
//
//	p, _ := policy.Default()
//	sol, _ := p.Greedy(ctx, board)    // sol.Moves, sol.Clicks
//	sol, _ = p.Beam(ctx, board, policy.BeamOptions{}) // width 600
package policy

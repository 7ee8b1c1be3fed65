// Package neural solves jigsaw puzzles whose patches are cut with gaps
// between them, so that abutting edges cannot be compared, by learned
// search: a policy P and a value V guide single-player Monte-Carlo tree
// search, after Alphazzle (Paumard, Picard and Tabia, "Alphazzle: Jigsaw
// Puzzle Solver with Deep Monte-Carlo Tree Search", 2021).
//
// # Puzzles and the game
//
// A puzzle (Geometry: 3x3 cells by default, 40 px patches, 4 px gaps) is
// cut from a square region of a photograph: each cell of Patch+Gap pixels
// keeps only its central Patch pixels (Cut; Random draws the region and
// its scale from a seeded generator; Centre takes the middle of an image;
// ReadPuzzle and ReadPuzzleFile read an image or a sheet of patches).
// The reassembly game places the patches one by one in a fixed order, each
// in an empty cell (State: Legal, Play); it ends when every cell is full.
// The reward of a complete reassembly is either the truth (GroundTruth: 1
// when every patch is in its cell) or V's prediction (Predicted), as for
// real fragments whose solution nobody knows.
//
// # Fragments: patches missing, strays mixed in
//
// As fragments are found, a puzzle may have m patches for its n cells
// (Puzzle.Fragments; MakeFragments takes patches away from a complete
// puzzle and mixes in Strays of another picture, whose Truth is -1;
// FromPieces makes a sheet of any other number of patches one): the
// game of fragments (NewFragmentState) puts each patch in turn in an
// empty cell or sets it aside (AsideMove; CellOf SetAside), cells may
// stay empty, and it ends when every patch is placed or set aside, as
// Alphazzle's game ends "as soon as all the patches are placed". The
// ground-truth reward is 1 when every own patch is in its cell and every
// stray set aside; Score counts the own patches and the adjacencies
// between present patches, and the strays found (StraysFound) and the
// own patches set aside (OwnAside). Its heads are Model.Frag (files
// fp<g>.nn, fv<g>.nn): P has one more output, set aside, and both read
// three more channels (the surplus of patches over empty cells, the share
// set aside, and the strongest pair link of the next patch, for P, or of
// a patch set aside, for V, to the placed ones); TrainFragments trains
// them on the pair network as it is (FragOptions: up to MaxMissing
// patches missing and MaxForeign strays per puzzle), the puzzles cut on
// every core from per-puzzle streams of the seed. The solvers play this
// game whenever the puzzle is one of fragments (MCTS, GreedyP, GreedyV;
// not Deepzzle, the hints, the unordered game or the hybrid).
//
// # Networks
//
// Running a convolutional network on the whole reassembly at every tree
// node is out of reach on a CPU, so the pixels are seen once per puzzle:
//
//   - the pair network reads, for patch a and patch b, the Strip-pixel
//     border strips that face each other across the gap (a's right strip
//     then b's left one, or a's bottom and b's top, with a direction
//     channel) and gives the logit that b is a's right (or lower)
//     neighbour; it runs on all 2n(n-1) ordered pairs of a puzzle in one
//     batch and fills a Table, with each logit normalised over the other
//     candidates both ways (log P(b | a) and log P(a | b));
//   - P reads, for the patch to place, a Grid x Grid x 21 tensor: per cell
//     whether it is occupied and, for an empty cell, the table's features
//     of the patch against each occupied neighbour, plus the patch's
//     strength of having a neighbour on each side; it gives one logit per
//     cell, trained with softmax cross-entropy over the empty cells on
//     correct partial reassemblies (the target is the true cell);
//   - V reads a Grid x Grid x 14 tensor (occupancy, the table's features of
//     every pair of adjacent occupied cells, each patch's strengths, the
//     share of patches left) and gives the probability that the
//     reassembly is correct, trained with the squared error against 0 when
//     any patch is misplaced and 1 for a correct complete one. For a
//     correct partial reassembly with k patches left the target is 1 by
//     default (ValueCorrect: it can still be completed correctly); with
//     ValueRandom it is 1/k!, the probability that a uniformly random
//     completion is correct (the source's definition), which leaves the
//     search almost no signal until the last placements.
//
// # Search
//
// MCTS (and Solve) runs Monte-Carlo tree search (PUCT selection, AlphaZero expansion with P's priors, V
// instead of playouts, mean or max backup, Sims simulations per
// placement, leaves evaluated in batches with virtual losses, the action
// played by visits or by value, the subtree below it kept for the next
// placement); GreedyP and GreedyV play greedily on P or V. The tree is package mcts's
// stepping Tree: values unscaled in [0, 1], a complete reassembly valued
// once by the reward (EvaluateTerminal), P and V called once each per
// batch. Options.OnStep, when set, receives each placement's root
// statistics (Step: the priors, visits and mean values of the moves, V's
// estimate) for a caller that shows the search; the answer is the same
// without it. Attempts
// repeats the game with reshuffled patch orders and keeps the answer V
// values most. FineTune trains P and V further on the states MCTS visits;
// SelfPlay is the AlphaZero-style fine-tuning the shipped 3x3 heads had
// last (P towards MCTS's visit distributions at the root of every
// placement, V on the states' labels and the complete reassemblies the
// search valued, mixed with supervised examples, epochs kept by a
// validation bench).
// Options.Hybrid multiplies P's priors by the classic compatibilities
// (CompatTable: MGC dissimilarities across the gap, no learning); that
// solver is no longer purely learned and is reported apart.
//
// # Ablations (the paper's tables)
//
// Every part of the search can be replaced, as Alphazzle's experiments do:
// Options.Prior uniform (P never called; Table 9), Options.Value with V
// replaced by the constant 1 at the end of the game (the predicted
// reward), during it, or both (ValueConstEnd, ValueConstGame,
// ValueConst; with the two priors, Table 9's eight rows), Options.Selection
// UCT or SP-MCTS (package mcts's rules, without priors) instead of PUCT,
// the oracle rewards Neighbours and Patches (the share of true neighbours
// or of well-placed patches) beside the binary GroundTruth,
// Options.Hints patches placed in their true cell before the game and
// never moved (CentralHint: the central cell's patch; Tables 6, 7 and
// 11), and Options.Order OrderFree, the unordered game where a move
// chooses the patch and its cell (State.Free, State.Moves: P is asked
// about every patch not placed). Result.Attempts keeps every attempt's
// answer, so that V's choice can be compared with the worst and the
// oracle-best attempt (Table 10). TrainOptions.Hints trains the heads on
// reassemblies with at least that many patches placed;
// Model.HeadAccuracyHints measures them per number of patches placed
// (Table 7). docs/results/alphazzle.md holds the tables with their
// commands.
//
//	m, _, _ := neural.Default() // the shipped model (3x3, 40 px, 4 px)
//	// For(Geometry{Patch: 40, Gap: 10}) is the one shipped for 10 px gaps
//	pz := neural.Centre(img, neural.Geometry{}, seed)
//	res, _ := neural.MCTS{Model: m, Options: neural.Options{Sims: 100, Attempts: 10}}.Solve(ctx, pz)
//	acc := pz.Score(res.Cells) // patches, neighbours, perfect
//
// The solvers are values with one Solve method (the Solver interface of gap
// puzzles): MCTS, GreedyP and GreedyV, each carrying its model and Options;
// the functions Solve and Search are MCTS on a model or on any Evaluator.
// Deepzzle is the baseline Alphazzle compares with (Paumard et al. 2020):
// no P, V or MCTS, but a uniform-cost shortest path (ShortestPath) over
// the partial reassemblies filled in raster order, each adjacency costing
// the pair table's -log probability.
//
// # Training
//
// TrainPair, TrainHeads, FineTune and SelfPlay train one stage each;
// Model.Train runs a whole Plan (the pair network, then for each grid the
// heads and the fine-tuning, or the self-play epochs with early stopping
// on Plan.Bench), saving the model after every stage with its provenance
// (the command and the images it learned from) and measuring the
// accuracies on validation images. The shipped model was trained on
// BSDS500 train (val only measures it) by "tessera jigsaw neural train",
// which is Model.Train; models/README.md gives the commands. Models for
// other patch and gap sizes (3x3 heads only) are shipped in
// models/pPATCH-gGAP; For picks the one of a puzzle's geometry.
//
// Measured figures (the networks' validation accuracies, MCTS on 3x3, 4x4 and
// 5x5 puzzles of BSDS500 test and Kodak, ablations) are in
// docs/results/gaps.md.
package neural

// Package ga solves square-piece jigsaw puzzles with the genetic algorithm
// of Sholomon, David and Netanyahu ("A generalized genetic algorithm-based
// solver for very large jigsaw puzzles of complex types", AAAI 2014):
// pieces of unknown position and rotation (Type 1 and Type 2), pictures of
// unknown size, and mixed bags of several pictures whose number it finds.
//
//	res, err := ga.Solve(ctx, pz, ga.Options{Images: 1})          // one picture, size unknown
//	res, err = ga.Solve(ctx, pz, ga.Options{Rows: 18, Cols: 24})  // size known
//	res, err = ga.Solve(ctx, bag, ga.Options{})                   // a bag: finds how many pictures
//	fmt.Println(res.Placement.Images, res.Fitness, res.History)
//
// # The algorithm
//
// A chromosome records, for every edge of every piece (4n edges), the edge
// it touches or none: Sholomon's relative-relation matrix. Every
// chromosome is a valid layout of all the pieces in one plane, each piece
// once, no two in a cell, of any shape. Its fitness, minimised, sums the
// dissimilarities (jigsaw.Compat, MGC by default) of all touching edges
// and charges every free edge twice the mean dissimilarity of all
// pairings (Options.NoneCost).
//
// A child is built from two parents by assigning relations in phases
// until all pieces form one group: first the relations both parents
// share (each skipped with probability Options.Mutation, the mutation),
// then those of either parent that join best buddies, then, for each free
// edge in random order, its most compatible free edge, and last random
// relations. Each assignment joins two pieces, inserts a piece into a
// group or merges two groups, turning and shifting the smaller one, and
// is discarded when two pieces would share a cell; the relations the
// final layout implies are recorded. Each generation copies the Elite
// best chromosomes and fills the rest with children of parents drawn by
// roulette wheel.
//
// Beyond the paper:
//
//   - The first generation holds the greedy solver's solution
//     (jigsaw/greedy) and variants of it (some of its relations dropped,
//     the rest completed by the crossover's later phases), constructions
//     from the best-buddy relations and random chromosomes; Options.
//     RandomInit starts from random chromosomes only, as the paper does.
//     With elitism the answer is never less fit than the greedy one.
//   - With a known size every chromosome fits the frame: merges that
//     would outgrow it are discarded, and the last phase breaks up what is
//     left and fills the frame's empty cells, each with the piece that
//     fits its placed neighbours best. For a single picture of unknown
//     size, the greedy solver assembles the pieces in every frame of n
//     cells (aspect ratio up to 4) and the frame with the most best-buddy
//     adjacencies (a longer one must win clearly) is used as if known.
//     The free-edge cost, which dwarfs the dissimilarities, would
//     otherwise leave loose pieces outside an almost solved picture.
//     Options.FreeSeed adds variants of the greedy assembly made without
//     a frame, completed inside it, where the frame broke that assembly
//     up.
//   - The roulette wheel weighs 1/fitness counted above the cost of the
//     fewest free edges in the population, so that layouts of one shape
//     are told apart by their dissimilarities.
//   - A mixed bag is not evolved as one layout: glued into one plane,
//     featureless areas of different pictures (sky, snow) mix, and no
//     seam criterion could split the result cleanly (77.7% neighbour
//     accuracy on bags of 4 MIT images). Instead countPictures counts the
//     pictures with the greedy solver (which starts a picture when no
//     best buddy is left), the greedy solver told that count splits the
//     pieces, and each part is solved as a single picture of unknown size,
//     but without a frame unless its greedy assembly nearly fills one: a
//     part may hold a few pieces of other pictures or miss some of its
//     own, and the rectangle of exactly its size then tears the picture
//     apart (on the bags of 4 MIT images, 88.9% neighbour accuracy in
//     frames, 93.8% without, 94.1% with the rule). Before that, every
//     core of best-buddy loops (loopCores; pure per picture on the MIT
//     bags) moves whole into the part holding most of it, mending a
//     picture the split cut along a featureless seam (94.3%), and the
//     labels spread from the cores along best buddies (94.96%). Last,
//     repair mends the solved bag where its pictures are not rectangles:
//     a part that took another's featureless pieces shows pieces strewn
//     around a clean rectangle or a strip beside it, and the loser holes
//     or a notch. It gives each part a rectangle, the areas adding up to
//     the bag (rectPlans: few pieces moved, few best buddies cut), fills
//     the empty cells with the pieces left outside, solves the changed
//     parts again in their rectangles, and keeps the result only when
//     the fitness falls and no best-buddy adjacency is lost, trying up to
//     three plans, fittest filling first (95.41%; one plan: 95.22%).
//   - Options.NoFrame solves a single picture without a frame, seeded by
//     the frameless greedy assembly: for very large pictures of several
//     scenes, where the estimated frame breaks that assembly up (97.5%
//     on a 10,000-piece mosaic of the Kodak pictures, 92.4% in the frame).
//     Without a frame and without a dense table, pairs outside the
//     candidate lists cost their true dissimilarity (see problem.d).
//
// Children are built and rated on Options.Workers goroutines, each child
// from its own generator seeded by (Seed, generation, index): the same
// seed gives the same answer on any number of cores. Memory is
// O(Population * n) for the chromosomes plus what jigsaw.Compat keeps
// (candidate lists of O(n K) when the dense table is too large).
//
// On the MIT set (432 pieces, Type 2, size unknown) it reaches 95.74%
// neighbour accuracy with 14 of 20 pictures perfect, against 94.88% and 11
// for the paper and 91.74% and 9 for the greedy solver alone; see tessera
// jigsaw bench and docs/results/jigsaw.md for the measured figures.
package ga

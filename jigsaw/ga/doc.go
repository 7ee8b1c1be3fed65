// Package ga solves square-piece jigsaw puzzles with the genetic algorithm
// of Sholomon, David and Netanyahu ("A generalized genetic algorithm-based
// solver for very large jigsaw puzzles of complex types", AAAI 2014):
// pieces of unknown position and rotation (Type 1 and Type 2) and pictures
// of unknown size. Solver is a jigsaw.Solver; jigsaw/bag solves mixed bags
// of several pictures with it, one picture at a time.
//
//	s := ga.Solver{Pop: 300, Gens: 100, Seed: 1}                           // the zero value: the paper's settings
//	res, err := s.Solve(ctx, &jigsaw.Problem{Puzzle: pz})                   // size unknown
//	res, err = s.Solve(ctx, &jigsaw.Problem{Puzzle: pz, Rows: 18, Cols: 24}) // size known
//	res, err = bag.Solver{Solver: s}.Solve(ctx, &jigsaw.Problem{Puzzle: mixed}) // a bag: counts the pictures
//	fmt.Println(res.Placement.Images, res.Fitness, res.History)
//
// # The algorithm
//
// A chromosome records, for every edge of every piece (4n edges), the edge
// it touches or none: Sholomon's relative-relation matrix. Every
// chromosome is a valid layout of all the pieces in one plane, each piece
// once, no two in a cell, of any shape. Its fitness, minimised, sums the
// dissimilarities (jigsaw.Compat, MGC by default, with the prediction
// term of Solver.Pred) of all touching edges
// and charges every free edge twice the mean dissimilarity of all
// pairings (Solver.NoneCost).
//
// A child is built from two parents by assigning relations in phases
// until all pieces form one group: first the relations both parents
// share (each skipped with probability Solver.Mutation, the mutation),
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
//     from the best-buddy relations and random chromosomes; Solver.
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
//     Solver.FreeSeed adds variants of the greedy assembly made without
//     a frame, completed inside it, where the frame broke that assembly
//     up.
//   - The roulette wheel weighs 1/fitness counted above the cost of the
//     fewest free edges in the population, so that layouts of one shape
//     are told apart by their dissimilarities.
//   - A part of a mixed bag (jigsaw.Problem.Part, as jigsaw/bag hands
//     them out) may hold a few pieces of other pictures or miss some of
//     its own, and the rectangle of exactly its size then tears the
//     picture apart: it is solved in that frame only when its greedy
//     assembly nearly fills one, else without a frame (on the bags of 4
//     MIT images, 88.9% neighbour accuracy in frames, 93.8% without,
//     94.1% with the rule); see jigsaw/bag for the rest of the bag's
//     story. jigsaw.Problem.Seed joins the first generation's seeds.
//   - Solver.Stall ends the search after generations in a row that
//     together lowered the best fitness by less than 0.01%: by default 10 from 8,000 pieces on, where the
//     greedy seed of a photograph is often nearly right and a generation
//     costs seconds; never on smaller puzzles, as in the paper.
//   - A picture with pieces missing or strays mixed in (Problem.Holes):
//     the greedy solver finds the frame and the pieces that fit it, and
//     the search runs on those in that frame, each free edge costing its
//     best candidate's dissimilarity (what its missing neighbour would
//     likely have cost); its answer replaces the greedy layout only when
//     it keeps at least as many best-buddy adjacencies, since the fitness
//     can also be lowered by putting holes beside the pieces that fit
//     nothing well.
//   - In Type 2 the search adds a prediction term to MGC (Solver.Pred,
//     jigsaw.CompatOptions.Pred): each edge's pixels extrapolated across
//     the joint against the other edge's, which tells apart textured
//     edges that MGC rates alike (on the MIT set, seed 1, it makes 7.png
//     perfect).
//     The frame is still chosen with MGC alone.
//   - Solver.NoFrame solves a single picture without a frame, seeded by
//     the frameless greedy assembly: for very large pictures of several
//     scenes, where the estimated frame breaks that assembly up (97.5%
//     on a 10,000-piece mosaic of the Kodak pictures, 92.4% in the frame).
//     Without a frame and without a dense table, pairs outside the
//     candidate lists cost their true dissimilarity (see problem.d).
//
// Children are built and rated on Solver.Workers goroutines, each child
// from its own generator seeded by (Seed, generation, index): the same
// seed gives the same answer on any number of cores. Memory is
// O(Population * n) for the chromosomes plus what jigsaw.Compat keeps
// (candidate lists of O(n K) when the dense table is too large).
//
// On the MIT set (432 pieces, Type 2, size unknown) it reaches 95.98%
// neighbour accuracy with 15 of 20 pictures perfect (95.74% and 14 with
// MGC alone, Solver.Pred negative; the other five hold flat pieces whose
// place and turn no pixel tells), against 94.88% and 11 for the paper
// and 91.74% and 9 for the greedy solver alone; see tessera jigsaw bench
// and docs/results/jigsaw.md for the measured figures.
package ga

// Package greedy is a fast constructive solver for square-piece jigsaw
// puzzles of Type 1 and Type 2, with known or unknown size and several
// pictures in one bag: the baseline of the jigsaw family and the seed of
// its genetic solver.
//
// Solve follows Paikin & Tal ("Solving multiple square jigsaw puzzles
// with missing pieces", CVPR 2015): start from a distinctive piece, whose
// edges and their best buddies' edges are all best buddies, then
// repeatedly fill the empty cell whose best candidate fits best, with
// candidates that are best buddies of all their neighbours first. A
// candidate's fit averages, over the neighbours it would touch, Paikin &
// Tal's compatibility 1 - D / (second best D) of both edges, so that
// featureless edges (sky) wait until several neighbours constrain them.
// It assembles from a few of the most distinctive pieces in parallel and
// keeps the most compatible result. When the size is unknown, it then
// estimates the frame (the rectangle of n cells covering the most of the
// assembly) and assembles again inside it, which stops pieces of the
// picture's border from growing outside it.
//
// A box with pieces missing and strays from another picture mixed in
// (jigsaw.Problem.Holes) is assembled in the picture's frame, the known
// one or one estimated from a first assembly without a frame (the
// rectangle that holds the most pieces less a half per empty cell). The
// assembly places pieces while the best candidate fits at least
// Solver.Accept, then goes on with what fits best; of the pieces placed
// after that point, those with no plausible neighbour (a best buddy, or a
// dissimilarity under 1.5 times the median best one) are set aside:
// strays fit nothing. The frame's empty cells are the holes.
//
//	var s greedy.Solver // a jigsaw.Solver; the zero value is the default
//	res, err := s.Solve(ctx, &jigsaw.Problem{Puzzle: pz})       // Type 1 or 2 per pz.Rotated, size unknown
//	res, err = s.Solve(ctx, &jigsaw.Problem{Puzzle: pz, Rows: 18, Cols: 24})
//	res, err = s.Solve(ctx, &jigsaw.Problem{Puzzle: bag, Images: 3})
//	res, err = s.Solve(ctx, &jigsaw.Problem{Puzzle: box, Holes: true}) // pieces missing, strays mixed in
//	fmt.Println(res.BestBuddies) // share of adjacencies that are best buddies: a quality estimate
//
// On the MIT set (432 pieces of 28 px) it reaches about 94% neighbour
// accuracy in Type 1 with a known size and 92% in Type 2 with an unknown
// size, in well under a second per puzzle including compatibilities (see
// tessera jigsaw bench and docs/results/jigsaw.md for measured figures).
package greedy

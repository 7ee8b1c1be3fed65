// Package bag solves mixed bags: the pieces of several square-piece
// pictures shuffled together, their number and sizes unknown, with any
// single-picture jigsaw.Solver (the genetic solver of jigsaw/ga, the
// greedy solver of jigsaw/greedy). Solver is itself a jigsaw.Solver.
//
//	s := bag.Solver{Solver: ga.Solver{Seed: 1}, Mend: ga.Solver{Gens: 25, Seed: 1}}
//	res, err := s.Solve(ctx, &jigsaw.Problem{Puzzle: mixed})           // counts the pictures
//	res, err = s.Solve(ctx, &jigsaw.Problem{Puzzle: mixed, Images: 4}) // told how many
//	fmt.Println(res.Placement.Images, res.Fitness, len(res.Pictures))
//
// # How
//
// A mixed bag is not evolved as one layout: glued into one plane,
// featureless areas of different pictures (sky, snow) mix, and no seam
// criterion could split the result cleanly (77.7% neighbour accuracy on
// bags of 4 MIT images with the genetic solver). Instead:
//
//   - Count. countPictures counts the pictures with the greedy solver,
//     which starts a picture when no best buddy is left: told the right
//     number it makes whole pictures, told one more it makes a small
//     extra picture of the pieces whose best buddies ran out, so the count
//     grows while the smallest picture stays large enough (34 of 35 bags
//     of 1, 2 and 4 MIT images counted right). In a bag of large
//     photographs the greedy solver's first picture runs on across
//     several (along best buddies of featureless areas), and the test
//     stops short (3 of 7 photographs in 17,408 pieces). So the bag's
//     segments count too (splitSegments): the cores of best-buddy loops,
//     their labels spread along best buddies, joined where at least
//     three best-buddy pairs link them; when they count more pictures
//     than the greedy test, they also make the split (7 of 7, every
//     piece in its picture, at 40 and 64 pixels).
//   - Split. The greedy solver told that count splits the pieces. Every
//     core of best-buddy loops (loopCores; pure per picture on the MIT
//     bags) then moves whole into the part holding most of it, mending a
//     picture the split cut along a featureless seam, and the labels
//     spread from the cores along best buddies (relabelCores).
//   - Solve. Each part goes to Solver as a picture of unknown size marked
//     jigsaw.Problem.Part (it may hold a few pieces of other pictures or
//     miss some of its own, so no rectangle of its number need fit it),
//     with its own compatibilities and the split's assembly of it as the
//     seed. With the genetic solver: 94.3% with the cores moved, 94.96%
//     with the labels spread.
//   - Mend. repair mends the solved bag where its pictures are not
//     rectangles: a part that took another's featureless pieces shows
//     pieces strewn around a clean rectangle or a strip beside it, and the
//     loser holes or a notch. It gives each part a rectangle, the areas
//     adding up to the bag (rectPlans: few pieces moved, few best buddies
//     cut), fills the empty cells with the pieces left outside (fill),
//     solves the changed parts again in their rectangles with Mend, and
//     keeps the result only when the bag's fitness falls and no
//     best-buddy adjacency is lost, trying up to three plans, fittest
//     filling first (95.41%; one plan: 95.22%).
//   - Square. A picture still not a rectangle after that (a featureless
//     sea or sky that no best buddy holds together, strewn over a canvas
//     with holes) is solved again as a whole picture of unknown size, in
//     the frames of exactly its number of pieces, and replaced when that
//     gives a rectangle and, as in mending, the bag's fitness falls and
//     no best buddies are lost (else a part holding another picture's
//     pieces is torn): the web page's bag of the built-in sunset and
//     stained glass went from 75.00% to 93.75% direct accuracy for the
//     sunset (Type 2, 60-pixel pieces, seed 1); in Type 1 the rectangle
//     loses best buddies and the strewn sunset stays.
//   - Frame. A picture still not a rectangle after that gets one
//     (frameImage): its core (the largest block its best-buddy
//     adjacencies hold together, strongest first, within a frame of
//     exactly its number of pieces) stays in place, the other blocks move
//     whole into the frame's empty cells where their seams fit best, and
//     the loose pieces fill the cells left (fill), kept when the
//     picture's fitness falls and it loses at most 3% of its best-buddy
//     adjacencies: the Type 1 sunset's lake moves back under its sky
//     (8x11 canvas to 8x8, 68.75% to 93.75% direct), while a picture
//     that holds another's pieces, which no frame of its count fits,
//     stays as it is.
//   - Reframe. When a picture is still not a rectangle after that, its
//     count is wrong: it holds pieces of another picture or lacks some of
//     its own (the MIT bag 13-16: 434, 455, 406 and 433 pieces for 432
//     each). reframe gives every picture a rectangle at once, the areas
//     adding up to the bag (rectPlans, the pieces inside stay where they
//     are), and fill moves the pieces outside them into the empty cells
//     of all of them, so one picture's surplus goes where another lacks
//     pieces: the fittest plan that keeps 97% of the bag's best-buddy
//     adjacencies, or else the fittest that keeps 90% (more tears
//     pictures), then solved again with Mend when that is fitter still;
//     with no plan, each picture framed in a rectangle of its own count
//     that keeps 90% of its best buddies. MIT bag 13-16 comes back as
//     four rectangles of 432 pieces (its neighbour accuracy from 94.04%
//     to 94.40%), every picture of the five MIT bags of 4 a rectangle;
//     Wood, in a bag with Storm at 64 px, a 40x30 rectangle instead of a
//     canvas with holes.
//   - Resplit. A picture still not a rectangle after that, in a bag told
//     its count, is split again with another picture along its
//     best-buddy blocks: its largest block stays, the other large blocks
//     stay or move, the loose pieces are shared out so that both counts
//     have plausible rectangles, both are solved again as whole pictures
//     and the fittest pair of full rectangles is kept (two crops of MIT
//     pictures 13 and 15, split 128 + 24 across their white skies, come
//     back as two rectangles, though not of their true sizes).
//   - Last resort. A picture still not a rectangle after that gets the
//     rectangle of its pieces solved again as a whole picture (square's
//     answer, which square refused for losing best buddies, when its
//     pieces are the same), whatever it loses: a rectangle per picture is
//     what a person expects. Wood, the photograph of the seven-photograph
//     bag (40 px, 3,072 pieces, every one its own), comes back at its
//     true 48x64 instead of a 65x249 canvas with holes (neighbour
//     accuracy 75.28% to 70.16%, direct 52.15% to 60.51%). A count with
//     no frame of aspect up to 4 stays as it is.
//   - Seam. When the pictures are all rectangles but a straight seam (a
//     full row or column boundary) with less than half the bag's share
//     of best buddies cuts off a strip that would make the rectangle and
//     a smaller picture of one size, seamSolve gives the strip to the
//     smaller picture and solves it again as a whole picture, and then
//     the rest (the rectangle left by the cut need not be the picture's
//     own), each kept when the bag's fitness falls and no best buddies
//     are lost but those across the seam cut. The MIT bag 1-4, whose
//     outputs held 513 and 351 pieces (a 27x3 strip, mostly featureless
//     white sky, stuck to the side of another picture), comes back as
//     four rectangles of 432 (83.45% to 84.38% direct, 83.00% to 83.39%
//     neighbour).
//
// A solver that cannot start from the split's assembly (the greedy
// solver) is better off keeping it: Solver.KeepSplit takes the greedy
// assembly of the bag told its count as the pictures and only mends
// them (the command line's greedy on a bag).
//
// The fitness by which repair compares bags is the genetic solver's: the
// dissimilarities of touching edges plus NoneCost per free edge. The
// figures above are neighbour accuracies on the five bags of 4 MIT
// pictures (Type 2, seed 1), measured by tessera jigsaw bench -bag 4.
package bag

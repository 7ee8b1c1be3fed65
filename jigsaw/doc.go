// Package jigsaw models square-piece pictorial jigsaw puzzles: cutting
// images into pieces, scrambling them (Type 1: positions unknown; Type 2:
// positions and rotations unknown; mixed bags of several images), edge
// compatibilities, solutions (Placement), rendering and scoring, and the
// Solver interface: a solver is a value carrying its parameters whose
// Solve(ctx, *Problem) returns a Result. Solvers live in sub-packages and
// build on Compat and Placement: jigsaw/greedy (constructive, fast),
// jigsaw/ga (the genetic algorithm), jigsaw/bag (mixed bags of several
// pictures, each solved by any Solver) and jigsaw/neural (puzzles with
// gaps between the pieces, learned).
//
// # Tutorial
//
//	img, _ := imageio.Load("photo.png", imageio.Options{})
//	g, _ := jigsaw.Cut(img.Pix, 28, jigsaw.CutOptions{Depth: img.Depth})
//	pz, truth := jigsaw.Scramble([]*jigsaw.Grid{g}, jigsaw.ScrambleOptions{Rotate: true, Seed: 1})
//	res, _ := greedy.Solver{}.Solve(ctx, &jigsaw.Problem{Puzzle: pz})
//	acc, _ := jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{})
//	jigsaw.WritePNG(w, pz, res.Placement, 0)
//
// # Conventions
//
// Pixels are RGB with 16 bits per channel (8-bit sources are widened
// exactly, v*257); Puzzle.Depth remembers what to write back. Cells are
// (row, column), rows growing downwards.
//
// Sides are numbered clockwise from the top: Top=0, Right=1, Bottom=2,
// Left=3, always in a piece's own orientation, that is as the piece is
// stored in the Puzzle (on the sheet). A Rotation is a number of quarter
// turns clockwise. A piece shown turned by r has its own side s pointing
// in direction s.Turn(r) = (s + r) mod 4, and the side that points in
// direction d is SideAt(d, r) = (d - r) mod 4. Offset(d) is the cell step
// in direction d.
//
// An edge is (piece i, side a), numbered 4*i + a. Compat.D(i, a, j, b) is
// the dissimilarity of the two edges touching, whatever rotations bring
// them face to face: the pixels of each edge are read clockwise round its
// piece, so pixel k of one edge meets pixel P-1-k of the other, and a
// rotation of either piece does not change the value. For piece i turned
// by ri placed left of piece j turned by rj, the pairing is
// D(i, SideAt(Right, ri), j, SideAt(Left, rj)). Without rotations
// (Type 1) only pairings with b == a.Opposite() exist: D(i, Right, j,
// Left) is "j to the right of i", D(i, Bottom, j, Top) is "j below i".
//
// # Compatibilities
//
// NewCompat computes, on every core, the dissimilarity of every allowed
// pairing of two pieces: 4 per pair without rotations, 16 with. Two
// measures: MGC, Gallagher's Mahalanobis gradient compatibility (CVPR
// 2012), the default, and LabSSD, the L*a*b* distance of Cho et al. (2010)
// and Sholomon et al. (2013). CompatOptions.Pred adds to MGC a
// prediction term (each edge's pixels extrapolated across the joint
// against the other edge's), which the genetic solver's search uses by
// default in Type 2. It keeps each edge's best K candidates (Candidates, memory
// O(nK)) and, when it fits in CompatOptions.MaxDenseBytes, the whole
// table, so that D is a lookup; otherwise D recomputes a pairing from the
// stored edge features in O(PieceSize). On
// top: BestBuddy (Pomeranz et al. 2011), Compatibility and Confidence
// (Paikin & Tal 2015: 1 - D / second best D), and Mean, the average
// dissimilarity of all pairings. Fit sums D over the adjacencies of a
// placement (a genetic solver's fitness) and counts its best buddies.
// Pairs are evaluated by blocks of pieces, so that large puzzles stream
// the edge features once per block; from 5,000 pieces on (MGC, no dense
// table) an O(1) lower bound of each pairing rejects most of them before
// the O(PieceSize) computation, and the mean comes in closed form, so a
// 30,000-piece Type 2 puzzle takes minutes; CompatOptions.Progress
// follows the work.
//
// # Files
//
// A puzzle on disk is a sheet: one PNG image with the pieces in a grid,
// row-major, cells after the last piece fully transparent. WriteSheet
// records the piece size in a tEXt chunk with keyword
// "tessera-piece-size"; ReadSheet reads it back, or takes the size from
// SheetOptions for a sheet of the user's own (PNG, JPEG or WebP), or else
// measures it (DetectGrid): the grid of equal squares, with or without
// gutters of one colour between them, whose cell boundaries stand out as
// steps in colour far above the steps inside pieces; a sheet on which no
// size, or more than one, can be told is refused (ErrAmbiguousGrid).
//
// # Bounds and budgets
//
// Every input is bounded before it is read: ReadSheet decodes the file
// first and reports what is wrong with it (imageio's errors: empty, not an
// image, corrupt, over imageio's byte and pixel limits) before asking for
// a piece size; it refuses a piece size other than the one the sheet
// records unless SheetOptions.ForcePieceSize, and a sheet of more than
// SheetOptions.MaxPieces pieces (DefaultMaxPieces, 50,000) by its header,
// before decoding it; Cut has the same bound (CutOptions.MaxPieces).
// Problem.Check tells whether a size and a number of pictures agree with
// the pieces. ReadSheetContext, CutContext and WriteSheetContext stop
// when their context ends (reading, decoding, cutting, encoding), with an
// error that names the stage and wraps ctx.Err(), so that one budget
// covers all the work of a command; the solvers return the best layout
// they have (ga: the greedy assembly so far, when the budget ends before
// its first generation) with ctx.Err().
//
// The ground truth (Truth, only for scoring) is JSON:
//
//	{"piece_size": 28, "rotations": true,
//	 "images": [{"name": "1.png", "rows": 18, "cols": 24, "crop": [0, 0, 672, 504]}],
//	 "pieces": [{"image": 0, "row": 3, "col": 7, "rotation": 1}, ...]}
//
// where pieces[k] says that sheet piece k is the piece of image "image" at
// (row, col), turned by "rotation" quarter turns clockwise on the sheet.
// A box with pieces lost and strays from another picture (Scramble's
// Drop, Strays) adds "missing": the number of cells without a piece, and
// an image marked "stray": true, last, that the strays come from.
//
// A solution (Placement) is JSON too, one entry per placed piece, in any
// of "images" output pictures, cells any integers (a layout need not be
// rectangular), "rotation" turning the sheet piece clockwise:
//
//	{"images": 1, "placements": [{"piece": 12, "image": 0, "row": 0, "col": 0, "rotation": 3}, ...]}
//
// with, from a solver of a box with pieces missing (Problem.Holes),
// "frames": [{"image": 0, "row": 0, "col": 0, "rows": 18, "cols": 24}],
// the picture's frame, whose empty cells are holes; pieces not placed are
// set aside.
//
// ReadSheetFile, ReadTruthFile and ReadPlacementFile read the three from
// files, naming the file in an error. Mosaic tiles several pictures into
// one, a large puzzle to scramble (MosaicFiles from image files).
//
// # Scores
//
// Score gives direct accuracy (pieces in their true cell and orientation),
// neighbour accuracy (true adjacencies kept, Cho et al. 2010) and perfect
// reconstruction, per source image and overall. Neighbour accuracy is
// local and so never depends on a global rotation or shift; direct
// accuracy takes the best global rotation and shift of each output image,
// or with ScoreOptions.Absolute only the upright position counted from row
// 0, column 0 (the usual measure for Type 1 with a known size). With
// pieces missing it counts the pieces present, and the holes that lie
// where pieces are missing; with strays, how many are set aside.
//
// Images come through package imageio: PNG of 8 or 16 bits per channel, JPEG
// (decoded with libjpeg-style chroma upsampling) and WebP, turned upright by
// their EXIF orientation. Measured figures of the solvers on the benchmark
// sets are in docs/results/jigsaw.md.
package jigsaw

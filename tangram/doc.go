// Package tangram models dissection puzzles with polygon pieces (the seven
// tans, a four-piece T) and solves them, exactly by search and by the
// rank-one SDP relaxation of Algorithm 2. It is the family of
// Kovalsky, Glasner and Basri's Algorithm 2 ("A Global Approach for
// Solving Edge-Matching Puzzles", SIAM J. Imaging Sciences 2015, sections
// 5.2.2 and 6.2): it holds the puzzles, the exact geometry, the checker,
// the generator, a reference solver, the path-integral moments and
// Algorithm 2 built on them.
//
// # Numbers and polygons
//
// Coordinates are exact: a Num is a + b√2 with a and b multiples of 1/2,
// held as two int64 (see Num for why this ring: every tan vertex lies in
// it, in the axis-aligned square and turned by any multiple of 45
// degrees). Sums are exact, and every predicate (orientation, order along
// a line, point in polygon) is decided exactly in Z[√2] with a 128-bit
// sign test; MaxCoord bounds inputs so nothing overflows. Units: the small
// triangle's legs are 1, the tans' total area is 8.
//
// A Polygon lists its vertices; the last joins the first. Validate checks
// that it is simple (at least three vertices, none repeated, no two edges
// meeting except neighbours at their shared vertex, no spike) with non-zero
// area, and says where it is not; Normalize turns it counter-clockwise.
// Pieces and silhouettes are simple polygons, stored counter-clockwise. A
// figure may have more: Puzzle.Parts (further polygons touching the
// silhouette at single points, as when two tans meet at a corner) and
// Puzzle.Holes (cut out of it); both are nil for a one-polygon figure,
// and the file format writes them as "part" and "hole" lines after the
// silhouette. Check and Exact read the region's boundary chain, so they
// take them as they are.
//
// A Puzzle has named Pieces, a Silhouette and Turns: TurnsNone is the
// paper's setting (translation only, each piece keeps its orientation);
// TurnsRotate allows the 8 turns by 45 degrees and TurnsFlip mirror images
// too. An Orientation turns a piece about its first vertex. A Solution
// holds one Placement (translation, orientation) per piece.
//
// The figure set: Figures returns 236 silhouettes for the seven tans with
// turns and mirror images (name, category, source, puzzle; Outline gives
// float polygons for a thumbnail): drawings composed for Tessera (animals,
// people, boats, letters, numerals, objects, geometric; figures/art.txt,
// read by ParseArt on the grid, or ParsePlaced from the polygon of each
// tan, which may mix the two lattices), the 13 convex tangrams of Wang and Hsiung (1942) and
// the octominoes the tans tile. Each file figures/NAME.txt has its exact
// solution beside it (NAME.sol, for tests only); every figure is solved by
// Exact (TestFigures).
//
// Sets: Tans (the seven tans as in the axis-aligned square) and TPieces (a
// four-piece T with a non-convex piece). Classic returns seven classic
// figures as translation-only puzzles with known solutions: square,
// rectangle, parallelogram, triangle, trapezoid, house and boat.
//
// # Text formats
//
// A puzzle file is lines of fields; '#' starts a comment:
//
//	name square                 # optional
//	turns none                  # optional: none (default), rotate or flip
//	piece big1 0 0 2r2 0 r2 r2  # piece NAME X1 Y1 X2 Y2 ... (at least 3 vertices)
//	...
//	silhouette 0 0 2r2 0 2r2 2r2 0 2r2
//
// Numbers are written "3", "-1.5", "r2" (√2), "0.5r2", "1+2r2",
// "0.5-1.5r2": a rational part and a √2 part, each an integer or a half.
// Names start with a letter or '_' (then letters, digits, '_', '-', '.';
// at most 32). Clockwise polygons are reversed. A solution file has one
// line per placed piece:
//
//	place big1 1.5r2 0.5r2 [turn K] [flip]
//
// the piece turned by K·45 degrees counter-clockwise about its first vertex
// (after a mirror image x -> -x with flip), then moved by (X, Y).
// ParsePuzzle and ParseSolution bound the file (MaxFileBytes), the lines,
// the pieces (MaxPieces), the vertices (MaxVertices, MaxTotalVertices) and
// the coordinates (MaxCoord) before reading further, report errors with
// their line, and validate; FormatPuzzle and FormatSolution write what
// they read (round trips are exact and fuzzed).
//
// # Checking
//
// Check decides exactly whether a solution tiles the silhouette: no
// overlap of positive area, nothing outside, no gap. Its proof is the
// paper's own edge matching: the pieces tile the silhouette if and only
// if the chain of oriented edges Σ∂(piece) − ∂(silhouette) cancels on
// every line (eq. 6 and 26 for every f), which needs only vertices, never
// an intersection point. Before that it names the faults it finds: a bad
// polygon (ErrSelfIntersect, ErrZeroArea...), areas that do not add up
// (ErrAreas), an unplaced piece (ErrUnplaced), a vertex outside
// (ErrOutside), two pieces overlapping (ErrOverlap).
//
// # Generating and solving
//
// Generate(seed, pieces) lays the pieces one by one edge to edge, never
// overlapping, keeping their union a simple polygon, which becomes the
// silhouette; the planted solution comes with it. Seeded and reproducible;
// GenerateWith can also turn pieces at random.
//
// Exact is the reference solver: depth-first search that covers one
// convex corner of the uncovered region at a time (the one with the
// fewest fitting placements, or with LowestLeft the lowest-leftmost), so
// that each branch is a piece and orientation and the translation is
// forced (a piece vertex meets a vertex of the silhouette or of a placed
// piece); exact fit tests; MaxNodes and the context bound it (ErrBudget,
// with the best partial solution). On 50 generated seven-tan puzzles it
// needs at most ten nodes and a hundredth of a second without turns, 91
// nodes with turns and mirror images (TestExactFifty). Snap turns the
// approximate translations of a numerical method into an exact Solution
// that Check can judge. Exact.Count goes on past the first solution and
// counts the distinct tilings up to a limit ("is it unique?"). With turns
// and mirror images it solves every figure of the set in at most 283
// nodes (docs/results/tangram.md). GenerateHard draws jagged random
// figures (the most reflex corners, no straight edge longer than 2).
//
// # Pictures into figures
//
// Trace reads a dark shape on a light background, or pieces of any
// colours on a plain one, and makes a figure of it: the pixel outline
// with its holes, simplified, turned so that its edges run at multiples
// of 45 degrees, scaled to area 8 and snapped to the lattice (integer
// coordinates or multiples of √2/2), with the faults named where a vertex
// lies farther than the tolerance or an edge is not at 45 degrees.
// TraceFile reads PNG, JPEG, GIF or SVG (straight path commands,
// ParseSVGPath), bounded before decoding; Picture draws a figure as a
// picture, turned, scaled and with noise, for the tests and the bench
// (tessera tangram figures -pictures).
//
// # Moments for Algorithm 2
//
// SegmentMoments gives the path moments ∫ x^i y^j ds of an edge up to a
// degree K, Moments.Translate their polynomial form under a translation,
// and SegmentExp the paper's exponential ∫ e^{k·z} ds. NewSystem groups a
// puzzle's edges by class (direction; the sign s of eq. 5 says which way)
// with the frame as the static piece, so that at a solution
// Σ_i Piece[i][c].Translate(t_i) + Frame[c] = 0 for every class and
// degree, and ExpCoefficients gives the coefficients α_i^(k,c) of the
// system (9) in T_i = e^{t_i} that the Hankel matrices Z_i of Algorithm 2
// hold. Nothing here depends on an SDP solver.
//
// # Algorithm 2
//
// SDP is the paper's Algorithm 2 (section 5.2.2), for translations (turns:
// the next section). Each
// piece i has a moment matrix Z_i over the monomials of degree at most K
// in T_i = (e^{τx}, e^{τy}) (eq. 20 and, in 2-D, 44: entry (β, γ) holds
// the moment z_i,β+γ, so the main diagonal blocks are Hankel), Z_i[0,0] =
// 1. The equations are (9) with the path integrals (26): for every edge
// class c and every k with |k| <= 2K, Σ_i α_i^(k,c) z_i,k + frame = 0,
// the frame being the silhouette with its edges reversed, a static piece
// with T = 1 whose terms are constants. The SDP (23) minimises Σ_i <W_i,
// Z_i> over Z_i ⪰ 0 of that form; the first has W_i = 0 (the plain
// relaxation), the next W_i = I - v_i v_iᵀ from the top eigenvector of the
// last Z_i (eq. 24), and <W_i, Z_i> is then the sum of all eigenvalues of
// Z_i but the largest: Objective, zero exactly at rank one. The
// translations are the first moments, t = ln z_i,(1,0), ln z_i,(0,1) (in
// the scaled frame below); Snap rounds them to vertex contacts and Check
// decides exactly.
//
//	res, err := tangram.SDP{}.Solve(ctx, p) // sdp.IPM{}, K = 3
//	// res.Solved: Check(p, res.Solution) == nil; res.SDP.Iterates: poses per SDP
//
// Where the paper is silent, these choices (each tested):
//   - Scale: coordinates are centred on the silhouette's bounding box and
//     divided by its half-size R; piece i's unknown is τ_i = (t_i - c_i)/R,
//     c_i the centre of the box of translations that keep the piece inside
//     the silhouette's box, so every τ lies in [-1, 1]² and T_i^k stays
//     within e^{±2K}. The exponential basis is the default; BasisPoly
//     (f = u_x^a u_y^b, Z_i the moments of τ_i itself) is the alternative:
//     it solves the 50 generated puzzles of the results page too, and the
//     classics but the triangle (40 SDPs, Objective stuck near 1).
//   - K = 3: Z_i has 10 rows and the equations reach degree 6, more than
//     the number of edges of one class (Proposition 2). K = 2 solves the
//     50 generated puzzles (up to 22 SDPs) but not the triangle; K = 4
//     solves them in about 4.5 times the CPU time.
//   - Bounds: every diagonal entry z_i,2β is at most its largest value
//     on piece i's box (plus 0.05 in τ), through a slack in one LP block:
//     with them the feasible set is compact and every SDP bounded (the
//     first, with W = 0, has a whole face of optima otherwise unbounded).
//   - Equations: the terms of z_i,0 = 1 move to the right side, and the
//     rows are orthonormalised (Gram-Schmidt) so that dependent ones (an
//     edge class whose lengths cancel within a piece, for instance) are
//     dropped and the Schur complement stays regular.
//   - Stopping: Objective <= Epsilon (1e-6) as in the paper, or as soon as
//     an iterate snaps to a checked solution (often the first, plain
//     relaxation already does); MaxIter (40), MaxTime and the context
//     end it with ErrBudget; rank one without a solution is
//     ErrNotRounded. Every iterate is kept (Result.SDP.Iterates) and
//     passed to OnIterate, for the strips of Figures 5d and 6d.
//   - Restarts (not in the paper): the iteration can stall at a point that
//     is not rank one (the classic triangle, whose 2×2 block the five
//     small tans tile in several ways: Objective stays at 4). When the
//     objective has not fallen by 1% in Stall iterations (3) the next W_i
//     is I - u_i u_iᵀ/|u_i|² for the monomial vector u_i of a random
//     point of the piece's box (seeded). Stall < 0 runs the plain
//     iteration. The restart also breaks the symmetry of identical pieces,
//     which the central path of an interior-point method keeps.
//
// The figures (iterations, seconds per backend, the iterate strips, 50
// generated puzzles) are in docs/results/tangram.md.
//
// # Algorithm 2 with unknown orientations
//
// When the puzzle allows turns (TurnsRotate: the 8 turns by 45 degrees;
// TurnsFlip: their mirror images too), SDP solves the augmented puzzle of
// section 6.3 (Proposition 4, Figure 7): the puzzle, frame and pieces,
// duplicated in every admissible orientation A about the silhouette's box
// centre O, solved as one translation-only puzzle in which the A-copy of
// piece i sits at A·t_i, one unknown t_i per piece (Augmentation). At a
// solution with piece i turned by φ_i and its reference point (the mean of
// its vertices) at O + ŝ_i, t_i = A_φi⁻¹ ŝ_i. Choices:
//   - Basis: polynomial whatever Basis says. The paper's e^{k·u} would need
//     the exponents A_oᵀk, irrational for 45-degree turns; (A·τ)^γ is a
//     polynomial of degree |γ| in τ, so the equations (28) stay linear in
//     the moments of τ_i = t_i/R and the SDP has the size of the
//     translation-only one. Coefficients that the copies cancel to under
//     1e-12 of their terms are set to 0 (else rounding makes spurious
//     equations; 1e-10 also zeroed some true coefficients of degree 10),
//     and the 90-degree matrices are exact.
//   - Bounds: |τ_i| is at most the silhouette's radius about O over R.
//   - K = 5 by default (Z_i of 21 rows): at K = 3 every classic figure ends
//     at a rank-one iterate that is not a solution (the summed equations
//     of degree 6 do not pin the pieces down); K = 5 solves some.
//   - Restarts: from the weights of a random placement of every piece (its
//     reference point at a random point of the silhouette, a random
//     admissible orientation: t_i = A⁻¹ ŝ_i), and also when the objective
//     reaches rank one without a solution (sdp.Reweighting's
//     RankOneRestart) rather than stopping there.
//   - Read-out: the copies of piece i whose vertices lie in the unturned
//     silhouette (within SnapTol) are its candidate orientations; a search
//     over one candidate a piece that covers sample points of the
//     silhouette about once each gives the choices tried with Snap and
//     Check (at most 64). Iterates carry the shifts (SDPIterate.Shifts);
//     RenderAugmented draws them as Figure 7 does.
//
// It solves the two-tan figures and the four-piece T with their
// orientations hidden (tests, both backends), and none of the seven-tan
// figures measured (docs/results/tangram.md). Why: the turned copies of
// the frame overlap about the common centre, and then even the complete
// equations (28) only say that the coverage summed over the turns matches
// the frame's (a fold of the plane), not that the pieces tile; the
// rank-one iterates at K = 3 put pieces where their copies pile up near
// the centre, and no choice of one copy a piece balances the edge vectors
// direction by direction (TestAugmentedDiagnose). A centre far enough for
// the copies to be disjoint makes (28) complete, but the moments of
// degree at most 2K about it resolve the silhouette too coarsely (tried:
// no figure solved). The exact solver is the one to use for turned
// pieces.
//
// # Pictures
//
// Render draws a puzzle (silhouette and a tray of pieces) or poses of the
// pieces over the silhouette in distinct colours; poses are float so that
// the iterates of a numerical method can be drawn. RenderPNG encodes it;
// RenderStrip puts several arrangements side by side (the strips of
// iterates of the paper's Figures 5d and 6d).
//
//	p, _, _ := tangram.Generate(7, tangram.Tans())
//	res, err := tangram.Exact{}.Solve(ctx, p)
//	// err == nil: tangram.Check(p, res.Solution) == nil
//	tangram.RenderPNG(w, p, res.Solution.Poses(), tangram.RenderOptions{})
package tangram

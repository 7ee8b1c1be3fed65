// Package samegame models cluster-clearing games and solves them: standard
// SameGame and the source blog's "dust" game.
//
// # Boards and coordinates
//
// A Board has 1 to 20 columns and 1 to 20 rows of cells, each empty or of
// one of up to 10 colours (0 .. 9). Cell (x, y) is in column x from the
// left and row y from the bottom, the convention of the data files' move
// lists ("x y", row 0 at the bottom). Text lists the top row first.
//
// A group is a set of cells of one colour connected through their four
// neighbours. A click (Move) on a cell removes its whole group; then every
// cell falls down its column until it rests on a cell or the bottom, and
// the board closes up as the Rules say.
//
// # Rules
//
// Standard is SameGame as in the literature (the standard 20-position test
// set of Schadd et al.): a group must have at least 2 cells and scores
// (n-2)^2; after the fall, every empty column is removed by sliding the
// columns to its right one place left; the game ends when no group of 2
// cells or more is left, with a bonus of 1000 if the board is empty. The
// score of a game is the sum (no penalty for the cells left).
//
// Dust is the game of the source blog (ben.land, 2021; an 8x6 board of 5
// colours): any group may be clicked, single cells too; after the fall,
// each row is packed toward the centre on its own: the cells of columns
// 0 .. w/2-1 slide right to end at column w/2-1 and those of columns
// w/2 .. w-1 slide left to start at column w/2, keeping their order, so
// that a column can be sheared. The game ends when the board is empty; the
// aim is the fewest clicks.
//
// # Formats
//
// ParseSet reads the shared data files: the standard set ("position N"
// then rows of digits separated by spaces) and the blog's examples
// ("example NAME", "board", rows of letters such as GGGGBOYO with
// G O R Y B for colours 0-4, "optimal N", "moves K" and K lines
// "x y [COLOUR SIZE]"). Lines starting with '#' are comments, '.' is an
// empty cell. Format and Line write boards back; ParseMoves and FormatMoves
// read and write click lists ("x,y" tokens).
//
// # Playing and solving
//
// Board.Moves lists the groups that may be clicked (with their Zobrist
// codes; union-find over each column's runs of one colour, the runs and
// the cells that match their left neighbours found eight cells at a time
// as bit masks), Board.Play clicks, Game keeps the score and the history for
// Undo, Replay checks a move list and scores it, Random draws a board from
// a seeded generator. A Solver is a value that carries its parameters and
// solves a board under the board's rules with Solve(ctx, board); this
// package has:
//
//   - DFS, the blog's depth-first branch-and-bound with its move orders
//     (largest group, lookahead, shortlook) and its bound (clicks so far
//     plus colours left must beat the best), with a table of the dust
//     boards already searched; under Standard a score-bounded variant
//     (DFS{Order, LookaheadPlies, TableBits, MaxNodes}).
//   - Exact, which proves the fewest clicks of a Dust board of up to 64
//     cells: IDA* with admissible bounds (the colours left, plus one or
//     two where the reach of the clicks, the cells a click can change,
//     shows that no colour can be removed in one click; and the half
//     bound: no cell crosses the centre, so each half plays a relaxed game
//     of its own, whose optima, found by a small search, bound the
//     clicks), sleep sets over commuting clicks and a transposition table
//     of learned bounds, on bit boards, seeded by a beam search's solution
//     (Exact{TableBits, MaxNodes}).
//   - Beam, beam search with duplicate detection (Beam{Width, MaxNodes});
//     when its budget ends first, it completes its best board greedily.
//   - MCTS (SP-MCTS), NMCS{Level} and NRPA{Level, Iterations} from
//     package mcts, through Position, with the tabu-colour move filter
//     under Standard rules (NoTabu turns it off), a Seed, a playout budget
//     and Restart to use the whole of a CPU budget. NRPA also takes
//     TabuPairs (the tabu colour's groups of two are legal after 10 clicks,
//     the selective rule of Negrevergne and Cazenave's code), Stabilize
//     (stabilized NRPA: P playouts per level-1 adaptation), Portfolio
//     and Round (several top-level searches raced by successive halving)
//     and TabuColors (the race's members keep different colours for last,
//     the colours tied with the largest, TabuCandidates: on such boards
//     which one to keep is the first decision, and the lowest is an
//     arbitrary choice), MoveCode (CodeAnchor: colour, clicked cell and
//     size class instead of the exact cells), PriorLeft and PriorSize (a
//     Generalized NRPA prior, Position.SetPrior: favour the colours with
//     the fewest cells left, or groups by size), TabuSecond (keep the
//     next largest colour together too, for second-last) and Repeats
//     (limited repetitions: a level ends once its best line came back
//     that many times). Position.Key
//     names a position's moves for NRPA's cache of move lists
//     (mcts.Keyed), which skips the group finder at a board reached again.
//   - DistNRPA, NRPA distributed in the manner of Negrevergne and
//     Cazenave (CGW 2017): the root level adapts its policy here and
//     dispatches its level-(Level-1) searches, Parallel at a time and each
//     with a copy of the policy (mcts.NRPAPolicy) and its own seed, to an
//     NRPAExecutor: goroutines (LocalNRPA) or jobs on other machines
//     (SolveNRPACall is what a worker runs). The answers are taken in the
//     order they were sent and replayed, so the result depends on the seed
//     and Parallel, not on the machines. With TabuColors its restarts keep
//     the colours tied with the largest for last in turn.
//
// Package policy adds the solvers guided by the dust game's network. The
// command line and the web app name all of them through their catalogue
// (tessera/internal/catalog), which builds these values from flags.
//
// BeamLabels runs the Dust beam to its first clear and returns the
// positions on the shortest lines it found, each with every click that
// stays on one: training data for the dust policy (package policy).
//
// For example, the blog's first board needs 11 clicks:
//
//	b, _ := samegame.ParseBoard("GGGGBOYO/RORGYGBY/RRBGOORG/BRBOBYRG/BRYBBRGG/OYGGRORG", samegame.Dust)
//	sol, err := samegame.Exact{}.Solve(ctx, b)
//	// sol.Clicks = 11, sol.Optimal = true
//
// Measured figures (the standard set, random dust boards) are in
// docs/results/samegame.md.
package samegame

// Package partial searches for the best score of an edge-matching puzzle
// whose complete solution is out of reach (Eternity II): complete boards
// with as few mismatched edges as possible.
//
// # Tutorial
//
// Every search here is an edgematch.Solver that reports its best board in
// Result and, as it improves, to OnBest; a budget (MaxNodes, MaxMoves or
// the context's deadline) ends it:
//
//	p := ... // edgematch.ReadPuzzleFile("eternity2.txt") with its hints
//	ctx, cancel := context.WithTimeout(ctx, time.Hour)
//	defer cancel()
//	res, err := partial.Breaks{Seed: 1}.Solve(ctx, p)
//	// res.Board scores res.Score (e.g. 466/480); err wraps edgematch.ErrBudget
//
// Breaks is the catalogue's default partial search ("partial"), Tiles its
// variant ("tiles"), Partial the large neighbourhood search ("lns"), and
// DistPartial runs many seeded searches at once on any executor.
//
// # The searches
//
// Partial maximises the score of complete boards: a start board from the
// backtracker completed under a break schedule, then window repairs by
// branch and bound, assignment repairs by the Hungarian method and kicks,
// on every core, reporting every new best board (the catalogue's "lns").
// DistPartial runs many searches of any SeededSearch (Breaks, Tiles or
// Partial), one seed and one worker each, on a PartialExecutor
// (goroutines, or jobs on other machines), checks and rescores every board
// they report and keeps the best as it improves.
//
// Breaks is the break-schedule search of the Eternity II record boards
// (Blackwood's 468-470) as the whole search: a backtracker in a fixed fill
// order (BreakOrder: rows from the bottom, the last four rows column by
// column) that may leave one mismatched edge per placement, but only after
// the fill indices of a schedule (DefaultSchedule: 201, 206, ..., 239 on
// Eternity II, ten breaks), with Blackwood's heuristic colours
// (HeuristicColours) whose sides must be placed at a set pace early on,
// candidate lists reshuffled at every restart, and every board deeper
// than the restart's earlier ones completed (assignment, or the exact
// branch and bound when at most 16 cells are empty, then Partial's
// repairs) and scored; it is the
// catalogue's "partial", the default partial search. Tiles runs
// the same engine with the idea of Verhaard's 2008 prize solver instead of
// the heuristic colours: before every restart a good group of inner pieces
// of high 2x3 tileability, kept for the end of the fill.
//
// # Budgets, resuming and reproducibility
//
// Partial, Breaks and Tiles hand every new best board to OnBest
// ("tessera edgematch solve -algo partial|tiles|lns -o" saves it
// atomically, with the seed, and -resume continues from a saved board:
// Partial improves it; Breaks and Tiles keep it as the board to beat,
// polish it once and draw their restarts from the seed and the board, so
// a resumed run does not repeat the first one's restarts).
// Partial.MaxMoves counts each worker's moves, so a partial search it ends
// gives the same board for the same seed and worker count;
// Breaks.MaxNodes and Tiles.MaxNodes count each worker's placements,
// likewise with one worker (several share their best score, which decides
// which completed boards are polished); a context deadline is wall-clock
// time, and a search it ends depends on the machine and its load.
package partial

// Package bench is the application's benchmark runner, shared by every
// family's bench verb (and, through jobs, by workers on other machines).
//
// Run hands items to a pool of workers, each item under its own budget
// (wall-clock time, or CPU time of the solving thread with Options.CPU), and
// hands the results back in item order as soon as every earlier item is
// done, so a bench prints the same lines in the same order on any number of
// workers. Writer prints them: one JSON object per line per item then a
// summary object with "summary": true under -json, else a table and a
// summary paragraph. The family files (npuzzle.go, samegame.go, ...) hold
// each family's records, summaries and tables, and may keep the reports of
// its verbs that solve or score one puzzle (EdgeMatchSolved, JigsawSolved,
// WriteNpuzzleSolve, WriteSameGameSolve, WriteSameGameScore) and the
// readers of the inputs their verbs name (NpuzzleSet.ReadSet,
// ReadSameGameSet, ReadSameGameBoard); npuzzle_pdb.go loads pattern
// databases for the command line and prints their tables. The verbs of
// edge-matching and tangram keep only flags and printing: their runs are
// here (edgematch_solverun.go: EdgeMatchSolveRun wires the catalogue
// solver's hooks to the saved boards, LP snapshots, split journal and
// progress; edgematch_input.go and tangram_input.go: the readers,
// EdgeMatchScans, WriteEdgeMatchCNF, TangramGenerate, SolveTangram,
// TangramTrace, WriteTangramRender). A mistake in such an input is a
// UsageError (the command line's exit status 2);
// plot.go draws figures (SameGamePlot: the source blog's comparison of two
// dust solvers).
//
// The runs behind the other verbs of a family live here too, so that a
// verb is its flags and a call: the training runs (GapTrain,
// SameGameTrain), data sets (SameGameData), the scramble and the mosaic
// of pictures (JigsawScramble, JigsawMosaic), a sheet's solve
// (JigsawSolve, SolveGap), a sliding-tile solver with its pattern database
// (NpuzzleSolver) and the sliding-tile bench (NpuzzleBench). Each is plain
// data whose fields with a json tag are the verb's flags
// (catalog.BindFlags, documented by their help tags), with a Run.
//
// RunItems is Run for an Item, a kind of bench item declared with NewItem:
// its input and result travel as JSON, so that with Options.Remote (a
// *jobs.Client, "-nats URL") every item is a job run by workers anywhere
// ("tessera worker" registers every kind of Items) under the item's
// budget, and the bench prints what it prints in-process, in the same
// order, with the workers' CPU times. Without Remote it is Run, unchanged.
// The *_remote.go files declare each bench's item kind.
//
//	res, err := bench.Run(ctx, len(boards), bench.Options{Workers: 2, Timeout: time.Second},
//		func(ctx context.Context, i int) Record { return solve(ctx, boards[i]) },
//		func(i int, r *Record, cpu time.Duration) error { return w.Item(r, r.Row()) })
package bench

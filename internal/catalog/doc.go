// Package catalog is the solve contract of every family: the one spelling
// of "solve this puzzle with catalogue solver X, these options, this
// budget" that the command line, bench, the web app and the workers share.
//
// For a family on the contract (all of them: samegame, tangram, jigsaw,
// gaps, npuzzle and edgematch) it holds:
//
//   - Options (SameGameOptions): plain data that travels as JSON, defaults
//     in the zero value. A field's json tag is its name and, with '-' for
//     '_', its command-line flag; its help tag documents it. BindFlags
//     defines the flags from the fields, so a new knob is its field and its
//     use, nothing else. The options that one solver alone reads are
//     grouped in an embedded struct named for it (EdgeMatchLPOptions,
//     TangramSDPOptions, ...), and an option two families share is one
//     embedded type (SDPBackendOption): embedding keeps the JSON, the
//     flags and their order flat, as if the fields were the family's own.
//
//   - Hooks (SameGameHooks): progress callbacks and executors, which stay
//     in the process that runs the solver.
//
//   - a Table of entries: an id (the -algo name), a name, a doc line and
//     capabilities as data: Optimal (a finished run proves its answer),
//     Anytime (its best so far is an answer when its budget ends), Plays
//     (the rules or kinds of puzzle it plays) and Reads (the options it
//     reads). "-X applies to -algo Y" errors (Table.Applies), the web's
//     menus (Table.Playing) and bench's reporting come from these.
//
//   - Record (SameGameRecord): the one result, what `solve -json` prints,
//     each `bench -json` line, what a job returns.
//
//   - Job (SameGameJob): a Spec and the puzzle itself (inline, or pictures
//     by content address): the input of the job kind "<family>.solve"
//     (JobKinds), which `tessera worker`, bench's -nats and the web app
//     run alike. A job names no file on its worker. The View of the
//     jigsaw, gap, edge-matching and tangram jobs (*_view.go) adds what a
//     person follows on the web page: progress values and the answer's
//     view, computed (scored against the truth) where the job runs. The
//     sliding-tile job (NpuzzleJob) carries the web game's gap-anywhere
//     goal as its Blank, which the job maps to blank-last and back
//     (NpuzzleGoalMap, npuzzle_goal.go), and names its pattern database by
//     partition: the worker loads it from its own cache, building a
//     missing one only within the job's BuildMiB (RunNpuzzleJob reports
//     the load or build, then the search, as NpuzzleProgress).
//
//     job := catalog.SameGameJob{Spec: catalog.Spec[catalog.SameGameOptions]{Solver: "nrpa",
//     Options: catalog.SameGameOptions{Level: 3, Iterations: 100}, Budget: catalog.Budget{Timeout: time.Minute}},
//     Rules: "standard", Board: text}
//     rec := job.Run(ctx, catalog.SameGameHooks{})
//
// Budgets (WithBudget) are wall-clock or the CPU time of the solving
// thread. Games lists the web app's games, which help and the web's
// navigation read.
//
// The family files (npuzzle.go, jigsaw.go, edgematch.go, samegame.go,
// tangram.go) hold the tables and the options their constructors read.
package catalog

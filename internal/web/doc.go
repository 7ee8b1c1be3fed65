// Package web is Tessera's web app: the sliding-tile picture game, the
// dust game (SameGame's fewest-clicks variant), SameGame under the
// standard rules, edge-matching, square-piece jigsaws, jigsaws with gaps
// (Alphazzle, gaps.go) and tangram (tangram.go), served by the standard library's HTTP
// server with embedded templates and static files, and a JSON API behind
// the pages. A game is a value of type game (page, API calls, job kinds,
// saved-game check) joined by kind to its entry of catalog.Games (kind,
// menu entry, path, order) in games; the solver menus come from
// internal/catalog.
//
// Long solves are jobs (jobs.go): a page submits one (POST /api/jobs),
// follows its progress as server-sent events, may cancel it, and keeps its
// id in localStorage so that a reload finds it again. The job system is an
// interface, Jobs: NATSJobs runs them on internal/jobs (NATS JetStream,
// what `tessera serve` uses, where a job survives a server restart), and
// MemJobs in memory (tests, and a Config without one). A page's job is the
// catalogue's (catalog.JobKinds), which any worker runs: `tessera worker`
// imports no part of this package. At submit the server fills in the
// page's defaults and puts the job's inputs in the job system's blob store
// (the jigsaw's pictures, the gap puzzle's region: a worker reads no file
// the job names), and the jigsaw, gap, edge-matching and tangram jobs ask
// for their view (View: the layouts, placements, boards and iterates the
// page shows, computed where the job runs). The sliding page's Auto is the
// catalogue's npuzzle.solve with the blank's home of the page's goal: the
// server names the pattern database at submit (its own if loaded or on
// disk, else the quick 6-6-3 on 4x4) and bounds what a worker may build
// (catalog.NpuzzleJob.BuildMiB); the worker maps the goal and loads or
// builds the database in its own cache (the server's in-process runs use
// the server's pdbSet). Only npuzzle.pdb, the build of the server's own
// databases, runs on the server's MemJobs (jobKind.local) whatever the
// job system, and does not survive a restart. The server bounds
// the jobs of one client and of one address running at once (counted again
// from the store's job records at start), each job's time, and the sizes
// of every spec.
//
// Who may do what (identity.go, docs/web.md "Clients and owners"): each
// request carries a client identity, a random 128-bit id in an HttpOnly,
// SameSite=Strict cookie; every job, saved game and uploaded picture is
// stored with its owner, and another client's answers 404 like an unknown
// id. Config.Token, when set (serve beyond loopback), is asked of every
// request but the static files'. ServeToken chooses it from `tessera
// serve`'s -token and -open, and App (app.go) runs the server as serve
// does: its database, its job system and in-process workers.
//
// The pages are html/template files under templates/ and plain ES modules
// and CSS under static/, embedded in the binary: there is no front-end build
// step. The games run in the browser (moves, undo, timer, victory); the
// server shuffles, deals or cuts, solves with the catalogue's solvers
// under time and memory limits, gives hints, checks every saved game by
// replaying it, keeps uploaded pictures and saved games in a Store
// (internal/store), and answers every API error as JSON {"error": "..."}
// with a fitting status, never a stack trace.
//
// Uploads are bounded before they are decoded: file size, pixels and
// decoding memory are read from the header (Config.MaxUploadBytes,
// MaxUploadPixels, DecodeMemory). A picture is decoded reduced to the
// square the game stores (imageio.DecodeReduced): a non-interlaced PNG a
// row at a time, so a 6000x6000 upload allocates about 14 MiB; the uploads
// decoded at once share DecodeMemory (512 MiB) and wait for their share.
//
//	s, err := store.Open(ctx, path)
//	srv, err := web.New(web.Config{Store: s, Logger: logger})
//	ln, err := net.Listen("tcp", "127.0.0.1:8080")
//	err = srv.Serve(ctx, ln) // until ctx ends, then a graceful shutdown
//
// A Server used as a plain http.Handler (behind another http.Server, in
// tests) is closed by its owner once its requests are done: Close ends
// its jobs and pattern database builds, as Serve does on shutdown.
//
// The jigsaw (jigsaw.go) is a function of its recipe, jgRef (pictures,
// piece size, type, seed): the server cuts and scrambles again when asked
// (a cache keeps the last four), sends the pieces as one sheet image and
// keeps the truth, scoring the layouts the page sends and marking their
// wrong joins; jigsaw.solve jobs stream each generation's best layout.
//
// The sliding game's gap may have its home anywhere (the source game lets
// the first tile tapped become the gap): the catalogue's goal map
// (catalog.NpuzzleGoalMap) mirrors the board to bring the home nearest the
// last cell, renames the tiles and walks the gap home after the solver's
// answer, in the job wherever it runs and in the synchronous solves. IDA* uses the
// pattern databases of Config.PDBs, 7-8 on 4x4 and 6-6-6-6 on 5x5, each
// loaded or built once per server whoever asks (pdbSet), on the server's
// life rather than a job's, and kept in package npuzzle's files in
// Config.PDBCache (npuzzle_pdb.go): an npuzzle.pdb job builds one with its
// progress, GET /api/npuzzle/pdb says where each stands, and the page
// offers IDA* on 5x5 only once its database is there. SameGame's
// Monte-Carlo searches report their best line as it improves, and the page
// steps through it while the search runs.
//
// A gap puzzle travels whole: its region, the picture's middle square cut
// to the grid's side, as a PNG in every request and the page's job spec
// (gapsRef; the job submitted carries it by blob address), so that any
// server or worker rebuilds it (neural.Cut, shuffled as neural.Centre
// does) with no picture store. MCTS reports each placement
// through neural.Options.OnStep (priors, visits, values of the root's
// children, V's estimate), which the gaps.solve job streams as progress.
//
// A tangram board travels exactly: every coordinate as the two integers
// of package tangram's Num ((a + b√2)/2), so the page snaps a dropped tan
// onto a corner without rounding and the server decides with
// tangram.Check whether the figure is filled. The figures come from one
// function, figureList (the classics and generated figures for now, each
// with a known solution on the board's tans, which Algorithm 2, translation
// only, is given the orientations of).
//
// The API (all bodies JSON; sliding boards in the npuzzle text format, such
// as "1 2 3/4 5 6/7 0 8"; dust boards as rows of letters, top first, "/"
// between rows; docs/web.md has the games' own calls and the job kinds):
//
//	GET    /api/npuzzle/solvers          the Auto menu: the solvers of catalog.Npuzzle
//	POST   /api/npuzzle/shuffle          {"size":"4x4","uniform":false,"seed":7}
//	POST   /api/npuzzle/solve            {"board":"...","solver":"astar","timeout_ms":10000}: catalog.NpuzzleRecord with ms, guide, note, limit
//	POST   /api/npuzzle/hint             {"board":"..."}
//	GET    /api/npuzzle/saves            list of saved games
//	GET    /api/npuzzle/saves/{name}     one saved game
//	PUT    /api/npuzzle/saves/{name}     save {"start","board","history","picture","elapsed_ms"}
//	DELETE /api/npuzzle/saves/{name}
//	GET    /api/npuzzle/pdb              the pattern databases: ready, loading (progress), on disk, absent
//	GET    /api/dust/solvers             the dust game's Auto menu (catalog.SameGame)
//	POST   /api/dust/deal                {"seed":3}
//	POST   /api/dust/solve               {"board":"GGGGBOYO/...","solver":"exact","timeout_ms":10000}
//	POST   /api/dust/hint                {"board":"..."}
//	POST   /api/dust/certainty           {"board":"..."}: the network's certainty board
//	GET, PUT, DELETE /api/dust/saves/... as for npuzzle; save {"start","board","history","seed","elapsed_ms"}
//	GET    /api/pictures                 built-in and uploaded pictures (?offset= &limit=: pages, as saves)
//	POST   /api/pictures                 upload (multipart field "picture", or an image/* body)
//	DELETE /api/pictures/{id}
//	GET    /pictures/{id}                an uploaded picture (JPEG)
//	POST   /api/jobs                     {"kind":"npuzzle.solve","spec":{...}}: 202 and the job's state
//	GET    /api/jobs/{id}                the job's state; /events: its states as server-sent events
//	DELETE /api/jobs/{id}                cancel
//	GET    /api/samegame/positions, POST /api/samegame/deal
//	GET    /api/edgematch/puzzles, POST /api/edgematch/load, POST /api/edgematch/bucas
//	POST   /api/gaps/new, POST /api/gaps/score
//	GET    /api/jigsaw/sets, POST /api/jigsaw/new, POST /api/jigsaw/score
//	GET    /api/tangram/figures, POST /api/tangram/figure, POST /api/tangram/check
//
// docs/web.md documents each call with examples. The built-in pictures
// under static/pictures are drawn by the program in genpictures; go generate
// draws them again.
package web

//go:generate go run ./genpictures -o static/pictures

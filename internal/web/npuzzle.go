package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"tessera/internal/catalog"
	"tessera/internal/store"
	"tessera/npuzzle"
	"tessera/search"
)

// maxSide is the largest number of rows or columns the game offers.
const maxSide = 10

// npuzzleGame is the sliding-tile picture game.
var npuzzleGame = &game{
	Game: catalog.GameOf("npuzzle"),
	data: func() any {
		return npuzzlePage{Solvers: catalog.Npuzzle.Menu(), Sizes: []string{"3x3", "4x4", "5x5", "6x6", "8x8", "10x10"},
			Recommended: recommended,
			MinSide:     npuzzle.MinSide, MaxSide: maxSide, Pictures: builtinPictures}
	},
	routes: (*Server).npuzzleRoutes,
	save:   saveOf(npuzzleSave),
	jobs:   npuzzleJobs,
	auto:   "solve and play the solution (key a)",
}

// npuzzlePage is what the game's page shows from the server's lists.
type npuzzlePage struct {
	Solvers          []catalog.Menu
	Sizes            []string          // the size menu; any other is "custom"
	Recommended      map[string]string // the solver picked for a size; others: fast
	MinSide, MaxSide int
	Pictures         []pictureInfo // the built-in ones; the page asks for uploads
}

// RecommendedJSON is Recommended for the page's script.
func (p npuzzlePage) RecommendedJSON() string {
	b, _ := json.Marshal(p.Recommended)
	return string(b)
}

func (s *Server) npuzzleRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /api/npuzzle/solvers", s.serveAPI(s.npuzzleSolvers))
	m.HandleFunc("POST /api/npuzzle/shuffle", s.serveAPI(s.npuzzleShuffle))
	m.HandleFunc("POST /api/npuzzle/solve", s.serveAPI(s.npuzzleSolve))
	m.HandleFunc("POST /api/npuzzle/hint", s.serveAPI(s.npuzzleHint))
	m.HandleFunc("GET /api/npuzzle/pdb", s.serveAPI(s.npuzzlePDBs))
}

// solver is one entry of the Auto menu, an entry of catalog.Npuzzle (the
// menu lists the whole table, with each entry's default options).
type solver struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Optimal     bool   `json:"optimal"` // its solutions are proven shortest
}

// solvers is the Auto menu: catalog.Npuzzle in its order, the default
// (astar) first.
var solvers = func() []solver {
	var s []solver
	for _, m := range catalog.Npuzzle.Menu() {
		s = append(s, solver{ID: m.ID, Name: m.Name, Description: m.Doc, Optimal: m.Optimal})
	}
	return s
}()

func findSolver(id string) (solver, bool) {
	for _, s := range solvers {
		if s.ID == id {
			return s, true
		}
	}
	return solver{}, false
}

// hintWeights are the A* weights tried, in order, for a quick hint when no
// shortest solution is found in time.
var hintWeights = []float64{5, 10, 30}

// parseBoard reads a board from a request: the npuzzle text format, at
// most maxSide x maxSide.
func parseBoard(text string) (*npuzzle.Board, error) {
	if len(text) > 4<<10 {
		return nil, errorf(http.StatusBadRequest, "bad board: longer than 4 KiB")
	}
	b, err := npuzzle.Parse(text, npuzzle.Size{})
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "bad board: %v", err)
	}
	if b.Rows() > maxSide || b.Cols() > maxSide {
		return nil, errorf(http.StatusBadRequest, "bad board: %v is larger than %dx%d", b.Size(), maxSide, maxSide)
	}
	return b, nil
}

// parseSolvableBoard is parseBoard plus the parity test for the goal with
// the blank's home at the given cell (nil: the last).
func parseSolvableBoard(text string, home *int) (*npuzzle.Board, int, error) {
	b, err := parseBoard(text)
	if err != nil {
		return nil, 0, err
	}
	k, err := checkHome(home, b.Size())
	if err != nil {
		return nil, 0, err
	}
	if !solvableFor(b, k) {
		return nil, 0, errorf(http.StatusUnprocessableEntity, "board is not solvable: no sequence of moves leads to the goal (two tiles are swapped)")
	}
	return b, k, nil
}

func (s *Server) npuzzleSolvers(r *http.Request) (int, any, error) {
	return http.StatusOK, map[string]any{"solvers": solvers, "default": solvers[0].ID, "recommended": recommended}, nil
}

// recommended is the solver the page picks for each board size: the
// optimal IDA* where it finishes (with a pattern database on 4x4 boards),
// the fast solver beyond.
var recommended = map[string]string{"3x3": "astar", "4x4": "idastar", "5x5": "fast"}

// shuffleRequest is the body of POST /api/npuzzle/shuffle.
type shuffleRequest struct {
	Size    string  `json:"size"`    // ROWSxCOLS, 2 to maxSide each
	Uniform bool    `json:"uniform"` // uniform among solvable boards, else the random walk
	Seed    *uint64 `json:"seed"`    // nil: a fresh one
	Blank   *int    `json:"blank"`   // the blank's home cell; nil: the last
}

type shuffleResponse struct {
	Board   string `json:"board"`
	Size    string `json:"size"`
	Seed    uint64 `json:"seed"`
	Uniform bool   `json:"uniform"`
	Walk    int    `json:"walk,omitempty"` // random-walk length
	Blank   int    `json:"blank"`          // the blank's home cell
}

func (s *Server) npuzzleShuffle(r *http.Request) (int, any, error) {
	var req shuffleRequest
	if err := decodeJSON(r, 1<<10, &req); err != nil {
		return 0, nil, err
	}
	size, err := npuzzle.ParseSize(req.Size)
	if err != nil {
		return 0, nil, errorf(http.StatusBadRequest, "bad size: %v", err)
	}
	if size.Rows > maxSide || size.Cols > maxSide {
		return 0, nil, errorf(http.StatusBadRequest, "bad size: %v is larger than %dx%d", size, maxSide, maxSide)
	}
	k, err := checkHome(req.Blank, size)
	if err != nil {
		return 0, nil, err
	}
	seed := rand.Uint64()
	if req.Seed != nil {
		seed = *req.Seed
	}
	b, walk := shuffle(size, k, req.Uniform, seed)
	return http.StatusOK, shuffleResponse{Board: b.Line(), Size: size.String(), Seed: seed, Uniform: req.Uniform, Walk: walk, Blank: k}, nil
}

// shuffle returns a solvable board other than the goal with the blank's
// home at k, drawn from seed: uniformly, or by the source game's random
// walk of 10 moves per cell (whose length it returns). With the blank's
// home last, the first draw is the one `tessera npuzzle shuffle -seed`
// prints; a draw that lands on the goal (possible on 2x2 boards) is drawn
// again.
func shuffle(size npuzzle.Size, k int, uniform bool, seed uint64) (*npuzzle.Board, int) {
	rng := rand.New(rand.NewPCG(seed, 0x6e70757a7a6c65))
	walk := 0
	if !uniform {
		walk = npuzzle.WalkLength(size)
	}
	last := k == size.Rows*size.Cols-1
	gm := newGoalMap(size, k)
	for {
		var b *npuzzle.Board
		switch {
		case uniform:
			b = gm.fromSolverBoard(npuzzle.Random(size, npuzzle.BlankLast, rng))
		case last:
			b = npuzzle.RandomWalk(size, npuzzle.BlankLast, walk, rng)
		default:
			b = randomWalkFrom(goalBoard(size, k), walk, rng)
		}
		if !isGoal(b, k) {
			return b, walk
		}
	}
}

// randomWalkFrom is npuzzle.RandomWalk from the board b: steps random
// legal moves, never undoing the previous one.
func randomWalkFrom(b *npuzzle.Board, steps int, rng *rand.Rand) *npuzzle.Board {
	b = b.Clone()
	var last npuzzle.Move
	for i := range steps {
		var moves []npuzzle.Move
		for _, m := range b.Moves() {
			if i == 0 || m != last.Inverse() {
				moves = append(moves, m)
			}
		}
		last = moves[rng.IntN(len(moves))]
		_ = b.Apply(last)
	}
	return b
}

// solveRequest is the body of POST /api/npuzzle/solve and /hint.
type solveRequest struct {
	Board     string `json:"board"`
	Solver    string `json:"solver"`     // an ID from the solvers list; solve only
	TimeoutMS int    `json:"timeout_ms"` // 0: the server's default; solve only
	Blank     *int   `json:"blank"`      // the blank's home cell; nil: the last
}

// solveResponse is the answer of a solve, also when the solver stopped at a
// limit (Solved false, Limit and Error set): the catalogue's record of the
// solve (its board, moves and goal those of the page: the blank's home
// anywhere, the moves that walk it home included) with what the page shows
// beside it.
type solveResponse struct {
	catalog.NpuzzleRecord
	MS    float64 `json:"ms"`
	Guide string  `json:"guide,omitempty"` // what guided the search, for people
	Note  string  `json:"note,omitempty"`  // for people: a walk added, a database missing
	Limit string  `json:"limit,omitempty"` // "time" or "memory"
}

// slidingProgress is the progress of an npuzzle.solve job.
type slidingProgress struct {
	Phase     string  `json:"phase"` // "database" or "search"
	Message   string  `json:"message"`
	Expanded  int64   `json:"expanded,omitempty"`
	Generated int64   `json:"generated,omitempty"`
	MS        float64 `json:"ms"`
	Layer     float64 `json:"layer,omitempty"` // of the database table being built, 0..1
	// The database's build: table (1-based) of tables, the breadth-first
	// level being expanded and the abstract states reached so far.
	Table  int   `json:"table,omitempty"`
	Tables int   `json:"tables,omitempty"`
	Depth  int   `json:"depth,omitempty"`
	States int64 `json:"states,omitempty"`
}

func (s *Server) npuzzleSolve(r *http.Request) (int, any, error) {
	var req solveRequest
	if err := decodeJSON(r, 8<<10, &req); err != nil {
		return 0, nil, err
	}
	sv, timeout, b, k, err := s.checkSolve(req, s.cfg.SolveTimeout, s.cfg.MaxSolveTimeout)
	if err != nil {
		return 0, nil, err
	}
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	res, err := s.solveSliding(ctx, r.Context(), b, k, sv, catalog.NpuzzleRun{}, timeout, false, nil)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, res, nil
}

// checkSolve checks a solve request, with def and most the default and
// the largest time limit.
func (s *Server) checkSolve(req solveRequest, def, most time.Duration) (solver, time.Duration, *npuzzle.Board, int, error) {
	if req.Solver == "" {
		req.Solver = solvers[0].ID
	}
	sv, ok := findSolver(req.Solver)
	if !ok {
		return solver{}, 0, nil, 0, errorf(http.StatusBadRequest, "unknown solver %q (GET /api/npuzzle/solvers lists them)", req.Solver)
	}
	timeout := def
	if req.TimeoutMS != 0 {
		timeout = time.Duration(req.TimeoutMS) * time.Millisecond
		if timeout < 10*time.Millisecond || timeout > most {
			return solver{}, 0, nil, 0, errorf(http.StatusBadRequest, "timeout_ms %d out of range 10..%d", req.TimeoutMS, most.Milliseconds())
		}
	}
	b, k, err := parseSolvableBoard(req.Board, req.Blank)
	if err != nil {
		return solver{}, 0, nil, 0, err
	}
	if req.TimeoutMS == 0 && sv.Optimal && b.Rows()*b.Cols() > 16 {
		timeout = min(timeout, s.cfg.BigOptimalTimeout)
	}
	return sv, timeout, b, k, nil
}

// npuzzleJobs is the sliding game's job kinds: the catalogue's
// npuzzle.solve, whose spec is the catalogue's job (npSolveSpec) and whose
// result the catalogue's record with the page's view (solveResponse); and
// npuzzle.pdb, the load or build of a database alone (npuzzle_pdb.go), the
// server's own. Both run on the server (local): the solve uses the
// server's pattern databases, chosen and loaded when it runs (the quick
// 6-6-3 on 4x4 until 7-8 is built, waiting for a load with its progress),
// which a worker's cache does not follow.
func npuzzleJobs(s *Server) map[string]jobKind {
	return map[string]jobKind{"npuzzle.pdb": {
		check: func(spec json.RawMessage) (time.Duration, error) {
			_, timeout, err := s.checkPDBSpec(spec)
			return timeout, err
		},
		run:   s.pdbJob,
		local: true,
	}, catalog.NpuzzleKind: {
		local: true,
		check: func(spec json.RawMessage) (time.Duration, error) {
			_, _, timeout, _, _, err := s.checkNPSpec(spec)
			return timeout, err
		},
		run: func(ctx context.Context, spec json.RawMessage, progress func(any)) (any, error) {
			j, sv, timeout, b, k, err := s.checkNPSpec(spec)
			if err != nil {
				return nil, err
			}
			ctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			res, err := s.solveSliding(ctx, context.WithoutCancel(ctx), b, k, sv, catalog.NpuzzleRun{NpuzzleOptions: j.Options}, timeout, true, progress)
			if err != nil {
				return nil, err
			}
			if res.Limit != "" && ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return res, ctx.Err() // cancelled
			}
			return res, nil
		},
	}}
}

// npSolveSpec is the spec of an npuzzle.solve job: the catalogue's job
// (catalog.NpuzzleJob), with the blank's home of the page's goal (the
// blank anywhere). The server sets the pattern database and the memory
// bound; the time limit is the budget (0: the server's default).
type npSolveSpec struct {
	catalog.NpuzzleJob
	Blank *int `json:"blank,omitempty"` // the blank's home cell; nil: Goal's (default blank-last)
}

// checkNPSpec checks an npuzzle.solve job and returns it with its menu
// entry, its time limit (checkSolve's: Config.JobTimeout by default, at
// most BigOptimalTimeout for an optimal solver on more than 16 cells),
// its board and its blank's home.
func (s *Server) checkNPSpec(spec json.RawMessage) (npSolveSpec, solver, time.Duration, *npuzzle.Board, int, error) {
	var j npSolveSpec
	bad := func(format string, args ...any) (npSolveSpec, solver, time.Duration, *npuzzle.Board, int, error) {
		return j, solver{}, 0, nil, 0, errorf(http.StatusBadRequest, format, args...)
	}
	if err := specUnmarshal(spec, &j); err != nil {
		return j, solver{}, 0, nil, 0, err
	}
	o, t := j.Options, j.Budget.Timeout
	switch {
	case j.Budget.CPU:
		return bad("budget: the page's solves are timed by the wall clock")
	case t != 0 && (t < 10*time.Millisecond || t > s.cfg.MaxJobTimeout):
		return bad("budget: timeout %v out of range 10ms..%v", t, s.cfg.MaxJobTimeout)
	case o.Heuristic == "pdb" || o.Partition != "":
		return bad("options: the server chooses the pattern databases")
	case o.MaxMem != 0 || o.Workers != 0:
		return bad("options: max_mem and workers are the server's")
	case j.Number != 0 || j.Published != 0:
		return bad("number and published are a bench's")
	case j.Goal != "" && j.Blank != nil:
		return bad("give goal or blank, not both")
	}
	if err := o.Check(); err != nil {
		return bad("options: %v", err)
	}
	if j.Goal != "" {
		g, err := npuzzle.ParseGoal(j.Goal)
		if err != nil {
			return bad("goal: %v", err)
		}
		if g == npuzzle.BlankFirst {
			j.Blank = new(int) // the page's numbering around cell 0 is blank-first's
		}
	}
	sv, timeout, b, k, err := s.checkSolve(solveRequest{Board: j.Board, Solver: j.Solver, TimeoutMS: int(t / time.Millisecond), Blank: j.Blank},
		s.cfg.JobTimeout, s.cfg.MaxJobTimeout)
	switch {
	case err != nil:
		return j, sv, 0, nil, 0, err
	case j.Size != "" && j.Size != b.Size().String():
		return bad("size %s: the board is %v", j.Size, b.Size())
	}
	if err := catalog.Npuzzle.Applies(catalog.Options(o), catalog.Given(o), sv.ID); err != nil {
		return bad("options: %v", err)
	}
	return j, sv, timeout, b, k, nil
}

// solveSliding runs the menu entry sv on b, whose blank's home is cell k,
// within ctx (which carries the time limit), taking a busy slot. IDA* on a
// size with a pattern database uses it: waiting for it to load or build
// when wait is set (a job, which reports the build on progress), else only
// when it is already loaded; the fast solver uses a loaded one. A limit is
// a result, not an error; the error is the request's own end (reqCtx) or a
// full server.
func (s *Server) solveSliding(ctx, reqCtx context.Context, b *npuzzle.Board, k int, sv solver, opts catalog.NpuzzleRun,
	timeout time.Duration, wait bool, progress func(any)) (solveResponse, error) {
	start := time.Now()
	size := b.Size()
	gm := newGoalMap(size, k)
	sb := gm.toSolver(b)
	var note []string
	heuristic := ""
	switch {
	case sv.ID == "idastar" && opts.Heuristic == "" && s.pdbs.has(size):
		d, n, late := s.idaPDB(ctx, size, wait, progress, start, timeout)
		if late != "" {
			return notReady(b, k, sv, start, late), nil
		}
		note = n
		if d != nil {
			opts.Heuristic, opts.Hooks.PDB = "pdb", d
		}
	case sv.ID == "fast":
		opts.Hooks.PDB = s.fastPDB(size)
	}
	if opts.Hooks.PDB != nil {
		heuristic = "pattern database " + opts.Hooks.PDB.Partition().Name
	}
	if heuristic == "" {
		heuristic = map[string]string{"bfs": "none", "bibfs": "none", "wastar": "Manhattan distance"}[sv.ID]
		if heuristic == "" {
			heuristic = "linear conflict"
			if opts.Heuristic != "" && opts.Heuristic != "linear" {
				heuristic = opts.Heuristic
			}
		}
	}
	if progress != nil {
		progress(slidingProgress{Phase: "search", Message: fmt.Sprintf("Searching with %s (%s)…", sv.Name, heuristic), MS: msSince(start)})
		opts.Hooks.Progress = func(st search.Stats) {
			progress(slidingProgress{Phase: "search", Message: fmt.Sprintf("Searching with %s (%s)…", sv.Name, heuristic),
				Expanded: st.Expanded, Generated: st.Generated, MS: msSince(start)})
		}
	}
	opts.MaxMem = catalog.MiB(max(s.cfg.SolveMemory>>20, 1)) // the server's bound
	ns, err := catalog.Npuzzle.New(sv.ID, opts)
	if err != nil {
		return solveResponse{}, err
	}
	if err := s.acquire(ctx); err != nil {
		if reqCtx.Err() != nil {
			return solveResponse{}, reqCtx.Err()
		}
		return solveResponse{}, err
	}
	defer s.release()
	sol, err := ns.Solve(ctx, sb, npuzzle.BlankLast)
	if reqCtx.Err() != nil {
		return solveResponse{}, reqCtx.Err()
	}
	st := sol.Stats
	moves := gm.fromSolver(sol.Moves, err == nil)
	res := solveResponse{NpuzzleRecord: pageRecord(b, k, sv), MS: float64(st.Elapsed.Microseconds()) / 1000, Guide: heuristic}
	res.Fill(ns, opts.Hooks.PDB, sol, err)
	res.Error = ""
	// The page's board and goal: the solver's moves and the walk home.
	res.Moves, res.Length, res.Optimal = npuzzle.FormatMoves(moves), len(moves), sol.Optimal && len(gm.walk) == 0
	if err == nil && len(gm.walk) > 0 {
		note = append(note, fmt.Sprintf("the gap's home is not in a corner, so the solver's answer ends with %d moves that walk the gap home; the whole is not proven shortest", len(gm.walk)))
	}
	switch {
	case err == nil:
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		res.Limit, res.Stopped = "time", "time"
		res.Error = fmt.Sprintf("%s found no solution within its time limit of %v (%s states searched)", sv.Name, timeout, groupDigits(st.Expanded))
		if errors.Is(err, context.Canceled) {
			res.Error = fmt.Sprintf("%s was stopped (%s states searched)", sv.Name, groupDigits(st.Expanded))
		}
	case errors.Is(err, search.ErrBudget):
		res.Limit, res.Stopped = "memory", "memory"
		res.Error = fmt.Sprintf("%s stopped at its memory limit of %d MiB (%s states stored, %s searched)", sv.Name, s.cfg.SolveMemory>>20, groupDigits(st.PeakStored), groupDigits(st.Expanded))
	default:
		return solveResponse{}, err
	}
	if res.Error != "" {
		if size.Rows*size.Cols > 16 && sv.ID != "fast" {
			res.Error += "; the fast solver answers any board up to 10x10 in about a second"
		} else if sv.Optimal {
			res.Error += "; Weighted A* finds a solution quickly, not the shortest"
		}
	}
	res.Note = strings.Join(note, "; ")
	return res, nil
}

// idaPDB returns the pattern database IDA* uses on boards of size (nil:
// none), with notes for people. The size's own database is a long build,
// started only when someone asks (the page's button, an npuzzle.pdb job):
// until it is on disk IDA* uses the quick one, built in seconds. With wait
// set, a database not loaded yet is waited for within ctx, its build
// reported on progress; late is the answer's message when it was not
// ready in time.
func (s *Server) idaPDB(ctx context.Context, size npuzzle.Size, wait bool, progress func(any), start time.Time, timeout time.Duration) (d *npuzzle.PDB, note []string, late string) {
	name, quick := s.pdbs.parts[size], s.pdbs.quick(size)
	part, d := name, s.pdbs.ready(size)
	useQuick := d == nil && quick != "" && !s.pdbs.onDisk(size)
	if useQuick {
		part, d = quick, s.pdbs.readyPart(size, quick)
	}
	if d == nil && wait {
		if progress != nil {
			progress(slidingProgress{Phase: "database", Message: fmt.Sprintf("Loading the pattern database %s…", part)})
		}
		var err error
		d, err = s.pdbs.loadPart(ctx, size, part, func(bp npuzzle.BuildProgress) {
			if progress != nil {
				progress(s.pdbs.buildProgressPart(size, part, bp, time.Since(start)))
			}
		})
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, nil, fmt.Sprintf("the pattern database %s was not ready within %v: it goes on loading, try again later", part, timeout)
		case err != nil:
			note = append(note, fmt.Sprintf("no pattern database (%v), so IDA* used linear conflict", err))
		}
	}
	if d != nil && useQuick {
		what := "is not built yet"
		if s.pdbs.started(size) {
			what = "is still being built"
		}
		note = append(note, fmt.Sprintf("the pattern database %s %s, so IDA* used %s", name, what, quick))
	}
	return d, note, ""
}

// fastPDB returns the loaded database the fast solver uses on boards of
// size (nil: none): 6-6-6-6 on 5x5 and larger (its 5x5 finish is tuned for
// it; a weaker database would slow it down), else the 4x4 one or its
// quick one.
func (s *Server) fastPDB(size npuzzle.Size) *npuzzle.PDB {
	if size.Rows >= 5 && size.Cols >= 5 {
		if d := s.pdbs.ready(npuzzle.Size{Rows: 5, Cols: 5}); d != nil && d.Partition().Name == "6-6-6-6" {
			return d
		}
	}
	if size.Rows < 4 || size.Cols < 4 {
		return nil
	}
	s44 := npuzzle.Size{Rows: 4, Cols: 4}
	if d := s.pdbs.ready(s44); d != nil {
		return d
	}
	if q := s.pdbs.quick(s44); q != "" {
		return s.pdbs.readyPart(s44, q)
	}
	return nil
}

// pageRecord is the record of a solve of the page's board b, whose
// blank's home is cell k, by the menu's entry sv, before it runs.
func pageRecord(b *npuzzle.Board, k int, sv solver) catalog.NpuzzleRecord {
	goal := fmt.Sprintf("blank at cell %d", k)
	switch k {
	case 0:
		goal = npuzzle.BlankFirst.String()
	case b.Rows()*b.Cols() - 1:
		goal = npuzzle.BlankLast.String()
	}
	return catalog.NpuzzleRecord{Board: b.Line(), Size: b.Size().String(), Goal: goal, Solver: sv.ID}
}

// notReady is the answer of a solve whose pattern database was not ready
// in its time.
func notReady(b *npuzzle.Board, k int, sv solver, start time.Time, msg string) solveResponse {
	rec := pageRecord(b, k, sv)
	rec.Stopped, rec.Error = "time", msg
	return solveResponse{NpuzzleRecord: rec, Limit: "time", MS: msSince(start)}
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

// hintResponse is the answer of POST /api/npuzzle/hint: the next move of
// the solution found, with the whole solution so that a client can give the
// following hints itself while the player follows it.
type hintResponse struct {
	solveResponse
	Move    string `json:"move,omitempty"` // the first move, U D L R
	Tile    int    `json:"tile,omitempty"` // the tile it slides
	Message string `json:"message"`        // for people
}

func (s *Server) npuzzleHint(r *http.Request) (int, any, error) {
	var req solveRequest
	if err := decodeJSON(r, 8<<10, &req); err != nil {
		return 0, nil, err
	}
	if req.Solver != "" || req.TimeoutMS != 0 {
		return 0, nil, errorf(http.StatusBadRequest, "a hint takes only a board (and its blank's home)")
	}
	b, k, err := parseSolvableBoard(req.Board, req.Blank)
	if err != nil {
		return 0, nil, err
	}
	if isGoal(b, k) {
		return 0, nil, errorf(http.StatusUnprocessableEntity, "the board is already solved")
	}
	res, err := s.hint(r.Context(), b, k)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, res, nil
}

// minHintShare: each weighted A* try gets at least 1/minHintShare of the
// hint time.
const minHintShare = 20

// hint looks for a shortest solution with IDA* for 60% of the hint time
// (with the pattern database when it is loaded), then for any solution
// with weighted A*, trying the weights of hintWeights in turn with equal
// shares of the time left (each at least a minHintShare-th of the hint
// time, so a hint may overrun a little), and last with the fast solver.
// Boards of more than 25 cells go to the fast solver at once.
func (s *Server) hint(ctx context.Context, b *npuzzle.Board, k int) (hintResponse, error) {
	total := s.cfg.HintTimeout
	deadline := time.Now().Add(total)
	optimalPart := total * 6 / 10
	var res solveResponse
	big := b.Rows()*b.Cols() > 25
	if !big {
		octx, cancel := context.WithTimeout(ctx, optimalPart)
		ida, _ := findSolver("idastar")
		var err error
		res, err = s.solveSliding(octx, ctx, b, k, ida, catalog.NpuzzleRun{}, optimalPart, false, nil)
		cancel()
		if err != nil {
			return hintResponse{}, err
		}
		for i := 0; !res.Solved && i < len(hintWeights); i++ {
			// the time left in equal shares, but at least minHintShare of
			// the whole each: IDA* may overrun its part on a loaded machine
			share := max(time.Until(deadline)/time.Duration(len(hintWeights)-i+1), total/minHintShare)
			sv := solver{ID: "astar", Name: fmt.Sprintf("A* x %g", hintWeights[i])}
			wctx, cancel := context.WithTimeout(ctx, share)
			res, err = s.solveSliding(wctx, ctx, b, k, sv, catalog.NpuzzleRun{NpuzzleOptions: catalog.NpuzzleOptions{Heuristic: "linear", Weight: hintWeights[i]}}, share, false, nil)
			cancel()
			if err != nil {
				return hintResponse{}, err
			}
		}
	}
	if !res.Solved {
		share := max(time.Until(deadline), total/minHintShare)
		if big {
			share = total
		}
		fast, _ := findSolver("fast")
		fctx, cancel := context.WithTimeout(ctx, share)
		var err error
		res, err = s.solveSliding(fctx, ctx, b, k, fast, catalog.NpuzzleRun{}, share, false, nil)
		cancel()
		if err != nil {
			return hintResponse{}, err
		}
	}
	h := hintResponse{solveResponse: res}
	if !res.Solved {
		h.Message = fmt.Sprintf("No hint: no solution found within %v.", total)
		h.Error = h.Message
		return h, nil
	}
	m := res.Moves[:1]
	mv, _ := npuzzle.ParseMoves(m)
	r, c := b.Blank()
	switch mv[0] { // the tile that slides into the blank
	case npuzzle.Up:
		r++
	case npuzzle.Down:
		r--
	case npuzzle.Left:
		c++
	case npuzzle.Right:
		c--
	}
	h.Move, h.Tile = m, b.At(r, c)
	dir := map[string]string{"U": "up", "D": "down", "L": "left", "R": "right"}[m]
	switch {
	case res.Optimal:
		h.Message = fmt.Sprintf("Slide tile %d %s: %d moves to go (shortest).", h.Tile, dir, res.Length)
	case big:
		h.Message = fmt.Sprintf("Slide tile %d %s: it starts a %d-move solution of the fast solver, not proven shortest.", h.Tile, dir, res.Length)
	default:
		h.Message = fmt.Sprintf("Slide tile %d %s: it starts a %d-move solution, not proven shortest (no shortest solution found within %v).",
			h.Tile, dir, res.Length, optimalPart)
	}
	return h, nil
}

// groupDigits writes n with thousands separators: 1,234,567.
func groupDigits(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// npuzzleState is a saved sliding-puzzle game, as the page sends it.
type npuzzleState struct {
	Start     string `json:"start"`           // the board as shuffled
	Board     string `json:"board"`           // the current board: Start after History
	History   string `json:"history"`         // the moves played, U D L R
	Picture   string `json:"picture"`         // a picture ID
	ElapsedMS int64  `json:"elapsed_ms"`      // playing time
	Blank     *int   `json:"blank,omitempty"` // the blank's home cell; nil: the last
}

// maxHistory bounds the moves kept in a saved game.
const maxHistory = 100_000

// npuzzleSave checks a saved game sent by the page: the boards parse, the
// start is solvable, the moves lead from the start to the board, the
// picture ID is well formed. It returns the game to store.
func npuzzleSave(st npuzzleState) (store.Game, error) {
	start, k, err := parseSolvableBoard(st.Start, st.Blank)
	if err != nil {
		return store.Game{}, errorf(http.StatusBadRequest, "start: %v", err)
	}
	if len(st.History) > maxHistory {
		return store.Game{}, errorf(http.StatusBadRequest, "history: more than %d moves", maxHistory)
	}
	moves, err := npuzzle.ParseMoves(st.History)
	if err != nil {
		return store.Game{}, errorf(http.StatusBadRequest, "history: %v", err)
	}
	board, err := npuzzle.Replay(start, moves)
	if err != nil {
		return store.Game{}, errorf(http.StatusBadRequest, "history: %v", err)
	}
	if st.Board != "" {
		given, err := parseBoard(st.Board)
		if err != nil {
			return store.Game{}, err
		}
		if !given.Equal(board) {
			return store.Game{}, errorf(http.StatusBadRequest, "board %q is not where the history leads from the start (%q)", st.Board, board.Line())
		}
	}
	if !validPictureID(st.Picture) {
		return store.Game{}, errorf(http.StatusBadRequest, "picture: %q is not a picture ID", st.Picture)
	}
	if st.ElapsedMS < 0 {
		return store.Game{}, errorf(http.StatusBadRequest, "elapsed_ms: negative")
	}
	st.Start, st.Board, st.History = start.Line(), board.Line(), npuzzle.FormatMoves(moves)
	return stored(store.Game{Board: board.Line(), Moves: len(moves), Solved: isGoal(board, k)}, st, st.ElapsedMS)
}

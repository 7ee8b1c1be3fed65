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
			b = gm.FromSolverBoard(npuzzle.Random(size, npuzzle.BlankLast, rng))
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

// slidingProgress is the progress of an npuzzle.solve job (and of an
// npuzzle.pdb job's build): the catalogue's.
type slidingProgress = catalog.NpuzzleProgress

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
	res, err := s.solveSliding(ctx, r.Context(), b, k, sv, catalog.NpuzzleRun{}, timeout)
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
// npuzzle.solve (any worker runs it, `tessera worker`'s included), whose
// spec the page sends as the catalogue's job with the blank's home of its
// goal and the server completes at submit (npuzzleJob: the pattern
// database it names, the memory and build bounds, the time limit), and
// whose result is the catalogue's record; and npuzzle.pdb, the load or
// build of a database alone (npuzzle_pdb.go), the server's own.
func npuzzleJobs(s *Server) map[string]jobKind {
	return map[string]jobKind{"npuzzle.pdb": {
		check: func(spec json.RawMessage) (time.Duration, error) {
			_, timeout, err := s.checkPDBSpec(spec)
			return timeout, err
		},
		run:   s.pdbJob,
		local: true, // it builds the server's own databases (pdbSet)
	}, catalog.NpuzzleKind: {
		check: func(spec json.RawMessage) (time.Duration, error) {
			j, err := s.npuzzleJob(spec)
			return j.Budget.Timeout + 2*time.Minute, err // the database's load, a slot
		},
		normalize: func(spec json.RawMessage) (json.RawMessage, error) {
			j, err := s.npuzzleJob(spec)
			if err != nil {
				return nil, err
			}
			return json.Marshal(j)
		},
		run: s.slotted(func(ctx context.Context, spec json.RawMessage, progress func(any)) (any, error) {
			var j catalog.NpuzzleJob
			if err := json.Unmarshal(spec, &j); err != nil {
				return nil, fmt.Errorf("npuzzle.solve: %w", err)
			}
			rec := catalog.RunNpuzzleJob(ctx, j, s.loadJobPDB, progress)
			if err := ctx.Err(); err != nil {
				return rec, err
			}
			return rec, nil
		}),
	}}
}

// npBuildMiB bounds the pattern database tables a worker builds for the
// page's solve (catalog.NpuzzleJob.BuildMiB): 6-6-3's (5 MiB) and 5-5-5's,
// not 7-8's or 6-6-6-6's (0.5 and 1 GiB a table), which a worker refuses
// unless they are in its cache.
const npBuildMiB = 256

// loadJobPDB is the server's loader of an npuzzle.solve job's database
// when the server runs the job itself: its own databases (pdbSet), shared
// with the page's status and npuzzle.pdb jobs.
func (s *Server) loadJobPDB(ctx context.Context, _ catalog.NpuzzleJob, part npuzzle.Partition, build func(npuzzle.BuildProgress)) (*npuzzle.PDB, error) {
	return s.pdbs.loadPart(ctx, part.Size, part.Name, build)
}

// npuzzleJob checks the page's npuzzle.solve spec, the catalogue's job
// (catalog.NpuzzleJob) with the blank's home of the page's goal, and
// returns the job to submit: its time limit the budget (checkSolve's:
// Config.JobTimeout by default, at most BigOptimalTimeout for an optimal
// solver on more than 16 cells), its memory bound the server's
// (SolveMemory), its pattern database the server's choice (npPDB), and
// its blank's home set unless it is the last cell.
func (s *Server) npuzzleJob(spec json.RawMessage) (catalog.NpuzzleJob, error) {
	var j catalog.NpuzzleJob
	bad := func(format string, args ...any) (catalog.NpuzzleJob, error) {
		return j, errorf(http.StatusBadRequest, format, args...)
	}
	if err := specUnmarshal(spec, &j); err != nil {
		return j, err
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
	case j.BuildMiB != 0 || j.Note != "":
		return bad("build_mib and note are the server's")
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
		return j, err
	case j.Size != "" && j.Size != b.Size().String():
		return bad("size %s: the board is %v", j.Size, b.Size())
	}
	if err := catalog.Npuzzle.Applies(catalog.Options(o), catalog.Given(o), sv.ID); err != nil {
		return bad("options: %v", err)
	}
	j.Solver, j.Goal, j.Blank = sv.ID, "", &k
	if k == b.Rows()*b.Cols()-1 {
		j.Blank = nil
	}
	j.Budget.Timeout, j.Options.MaxMem, j.BuildMiB = timeout, catalog.MiB(max(s.cfg.SolveMemory>>20, 1)), npBuildMiB
	if part, note := s.npPDB(b.Size(), sv.ID, o); part != "" {
		j.Options.Heuristic, j.Options.Partition, j.Note = "pdb", part, note
	}
	return j, nil
}

// npPDB names the pattern database the page's solve by solver id with
// opts uses on boards of size s ("": none), from what the server has, with
// a note for people: IDA* the size's own when it is loaded or on disk,
// else its quick one (6-6-3 on 4x4 while 7-8 is not built: issue 39), else
// the size's own; the fast solver the one the server has loaded.
func (s *Server) npPDB(size npuzzle.Size, id string, opts catalog.NpuzzleOptions) (part, note string) {
	switch {
	case id == "idastar" && opts.Heuristic == "" && s.pdbs.has(size):
		name, quick := s.pdbs.parts[size], s.pdbs.quick(size)
		if s.pdbs.ready(size) != nil || quick == "" || s.pdbs.onDisk(size) {
			return name, ""
		}
		what := "is not built yet"
		if s.pdbs.started(size) {
			what = "is still being built"
		}
		return quick, fmt.Sprintf("the pattern database %s %s, so IDA* used %s", name, what, quick)
	case id == "fast" && opts.Heuristic == "":
		if d := s.fastPDB(size); d != nil {
			return d.Partition().Name, ""
		}
	}
	return "", ""
}

// solveSliding runs the menu entry sv on b, whose blank's home is cell k,
// within ctx (which carries the time limit), taking a busy slot: the
// synchronous solves and hints. IDA* on a size with a pattern database
// uses it when it is loaded (or its quick one); the fast solver uses a
// loaded one. A limit is a result, not an error; the error is the
// request's own end (reqCtx) or a full server.
func (s *Server) solveSliding(ctx, reqCtx context.Context, b *npuzzle.Board, k int, sv solver, opts catalog.NpuzzleRun,
	timeout time.Duration) (solveResponse, error) {
	size := b.Size()
	gm := newGoalMap(size, k)
	sb := gm.ToSolver(b)
	var note []string
	switch {
	case sv.ID == "idastar" && opts.Heuristic == "" && s.pdbs.has(size):
		d, n := s.idaPDB(size)
		note = n
		if d != nil {
			opts.Heuristic, opts.Hooks.PDB = "pdb", d
		}
	case sv.ID == "fast":
		opts.Hooks.PDB = s.fastPDB(size)
	}
	heuristic := catalog.NpuzzleGuide(sv.ID, opts.NpuzzleOptions, opts.Hooks.PDB)
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
	moves := gm.FromSolver(sol.Moves, err == nil)
	rec := catalog.NpuzzleRecord{Board: b.Line(), Size: size.String(), Goal: catalog.NpuzzleGoalName(size, k), Solver: sv.ID}
	res := solveResponse{NpuzzleRecord: rec, MS: float64(st.Elapsed.Microseconds()) / 1000, Guide: heuristic}
	res.Fill(ns, opts.Hooks.PDB, sol, err)
	res.Error = ""
	// The page's board and goal: the solver's moves and the walk home.
	res.Moves, res.Length, res.Optimal = npuzzle.FormatMoves(moves), len(moves), sol.Optimal && gm.Walk() == 0
	if err == nil && gm.Walk() > 0 {
		note = append(note, fmt.Sprintf("the gap's home is not in a corner, so the solver's answer ends with %d moves that walk the gap home; the whole is not proven shortest", gm.Walk()))
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

// idaPDB returns the loaded pattern database IDA* uses on boards of size
// (nil: none), with notes for people: the size's own, or its quick one
// while the size's own is neither loaded nor on disk (see npPDB).
func (s *Server) idaPDB(size npuzzle.Size) (*npuzzle.PDB, []string) {
	part, note := s.npPDB(size, "idastar", catalog.NpuzzleOptions{})
	d := s.pdbs.readyPart(size, part)
	if d != nil && note != "" {
		return d, []string{note}
	}
	return d, nil
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
		res, err = s.solveSliding(octx, ctx, b, k, ida, catalog.NpuzzleRun{}, optimalPart)
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
			res, err = s.solveSliding(wctx, ctx, b, k, sv, catalog.NpuzzleRun{NpuzzleOptions: catalog.NpuzzleOptions{Heuristic: "linear", Weight: hintWeights[i]}}, share)
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
		res, err = s.solveSliding(fctx, ctx, b, k, fast, catalog.NpuzzleRun{}, share)
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
func groupDigits(n int64) string { return catalog.GroupDigits(n) }

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

package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"

	"tessera/internal/catalog"
	"tessera/internal/store"
	"tessera/npuzzle"
	"tessera/search"
)

// maxSide is the largest number of rows or columns the game offers.
const maxSide = 8

// npuzzleGame is the sliding-tile picture game.
var npuzzleGame = &game{
	Kind:  "npuzzle",
	Title: "Sliding puzzle",
	Path:  "/npuzzle",
	page:  "npuzzle.html",
	data: func() any {
		return npuzzlePage{Solvers: solvers, Sizes: []string{"3x3", "4x4", "5x5"},
			MinSide: npuzzle.MinSide, MaxSide: maxSide, Pictures: builtinPictures}
	},
	routes: (*Server).npuzzleRoutes,
	save:   npuzzleSave,
}

// npuzzlePage is what the game's page shows from the server's lists.
type npuzzlePage struct {
	Solvers          []solver
	Sizes            []string // the size menu; any other is "custom"
	MinSide, MaxSide int
	Pictures         []pictureInfo // the built-in ones; the page asks for uploads
}

func (s *Server) npuzzleRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /api/npuzzle/solvers", s.serveAPI(s.npuzzleSolvers))
	m.HandleFunc("POST /api/npuzzle/shuffle", s.serveAPI(s.npuzzleShuffle))
	m.HandleFunc("POST /api/npuzzle/solve", s.serveAPI(s.npuzzleSolve))
	m.HandleFunc("POST /api/npuzzle/hint", s.serveAPI(s.npuzzleHint))
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

// newSolver builds the catalogue's solver id with opts under the server's
// memory limit.
func (s *Server) newSolver(id string, opts catalog.NpuzzleOptions) (npuzzle.Solver, error) {
	opts.MaxBytes = s.cfg.SolveMemory
	return catalog.Npuzzle.New(id, opts)
}

// hintWeights are the A* weights tried, in order, for a quick hint when no
// shortest solution is found in time.
var hintWeights = []float64{5, 10, 30}

// parseBoard reads a board from a request: the npuzzle text format, at
// most maxSide x maxSide.
func parseBoard(text string) (*npuzzle.Board, error) {
	b, err := npuzzle.Parse(text, npuzzle.Size{})
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "bad board: %v", err)
	}
	if b.Rows() > maxSide || b.Cols() > maxSide {
		return nil, errorf(http.StatusBadRequest, "bad board: %v is larger than %dx%d", b.Size(), maxSide, maxSide)
	}
	return b, nil
}

// parseSolvableBoard is parseBoard plus the parity test.
func parseSolvableBoard(text string) (*npuzzle.Board, error) {
	b, err := parseBoard(text)
	if err != nil {
		return nil, err
	}
	if !npuzzle.Solvable(b, npuzzle.BlankLast) {
		return nil, errorf(http.StatusUnprocessableEntity, "board is not solvable: no sequence of moves leads to the goal (two tiles are swapped)")
	}
	return b, nil
}

func (s *Server) npuzzleSolvers(r *http.Request) (int, any, error) {
	return http.StatusOK, map[string]any{"solvers": solvers, "default": solvers[0].ID}, nil
}

// shuffleRequest is the body of POST /api/npuzzle/shuffle.
type shuffleRequest struct {
	Size    string  `json:"size"`    // ROWSxCOLS, 2 to maxSide each
	Uniform bool    `json:"uniform"` // uniform among solvable boards, else the random walk
	Seed    *uint64 `json:"seed"`    // nil: a fresh one
}

type shuffleResponse struct {
	Board   string `json:"board"`
	Size    string `json:"size"`
	Seed    uint64 `json:"seed"`
	Uniform bool   `json:"uniform"`
	Walk    int    `json:"walk,omitempty"` // random-walk length
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
	seed := rand.Uint64()
	if req.Seed != nil {
		seed = *req.Seed
	}
	b, walk := shuffle(size, req.Uniform, seed)
	return http.StatusOK, shuffleResponse{Board: b.Line(), Size: size.String(), Seed: seed, Uniform: req.Uniform, Walk: walk}, nil
}

// shuffle returns a solvable board other than the goal, drawn from seed:
// uniformly, or by the source game's random walk of 10 moves per cell
// (whose length it returns). The first draw is the one `tessera npuzzle
// shuffle -seed` prints; a draw that lands on the goal (possible on 2x2
// boards) is drawn again.
func shuffle(size npuzzle.Size, uniform bool, seed uint64) (*npuzzle.Board, int) {
	rng := rand.New(rand.NewPCG(seed, 0x6e70757a7a6c65))
	walk := 0
	if !uniform {
		walk = npuzzle.WalkLength(size)
	}
	for {
		var b *npuzzle.Board
		if uniform {
			b = npuzzle.Random(size, npuzzle.BlankLast, rng)
		} else {
			b = npuzzle.RandomWalk(size, npuzzle.BlankLast, walk, rng)
		}
		if !b.IsSolved(npuzzle.BlankLast) {
			return b, walk
		}
	}
}

// solveRequest is the body of POST /api/npuzzle/solve and /hint.
type solveRequest struct {
	Board     string `json:"board"`
	Solver    string `json:"solver"`     // an ID from the solvers list; solve only
	TimeoutMS int    `json:"timeout_ms"` // 0: the server's default; solve only
}

// solveResponse is the answer of a solve, also when the solver stopped at a
// limit (Solved false, Limit and Error set).
type solveResponse struct {
	Board      string  `json:"board"`
	Solver     string  `json:"solver"`
	Solved     bool    `json:"solved"`
	Moves      string  `json:"moves"`
	Length     int     `json:"length"`
	Optimal    bool    `json:"optimal"`
	Expanded   int64   `json:"expanded"`
	Generated  int64   `json:"generated"`
	PeakStored int64   `json:"peak_stored"`
	MS         float64 `json:"ms"`
	Limit      string  `json:"limit,omitempty"` // "time" or "memory"
	Error      string  `json:"error,omitempty"`
}

func (s *Server) npuzzleSolve(r *http.Request) (int, any, error) {
	var req solveRequest
	if err := decodeJSON(r, 4<<10, &req); err != nil {
		return 0, nil, err
	}
	if req.Solver == "" {
		req.Solver = solvers[0].ID
	}
	sv, ok := findSolver(req.Solver)
	if !ok {
		return 0, nil, errorf(http.StatusBadRequest, "unknown solver %q (GET /api/npuzzle/solvers lists them)", req.Solver)
	}
	timeout, err := s.solveTimeout(req.TimeoutMS, s.cfg.SolveTimeout)
	if err != nil {
		return 0, nil, err
	}
	b, err := parseSolvableBoard(req.Board)
	if err != nil {
		return 0, nil, err
	}
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	ns, err := s.newSolver(sv.ID, catalog.NpuzzleOptions{})
	if err != nil {
		return 0, nil, err
	}
	res, err := s.runSolver(ctx, r.Context(), b, sv, ns, timeout)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, res, nil
}

// runSolver runs ns, the solver of menu entry sv, on b within ctx (which
// carries the time limit), taking a busy slot. A limit is a result, not an
// error; the error is the request's own end (reqCtx) or a full server.
func (s *Server) runSolver(ctx, reqCtx context.Context, b *npuzzle.Board, sv solver, ns npuzzle.Solver, timeout time.Duration) (solveResponse, error) {
	if err := s.acquire(ctx); err != nil {
		if reqCtx.Err() != nil {
			return solveResponse{}, reqCtx.Err()
		}
		return solveResponse{}, err
	}
	defer s.release()
	sol, err := ns.Solve(ctx, b, npuzzle.BlankLast)
	if reqCtx.Err() != nil {
		return solveResponse{}, reqCtx.Err()
	}
	st := sol.Stats
	res := solveResponse{
		Board: b.Line(), Solver: sv.ID, Solved: err == nil, Moves: npuzzle.FormatMoves(sol.Moves), Length: len(sol.Moves),
		Optimal: sol.Optimal, Expanded: st.Expanded, Generated: st.Generated, PeakStored: st.PeakStored,
		MS: float64(st.Elapsed.Microseconds()) / 1000,
	}
	switch {
	case err == nil:
	case errors.Is(err, context.DeadlineExceeded):
		res.Limit = "time"
		res.Error = fmt.Sprintf("%s found no solution within its time limit of %v (%s states searched)", sv.Name, timeout, groupDigits(st.Expanded))
	case errors.Is(err, search.ErrBudget):
		res.Limit = "memory"
		res.Error = fmt.Sprintf("%s stopped at its memory limit of %d MiB (%s states stored, %s searched)", sv.Name, s.cfg.SolveMemory>>20, groupDigits(st.PeakStored), groupDigits(st.Expanded))
	default:
		return solveResponse{}, err
	}
	if res.Error != "" && sv.Optimal {
		res.Error += "; Weighted A* finds a solution quickly, not the shortest"
	}
	return res, nil
}

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
	if err := decodeJSON(r, 4<<10, &req); err != nil {
		return 0, nil, err
	}
	if req.Solver != "" || req.TimeoutMS != 0 {
		return 0, nil, errorf(http.StatusBadRequest, "a hint takes only a board")
	}
	b, err := parseSolvableBoard(req.Board)
	if err != nil {
		return 0, nil, err
	}
	if b.IsSolved(npuzzle.BlankLast) {
		return 0, nil, errorf(http.StatusUnprocessableEntity, "the board is already solved")
	}
	res, err := s.hint(r.Context(), b)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, res, nil
}

// minHintShare: each weighted A* try gets at least 1/minHintShare of the
// hint time.
const minHintShare = 20

// hint looks for a shortest solution with IDA* for 60% of the hint time,
// then for any solution with weighted A*, trying the weights of hintWeights
// in turn with equal shares of the time left (each at least a
// minHintShare-th of the hint time, so a hint may overrun a little).
func (s *Server) hint(ctx context.Context, b *npuzzle.Board) (hintResponse, error) {
	total := s.cfg.HintTimeout
	deadline := time.Now().Add(total)
	optimalPart := total * 6 / 10
	octx, cancel := context.WithTimeout(ctx, optimalPart)
	ida, _ := findSolver("idastar")
	ns, err := s.newSolver(ida.ID, catalog.NpuzzleOptions{Heuristic: "linear"})
	if err != nil {
		cancel()
		return hintResponse{}, err
	}
	res, err := s.runSolver(octx, ctx, b, ida, ns, optimalPart)
	cancel()
	if err != nil {
		return hintResponse{}, err
	}
	for i := 0; !res.Solved && i < len(hintWeights); i++ {
		// the time left in equal shares, but at least minHintShare of
		// the whole each: IDA* may overrun its part on a loaded machine
		share := max(time.Until(deadline)/time.Duration(len(hintWeights)-i), total/minHintShare)
		sv := solver{ID: fmt.Sprintf("astar-w%g", hintWeights[i]), Name: fmt.Sprintf("A* x %g", hintWeights[i])}
		ns, err := s.newSolver("astar", catalog.NpuzzleOptions{Heuristic: "linear", Weight: hintWeights[i]})
		if err != nil {
			return hintResponse{}, err
		}
		wctx, cancel := context.WithTimeout(ctx, share)
		res, err = s.runSolver(wctx, ctx, b, sv, ns, share)
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
	if res.Optimal {
		h.Message = fmt.Sprintf("Slide tile %d %s: %d moves to go (shortest).", h.Tile, dir, res.Length)
	} else {
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
	Start     string `json:"start"`      // the board as shuffled
	Board     string `json:"board"`      // the current board: Start after History
	History   string `json:"history"`    // the moves played, U D L R
	Picture   string `json:"picture"`    // a picture ID
	ElapsedMS int64  `json:"elapsed_ms"` // playing time
}

// maxHistory bounds the moves kept in a saved game.
const maxHistory = 100_000

// npuzzleSave checks a saved game sent by the page: the boards parse, the
// start is solvable, the moves lead from the start to the board, the
// picture ID is well formed. It returns the game to store.
func npuzzleSave(data json.RawMessage) (store.Game, error) {
	var st npuzzleState
	if err := strictUnmarshal(data, &st); err != nil {
		return store.Game{}, err
	}
	start, err := parseSolvableBoard(st.Start)
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
	norm, err := json.Marshal(st)
	if err != nil {
		return store.Game{}, err
	}
	return store.Game{
		Board: board.Line(), Data: norm, Moves: len(moves),
		Elapsed: time.Duration(st.ElapsedMS) * time.Millisecond, Solved: board.IsSolved(npuzzle.BlankLast),
	}, nil
}

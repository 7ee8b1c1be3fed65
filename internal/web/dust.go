package web

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"tessera/internal/catalog"
	"tessera/internal/store"
	"tessera/samegame"
	"tessera/samegame/policy"
)

// The dust game's board: the source blog's 8 columns x 6 rows, 5 colours.
const (
	dustCols   = 8
	dustRows   = 6
	dustColors = 5
)

// dustGame is the source blog's cluster-clearing game: click any cluster,
// the fewest clicks wins.
var dustGame = &game{
	data: func() any {
		return dustPage{Solvers: dustMenu.Menu(), Cols: dustCols, Rows: dustRows,
			Letters: samegame.LetterColors[:dustColors], Speed: playSpeed{Max: 10, Value: 2}}
	},
	api:  dustAPI,
	save: saveOf(dustSave),
	auto: "solve and play the solution (key a)",
}

// dustPage is what the dust page shows from the server's lists.
type dustPage struct {
	Solvers    []catalog.Menu
	Cols, Rows int
	Letters    string // the colours' letters, in order
	Speed      playSpeed
}

// playSpeed is the range of a page's control of the speed at which Auto's
// line is played (template auto-play), in clicks a second: 1 to Max,
// Value at first.
type playSpeed struct{ Max, Value int }

// dustAPI is the page's own API calls, under /api/dust/.
var dustAPI = apiCalls{
	"GET solvers":    (*Server).dustSolverList,
	"POST deal":      (*Server).dustDeal,
	"POST solve":     (*Server).dustSolve,
	"POST hint":      (*Server).dustHint,
	"POST certainty": (*Server).dustCertainty,
}

// dustOptions are the options the page's solvers are built with: the
// catalogue's defaults, seed 1 for the Monte-Carlo searches.
var dustOptions = catalog.SameGameRun{SameGameOptions: catalog.SameGameOptions{Seed: 1}}

// dustSolvers is the Auto menu: the catalogue's solvers that play the dust
// game, in its order (exact, the default, first).
var dustSolvers = menuOf(dustMenu.Menu())

// dustMenu is the catalogue's solvers that play the dust game.
var dustMenu = catalog.SameGame.Playing(samegame.Dust.String())

// dustAnytimeTimeout is the time a Monte-Carlo solver gets when the request
// names none: they use all of it, so the server's default would be slow.
const dustAnytimeTimeout = 3 * time.Second

// dustSolver is one entry of the Auto menu of the dust page or the
// SameGame page: an entry of catalog.SameGame.
type dustSolver struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Proves      bool   `json:"proves"` // it proves its answer the fewest clicks when it finishes
}

// autoMenu is the Auto menu of the dust page or the SameGame page, in
// the catalogue's order.
type autoMenu []dustSolver

// menuOf turns catalogue menu entries into an Auto menu.
func menuOf(menu []catalog.Menu) autoMenu {
	list := make(autoMenu, len(menu))
	for i, m := range menu {
		list[i] = dustSolver{ID: m.ID, Name: m.Name, Description: m.Doc, Proves: m.Optimal}
	}
	return list
}

// find returns the menu's entry id.
func (menu autoMenu) find(id string) (dustSolver, bool) {
	for _, s := range menu {
		if s.ID == id {
			return s, true
		}
	}
	return dustSolver{}, false
}

func (s *Server) dustSolverList(r *http.Request) (int, any, error) {
	return http.StatusOK, map[string]any{"solvers": dustSolvers, "default": dustSolvers[0].ID}, nil
}

// parseDustBoard reads a dust board from a request: rows of colour letters,
// top first, separated by "/", at most dustCols x dustRows.
func parseDustBoard(text string) (*samegame.Board, error) {
	return parseBoardOf(text, samegame.Dust, dustCols, dustRows)
}

// dustLine writes b as the page and the API read it.
func dustLine(b *samegame.Board) string { return samegame.Line(b, samegame.Letters) }

// dealRequest is the body of POST /api/dust/deal.
type dealRequest struct {
	Seed *Seed `json:"seed"` // nil: a fresh one
}

type dealResponse struct {
	Board string `json:"board"`
	Seed  Seed   `json:"seed"`
}

// dustDeal deals a full board, each cell one of the colours at random: the
// board `tessera samegame generate -seed S` prints first.
func (s *Server) dustDeal(r *http.Request) (int, any, error) {
	var req dealRequest
	if err := decodeJSON(r, 1<<10, &req); err != nil {
		return 0, nil, err
	}
	seed := rand.Uint64()
	if req.Seed != nil {
		seed = uint64(*req.Seed)
	}
	return http.StatusOK, dealResponse{Board: dustLine(dealDust(seed)), Seed: Seed(seed)}, nil
}

// dealDust returns the board dealt for seed: the first board that
// `tessera samegame generate -seed S` prints (same random stream).
func dealDust(seed uint64) *samegame.Board {
	rng := rand.New(rand.NewPCG(seed, 0x67656e))
	return samegame.Random(dustCols, dustRows, dustColors, samegame.Dust, rng)
}

// dustSolveRequest is the body of POST /api/dust/solve and /hint.
type dustSolveRequest struct {
	Board     string `json:"board"`
	Solver    string `json:"solver"`     // an ID from the solvers list; solve only
	TimeoutMS int    `json:"timeout_ms"` // 0: the server's default; solve only
}

// dustSolveResponse is the answer of a solve, also when the solver stopped
// at its time limit (Limit set; Cleared tells whether it had a solution).
type dustSolveResponse struct {
	Board    string  `json:"board"`
	Solver   string  `json:"solver"`
	Cleared  bool    `json:"cleared"` // the moves empty the board
	Moves    string  `json:"moves"`   // "x,y x,y ...": x the column from the left, y the row from the bottom
	Clicks   int     `json:"clicks"`
	Optimal  bool    `json:"optimal"` // proven the fewest clicks
	Nodes    int64   `json:"nodes"`
	Playouts int64   `json:"playouts"`
	MS       float64 `json:"ms"`
	// Reused is set when the answer is a proof found earlier for the same
	// board and kept (Nodes and MS are that search's): nothing was searched now.
	Reused bool   `json:"reused,omitempty"`
	Limit  string `json:"limit,omitempty"` // "time"
	Error  string `json:"error,omitempty"`
}

func (s *Server) dustSolve(r *http.Request) (int, any, error) {
	var req dustSolveRequest
	if err := decodeJSON(r, 8<<10, &req); err != nil {
		return 0, nil, err
	}
	if req.Solver == "" {
		req.Solver = dustSolvers[0].ID
	}
	sv, ok := dustSolvers.find(req.Solver)
	if !ok {
		return 0, nil, errorf(http.StatusBadRequest, "unknown solver %q (GET /api/dust/solvers lists them)", req.Solver)
	}
	def := s.cfg.SolveTimeout
	if !sv.Proves {
		def = min(def, dustAnytimeTimeout)
	}
	timeout, err := s.solveTimeout(req.TimeoutMS, def)
	if err != nil {
		return 0, nil, err
	}
	b, err := parseDustBoard(req.Board)
	if err != nil {
		return 0, nil, err
	}
	res, err := s.runDustSolver(r.Context(), b, sv, timeout)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, res, nil
}

// runDustSolver runs sv on b for at most timeout, taking a busy slot. A
// proven answer is remembered (see proofCache), so asking again is free. A
// time limit is a result, not an error; the error is the request's own end
// or a full server.
func (s *Server) runDustSolver(reqCtx context.Context, b *samegame.Board, sv dustSolver, timeout time.Duration) (dustSolveResponse, error) {
	if sv.Proves {
		if res, ok := s.proofs.get(b); ok {
			res.Solver, res.Reused = sv.ID, true
			return res, nil
		}
	}
	// The solver is built before its time starts: a network solver loads
	// its network on first use.
	solver, err := catalog.SameGame.New(sv.ID, dustOptions)
	if err != nil {
		return dustSolveResponse{}, err
	}
	ctx, cancel := context.WithTimeout(reqCtx, timeout)
	defer cancel()
	if err := s.acquire(ctx); err != nil {
		if reqCtx.Err() != nil {
			return dustSolveResponse{}, reqCtx.Err()
		}
		return dustSolveResponse{}, err
	}
	defer s.release()
	sol, err := solver.Solve(ctx, b)
	if reqCtx.Err() != nil {
		return dustSolveResponse{}, reqCtx.Err()
	}
	res := dustSolveResponse{
		Board: dustLine(b), Solver: sv.ID, Cleared: sol.Cleared, Moves: samegame.FormatMoves(sol.Moves),
		Clicks: sol.Clicks, Optimal: sol.Optimal, Nodes: sol.Nodes, Playouts: sol.Playouts,
		MS: float64(sol.Elapsed.Microseconds()) / 1000,
	}
	switch {
	case err == nil:
	case errors.Is(err, context.DeadlineExceeded) && sv.Proves:
		res.Limit = "time"
		if sol.Cleared {
			res.Error = fmt.Sprintf("%s found %d clicks but could not prove them the fewest within %v", sv.Name, sol.Clicks, timeout)
		} else {
			res.Error = fmt.Sprintf("%s found no solution within %v", sv.Name, timeout)
		}
	case errors.Is(err, context.DeadlineExceeded):
		// The Monte-Carlo searches use their whole time: the end is normal.
		res.Limit = "time"
	default:
		return dustSolveResponse{}, err
	}
	if res.Optimal {
		s.proofs.put(b, res)
	}
	return res, nil
}

// proofCache remembers the proven answers for boards, so that the page can
// ask for the optimum of the board it plays as often as it likes. It holds
// at most max boards and forgets them all when full: answers are cheap to
// find again, and a board is rarely asked for twice outside one game.
type proofCache struct {
	mu  sync.Mutex
	max int
	m   map[string]dustSolveResponse
}

func (c *proofCache) get(b *samegame.Board) (dustSolveResponse, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	res, ok := c.m[dustLine(b)]
	return res, ok
}

func (c *proofCache) put(b *samegame.Board, res dustSolveResponse) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= c.max {
		c.m = map[string]dustSolveResponse{}
	}
	c.m[dustLine(b)] = res
}

// dustHintResponse is the answer of POST /api/dust/hint: the next click of
// the best solution found, with the whole solution so that the page can
// give the following hints itself while the player follows it.
type dustHintResponse struct {
	dustSolveResponse
	X       int    `json:"x"` // the click: column from the left
	Y       int    `json:"y"` // row from the bottom
	Size    int    `json:"size"`
	Message string `json:"message"` // for people
}

func (s *Server) dustHint(r *http.Request) (int, any, error) {
	var req dustSolveRequest
	if err := decodeJSON(r, 8<<10, &req); err != nil {
		return 0, nil, err
	}
	if req.Solver != "" || req.TimeoutMS != 0 {
		return 0, nil, errorf(http.StatusBadRequest, "a hint takes only a board")
	}
	b, err := parseDustBoard(req.Board)
	if err != nil {
		return 0, nil, err
	}
	if b.IsEmpty() {
		return 0, nil, errorf(http.StatusUnprocessableEntity, "the board is already cleared")
	}
	// The proof for 60% of the time, then the blog's DFS for the best it
	// finds in the rest.
	total := s.cfg.HintTimeout
	exact, _ := dustSolvers.find("exact")
	res, err := s.runDustSolver(r.Context(), b, exact, total*6/10)
	if err != nil {
		return 0, nil, err
	}
	if !res.Optimal {
		dfs, _ := dustSolvers.find("dfs")
		if res, err = s.runDustSolver(r.Context(), b, dfs, total*4/10); err != nil {
			return 0, nil, err
		}
	}
	h := dustHintResponse{dustSolveResponse: res}
	if !res.Cleared {
		h.Message = fmt.Sprintf("No hint: no solution found within %v.", total)
		return http.StatusOK, h, nil
	}
	moves, err := samegame.ParseMoves(res.Moves)
	if err != nil {
		return 0, nil, err // the solver's own output: cannot happen
	}
	g, _ := b.GroupAt(int(moves[0].X), int(moves[0].Y))
	h.X, h.Y, h.Size = int(moves[0].X), int(moves[0].Y), int(g.Size)
	cells := "cells"
	if g.Size == 1 {
		cells = "cell"
	}
	if res.Optimal {
		h.Message = fmt.Sprintf("Click the %d-%s %s cluster: %d clicks to go (the fewest).", g.Size, cells, dustColorName(g.Color), res.Clicks)
	} else {
		h.Message = fmt.Sprintf("Click the %d-%s %s cluster: it starts a %d-click solution, not proven the fewest.", g.Size, cells, dustColorName(g.Color), res.Clicks)
	}
	return http.StatusOK, h, nil
}

// dustCertaintyRequest is the body of POST /api/dust/certainty.
type dustCertaintyRequest struct {
	Board string `json:"board"`
}

// dustCertaintyResponse is the source blog's certainty board of a board:
// per cell, the shipped network's probability that the cell's cluster is
// the click to make (policy.Policy.Certainty).
type dustCertaintyResponse struct {
	Board string    `json:"board"` // the board, as the request gave it
	Cells []float64 `json:"cells"` // index y*cols+x, row 0 at the bottom; -1 for an empty cell
	Best  float64   `json:"best"`  // the largest probability
}

func (s *Server) dustCertainty(r *http.Request) (int, any, error) {
	var req dustCertaintyRequest
	if err := decodeJSON(r, 8<<10, &req); err != nil {
		return 0, nil, err
	}
	b, err := parseDustBoard(req.Board)
	if err != nil {
		return 0, nil, err
	}
	if b.IsEmpty() {
		return 0, nil, errorf(http.StatusUnprocessableEntity, "the board is already cleared")
	}
	p, err := policy.Default()
	if err != nil {
		return 0, nil, err
	}
	cells, err := p.Certainty(b)
	if err != nil {
		return 0, nil, errorf(http.StatusUnprocessableEntity, "no certainty board: %v", err)
	}
	res := dustCertaintyResponse{Board: req.Board, Cells: cells}
	for _, v := range cells {
		res.Best = max(res.Best, v)
	}
	return http.StatusOK, res, nil
}

// dustColorNames name the colours of the blog's letters G O R Y B.
var dustColorNames = [...]string{"green", "orange", "red", "yellow", "blue"}

func dustColorName(c samegame.Color) string {
	if c < 0 || int(c) >= len(dustColorNames) {
		return fmt.Sprintf("colour-%d", c)
	}
	return dustColorNames[c]
}

// dustState is a saved dust game, as the page sends it.
type dustState struct {
	Start     string `json:"start"`      // the board as dealt
	Board     string `json:"board"`      // the current board: Start after History
	History   string `json:"history"`    // the clicks, "x,y x,y ..."
	Seed      Seed   `json:"seed"`       // the deal's seed, if dealt by the server
	ElapsedMS int64  `json:"elapsed_ms"` // playing time
}

// dustSave checks a saved game sent by the page: the boards parse, the
// clicks replay legally from the start to the board. It returns the game
// to store; solved means cleared.
func dustSave(st dustState) (store.Game, error) {
	moves, res, err := replaySaved(&st.Start, &st.Board, &st.History, 4<<10, parseDustBoard, dustLine)
	if err != nil {
		return store.Game{}, err
	}
	return stored(store.Game{Board: st.Board, Moves: len(moves), Solved: res.Cleared}, st, st.ElapsedMS)
}

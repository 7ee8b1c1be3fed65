package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"tessera/internal/catalog"
	"tessera/internal/store"
	"tessera/samegame"
)

// SameGame under the standard rules: groups of two or more cells score
// (n-2)^2, clearing the board adds 1,000. The page deals the standard
// test set's 20 positions (Schadd et al., 15 x 15, 5 colours; read from
// the data folder) or random boards, and solves with the catalogue's
// searches for the standard rules as jobs that stream the best score.

const (
	sgCols, sgRows, sgColors = 15, 15, 5
	// sgMaxSide bounds the boards the API accepts (20 x 20).
	sgMaxSide = 20
	// sgDefaultTimeout is a solve's time when its spec names none; the
	// Monte-Carlo searches use all of it.
	sgDefaultTimeout = 30 * time.Second
)

var samegameGame = &game{
	Kind:  "samegame",
	Title: "SameGame",
	Path:  "/samegame",
	page:  "samegame.html",
	data: func() any {
		return sameGamePage{Solvers: sgSolvers, Cols: sgCols, Rows: sgRows}
	},
	routes: (*Server).samegameRoutes,
	save:   samegameSave,
	jobs:   samegameJobs,
}

// sameGamePage is what the page's template sees.
type sameGamePage struct {
	Solvers    []dustSolver
	Cols, Rows int
}

// sgSolvers is the Auto menu: the catalogue's searches that play the
// standard rules (the exact solver and the networks are the dust game's),
// NRPA first.
var sgSolvers = func() []dustSolver {
	byID := map[string]catalog.Menu{}
	for _, m := range catalog.SameGame.Menu() {
		byID[m.ID] = m
	}
	var list []dustSolver
	for _, id := range []string{"nrpa", "nmcs", "mcts", "beam", "dfs"} {
		m, ok := byID[id]
		if !ok {
			continue
		}
		list = append(list, dustSolver{ID: m.ID, Name: m.Name, Description: m.Doc, Proves: m.Optimal})
	}
	return list
}()

func findSGSolver(id string) (dustSolver, bool) {
	for _, s := range sgSolvers {
		if s.ID == id {
			return s, true
		}
	}
	return dustSolver{}, false
}

func (s *Server) samegameRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /api/samegame/positions", s.serveAPI(s.sgPositions))
	m.HandleFunc("POST /api/samegame/deal", s.serveAPI(s.sgDeal))
}

// standardSet is the standard test set, read once from the data folder.
type standardSet struct {
	once      sync.Once
	positions []*samegame.Board
	err       error
}

func (s *Server) standard20() ([]*samegame.Board, error) {
	s.sgSet.once.Do(func() {
		if s.cfg.DataDir == "" {
			s.sgSet.err = errors.New("no data folder: the server was started without one (tessera serve -data DIR, or TESSERA_DATA)")
			return
		}
		path := filepath.Join(s.cfg.DataDir, "samegame", "standard20.txt")
		f, err := os.Open(path)
		if err != nil {
			s.sgSet.err = fmt.Errorf("the standard positions: %w", err)
			return
		}
		defer f.Close()
		data, err := samegame.ReadSet(f)
		if err != nil {
			s.sgSet.err = err
			return
		}
		entries, err := samegame.ParseSet(bytes.NewReader(data), samegame.Standard)
		if err != nil {
			s.sgSet.err = err
			return
		}
		for _, e := range entries {
			s.sgSet.positions = append(s.sgSet.positions, e.Board)
		}
	})
	return s.sgSet.positions, s.sgSet.err
}

func (s *Server) sgPositions(r *http.Request) (int, any, error) {
	ps, err := s.standard20()
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	return http.StatusOK, map[string]any{"positions": len(ps), "note": msg, "solvers": sgSolvers}, nil
}

// sgDealRequest is the body of POST /api/samegame/deal: a standard
// position (1..20), or a random board from a seed.
type sgDealRequest struct {
	Position int     `json:"position"`
	Seed     *uint64 `json:"seed"`
}

type sgDealResponse struct {
	Board    string `json:"board"`
	Position int    `json:"position,omitempty"`
	Seed     uint64 `json:"seed,omitempty"`
	Name     string `json:"name"`
}

func sgLine(b *samegame.Board) string { return samegame.Line(b, samegame.Digits) }

func (s *Server) sgDeal(r *http.Request) (int, any, error) {
	var req sgDealRequest
	if err := decodeJSON(r, 1<<10, &req); err != nil {
		return 0, nil, err
	}
	if req.Position != 0 {
		if req.Seed != nil {
			return 0, nil, errorf(http.StatusBadRequest, "give a position or a seed, not both")
		}
		ps, err := s.standard20()
		if err != nil {
			return 0, nil, errorf(http.StatusNotFound, "no standard positions here: %v", err)
		}
		if req.Position < 1 || req.Position > len(ps) {
			return 0, nil, errorf(http.StatusBadRequest, "position %d out of range 1..%d", req.Position, len(ps))
		}
		return http.StatusOK, sgDealResponse{Board: sgLine(ps[req.Position-1]), Position: req.Position,
			Name: fmt.Sprintf("standard position %d", req.Position)}, nil
	}
	seed := rand.Uint64()
	if req.Seed != nil {
		seed = *req.Seed
	}
	return http.StatusOK, sgDealResponse{Board: sgLine(dealStandard(seed)), Seed: seed, Name: fmt.Sprintf("random board, seed %d", seed)}, nil
}

// dealStandard returns the 15 x 15 board of 5 colours dealt for seed: the
// first board `tessera samegame generate -rules standard -seed S` prints.
func dealStandard(seed uint64) *samegame.Board {
	rng := rand.New(rand.NewPCG(seed, 0x67656e))
	return samegame.Random(sgCols, sgRows, sgColors, samegame.Standard, rng)
}

// parseSGBoard reads a standard board from a request: rows of digits, top
// first, "/" between rows, at most sgMaxSide x sgMaxSide.
func parseSGBoard(text string) (*samegame.Board, error) {
	if len(text) > 4<<10 {
		return nil, errorf(http.StatusBadRequest, "bad board: longer than 4 KiB")
	}
	b, err := samegame.ParseBoard(text, samegame.Standard)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "bad board: %v", err)
	}
	if b.Width() > sgMaxSide || b.Height() > sgMaxSide {
		return nil, errorf(http.StatusBadRequest, "bad board: %dx%d is larger than %dx%d", b.Width(), b.Height(), sgMaxSide, sgMaxSide)
	}
	return b, nil
}

// sgSolveSpec is the spec of a samegame.solve job.
type sgSolveSpec struct {
	Board     string  `json:"board"`
	Solver    string  `json:"solver"`     // an ID of the menu; "" NRPA
	TimeoutMS int     `json:"timeout_ms"` // 0: 30 s
	Seed      *uint64 `json:"seed"`       // of the Monte-Carlo searches; nil: 1
}

// sgSolveResult is a solve's best line: its progress as it improves, and
// its result.
type sgSolveResult struct {
	Board    string  `json:"board"`
	Solver   string  `json:"solver"`
	Score    int     `json:"score"`
	Clicks   int     `json:"clicks"`
	Cleared  bool    `json:"cleared"`
	Optimal  bool    `json:"optimal"`
	Moves    string  `json:"moves"` // "x,y x,y ...": x the column from the left, y the row from the bottom
	Nodes    int64   `json:"nodes"`
	Playouts int64   `json:"playouts"`
	MS       float64 `json:"ms"`
	Limit    string  `json:"limit,omitempty"` // "time": the search used its time
}

func (s *Server) checkSGSpec(spec json.RawMessage) (sgSolveSpec, dustSolver, *samegame.Board, time.Duration, error) {
	var req sgSolveSpec
	if err := specUnmarshal(spec, &req); err != nil {
		return req, dustSolver{}, nil, 0, err
	}
	if req.Solver == "" {
		req.Solver = sgSolvers[0].ID
	}
	sv, ok := findSGSolver(req.Solver)
	if !ok {
		return req, sv, nil, 0, errorf(http.StatusBadRequest, "unknown solver %q (GET /api/samegame/positions lists them)", req.Solver)
	}
	timeout := min(sgDefaultTimeout, s.cfg.MaxJobTimeout)
	if req.TimeoutMS != 0 {
		timeout = time.Duration(req.TimeoutMS) * time.Millisecond
		if timeout < 100*time.Millisecond || timeout > s.cfg.MaxJobTimeout {
			return req, sv, nil, 0, errorf(http.StatusBadRequest, "timeout_ms %d out of range 100..%d", req.TimeoutMS, s.cfg.MaxJobTimeout.Milliseconds())
		}
	}
	b, err := parseSGBoard(req.Board)
	if err != nil {
		return req, sv, nil, 0, err
	}
	return req, sv, b, timeout, nil
}

func samegameJobs(s *Server) map[string]jobKind {
	return map[string]jobKind{"samegame.solve": {
		check: func(spec json.RawMessage) (time.Duration, error) {
			_, _, _, timeout, err := s.checkSGSpec(spec)
			return timeout + 2*time.Minute, err // the search stops itself at timeout; the rest is for the wait for a slot
		},
		run: func(ctx context.Context, spec json.RawMessage, progress func(any)) (any, error) {
			req, sv, b, timeout, err := s.checkSGSpec(spec)
			if err != nil {
				return nil, err
			}
			return s.solveSameGame(ctx, req, sv, b, timeout, progress)
		},
	}}
}

// solveSameGame runs sv on b for at most timeout, taking a busy slot, and
// reports each better line on progress. The end of the time is the normal
// end of the Monte-Carlo searches: their best line is the result.
func (s *Server) solveSameGame(ctx context.Context, req sgSolveSpec, sv dustSolver, b *samegame.Board, timeout time.Duration, progress func(any)) (sgSolveResult, error) {
	seed := uint64(1)
	if req.Seed != nil {
		seed = *req.Seed
	}
	start := time.Now()
	line := sgLine(b)
	opts := catalog.SameGameOptions{Seed: seed, Restart: true, Progress: func(sol samegame.Solution) {
		if progress != nil {
			progress(sgSolveResult{Board: line, Solver: sv.ID, Score: sol.Score, Clicks: sol.Clicks, Cleared: sol.Cleared,
				Moves: samegame.FormatMoves(sol.Moves), Nodes: sol.Nodes, Playouts: sol.Playouts, MS: msSince(start)})
		}
	}}
	solver, err := catalog.SameGame.New(sv.ID, opts)
	if err != nil {
		return sgSolveResult{}, err
	}
	// The wait for a solver slot is the job's, not the search's time.
	if err := s.acquire(ctx); err != nil {
		return sgSolveResult{}, err
	}
	defer s.release()
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	sol, err := solver.Solve(sctx, b)
	res := sgSolveResult{Board: line, Solver: sv.ID, Score: sol.Score, Clicks: sol.Clicks, Cleared: sol.Cleared, Optimal: sol.Optimal,
		Moves: samegame.FormatMoves(sol.Moves), Nodes: sol.Nodes, Playouts: sol.Playouts, MS: msSince(start)}
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return res, ctx.Err() // cancelled: the job system records it
	case errors.Is(err, context.DeadlineExceeded):
		res.Limit = "time"
	default:
		return res, err
	}
	return res, nil
}

// samegameState is a saved SameGame game, as the page sends it.
type samegameState struct {
	Start     string `json:"start"`
	Board     string `json:"board"`
	History   string `json:"history"` // "x,y x,y ..."
	Name      string `json:"name"`    // "standard position 3", "random board, seed 7"
	ElapsedMS int64  `json:"elapsed_ms"`
}

// samegameSave checks a saved game: the clicks replay from the start to
// the board; the score is recomputed.
func samegameSave(data json.RawMessage) (store.Game, error) {
	var st samegameState
	if err := strictUnmarshal(data, &st); err != nil {
		return store.Game{}, err
	}
	if len(st.Name) > 200 {
		return store.Game{}, errorf(http.StatusBadRequest, "name: longer than 200 bytes")
	}
	start, moves, res, err := replaySaved(st.Start, st.Board, st.History, 8<<10, parseSGBoard, sgLine)
	if err != nil {
		return store.Game{}, err
	}
	if st.ElapsedMS < 0 {
		return store.Game{}, errorf(http.StatusBadRequest, "elapsed_ms: negative")
	}
	st.Start, st.Board, st.History = sgLine(start), sgLine(res.Board), samegame.FormatMoves(moves)
	norm, err := json.Marshal(st)
	if err != nil {
		return store.Game{}, err
	}
	el, err := elapsed(st.ElapsedMS)
	if err != nil {
		return store.Game{}, err
	}
	return store.Game{Board: st.Board, Data: norm, Moves: len(moves),
		Elapsed: el, Solved: res.Over}, nil
}

// replaySaved checks a saved game of the cluster-clearing family (the
// dust game's or SameGame's): the start board parses, the history (at
// most maxHistory bytes) replays legally from it, and the board, when
// given, is where the history leads. parse and line are the page's board
// format.
func replaySaved(startText, boardText, history string, maxHistory int,
	parse func(string) (*samegame.Board, error), line func(*samegame.Board) string) (*samegame.Board, []samegame.Move, samegame.Result, error) {
	var none samegame.Result
	start, err := parse(startText)
	if err != nil {
		return nil, nil, none, errorf(http.StatusBadRequest, "start: %v", err)
	}
	if len(history) > maxHistory {
		return nil, nil, none, errorf(http.StatusBadRequest, "history: longer than %d KiB", maxHistory>>10)
	}
	moves, err := samegame.ParseMoves(history)
	if err != nil {
		return nil, nil, none, errorf(http.StatusBadRequest, "history: %v", err)
	}
	res, err := samegame.Replay(start, moves)
	if err != nil {
		return nil, nil, none, errorf(http.StatusBadRequest, "history: %v", err)
	}
	if boardText != "" {
		given, err := parse(boardText)
		if err != nil {
			return nil, nil, none, err
		}
		if !given.Equal(res.Board) {
			return nil, nil, none, errorf(http.StatusBadRequest, "board %q is not where the history leads from the start (%q)", boardText, line(res.Board))
		}
	}
	return start, moves, res, nil
}

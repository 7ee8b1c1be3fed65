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
	data: func() any {
		return sameGamePage{Solvers: sgMenu.Menu(), Cols: sgCols, Rows: sgRows, Speed: playSpeed{Max: 20, Value: 4}}
	},
	api:  samegameAPI,
	save: saveOf(samegameSave),
	jobs: samegameJobs,
	auto: "search as a job, then play the best line (key a)",
	budgets: budgetMenu(sgDefaultTimeout,
		5*time.Second, 30*time.Second, 2*time.Minute, 10*time.Minute),
}

// sameGamePage is what the page's template sees.
type sameGamePage struct {
	Solvers    []catalog.Menu
	Cols, Rows int
	Speed      playSpeed
}

// sgSolvers is the Auto menu: the catalogue's solvers that play the
// standard rules, in its order (NRPA, the default, first).
var sgSolvers = menuOf(sgMenu.Menu())

// sgMenu is the catalogue's solvers that play the standard rules.
var sgMenu = catalog.SameGame.Playing(samegame.Standard.String())

// samegameAPI is the page's own API calls, under /api/samegame/.
var samegameAPI = apiCalls{
	"GET positions": (*Server).sgPositions,
	"POST deal":     (*Server).sgDeal,
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
	Position int   `json:"position"`
	Seed     *Seed `json:"seed"`
}

type sgDealResponse struct {
	Board    string `json:"board"`
	Position int    `json:"position,omitempty"`
	Seed     Seed   `json:"seed,omitempty"`
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
		seed = uint64(*req.Seed)
	}
	return http.StatusOK, sgDealResponse{Board: sgLine(dealStandard(seed)), Seed: Seed(seed), Name: fmt.Sprintf("random board, seed %d", seed)}, nil
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
	return parseBoardOf(text, samegame.Standard, sgMaxSide, sgMaxSide)
}

// parseBoardOf reads a board under the rules from a request: at most 4 KiB
// of text, at most cols x rows cells.
func parseBoardOf(text string, rules samegame.Rules, cols, rows int) (*samegame.Board, error) {
	if len(text) > 4<<10 {
		return nil, errorf(http.StatusBadRequest, "bad board: longer than 4 KiB")
	}
	b, err := samegame.ParseBoard(text, rules)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "bad board: %v", err)
	}
	if b.Width() > cols || b.Height() > rows {
		return nil, errorf(http.StatusBadRequest, "bad board: %dx%d is larger than %dx%d", b.Width(), b.Height(), cols, rows)
	}
	return b, nil
}

// checkSGSpec reads a samegame.solve job: the catalogue's job
// (catalog.SameGameJob) for a solver of the page's menu, standard rules, a
// board the page can show, a time limit within the server's (0: 30 s).
func (s *Server) checkSGSpec(spec json.RawMessage) (catalog.SameGameJob, *samegame.Board, error) {
	var j catalog.SameGameJob
	if err := specUnmarshal(spec, &j); err != nil {
		return j, nil, err
	}
	if j.Solver == "" {
		j.Solver = sgSolvers[0].ID
	}
	if _, ok := sgSolvers.find(j.Solver); !ok {
		return j, nil, errorf(http.StatusBadRequest, "unknown solver %q (GET /api/samegame/positions lists them)", j.Solver)
	}
	if j.Rules == "" {
		j.Rules = samegame.Standard.String()
	}
	if j.Rules != samegame.Standard.String() {
		return j, nil, errorf(http.StatusBadRequest, "rules %q: this page plays standard SameGame", j.Rules)
	}
	if j.Options.Model != "" {
		return j, nil, errorf(http.StatusBadRequest, "options: model: the page's solvers use the shipped networks")
	}
	if err := j.Options.Check(); err != nil {
		return j, nil, errorf(http.StatusBadRequest, "options: %v", err)
	}
	if err := s.pageBudget(&j.Budget, sgDefaultTimeout); err != nil {
		return j, nil, err
	}
	b, err := parseSGBoard(j.Board)
	if err != nil {
		return j, nil, err
	}
	j.Board = sgLine(b)
	// The Monte-Carlo searches use all of their time.
	j.Options.Restart = true
	return j, b, nil
}

func samegameJobs(s *Server) map[string]jobKind {
	check := func(spec json.RawMessage) (catalog.SameGameJob, error) {
		j, _, err := s.checkSGSpec(spec)
		return j, err
	}
	k := catalogJobKind(s, catalog.SameGameKind, check, func(j catalog.SameGameJob) catalog.Budget { return j.Budget }, nil)
	k.run = func(ctx context.Context, spec json.RawMessage, progress func(any)) (any, error) {
		j, err := check(spec)
		if err != nil {
			return nil, err
		}
		return s.solveSameGame(ctx, j, progress)
	}
	return map[string]jobKind{catalog.SameGameKind: k}
}

// solveSameGame runs the job, taking a busy slot, and reports each better
// line on progress (a partial record). The end of the time is the normal
// end of the Monte-Carlo searches: their best line is the result, the
// catalogue's record, as a "tessera worker" returns it.
func (s *Server) solveSameGame(ctx context.Context, j catalog.SameGameJob, progress func(any)) (catalog.SameGameRecord, error) {
	start := time.Now()
	h := catalog.SameGameHooks{Progress: func(sol samegame.Solution) {
		if progress != nil {
			progress(catalog.SameGameRecord{Rules: j.Rules, Solver: j.Solver, Score: sol.Score, Clicks: sol.Clicks, Cleared: sol.Cleared,
				Moves: samegame.FormatMoves(sol.Moves), Nodes: sol.Nodes, Playouts: sol.Playouts, Seconds: time.Since(start).Seconds()})
		}
	}}
	// The wait for a solver slot is the job's, not the search's time.
	if err := s.acquire(ctx); err != nil {
		return catalog.SameGameRecord{}, err
	}
	defer s.release()
	rec := j.Run(ctx, h)
	if err := ctx.Err(); err != nil {
		return rec, err // cancelled: the job system records it
	}
	if rec.Error != "" {
		return rec, errors.New(rec.Error)
	}
	return rec, nil
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
func samegameSave(st samegameState) (store.Game, error) {
	if len(st.Name) > 200 {
		return store.Game{}, errorf(http.StatusBadRequest, "name: longer than 200 bytes")
	}
	moves, res, err := replaySaved(&st.Start, &st.Board, &st.History, 8<<10, parseSGBoard, sgLine)
	if err != nil {
		return store.Game{}, err
	}
	return stored(store.Game{Board: st.Board, Moves: len(moves), Solved: res.Over}, st, st.ElapsedMS)
}

// replaySaved checks a saved game of the cluster-clearing family (the
// dust game's or SameGame's): the start board parses, the history (at
// most maxHistory bytes) replays legally from it, and the board, when
// given, is where the history leads. parse and line are the page's board
// format. It writes the three back in that format (the board: where the
// history leads) and returns the moves and where they lead; the playing
// time is stored's to check.
func replaySaved(start, board, history *string, maxHistory int,
	parse func(string) (*samegame.Board, error), line func(*samegame.Board) string) ([]samegame.Move, samegame.Result, error) {
	var none samegame.Result
	b, err := parse(*start)
	if err != nil {
		return nil, none, errorf(http.StatusBadRequest, "start: %v", err)
	}
	if len(*history) > maxHistory {
		return nil, none, errorf(http.StatusBadRequest, "history: longer than %d KiB", maxHistory>>10)
	}
	moves, err := samegame.ParseMoves(*history)
	if err != nil {
		return nil, none, errorf(http.StatusBadRequest, "history: %v", err)
	}
	res, err := samegame.Replay(b, moves)
	if err != nil {
		return nil, none, errorf(http.StatusBadRequest, "history: %v", err)
	}
	if *board != "" {
		given, err := parse(*board)
		if err != nil {
			return nil, none, err
		}
		if !given.Equal(res.Board) {
			return nil, none, errorf(http.StatusBadRequest, "board %q is not where the history leads from the start (%q)", *board, line(res.Board))
		}
	}
	*start, *board, *history = line(b), line(res.Board), samegame.FormatMoves(moves)
	return moves, res, nil
}

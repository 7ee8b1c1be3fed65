package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"log/slog"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera/internal/catalog"
	"tessera/internal/store"
	"tessera/npuzzle"
)

// newServer returns a server on a fresh database in a temporary folder.
func newServer(t *testing.T, cfg Config) (*Server, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tessera.db")
	cfg.Store = openStore(t, path)
	if cfg.PDBs == nil { // a database built in a moment, never cached
		cfg.PDBs, cfg.PDBNoCache = map[string]string{"4x4": "5-5-5"}, true
	}
	return mustNew(t, cfg), path
}

// openStore opens the database at path ("": a fresh one in a temporary
// folder), closed when the test ends.
func openStore(tb testing.TB, path string) *store.Store {
	tb.Helper()
	if path == "" {
		path = filepath.Join(tb.TempDir(), "t.db")
	}
	st, err := store.Open(tb.Context(), path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}

// mustNew is New that fails the test on an error.
func mustNew(tb testing.TB, cfg Config) *Server {
	tb.Helper()
	s, err := New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// testClient is the client identity of call's requests.
const testClient = "7e57c11e7e57c11e7e57c11e7e57c11e"

// call sends a request to h and returns the recorded answer.
func call(t *testing.T, h http.Handler, method, path string, body any, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	var r io.Reader
	contentType := ""
	switch b := body.(type) {
	case nil:
	case string:
		r, contentType = strings.NewReader(b), "application/json"
	case []byte:
		r = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		r, contentType = bytes.NewReader(j), "application/json"
	}
	req := httptest.NewRequestWithContext(t.Context(), method, path, r)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	// Every call is the same client unless it names its own cookie.
	req.Header.Set("Cookie", clientCookie+"="+testClient)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

// decode reads a JSON answer into a value of type T, checking the status.
func decode[T any](t *testing.T, w *httptest.ResponseRecorder, status int) T {
	t.Helper()
	var v T
	if w.Code != status {
		t.Fatalf("status %d, want %d: %s", w.Code, status, w.Body)
	}
	if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("Content-Type %q, want JSON: %s", ct, w.Body)
	}
	if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
		t.Fatalf("%v in %s", err, w.Body)
	}
	return v
}

// wantError checks that an answer is a JSON error with the status and a
// message containing want.
func wantError(t *testing.T, w *httptest.ResponseRecorder, status int, want string) {
	t.Helper()
	e := decode[map[string]any](t, w, status)
	msg, ok := e["error"].(string)
	if !ok || len(e) != 1 {
		t.Fatalf("error answer %s, want {\"error\": ...}", w.Body)
	}
	if !strings.Contains(msg, want) {
		t.Errorf("error %q does not mention %q", msg, want)
	}
	if strings.Contains(msg, "goroutine") || strings.Contains(msg, ".go:") {
		t.Errorf("error %q looks like a stack trace", msg)
	}
}

// badBody is a request body that must be refused with status and a
// message containing want: JSON text, or a value sent as JSON (call).
type badBody struct {
	body   any
	status int
	want   string
}

// postBad posts each bad body to path and checks the error answers, a
// subtest each, named by the body's first 40 bytes of JSON.
func postBad(t *testing.T, h http.Handler, path string, cases []badBody) {
	t.Helper()
	for _, tc := range cases {
		name, ok := tc.body.(string)
		if !ok {
			j, err := json.Marshal(tc.body)
			if err != nil {
				t.Fatal(err)
			}
			name = string(j)
		}
		t.Run(name[:min(len(name), 40)], func(t *testing.T) {
			wantError(t, call(t, h, "POST", path, tc.body), tc.status, tc.want)
		})
	}
}

func TestPages(t *testing.T) {
	s, _ := newServer(t, Config{})
	w := call(t, s, "GET", "/", nil)
	if w.Code != http.StatusFound || w.Header().Get("Location") != "/npuzzle" {
		t.Fatalf("GET /: %d to %q", w.Code, w.Header().Get("Location"))
	}
	w = call(t, s, "GET", "/npuzzle", nil)
	if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("GET /npuzzle: %d %s", w.Code, w.Header().Get("Content-Type"))
	}
	page := w.Body.String()
	// The Auto menu and the pictures come from the server's lists.
	for _, sv := range solvers {
		if !strings.Contains(page, fmt.Sprintf(`<option value="%s"`, sv.ID)) {
			t.Errorf("page lacks solver %s", sv.ID)
		}
	}
	for _, p := range builtinPictures {
		if !strings.Contains(page, `data-id="`+p.ID+`"`) {
			t.Errorf("page lacks picture %s", p.ID)
		}
	}
	if w.Header().Get("Content-Security-Policy") == "" || w.Header().Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("security headers missing: %v", w.Header())
	}
	if w := call(t, s, "GET", "/nosuch", nil); w.Code != 404 {
		t.Errorf("GET /nosuch: %d", w.Code)
	}
	// Every game of the catalogue's table has its page, and every page's
	// navigation names them all, in the table's order.
	for _, g := range catalog.Games {
		w := call(t, s, "GET", g.Path, nil)
		if w.Code != 200 {
			t.Fatalf("GET %s: %d", g.Path, w.Code)
		}
		at := 0
		for _, h := range catalog.Games {
			i := strings.Index(w.Body.String()[at:], fmt.Sprintf(`<a href="%s"`, h.Path))
			if i < 0 {
				t.Fatalf("%s: the navigation lacks %s, or names it out of order", g.Path, h.Path)
			}
			at += i
		}
	}
}

func TestStatic(t *testing.T) {
	s, _ := newServer(t, Config{})
	for _, path := range []string{"/static/js/npuzzle.js", "/static/js/api.js", "/static/js/saves.js", "/static/css/app.css"} {
		w := call(t, s, "GET", path, nil)
		if w.Code != 200 || w.Header().Get("ETag") == "" || w.Header().Get("Cache-Control") != "no-cache" {
			t.Fatalf("GET %s: %d, headers %v", path, w.Code, w.Header())
		}
		// A browser that has the file gets 304.
		w2 := call(t, s, "GET", path, nil, "If-None-Match", w.Header().Get("ETag"))
		if w2.Code != http.StatusNotModified {
			t.Errorf("GET %s again: %d, want 304", path, w2.Code)
		}
	}
	if w := call(t, s, "GET", "/static/js/npuzzle.js", nil); !strings.HasPrefix(w.Header().Get("Content-Type"), "text/javascript") {
		t.Errorf("modules must be served as JavaScript, got %q", w.Header().Get("Content-Type"))
	}
	// Every built-in picture is a square PNG.
	for _, p := range builtinPictures {
		w := call(t, s, "GET", p.URL, nil)
		cfg, err := png.DecodeConfig(w.Body)
		if w.Code != 200 || err != nil || cfg.Width != cfg.Height || cfg.Width < 400 {
			t.Errorf("GET %s: %d, %v, %dx%d", p.URL, w.Code, err, cfg.Width, cfg.Height)
		}
	}
	// No folder listings, no escape from the folder.
	for _, path := range []string{"/static/", "/static/js/", "/static/nope.js", "/static/../server.go", "/static/%2e%2e/server.go"} {
		if w := call(t, s, "GET", path, nil); w.Code != 404 && w.Code != http.StatusTemporaryRedirect && w.Code != http.StatusMovedPermanently {
			t.Errorf("GET %s: %d, want 404 or a redirect", path, w.Code)
		} else if strings.Contains(w.Body.String(), "package web") {
			t.Errorf("GET %s served source code", path)
		}
	}
}

func TestUnknownAPIAnswersJSON(t *testing.T) {
	s, _ := newServer(t, Config{})
	wantError(t, call(t, s, "GET", "/api/nosuch", nil), 404, "/api/nosuch")
	wantError(t, call(t, s, "GET", "/api/sokoban/saves", nil), 404, "no API endpoint")
	w := call(t, s, "GET", "/api/npuzzle/solve", nil)
	wantError(t, w, 405, "not allowed")
	if w.Header().Get("Allow") != "POST" {
		t.Errorf("Allow: %q", w.Header().Get("Allow"))
	}
	wantError(t, call(t, s, "PATCH", "/api/npuzzle/saves/x", nil), 405, "GET")
}

func TestCrossOriginRefused(t *testing.T) {
	s, _ := newServer(t, Config{})
	w := call(t, s, "POST", "/api/npuzzle/shuffle", `{"size":"3x3"}`, "Sec-Fetch-Site", "cross-site")
	wantError(t, w, http.StatusForbidden, "cross-origin")
	w = call(t, s, "POST", "/api/npuzzle/shuffle", `{"size":"3x3"}`, "Sec-Fetch-Site", "same-origin")
	decode[shuffleResponse](t, w, 200)
}

func TestSolvers(t *testing.T) {
	s, _ := newServer(t, Config{})
	got := decode[struct {
		Solvers []solver
		Default string
	}](t, call(t, s, "GET", "/api/npuzzle/solvers", nil), 200)
	if len(got.Solvers) != len(solvers) || got.Default != "astar" {
		t.Fatalf("got %+v", got)
	}
	for i, sv := range got.Solvers {
		if sv.ID != solvers[i].ID || sv.Name == "" || sv.Description == "" || sv.Optimal != solvers[i].Optimal {
			t.Errorf("solver %d: %+v", i, sv)
		}
	}
}

func TestShuffle(t *testing.T) {
	s, _ := newServer(t, Config{})
	for _, tc := range []struct {
		size    string
		uniform bool
		rows    int
		cols    int
	}{{"3x3", false, 3, 3}, {"4x4", true, 4, 4}, {"3x5", false, 3, 5}, {"8x8", true, 8, 8}, {"2x2", false, 2, 2}} {
		for seed := range uint64(20) {
			res := decode[shuffleResponse](t, call(t, s, "POST", "/api/npuzzle/shuffle", map[string]any{"size": tc.size, "uniform": tc.uniform, "seed": seed}), 200)
			b, err := npuzzle.Parse(res.Board, npuzzle.Size{})
			if err != nil {
				t.Fatal(err)
			}
			if b.Rows() != tc.rows || b.Cols() != tc.cols || !npuzzle.Solvable(b, npuzzle.BlankLast) || b.IsSolved(npuzzle.BlankLast) {
				t.Fatalf("%s seed %d: board %s", tc.size, seed, res.Board)
			}
			if res.Seed != seed || res.Uniform != tc.uniform || (!tc.uniform && res.Walk != 10*tc.rows*tc.cols) {
				t.Errorf("%s seed %d: %+v", tc.size, seed, res)
			}
			// The same seed gives the same board.
			again := decode[shuffleResponse](t, call(t, s, "POST", "/api/npuzzle/shuffle", map[string]any{"size": tc.size, "uniform": tc.uniform, "seed": seed}), 200)
			if again.Board != res.Board {
				t.Errorf("%s seed %d: %s then %s", tc.size, seed, res.Board, again.Board)
			}
		}
	}
	// Without a seed, the server picks one and says which.
	a := decode[shuffleResponse](t, call(t, s, "POST", "/api/npuzzle/shuffle", `{"size":"4x4"}`), 200)
	b := decode[shuffleResponse](t, call(t, s, "POST", "/api/npuzzle/shuffle", `{"size":"4x4"}`), 200)
	if a.Seed == b.Seed {
		t.Errorf("two shuffles without a seed both used seed %d", a.Seed)
	}

	postBad(t, s, "/api/npuzzle/shuffle", []badBody{
		{`{"size":"11x11"}`, 400, "2 to 10"},
		{`{"size":"1x3"}`, 400, "out of range"},
		{`{"size":"big"}`, 400, "ROWSxCOLS"},
		{`{"size":""}`, 400, "size"},
		{`{"size":"3x3","colour":"red"}`, 400, "unknown field"},
		{`{"size":"3x3"`, 400, "malformed JSON"},
		{`{"size":"3x3"} {}`, 400, "after the object"},
		{`[1,2]`, 400, "malformed JSON"},
		{`{"size":"3x3","seed":-1}`, 400, "malformed JSON"},
		{`{"size":"` + strings.Repeat("3", 2000) + `"}`, 413, "larger than"},
	})
	wantError(t, call(t, s, "POST", "/api/npuzzle/shuffle", []byte(`{"size":"3x3"}`), "Content-Type", "text/plain"), 415, "JSON")
}

// bfsLength returns the optimal solution length of b, by BFS.
func bfsLength(t *testing.T, b *npuzzle.Board) int {
	t.Helper()
	sol, err := npuzzle.BFS{}.Solve(t.Context(), b, npuzzle.BlankLast)
	if err != nil {
		t.Fatal(err)
	}
	return len(sol.Moves)
}

// replayLine plays moves on board, both as the API writes them.
func replayLine(t *testing.T, board, moves string) (*npuzzle.Board, error) {
	t.Helper()
	b, err := npuzzle.Parse(board, npuzzle.Size{})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := npuzzle.ParseMoves(moves)
	if err != nil {
		t.Fatal(err)
	}
	return npuzzle.Replay(b, ms)
}

// checkSolution checks that moves take board to the goal.
func checkSolution(t *testing.T, board, moves string) {
	t.Helper()
	end, err := replayLine(t, board, moves)
	if err != nil || !end.IsSolved(npuzzle.BlankLast) {
		t.Fatalf("moves %s do not solve %s: %v", moves, board, err)
	}
}

func TestSolve(t *testing.T) {
	s, _ := newServer(t, Config{})
	boards := []string{"1 2 3/4 0 6/7 5 8", "8 6 7/2 5 4/3 0 1", "0 1 2 3/5 6 7 4/9 10 11 8/13 14 15 12", "1 2 3 4/5 6 0 8/9 10 7 12/13 14 11 15"}
	for _, board := range boards {
		b, _ := npuzzle.Parse(board, npuzzle.Size{})
		var optimal int
		if b.Len() == 9 {
			optimal = bfsLength(t, b) // 2 and 31 (the hardest 8-puzzle)
		} else {
			sol, err := npuzzle.IDAStar{}.Solve(t.Context(), b, npuzzle.BlankLast)
			if err != nil {
				t.Fatal(err)
			}
			optimal = len(sol.Moves)
		}
		for _, sv := range solvers {
			if sv.ID == "bfs" && b.Len() > 9 && optimal > 6 {
				continue
			}
			res := decode[solveResponse](t, call(t, s, "POST", "/api/npuzzle/solve", map[string]any{"board": board, "solver": sv.ID}), 200)
			if !res.Solved || res.Solver != sv.ID || res.Error != "" || res.Limit != "" || res.Expanded == 0 || res.Generated == 0 || res.PeakStored == 0 {
				t.Fatalf("%s on %s: %+v", sv.ID, board, res)
			}
			checkSolution(t, board, res.Moves)
			// fast proves its answer optimal only on boards its last
			// search covers alone; every other solver always or never.
			claims := res.Optimal == sv.Optimal || sv.ID == "fast"
			if res.Length != len(res.Moves) || !claims || (res.Optimal && res.Length != optimal) || res.Length < optimal {
				t.Errorf("%s on %s: length %d, optimal %v; the shortest is %d", sv.ID, board, res.Length, res.Optimal, optimal)
			}
		}
	}
	// The default solver is A*; a solved board needs no moves.
	res := decode[solveResponse](t, call(t, s, "POST", "/api/npuzzle/solve", `{"board":"1 2/3 0"}`), 200)
	if !res.Solved || res.Solver != "astar" || res.Length != 0 {
		t.Errorf("solved board: %+v", res)
	}
}

func TestSolveBadInput(t *testing.T) {
	s, _ := newServer(t, Config{})
	postBad(t, s, "/api/npuzzle/solve", []badBody{
		{`{"board":"1 2 3/4 5"}`, 400, "row 2"},
		{`{"board":"1 2 3/4 5 6/7 8 8"}`, 400, "appears twice"},
		{`{"board":"1 2 3/4 x 6/7 8 0"}`, 400, "not a number"},
		{`{"board":"1 2 3/4 5 6/7 8 9"}`, 400, "blank"},
		{`{"board":""}`, 400, "empty board"},
		{`{}`, 400, "empty board"},
		{`{"board":"` + strings.Repeat("1 ", 120) + `0"}`, 400, "bad board"},
		{`{"board":"2 1 3/4 5 6/7 8 0"}`, 422, "not solvable"},
		{`{"board":"1 2 3/4 5 6/8 7 0","solver":"astar"}`, 422, "not solvable"},
		{`{"board":"1 2 3/4 5 6/7 0 8","solver":"magic"}`, 400, "unknown solver"},
		{`{"board":"1 2 3/4 5 6/7 0 8","timeout_ms":1}`, 400, "timeout_ms"},
		{`{"board":"1 2 3/4 5 6/7 0 8","timeout_ms":3600000}`, 400, "timeout_ms"},
		{`{"board":"1 2 3/4 5 6/7 0 8","file":"/etc/passwd"}`, 400, "unknown field"},
		{`{"board":12}`, 400, "malformed JSON"},
		{`{"board":"` + strings.Repeat("1 ", 5000) + `"}`, 413, "larger than"},
	})
}

// A hard 5x5 board (a uniform shuffle): no optimal solver finishes it in
// the limits of these tests.
var hard5x5 = "3 23 2 12 24/10 0 16 8 9/1 18 11 22 4/5 6 21 13 17/14 15 20 19 7"

func TestSolveLimits(t *testing.T) {
	// BFS on a 5x5 runs out of memory, and says so.
	s, _ := newServer(t, Config{SolveMemory: 8 << 20})
	res := decode[solveResponse](t, call(t, s, "POST", "/api/npuzzle/solve", map[string]any{"board": hard5x5, "solver": "bfs"}), 200)
	if res.Solved || res.Limit != "memory" || !strings.Contains(res.Error, "memory limit of 8 MiB") || res.Expanded == 0 || res.Moves != "" {
		t.Fatalf("BFS on 5x5: %+v", res)
	}
	// IDA* stores almost nothing: it runs out of time.
	res = decode[solveResponse](t, call(t, s, "POST", "/api/npuzzle/solve", map[string]any{"board": hard5x5, "solver": "idastar", "timeout_ms": 200}), 200)
	if res.Solved || res.Limit != "time" || !strings.Contains(res.Error, "time limit of 200ms") || !strings.Contains(res.Error, "fast solver") {
		t.Fatalf("IDA* on 5x5: %+v", res)
	}
	// Weighted A* solves it.
	s, _ = newServer(t, Config{})
	res = decode[solveResponse](t, call(t, s, "POST", "/api/npuzzle/solve", map[string]any{"board": hard5x5, "solver": "wastar"}), 200)
	if !res.Solved || res.Optimal {
		t.Fatalf("weighted A* on 5x5: %+v", res)
	}
	checkSolution(t, hard5x5, res.Moves)
}

func TestSolveWaitsForABusySlot(t *testing.T) {
	s, _ := newServer(t, Config{MaxBusy: 1})
	s.busy <- struct{}{} // someone else's solve
	res := call(t, s, "POST", "/api/npuzzle/solve", `{"board":"1 2 3/4 0 6/7 5 8","timeout_ms":50}`)
	wantError(t, res, http.StatusServiceUnavailable, "busy")
	s.release()
	decode[solveResponse](t, call(t, s, "POST", "/api/npuzzle/solve", `{"board":"1 2 3/4 0 6/7 5 8"}`), 200)
}

func TestHint(t *testing.T) {
	s, _ := newServer(t, Config{})
	h := decode[hintResponse](t, call(t, s, "POST", "/api/npuzzle/hint", `{"board":"1 2 3/4 0 6/7 5 8"}`), 200)
	if !h.Solved || !h.Optimal || h.Move != "U" || h.Tile != 5 || h.Moves != "UL" || !strings.Contains(h.Message, "Slide tile 5 up: 2 moves to go (shortest)") {
		t.Fatalf("hint: %+v", h)
	}
	// The hardest 8-puzzle: every first move of a shortest solution starts
	// a 31-move solution.
	h = decode[hintResponse](t, call(t, s, "POST", "/api/npuzzle/hint", `{"board":"8 6 7/2 5 4/3 0 1"}`), 200)
	if !h.Optimal || h.Length != 31 {
		t.Fatalf("hint on the hardest 8-puzzle: %+v", h)
	}
	checkSolution(t, "8 6 7/2 5 4/3 0 1", h.Moves)

	postBad(t, s, "/api/npuzzle/hint", []badBody{
		{`{"board":"1 2 3/4 5 6/7 8 0"}`, 422, "already solved"},
		{`{"board":"2 1 3/4 5 6/7 8 0"}`, 422, "not solvable"},
		{`{"board":"1 2 3/4 5 6/7 8"}`, 400, "bad board"},
		{`{"board":"1 2 3/4 5 6/7 0 8","solver":"bfs"}`, 400, "only a board"},
	})
}

func TestHintFallsBackToAQuickSolution(t *testing.T) {
	s, _ := newServer(t, Config{HintTimeout: 1500 * time.Millisecond})
	h := decode[hintResponse](t, call(t, s, "POST", "/api/npuzzle/hint", map[string]any{"board": hard5x5}), 200)
	if !h.Solved || h.Optimal || h.Move == "" || !strings.Contains(h.Message, "not proven shortest") || !strings.Contains(h.Message, "900ms") {
		t.Fatalf("hint on a hard 5x5: %+v", h)
	}
	checkSolution(t, hard5x5, h.Moves)
	if h.Move != h.Moves[:1] {
		t.Errorf("move %s is not the first of %s", h.Move, h.Moves)
	}
}

// npuzzleSaveBody is a saved game for the tests: the board "1 2 3/4 0 6/7
// 5 8" after one move up.
var npuzzleSaveBody = map[string]any{"start": "1 2 3/4 0 6/7 5 8", "board": "1 2 3/4 5 6/7 0 8", "history": "U", "picture": "sunset", "elapsed_ms": 4200}

func TestSaves(t *testing.T) {
	s, path := newServer(t, Config{})
	list := func(s http.Handler) []saveInfo {
		return decode[struct{ Saves []saveInfo }](t, call(t, s, "GET", "/api/npuzzle/saves", nil), 200).Saves
	}
	if got := list(s); len(got) != 0 {
		t.Fatalf("fresh list: %+v", got)
	}
	info := decode[saveInfo](t, call(t, s, "PUT", "/api/npuzzle/saves/lunch%20break", npuzzleSaveBody), 200)
	if info.Name != "lunch break" || info.Moves != 1 || info.ElapsedMS != 4200 || info.Solved || info.Board != "1 2 3/4 5 6/7 0 8" {
		t.Fatalf("saved: %+v", info)
	}
	// A solved game, under a Unicode name.
	solved := map[string]any{"start": "1 2 3/4 5 6/7 0 8", "history": "L", "picture": "0123456789abcdef0123", "elapsed_ms": 0}
	if info := decode[saveInfo](t, call(t, s, "PUT", "/api/npuzzle/saves/%C3%A9t%C3%A9%20%E2%9C%93", solved), 200); !info.Solved || info.Name != "été ✓" {
		t.Fatalf("saved: %+v", info)
	}
	if got := list(s); len(got) != 2 || got[0].Name != "été ✓" || got[1].Name != "lunch break" {
		t.Fatalf("list: %+v", got)
	}

	// A new server on the same file (a restart) loads the same game.
	s2 := mustNew(t, Config{Store: openStore(t, path)})
	got := decode[savedGame](t, call(t, s2, "GET", "/api/npuzzle/saves/lunch%20break", nil), 200)
	var state npuzzleState
	if err := json.Unmarshal(got.State, &state); err != nil {
		t.Fatal(err)
	}
	want := npuzzleState{Start: "1 2 3/4 0 6/7 5 8", Board: "1 2 3/4 5 6/7 0 8", History: "U", Picture: "sunset", ElapsedMS: 4200}
	if state != want || got.Name != "lunch break" || got.Moves != 1 || got.Created.IsZero() {
		t.Fatalf("loaded %+v, state %+v", got, state)
	}

	// Overwrite, delete.
	decode[saveInfo](t, call(t, s2, "PUT", "/api/npuzzle/saves/lunch%20break", solved), 200)
	if got := list(s2); len(got) != 2 || got[0].Name != "lunch break" || !got[0].Solved {
		t.Fatalf("after overwrite: %+v", got)
	}
	if w := call(t, s2, "DELETE", "/api/npuzzle/saves/lunch%20break", nil); w.Code != http.StatusNoContent || w.Body.Len() != 0 {
		t.Fatalf("delete: %d %s", w.Code, w.Body)
	}
	wantError(t, call(t, s2, "GET", "/api/npuzzle/saves/lunch%20break", nil), 404, `no saved npuzzle game "lunch break"`)
	wantError(t, call(t, s2, "DELETE", "/api/npuzzle/saves/lunch%20break", nil), 404, "no saved")
}

func TestSavesBadInput(t *testing.T) {
	s, _ := newServer(t, Config{})
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for k, v := range npuzzleSaveBody {
			m[k] = v
		}
		m[k] = v
		return m
	}
	for _, tc := range []struct {
		name   string
		path   string
		body   any
		status int
		want   string
	}{
		{"unknown slot", "nope", nil, 404, "no saved"},
		{"blank name", "%20%20", nil, 400, "empty save name"},
		{"long name", strings.Repeat("x", 65), nil, 400, "longer than 64"},
		{"control character", "a%01b", nil, 400, "control character"},
		{"slash", "a%2Fb", nil, 400, "slash"},
		{"dot dot slash", "..%2F..%2Fetc%2Fpasswd", nil, 400, "slash"},
		{"bad UTF-8", "%FF", nil, 400, "UTF-8"},
		{"unsolvable start", "x", with("start", "2 1 3/4 0 6/7 5 8"), 400, "not solvable"},
		{"malformed start", "x", with("start", "1 2 3/4 0"), 400, "start"},
		{"illegal move", "x", with("history", "UU"), 400, "illegal move"},
		{"not a move", "x", with("history", "UX"), 400, "not one of"},
		{"board off the history", "x", with("board", "1 2 3/4 0 6/7 5 8"), 400, "not where the history leads"},
		{"file path picture", "x", with("picture", "../../etc/passwd"), 400, "not a picture ID"},
		{"unknown picture name", "x", with("picture", "kittens"), 400, "not a picture ID"},
		{"negative time", "x", with("elapsed_ms", -5), 400, "negative"},
		{"unknown field", "x", with("path", "/tmp/x"), 400, "unknown field"},
		{"not an object", "x", `[1]`, 400, "malformed saved game"},
		{"null", "x", `null`, 400, "null"},
		{"time over int64 nanoseconds", "x", with("elapsed_ms", int64(9223372036854775807)), 400, "elapsed_ms"},
		{"too long", "x", with("history", strings.Repeat("UD", 60_000)), 400, "more than 100000 moves"},
		{"too large", "x", with("history", strings.Repeat("U", 1<<20)), 413, "larger than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			method := "GET"
			if tc.body != nil {
				method = "PUT"
			}
			wantError(t, call(t, s, method, "/api/npuzzle/saves/"+tc.path, tc.body), tc.status, tc.want)
		})
	}
	if got := decode[struct{ Saves []saveInfo }](t, call(t, s, "GET", "/api/npuzzle/saves", nil), 200); len(got.Saves) != 0 {
		t.Errorf("bad saves were stored: %+v", got.Saves)
	}
}

// redBlue returns a w x h picture, red then blue: left and right halves,
// or with across, top and bottom halves.
func redBlue(w, h int, across bool) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.RGBA{220, 30, 30, 255}
			if !across && x >= w/2 || across && y >= h/2 {
				c = color.RGBA{30, 30, 220, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

// testPNG encodes a w x h picture: left half red, right half blue.
func testPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, redBlue(w, h, false)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// multipartBody returns a form with the file in field "picture".
func multipartBody(t *testing.T, field, filename string, data []byte) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, err := mw.CreateFormFile(field, filename)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}

func TestPictures(t *testing.T) {
	s, _ := newServer(t, Config{PictureSide: 300})
	body, ct := multipartBody(t, "picture", `C:\photos\My holiday.png`, testPNG(t, 800, 400))
	p := decode[pictureInfo](t, call(t, s, "POST", "/api/pictures", body, "Content-Type", ct), http.StatusCreated)
	if !isUploadID(p.ID) || p.Name != "My holiday" || p.URL != "/pictures/"+p.ID || p.Builtin {
		t.Fatalf("uploaded: %+v", p)
	}
	// Stored as a JPEG of the middle square (400x400), scaled to 300x300:
	// the red half and the blue half still split it down the middle.
	w := call(t, s, "GET", p.URL, nil)
	if w.Code != 200 || w.Header().Get("Content-Type") != "image/jpeg" || !strings.Contains(w.Header().Get("Cache-Control"), "immutable") {
		t.Fatalf("GET %s: %d %v", p.URL, w.Code, w.Header())
	}
	img, err := jpeg.Decode(w.Body)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != 300 || img.Bounds().Dy() != 300 {
		t.Fatalf("stored picture is %v", img.Bounds())
	}
	for _, pt := range []struct {
		x, y int
		red  bool
	}{{20, 150, true}, {140, 20, true}, {160, 280, false}, {280, 150, false}} {
		r, _, b, _ := img.At(pt.x, pt.y).RGBA()
		if (r > b) != pt.red {
			t.Errorf("pixel (%d,%d): r=%d b=%d, want red=%v", pt.x, pt.y, r>>8, b>>8, pt.red)
		}
	}

	// A raw body works too, and a small picture is kept at its size.
	raw := decode[pictureInfo](t, call(t, s, "POST", "/api/pictures?name=tiny", testPNG(t, 100, 120), "Content-Type", "image/png"), http.StatusCreated)
	if raw.Name != "tiny" {
		t.Errorf("raw upload: %+v", raw)
	}
	w = call(t, s, "GET", raw.URL, nil)
	if cfg, err := jpeg.DecodeConfig(w.Body); err != nil || cfg.Width != 100 || cfg.Height != 100 {
		t.Errorf("small upload stored as %dx%d, %v", cfg.Width, cfg.Height, err)
	}

	list := decode[struct{ Pictures []pictureInfo }](t, call(t, s, "GET", "/api/pictures", nil), 200).Pictures
	if len(list) != len(builtinPictures)+2 || !list[0].Builtin || list[len(builtinPictures)].ID != raw.ID || list[len(builtinPictures)+1].ID != p.ID {
		t.Fatalf("list: %+v", list)
	}

	if w := call(t, s, "DELETE", "/api/pictures/"+raw.ID, nil); w.Code != http.StatusNoContent {
		t.Fatalf("delete: %d %s", w.Code, w.Body)
	}
	wantError(t, call(t, s, "GET", raw.URL, nil), 404, "no picture")
	wantError(t, call(t, s, "DELETE", "/api/pictures/"+raw.ID, nil), 404, "no picture")
	wantError(t, call(t, s, "DELETE", "/api/pictures/sunset", nil), 400, "built-in")
	wantError(t, call(t, s, "DELETE", "/api/pictures/..%2Fstore.db", nil), 404, "no picture")
	wantError(t, call(t, s, "GET", "/pictures/..%2F..%2Fetc%2Fpasswd", nil), 404, "no picture")
}

// pngHeader returns the start of a PNG file that claims the given size: all
// that DecodeConfig reads.
func pngHeader(w, h uint32) []byte {
	var buf bytes.Buffer
	enc := png.Encoder{}
	img := image.NewGray(image.Rect(0, 0, 1, 1))
	enc.Encode(&buf, img)
	b := buf.Bytes()
	// IHDR data starts at byte 16: width, height (big-endian); then fix
	// the chunk's CRC so that the decoder does not object to it.
	put := func(at int, v uint32) {
		b[at], b[at+1], b[at+2], b[at+3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
	}
	put(16, w)
	put(20, h)
	put(29, crc32IEEE(b[12:29]))
	return b
}

func TestPicturesBadInput(t *testing.T) {
	s, _ := newServer(t, Config{MaxUploadBytes: 64 << 10})
	big := make([]byte, 65<<10)
	copy(big, testPNG(t, 100, 100))
	truncated := testPNG(t, 300, 300)
	truncated = truncated[:len(truncated)/2]
	for _, tc := range []struct {
		name   string
		ct     string
		body   []byte
		status int
		want   string
	}{
		{"too many bytes", "image/png", big, 413, "larger than"},
		{"too many pixels", "image/png", pngHeader(30000, 30000), 413, "million pixels"},
		{"too small", "image/png", testPNG(t, 40, 200), 422, "too small"},
		{"not a picture", "image/png", []byte("hello, I am text"), 415, "not a PNG"},
		{"truncated", "image/png", truncated, 400, "cannot decode"},
		{"wrong media type", "text/plain", testPNG(t, 100, 100), 415, "multipart"},
		{"no media type", "", testPNG(t, 100, 100), 415, "multipart"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, call(t, s, "POST", "/api/pictures", tc.body, "Content-Type", tc.ct), tc.status, tc.want)
		})
	}
	t.Run("form without the field", func(t *testing.T) {
		body, ct := multipartBody(t, "file", "x.png", testPNG(t, 100, 100))
		wantError(t, call(t, s, "POST", "/api/pictures", body, "Content-Type", ct), 400, `no "picture"`)
	})
	t.Run("form too large", func(t *testing.T) {
		body, ct := multipartBody(t, "picture", "x.png", make([]byte, 200<<10))
		wantError(t, call(t, s, "POST", "/api/pictures", body, "Content-Type", ct), 413, "larger than")
	})
	t.Run("malformed form", func(t *testing.T) {
		wantError(t, call(t, s, "POST", "/api/pictures", []byte("--x\r\nnonsense"), "Content-Type", "multipart/form-data; boundary=x"), 400, "malformed form")
	})
	if list := decode[struct{ Pictures []pictureInfo }](t, call(t, s, "GET", "/api/pictures", nil), 200).Pictures; len(list) != len(builtinPictures) {
		t.Errorf("bad uploads were stored: %+v", list)
	}
}

// failingStore fails every call: the store's errors must become a logged
// 500 with no details for the client; a panic too.
type failingStore struct{ Store }

var errDisk = errors.New("disk on fire at /var/lib/secret.db")

func (failingStore) Games(context.Context, string, string, store.Page) ([]store.Game, int, error) {
	return nil, 0, errDisk
}
func (failingStore) OpenJobs(context.Context) ([]store.JobRef, error) { return nil, nil }
func (failingStore) Pictures(context.Context, string, store.Page) ([]store.Picture, int, error) {
	panic("index out of range in the picture shelf")
}

func TestInternalErrorsStayInside(t *testing.T) {
	var log bytes.Buffer
	s, err := New(Config{Store: failingStore{}, Logger: slogTo(&log)})
	if err != nil {
		t.Fatal(err)
	}
	w := call(t, s, "GET", "/api/npuzzle/saves", nil)
	wantError(t, w, 500, "internal error")
	if strings.Contains(w.Body.String(), "secret") {
		t.Errorf("answer leaks the error: %s", w.Body)
	}
	w = call(t, s, "GET", "/api/pictures", nil)
	wantError(t, w, 500, "internal error")
	if strings.Contains(w.Body.String(), "shelf") {
		t.Errorf("answer leaks the panic: %s", w.Body)
	}
	for _, want := range []string{"disk on fire", "picture shelf", "goroutine", "status=500"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
}

func TestServeShutsDownGracefully(t *testing.T) {
	s, _ := newServer(t, Config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	url := "http://" + ln.Addr().String()
	resp, err := http.Get(url + "/api/npuzzle/solvers")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	// A long solve is in flight when the server is told to stop: it is
	// cancelled, answered, and Serve returns.
	answered := make(chan int, 1)
	go func() {
		resp, err := http.Post(url+"/api/npuzzle/solve", "application/json",
			strings.NewReader(`{"solver":"idastar","timeout_ms":30000,"board":"`+hard5x5+`"}`))
		if err != nil {
			answered <- 0
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	// Wait until the solve holds its slot (a fixed sleep lost the race
	// on a loaded machine, and the request then came after shutdown).
	for deadline := time.Now().Add(20 * time.Second); len(s.busy) == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the solve never started")
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Serve did not return after the context ended")
	}
	if code := <-answered; code != http.StatusServiceUnavailable {
		t.Errorf("the solve in flight got %d, want 503", code)
	}
	if _, err := http.Get(url + "/"); err == nil {
		t.Error("the server still answers after shutdown")
	}
}

func crc32IEEE(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

// slogTo returns a logger writing text to w.
func slogTo(w io.Writer) *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }

// testServer serves s over HTTP until the test ends (see startTestServer).
func testServer(t *testing.T, s *Server) *httptest.Server {
	t.Helper()
	ts, _ := startTestServer(t, s)
	return ts
}

// startTestServer serves s over HTTP and returns a stop that cancels the
// requests in flight, closes the HTTP server and then s (its jobs and
// builds); stop runs once, when called or else when the test ends.
// Cancelling first matters when a test fails midway: a job's event stream
// (a browser following a job given minutes) would otherwise hold
// ts.Close until the job ends, and the test binary would time out
// instead of reporting the failure.
func startTestServer(t *testing.T, s *Server) (*httptest.Server, func()) {
	t.Helper()
	return startTestHandler(t, s, s)
}

// startTestHandler is startTestServer serving h, a handler in front of s.
func startTestHandler(t *testing.T, s *Server, h http.Handler) (*httptest.Server, func()) {
	t.Helper()
	base, cancel := context.WithCancel(context.Background())
	ts := httptest.NewUnstartedServer(h)
	ts.Config.BaseContext = func(net.Listener) context.Context { return base }
	ts.Start()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			ts.Close()
			s.Close()
		})
	}
	t.Cleanup(stop)
	return ts, stop
}

// TestSavesRefuseNullAndOverflow: every family's save refuses null, which
// stored an empty game, and an elapsed_ms that overflowed time.Duration
// and was listed as -1; an edge-matching save names its puzzle (issue 38,
// item 7).
func TestSavesRefuseNullAndOverflow(t *testing.T) {
	for _, g := range games {
		for _, body := range []string{"null", " null\n"} {
			if _, err := g.save(json.RawMessage(body)); err == nil {
				t.Errorf("%s: %q saved", g.Kind, body)
			}
		}
	}
	for _, body := range []string{`{}`, `{"board":null}`, `{"ref":{"rows":4,"cols":5},"elapsed_ms":9223372036854775807}`, `{"ref":{"rows":4,"cols":5},"elapsed_ms":-1}`} {
		if _, err := edgematchGame.save(json.RawMessage(body)); err == nil {
			t.Errorf("edgematch: %s saved", body)
		}
	}
	g, err := edgematchGame.save(json.RawMessage(`{"ref":{"rows":4,"cols":5},"board":[[3,1]],"elapsed_ms":1500}`))
	if err != nil || g.Elapsed != 1500*time.Millisecond {
		t.Errorf("edgematch: a good save: %v, %v", g.Elapsed, err)
	}
}

// TestGamesOf: the pages join catalog.Games by kind, in its order; a game
// of the table without a page, or a page of no game, panics.
func TestGamesOf(t *testing.T) {
	for i, g := range games {
		if g.Kind != catalog.Games[i].Kind || g.Path != catalog.Games[i].Path || g.save == nil {
			t.Errorf("games[%d]: %s at %s, want %s", i, g.Kind, g.Path, catalog.Games[i].Kind)
		}
	}
	pages := map[string]*game{}
	for _, g := range games {
		pages[g.Kind] = &game{}
	}
	panics := func(what string, pages map[string]*game) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s: no panic", what)
			}
		}()
		gamesOf(pages)
	}
	delete(pages, "tangram")
	panics("a game without a page", pages)
	pages["tangrams"] = &game{}
	panics("a page of no game", pages)
}

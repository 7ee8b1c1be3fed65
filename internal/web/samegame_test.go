package web

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"

	"tessera/internal/catalog"
	"tessera/internal/datadir"
	"tessera/samegame"
)

func TestSameGameDeal(t *testing.T) {
	// Without a data folder: random boards only, and a clear answer.
	s, _ := newServer(t, Config{})
	p := decode[struct {
		Positions int    `json:"positions"`
		Note      string `json:"note"`
	}](t, call(t, s, "GET", "/api/samegame/positions", nil), 200)
	if p.Positions != 0 || p.Note == "" {
		t.Fatalf("positions without data: %+v", p)
	}
	wantError(t, call(t, s, "POST", "/api/samegame/deal", `{"position":1}`), 404, "no standard positions")
	a := decode[sgDealResponse](t, call(t, s, "POST", "/api/samegame/deal", `{"seed":7}`), 200)
	b := decode[sgDealResponse](t, call(t, s, "POST", "/api/samegame/deal", `{"seed":7}`), 200)
	if a.Board != b.Board || a.Board != sgLine(dealStandard(7)) {
		t.Fatalf("seeded deals differ: %q %q", a.Board, b.Board)
	}
	board, err := parseSGBoard(a.Board)
	if err != nil || board.Width() != 15 || board.Height() != 15 || board.Cells() != 225 {
		t.Fatalf("random board %q: %v", a.Board, err)
	}
	postBad(t, s, "/api/samegame/deal", []badBody{
		{`{"position":1,"seed":3}`, 400, "not both"},
		{`{"size":"9x9"}`, 400, "unknown field"},
	})

	path, err := datadir.Path("samegame", "standard20.txt")
	if err != nil {
		t.Skipf("the standard positions: %v", err)
	}
	s, _ = newServer(t, Config{DataDir: filepath.Dir(filepath.Dir(path))})
	d := decode[sgDealResponse](t, call(t, s, "POST", "/api/samegame/deal", `{"position":1}`), 200)
	if d.Position != 1 || d.Board[:17] != "3 1 1 4 1 0 4 0 4" {
		t.Fatalf("position 1: %+v", d)
	}
	wantError(t, call(t, s, "POST", "/api/samegame/deal", `{"position":21}`), 400, "out of range 1..20")
}

// A SameGame solve as a job: the best line streams in and the result's
// moves replay to its score.
func TestSameGameJob(t *testing.T) {
	s, _ := newServer(t, Config{})
	ts := testServer(t, s)
	board := sgLine(dealStandard(3))
	st := submit(t, s, "samegame.solve", map[string]any{"board": board, "solver": "nrpa", "budget": map[string]any{"timeout_ns": 1500e6}})
	states := events(t, ts.URL, st.ID)
	last := states[len(states)-1]
	if last.State != JobDone {
		t.Fatalf("last state %+v", last)
	}
	var res catalog.SameGameRecord
	if err := json.Unmarshal(last.Result, &res); err != nil {
		t.Fatal(err)
	}
	b, _ := parseSGBoard(board)
	moves, err := samegame.ParseMoves(res.Moves)
	if err != nil {
		t.Fatal(err)
	}
	got, err := samegame.Replay(b, moves)
	if err != nil || got.Score != res.Score || res.Score <= 0 || res.Stopped != "time" || res.Solver != "nrpa" {
		t.Fatalf("result %+v replays to %+v (%v)", res, got, err)
	}
	// What the server submits is the catalogue's job with the page's
	// defaults filled in, so that a "tessera worker" (the catalogue's kind)
	// runs it as this server does.
	norm, err := samegameJobs(s)[catalog.SameGameKind].normalize(json.RawMessage(`{"board":"` + board + `","solver":"nmcs","budget":{"timeout_ns":300000000}}`))
	if err != nil {
		t.Fatal(err)
	}
	out, err := catalog.JobKinds()[catalog.SameGameKind](t.Context(), norm, nil)
	rec, _ := out.(catalog.SameGameRecord)
	if err != nil || rec.Stopped != "time" || rec.Rules != "standard" || rec.Error != "" || rec.Score <= 0 {
		t.Fatalf("the submitted spec %s, run by the catalogue: %+v, %v", norm, out, err)
	}
	postBad(t, s, "/api/jobs", []badBody{
		{`{"kind":"samegame.solve","spec":{"board":"` + board + `","solver":"exact"}}`, 400, "unknown solver"},
		{`{"kind":"samegame.solve","spec":{"board":"` + board + `","budget":{"timeout_ns":5}}}`, 400, "timeout"},
		{`{"kind":"samegame.solve","spec":{"board":"` + board + `","rules":"dust"}}`, 400, "standard"},
		{`{"kind":"samegame.solve","spec":{"board":"` + board + `","options":{"model":"/etc/passwd"}}}`, 400, "model"},
		{`{"kind":"samegame.solve","spec":{"board":"1 2/x 3"}}`, 400, "bad board"},
	})
}

func TestSameGameSaves(t *testing.T) {
	s, _ := newServer(t, Config{})
	board := sgLine(dealStandard(5))
	b, _ := parseSGBoard(board)
	g := b.Moves(nil)[0]
	state := map[string]any{"start": board, "history": g.Move().String(), "name": "random board, seed 5", "elapsed_ms": 1000}
	w := call(t, s, "PUT", "/api/samegame/saves/mine", state)
	if w.Code != http.StatusOK && w.Code != http.StatusCreated {
		t.Fatalf("save: %d %s", w.Code, w.Body)
	}
	state["history"] = "0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0 0,0"
	wantError(t, call(t, s, "PUT", "/api/samegame/saves/bad", state), 400, "history")
}

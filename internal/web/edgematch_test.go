package web

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"tessera/edgematch"
	"tessera/internal/datadir"
)

func TestEdgeMatchLoadAndExport(t *testing.T) {
	s, _ := newServer(t, Config{})
	p := decode[emPuzzleJSON](t, call(t, s, "POST", "/api/edgematch/load", `{"ref":{"rows":4,"cols":5,"seed":3},"seed":2}`), 200)
	if p.Rows != 4 || p.Cols != 5 || len(p.Tiles) != 20 || len(p.Board) != 20 || p.Max != 4*4+5*3 || len(p.Palette) < 2 {
		t.Fatalf("generated: %+v", p)
	}
	again := decode[emPuzzleJSON](t, call(t, s, "POST", "/api/edgematch/load", `{"ref":{"rows":4,"cols":5,"seed":3},"seed":2}`), 200)
	if string(mustJSON(t, again)) != string(mustJSON(t, p)) {
		t.Fatal("the same seeds load a different puzzle or scramble")
	}
	w := decode[map[string]any](t, call(t, s, "POST", "/api/edgematch/bucas", map[string]any{"ref": p.Ref, "board": p.Board}), 200)
	if url, _ := w["url"].(string); !strings.HasPrefix(url, edgematch.BucasBase) || !strings.Contains(url, "board_w=5") {
		t.Fatalf("bucas: %v", w)
	}
	postBad(t, s, "/api/edgematch/load", []badBody{
		{`{"ref":{"rows":2,"cols":5}}`, 400, "3 to 16"},
		{`{"ref":{"rows":40,"cols":40}}`, 400, "3 to 16"},
		{`{"ref":{"file":"../../etc/passwd"}}`, 404, "no puzzle file"},
	})
	bad := append([][2]int{{0, 0}}, p.Board[1:]...)
	bad[1] = [2]int{0, 0}
	wantError(t, call(t, s, "POST", "/api/edgematch/bucas", map[string]any{"ref": p.Ref, "board": bad}), 400, "used once")

	path, err := datadir.Path("edgematch", "brendan_set1", "04x04.txt")
	if err != nil {
		t.Skipf("the shared puzzles: %v", err)
	}
	s, _ = newServer(t, Config{DataDir: filepath.Dir(filepath.Dir(filepath.Dir(path)))})
	list := decode[struct{ Files []string }](t, call(t, s, "GET", "/api/edgematch/puzzles", nil), 200)
	if len(list.Files) < 170 || list.Files[len(list.Files)-1] != "eternity2.txt" {
		t.Fatalf("files: %d, last %v", len(list.Files), list.Files[len(list.Files)-1:])
	}
	e2 := decode[emPuzzleJSON](t, call(t, s, "POST", "/api/edgematch/load", `{"ref":{"file":"eternity2.txt"}}`), 200)
	if e2.Rows != 16 || len(e2.Hints) != 1 || e2.Hints[0] != [4]int{138, 8, 7, 2} || e2.Board[8*16+7] != [2]int{138, 2} {
		t.Fatalf("Eternity II: %dx%d, hints %v", e2.Rows, e2.Cols, e2.Hints)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The solvers as jobs: dfs, lp, partial and lns solve a small puzzle, the lp's
// result carries P after every iteration, partial streams its best board.
func TestEdgeMatchJobs(t *testing.T) {
	s, _ := newServer(t, Config{})
	ts := testServer(t, s)
	ref := emRef{Rows: 4, Cols: 4, Seed: 5}
	for _, solver := range []string{"dfs", "lp", "partial", "lns"} {
		st := submit(t, s, "edgematch.solve", map[string]any{"ref": ref, "solver": solver, "budget": map[string]any{"timeout_ns": 20e9}})
		states := events(t, ts.URL, st.ID)
		last := states[len(states)-1]
		var res emResult
		if err := json.Unmarshal(last.Result, &res); err != nil || last.State != JobDone {
			t.Fatalf("%s: %+v (%v)", solver, last, err)
		}
		if !res.Solved || res.Score != 24 || res.Algo != solver || !strings.HasPrefix(res.Board, "4 4/") {
			t.Fatalf("%s: %+v", solver, res)
		}
		if solver == "lp" && (len(res.Iterates) == 0 || !strings.HasPrefix(res.Iterates[0], "data:image/png;base64,")) {
			t.Fatalf("lp without its iterates: %d", len(res.Iterates))
		}
	}
	postBad(t, s, "/api/jobs", []badBody{
		{`{"kind":"edgematch.solve","spec":{"ref":{"rows":4,"cols":4},"solver":"magic"}}`, 400, "unknown solver"},
		{`{"kind":"edgematch.solve","spec":{"ref":{"rows":99,"cols":4}}}`, 400, "3 to 16"},
		{`{"kind":"edgematch.solve","spec":{"ref":{"rows":4,"cols":4},"budget":{"timeout_ns":1}}}`, 400, "timeout"},
		{`{"kind":"edgematch.solve","spec":{"ref":{"rows":4,"cols":4},"solver":"dfs","start":"4 4\n"}}`, 400, "partial"},
		{`{"kind":"edgematch.solve","spec":{"ref":{"rows":4,"cols":4},"solver":"sat","options":{"sat_solver":"/bin/sh"}}}`, 400, "sat_solver"},
		{`{"kind":"edgematch.solve","spec":{"puzzle":"2 2\n"}}`, 400, "puzzle"},
	})
}

package web

import (
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"tessera/internal/catalog"
	"testing"
	"time"

	"tessera/internal/datadir"
	"tessera/jigsaw"
)

// A built-in picture cut in 60-pixel pieces: 8x8, Type 2.
var jgSunset = jgRef{Pictures: []string{"sunset"}, Piece: 60, Rotate: true, Seed: 3}

// The scramble: the same ref cuts the same puzzle; the truth's own layout
// scores 100% with no wrong adjacency; the scramble's layout scores as
// jigsaw.Score does, its adjacencies counted the same way.
func TestJigsawNewAndScore(t *testing.T) {
	s, _ := newServer(t, Config{})
	p := decode[jgPuzzleJSON](t, call(t, s, "POST", "/api/jigsaw/new", map[string]any{"ref": jgSunset}), 200)
	if p.N != 64 || p.SheetCols != 8 || p.Board.Rows != 8 || p.Board.Cols != 8 || len(p.Board.Cells) != 64 || !p.Rotate ||
		!strings.HasPrefix(p.Sheet, "data:image/jpeg;base64,") || len(p.Pictures) != 1 || p.Pictures[0] != (jgPicture{"sunset", 8, 8}) {
		t.Fatalf("new: %+v", p.Board)
	}
	again := decode[jgPuzzleJSON](t, call(t, s, "POST", "/api/jigsaw/new", map[string]any{"ref": jgSunset}), 200)
	if string(mustJSON(t, again)) != string(mustJSON(t, p)) {
		t.Fatal("the same ref cuts a different puzzle")
	}
	if p.Score.Adjacencies != 2*8*7 || p.Score.Pieces != 64 || p.Score.Perfect {
		t.Fatalf("scramble's score: %+v", p.Score)
	}

	pz, err := s.jgLoad(t.Context(), jgSunset)
	if err != nil {
		t.Fatal(err)
	}
	truth := jgBoardOf(pz.truth.Placement(), 64)
	sc := decode[jgScoreJSON](t, call(t, s, "POST", "/api/jigsaw/score", map[string]any{"ref": jgSunset, "board": truth}), 200)
	if !sc.Perfect || sc.Direct != 1 || sc.Neighbor != 1 || sc.Kept != 112 || len(sc.Wrong) != 0 {
		t.Fatalf("truth: %+v", sc)
	}
	// The truth turned a quarter turn and shifted: still perfect (Type 2
	// finds no global rotation), every adjacency right.
	turned := &jigsaw.Placement{Images: 1}
	for _, q := range pz.truth.Placement().Pieces {
		q.Row, q.Col = q.Col+3, -q.Row
		q.Rotation = q.Rotation.Add(1)
		turned.Pieces = append(turned.Pieces, q)
	}
	sc = jgScoreBoard(pz, jgBoardOf(turned, 64))
	if !sc.Perfect || len(sc.Wrong) != 0 {
		t.Fatalf("turned truth: %+v", sc)
	}
	// Random boards: the adjacencies the page marks right are those
	// jigsaw.Score keeps.
	rng := rand.New(rand.NewPCG(1, 2))
	b := truth
	for range 20 {
		cells := append([][2]int(nil), b.Cells...)
		for range 6 {
			i, j := rng.IntN(64), rng.IntN(64)
			cells[i], cells[j] = cells[j], cells[i]
		}
		cells[rng.IntN(64)][1] = rng.IntN(4)
		b = jgBoard{Rows: 8, Cols: 8, Cells: cells}
		sc := jgScoreBoard(pz, b)
		placedPairs := 2 * 8 * 7
		if sc.Kept+len(sc.Wrong) != placedPairs {
			t.Fatalf("kept %d + wrong %d != %d adjacencies", sc.Kept, len(sc.Wrong), placedPairs)
		}
	}
}

func TestJigsawBadInput(t *testing.T) {
	s, _ := newServer(t, Config{})
	postBad(t, s, "/api/jigsaw/new", []badBody{
		{`{"ref":{"pictures":[],"piece":28}}`, 400, "1 to 4"},
		{`{"ref":{"pictures":["sunset","mosaic","glass","mandelbrot","sunset"],"piece":28}}`, 400, "1 to 4"},
		{`{"ref":{"pictures":["sunset","sunset"],"piece":28}}`, 400, "twice"},
		{`{"ref":{"pictures":["sunset"],"piece":5}}`, 400, "piece 5"},
		{`{"ref":{"pictures":["sunset"],"piece":1000}}`, 400, "piece 1000"},
		{`{"ref":{"pictures":["../../etc/passwd"],"piece":28}}`, 400, "not a built-in"},
		{`{"ref":{"pictures":["mit432/../../x.png"],"piece":28}}`, 400, "not a built-in"},
		{`{"ref":{"pictures":["mit432/1.png"],"piece":28}}`, 404, "no data folder"},
		{`{"ref":{"pictures":["0123456789abcdef0123"],"piece":28}}`, 404, ""},
		{`{"ref":{"pictures":["sunset","mosaic","glass","mandelbrot"],"piece":12}}`, 400, "at most 2000"},
		{`{"ref":{"pictures":["sunset"],"piece":28},"extra":1}`, 400, "extra"},
	})
	good := map[string]any{"pictures": []string{"sunset"}, "piece": 120} // 4x4
	board := func(cells ...[2]int) map[string]any {
		return map[string]any{"ref": good, "board": jgBoard{Rows: 1, Cols: len(cells), Cells: cells}}
	}
	wantError(t, call(t, s, "POST", "/api/jigsaw/score", board([2]int{0, 0}, [2]int{0, 0})), 400, "used once")
	wantError(t, call(t, s, "POST", "/api/jigsaw/score", board([2]int{0, 1})), 400, "0 for Type 1")
	wantError(t, call(t, s, "POST", "/api/jigsaw/score", board([2]int{16, 0})), 400, "used once")
	wantError(t, call(t, s, "POST", "/api/jigsaw/score", map[string]any{"ref": good, "board": jgBoard{Rows: 2, Cols: 2, Cells: [][2]int{{0, 0}}}}), 400, "1 cells for 2 x 2")
	wantError(t, call(t, s, "POST", "/api/jigsaw/score", map[string]any{"ref": good, "board": jgBoard{Rows: 9000, Cols: 9000}}), 400, "cells")
	if sc := decode[jgScoreJSON](t, call(t, s, "POST", "/api/jigsaw/score", board([2]int{0, 0}, [2]int{-1, 0})), 200); sc.Pieces != 16 {
		t.Fatalf("a board of one piece: %+v", sc)
	}
	postBad(t, s, "/api/jobs", []badBody{
		{`{"kind":"jigsaw.solve","spec":{"pictures":[{"name":"","blob":"sunset"}],"piece":28,"solver":"magic"}}`, 400, "unknown solver"},
		{`{"kind":"jigsaw.solve","spec":{"pictures":[{"name":"","blob":"sunset"}],"piece":2}}`, 400, "piece 2"},
		{`{"kind":"jigsaw.solve","spec":{"pictures":[{"name":"","blob":"sunset"}],"piece":28,"budget":{"timeout_ns":1}}}`, 400, "timeout_ns"},
		{`{"kind":"jigsaw.solve","spec":{"pictures":[{"name":"","blob":"sunset"}],"piece":28,"budget":{"timeout_ns":99999999000000}}}`, 400, "timeout_ns"},
		{`{"kind":"jigsaw.solve","spec":{"pictures":[{"name":"","blob":"sunset"}],"piece":28,"options":{"pop":1},"solver":"ga"}}`, 400, "-pop 1"},
		{`{"kind":"jigsaw.solve","spec":{"pictures":[{"name":"x.png","blob":"sha256:00"}],"piece":28,"type":1}}`, 400, "blob addresses"},
	})
	// saves
	wantError(t, call(t, s, "PUT", "/api/jigsaw/saves/x", map[string]any{"ref": good, "board": jgBoard{Rows: 1, Cols: 2, Cells: [][2]int{{1, 0}, {1, 0}}}}), 400, "used once")
	st := map[string]any{"ref": good, "board": jgBoard{Rows: 1, Cols: 2, Cells: [][2]int{{1, 0}, {0, 0}}}, "name": "sunset", "moves": 3, "elapsed_ms": 1000}
	call(t, s, "PUT", "/api/jigsaw/saves/x", st)
	got := decode[savedGame](t, call(t, s, "GET", "/api/jigsaw/saves/x", nil), 200)
	if got.Moves != 3 || !strings.Contains(string(got.State), `"cells":[[1,0],[0,0]]`) {
		t.Fatalf("saved: %+v %s", got.saveInfo, got.State)
	}
}

// jgJob is the page's jigsaw.solve job of the puzzle of ref.
func jgJob(ref jgRef, solver string, budget time.Duration) catalog.JigsawJob {
	j := catalog.JigsawJob{Spec: catalog.Spec[catalog.JigsawOptions]{Solver: solver, Options: catalog.JigsawOptions{Seed: ref.Seed},
		Budget: catalog.Budget{Timeout: budget}}, Piece: ref.Piece, Type: 1}
	if ref.Rotate {
		j.Type = 2
	}
	for _, id := range ref.Pictures {
		j.Pictures = append(j.Pictures, catalog.Picture{Blob: id})
	}
	return j
}

// The solvers as jobs: greedy and the GA put a 4x4 Type 2 puzzle back
// together, the GA's generations streaming in with their layouts.
func TestJigsawJobs(t *testing.T) {
	s, _ := newServer(t, Config{})
	ts := testServer(t, s)
	ref := jgRef{Pictures: []string{"mosaic"}, Piece: 120, Rotate: true, Seed: 1}
	for _, solver := range []string{"greedy", "ga"} {
		st := submit(t, s, "jigsaw.solve", jgJob(ref, solver, time.Minute))
		states := events(t, ts.URL, st.ID)
		last := states[len(states)-1]
		var res jgProgress
		if err := json.Unmarshal(last.Result, &res); err != nil || last.State != JobDone {
			t.Fatalf("%s: %+v (%v)", solver, last, err)
		}
		if !res.Score.Perfect || res.Board == nil || res.Score.Pieces != 16 || len(res.Score.Wrong) != 0 {
			t.Fatalf("%s: %+v", solver, res)
		}
		if solver == "ga" && (res.Generation != 101 || len(res.History) != 101) {
			t.Fatalf("ga: %d generations, history %d", res.Generation, len(res.History))
		}
	}
}

// A mixed bag of two pictures, Type 1: the GA counts on being told two and
// lays them out side by side.
func TestJigsawBagJob(t *testing.T) {
	s, _ := newServer(t, Config{})
	ts := testServer(t, s)
	ref := jgRef{Pictures: []string{"sunset", "glass"}, Piece: 120, Seed: 2}
	st := submit(t, s, "jigsaw.solve", jgJob(ref, "ga", 2*time.Minute))
	states := events(t, ts.URL, st.ID)
	last := states[len(states)-1]
	var res jgProgress
	if err := json.Unmarshal(last.Result, &res); err != nil || last.State != JobDone {
		t.Fatalf("%+v (%v)", last, err)
	}
	if res.Board == nil || res.Score.Pieces != 32 || res.Board.Cols < 9 {
		t.Fatalf("bag: %+v", res)
	}
}

// Cancelling a long GA; the time limit stops a search with the best
// layout so far.
func TestJigsawJobCancelAndTimeout(t *testing.T) {
	s, _ := newServer(t, Config{})
	ts := testServer(t, s)
	ref := jgRef{Pictures: []string{"glass"}, Piece: 24, Rotate: true} // 400 pieces
	st := submit(t, s, "jigsaw.solve", jgJob(ref, "ga", 10*time.Minute))
	cancelOnProgress(t, s, ts.URL, st.ID, `"board"`, 60*time.Second)

	// The time limit: the first generation's report holds the search past
	// its limit, which it then meets with the best layout so far.
	const limit = 2 * time.Second
	start := time.Now()
	held := false
	spec, _ := json.Marshal(jgJob(jgSunset, "ga", limit))
	up, err := s.jobKinds[catalog.JigsawKind].upload(t.Context(), spec) // the job a worker gets
	var j catalog.JigsawJob
	if err == nil {
		err = json.Unmarshal(up, &j)
	}
	if err != nil || !j.View || !strings.HasPrefix(j.Pictures[0].Blob, "sha256:") {
		t.Fatalf("uploaded: %s, %v", up, err)
	}
	res, err := j.RunView(t.Context(), s.jobs, func(any) {
		if !held {
			held = true
			time.Sleep(limit + 500*time.Millisecond - time.Since(start))
		}
	})
	if err != nil || !held || res.Stopped == "" || res.Board == nil || res.Score.Pieces != 64 || !strings.Contains(res.Message, "Time is up") ||
		res.Generation >= 101 {
		t.Fatalf("timed out: %v, %s, stopped %q, %d generations, %+v", err, res.Message, res.Stopped, res.Generation, res.Score)
	}
}

// The benchmark pictures of the data folder: listed, and the MIT set's
// first picture makes 432 pieces of 28 pixels.
func TestJigsawDataSets(t *testing.T) {
	path, err := datadir.Path("jigsaw", "mit432", "1.png")
	if err != nil {
		t.Skipf("the shared jigsaw sets: %v", err)
	}
	s, _ := newServer(t, Config{DataDir: filepath.Dir(filepath.Dir(filepath.Dir(path)))})
	list := decode[struct{ Images []string }](t, call(t, s, "GET", "/api/jigsaw/sets", nil), 200)
	if len(list.Images) < 20 || list.Images[0] != "mit432/1.png" || list.Images[1] != "mit432/2.png" {
		t.Fatalf("sets: %v", list.Images)
	}
	p := decode[jgPuzzleJSON](t, call(t, s, "POST", "/api/jigsaw/new", `{"ref":{"pictures":["mit432/1.png"],"piece":28,"rotate":true}}`), 200)
	if p.N != 432 || p.Pictures[0] != (jgPicture{"mit432/1.png", 18, 24}) {
		t.Fatalf("mit432/1.png: %d pieces, %+v", p.N, p.Pictures)
	}
	wantError(t, call(t, s, "POST", "/api/jigsaw/new", `{"ref":{"pictures":["mit432/99.png"],"piece":28}}`), 404, "no picture")
}

// FuzzJigsawSpec: a jigsaw.solve spec, a score request's board and a
// saved game, whatever the bytes, are refused with an apiError or
// accepted within the bounds; nothing panics.
func FuzzJigsawSpec(f *testing.F) {
	f.Add([]byte(`{"pictures":[{"name":"","blob":"sunset"}],"piece":28,"type":2,"solver":"ga","budget":{"timeout_ns":1000000000}}`))
	f.Add([]byte(`{"pictures":[{"name":"","blob":"mit432/1.png"},{"name":"","blob":"glass"}],"piece":12,"solver":"greedy"}`))
	f.Add([]byte(`{"ref":{"pictures":["sunset"],"piece":60},"board":{"rows":1,"cols":2,"cells":[[0,0],[-1,0]]},"name":"x"}`))
	s := mustNew(f, Config{Store: openStore(f, "")})
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, ref, _, err := s.checkJGSpec(data); err == nil {
			if len(ref.Pictures) < 1 || len(ref.Pictures) > jgMaxPictures || ref.Piece < jgMinPiece || ref.Piece > jgMaxPiece {
				t.Fatalf("accepted %+v", ref)
			}
		} else if _, ok := err.(*apiError); !ok {
			t.Fatalf("not an apiError: %v", err)
		}
		var b jgBoard
		if json.Unmarshal(data, &b) == nil && checkJGBoard(b, 64, true) == nil {
			if len(b.Cells) != b.Rows*b.Cols || len(b.Cells) > jgMaxBoard {
				t.Fatalf("accepted board %dx%d", b.Rows, b.Cols)
			}
			jgBoardOf(b.Placement(), 64)
		}
		if g, err := jigsawGame.save(data); err == nil && len(g.Data) == 0 {
			t.Fatal("a save with no data")
		}
	})
}

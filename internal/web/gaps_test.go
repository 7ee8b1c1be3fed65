package web

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"maps"
	"math"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"tessera/imageio"
	"tessera/jigsaw/neural"
)

// newGaps makes a puzzle through the API.
func newGaps(t *testing.T, s http.Handler, picture string, grid int, seed uint64) gapsPuzzleJSON {
	t.Helper()
	return decode[gapsPuzzleJSON](t, call(t, s, "POST", "/api/gaps/new", map[string]any{"picture": picture, "grid": grid, "seed": seed}), 200)
}

func TestGapsNewAndScore(t *testing.T) {
	s, _ := newServer(t, Config{})
	for _, pic := range builtinPictures {
		for grid := gapsMinGrid; grid <= gapsMaxGrid; grid++ {
			p := newGaps(t, s, pic.ID, grid, 7)
			if p.Grid != grid || p.Patch != 40 || p.Gap != 4 || p.Puzzle.Grid != grid || len(p.Puzzle.Region) > gapsMaxRegion {
				t.Fatalf("%s %dx%d: grid %d, patch %d, gap %d, region %d characters", pic.ID, grid, grid, p.Grid, p.Patch, p.Gap, len(p.Puzzle.Region))
			}
			b64, ok := strings.CutPrefix(p.Patches, "data:image/png;base64,")
			raw, err := base64.StdEncoding.DecodeString(b64)
			if !ok || err != nil {
				t.Fatalf("patches %.40q: %v", p.Patches, err)
			}
			cfg, err := png.DecodeConfig(bytes.NewReader(raw))
			if err != nil || cfg.Width != grid*grid*40 || cfg.Height != 40 {
				t.Fatalf("sheet %dx%d (%v), want %dx40", cfg.Width, cfg.Height, err, grid*grid*40)
			}
		}
	}
	p := newGaps(t, s, "glass", 3, 7)
	if again := newGaps(t, s, "glass", 3, 7); !slices.Equal(mustJSON(t, again), mustJSON(t, p)) {
		t.Fatal("the same picture, grid and seed make another puzzle")
	}
	if other := newGaps(t, s, "glass", 3, 8); other.Patches == p.Patches || other.Puzzle.Region != p.Puzzle.Region {
		t.Fatal("another seed should shuffle the same region otherwise")
	}
	opened := decode[gapsPuzzleJSON](t, call(t, s, "POST", "/api/gaps/new", map[string]any{"puzzle": p.Puzzle}), 200)
	if opened.Patches != p.Patches {
		t.Fatal("opening a puzzle draws other patches")
	}

	// The truth scores perfect; swapping the corners 0 and 8 breaks their
	// four adjacencies and two patches.
	pz, err := gapsPuzzle(p.Puzzle)
	if err != nil {
		t.Fatal(err)
	}
	sc := decode[gapsScoreJSON](t, call(t, s, "POST", "/api/gaps/score", map[string]any{"puzzle": p.Puzzle, "cells": pz.Truth}), 200)
	if sc != (gapsScoreJSON{Patches: 9, Cells: 9, Neighbours: 12, Pairs: 12, Perfect: true}) {
		t.Fatalf("the truth scores %+v", sc)
	}
	swapped := slices.Clone(pz.Truth)
	a, b := slices.Index(swapped, 0), slices.Index(swapped, 8)
	swapped[a], swapped[b] = 8, 0
	sc = decode[gapsScoreJSON](t, call(t, s, "POST", "/api/gaps/score", map[string]any{"puzzle": p.Puzzle, "cells": swapped}), 200)
	if sc != (gapsScoreJSON{Patches: 7, Cells: 9, Neighbours: 8, Pairs: 12}) {
		t.Fatalf("corners swapped score %+v", sc)
	}
}

// greyRegion encodes a grey square of side pixels as a region.
func greyRegion(t testing.TB, side int) string {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, side, side))); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

func TestGapsBadInput(t *testing.T) {
	s, _ := newServer(t, Config{})
	p := newGaps(t, s, "sunset", 3, 1)
	region3 := greyRegion(t, 132)
	ref := func(region string, grid int) string {
		return string(mustJSON(t, map[string]any{"puzzle": gapsRef{Region: region, Grid: grid}}))
	}
	postBad(t, s, "/api/gaps/new", []badBody{
		{`{"picture":"sunset","grid":2}`, 400, "3x3 to 5x5"},
		{`{"picture":"sunset","grid":6}`, 400, "3x3 to 5x5"},
		{`{"picture":"nope","grid":3}`, 404, "no picture"},
		{`{"picture":"0123456789abcdef0123","grid":3}`, 404, "no picture"},
		{`{"picture":"sunset","grid":3,"size":9}`, 400, "unknown field"},
		{`{"picture":"sunset","grid":3,"puzzle":{"region":"x","grid":3}}`, 400, "either"},
		{ref("", 3), 400, "no region"},
		{ref("!!!!", 3), 400, "not base64"},
		{ref(base64.StdEncoding.EncodeToString([]byte("GIF89a")), 3), 400, "not a PNG"},
		{ref(region3, 4), 400, "needs 176"},
		{ref(region3, 9), 400, "3x3 to 5x5"},
		{ref(strings.Repeat("A", gapsMaxRegion+4), 3), 413, "more than"},
	})
	wantError(t, call(t, s, "POST", "/api/gaps/new", strings.Repeat(" ", gapsMaxRegion+8<<10)+"{}"), 413, "larger than")
	pz, _ := gapsPuzzle(p.Puzzle)
	partial := slices.Clone(pz.Truth)
	partial[3] = -1
	twice := slices.Clone(pz.Truth)
	twice[0], twice[1] = 4, 4
	scored := func(cells []int) map[string]any { return map[string]any{"puzzle": p.Puzzle, "cells": cells} }
	postBad(t, s, "/api/gaps/score", []badBody{
		{scored(partial), 400, "not full"},
		{scored(twice), 400, "not an empty cell"},
		{scored(pz.Truth[:8]), 400, "8 entries"},
		{scored([]int{0, 1, 2, 3, 4, 5, 6, 7, 9}), 400, "not an empty cell"},
	})

	// Job specs are checked before they are queued.
	for _, tc := range []struct {
		spec   map[string]any
		status int
		want   string
	}{
		{gapsJob(p.Puzzle, "", map[string]any{"sims": 1001}, nil), 400, "sims 1001"},
		{gapsJob(p.Puzzle, "", map[string]any{"sims": -1}, nil), 400, "sims -1"},
		{gapsJob(p.Puzzle, "", map[string]any{"attempts": 11}, nil), 400, "attempts 11"},
		{gapsJob(p.Puzzle, "", nil, map[string]any{"pace_ms": 5000}), 400, "pace_ms"},
		{gapsJob(p.Puzzle, "", nil, map[string]any{"budget": map[string]any{"timeout_ns": 3_600_000_000_000}}), 400, "timeout_ns"},
		{gapsJob(p.Puzzle, "astar", nil, nil), 400, "unknown solver"},
		{gapsJob(p.Puzzle, "", map[string]any{"reward": "gold"}, nil), 400, "reward"},
		{gapsJob(p.Puzzle, "", map[string]any{"model": "/tmp/m"}, nil), 400, "shipped models"},
		{gapsJob(gapsRef{Grid: 3}, "", nil, nil), 400, "no region"},
		{gapsJob(p.Puzzle, "", nil, map[string]any{"depth": 3}), 400, "unknown field"},
		{gapsJob(p.Puzzle, "", nil, map[string]any{"picture": map[string]any{"name": "x.png", "blob": "sha256:00"}}), 400, "bench"},
	} {
		wantError(t, call(t, s, "POST", "/api/jobs", map[string]any{"kind": "gaps.solve", "spec": tc.spec}), tc.status, tc.want)
	}
}

// gapsJob is the page's gaps.solve job of the puzzle of ref, by solver
// with options (the catalogue's) and the spec's other fields.
func gapsJob(ref gapsRef, solver string, options, more map[string]any) map[string]any {
	o := map[string]any{"seed": fmt.Sprint(ref.Seed)}
	maps.Copy(o, options)
	spec := map[string]any{"solver": solver, "options": o, "grid": ref.Grid, "centre": true,
		"picture": map[string]any{"name": "", "blob": gapsRegionURL + ref.Region}}
	maps.Copy(spec, more)
	return spec
}

// gapsJobResult runs a gaps.solve job to its end and returns its states
// and result.
func gapsJobResult(t *testing.T, s *Server, base string, spec map[string]any) ([]JobState, gapsResult) {
	t.Helper()
	st := submit(t, s, "gaps.solve", spec)
	states := events(t, base, st.ID)
	last := states[len(states)-1]
	var res gapsResult
	if err := json.Unmarshal(last.Result, &res); err != nil || last.State != JobDone {
		t.Fatalf("last state %+v (%v)", last, err)
	}
	return states, res
}

// MCTS as a job: every placement streams with the policy over the empty
// cells; the result's placements replay to the answer, its score is the
// puzzle's, and the same spec gives the same answer.
func TestGapsJob(t *testing.T) {
	skipGomlxUnderRace(t)
	s, _ := newServer(t, Config{})
	ts := testServer(t, s)
	p := newGaps(t, s, "mosaic", 3, 2)
	pz, _ := gapsPuzzle(p.Puzzle)
	spec := gapsJob(p.Puzzle, "mcts", map[string]any{"reward": "predicted", "sims": 40, "attempts": 3}, nil)
	states, res := gapsJobResult(t, s, ts.URL, spec)
	if !res.Final || len(res.Cells) != 9 || res.Score == nil || *res.Score != gapsScoreOf(pz, res.Cells) || len(res.Tried) != 3 || res.Attempt < 0 || res.Attempt > 2 {
		t.Fatalf("result %+v", res)
	}
	if len(res.Steps) != 9 {
		t.Fatalf("%d placements for 9 patches", len(res.Steps))
	}
	if len(res.Records) != 1 || res.Records[0].GapScore == nil || math.Abs(res.Records[0].Patch-float64(res.Score.Patches)/9) > 1e-9 {
		t.Fatalf("the catalogue's record %+v", res.Records)
	}
	cells := slices.Repeat([]int{-1}, 9)
	for i, st := range res.Steps {
		if !slices.Equal(st.Before, cells) || st.Placed != i || st.Attempt != res.Attempt {
			t.Fatalf("step %d: before %v, the replay has %v", i, st.Before, cells)
		}
		if len(st.Moves) != 9-i || len(st.Priors) != len(st.Moves) || len(st.Visits) != len(st.Moves) || st.Value < 0 || st.Value > 1 || !slices.Contains(st.Moves, st.Cell) {
			t.Fatalf("step %d: %+v", i, st)
		}
		cells[st.Patch] = st.Cell
	}
	if res.Played != slices.Equal(cells, res.Cells) {
		t.Fatalf("played %v, but the placements lead to %v and the answer is %v", res.Played, cells, res.Cells)
	}
	live := 0
	for _, st := range states {
		var pr gapsProgress
		if len(st.Progress) > 0 && json.Unmarshal(st.Progress, &pr) == nil && pr.Step != nil {
			live++
		}
	}
	if live == 0 {
		t.Fatal("no placement streamed")
	}
	_, again := gapsJobResult(t, s, ts.URL, spec)
	if !slices.Equal(again.Cells, res.Cells) || again.Attempt != res.Attempt || again.Evaluations != res.Evaluations {
		t.Fatalf("the same spec answered %v (attempt %d), then %v (attempt %d)", res.Cells, res.Attempt, again.Cells, again.Attempt)
	}

	// The ground-truth reward stops at a perfect attempt; greedy P answers
	// without placements to show.
	_, gt := gapsJobResult(t, s, ts.URL, gapsJob(p.Puzzle, "", map[string]any{"reward": "gt", "sims": 40, "attempts": 10}, nil))
	if gt.Score.Perfect != (len(gt.Tried) < 10 || gt.Tried[9].Score.Perfect) {
		t.Fatalf("gt: perfect %v after %d attempts", gt.Score.Perfect, len(gt.Tried))
	}
	_, greedy := gapsJobResult(t, s, ts.URL, gapsJob(p.Puzzle, "greedy-p", nil, nil))
	if len(greedy.Cells) != 9 || greedy.Steps != nil || greedy.Score == nil {
		t.Fatalf("greedy-p: %+v", greedy)
	}
}

// A paced search (18 s of pauses) is cancelled after its first placement.
func TestGapsJobCancel(t *testing.T) {
	skipGomlxUnderRace(t)
	s, _ := newServer(t, Config{})
	ts := testServer(t, s)
	p := newGaps(t, s, "sunset", 3, 1)
	st := submit(t, s, "gaps.solve", gapsJob(p.Puzzle, "", map[string]any{"sims": 20}, map[string]any{"pace_ms": 2000}))
	deadline := time.Now().Add(3 * time.Minute) // the first placement takes a second, far more under -race on a loaded machine
	for {
		cur := decode[JobState](t, call(t, s, "GET", "/api/jobs/"+st.ID, nil), 200)
		var pr gapsProgress
		if len(cur.Progress) > 0 && json.Unmarshal(cur.Progress, &pr) == nil && pr.Step != nil {
			break
		}
		if time.Now().After(deadline) || cur.Finished() {
			t.Fatalf("no placement in 3 minutes: %s", cur.Progress)
		}
		time.Sleep(20 * time.Millisecond)
	}
	call(t, s, "DELETE", "/api/jobs/"+st.ID, nil)
	states := events(t, ts.URL, st.ID)
	if last := states[len(states)-1]; last.State != JobCancelled {
		t.Fatalf("after cancel: %+v", last)
	}
}

func TestGapsSaves(t *testing.T) {
	s, _ := newServer(t, Config{})
	p := newGaps(t, s, "glass", 4, 3)
	pz, _ := gapsPuzzle(p.Puzzle)
	cells := slices.Repeat([]int{-1}, 16)
	cells[2] = 5
	state := gapsState{Puzzle: p.Puzzle, Name: p.Name, Cells: cells, ElapsedMS: 1234}
	info := decode[saveInfo](t, call(t, s, "PUT", "/api/gaps/saves/mine", state), 200)
	if info.Moves != 1 || info.Solved || info.Board != p.Name || info.ElapsedMS != 1234 {
		t.Fatalf("saved %+v", info)
	}
	got := decode[savedGame](t, call(t, s, "GET", "/api/gaps/saves/mine", nil), 200)
	var back gapsState
	if err := json.Unmarshal(got.State, &back); err != nil || !slices.Equal(back.Cells, cells) || back.Puzzle != p.Puzzle {
		t.Fatalf("loaded %+v (%v)", back, err)
	}
	state.Cells = pz.Truth
	if info := decode[saveInfo](t, call(t, s, "PUT", "/api/gaps/saves/done", state), 200); !info.Solved || info.Moves != 16 {
		t.Fatalf("the truth saved as %+v", info)
	}
	state.Cells = cells[:3]
	wantError(t, call(t, s, "PUT", "/api/gaps/saves/bad", state), 400, "3 entries")
	state.Cells, state.Puzzle.Grid = cells, 6
	wantError(t, call(t, s, "PUT", "/api/gaps/saves/bad", state), 400, "3x3 to 5x5")
}

func FuzzGapsSpec(f *testing.F) {
	s := &Server{cfg: Config{}}
	s.cfg.setDefaults()
	region := greyRegion(f, 132)
	url := func(r string) string { return `{"name":"","blob":"` + gapsRegionURL + r + `"}` }
	f.Add([]byte(`{"picture":` + url(region) + `,"grid":3,"options":{"seed":"1","sims":5}}`))
	f.Add([]byte(`{"picture":` + url(region) + `,"grid":4}`))
	f.Add([]byte(`{"picture":` + url("iVBORw0KGgo=") + `,"grid":3,"options":{"attempts":2}}`))
	f.Add([]byte(`{"picture":` + url("") + `,"grid":5,"options":{"reward":"gt"},"pace_ms":10}`))
	f.Fuzz(func(t *testing.T, spec []byte) {
		req, pz, timeout, err := s.checkGapsSpec(spec)
		if err != nil {
			return
		}
		g, o := req.Grid, req.Options
		if g < gapsMinGrid || g > gapsMaxGrid || len(pz.Patches) != g*g || len(pz.Truth) != g*g || timeout <= 0 ||
			o.Sims < 1 || o.Sims > gapsMaxSims || o.Attempts < 1 || o.Attempts > gapsMaxAttempts || !req.Centre || o.Model != "" {
			t.Fatalf("accepted %+v: %d patches, timeout %v", req, len(pz.Patches), timeout)
		}
		if err := gapsCells(pz, pz.Truth); err != nil {
			t.Fatal(err)
		}
	})
}

// The page's puzzle is the command line's: a photo cut through the
// region (a PNG, 8 bits) gives the patches in the order neural.Centre
// gives them (what `tessera jigsaw solve` cuts), and MCTS the same answer.
func TestGapsPuzzleIsTheCommandLines(t *testing.T) {
	skipGomlxUnderRace(t)
	img, err := imageio.Load("../../jigsaw/neural/testdata/kodak23.png", imageio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := neural.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, grid := range []int{3, 4} {
		region, err := gapsRegion(img.Pix, grid)
		if err != nil {
			t.Fatal(err)
		}
		page, err := gapsPuzzle(gapsRef{Region: region, Grid: grid, Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		cli := neural.Centre(img.Pix, gapsGeometry(grid), 2)
		if !slices.Equal(page.Truth, cli.Truth) {
			t.Fatalf("%dx%d: the page's patch order %v, the command line's %v", grid, grid, page.Truth, cli.Truth)
		}
		opts := neural.Options{Sims: 50}
		a, errA := neural.Solve(t.Context(), m, page, opts)
		b, errB := neural.Solve(t.Context(), m, cli, opts)
		if errA != nil || errB != nil || !slices.Equal(a.Cells, b.Cells) {
			t.Fatalf("%dx%d: the page's puzzle solved to %v, the command line's to %v (%v, %v)", grid, grid, a.Cells, b.Cells, errA, errB)
		}
	}
}

// The page's default picture is a photograph, what the networks learned on:
// MCTS with the page's defaults puts it together (issue 39 item 5: on the
// drawn sunset it placed 0 of 9). Seeds 1 to 3, 3x3: at least two perfect.
func TestGapsDefaultPhotograph(t *testing.T) {
	skipGomlxUnderRace(t)
	s, _ := newServer(t, Config{})
	ts := testServer(t, s)
	perfect := 0
	for seed := range uint64(3) {
		p := newGaps(t, s, "parrots", 3, seed+1)
		pz, _ := gapsPuzzle(p.Puzzle)
		_, res := gapsJobResult(t, s, ts.URL, gapsJob(p.Puzzle, "mcts", nil, nil))
		if res.Score != nil && res.Score.Patches == 9 && gapsScoreOf(pz, res.Cells).Patches == 9 {
			perfect++
		}
	}
	if perfect < 2 {
		t.Fatalf("%d of 3 parrots puzzles put together by MCTS with the page's defaults", perfect)
	}
}

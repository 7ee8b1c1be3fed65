package web

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"

	"tessera/internal/catalog"
	"tessera/npuzzle"
)

// testPDB55 is a 5x5 partition of eight 3-tile patterns: its tables build
// in a moment, where 6-6-6-6 takes minutes.
const testPDB55 = "1,2,3/4,5,6/7,8,9/10,11,12/13,14,15/16,17,18/19,20,21/22,23,24"

// The 5x5 database as a job: two clients asking at once get one build,
// its progress streams, the status says "ready", IDA* then proves a 5x5
// board's shortest solution; a new server on the same folder finds the
// tables on disk and reads them instead of building them.
func TestPDBJob(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{PDBs: map[string]string{"4x4": "5-5-5", "5x5": testPDB55}, PDBCache: dir}
	s, _ := newServer(t, cfg)
	ts := testServer(t, s)

	status := func(s *Server) pdbStatus {
		t.Helper()
		list := decode[map[string][]pdbStatus](t, call(t, s, "GET", "/api/npuzzle/pdb", nil), 200)["databases"]
		if len(list) != 2 || list[0].Size != "4x4" || list[1].Size != "5x5" || list[0].Needed || !list[1].Needed {
			t.Fatalf("databases %+v", list)
		}
		return list[1]
	}
	if st := status(s); st.State != "absent" || st.Tables == 0 || st.DiskBytes == 0 || !strings.Contains(st.Message, "not built yet") {
		t.Fatalf("before: %+v", st)
	}
	var wg sync.WaitGroup
	results := make([][]JobState, 2)
	for i := range results {
		st := submit(t, s, "npuzzle.pdb", map[string]any{"size": "5x5"})
		wg.Go(func() { results[i] = events(t, ts.URL, st.ID) })
	}
	wg.Wait()
	for i, states := range results {
		last := states[len(states)-1]
		var res pdbResult
		if last.State != JobDone || json.Unmarshal(last.Result, &res) != nil || res.State != "ready" || len(res.TableInfo) != 8 {
			t.Fatalf("job %d: %+v", i, last)
		}
		if !strings.Contains(res.Message, "is ready") || res.TableInfo[0].Path != "" {
			t.Fatalf("job %d: %+v", i, res)
		}
	}
	if s.pdbs.loads != 1 {
		t.Fatalf("%d loads for two jobs", s.pdbs.loads)
	}
	if st := status(s); st.State != "ready" {
		t.Fatalf("after: %+v", st)
	}

	// IDA* with it on a board 30 moves from the goal, as a job.
	b, want, _, res := idaJobOnWalk(t, s, ts.URL, npuzzle.Size{Rows: 5, Cols: 5}, 30, rand.NewPCG(3, 4))
	if !res.Solved || !res.Optimal || res.Length != len(want.Moves) || res.Partition != testPDB55 {
		t.Fatalf("IDA* on 5x5: %+v, want %d moves", res, len(want.Moves))
	}
	checkSolution(t, b.Line(), res.Moves)

	// A restarted server reads the tables from the folder.
	s2, _ := newServer(t, cfg)
	ts2 := testServer(t, s2)
	if st := status(s2); st.State != "on disk" {
		t.Fatalf("restarted: %+v", st)
	}
	st := submit(t, s2, "npuzzle.pdb", map[string]any{"size": "5x5"})
	states := events(t, ts2.URL, st.ID)
	var res2 pdbResult
	if last := states[len(states)-1]; last.State != JobDone || json.Unmarshal(last.Result, &res2) != nil || res2.State != "ready" {
		t.Fatalf("restarted job: %+v", last)
	}
	for _, ti := range res2.TableInfo {
		if ti.Built {
			t.Fatalf("restarted: table %v built again", ti.Tiles)
		}
	}
	if !strings.Contains(res2.Message, "read from disk") {
		t.Fatalf("restarted: %q", res2.Message)
	}
}

// idaJobOnWalk solves, as an npuzzle.solve job with IDA*, a board the
// given number of random steps (from the seeded source) away from the
// goal of the given size, and returns the board, IDA*'s own solution of
// it here, the job's states and its decoded result.
func idaJobOnWalk(t *testing.T, s *Server, base string, size npuzzle.Size, steps int, src rand.Source) (*npuzzle.Board, npuzzle.Solution, []JobState, catalog.NpuzzleRecord) {
	t.Helper()
	b := randomWalkFrom(goalBoard(size, size.Rows*size.Cols-1), steps, rand.New(src))
	want, err := npuzzle.IDAStar{}.Solve(t.Context(), b, npuzzle.BlankLast)
	if err != nil {
		t.Fatal(err)
	}
	st := submit(t, s, "npuzzle.solve", map[string]any{"board": b.Line(), "solver": "idastar"})
	states := events(t, base, st.ID)
	var res catalog.NpuzzleRecord
	if last := states[len(states)-1]; last.State != JobDone || json.Unmarshal(last.Result, &res) != nil {
		t.Fatalf("solve: %+v", last)
	}
	return b, want, states, res
}

// Bad database jobs are refused with the API's errors.
func TestPDBJobErrors(t *testing.T) {
	s, _ := newServer(t, Config{})
	for spec, want := range map[string]string{
		`{"size":"5x5"}`:                     "no pattern database for 5x5 boards",
		`{"size":"banana"}`:                  "bad size",
		`{"size":"4x4","timeout_ms":1}`:      "timeout_ms 1 out of range",
		`{"size":"4x4","partition":"7-8"}`:   "partition",
		`{"size":"4x4","timeout_ms":"soon"}`: "timeout_ms",
	} {
		wantError(t, call(t, s, "POST", "/api/jobs", `{"kind":"npuzzle.pdb","spec":`+spec+`}`), http.StatusBadRequest, want)
	}
}

// The first click answers (issue 39): Auto with IDA* on a 4x4 board of a
// server whose 4x4 database is 7-8, on a fresh cache, solves with the
// quick 6-6-3 database (built in seconds) and says so; the 7-8 build does
// not start (the memory bound is far below its build, which would fail it
// at once rather than run for minutes), and the status still offers it,
// with the estimated time of the build here. The page's button (an
// npuzzle.pdb job) is the only way to start it.
func TestAutoOn4x4DoesNotBuild78(t *testing.T) {
	dir := t.TempDir()
	s, _ := newServer(t, Config{PDBs: map[string]string{"4x4": "7-8"}, PDBCache: dir, PDBMemory: 64 << 20})
	ts := testServer(t, s)
	b, want, states, res := idaJobOnWalk(t, s, ts.URL, npuzzle.Size{Rows: 4, Cols: 4}, 40, rand.NewPCG(5, 6))
	if !res.Solved || !res.Optimal || res.Length != len(want.Moves) || res.Partition != "6-6-3" {
		t.Fatalf("IDA* on 4x4: %+v, want %d moves with 6-6-3", res, len(want.Moves))
	}
	if !strings.Contains(res.Note, "7-8 is not built yet, so IDA* used 6-6-3") {
		t.Fatalf("note %q", res.Note)
	}
	checkSolution(t, b.Line(), res.Moves)
	for _, st := range states {
		if strings.Contains(string(st.Progress), "7-8") {
			t.Fatalf("progress about 7-8: %s", st.Progress)
		}
	}
	if s.pdbs.started(npuzzle.Size{Rows: 4, Cols: 4}) || s.pdbs.loads != 1 {
		t.Fatalf("%d loads, 7-8 started %v: want 6-6-3 alone", s.pdbs.loads, s.pdbs.started(npuzzle.Size{Rows: 4, Cols: 4}))
	}
	list := decode[map[string][]pdbStatus](t, call(t, s, "GET", "/api/npuzzle/pdb", nil), 200)["databases"]
	if len(list) != 1 || list[0].State != "absent" || list[0].Quick != "6-6-3" || list[0].BuildSeconds <= 0 ||
		!strings.Contains(list[0].Message, "here (") || !strings.Contains(list[0].Message, "only when you ask") {
		t.Fatalf("status after Auto: %+v", list)
	}
	// A second Auto reuses the loaded 6-6-3.
	st := submit(t, s, "npuzzle.solve", map[string]any{"board": b.Line(), "solver": "idastar"})
	states = events(t, ts.URL, st.ID)
	if last := states[len(states)-1]; last.State != JobDone || s.pdbs.loads != 1 {
		t.Fatalf("second solve: %+v, %d loads", last, s.pdbs.loads)
	}
}

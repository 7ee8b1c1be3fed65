package web

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"

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
	rng := rand.New(rand.NewPCG(3, 4))
	b := randomWalkFrom(goalBoard(npuzzle.Size{Rows: 5, Cols: 5}, 24), 30, rng)
	want, err := npuzzle.IDAStar{}.Solve(t.Context(), b, npuzzle.BlankLast)
	if err != nil {
		t.Fatal(err)
	}
	st := submit(t, s, "npuzzle.solve", map[string]any{"board": b.Line(), "solver": "idastar"})
	states := events(t, ts.URL, st.ID)
	var res solveResponse
	if last := states[len(states)-1]; last.State != JobDone || json.Unmarshal(last.Result, &res) != nil {
		t.Fatalf("solve: %+v", last)
	}
	if !res.Solved || !res.Optimal || res.Length != len(want.Moves) || res.Heuristic != "pattern database "+testPDB55 {
		t.Fatalf("IDA* on 5x5: %+v, want %d moves", res, len(want.Moves))
	}
	checkSolution(t, b.Line(), res.Moves)

	// A restarted server reads the tables from the folder.
	s2, _ := newServer(t, cfg)
	ts2 := testServer(t, s2)
	if st := status(s2); st.State != "on disk" {
		t.Fatalf("restarted: %+v", st)
	}
	st = submit(t, s2, "npuzzle.pdb", map[string]any{"size": "5x5"})
	states = events(t, ts2.URL, st.ID)
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

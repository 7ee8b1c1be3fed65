package web

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"tessera/internal/catalog"
	"tessera/internal/jobs"
	"tessera/npuzzle"
)

// TestNATSJobsFull: a submission past the job store's bound is answered
// 507 with the reason; the ids the NATS backend gives are 128 random
// bits.
func TestNATSJobsFull(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := jobs.StartEmbedded(ctx, jobs.ServerOptions{Dir: t.TempDir()}, 0, jobs.WithLimits(jobs.Limits{MaxQueued: 1}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	n := NATSJobs{C: c}
	id, err := n.Submit(ctx, jobs.NoopKind, json.RawMessage(`1`), time.Second)
	if err != nil || !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(id) {
		t.Fatalf("first job: %q, %v", id, err)
	}
	_, err = n.Submit(ctx, jobs.NoopKind, json.RawMessage(`2`), time.Second)
	var ae *apiError
	if !errors.As(err, &ae) || ae.status != 507 || !strings.Contains(ae.msg, "queue") {
		t.Fatalf("past the bound: %v, want a 507", err)
	}
}

// TestPagesOnCatalogueWorkers: a server on NATS that runs no workers
// (`tessera serve -nats URL -workers 0`) beside a worker that registers
// only the catalogue's kinds, as `tessera worker` does (it does not import
// this package): every page's job is done, the catalogue's kinds by that
// worker, the sliding page's (which read the server's pattern databases)
// on the server's own job system.
func TestPagesOnCatalogueWorkers(t *testing.T) {
	skipGomlxUnderRace(t) // the gaps page's networks
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	c, err := jobs.StartEmbedded(ctx, jobs.ServerOptions{Dir: t.TempDir()}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the worker's cache of pattern databases
	s, _ := newServer(t, Config{Jobs: NATSJobs{C: c}})
	defer s.Close()
	// The worker's registry: the catalogue's functions, not the web's (a
	// server registers its wrappers in this process too).
	for kind, fn := range catalog.JobKinds() {
		jobs.Register(kind, jobs.Handler(fn))
	}
	wctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); jobs.RunWorkers(wctx, c, 2) }()
	defer func() { stop(); <-done }()
	ts := testServer(t, s)
	gp := newGaps(t, s, "mosaic", 3, 2)
	for _, tc := range []struct {
		kind     string
		spec     any
		worker   bool // run by the NATS worker, not the server
		want     string
		progress string // what the page's view shows as it runs
	}{
		{"samegame.solve", map[string]any{"board": sgLine(dealStandard(3)), "solver": "greedy"}, true, `"score":`, ""},
		{"tangram.solve", map[string]any{"ref": map[string]any{"figure": "house"}, "solver": "exact"}, true, `"pieces":[{`, ""},
		{"edgematch.solve", map[string]any{"ref": emRef{Rows: 6, Cols: 6, Seed: 5}, "solver": "lp", "budget": map[string]any{"timeout_ns": 20e9}}, true,
			// The LP's iterates (each with its P) go to progress as they
			// come, but the job system writes progress at most four times
			// a second, the latest winning: a fast LP's iterates may all
			// be superseded by its last report, so the test asks for the
			// solver's view, which every progress value carries, and finds
			// the iterates in the result. 6x6 (about 0.6 s of LP) so that
			// the events are watched while it runs: a 4x4 LP (5 ms) was
			// done before the page's stream opened.
			`"iterates":["data:image/png`, `"solver":"lp"`},
		{"jigsaw.solve", jgJob(jgRef{Pictures: []string{"mosaic"}, Piece: 120, Rotate: true, Seed: 1}, "ga", time.Minute), true, `"perfect":true`, `"board"`},
		{"gaps.solve", gapsJob(gp.Puzzle, "mcts", map[string]any{"sims": 10}, map[string]any{"pace_ms": 100}), true, `"final":true`, `"step"`},
		// The sliding page's Auto: the gap's home in the middle (the goal
		// map and the walk home applied on the worker), and IDA* on 4x4
		// with the database the server names (5-5-5 here), which the
		// worker builds in its own cache.
		{"npuzzle.solve", map[string]any{"board": "1 2 3/0 4 5/6 7 8", "solver": "bfs", "blank": 4}, true, `"goal":"blank at cell 4","solver":"bfs"`, ""},
		{"npuzzle.solve", map[string]any{"board": "5 1 2 3/9 6 7 4/13 10 11 8/14 15 12 0", "solver": "idastar"}, true, `"partition":"5-5-5","moves":`, `"phase":"`},
		{"npuzzle.pdb", map[string]any{"size": "4x4"}, false, `"table_info"`, ""},
	} {
		st := submit(t, s, tc.kind, tc.spec)
		states := events(t, ts.URL, st.ID)
		last := states[len(states)-1]
		if last.State != JobDone || !strings.Contains(string(last.Result), tc.want) {
			t.Fatalf("%s: %+v", tc.kind, last)
		}
		if tc.progress != "" && !slices.ContainsFunc(states, func(st JobState) bool { return strings.Contains(string(st.Progress), tc.progress) }) {
			t.Errorf("%s: no progress with %s from the worker: %+v", tc.kind, tc.progress, states)
		}
		if tc.kind == "npuzzle.solve" {
			var res catalog.NpuzzleRecord
			json.Unmarshal(last.Result, &res)
			spec := tc.spec.(map[string]any)
			k, ok := spec["blank"].(int)
			if b, _ := npuzzle.Parse(res.Board, npuzzle.Size{}); !ok && b != nil {
				k = b.Rows()*b.Cols() - 1
			}
			end, err := replayLine(t, spec["board"].(string), res.Moves)
			if err != nil || !isGoal(end, k) || !res.Solved {
				t.Errorf("npuzzle.solve: %+v does not reach the goal with the blank at %d (%v)", res, k, err)
			}
		}
		rec, err := c.Status(ctx, st.ID)
		switch {
		case tc.worker && (err != nil || rec.State != jobs.Done):
			t.Errorf("%s: not the NATS worker's job: %+v, %v", tc.kind, rec, err)
		case !tc.worker && !errors.Is(err, jobs.ErrNotFound):
			t.Errorf("%s: on NATS (%+v, %v), want the server's own", tc.kind, rec, err)
		}
	}
}

package catalog

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"tessera/npuzzle"
)

// TestNpuzzleEntries builds every entry with its defaults and solves a
// board two moves from the goal; the defaults are the solvers the ids have
// always named.
func TestNpuzzleEntries(t *testing.T) {
	b, err := npuzzle.Parse("1 2 3/4 0 6/7 5 8", npuzzle.Size{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range Npuzzle {
		s, err := e.New(NpuzzleRun{})
		if err != nil {
			t.Fatalf("%s: %v", e.ID, err)
		}
		sol, err := s.Solve(t.Context(), b, npuzzle.BlankLast)
		if err != nil || npuzzle.FormatMoves(sol.Moves) != "UL" || e.Optimal && !sol.Optimal {
			t.Errorf("%s: %s (optimal %v), %v", e.ID, npuzzle.FormatMoves(sol.Moves), sol.Optimal, err)
		}
	}
	def := npuzzle.Limits{MaxBytes: 2 << 30} // the library's default, spelled out
	want := map[string]npuzzle.Solver{
		"astar":   npuzzle.AStar{Weight: 1, Limits: def},
		"wastar":  npuzzle.AStar{Heuristic: npuzzle.Manhattan, Weight: 5, Limits: def},
		"idastar": npuzzle.IDAStar{Limits: def},
		"bfs":     npuzzle.BFS{Limits: def},
		"bibfs":   npuzzle.BidirectionalBFS{Limits: def},
		"fast":    npuzzle.Fast{},
	}
	for id, w := range want {
		if s, _ := Npuzzle.New(id, NpuzzleRun{}); !same(s, w) {
			t.Errorf("%s: %#v, want %#v", id, s, w)
		}
	}
	s, _ := Npuzzle.New("idastar", NpuzzleRun{NpuzzleOptions: NpuzzleOptions{Heuristic: "manhattan", Workers: 3, MaxStates: 10, MaxMem: 20}})
	if !same(s, npuzzle.IDAStar{Heuristic: npuzzle.Manhattan, Workers: 3, Limits: npuzzle.Limits{MaxStates: 10, MaxBytes: 20 << 20}}) {
		t.Errorf("idastar with options: %#v", s)
	}
	if s, _ := Npuzzle.New("wastar", NpuzzleRun{NpuzzleOptions: NpuzzleOptions{Heuristic: "linear", Weight: 2, MaxMem: -1}}); !same(s, npuzzle.AStar{Weight: 2, Limits: npuzzle.Limits{MaxBytes: -1}}) {
		t.Errorf("wastar with options: %#v", s)
	}
	// pdb without a database: built, and the solver says what it lacks.
	s, err = Npuzzle.New("idastar", NpuzzleRun{NpuzzleOptions: NpuzzleOptions{Heuristic: "pdb"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Solve(t.Context(), b, npuzzle.BlankLast); err == nil || !strings.Contains(err.Error(), "needs a pattern database") {
		t.Errorf("pdb without a database: %v", err)
	}
}

// same compares solver values, which hold a func (Limits.Progress) and so
// do not compare with ==.
func same(a, b npuzzle.Solver) bool { return fmt.Sprintf("%#v", a) == fmt.Sprintf("%#v", b) }

func TestNpuzzleOptionErrors(t *testing.T) {
	for _, c := range []struct {
		id   string
		o    NpuzzleOptions
		want string
	}{
		{"bfs", NpuzzleOptions{Heuristic: "pdb"}, "not to bfs"},
		{"astar", NpuzzleOptions{Weight: 0.5}, "at least 1"},
		{"astar", NpuzzleOptions{Heuristic: "euclid"}, "unknown heuristic"},
		{"dfs", NpuzzleOptions{}, "unknown solver"},
	} {
		if _, err := Npuzzle.New(c.id, NpuzzleRun{NpuzzleOptions: c.o}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: %v, want %q", c.id, c.o, err, c.want)
		}
	}
	for _, c := range []struct {
		o    NpuzzleOptions
		want string
	}{
		{NpuzzleOptions{Weight: 0.5}, "at least 1"},
		{NpuzzleOptions{Heuristic: "euclid"}, "unknown heuristic"},
		{NpuzzleOptions{Partition: "7-8", Heuristic: "linear"}, "-h pdb only"},
		{NpuzzleOptions{MaxStates: -1}, "must not be negative"},
		{NpuzzleOptions{Workers: -1}, "-workers"},
	} {
		if err := c.o.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
	// Which solver reads an option is the entries' Reads.
	list := Options(NpuzzleOptions{})
	for _, c := range []struct {
		id   string
		set  []string
		want string
	}{
		{"bibfs", []string{"w"}, "-w applies to -algo astar, wastar, not bibfs"},
		{"idastar", []string{"weight"}, "-w applies to -algo astar, wastar, not idastar"},
		{"bfs", []string{"h"}, "-h applies to -algo astar, idastar, wastar, fast, not bfs"},
		{"astar", []string{"workers"}, "-workers applies to -algo idastar, not astar"},
		{"fast", []string{"max-states"}, "-max-states applies to"},
		{"fast", []string{"max-mem", "partition", "h"}, ""},
		{"idastar", []string{"h", "partition", "workers", "max-states", "fsm"}, ""},
		{"astar", []string{"fsm"}, "-fsm applies to -algo idastar, not astar"},
	} {
		err := Npuzzle.Applies(list, c.set, c.id)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s %v: %v, want %q", c.id, c.set, err, c.want)
		}
	}
}

// The flags keep the command line's names and meanings: -h and -w by their
// flag tags, -max-mem in MiB with 0 for no bound.
func TestNpuzzleFlags(t *testing.T) {
	opts := NpuzzleOptions{MaxMem: 2048}
	fs, _, names := bind(&opts)
	if want := []string{"h", "partition", "w", "max-states", "max-mem", "workers", "fsm", "sparse"}; !slices.Equal(names, want) {
		t.Fatalf("flags %v, want %v", names, want)
	}
	if f := fs.Lookup("max-mem"); f.DefValue != "2048" {
		t.Fatalf("-max-mem default %q", f.DefValue)
	}
	if err := fs.Parse([]string{"-h", "pdb", "-w", "2", "-max-mem", "0", "-partition", "7-8"}); err != nil {
		t.Fatal(err)
	}
	if opts != (NpuzzleOptions{Heuristic: "pdb", Weight: 2, MaxMem: -1, Partition: "7-8"}) || opts.MaxMem.Bytes() != 0 {
		t.Fatalf("parsed %+v", opts)
	}
	if got := Given(opts); !slices.Equal(got, []string{"heuristic", "partition", "weight", "max_mem"}) {
		t.Fatalf("given %v", got)
	}
	b, _ := json.Marshal(opts)
	if string(b) != `{"heuristic":"pdb","partition":"7-8","weight":2,"max_mem":-1}` {
		t.Fatalf("JSON %s", b)
	}
	var back NpuzzleOptions
	if err := json.Unmarshal(b, &back); err != nil || back != opts {
		t.Fatalf("back %+v, %v", back, err)
	}
	if (MiB(0)).Bytes() != 2<<30 || (MiB(3)).Bytes() != 3<<20 {
		t.Fatal("MiB.Bytes")
	}
	if fs.Parse([]string{"-max-mem", "-1"}) == nil {
		t.Fatal("-max-mem -1 parsed")
	}
}

// The job kind npuzzle.solve: a job in, the record out, the same as a run
// here; options a solver does not read are refused, as their flags are.
func TestNpuzzleJob(t *testing.T) {
	j := NpuzzleJob{Spec: Spec[NpuzzleOptions]{Solver: "idastar", Options: NpuzzleOptions{Heuristic: "manhattan"}},
		Board: "8 6 7/2 5 4/3 0 1", Number: 2, Published: 31}
	spec, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	out, err := JobKinds()[NpuzzleKind](t.Context(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := out.(NpuzzleRecord)
	if !rec.Solved || !rec.Optimal || rec.Length != 31 || !rec.Matched || rec.Instance != 2 || rec.Heuristic != "manhattan" ||
		rec.Goal != "blank-last" || rec.Size != "3x3" || rec.Generated == 0 || rec.Error != "" {
		t.Fatalf("record %+v", rec)
	}
	local := j.Run(t.Context(), NpuzzleHooks{})
	if local.Moves != rec.Moves || local.Expanded != rec.Expanded {
		t.Fatalf("here %+v, as a job %+v", local, rec)
	}
	for _, c := range []struct {
		j    NpuzzleJob
		want string
	}{
		{NpuzzleJob{Spec: Spec[NpuzzleOptions]{Solver: "bfs", Options: NpuzzleOptions{Weight: 2}}, Board: j.Board}, "-w applies to"},
		{NpuzzleJob{Spec: Spec[NpuzzleOptions]{Solver: "astar", Options: NpuzzleOptions{Workers: 2}}, Board: j.Board}, "-workers applies to"},
		{NpuzzleJob{Spec: Spec[NpuzzleOptions]{Solver: "astar"}, Board: "1 2 3/4 5 6/8 7 0"}, "not solvable"},
		{NpuzzleJob{Spec: Spec[NpuzzleOptions]{Solver: "nope"}, Board: j.Board}, "unknown solver"},
		{NpuzzleJob{Spec: Spec[NpuzzleOptions]{Solver: "bfs", Budget: Budget{Timeout: time.Nanosecond}}, Board: j.Board}, "deadline"},
	} {
		if rec := c.j.Run(t.Context(), NpuzzleHooks{}); !strings.Contains(rec.Error, c.want) || rec.Solved {
			t.Errorf("%+v: %+v, want %q", c.j, rec, c.want)
		}
	}
}

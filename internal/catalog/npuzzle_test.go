package catalog

import (
	"fmt"
	"strings"
	"testing"

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
		s, err := e.New(NpuzzleOptions{})
		if err != nil {
			t.Fatalf("%s: %v", e.ID, err)
		}
		sol, err := s.Solve(t.Context(), b, npuzzle.BlankLast)
		if err != nil || npuzzle.FormatMoves(sol.Moves) != "UL" || e.Optimal && !sol.Optimal {
			t.Errorf("%s: %s (optimal %v), %v", e.ID, npuzzle.FormatMoves(sol.Moves), sol.Optimal, err)
		}
	}
	want := map[string]npuzzle.Solver{
		"astar":   npuzzle.AStar{Weight: 1},
		"wastar":  npuzzle.AStar{Heuristic: npuzzle.Manhattan, Weight: 5},
		"idastar": npuzzle.IDAStar{},
		"bfs":     npuzzle.BFS{},
		"bibfs":   npuzzle.BidirectionalBFS{},
		"fast":    npuzzle.Fast{},
	}
	for id, w := range want {
		if s, _ := Npuzzle.New(id, NpuzzleOptions{}); !same(s, w) {
			t.Errorf("%s: %#v, want %#v", id, s, w)
		}
	}
	s, _ := Npuzzle.New("idastar", NpuzzleOptions{Heuristic: "manhattan", Workers: 3, MaxStates: 10, MaxBytes: 20})
	if !same(s, npuzzle.IDAStar{Heuristic: npuzzle.Manhattan, Workers: 3, Limits: npuzzle.Limits{MaxStates: 10, MaxBytes: 20}}) {
		t.Errorf("idastar with options: %#v", s)
	}
	if s, _ := Npuzzle.New("wastar", NpuzzleOptions{Heuristic: "linear", Weight: 2}); !same(s, npuzzle.AStar{Weight: 2}) {
		t.Errorf("wastar with options: %#v", s)
	}
	// pdb without a database: built, and the solver says what it lacks.
	s, err = Npuzzle.New("idastar", NpuzzleOptions{Heuristic: "pdb"})
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
		{"bibfs", NpuzzleOptions{Weight: 2}, "astar and wastar only"},
		{"idastar", NpuzzleOptions{Weight: 3}, "astar and wastar only"},
		{"fast", NpuzzleOptions{Weight: 3}, "astar and wastar only"},
		{"astar", NpuzzleOptions{Weight: 0.5}, "at least 1"},
		{"astar", NpuzzleOptions{Heuristic: "euclid"}, "unknown heuristic"},
		{"dfs", NpuzzleOptions{}, "unknown solver"},
	} {
		if _, err := Npuzzle.New(c.id, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: %v, want %q", c.id, c.o, err, c.want)
		}
	}
	// A weight of 1 is accepted everywhere, as -w 1 always was.
	for _, id := range Npuzzle.IDs() {
		if _, err := Npuzzle.New(id, NpuzzleOptions{Weight: 1}); err != nil {
			t.Errorf("%s with weight 1: %v", id, err)
		}
	}
}

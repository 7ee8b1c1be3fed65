package search

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
)

// solvers runs every path-finding algorithm on a maze from cell 0.
var solvers = []struct {
	name    string
	optimal bool
	run     func(ctx context.Context, m *maze, opts Options) (Result[int, byte], error)
}{
	{"bfs", true, func(ctx context.Context, m *maze, o Options) (Result[int, byte], error) {
		return BFS(ctx, m, 0, o)
	}},
	{"bibfs", true, func(ctx context.Context, m *maze, o Options) (Result[int, byte], error) {
		return BidirectionalBFS(ctx, m, 0, m.goal, o)
	}},
	{"astar", true, func(ctx context.Context, m *maze, o Options) (Result[int, byte], error) {
		return AStar(ctx, m, 0, m.manhattan, o)
	}},
	{"astar-w3", false, func(ctx context.Context, m *maze, o Options) (Result[int, byte], error) {
		o.Weight = 3
		return AStar(ctx, m, 0, m.manhattan, o)
	}},
	{"idastar", true, func(ctx context.Context, m *maze, o Options) (Result[int, byte], error) {
		return IDAStar(ctx, m, 0, m.manhattan, o)
	}},
	// A beam wider than any depth's distinct states is a breadth-first
	// search.
	{"beam", true, func(ctx context.Context, m *maze, o Options) (Result[int, byte], error) {
		return Beam(ctx, m, 0, func(s int) float64 { return float64(m.manhattan(s)) }, BeamOptions{Options: o, Width: 1 << 20, Distinct: true})
	}},
}

func TestSolversAgreeOnRandomMazes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	solved, unsolvable := 0, 0
	for trial := range 60 {
		m := randomMaze(rng, 5+rng.IntN(4), 5+rng.IntN(6), 0.3)
		want := m.distances()[0]
		for _, s := range solvers {
			if want < 0 && (s.name == "idastar" || s.name == "beam") {
				// IDA* and beam search cannot see that a cyclic space has
				// no goal: they deepen until a limit stops them.
				_, err := s.run(t.Context(), m, Options{MaxExpanded: 20000})
				if !errors.Is(err, ErrBudget) && !errors.Is(err, ErrNoSolution) {
					t.Fatalf("maze %d, idastar: unreachable goal gave %v, want ErrBudget", trial, err)
				}
				continue
			}
			res, err := s.run(t.Context(), m, Options{})
			if want < 0 {
				if !errors.Is(err, ErrNoSolution) {
					t.Fatalf("maze %d, %s: unreachable goal gave %v", trial, s.name, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("maze %d, %s: %v", trial, s.name, err)
			}
			if got := m.follow(0, res.Moves); got != m.goal {
				t.Fatalf("maze %d, %s: moves %q end at %d, not the goal %d", trial, s.name, res.Moves, got, m.goal)
			}
			if s.optimal && len(res.Moves) != want {
				t.Fatalf("maze %d, %s: length %d, shortest is %d", trial, s.name, len(res.Moves), want)
			}
			if !s.optimal && len(res.Moves) > 3*want {
				t.Fatalf("maze %d, %s: length %d exceeds 3 x %d", trial, s.name, len(res.Moves), want)
			}
			if res.Stats.Expanded == 0 && want > 0 {
				t.Fatalf("maze %d, %s: no expansions recorded", trial, s.name)
			}
		}
		if want < 0 {
			unsolvable++
		} else {
			solved++
		}
	}
	if solved < 20 || unsolvable < 5 {
		t.Fatalf("test mazes are not varied enough: %d solvable, %d not", solved, unsolvable)
	}
}

func TestStartIsGoal(t *testing.T) {
	m := newMaze(".")
	for _, s := range solvers {
		res, err := s.run(t.Context(), m, Options{})
		if err != nil || len(res.Moves) != 0 {
			t.Errorf("%s: got %q, %v; want an empty path", s.name, res.Moves, err)
		}
	}
}

func TestExploreVisitsEveryReachableState(t *testing.T) {
	m := newMaze(
		"..#..",
		"..#..",
		"....#",
		"###..",
	)
	seen := map[int]int{}
	stats, err := Explore(t.Context(), m, 0, Options{}, func(s, d int) bool {
		seen[s] = d
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	// Distances from cell 0 computed by hand: the open component of 0.
	want := map[int]int{0: 0, 1: 1, 5: 1, 6: 2, 10: 2, 11: 3, 12: 4, 13: 5, 18: 6, 19: 7, 8: 6, 3: 7, 9: 7, 4: 8}
	if len(seen) != len(want) {
		t.Fatalf("visited %d states %v, want %d", len(seen), seen, len(want))
	}
	for s, d := range want {
		if seen[s] != d {
			t.Errorf("state %d at depth %d, want %d", s, seen[s], d)
		}
	}
	if stats.Expanded != int64(len(want)) || stats.PeakStored != int64(len(want)) {
		t.Errorf("stats %+v, want %d expanded and stored", stats, len(want))
	}
}

func TestBudgetLimits(t *testing.T) {
	m := randomMaze(rand.New(rand.NewPCG(3, 4)), 60, 60, 0)
	cases := []struct {
		name string
		opts Options
	}{
		{"states", Options{MaxStates: 100}},
		{"bytes", Options{MaxBytes: 4 << 10}},
		{"expanded", Options{MaxExpanded: 50}},
	}
	for _, c := range cases {
		for _, s := range solvers {
			if s.name == "idastar" && c.name != "expanded" {
				continue // IDA* stores only its path
			}
			res, err := s.run(t.Context(), m, c.opts)
			if !errors.Is(err, ErrBudget) {
				t.Errorf("%s limit, %s: got %v, want ErrBudget", c.name, s.name, err)
				continue
			}
			if res.Stats.Expanded == 0 || res.Stats.Generated == 0 {
				t.Errorf("%s limit, %s: stats not kept: %+v", c.name, s.name, res.Stats)
			}
			if c.opts.MaxExpanded > 0 && res.Stats.Expanded > c.opts.MaxExpanded {
				t.Errorf("%s limit, %s: expanded %d > %d", c.name, s.name, res.Stats.Expanded, c.opts.MaxExpanded)
			}
			if c.opts.MaxStates > 0 && res.Stats.PeakStored > c.opts.MaxStates+4 {
				t.Errorf("%s limit, %s: stored %d, limit %d", c.name, s.name, res.Stats.PeakStored, c.opts.MaxStates)
			}
		}
	}
}

func TestContextCancel(t *testing.T) {
	m := randomMaze(rand.New(rand.NewPCG(3, 4)), 200, 200, 0)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for _, s := range solvers {
		_, err := s.run(ctx, m, Options{})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: got %v, want context.Canceled", s.name, err)
		}
	}
}

func TestWeightedAStarExpandsLess(t *testing.T) {
	m := randomMaze(rand.New(rand.NewPCG(5, 6)), 80, 80, 0.2)
	if m.distances()[0] < 0 {
		t.Skip("maze happens to be unsolvable")
	}
	plain, err := AStar(t.Context(), m, 0, m.manhattan, Options{})
	if err != nil {
		t.Fatal(err)
	}
	weighted, err := AStar(t.Context(), m, 0, m.manhattan, Options{Weight: 5})
	if err != nil {
		t.Fatal(err)
	}
	if weighted.Stats.Expanded >= plain.Stats.Expanded {
		t.Errorf("weight 5 expanded %d states, plain A* %d", weighted.Stats.Expanded, plain.Stats.Expanded)
	}
}

func TestProgressIsCalled(t *testing.T) {
	m := randomMaze(rand.New(rand.NewPCG(7, 8)), 400, 400, 0)
	calls := 0
	_, err := BFS(t.Context(), m, 0, Options{Progress: func(Stats) { calls++ }})
	if err != nil {
		t.Fatal(err)
	}
	if calls < 2 {
		t.Errorf("progress called %d times over 160,000 expansions", calls)
	}
}

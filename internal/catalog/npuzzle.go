package catalog

import (
	"fmt"

	"tessera/npuzzle"
	"tessera/search"
)

// NpuzzleOptions are the parameters of the sliding-tile solvers, the values
// of the flags of `tessera npuzzle solve` and `bench`. The zero value gives
// every entry its defaults.
type NpuzzleOptions struct {
	// Heuristic is the heuristic of astar, wastar and idastar: linear,
	// manhattan, misplaced or pdb; "" is the entry's default (linear
	// conflict; Manhattan distance for wastar). bfs and bibfs take none
	// (they ignore one other than pdb), fast only pdb (with PDB set, it
	// finishes with the database).
	Heuristic string
	// PDB is the pattern database of the pdb heuristic (see
	// npuzzle.LoadPDB): the front end loads it, with its own progress and
	// cache, because a first build can take minutes. A solver built without
	// it reports the missing database when it solves.
	PDB *npuzzle.PDB
	// Weight is the A* weight on the heuristic, at least 1 (0: 1 for astar,
	// 5 for wastar); other solvers accept only 0 or 1.
	Weight float64
	// Workers is the number of goroutines of idastar with manhattan or pdb
	// (0 or 1: one); the solution and the counts do not depend on it.
	Workers int
	// MaxStates bounds the states that bfs, bibfs, astar and the generic
	// idastar store (0: no bound); MaxBytes bounds their memory in bytes
	// (npuzzle.Limits.MaxBytes: 0 is search.DefaultMaxBytes, negative no
	// bound).
	MaxStates, MaxBytes int64
	// Progress, when set, is called with the statistics of a search as it
	// goes (about every 65,536 expansions and every IDA* iteration).
	Progress func(search.Stats)
}

// Npuzzle is the table of sliding-tile solvers, the web app's default
// first. Its ids are the -algo names of `tessera npuzzle solve` and
// `bench`.
var Npuzzle = Table[npuzzle.Solver, NpuzzleOptions]{
	{ID: "astar", Name: "A*", Optimal: true,
		Doc: "best-first on moves made plus a heuristic (linear conflict by default); shortest solutions; memory grows with the search",
		New: func(o NpuzzleOptions) (npuzzle.Solver, error) { return o.astar(npuzzle.LinearConflict, 1) }},
	{ID: "idastar", Name: "IDA*", Optimal: true,
		Doc: "iterative-deepening A* (linear conflict by default; with manhattan or pdb the specialised parallel solver); shortest solutions in little memory",
		New: func(o NpuzzleOptions) (npuzzle.Solver, error) {
			h, err := o.heuristic(npuzzle.LinearConflict)
			if err != nil {
				return nil, err
			}
			return npuzzle.IDAStar{Heuristic: h, PDB: o.pdb(h), Workers: o.Workers, Limits: o.limits()}, o.noWeight("idastar")
		}},
	{ID: "bibfs", Name: "Bidirectional BFS", Optimal: true,
		Doc: "breadth-first from both ends until they meet; shortest; up to 3x3 and easy 4x4 boards",
		New: func(o NpuzzleOptions) (npuzzle.Solver, error) {
			return npuzzle.BidirectionalBFS{Limits: o.limits()}, o.blind("bibfs")
		}},
	{ID: "bfs", Name: "BFS",
		Doc: "breadth-first search; shortest; runs out of memory beyond 3x3 boards", Optimal: true,
		New: func(o NpuzzleOptions) (npuzzle.Solver, error) { return npuzzle.BFS{Limits: o.limits()}, o.blind("bfs") }},
	{ID: "wastar", Name: "Weighted A* (x5)",
		Doc: "the source game's AI: A* on Manhattan distance x 5 (by default); fast, solutions not shortest",
		New: func(o NpuzzleOptions) (npuzzle.Solver, error) { return o.astar(npuzzle.Manhattan, 5) }},
	{ID: "fast", Name: "Fast",
		Doc: "any board up to 10x10 in well under a second: fixes rows and columns, then searches a 4x4 region (a 5x5 one with a 6-6-6-6 pdb); short, shortest when it says so",
		New: func(o NpuzzleOptions) (npuzzle.Solver, error) {
			if _, err := o.heuristic(0); err != nil {
				return nil, err
			}
			return npuzzle.Fast{PDB: o.PDB}, o.noWeight("fast")
		}},
}

func init() { register("npuzzle", Npuzzle.Menu) }

// heuristic parses o.Heuristic, def when it is empty.
func (o NpuzzleOptions) heuristic(def npuzzle.Heuristic) (npuzzle.Heuristic, error) {
	if o.Heuristic == "" {
		return def, nil
	}
	return npuzzle.ParseHeuristic(o.Heuristic)
}

// pdb is the database for heuristic h: o.PDB with PatternDB, else none.
func (o NpuzzleOptions) pdb(h npuzzle.Heuristic) *npuzzle.PDB {
	if h == npuzzle.PatternDB {
		return o.PDB
	}
	return nil
}

func (o NpuzzleOptions) limits() npuzzle.Limits {
	return npuzzle.Limits{MaxStates: o.MaxStates, MaxBytes: o.MaxBytes, Progress: o.Progress}
}

// astar builds A* with the default heuristic h and weight w.
func (o NpuzzleOptions) astar(h npuzzle.Heuristic, w float64) (npuzzle.Solver, error) {
	h, err := o.heuristic(h)
	if err != nil {
		return nil, err
	}
	if o.Weight != 0 {
		if o.Weight < 1 {
			return nil, fmt.Errorf("weight %g: the weight must be at least 1", o.Weight)
		}
		w = o.Weight
	}
	return npuzzle.AStar{Heuristic: h, PDB: o.pdb(h), Weight: w, Limits: o.limits()}, nil
}

// noWeight refuses a weight for a solver other than A*.
func (o NpuzzleOptions) noWeight(id string) error {
	if o.Weight != 0 && o.Weight != 1 {
		return fmt.Errorf("a weight applies to astar and wastar only, not to %s", id)
	}
	return nil
}

// blind checks the options of a search without a heuristic.
func (o NpuzzleOptions) blind(id string) error {
	if o.Heuristic == "pdb" {
		return fmt.Errorf("the pdb heuristic applies to idastar, astar, wastar and fast, not to %s", id)
	}
	if _, err := o.heuristic(0); err != nil {
		return err
	}
	return o.noWeight(id)
}

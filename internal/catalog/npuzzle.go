package catalog

import (
	"errors"
	"fmt"
	"strconv"

	"tessera/npuzzle"
	"tessera/search"
)

// NpuzzleOptions are the sliding-tile solvers' options: plain data that
// travels as JSON, each field's json tag its name and its flag (the flag
// tag where the command line has always spelled it otherwise: -h, -w); the
// zero value gives every entry its defaults. Each solver reads the fields
// its entry's Reads lists.
type NpuzzleOptions struct {
	Heuristic string `json:"heuristic,omitempty" flag:"h" help:"heuristic of astar, wastar and idastar: misplaced, manhattan, linear or pdb (pattern database; -algo fast uses it when given) (default linear; manhattan for wastar)"`
	// Partition names the pattern database of the pdb heuristic ("" the
	// size's standard one): the process that solves loads it from its own
	// cache (NpuzzleHooks.PDB), never from a file a spec names.
	Partition string  `json:"partition,omitempty" help:"pattern database partition: 5-5-5, 6-6-3, 7-8 (4x4), 6-6-6-6 (5x5), or tiles such as 1,2,3/4,5,6 (default 6-6-3 on 4x4, 6-6-6-6 on 5x5); partitions joined by \";\" make a catalogue (the largest sum is taken), and a final \"+zero\" zero-aware tables (6-6-6-6+zero: 8 bytes a placement, raise -max-mem)"`
	Weight    float64 `json:"weight,omitempty" flag:"w" help:"A* weight on the heuristic, at least 1 (default 1, optimal; 5 for wastar, the source game's AI)"`
	MaxStates int64   `json:"max_states,omitempty" help:"stop after storing this many states (0: no count limit)"`
	MaxMem    MiB     `json:"max_mem,omitempty" applies:"all" help:"memory bound in MiB of the search and of the pattern database's load or build: bfs, bibfs and astar stop with the process at 0.8 to 1.1 times it (plus the runtime's 10-20 MB); a table whose build needs more is refused (0: no bound)"`
	Workers   int     `json:"workers,omitempty" help:"goroutines of IDA* with -h manhattan or pdb on iterations of millions of nodes (the solution and the counts do not depend on it)"`
	// MovePruning is npuzzle.IDAStar.MovePruning.
	MovePruning int `json:"fsm,omitempty" flag:"fsm" help:"IDA* with -h manhattan or pdb: skip the moves that complete a redundant sequence of the blank of up to this many moves (a finite-state machine, boards up to 6x6; 12 is a good value, at most 14): still shortest solutions, fewer nodes than Korf's counts (0: only the move back)"`
	// Sparse is npuzzle.PDBOptions.Sparse.
	Sparse bool `json:"sparse,omitempty" help:"-h pdb with a zero-aware partition (+zero): keep its tables sparse, indexed by the tiles' cells (the same nodes, about a third less CPU on the 24-puzzle; 1.95 GB a 6-tile table of the 5x5 board against 1.02 GB, and a few seconds more to load)"`
}

// Check reports options out of range, naming the flag.
func (o NpuzzleOptions) Check() error {
	switch {
	case o.MaxStates < 0:
		return errors.New("-max-states and -max-mem must not be negative (0: no bound)")
	case o.Workers < 0:
		return fmt.Errorf("-workers %d: want at least 1", o.Workers)
	case o.MovePruning < 0 || o.MovePruning > npuzzle.MaxFSMDepth:
		return fmt.Errorf("-fsm %d: want 0 to %d", o.MovePruning, npuzzle.MaxFSMDepth)
	case o.Weight != 0 && o.Weight < 1:
		return fmt.Errorf("weight %g: the weight must be at least 1", o.Weight)
	case o.Partition != "" && o.Heuristic != "pdb":
		return errors.New("-partition applies to -h pdb only")
	case o.Sparse && o.Heuristic != "pdb":
		return errors.New("-sparse applies to -h pdb only")
	}
	_, err := o.heuristic(0)
	return err
}

// MiB is a memory bound in MiB: 0 the default (search.DefaultMaxBytes,
// 2048 MiB), negative none. As text (a flag) it is the MiB themselves, 0
// meaning none, as -max-mem has always read it; as JSON a number in the
// options' encoding.
type MiB int64

// DefaultMiB is the bound of MiB's zero value.
const DefaultMiB = search.DefaultMaxBytes >> 20

// MarshalText writes the bound as a flag gives it.
func (m MiB) MarshalText() ([]byte, error) {
	switch {
	case m == 0:
		return []byte(strconv.Itoa(DefaultMiB)), nil
	case m < 0:
		return []byte("0"), nil
	}
	return []byte(strconv.FormatInt(int64(m), 10)), nil
}

// UnmarshalText reads a bound as a flag gives it: 0 is none.
func (m *MiB) UnmarshalText(b []byte) error {
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil || n < 0 || n > 1<<40 {
		return fmt.Errorf("%q: want MiB, 0 (no bound) or more", b)
	}
	*m = MiB(n)
	if n == 0 {
		*m = -1
	}
	return nil
}

// MarshalJSON and UnmarshalJSON keep the options' encoding in JSON.
func (m MiB) MarshalJSON() ([]byte, error) { return []byte(strconv.FormatInt(int64(m), 10)), nil }

func (m *MiB) UnmarshalJSON(b []byte) error {
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil || n > 1<<40 {
		return fmt.Errorf("max_mem %s: want MiB (0: the default, negative: none)", b)
	}
	*m = MiB(n)
	return nil
}

// Bytes is the bound in bytes, 0 for none.
func (m MiB) Bytes() int64 {
	switch {
	case m == 0:
		return search.DefaultMaxBytes
	case m < 0:
		return 0
	}
	return int64(m) << 20
}

// NpuzzleHooks are what a sliding-tile solve needs at run time and never
// sends.
type NpuzzleHooks struct {
	// PDB is the pattern database of the pdb heuristic (see
	// npuzzle.LoadPDB), of the options' Partition: the front end loads it,
	// with its own progress and cache, because a first build can take
	// minutes. A solver built without it reports the missing database when
	// it solves. Its tables count against the search's memory bound.
	PDB *npuzzle.PDB
	// Progress, when set, is called with the statistics of a search as it
	// goes (about every 65,536 expansions and every IDA* iteration).
	Progress func(search.Stats)
}

// NpuzzleRun is what a sliding-tile entry's New reads: the options and the
// hooks.
type NpuzzleRun struct {
	NpuzzleOptions
	Hooks NpuzzleHooks
}

// Capabilities of the sliding-tile entries: the options they read.
var (
	npHeuristic = []string{"heuristic", "partition", "sparse"}
	npAStar     = append(append([]string{}, npHeuristic...), "weight", "max_states")
)

// Npuzzle is the table of sliding-tile solvers, the web app's default
// first. Its ids are the -algo names of `tessera npuzzle solve` and
// `bench`.
var Npuzzle = Table[npuzzle.Solver, NpuzzleRun]{
	{ID: "astar", Name: "A*", Optimal: true, Reads: npAStar,
		Doc: "best-first on moves made plus a heuristic (linear conflict by default); shortest solutions; memory grows with the search",
		New: func(o NpuzzleRun) (npuzzle.Solver, error) { return o.astar(npuzzle.LinearConflict, 1) }},
	{ID: "idastar", Name: "IDA*", Optimal: true, Reads: append(append([]string{}, npHeuristic...), "workers", "max_states", "fsm"),
		Doc: "iterative-deepening A* (linear conflict by default; with manhattan or pdb the specialised parallel solver); shortest solutions in little memory",
		New: func(o NpuzzleRun) (npuzzle.Solver, error) {
			h, err := o.heuristic(npuzzle.LinearConflict)
			if err != nil {
				return nil, err
			}
			return npuzzle.IDAStar{Heuristic: h, PDB: o.pdb(h), Workers: o.Workers, MovePruning: o.MovePruning, Limits: o.limits()}, nil
		}},
	{ID: "bibfs", Name: "Bidirectional BFS", Optimal: true, Reads: []string{"max_states"},
		Doc: "breadth-first from both ends until they meet; shortest; up to 3x3 and easy 4x4 boards",
		New: func(o NpuzzleRun) (npuzzle.Solver, error) {
			return npuzzle.BidirectionalBFS{Limits: o.limits()}, o.blind("bibfs")
		}},
	{ID: "bfs", Name: "BFS", Optimal: true, Reads: []string{"max_states"},
		Doc: "breadth-first search; shortest; runs out of memory beyond 3x3 boards",
		New: func(o NpuzzleRun) (npuzzle.Solver, error) { return npuzzle.BFS{Limits: o.limits()}, o.blind("bfs") }},
	{ID: "wastar", Name: "Weighted A* (x5)", Reads: npAStar,
		Doc: "the source game's AI: A* on Manhattan distance x 5 (by default); fast, solutions not shortest",
		New: func(o NpuzzleRun) (npuzzle.Solver, error) { return o.astar(npuzzle.Manhattan, 5) }},
	{ID: "fast", Name: "Fast", Reads: npHeuristic,
		Doc: "any board up to 10x10 in well under a second: fixes rows and columns, then searches a 4x4 region (a 5x5 one with a 6-6-6-6 pdb); short, shortest when it says so",
		New: func(o NpuzzleRun) (npuzzle.Solver, error) {
			if _, err := o.heuristic(0); err != nil {
				return nil, err
			}
			return npuzzle.Fast{PDB: o.Hooks.PDB}, nil
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

// pdb is the database for heuristic h: the hooks' PDB with PatternDB, else
// none.
func (o NpuzzleRun) pdb(h npuzzle.Heuristic) *npuzzle.PDB {
	if h == npuzzle.PatternDB {
		return o.Hooks.PDB
	}
	return nil
}

// limits are the search's bounds: what MaxMem leaves beside the pattern
// database's tables, which stay in memory while the search runs.
func (o NpuzzleRun) limits() npuzzle.Limits {
	maxBytes := o.MaxMem.Bytes()
	if maxBytes == 0 {
		maxBytes = -1 // no bound
	} else if o.Hooks.PDB != nil {
		for _, ti := range o.Hooks.PDB.Tables() {
			if ti.Derived == "" {
				maxBytes -= ti.Bytes
			}
		}
		maxBytes = max(maxBytes, 1)
	}
	return npuzzle.Limits{MaxStates: o.MaxStates, MaxBytes: maxBytes, Progress: o.Hooks.Progress}
}

// astar builds A* with the default heuristic h and weight w.
func (o NpuzzleRun) astar(h npuzzle.Heuristic, w float64) (npuzzle.Solver, error) {
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

// blind refuses the pdb heuristic for a search without a heuristic (one it
// reads, a database to load, would be wasted).
func (o NpuzzleRun) blind(id string) error {
	if o.Heuristic == "pdb" {
		return fmt.Errorf("the pdb heuristic applies to idastar, astar, wastar and fast, not to %s", id)
	}
	return nil
}

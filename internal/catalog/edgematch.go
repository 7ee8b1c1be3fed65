package catalog

import (
	"cmp"
	"errors"
	"fmt"
	"time"

	"tessera/edgematch"
	"tessera/edgematch/exact"
	"tessera/edgematch/partial"
	"tessera/edgematch/relax"
	"tessera/edgematch/sat"
	"tessera/lp"
)

// EdgeMatchOptions are the edge-matching solvers' options: plain data
// that travels as JSON, each field's json tag its name and (with '-' for
// '_') its flag of `tessera edgematch solve` and `bench`; the zero value
// gives each solver its defaults. Each solver reads the fields its entry's
// Reads lists and ignores the others; those that one solver alone reads
// are grouped by solver (lp, sdp, sat).
type EdgeMatchOptions struct {
	Order    string `json:"order,omitempty" help:"dfs, partial, tiles, lp: the backtracker's scan order: auto, rows, columns, frame, spiral, or a scan from a corner as listed by estimate -scans (\"\": auto)"`
	Workers  int    `json:"workers,omitempty" help:"goroutines (0: one per core)"`
	MaxNodes int64  `json:"max_nodes,omitempty" help:"dfs, lp: stop the backtracker after this many placements; partial, tiles: after this many per worker, reproducibly with -workers 1 (0: no limit)"`
	EdgeMatchLPOptions
	MaxMoves int64 `json:"max_moves,omitempty" help:"lns: stop each worker after this many improvement moves (0: no limit); reproducible, unlike -timeout"`
	EdgeMatchSDPOptions
	EdgeMatchSATOptions
	NoExactFill bool `json:"no_exact_fill,omitempty" help:"partial: fill the empty cells of the backtracker's boards by the assignment alone, without their exact completion (by default boards of up to 16 empty cells are completed in their best arrangement, branch and bound, before the polish)"`

	Count bool   `json:"count,omitempty" help:"dfs, sat: count all solutions instead of stopping at the first"`
	Split int    `json:"split,omitempty" help:"dfs: split the search into independent subtrees below the placements of the first K cells of the scan, run on -workers goroutines (0: no split, work stealing on every core)"`
	Seed  uint64 `json:"seed,string,omitempty" applies:"all" help:"random seed (partial, tiles, lns): the same seed gives the same result, unless a wall-clock -timeout ends the work first"`
}

// Check reports options out of range, naming the flag: every solver's
// mistake.
func (o EdgeMatchOptions) Check() error {
	switch {
	case o.Workers < 0:
		return errors.New("-workers must not be negative (0: one per core)")
	case o.MaxNodes < 0:
		return errors.New("-max-nodes must not be negative (0: no limit)")
	case o.LPIter < 0:
		return errors.New("-lp-iter must not be negative (0: 20)")
	case o.LPTime < 0:
		return errors.New("-lp-time must not be negative (0: only -timeout)")
	case o.LPMaxMiB < 0 || o.LPMaxMiB > 1<<40:
		return fmt.Errorf("-lp-max-mem %d out of range (0: the default, 1024 MiB)", o.LPMaxMiB)
	case o.MaxMoves < 0:
		return errors.New("-max-moves must not be negative (0: no limit)")
	case o.Split < 0:
		return errors.New("-split must not be negative (0: no split)")
	case o.SDPK < 0 || o.SDPK > 4:
		return fmt.Errorf("-sdp-k %d out of range (0 to 4; 0: 2)", o.SDPK)
	case o.SDPIter < 0:
		return errors.New("-sdp-iter must not be negative (0: 40)")
	case o.MaxSolutions < 0:
		return errors.New("-max-solutions must not be negative (0: no limit)")
	}
	return nil
}

// EdgeMatchLPOptions are the options that only lp (Kovalsky's Algorithm 1)
// reads.
type EdgeMatchLPOptions struct {
	LPBackend string        `json:"lp,omitempty" help:"lp backend: pdhg (pure Go, the default) or clp (needs a build with -tags clp)"`
	LPIter    int           `json:"lp_iter,omitempty" help:"lp: at most this many LPs (0: 20)"`
	LPTime    time.Duration `json:"lp_time,omitempty" help:"lp: stop the LP iteration after this long and round (0: only -timeout)"`
	NoSearch  bool          `json:"no_search,omitempty" help:"lp: stop after the LP iteration (no rounding and search)"`
	LPPlain   bool          `json:"lp_plain,omitempty" help:"lp: Algorithm 1 as published (no pruning of the LP, no perturbation on stalls)"`
	LPMaxMiB  int64         `json:"lp_max_mem,omitempty" help:"lp: refuse a puzzle whose LP would need more than about this many MiB, estimated before building it (0: 1024)"`
}

// EdgeMatchSDPOptions are the options that only sdp (Kovalsky's Algorithm
// 2) reads.
type EdgeMatchSDPOptions struct {
	SDPBackendOption
	SDPK    int `json:"sdp_k,omitempty" help:"sdp: degree of the moment matrices (0: 2)"`
	SDPIter int `json:"sdp_iter,omitempty" help:"sdp: at most this many SDPs (0: 40)"`
}

// EdgeMatchSATOptions are the options that only sat reads.
type EdgeMatchSATOptions struct {
	SATSolver    string `json:"sat_solver,omitempty" help:"sat: the SAT solver, a name on the PATH or a path (default: the first of cadical, kissat, cryptominisat5 found)"`
	MaxSolutions int64  `json:"max_solutions,omitempty" help:"sat -count: stop after this many solutions (0: no limit)"`
}

// EdgeMatchHooks are what an edge-matching solve needs at run time and
// never sends.
type EdgeMatchHooks struct {
	// Subtrees runs the subtrees of a split search (nil: in process on
	// Workers goroutines; a jobs executor runs them on workers elsewhere).
	Subtrees exact.SubtreeExecutor
	// OnSplit, when set, is called with the split's depth and number of
	// subtrees before a split search starts.
	OnSplit func(depth, subtrees int)
	// SplitSearched are the subtrees of a split search that an earlier run
	// searched to their end (exact.Split.Searched): a resumed search
	// does not search them again. OnSearched, when set, receives each
	// subtree the split search searches to its end (a journal's entries).
	SplitSearched []exact.SearchedSubtree
	OnSearched    func(exact.SearchedSubtree)
	// Searches, when set, makes partial, tiles and lns many seeded
	// searches, each with one worker, on this executor
	// (partial.DistPartial, Workers of them, seeds Seed, Seed+1, ...; a
	// jobs executor runs them on workers elsewhere).
	Searches partial.PartialExecutor

	// Progress, when set, receives a line of progress about once a second
	// (printf style).
	Progress func(format string, args ...any)
	// OnBest, when set, is called with every new best board of the
	// partial searches (which must not be kept after the call).
	OnBest func(*edgematch.Board, edgematch.Score)
	// OnComplete, when set, receives every distinct complete board of
	// partial (in process, not with Searches) that scores EmitAt or more,
	// at most EmitMax of them (partial.Breaks.OnComplete).
	OnComplete      func(*edgematch.Board, edgematch.Score)
	EmitAt, EmitMax int
	// OnLP, when set, receives every iterate of lp's Algorithm 1
	// (relax.LP.OnLP); the other solvers ignore it.
	OnLP func(edgematch.LPIterate)
}

// EdgeMatchRun is what an edge-matching entry's New reads: the options, the
// start board and the hooks.
type EdgeMatchRun struct {
	EdgeMatchOptions
	// Start is a complete board for the partial searches (a saved best to
	// resume from): lns improves it; partial and tiles keep it as the
	// board to beat and draw their restarts from the seed and the board.
	Start *edgematch.Board
	Hooks EdgeMatchHooks
}

// EdgeMatch is the table of edge-matching solvers.
var EdgeMatch = Table[edgematch.Solver, EdgeMatchRun]{
	{ID: "dfs", Name: "exact backtracker", Optimal: true, Reads: []string{"order", "workers", "max_nodes", "count", "split"},
		Doc: "candidate tables, a bitset of used pieces, every core on subtrees; it also counts the solutions when asked",
		New: newEdgeMatchDFS},
	{ID: "partial", Name: "partial search: the break-schedule search (Blackwood's record method)", Anytime: true,
		Reads: []string{"order", "workers", "max_nodes", "no_exact_fill"},
		Doc:   "the best score of a complete board when a solution is out of reach (Eternity II): a backtracker that allows mismatches only after fixed fill indices, with heuristic colours and restarts; until its time or node budget (per worker) runs out",
		New:   newEdgeMatchBreaks},
	{ID: "tiles", Name: "tileability-guided search (Verhaard's 2008 method)", Anytime: true,
		Reads: []string{"order", "workers", "max_nodes"},
		Doc:   "the break search with a good group of pieces of high 2x3 tileability kept for the end, chosen anew at every restart",
		New:   newEdgeMatchTiles},
	{ID: "lns", Name: "large neighbourhood search", Anytime: true, Reads: []string{"workers", "max_moves"},
		Doc: "a start board from the backtracker, then window repairs by branch and bound, assignment repairs and kicks; until its time or move budget runs out",
		New: newEdgeMatchLNS},
	{ID: "lp", Name: "Kovalsky's LP relaxation, then search", Optimal: true,
		Reads: []string{"order", "workers", "max_nodes", "lp", "lp_iter", "lp_time", "no_search", "lp_plain", "lp_max_mem"},
		Doc:   "Kovalsky, Glasner and Basri's iterative LP, then (unless the search is turned off) rounding, fixing and the backtracker",
		New:   inProcess("lp", newEdgeMatchLP)},
	{ID: "sdp", Name: "Kovalsky's rank-one SDP (Algorithm 2)", Reads: []string{"sdp", "sdp_k", "sdp_iter"},
		Doc: sdpLimits,
		New: inProcess("sdp", newEdgeMatchSDP)},
	{ID: "sat", Name: "SAT solver (external)", Optimal: true, Reads: []string{"count", "sat_solver", "max_solutions"},
		Doc: "the puzzle as CNF, solved by cadical (or another SAT solver) from the PATH, the model decoded and verified; it counts solutions by blocking clauses",
		New: inProcess("sat", newEdgeMatchSAT)},
}

func init() { register("edgematch", EdgeMatch.Menu) }

// errResume refuses a start board to a solver that does not take one.
var errResume = errors.New("-resume applies to -algo partial, tiles and lns")

// inProcess is the constructor of the solver id, which runs in this
// process only: it refuses what the solver cannot take, a start board or an
// executor of subtrees or searches, and builds the rest with build.
func inProcess(id string, build func(EdgeMatchRun) (edgematch.Solver, error)) func(EdgeMatchRun) (edgematch.Solver, error) {
	return func(o EdgeMatchRun) (edgematch.Solver, error) {
		switch {
		case o.Start != nil:
			return nil, errResume
		case o.Hooks.Subtrees != nil || o.Hooks.Searches != nil:
			return nil, fmt.Errorf("%s runs in this process only (no -nats)", id)
		}
		return build(o)
	}
}

func newEdgeMatchDFS(o EdgeMatchRun) (edgematch.Solver, error) {
	h := o.Hooks
	switch {
	case o.Start != nil:
		return nil, errResume
	case h.Searches != nil:
		return nil, errors.New("a partial search executor applies to -algo partial, tiles and lns")
	}
	d, err := o.dfs()
	if err != nil {
		return nil, err
	}
	d.Count = o.Count
	if o.Split > 0 {
		onSplit := h.OnSplit
		if h.Progress != nil {
			var resumed int64 // the journal's placements: in the count, not in this run's rate
			for _, ss := range h.SplitSearched {
				resumed += ss.Result.Stats.Nodes
			}
			total := 0 // the number of subtrees, known once the split is made
			onSplit = func(depth, subtrees int) {
				total = subtrees
				if h.OnSplit != nil {
					h.OnSplit(depth, subtrees)
				}
			}
			d.Progress = func(st edgematch.Stats) {
				rate := st
				rate.Nodes -= resumed
				h.Progress("dfs split: %d placements (%.1f M/s), %d of %d subtrees finished, %.0f s%s", st.Nodes, rate.NodesPerSecond()/1e6,
					st.Subtrees, total, st.Elapsed.Seconds(), splitLeft(st, total, len(h.SplitSearched)))
			}
		}
		return exact.Split{DFS: d, Depth: o.Split, Workers: o.Workers, Exec: h.Subtrees, OnSplit: onSplit,
			Searched: h.SplitSearched, OnSearched: h.OnSearched}, nil
	}
	if h.Subtrees != nil {
		return nil, errors.New("a subtree executor (-nats) needs -split")
	}
	if h.SplitSearched != nil || h.OnSearched != nil {
		return nil, errors.New("a journal of subtrees (-journal) needs -split")
	}
	if h.Progress != nil {
		d.Progress = func(st edgematch.Stats) {
			h.Progress("dfs: %d placements (%.1f M/s), depth %d, %.0f s", st.Nodes, st.NodesPerSecond()/1e6, st.MaxDepth, st.Elapsed.Seconds())
		}
	}
	return d, nil
}

// splitLeft estimates the time a split search has left from this run's
// pace: its elapsed time per subtree it finished (the journal's subtrees,
// resumed, took none of it) times the subtrees not finished. Subtrees
// differ by orders of magnitude, so the estimate firms up only after many.
func splitLeft(st edgematch.Stats, total, resumed int) string {
	done := st.Subtrees - resumed
	if done <= 0 || total <= st.Subtrees {
		return ""
	}
	left := time.Duration(float64(st.Elapsed) / float64(done) * float64(total-st.Subtrees)).Round(time.Minute)
	switch h, m := int64(left/time.Hour), int64(left%time.Hour/time.Minute); {
	case left < time.Minute:
		return ", under a minute left"
	case h == 0:
		return fmt.Sprintf(", about %dm left", m)
	default:
		return fmt.Sprintf(", about %dh%02dm left", h, m)
	}
}

// newEdgeMatchLNS builds the large neighbourhood search (partial.Partial).
func newEdgeMatchLNS(o EdgeMatchRun) (edgematch.Solver, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	h := o.Hooks
	s := partial.Partial{Seed: o.Seed, Workers: o.Workers, Start: o.Start, MaxMoves: o.MaxMoves}
	if h.Searches != nil {
		return o.distPartial(s, func(pp partial.PartialProgress) {
			h.Progress("lns: best %d, %.0f s", pp.Best, pp.Elapsed.Seconds())
		}), nil
	}
	s.OnBest = h.OnBest
	if h.Progress != nil {
		s.Progress = func(pp partial.PartialProgress) {
			h.Progress("lns: best %d, %d moves, %.0f s", pp.Best, pp.Moves, pp.Elapsed.Seconds())
		}
	}
	return s, nil
}

// distPartial runs Workers seeded searches of s on the executor Searches.
func (o EdgeMatchRun) distPartial(s partial.SeededSearch, progress func(partial.PartialProgress)) partial.DistPartial {
	d := partial.DistPartial{Search: s, Seed: o.Seed, Searches: o.Workers, Exec: o.Hooks.Searches, OnBest: o.Hooks.OnBest}
	if o.Hooks.Progress != nil {
		d.Progress = progress
	}
	return d
}

func newEdgeMatchLP(o EdgeMatchRun) (edgematch.Solver, error) {
	h := o.Hooks
	search, err := o.dfs()
	if err != nil {
		return nil, err
	}
	backend, err := lp.Lookup(cmp.Or(o.LPBackend, "pdhg"))
	if err != nil {
		return nil, err // lp.ErrNotBuilt for clp without the build tag
	}
	s := relax.LP{Backend: backend, MaxIter: o.LPIter, MaxTime: o.LPTime, MaxMemory: o.LPMaxMiB << 20, NoSearch: o.NoSearch, Plain: o.LPPlain, Search: search, OnLP: h.OnLP}
	if h.Progress != nil {
		s.Progress = func(st edgematch.LPStep) {
			h.Progress("lp: iteration %d, %d fractional entries, %.1f s", st.Iteration, st.Fractional, st.Elapsed.Seconds())
		}
	}
	return s, nil
}

// sdpLimits is the sdp entry's doc: what it costs (docs/results/edgematch.md).
const sdpLimits = "Kovalsky, Glasner and Basri's Algorithm 2: moment matrices of the pieces' translations, SDPs reweighted towards rank one, translations rounded to cells; fixed orientation and no hints only, no search after it. " +
	"A demonstration, not a solver: on Kovalsky puzzles with 8 colours it solved 3x3 to 6x6 (0.2 to 11 s wall at load 30 to 44, 0.02 to 1.5 CPU-s) where lp needs milliseconds, a thousand times and more the cost; 7x7 and 8x8 not in a minute. Worth running up to 6x6 (docs/results/edgematch.md)"

func newEdgeMatchSDP(o EdgeMatchRun) (edgematch.Solver, error) {
	h := o.Hooks
	backend, err := o.backend()
	if err != nil {
		return nil, err
	}
	s := relax.SDP{Backend: backend, K: o.SDPK, MaxIter: o.SDPIter, Seed: o.Seed}
	if h.Progress != nil {
		s.OnIterate = func(it int, b *edgematch.Board, objective float64) {
			h.Progress("sdp: iteration %d, objective %.3g", it, objective)
		}
	}
	return s, nil
}

func newEdgeMatchSAT(o EdgeMatchRun) (edgematch.Solver, error) {
	h := o.Hooks
	if o.MaxSolutions != 0 && !o.Count {
		return nil, errors.New("-max-solutions applies to -count")
	}
	if err := o.Check(); err != nil {
		return nil, err
	}
	s := sat.SAT{Solver: o.SATSolver, Count: o.Count, MaxSolutions: o.MaxSolutions}
	if h.Progress != nil {
		s.Progress = func(st edgematch.Stats) {
			h.Progress("sat: %d solutions, %.0f s", st.Solutions, st.Elapsed.Seconds())
		}
	}
	return s, nil
}

// dfs is the backtracker that dfs runs and lp finishes with.
func (o EdgeMatchOptions) dfs() (exact.DFS, error) {
	if err := o.Check(); err != nil {
		return exact.DFS{}, err
	}
	var scan edgematch.Scan
	if o.Order != "" {
		var err error
		if scan, err = edgematch.ParseScan(o.Order); err != nil {
			return exact.DFS{}, err
		}
	}
	return exact.DFS{Scan: scan, Workers: o.Workers, MaxNodes: o.MaxNodes}, nil
}

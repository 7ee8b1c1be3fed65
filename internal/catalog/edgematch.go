package catalog

import (
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

// EdgeMatchOptions are the parameters of the edge-matching solvers, the
// values of the flags of `tessera edgematch solve` and `bench`. The zero
// value gives each solver its defaults. A constructor reads the fields
// that concern it and rejects Count and Start where they do not apply.
type EdgeMatchOptions struct {
	// Order is the backtracker's scan order, as edgematch.ParseScan reads
	// it ("auto", "rows", ..., "columns from the bottom right"; "": auto):
	// dfs, and the finishing search of lp.
	Order string
	// Workers is the number of goroutines (0: one per core).
	Workers int
	// MaxNodes stops the backtracker after about this many placements (0:
	// no limit): dfs, and the finishing search of lp; for partial and
	// tiles, this many per worker (with the same Seed and one worker, a
	// run that it ends gives the same board every time).
	MaxNodes int64
	// Count makes dfs and sat count every solution.
	Count bool
	// SATSolver is sat's solver command, a name on the PATH or a path ("":
	// the first of sat.SATSolvers found).
	SATSolver string
	// MaxSolutions stops sat's counting after this many solutions (0: no
	// limit).
	MaxSolutions int64
	// Seed makes the partial searches (partial, tiles, lns) repeatable.
	Seed uint64
	// Start is a complete board for the partial searches (a saved best to
	// resume from): lns improves it; partial and tiles keep it as the
	// board to beat and draw their restarts from the seed and the board.
	Start *edgematch.Board
	// LPBackend names the LP backend for lp (lp.Lookup: "pdhg", the
	// default, or "clp" in a build with the tag clp).
	LPBackend string
	// LPIter bounds the LPs of lp (0: 20); LPTime stops its LP iteration
	// after that long (0: only the context's deadline).
	LPIter int
	LPTime time.Duration
	// NoSearch stops lp after the LP iteration (no rounding and search).
	NoSearch bool
	// LPPlain runs lp's Algorithm 1 as published (no pruning of the LP,
	// no perturbation on stalls).
	LPPlain bool
	// LPMaxMemory bounds the memory of lp's relaxation in bytes
	// (relax.LP.MaxMemory; 0: relax.DefaultLPMemory).
	LPMaxMemory int64
	// MaxMoves stops each worker of lns after this many improvement
	// moves (0: no limit): with the same Seed and Workers, a run that the
	// move budget ends gives the same board every time, where one that the
	// context's deadline ends does not.
	MaxMoves int64

	// Split, for dfs, splits the search into the subtrees below the
	// placements of the first Split cells of the scan, run as independent
	// tasks (exact.Split): the first solution found stops the others,
	// or with Count the subtrees' counts are added (0: no split).
	Split int
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
	// OnLP, when set, receives every iterate of lp's Algorithm 1
	// (relax.LP.OnLP); the other solvers ignore it.
	OnLP func(edgematch.LPIterate)
}

// EdgeMatch is the table of edge-matching solvers.
var EdgeMatch = Table[edgematch.Solver, EdgeMatchOptions]{
	{ID: "dfs", Name: "exact backtracker", Optimal: true,
		Doc: "candidate tables, a bitset of used pieces, every core on subtrees; -count counts the solutions",
		New: newEdgeMatchDFS},
	{ID: "partial", Name: "partial search: the break-schedule search (Blackwood's record method)",
		Doc: "the best score of a complete board when a solution is out of reach (Eternity II): a backtracker that allows mismatches only after fixed fill indices, with heuristic colours and restarts; until the timeout or -max-nodes per worker",
		New: newEdgeMatchBreaks},
	{ID: "tiles", Name: "tileability-guided search (Verhaard's 2008 method)",
		Doc: "the break search with a good group of pieces of high 2x3 tileability kept for the end, chosen anew at every restart",
		New: newEdgeMatchTiles},
	{ID: "lns", Name: "large neighbourhood search",
		Doc: "a start board from the backtracker, then window repairs by branch and bound, assignment repairs and kicks; until the timeout or -max-moves",
		New: newEdgeMatchLNS},
	{ID: "lp", Name: "Kovalsky's LP relaxation, then search", Optimal: true,
		Doc: "Kovalsky, Glasner and Basri's iterative LP; unless -no-search, rounding, fixing and the backtracker",
		New: newEdgeMatchLP},
	{ID: "sat", Name: "SAT solver (external)", Optimal: true,
		Doc: "the puzzle as CNF, solved by cadical (or -sat-solver) from the PATH, the model decoded and verified; -count counts by blocking clauses",
		New: newEdgeMatchSAT},
}

func init() { register("edgematch", EdgeMatch.Menu) }

// check rejects negative counts and budgets: every solver's mistake.
func (o EdgeMatchOptions) check() error {
	switch {
	case o.Workers < 0:
		return errors.New("-workers must not be negative (0: one per core)")
	case o.MaxNodes < 0:
		return errors.New("-max-nodes must not be negative (0: no limit)")
	case o.LPIter < 0:
		return errors.New("-lp-iter must not be negative (0: 20)")
	case o.LPTime < 0:
		return errors.New("-lp-time must not be negative (0: only -timeout)")
	case o.LPMaxMemory < 0:
		return errors.New("-lp-max-mem must not be negative (0: the default)")
	case o.MaxMoves < 0:
		return errors.New("-max-moves must not be negative (0: no limit)")
	case o.Split < 0:
		return errors.New("-split must not be negative (0: no split)")
	case o.MaxSolutions < 0:
		return errors.New("-max-solutions must not be negative (0: no limit)")
	}
	return nil
}

// errNotFor reports an option given to a solver that does not use it.
func errNotFor(option, id string) error {
	return errors.New(option + " applies to -algo " + id)
}

func newEdgeMatchDFS(o EdgeMatchOptions) (edgematch.Solver, error) {
	if o.Start != nil {
		return nil, errNotFor("-resume", "partial, tiles and lns")
	}
	if o.MaxMoves != 0 {
		return nil, errNotFor("-max-moves", "lns")
	}
	d, err := o.dfs()
	if err != nil {
		return nil, err
	}
	d.Count = o.Count
	if o.Searches != nil {
		return nil, errNotFor("a partial search executor", "partial, tiles and lns")
	}
	if o.Split > 0 {
		onSplit := o.OnSplit
		if o.Progress != nil {
			var resumed int64 // the journal's placements: in the count, not in this run's rate
			for _, ss := range o.SplitSearched {
				resumed += ss.Result.Stats.Nodes
			}
			total := 0 // the number of subtrees, known once the split is made
			onSplit = func(depth, subtrees int) {
				total = subtrees
				if o.OnSplit != nil {
					o.OnSplit(depth, subtrees)
				}
			}
			d.Progress = func(st edgematch.Stats) {
				rate := st
				rate.Nodes -= resumed
				o.Progress("dfs split: %d placements (%.1f M/s), %d of %d subtrees finished, %.0f s%s", st.Nodes, rate.NodesPerSecond()/1e6,
					st.Subtrees, total, st.Elapsed.Seconds(), splitLeft(st, total, len(o.SplitSearched)))
			}
		}
		return exact.Split{DFS: d, Depth: o.Split, Workers: o.Workers, Exec: o.Subtrees, OnSplit: onSplit,
			Searched: o.SplitSearched, OnSearched: o.OnSearched}, nil
	}
	if o.Subtrees != nil {
		return nil, errors.New("a subtree executor (-nats) needs -split")
	}
	if o.SplitSearched != nil || o.OnSearched != nil {
		return nil, errors.New("a journal of subtrees (-journal) needs -split")
	}
	if o.Progress != nil {
		d.Progress = func(st edgematch.Stats) {
			o.Progress("dfs: %d placements (%.1f M/s), depth %d, %.0f s", st.Nodes, st.NodesPerSecond()/1e6, st.MaxDepth, st.Elapsed.Seconds())
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
func newEdgeMatchLNS(o EdgeMatchOptions) (edgematch.Solver, error) {
	switch {
	case o.Count:
		return nil, errNotFor("-count", "dfs and sat")
	case o.Split != 0:
		return nil, errNotFor("-split", "dfs")
	case o.MaxNodes != 0:
		return nil, errNotFor("-max-nodes", "dfs, partial and tiles")
	}
	if _, err := o.dfs(); err != nil {
		return nil, err // a bad Order is a mistake for every solver
	}
	s := partial.Partial{Seed: o.Seed, Workers: o.Workers, Start: o.Start, MaxMoves: o.MaxMoves}
	if o.Searches != nil {
		return o.distPartial(s, func(pp partial.PartialProgress) {
			o.Progress("lns: best %d, %.0f s", pp.Best, pp.Elapsed.Seconds())
		}), nil
	}
	s.OnBest = o.OnBest
	if o.Progress != nil {
		s.Progress = func(pp partial.PartialProgress) {
			o.Progress("lns: best %d, %d moves, %.0f s", pp.Best, pp.Moves, pp.Elapsed.Seconds())
		}
	}
	return s, nil
}

// distPartial runs Workers seeded searches of s on the executor Searches.
func (o EdgeMatchOptions) distPartial(s partial.SeededSearch, progress func(partial.PartialProgress)) partial.DistPartial {
	d := partial.DistPartial{Search: s, Seed: o.Seed, Searches: o.Workers, Exec: o.Searches, OnBest: o.OnBest}
	if o.Progress != nil {
		d.Progress = progress
	}
	return d
}

func newEdgeMatchLP(o EdgeMatchOptions) (edgematch.Solver, error) {
	switch {
	case o.Count:
		return nil, errNotFor("-count", "dfs and sat")
	case o.Start != nil:
		return nil, errNotFor("-resume", "partial, tiles and lns")
	case o.MaxMoves != 0:
		return nil, errNotFor("-max-moves", "lns")
	case o.Split != 0:
		return nil, errNotFor("-split", "dfs")
	case o.Subtrees != nil || o.Searches != nil:
		return nil, errors.New("lp runs in this process only (no -nats)")
	}
	search, err := o.dfs()
	if err != nil {
		return nil, err
	}
	name := o.LPBackend
	if name == "" {
		name = "pdhg"
	}
	backend, err := lp.Lookup(name)
	if err != nil {
		return nil, err // lp.ErrNotBuilt for clp without the build tag
	}
	s := relax.LP{Backend: backend, MaxIter: o.LPIter, MaxTime: o.LPTime, MaxMemory: o.LPMaxMemory, NoSearch: o.NoSearch, Plain: o.LPPlain, Search: search, OnLP: o.OnLP}
	if o.Progress != nil {
		s.Progress = func(st edgematch.LPStep) {
			o.Progress("lp: iteration %d, %d fractional entries, %.1f s", st.Iteration, st.Fractional, st.Elapsed.Seconds())
		}
	}
	return s, nil
}

func newEdgeMatchSAT(o EdgeMatchOptions) (edgematch.Solver, error) {
	switch {
	case o.Start != nil:
		return nil, errNotFor("-resume", "partial, tiles and lns")
	case o.MaxMoves != 0:
		return nil, errNotFor("-max-moves", "lns")
	case o.MaxNodes != 0:
		return nil, errNotFor("-max-nodes", "dfs, partial and tiles")
	case o.Split != 0:
		return nil, errNotFor("-split", "dfs")
	case o.Subtrees != nil || o.Searches != nil:
		return nil, errors.New("sat runs in this process only (no -nats)")
	case o.MaxSolutions != 0 && !o.Count:
		return nil, errors.New("-max-solutions applies to -count")
	}
	if err := o.check(); err != nil {
		return nil, err
	}
	s := sat.SAT{Solver: o.SATSolver, Count: o.Count, MaxSolutions: o.MaxSolutions}
	if o.Progress != nil {
		s.Progress = func(st edgematch.Stats) {
			o.Progress("sat: %d solutions, %.0f s", st.Solutions, st.Elapsed.Seconds())
		}
	}
	return s, nil
}

// dfs is the backtracker that dfs runs and lp finishes with.
func (o EdgeMatchOptions) dfs() (exact.DFS, error) {
	if err := o.check(); err != nil {
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

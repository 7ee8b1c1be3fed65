package npuzzle

import (
	"context"
	"errors"
	"sync"
	"time"

	"tessera/search"
)

// A fastStage is a search the fast solver tries on a region: IDA* with
// weight num/den on the heuristic (1/1 is optimal) within a node budget,
// which keeps it fast on every board and makes its answer independent of
// the machine's speed.
type fastStage struct {
	num, den int
	budget   int64
}

// The stages on a 4x4 region: optimal first, then weighted.
var fast4x4 = []fastStage{{1, 1, 3_000_000}, {3, 2, 500_000}, {2, 1, 500_000}, {3, 1, 500_000}}

// The stages on a 5x5 region with a pattern database. Chosen on the
// Korf-Felner 24-puzzles: weight 4/3 alone gives solutions 7.7% above the
// optimum but needs up to 23M nodes; these stages give 8.9% with at most
// 4.2M nodes (the 6-6-6-6 database with reflection).
var fast5x5 = []fastStage{{4, 3, 2_000_000}, {7, 5, 1_000_000}, {3, 2, 2_000_000}, {2, 1, 1_000_000}, {3, 1, 1_000_000}}

// Fast answers any solvable board up to 10x10 quickly with a short
// solution, optimal only when it says so. It fixes the board's last row or
// column, two tiles at a time (see reducer), until a region is left that a
// search can finish well:
//
//   - a 5x5 region, when PDB is a 5x5 database (6-6-6-6): weighted
//     IDA* with it, with the weights 4/3, 7/5, 3/2, 2 and 3 in turn until one
//     finishes within its node budget (a solution at most w times the
//     optimum; 8.9% above it on average on the Korf-Felner 24-puzzles);
//   - a 4x4 region: IDA* with PDB when it is a 4x4 database, else with
//     a 5-5-5 database built in memory once per process (a fraction of a
//     second); optimal unless its node budget runs out, then weighted;
//   - a region of 9 cells, or 3x4: A* with linear conflict, optimal.
//
// The answer depends only on the board and the database: every search is
// bounded by node counts, not time. The Stats sum the searches; the
// context stops it with its error.
type Fast struct {
	// PDB, when set, is a 5x5 or 4x4 pattern database to finish with.
	PDB *PDB
}

func (s Fast) String() string {
	if s.PDB != nil {
		return "fast (reduction, then search with the " + describeHeuristic(PatternDB, s.PDB) + ")"
	}
	return "fast (reduction, then search)"
}

// Solve implements Solver.
func (s Fast) Solve(ctx context.Context, b *Board, g Goal) (Solution, error) {
	if !Solvable(b, g) {
		return Solution{}, ErrUnsolvable
	}
	start := time.Now()
	f := newFrame(b, g)
	r := newReducer(f)
	var pdb5, pdb4 *PDB
	if d := s.PDB; d != nil {
		switch d.part.Size {
		case Size{5, 5}:
			pdb5 = d
		case Size{4, 4}:
			pdb4 = d
		}
	}
	var stats search.Stats
	optimal := false
	for {
		if err := ctx.Err(); err != nil {
			stats.Elapsed = time.Since(start)
			return Solution{Stats: stats}, err
		}
		region := Size{r.rows, r.left}
		var (
			moves []Move
			ok    bool
			err   error
		)
		switch {
		case region == Size{5, 5} && pdb5 != nil:
			moves, _, err = fastStages(ctx, r.region(), pdb5, fast5x5, &stats)
			ok = moves != nil
		case region == Size{4, 4}:
			if pdb4 == nil {
				if pdb4, err = builtin555(ctx); err != nil {
					return Solution{Stats: stats}, err
				}
			}
			var weight int
			moves, weight, err = fastStages(ctx, r.region(), pdb4, fast4x4, &stats)
			ok, optimal = moves != nil, moves != nil && weight == 0 && len(r.moves) == 0
		case region.Rows*region.Cols <= 9 || region.Rows*region.Cols == 12 && region.Rows >= 3 && region.Cols >= 3:
			moves, err = fastSmall(ctx, r.region(), &stats)
			ok, optimal = err == nil, err == nil && len(r.moves) == 0
		}
		if err != nil {
			stats.Elapsed = time.Since(start)
			return Solution{Stats: stats}, err
		}
		if ok {
			all := append(r.moves, moves...)
			for i, m := range all {
				all[i] = f.boardMove(m)
			}
			stats.Elapsed = time.Since(start)
			return Solution{Moves: all, Optimal: optimal, Stats: stats}, nil
		}
		r.shrink()
	}
}

// addStats adds the work of one search to the total.
func addStats(total *search.Stats, s search.Stats) {
	total.Expanded += s.Expanded
	total.Generated += s.Generated
	total.PeakStored = max(total.PeakStored, s.PeakStored)
	total.Iterations += s.Iterations
}

// fastStages runs the stages on a region in turn until one finishes within
// its budget; it returns the moves (nil if none did) and the index of the
// stage that found them.
func fastStages(ctx context.Context, f frame, d *PDB, stages []fastStage, total *search.Stats) ([]Move, int, error) {
	for i, st := range stages {
		s := newIDASearch(f, d, nil)
		s.num, s.den = st.num, st.den
		moves, stats, err := s.run(ctx, search.Options{MaxExpanded: st.budget})
		addStats(total, stats)
		if errors.Is(err, ErrBudget) {
			continue
		}
		return moves, i, err
	}
	return nil, 0, nil
}

// fastSmall solves a region of at most 12 cells optimally.
func fastSmall(ctx context.Context, f frame, total *search.Stats) ([]Move, error) {
	b := &Board{rows: f.rows, cols: f.cols, cells: f.cells, blank: f.blank()}
	sol, err := AStar{Heuristic: LinearConflict}.Solve(ctx, b, BlankFirst)
	addStats(total, sol.Stats)
	return sol.Moves, err
}

var (
	builtinOnce sync.Once
	builtinPDB  *PDB
	builtinErr  error
)

// builtin555 returns the 5-5-5 database of the 4x4 board, built in memory
// on first use (it takes well under a second and 0.8 MB).
func builtin555(ctx context.Context) (*PDB, error) {
	builtinOnce.Do(func() {
		part, _ := ParsePartition("5-5-5", Size{}, BlankFirst)
		builtinPDB, builtinErr = LoadPDB(context.WithoutCancel(ctx), part, PDBOptions{NoCache: true})
	})
	return builtinPDB, builtinErr
}

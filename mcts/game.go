package mcts

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// Game is the state of a deterministic single-player game with perfect
// information. G is the implementing type itself (usually a pointer type),
// M the move type. A search owns the states it clones and changes them in
// place with Play.
type Game[G any, M any] interface {
	// Moves appends the legal moves of the state to dst and returns the
	// extended slice. No move means the game is over. Implementations must
	// be deterministic: the same state gives the same moves in the same
	// order, so that searches repeat from their seed.
	Moves(dst []M) []M
	// Play makes m, one of the moves Moves returned for this state.
	Play(m M)
	// Score is the score of the state; at the end of a game, its final
	// score. Searches maximise it.
	Score() float64
	// Clone returns an independent copy of the state.
	Clone() G
	// CopyFrom sets the state to a copy of src without allocating, where
	// the implementation can.
	CopyFrom(src G)
}

// Coded is a Game whose moves have codes: numbers that identify a move
// together with the context it is played in, the keys of NRPA's policy.
// Two moves of one state must have different codes; the same move in
// similar states should share its code, which is what lets the policy
// generalise (Cazenave uses the Zobrist hash of a SameGame group's cells).
type Coded[G any, M any] interface {
	Game[G, M]
	Code(m M) uint64
}

// Result is the best sequence of moves a search found and its score.
type Result[M any] struct {
	// Moves is the best sequence found from the root, to the end of a game.
	Moves []M
	// Score is the score the sequence reaches.
	Score float64
	// Stats is the work done.
	Stats Stats
}

// Stats describes the work of a search.
type Stats struct {
	// Playouts counts the games played to the end (playouts of a tree
	// search, level-0 runs of NMCS and NRPA).
	Playouts int64
	// Nodes counts the tree nodes created (tree searches) or the nested
	// calls made (NMCS, NRPA).
	Nodes int64
	// Iterations counts the tree iterations, or the top-level NRPA runs.
	Iterations int64
	// Evaluations counts the leaves given to an Evaluator, Batches its calls.
	Evaluations, Batches int64
	// Elapsed is the wall-clock time of the search.
	Elapsed time.Duration
}

// ErrBudget is returned, wrapped, when a search stops at a limit of its
// options (playouts, nodes) before it finished its work. The result then
// holds the best sequence found so far. A search stopped by its context
// returns the context's error, wrapped, with the best sequence so far too.
var ErrBudget = errors.New("mcts: budget exhausted")

// Budget is the limits shared by every search. The zero value means no
// limit but the context.
type Budget struct {
	// MaxPlayouts stops the search after this many playouts (0: no limit).
	MaxPlayouts int64
	// Seed drives every random choice: the same seed gives the same result.
	Seed uint64
	// Progress, when set, is called with the best score so far and the
	// statistics about every 4,096 playouts and when the best improves.
	Progress func(best float64, s Stats)
	// Improved, when set, is called each time the best sequence improves,
	// just before the Progress call of that improvement, with its score and
	// the sequence as the Result would hold it: a []M of the search's move
	// type, valid only during the call (copy what you keep). It lets a
	// caller show the best line while the search runs; it changes nothing
	// in the search.
	Improved func(best float64, seq any)
}

// run is the bookkeeping of one search: budget, context, statistics and
// the best sequence found so far.
type run[M any] struct {
	ctx     context.Context
	budget  Budget
	start   time.Time
	stats   Stats
	rng     *rand.Rand
	best    []M
	bestVal float64
	found   bool
	err     error // why the search stopped early, once it has
}

func newRun[M any](ctx context.Context, b Budget, stream uint64) *run[M] {
	return &run[M]{ctx: ctx, budget: b, start: time.Now(), rng: rand.New(rand.NewPCG(b.Seed, stream))}
}

// playout counts one playout and reports whether the search must stop.
func (r *run[M]) playout() bool {
	r.stats.Playouts++
	if r.err != nil {
		return true
	}
	if r.budget.MaxPlayouts > 0 && r.stats.Playouts >= r.budget.MaxPlayouts {
		r.err = fmt.Errorf("%w: %d playouts", ErrBudget, r.stats.Playouts)
		return true
	}
	if r.stats.Playouts&255 == 0 {
		if err := r.ctx.Err(); err != nil {
			r.err = fmt.Errorf("mcts: stopped: %w", err)
			return true
		}
		if r.budget.Progress != nil && r.stats.Playouts&4095 == 0 {
			r.budget.Progress(r.bestVal, r.snapshot())
		}
	}
	return false
}

// stopped reports whether the search must stop, checking the context.
func (r *run[M]) stopped() bool {
	if r.err == nil {
		if err := r.ctx.Err(); err != nil {
			r.err = fmt.Errorf("mcts: stopped: %w", err)
		}
	}
	return r.err != nil
}

// offer records seq (prefix then tail) as the best sequence if it beats it.
func (r *run[M]) offer(score float64, prefix, tail []M) {
	if r.found && score <= r.bestVal {
		return
	}
	r.found = true
	r.bestVal = score
	r.best = append(append(r.best[:0], prefix...), tail...)
	if r.budget.Improved != nil {
		r.budget.Improved(score, r.best)
	}
	if r.budget.Progress != nil {
		r.budget.Progress(score, r.snapshot())
	}
}

func (r *run[M]) snapshot() Stats {
	s := r.stats
	s.Elapsed = time.Since(r.start)
	return s
}

// result returns the best sequence, the statistics and the error.
func (r *run[M]) result() (Result[M], error) {
	res := Result[M]{Moves: append([]M(nil), r.best...), Score: r.bestVal, Stats: r.snapshot()}
	return res, r.err
}

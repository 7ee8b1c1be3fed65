package search

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"
	"unsafe"
)

// Space is an implicit state space with unit-cost moves.
//
// S is the state, K a comparable identity of a state (often S itself) and M
// the move. Implementations must be deterministic: the same state always
// yields the same successors in the same order, so searches are repeatable.
type Space[S any, K comparable, M any] interface {
	// Key returns the identity of s: two states with equal keys are the same state.
	Key(s S) K
	// Successors yields every move applicable in s with the state it leads to.
	Successors(s S) iter.Seq2[M, S]
	// IsGoal reports whether s is a goal state.
	IsGoal(s S) bool
}

// Reversible is a Space that can also enumerate predecessors, as
// bidirectional search needs.
type Reversible[S any, K comparable, M any] interface {
	Space[S, K, M]
	// Predecessors yields every pair (m, p) such that move m leads from p to s.
	Predecessors(s S) iter.Seq2[M, S]
}

// Sizer is an optional interface of a Space whose states hold memory outside
// their own value (a string's bytes, a slice's array). StateBytes returns
// that extra size, so that Options.MaxBytes can account for it.
type Sizer[S any] interface {
	StateBytes(s S) int
}

// Heuristic estimates the number of moves from a state to the nearest goal.
// A* with Weight 1 and IDA* return optimal paths only when it is admissible
// (never above the true distance).
type Heuristic[S any] func(s S) int

// DefaultMaxBytes is the memory bound used when Options.MaxBytes is zero.
const DefaultMaxBytes = 2 << 30

// Options bound a search and tune it. The zero value means: no limit on
// states or expansions, DefaultMaxBytes of estimated memory, plain A*.
type Options struct {
	// MaxStates bounds the number of states stored at once (closed and open
	// lists, or the current path of IDA*). Zero means no bound on the count.
	MaxStates int64
	// MaxBytes bounds the estimated memory of the stored states: the fixed
	// size of a stored entry (state, key, parent link and map slot) plus what
	// a Sizer reports. Zero means DefaultMaxBytes; negative means no bound.
	MaxBytes int64
	// MaxExpanded bounds the number of expanded states. Zero means no bound.
	MaxExpanded int64
	// Weight multiplies the heuristic in A*: f = g + Weight*h. Zero and one
	// mean plain A*; above one trades optimality for speed (the solution is
	// at most Weight times longer than optimal when h is admissible).
	Weight float64
	// Progress, when set, is called with the statistics so far about every
	// 65,536 expansions (and after every IDA* iteration).
	Progress func(Stats)
}

// Stats describes the work a search did. It is returned with every result,
// including failed ones.
type Stats struct {
	// Expanded counts states whose successors were generated.
	Expanded int64
	// Generated counts successors produced, including those that were
	// already known or (in IDA*) cut off by the threshold. The start state is
	// not counted.
	Generated int64
	// PeakStored is the largest number of states stored at once.
	PeakStored int64
	// Iterations counts the depth-first iterations of IDA*, or the
	// frontier expansions of (bidirectional) breadth-first search.
	Iterations int
	// Elapsed is the wall-clock time of the search.
	Elapsed time.Duration
}

// Result is a path from the start state to a goal.
type Result[S any, M any] struct {
	// Moves leads from the start to Goal, in order.
	Moves []M
	// Goal is the goal state reached.
	Goal S
	// Stats is the work done.
	Stats Stats
}

var (
	// ErrBudget is returned (wrapped, with the limit named) when a search hits
	// one of the limits of its Options before finding a goal.
	ErrBudget = errors.New("search: budget exhausted")
	// ErrNoSolution is returned when the reachable space holds no goal.
	ErrNoSolution = errors.New("search: no goal is reachable")
)

// limiter enforces Options during one search and keeps its Stats.
type limiter[S any] struct {
	ctx           context.Context
	opts          Options
	stats         Stats
	start         time.Time
	bytesPerState int64
	maxBytes      int64
	extraBytes    int64 // bytes reported by a Sizer for the stored states
	sizer         Sizer[S]
	tick          int
}

// newLimiter prepares the limits for a search that spends bytesPerState
// bytes of its own on every stored state.
func newLimiter[S any](ctx context.Context, space any, opts Options, bytesPerState uintptr) *limiter[S] {
	l := &limiter[S]{
		ctx:           ctx,
		opts:          opts,
		start:         time.Now(),
		bytesPerState: int64(bytesPerState),
		maxBytes:      opts.MaxBytes,
	}
	if l.maxBytes == 0 {
		l.maxBytes = DefaultMaxBytes
	}
	l.sizer, _ = space.(Sizer[S])
	return l
}

// mapEntryBytes estimates the memory of one entry of a map from K to V:
// Swiss tables keep about one slot in eight empty, plus a control byte.
func mapEntryBytes[K comparable, V any]() uintptr {
	var k K
	var v V
	return (unsafe.Sizeof(k)+unsafe.Sizeof(v))*8/7 + 1
}

// store accounts for one more stored state.
func (l *limiter[S]) store(s S) {
	if l.sizer != nil {
		l.extraBytes += int64(l.sizer.StateBytes(s))
	}
}

// expand accounts for one expansion with stored states held, and reports
// whether a limit or the context stops the search.
func (l *limiter[S]) expand(stored int64) error {
	l.stats.Expanded++
	if stored > l.stats.PeakStored {
		l.stats.PeakStored = stored
	}
	if l.opts.MaxStates > 0 && stored >= l.opts.MaxStates {
		return fmt.Errorf("%w: %d states stored (limit %d)", ErrBudget, stored, l.opts.MaxStates)
	}
	if l.maxBytes > 0 {
		if b := stored*l.bytesPerState + l.extraBytes; b >= l.maxBytes {
			return fmt.Errorf("%w: about %d MiB of states stored (limit %d MiB)", ErrBudget, b>>20, l.maxBytes>>20)
		}
	}
	if l.opts.MaxExpanded > 0 && l.stats.Expanded > l.opts.MaxExpanded {
		l.stats.Expanded--
		return fmt.Errorf("%w: %d states expanded (limit %d)", ErrBudget, l.stats.Expanded, l.opts.MaxExpanded)
	}
	if l.tick&1023 == 0 {
		if err := l.ctx.Err(); err != nil {
			return err
		}
		if l.opts.Progress != nil && l.tick&65535 == 0 && l.tick > 0 {
			l.opts.Progress(l.snapshot())
		}
	}
	l.tick++
	return nil
}

// snapshot returns the statistics so far.
func (l *limiter[S]) snapshot() Stats {
	s := l.stats
	s.Elapsed = time.Since(l.start)
	return s
}

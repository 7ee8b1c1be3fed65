package samegame

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"tessera/mcts"
)

// DistNRPA is NRPA distributed in the manner of Negrevergne and Cazenave
// ("Distributed Nested Rollout Policy for SameGame", CGW 2017): the root
// level (Level) runs here and adapts its policy, and its level-(Level-1)
// searches are dispatched, Parallel at a time, to an executor: goroutines
// (LocalNRPA) or workers on other machines. Every dispatched search starts
// from a copy of the root's policy (an mcts.NRPAPolicy, sent with it) and
// has its own seed, derived from Seed, the restart and the iteration.
//
// Dispatch is deterministic: a round sends Parallel searches with the same
// policy; their answers are taken in the order they were sent, each
// checked by replay, kept as the root's best when at least as good (ties go
// to the latest, as in NRPA), and followed by an adaptation of the root
// policy toward the best, so that a round of Parallel searches counts as
// Parallel root iterations. The result depends on Seed, Level, Iterations
// and Parallel, never on the executor, the number of machines or their
// speed (unless a wall-clock budget ends it). With Parallel 1 it is NRPA
// with one random stream per level-(Level-1) search.
//
// Under Standard rules the searches see the tabu-colour filter unless
// NoTabu, as NRPA's do. With Restart, a context deadline or MaxPlayouts
// the root starts again with a fresh policy until the budget ends; with
// TabuColors the restarts take the colours kept for last in turn.
type DistNRPA struct {
	// Level is the root's nesting level (zero: 3; at least 1) and
	// Iterations the iterations of every level (zero: 100).
	Level, Iterations int
	// Parallel is the number of level-(Level-1) searches dispatched at
	// once (zero: 4): the parallelism, and a parameter of the result.
	Parallel int
	// Seed drives the seeds of the dispatched searches.
	Seed uint64
	// MaxPlayouts stops the search after this many playouts, checked after
	// every round (0: no limit).
	MaxPlayouts int64
	// Restart repeats the root search until the context ends or the
	// playout budget is spent (implied by a deadline or MaxPlayouts).
	Restart bool
	// NoTabu turns off the tabu-colour filter under Standard rules.
	NoTabu bool
	// TabuColors, above 1 with the tabu-colour filter, lets the restarts
	// choose the colour kept for last: restart r keeps colour
	// TabuCandidates(b, TabuColors)[r mod n] (the colours tied with the
	// largest, lowest first), and its dispatched searches are told so.
	// On a board with one largest colour it changes nothing. It is the
	// distributed counterpart of NRPA.TabuColors, whose portfolio races
	// the colours within one root search.
	TabuColors int
	// Exec runs the dispatched searches (nil: LocalNRPA{}, one goroutine
	// per search of a round).
	Exec NRPAExecutor
	// Progress, when set, is called with every new best solution (Moves
	// set) and after every round with the best so far (Moves nil).
	Progress func(Solution)
}

// NRPACall is one dispatched search: a level-Level NRPA of Iterations
// iterations per level from the policy Policy, drawing from Seed.
type NRPACall struct {
	Level      int             `json:"level"`
	Iterations int             `json:"iterations"`
	Seed       uint64          `json:"seed"`
	Policy     mcts.NRPAPolicy `json:"policy,omitempty"`
	// TabuColor, when set, is the colour the tabu-colour filter keeps for
	// last instead of the most frequent one (DistNRPA.TabuColors).
	TabuColor *Color `json:"tabu_color,omitempty"`
}

// NRPAExecutor runs the searches that DistNRPA dispatches.
//
// RunNRPA runs calls on b (with the tabu-colour filter when tabu; the
// board's rules apply), as SolveNRPACall would, and returns their
// solutions in the order of calls. When ctx ends it stops them and returns
// what they found so far (a call that found nothing has no Moves) with the
// context's error; an executor's failure is an error too.
type NRPAExecutor interface {
	RunNRPA(ctx context.Context, b *Board, tabu bool, calls []NRPACall) ([]Solution, error)
}

// SolveNRPACall runs one dispatched search on b: what a worker does with
// an NRPACall. Its level is at most 10 and its Iterations at most 10,000.
func SolveNRPACall(ctx context.Context, b *Board, tabu bool, call NRPACall) (Solution, error) {
	if call.Level < 0 || call.Level > 10 || call.Iterations < 0 || call.Iterations > 10000 {
		return Solution{}, fmt.Errorf("samegame: NRPA call of level %d with %d iterations (want levels 0 to 10, iterations 0 to 10,000)", call.Level, call.Iterations)
	}
	tabu = tabu && b.rules == Standard
	var root *Position
	if c := call.TabuColor; c == nil {
		root = NewPosition(b, tabu)
	} else if !tabu || *c < 0 || int(*c) >= MaxColors || b.ColorCounts()[*c] == 0 {
		return Solution{}, fmt.Errorf("samegame: NRPA call keeps colour %d for last: want the tabu-colour filter of Standard rules and a colour on the board", *c)
	} else {
		root = newPositionTabu(b, *c)
	}
	return timed(func() (Solution, error) {
		res, err := mcts.NRPALevel(ctx, root, call.Level, call.Policy,
			mcts.NRPAOptions{Iterations: call.Iterations, Budget: mcts.Budget{Seed: call.Seed}})
		sol := Solution{Moves: make([]Move, len(res.Moves)), Nodes: res.Stats.Nodes, Playouts: res.Stats.Playouts}
		for i, g := range res.Moves {
			sol.Moves[i] = g.Move()
		}
		if ferr := finish(b, &sol); ferr != nil {
			return sol, ferr
		}
		if err != nil && ctx.Err() != nil {
			err = ctxErr(ctx.Err())
		}
		return sol, err
	})
}

// LocalNRPA is the in-process NRPAExecutor: Workers goroutines (0: one
// per call) run the calls of a round.
type LocalNRPA struct {
	Workers int
}

// RunNRPA implements NRPAExecutor.
func (l LocalNRPA) RunNRPA(ctx context.Context, b *Board, tabu bool, calls []NRPACall) ([]Solution, error) {
	workers := l.Workers
	if workers <= 0 || workers > len(calls) {
		workers = len(calls)
	}
	sols := make([]Solution, len(calls))
	errs := make([]error, len(calls))
	var wg sync.WaitGroup
	next := make(chan int, len(calls))
	for i := range calls {
		next <- i
	}
	close(next)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				sols[i], errs[i] = SolveNRPACall(ctx, b, tabu, calls[i])
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return sols, ctxErr(err)
	}
	return sols, errors.Join(errs...)
}

// distSeed derives the seed of the search dispatched at iteration it of
// restart r (SplitMix64 of the three).
func distSeed(seed uint64, r, it int) uint64 {
	z := seed + 0x9e3779b97f4a7c15*uint64(r+1) + 0xbf58476d1ce4e5b9*uint64(it+1)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// groupsOf replays moves from root and returns the groups they click and
// the final Position score; moves that are illegal, or that do not end the
// game, are an error.
func groupsOf(root *Position, moves []Move) ([]Group, float64, error) {
	p := root.Clone()
	var legal []Group
	out := make([]Group, 0, len(moves))
	for i, m := range moves {
		legal = p.Moves(legal[:0])
		k := -1
		for j, g := range legal {
			if g.Move() == m {
				k = j
				break
			}
		}
		if k < 0 {
			return nil, 0, fmt.Errorf("samegame: click %d (%v) is not a legal move", i+1, m)
		}
		out = append(out, legal[k])
		p.Play(legal[k])
	}
	if len(p.Moves(legal[:0])) != 0 {
		return nil, 0, errors.New("samegame: the clicks do not end the game")
	}
	return out, p.Score(), nil
}

// Solve runs the distributed search on b.
func (s DistNRPA) Solve(ctx context.Context, b *Board) (Solution, error) {
	start := time.Now()
	level, iters, par := s.Level, s.Iterations, s.Parallel
	if level == 0 {
		level = 3
	}
	if iters == 0 {
		iters = 100
	}
	if par == 0 {
		par = 4
	}
	if level < 1 || level > 10 || iters < 0 || iters > 10000 || par < 0 {
		return Solution{}, fmt.Errorf("samegame: distributed NRPA of level %d, %d iterations, %d in parallel (want level 1 to 10, iterations up to 10,000)", level, iters, par)
	}
	exec := s.Exec
	if exec == nil {
		exec = LocalNRPA{}
	}
	tabu := b.rules == Standard && !s.NoTabu
	var keep []Color // the colours the restarts keep for last in turn
	if tabu && s.TabuColors > 1 {
		if keep = TabuCandidates(b, s.TabuColors); len(keep) < 2 {
			keep = nil
		}
	}
	_, hasDeadline := ctx.Deadline()
	repeat := s.Restart || hasDeadline || s.MaxPlayouts > 0

	var best Solution
	bestScore := math.Inf(-1)
	var nodes, playouts int64
	var stop error
	report := func(sol Solution) {
		if s.Progress != nil {
			sol.Nodes, sol.Playouts, sol.Elapsed = nodes, playouts, time.Since(start)
			s.Progress(sol)
		}
	}
	for r := 0; stop == nil; r++ {
		root, colour := NewPosition(b, tabu), (*Color)(nil)
		if len(keep) > 0 {
			c := keep[r%len(keep)]
			root, colour = newPositionTabu(b, c), &c
		}
		pol := mcts.NRPAPolicy{}
		var rootBest []Group
		rootScore := math.Inf(-1)
		for it := 0; it < iters && stop == nil; {
			k := min(par, iters-it)
			calls := make([]NRPACall, k)
			for j := range calls {
				calls[j] = NRPACall{Level: level - 1, Iterations: iters, Seed: distSeed(s.Seed, r, it+j), Policy: pol, TabuColor: colour}
			}
			sols, err := exec.RunNRPA(ctx, b, tabu, calls)
			if len(sols) != len(calls) && err == nil {
				err = fmt.Errorf("samegame: executor answered %d of %d searches", len(sols), len(calls))
			}
			// The calls are over: the policy they shared is adapted after
			// each of their answers in turn.
			for j := range min(len(sols), len(calls)) {
				sol := sols[j]
				nodes += sol.Nodes
				playouts += sol.Playouts
				if len(sol.Moves) == 0 && !sol.Cleared {
					continue // stopped before its first playout
				}
				groups, score, gerr := groupsOf(root, sol.Moves)
				if gerr == nil {
					var rerr error
					if rerr = finish(b, &sol); rerr == nil && (b.rules == Standard && float64(sol.Score) != score) {
						rerr = fmt.Errorf("samegame: reported score %d, replayed %v", sol.Score, score)
					}
					gerr = rerr
				}
				if gerr != nil {
					if stop == nil {
						stop = fmt.Errorf("samegame: dispatched search %d: %w", it+j+1, gerr)
					}
					break
				}
				if score >= rootScore {
					rootScore, rootBest = score, groups
				}
				if score > bestScore {
					bestScore = score
					best = Solution{Moves: sol.Moves, Score: sol.Score, Clicks: sol.Clicks, Cleared: sol.Cleared}
					report(best)
				}
				if aerr := mcts.AdaptPolicy(root, pol, rootBest, 1); aerr != nil && stop == nil {
					stop = aerr
				}
			}
			it += k
			switch {
			case stop != nil:
			case err != nil && ctx.Err() != nil:
				stop = ctxErr(ctx.Err())
			case err != nil:
				stop = fmt.Errorf("samegame: distributed NRPA: %w", err)
			case ctx.Err() != nil:
				stop = ctxErr(ctx.Err())
			case s.MaxPlayouts > 0 && playouts >= s.MaxPlayouts:
				stop = fmt.Errorf("%w: %d playouts", ErrBudget, playouts)
			}
			report(Solution{Score: best.Score, Clicks: best.Clicks, Cleared: best.Cleared})
		}
		if !repeat {
			break
		}
	}
	best.Nodes, best.Playouts, best.Elapsed = nodes, playouts, time.Since(start)
	if best.Moves == nil {
		best.Moves = []Move{}
		if err := finish(b, &best); err != nil {
			return best, err
		}
	}
	return best, stop
}

package samegame

import (
	"context"
	"errors"
	"fmt"

	"tessera/mcts"
)

// MC are the options the Monte-Carlo searches (MCTS, NMCS, NRPA) share.
type MC struct {
	// Seed drives the random playouts.
	Seed uint64
	// MaxPlayouts stops the search after this many playouts (0: no limit).
	MaxPlayouts int64
	// Restart keeps the search going until the context ends or the
	// playout budget is spent (implied by a context deadline or
	// MaxPlayouts): NRPA and NMCS start again (a new policy, new
	// playouts), MCTS iterates.
	Restart bool
	// NoTabu turns off the tabu-colour filter (MCTS: playout policy)
	// under Standard rules (never used under Dust).
	NoTabu bool
	// Progress, when set, is called now and then with the best result so
	// far (its Moves the best line, a slice the callee may keep) and the
	// work done, and each time the best line improves.
	Progress func(Solution)
}

// MCTS is single-player Monte-Carlo tree search with SP-MCTS selection
// (Schadd et al. 2008) from package mcts, through Position. Under
// Standard rules its playouts follow the TabuColorPolicy (unless NoTabu).
// It iterates until the context ends or MaxPlayouts is reached when
// Restart is set or either budget is; otherwise it runs 10,000 iterations.
type MCTS struct{ MC }

// Solve searches b.
func (s MCTS) Solve(ctx context.Context, b *Board) (Solution, error) {
	return timed(func() (Solution, error) { return solveMC(ctx, b, mcParams{kind: "mcts", MC: s.MC}) })
}

// NMCS is Nested Monte-Carlo Search (Cazenave 2009) from package mcts,
// through Position, with the tabu-colour move filter under Standard rules
// (unless NoTabu). With Restart, a context deadline or MaxPlayouts it
// starts again with new playouts until the budget ends; otherwise it runs
// once.
type NMCS struct {
	// Level is the nesting level (zero: 2).
	Level int
	MC
}

// Solve searches b.
func (s NMCS) Solve(ctx context.Context, b *Board) (Solution, error) {
	return timed(func() (Solution, error) { return solveMC(ctx, b, mcParams{kind: "nmcs", level: s.Level, MC: s.MC}) })
}

// NRPA is Nested Rollout Policy Adaptation (Rosin 2011) from package
// mcts, through Position, with the tabu-colour move filter under Standard
// rules (unless NoTabu). With Restart, a context deadline or MaxPlayouts
// it starts again with a new policy until the budget ends; otherwise it
// runs once.
type NRPA struct {
	// Level is the nesting level (zero: 3) and Iterations the iterations
	// per level (zero: 100).
	Level, Iterations int
	// TabuPairs lets the tabu colour's groups of two cells be clicked
	// after the first 10 clicks (Position.SetTabuPairs).
	TabuPairs bool
	// Stabilize is the number of playouts of a level-1 iteration before
	// its policy adapts (Stabilized NRPA; 0 or 1: plain NRPA).
	Stabilize int
	// Portfolio, above 1 with Level 2 or more, races that many top-level
	// searches, halving them every Round iterations (zero: 5) until one
	// is left (mcts.NRPAOptions.Portfolio).
	Portfolio, Round int
	// TabuColors, above 1 with the tabu-colour filter, lets the search
	// choose the colour kept for last (TabuCandidates): the portfolio's
	// members search with one candidate each, in turn (at least one member
	// a candidate), and the race keeps the best.
	TabuColors int
	// MoveCode is how moves are coded for the policy (CodeCells: the
	// exact cells; CodeAnchor: colour, anchor cell and size class).
	MoveCode MoveCode
	// PriorLeft and PriorSize, either not 0, make the search a Generalized
	// NRPA with the prior of Position.SetPrior (by the cells left of a
	// move's colour and by its size).
	PriorLeft, PriorSize float64
	// TabuSecond keeps the next largest colour together too, for
	// second-last (Position.SetTabuSecond).
	TabuSecond bool
	// Alpha is the learning rate of the policy's adaptation (zero: 1).
	Alpha float64
	// Repeats, above 0, ends a level once its best sequence came back that
	// many times (mcts.NRPAOptions.Repeats; zero: no limit).
	Repeats int
	MC
}

// Solve searches b.
func (s NRPA) Solve(ctx context.Context, b *Board) (Solution, error) {
	return timed(func() (Solution, error) {
		return solveMC(ctx, b, mcParams{kind: "nrpa", level: s.Level, iterations: s.Iterations, tabuPairs: s.TabuPairs, stabilize: s.Stabilize,
			portfolio: s.Portfolio, round: s.Round, tabuColors: s.TabuColors, moveCode: s.MoveCode,
			priorLeft: s.PriorLeft, priorSize: s.PriorSize, tabuSecond: s.TabuSecond, alpha: s.Alpha, repeats: s.Repeats, MC: s.MC})
	})
}

// mcParams are the parameters of the Monte-Carlo searches.
type mcParams struct {
	kind              string // mcts, nmcs or nrpa
	level, iterations int
	tabuPairs         bool
	stabilize         int
	portfolio, round  int
	tabuColors        int
	moveCode          MoveCode
	priorLeft         float64
	priorSize         float64
	tabuSecond        bool
	alpha             float64
	repeats           int
	MC
}

// solveMC runs one of the Monte-Carlo searches of package mcts on b.
// Under Standard rules NRPA and NMCS see the tabu-colour move filter
// (unless noTabu) and SP-MCTS uses the TabuColor playout policy; Dust
// games run unfiltered. With restart, a deadline or a playout budget,
// NRPA and NMCS restart and MCTS iterates until it ends; otherwise NRPA
// and NMCS run once and MCTS runs 10,000 iterations.
func solveMC(ctx context.Context, b *Board, p mcParams) (Solution, error) {
	tabu := b.rules == Standard && !p.NoTabu
	_, hasDeadline := ctx.Deadline()
	budget := mcts.Budget{MaxPlayouts: p.MaxPlayouts, Seed: p.Seed}
	if p.Progress != nil {
		var line []Move // the best line, a new slice at each improvement
		budget.Improved = func(_ float64, seq any) {
			gs := seq.([]Group)
			line = make([]Move, len(gs))
			for i, g := range gs {
				line[i] = g.Move()
			}
		}
		budget.Progress = func(best float64, s mcts.Stats) {
			sol := Solution{Moves: line, Nodes: s.Nodes, Playouts: s.Playouts, Elapsed: s.Elapsed}
			if b.rules == Dust {
				sol.Clicks, sol.Cleared = int(-best), true
			} else {
				sol.Score, sol.Clicks = int(best), len(line)
			}
			p.Progress(sol)
		}
	}
	repeat := p.Restart || hasDeadline || p.MaxPlayouts > 0
	var res mcts.Result[Group]
	var err error
	switch p.kind {
	case "nrpa":
		var roots []*Position
		if !tabu || p.tabuColors <= 1 {
			roots = []*Position{NewPosition(b, tabu)}
		} else {
			for _, c := range TabuCandidates(b, p.tabuColors) {
				roots = append(roots, newPositionTabu(b, c))
			}
		}
		for _, pos := range roots {
			pos.SetTabuPairs(p.tabuPairs)
			pos.SetMoveCode(p.moveCode)
			pos.SetPrior(p.priorLeft, p.priorSize)
			pos.SetTabuSecond(p.tabuSecond)
		}
		res, err = mcts.NRPARoots(ctx, roots, mcts.NRPAOptions{Budget: budget,
			Level: p.level, Iterations: p.iterations, Restart: repeat, Stabilize: p.stabilize, Portfolio: p.portfolio, Round: p.round, Alpha: p.alpha,
			Repeats: p.repeats, Prior: p.priorLeft != 0 || p.priorSize != 0})
	case "nmcs":
		res, err = mcts.NMCS(ctx, NewPosition(b, tabu), mcts.NMCSOptions[*Position, Group]{Budget: budget,
			Level: p.level, Repeat: repeat})
	default:
		to := mcts.TreeOptions[*Position, Group]{Budget: budget, Selection: mcts.SPMCTS}
		if tabu {
			to.Policy = NewTabuColorPolicy(b)
		}
		if !repeat {
			to.MaxIterations = 10000
		}
		res, err = mcts.Search(ctx, NewPosition(b, false), to)
	}
	sol := Solution{Moves: make([]Move, len(res.Moves)), Nodes: res.Stats.Nodes, Playouts: res.Stats.Playouts}
	for i, g := range res.Moves {
		sol.Moves[i] = g.Move()
	}
	if ferr := finish(b, &sol); ferr != nil {
		return sol, ferr
	}
	switch {
	case errors.Is(err, mcts.ErrBudget):
		err = fmt.Errorf("%w: %d playouts", ErrBudget, res.Stats.Playouts)
	case err != nil && ctx.Err() != nil:
		err = ctxErr(ctx.Err())
	}
	return sol, err
}

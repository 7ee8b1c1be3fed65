package samegame

import (
	"context"
	"errors"
	"fmt"

	"tessera/mcts"
)

// solveMC runs one of the Monte-Carlo searches of package mcts on b.
// Under Standard rules NRPA and NMCS see the tabu-colour move filter
// (unless opts.NoTabu) and SP-MCTS uses the TabuColor playout policy; Dust
// games run unfiltered. With opts.Restart, a deadline or a node budget,
// NRPA and NMCS restart and MCTS iterates until it ends; otherwise NRPA and
// NMCS run once and MCTS runs 10,000 iterations.
func solveMC(ctx context.Context, b *Board, opts Options) (Solution, error) {
	tabu := b.rules == Standard && !opts.NoTabu
	_, hasDeadline := ctx.Deadline()
	budget := mcts.Budget{MaxPlayouts: opts.MaxNodes, Seed: opts.Seed}
	if opts.Progress != nil {
		budget.Progress = func(best float64, s mcts.Stats) {
			p := Solution{Nodes: s.Nodes, Playouts: s.Playouts, Elapsed: s.Elapsed}
			if b.rules == Dust {
				p.Clicks, p.Cleared = int(-best), true
			} else {
				p.Score = int(best)
			}
			opts.Progress(p)
		}
	}
	repeat := opts.Restart || hasDeadline || opts.MaxNodes > 0
	var res mcts.Result[Group]
	var err error
	switch opts.Algorithm {
	case NRPA:
		res, err = mcts.NRPA(ctx, NewPosition(b, tabu), mcts.NRPAOptions{Budget: budget,
			Level: opts.Level, Iterations: opts.Iterations, Restart: repeat})
	case NMCS:
		res, err = mcts.NMCS(ctx, NewPosition(b, tabu), mcts.NMCSOptions[*Position, Group]{Budget: budget,
			Level: opts.Level, Repeat: repeat})
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

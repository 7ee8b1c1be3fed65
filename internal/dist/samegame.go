package dist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"tessera/internal/jobs"
	"tessera/samegame"
)

// NRPAKind is the job kind of a distributed NRPA's level-(L-1) search.
const NRPAKind = "samegame.nrpa"

func init() { jobs.Register(NRPAKind, nrpaHandler) }

// NRPAInput is the input of a samegame.nrpa job.
type NRPAInput struct {
	// Board is the board in digits, top row first (samegame.Format).
	Board string            `json:"board"`
	Rules string            `json:"rules"`
	Tabu  bool              `json:"tabu,omitempty"`
	Call  samegame.NRPACall `json:"call"`
}

// NRPAResult is the result of a samegame.nrpa job: the search's best
// clicks ("x,y x,y ...") and its score, with the work.
type NRPAResult struct {
	Moves    string `json:"moves"`
	Score    int    `json:"score"`
	Clicks   int    `json:"clicks"`
	Cleared  bool   `json:"cleared,omitempty"`
	Nodes    int64  `json:"nodes"`
	Playouts int64  `json:"playouts"`
}

func nrpaHandler(ctx context.Context, raw json.RawMessage, _ func(any)) (any, error) {
	var in NRPAInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, fmt.Errorf("samegame.nrpa: %w", err)
	}
	rules, err := samegame.ParseRules(in.Rules)
	if err != nil {
		return nil, fmt.Errorf("samegame.nrpa: %w", err)
	}
	b, err := samegame.ParseBoard(in.Board, rules)
	if err != nil {
		return nil, fmt.Errorf("samegame.nrpa: board: %w", err)
	}
	sol, err := samegame.SolveNRPACall(ctx, b, in.Tabu, in.Call)
	if err != nil && (ctx.Err() == nil || len(sol.Moves) == 0) {
		return nil, err
	}
	// At the time limit the best so far is the result.
	return NRPAResult{Moves: samegame.FormatMoves(sol.Moves), Score: sol.Score, Clicks: sol.Clicks, Cleared: sol.Cleared,
		Nodes: sol.Nodes, Playouts: sol.Playouts}, nil
}

// NRPA is the samegame.NRPAExecutor that runs every search of a round as
// a samegame.nrpa job on the workers of Client.
type NRPA struct {
	Client *jobs.Client
}

// RunNRPA implements samegame.NRPAExecutor.
func (x NRPA) RunNRPA(ctx context.Context, b *samegame.Board, tabu bool, calls []samegame.NRPACall) ([]samegame.Solution, error) {
	board := samegame.Format(b, samegame.Digits)
	sols := make([]samegame.Solution, len(calls))
	errs := make([]error, len(calls))
	var wg sync.WaitGroup
	for i, call := range calls {
		in := NRPAInput{Board: board, Rules: b.Rules().String(), Tabu: tabu, Call: call}
		wg.Add(1)
		go func() {
			defer wg.Done()
			raw, err := run(ctx, x.Client, NRPAKind, in, nrpaGrace, nil)
			if err != nil {
				errs[i] = err
				return
			}
			var out NRPAResult
			if err := json.Unmarshal(raw, &out); err != nil {
				errs[i] = fmt.Errorf("dist: samegame.nrpa result: %w", err)
				return
			}
			moves, err := samegame.ParseMoves(out.Moves)
			if err != nil {
				errs[i] = fmt.Errorf("dist: samegame.nrpa result: %w", err)
				return
			}
			// DistNRPA replays the clicks and checks the score.
			sols[i] = samegame.Solution{Moves: moves, Score: out.Score, Clicks: out.Clicks, Cleared: out.Cleared,
				Nodes: out.Nodes, Playouts: out.Playouts}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return sols, err
	}
	return sols, errors.Join(errs...)
}

var _ samegame.NRPAExecutor = NRPA{}

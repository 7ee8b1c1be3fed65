package relax

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"tessera/edgematch"
	"tessera/sdp"
)

// SDP is Kovalsky, Glasner and Basri's Algorithm 2 (section 5.2.2) on a
// square edge-matching puzzle with fixed orientation and no preset
// locations: each piece i has an unknown translation t_i in the plane, the
// equations are (9) with f_k(u) = e^{k·u} for every edge type (colour and
// axis) and |k| <= 2K, the frame is a static piece, and the SDPs (23) over
// the moment matrices Z_i of T_i = e^{t_i} (eq. 44) are reweighted by (24)
// from W_i = 0 until their objective is at most Epsilon. The translations
// (first moments) are rounded to the nearest cells; the puzzle is solved
// when they form a board that Score calls solved. The same construction
// as tangram.SDP (see its doc for the scale, bounds and restarts), which a
// family may not import. Rotations are not supported.
type SDP struct {
	Backend sdp.Solver // nil: sdp.IPM{}
	K       int        // degree of the monomials of Z_i (0: 2)
	Epsilon float64    // 0: 1e-6
	MaxIter int        // SDPs (0: 40)
	Stall   int        // restart after this many SDPs without a 1% fall (0: 3; < 0: never)
	Seed    uint64
	// OnIterate, when set, is called with every iterate's rounded board
	// (cells may repeat a piece or stay empty) and objective.
	OnIterate func(it int, b *edgematch.Board, objective float64)
}

// SDPStats describes Algorithm 2's iteration.
type SDPStats struct {
	Iterations, Restarts, Constraints int
	Objective                         float64
}

// SolveSDP runs Algorithm 2 and returns its statistics with the result.
func (a SDP) SolveSDP(ctx context.Context, p *edgematch.Puzzle) (edgematch.Result, SDPStats, error) {
	start := time.Now()
	var st SDPStats
	if err := p.Validate(); err != nil {
		return edgematch.Result{}, st, err
	}
	if !p.FixedOrientation || len(p.Hints) > 0 {
		return edgematch.Result{}, st, errors.New("edgematch: sdp: wants a puzzle with fixed orientation and no hints")
	}
	a.K = max(a.K, 0)
	if a.K == 0 {
		a.K = 2
	}
	m := newEMRelaxation(p, a.K)
	st.Constraints = len(m.Problem.Constraints)
	rng := rand.New(rand.NewPCG(a.Seed, 0x3d1))
	res := edgematch.Result{}
	loop := sdp.Reweighting{Backend: a.Backend, MaxIter: a.MaxIter, Epsilon: a.Epsilon, Stall: a.Stall,
		Restart: func() [][]float64 { st.Restarts++; return m.randomW(rng) }}.WithDefaults()
	err := loop.Run(ctx, m.MomentSDP, func(it sdp.Iterate) (bool, error) {
		b := m.board(p, it.Solution.X)
		st.Iterations, st.Objective = it.Iteration, it.Objective
		res.Board, res.Score = b, p.Score(b)
		if a.OnIterate != nil {
			a.OnIterate(it.Iteration, b, it.Objective)
		}
		return res.Score.Solved(), nil
	})
	res.Stats.Elapsed = time.Since(start)
	switch {
	case err == nil:
	case errors.Is(err, sdp.ErrMaxIter):
		err = fmt.Errorf("%w: sdp: %d iterations, objective %.3g", edgematch.ErrBudget, loop.MaxIter, st.Objective)
	case errors.Is(err, sdp.ErrRankOne):
		err = fmt.Errorf("edgematch: sdp: rank one after %d iterations but the rounded board scores %v", st.Iterations, res.Score)
	case ctx.Err() != nil:
		err = ctx.Err()
	default:
		err = fmt.Errorf("edgematch: sdp: %w", err)
	}
	return res, st, err
}

// Solve runs Algorithm 2 (Solver).
func (a SDP) Solve(ctx context.Context, p *edgematch.Puzzle) (edgematch.Result, error) {
	res, _, err := a.SolveSDP(ctx, p)
	return res, err
}

package sdp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// The errors with which Reweighting.Run ends short of a solution, besides
// the context's error, the visitor's and a backend's failure.
var (
	// ErrMaxIter: MaxIter SDPs were solved without a solution.
	ErrMaxIter = errors.New("sdp: reweighting: iteration limit")
	// ErrRankOne: the objective fell to Epsilon (every Z_i has rank one,
	// nearly) but the visitor did not accept the iterate: a local minimum
	// of the rank-one heuristic.
	ErrRankOne = errors.New("sdp: reweighting: rank one without a solution")
)

// Reweighting is the iteration of Algorithm 2 of Kovalsky, Glasner and
// Basri (eq. 23-24) on a MomentSDP: solve the SDP with the objective
// Σ_i <W_i, Z_i>, starting from W_i = 0, then set W_i = I - v_i v_iᵀ, v_i
// the top unit eigenvector of the new Z_i (RankOneWeight), and again,
// until the visitor accepts an iterate or the objective (the sum of every
// Z_i's eigenvalues but the largest) is at most Epsilon. When the objective
// has not fallen by 1% in Stall iterations, the weights restart from
// Restart() (a random rank-one point), which also breaks the symmetry of
// identical pieces. The paper is silent on restarts; Stall <= 0 is its
// plain iteration.
//
// The zero values of its parameters are the defaults that both families
// use (WithDefaults).
type Reweighting struct {
	Backend Solver  // nil: IPM{}
	MaxIter int     // SDPs at most (0: 40)
	Epsilon float64 // 0: 1e-6
	Stall   int     // 0: 3; negative: never restart
	// Restart returns W_i for every piece (n×n row-major each), for
	// example MomentSDP.Projector at a random point of each piece's box.
	// Required unless Stall is negative.
	Restart func() [][]float64
	// RankOneRestart: when the objective falls to Epsilon and the visitor
	// does not accept the iterate (a rank-one point that is not a
	// solution), restart from Restart() instead of returning ErrRankOne
	// (until MaxIter). Off: the paper's stop.
	RankOneRestart bool
}

// WithDefaults returns r with its zero parameters set to their defaults,
// the values Run uses (for messages that name them).
func (r Reweighting) WithDefaults() Reweighting {
	if r.Backend == nil {
		r.Backend = IPM{}
	}
	if r.MaxIter == 0 {
		r.MaxIter = 40
	}
	if r.Epsilon == 0 {
		r.Epsilon = 1e-6
	}
	if r.Stall == 0 {
		r.Stall = 3
	}
	return r
}

// Iterate is one iteration of a Reweighting.
type Iterate struct {
	Iteration int       // 1-based
	Solution  *Solution // the backend's, X[i] = Z_i for i < N
	Objective float64   // Σ_i <W_i, Z_i> with the next W_i, from these Z_i
	SolveTime time.Duration
}

// Run runs the iteration on m (m.Problem's objective is overwritten),
// calling visit after every SDP. It returns nil when visit says done, the
// visitor's error when it returns one, ErrMaxIter, ErrRankOne, the
// context's error (checked before every SDP, and when the backend fails),
// or the backend's error wrapped with the iteration ("iteration 3: ...").
// A backend's ErrBudget or ErrNumerical with an iterate is not a failure:
// the iterate is used. Cost: MaxIter SDPs at most, and an eigendecomposition
// of every Z_i after each.
func (r Reweighting) Run(ctx context.Context, m *MomentSDP, visit func(Iterate) (done bool, err error)) error {
	r = r.WithDefaults()
	var w [][]float64            // W_i, n×n row-major; nil: W = 0
	since, ref := 0, math.Inf(1) // iterations since the objective fell 1% below ref
	for it := 1; ; it++ {
		if it > r.MaxIter {
			return ErrMaxIter
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		m.Problem.C = BlockWeights(w, m.Size) // C = Σ_i W_i
		t0 := time.Now()
		sol, err := r.Backend.Solve(ctx, m.Problem)
		solveTime := time.Since(t0)
		if err != nil && (sol == nil || sol.X == nil || !errors.Is(err, ErrBudget) && !errors.Is(err, ErrNumerical)) {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("iteration %d: %w", it, err)
		}
		// Eigendecompositions, the next W (24) and the objective.
		w = make([][]float64, m.N)
		obj := 0.0
		for i := range m.N {
			wi, rest := RankOneWeight(sol.X[i])
			w[i], obj = wi, obj+rest
		}
		done, err := visit(Iterate{Iteration: it, Solution: sol, Objective: obj, SolveTime: solveTime})
		if err != nil || done {
			return err
		}
		if obj <= r.Epsilon {
			if !r.RankOneRestart || r.Restart == nil {
				return ErrRankOne
			}
			w = r.Restart()
			since, ref = 0, math.Inf(1)
			continue
		}
		if obj < 0.99*ref {
			since, ref = 0, obj
		} else if since++; r.Stall > 0 && since >= r.Stall {
			w = r.Restart()
			since, ref = 0, math.Inf(1)
		}
	}
}

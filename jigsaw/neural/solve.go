package neural

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"tessera/mcts"
)

// algorithm is how a solver value plays the reassembly game (MCTS,
// GreedyP, GreedyV in solver.go).
type algorithm uint8

const (
	// algoMCTS is Monte-Carlo tree search with PUCT selection, P's priors
	// and V's values (AlphaZero, as in Alphazzle).
	algoMCTS algorithm = iota
	// algoGreedyP puts every patch in the cell P prefers.
	algoGreedyP
	// algoGreedyV puts every patch in the cell whose reassembly V values
	// most.
	algoGreedyV
)

// Reward is what a complete reassembly is worth to the search.
type Reward uint8

const (
	// Predicted rewards a complete reassembly with V's estimate, as for
	// real fragments whose solution nobody knows.
	Predicted Reward = iota
	// GroundTruth rewards it with 1 when it is the true one, else 0 (an
	// oracle: the puzzle's truth must be known).
	GroundTruth
)

// String returns "predicted" or "gt".
func (r Reward) String() string {
	if r == GroundTruth {
		return "gt"
	}
	return "predicted"
}

// ParseReward reads "predicted" or "gt".
func ParseReward(s string) (Reward, error) {
	switch s {
	case "predicted":
		return Predicted, nil
	case "gt":
		return GroundTruth, nil
	}
	return 0, fmt.Errorf("neural: reward %q: want predicted or gt", s)
}

// Backup is how MCTS aggregates the values below a node: mean
// (AlphaZero) or max (one good line is enough for a single player); the
// engine's type.
type Backup = mcts.Backup

// The backups.
const (
	MeanBackup = mcts.MeanBackup
	MaxBackup  = mcts.MaxBackup
)

// Choice is how MCTS picks the action it plays after its simulations: the
// most visited child (AlphaZero) or the child of highest value; the
// engine's type.
type Choice = mcts.Choice

// The choices.
const (
	ByVisits = mcts.ByVisits
	ByValue  = mcts.ByValue
)

// Options configure the solvers. The zero value runs one MCTS attempt of
// 100 simulations per patch with c_puct 1.5, batches of 8 leaves, mean
// backup, actions by visits and predicted rewards. The greedy solvers use
// Reward, Attempts, Seed and Hybrid only.
type Options struct {
	Reward Reward
	// Sims is the number of MCTS simulations (leaf evaluations) before
	// each placement (default 100).
	Sims int
	// CPuct weighs P's prior against the value in PUCT (default 1.5).
	CPuct float64
	// Batch is the number of leaves evaluated together (default 8); the
	// leaves of a batch are chosen with virtual losses.
	Batch  int
	Backup Backup
	Choice Choice
	// Attempts is the number of games played, the first with the patch
	// order given, the others with orders reshuffled from Seed; the answer
	// is the complete reassembly V values most (default 1).
	Attempts int
	// Seed drives the reshuffled orders.
	Seed uint64
	// Hybrid, when positive, multiplies P's priors by the classic
	// compatibilities (CompatTable, Hybrid) with this weight: no longer a
	// purely learned solver.
	Hybrid float64
	// Visit, when set, is called with every state MCTS evaluates (the
	// states fine-tuning learns from). It must not keep s.
	Visit func(s *State)
}

func (o Options) defaults() Options {
	if o.Sims <= 0 {
		o.Sims = 100
	}
	if o.CPuct <= 0 {
		o.CPuct = 1.5
	}
	if o.Batch <= 0 {
		o.Batch = 8
	}
	if o.Attempts <= 0 {
		o.Attempts = 1
	}
	return o
}

// Result is a solver's answer.
type Result struct {
	// Cells[i] is the cell chosen for patch i.
	Cells []int
	// Value is V's estimate of the answer; Reward its ground-truth reward
	// (1 solved, 0 not; -1 when the truth is unknown).
	Value, Reward float64
	// Attempt is the attempt (0-based) that gave the answer.
	Attempt int
	// Evaluations counts the states given to P or V, Batches the network
	// calls.
	Evaluations, Batches int64
	Elapsed              time.Duration
}

// Solve reassembles pz with the model's networks. The reward GroundTruth
// needs pz.Truth. Cost: one pair-network call over 2n(n-1) pairs, then per
// attempt and per patch Sims leaf evaluations (MCTS), one (GreedyP) or n
// (GreedyV). Stopped by ctx, it returns the best answer so far (possibly
// none) with the context's error.
func Solve(ctx context.Context, m *Model, pz *Puzzle, opts Options) (Result, error) {
	return solveWith(ctx, m, pz, opts, algoMCTS)
}

// solveWith is Solve playing algo.
func solveWith(ctx context.Context, m *Model, pz *Puzzle, opts Options, algo algorithm) (Result, error) {
	start := time.Now()
	opts = opts.defaults()
	if err := m.Fits(pz.Geometry); err != nil {
		return Result{}, err
	}
	if opts.Reward == GroundTruth && pz.Truth == nil {
		return Result{}, fmt.Errorf("neural: the ground-truth reward needs the puzzle's solution")
	}
	t, err := m.Table(pz)
	if err != nil {
		return Result{}, err
	}
	ev := m.Heads[pz.Grid].Evaluator(t, pz.Grid)
	if opts.Hybrid > 0 {
		ct, err := CompatTable(ctx, pz, compatScale)
		if err != nil {
			return Result{}, err
		}
		ev = Hybrid(ev, ct, pz.Grid, opts.Hybrid)
	}
	res, err := searchWith(ctx, ev, pz, opts, algo)
	res.Elapsed = time.Since(start)
	return res, err
}

// Evaluator gives the search its priors and values: the P and V heads
// over a puzzle's table (Heads.Evaluator), or any other estimator, such
// as an oracle in tests.
type Evaluator interface {
	// Priors returns for each state (none done) a weight per cell (0 for
	// occupied cells) for putting the next patch there; the search
	// normalises them (uniform when they sum to 0).
	Priors(states []*State) ([][]float64, error)
	// Values returns for each state the estimated probability that it is,
	// or can still become, the correct reassembly.
	Values(states []*State) ([]float64, error)
}

// Evaluator returns the heads as an Evaluator of the puzzle of table t.
func (h Heads) Evaluator(t *Table, grid int) Evaluator {
	return headsEval{h, t, grid}
}

type headsEval struct {
	h    Heads
	t    *Table
	grid int
}

func (e headsEval) Priors(states []*State) ([][]float64, error) {
	return e.h.Priors(e.t, states, e.grid)
}
func (e headsEval) Values(states []*State) ([]float64, error) { return e.h.Values(e.t, states, e.grid) }

// Search plays the reassembly game of pz with the evaluator (see Solve),
// whose work it counts.
func Search(ctx context.Context, ev Evaluator, pz *Puzzle, opts Options) (Result, error) {
	return searchWith(ctx, ev, pz, opts, algoMCTS)
}

// searchWith is Search playing algo.
func searchWith(ctx context.Context, ev Evaluator, pz *Puzzle, opts Options, algo algorithm) (Result, error) {
	start := time.Now()
	opts = opts.defaults()
	if opts.Reward == GroundTruth && pz.Truth == nil {
		return Result{}, fmt.Errorf("neural: the ground-truth reward needs the puzzle's solution")
	}
	n := pz.Cells()
	rng := rand.New(rand.NewPCG(opts.Seed, 0x6174746d))
	best := Result{Value: math.Inf(-1), Reward: -1}
	var stats Result
	for k := range opts.Attempts {
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		if k > 0 {
			rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		g := &game{eval: ev, pz: pz, opts: opts, algo: algo, ctx: ctx}
		s, val, err := g.play(NewState(order))
		stats.Evaluations += g.evals
		stats.Batches += g.batches
		if s != nil {
			r := -1.0
			if pz.Truth != nil {
				r = s.Reward(pz.Truth)
			}
			better := val > best.Value
			if opts.Reward == GroundTruth && r != best.Reward {
				better = r > best.Reward
			}
			if better {
				best.Cells, best.Value, best.Reward, best.Attempt = s.Cells(), val, r, k
			}
		}
		if err != nil {
			best.Evaluations, best.Batches, best.Elapsed = stats.Evaluations, stats.Batches, time.Since(start)
			return best, fmt.Errorf("neural: %w", err)
		}
		if opts.Reward == GroundTruth && best.Reward == 1 {
			break // the oracle says solved: more attempts cannot do better
		}
	}
	best.Evaluations, best.Batches, best.Elapsed = stats.Evaluations, stats.Batches, time.Since(start)
	return best, nil
}

// game plays one attempt.
type game struct {
	eval           Evaluator
	pz             *Puzzle
	opts           Options
	algo           algorithm
	ctx            context.Context
	evals, batches int64
}

func (g *game) priors(states []*State) ([][]float64, error) {
	g.evals += int64(len(states))
	g.batches++
	return g.eval.Priors(states)
}

func (g *game) values(states []*State) ([]float64, error) {
	g.evals += int64(len(states))
	g.batches++
	return g.eval.Values(states)
}

// play plays s to the end and returns the final state and V's value of it.
func (g *game) play(s *State) (*State, float64, error) {
	switch g.algo {
	case algoGreedyP:
		var legal []int
		for !s.Done() {
			if err := g.ctx.Err(); err != nil {
				return nil, 0, err
			}
			pr, err := g.priors([]*State{s})
			if err != nil {
				return nil, 0, err
			}
			legal = s.Legal(legal[:0])
			bc := legal[0]
			for _, c := range legal {
				if pr[0][c] > pr[0][bc] {
					bc = c
				}
			}
			s.Play(bc)
		}
	case algoGreedyV:
		var legal []int
		var kids []*State
		for !s.Done() {
			if err := g.ctx.Err(); err != nil {
				return nil, 0, err
			}
			legal = s.Legal(legal[:0])
			kids = kids[:0]
			for _, c := range legal {
				k := s.Clone()
				k.Play(c)
				kids = append(kids, k)
			}
			v, err := g.values(kids)
			if err != nil {
				return nil, 0, err
			}
			bi := 0
			for i := range v {
				if v[i] > v[bi] {
					bi = i
				}
			}
			s.Play(legal[bi])
		}
	default:
		return g.mcts(s)
	}
	v, err := g.values([]*State{s})
	if err != nil {
		return nil, 0, err
	}
	return s, v[0], nil
}

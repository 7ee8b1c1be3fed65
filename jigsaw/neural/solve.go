package neural

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
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
	// Neighbours rewards it with the share of true neighbours it keeps
	// (Puzzle.Score's Neighbor; an oracle, fractional).
	Neighbours
	// Patches rewards it with the share of patches in their true cell
	// (Puzzle.Score's Patch; an oracle, fractional).
	Patches
)

var rewardNames = [...]string{Predicted: "predicted", GroundTruth: "gt", Neighbours: "neighbours", Patches: "patches"}

// String returns "predicted", "gt", "neighbours" or "patches".
func (r Reward) String() string { return enumName(rewardNames[:], r, "Reward") }

// Oracle reports whether the reward needs the puzzle's truth.
func (r Reward) Oracle() bool { return r != Predicted }

// ParseReward reads "predicted", "gt", "neighbours" or "patches" ("":
// predicted).
func ParseReward(s string) (Reward, error) { return parseEnum[Reward](rewardNames[:], "reward", s) }

// of returns the oracle reward of the complete reassembly s of pz.
func (r Reward) of(s *State, pz *Puzzle) float64 {
	switch r {
	case Neighbours:
		return pz.Score(s.Cells()).Neighbor
	case Patches:
		return pz.Score(s.Cells()).Patch
	}
	return s.Reward(pz.Truth)
}

// Prior is where MCTS takes its priors from.
type Prior uint8

const (
	// PriorP takes them from the policy network P.
	PriorP Prior = iota
	// PriorUniform gives every legal move the same prior (P is never
	// called): Alphazzle's "P replaced by a unit vector" (Table 9).
	PriorUniform
)

// ParsePrior reads "p" or "uniform" ("": p).
func ParsePrior(s string) (Prior, error) { return parseEnum[Prior](priorNames[:], "prior", s) }

var priorNames = [...]string{PriorP: "p", PriorUniform: "uniform"}

// String returns "p" or "uniform".
func (p Prior) String() string { return enumName(priorNames[:], p, "Prior") }

// ValueMode is where MCTS takes its values from: V, or a constant (1, as
// in Alphazzle's Appendix C) at the end of the game (the predicted reward
// of a complete reassembly), during it (the value of an unfinished one),
// or both. With PriorP and PriorUniform they make Table 9's eight rows.
type ValueMode uint8

const (
	// ValueV values every state with V.
	ValueV ValueMode = iota
	// ValueConstEnd values complete reassemblies with the constant (the
	// predicted reward is deactivated), unfinished ones with V.
	ValueConstEnd
	// ValueConstGame values unfinished reassemblies with the constant,
	// complete ones with V.
	ValueConstGame
	// ValueConst never calls V: every state is worth the constant.
	ValueConst
)

// ValueConstant is the value that replaces V in the constant modes.
const ValueConstant = 1.0

var valueNames = [...]string{ValueV: "v", ValueConstEnd: "const-end", ValueConstGame: "const-game", ValueConst: "const"}

// String returns "v", "const-end", "const-game" or "const".
func (v ValueMode) String() string { return enumName(valueNames[:], v, "ValueMode") }

// ParseValueMode reads "v", "const-end", "const-game" or "const" ("": v).
func ParseValueMode(s string) (ValueMode, error) {
	return parseEnum[ValueMode](valueNames[:], "value", s)
}

// EndByV reports whether V values complete reassemblies (the predicted
// reward), GameByV whether it values unfinished ones.
func (v ValueMode) EndByV() bool  { return v == ValueV || v == ValueConstGame }
func (v ValueMode) GameByV() bool { return v == ValueV || v == ValueConstEnd }

// Selection is MCTS's rule for descending the tree: PUCT (AlphaZero, with
// P's priors; the default), UCT or SP-MCTS (package mcts's rules, which
// ignore the priors).
type Selection uint8

const (
	SelectPUCT Selection = iota
	SelectUCT
	SelectSPMCTS
)

var selectNames = [...]string{SelectPUCT: "puct", SelectUCT: "uct", SelectSPMCTS: "spmcts"}

// String returns "puct", "uct" or "spmcts".
func (s Selection) String() string { return enumName(selectNames[:], s, "Selection") }

// ParseSelection reads "puct", "uct" or "spmcts" ("": puct).
func ParseSelection(s string) (Selection, error) {
	return parseEnum[Selection](selectNames[:], "selection", s)
}

func (s Selection) engine() mcts.Selection {
	return [...]mcts.Selection{SelectPUCT: mcts.PUCT, SelectUCT: mcts.UCT, SelectSPMCTS: mcts.SPMCTS}[s]
}

// Judge is how the answers of several attempts are compared: by V's
// value of each complete reassembly (JudgeV, the paper's choice), by the
// pair network's geometric-mean likelihood of its adjacencies
// (JudgePairs: exp of the mean, over the pairs of neighbouring patches, of
// (log P(b | a) + log P(a | b)) / 2 from the puzzle's Table), or by the
// product of both (JudgeBoth). Table 10 shows V's choice well below the
// best attempt; the pairs are a second, independent opinion.
type Judge uint8

const (
	JudgeV Judge = iota
	JudgePairs
	JudgeBoth
)

var judgeNames = [...]string{JudgeV: "v", JudgePairs: "pairs", JudgeBoth: "both"}

// String returns "v", "pairs" or "both".
func (j Judge) String() string { return enumName(judgeNames[:], j, "Judge") }

// ParseJudge reads "v", "pairs" or "both" ("": v).
func ParseJudge(s string) (Judge, error) { return parseEnum[Judge](judgeNames[:], "judge", s) }

// PairScore is the pair network's geometric-mean likelihood of the
// adjacencies of s's reassembly (JudgePairs): exp of the mean over every
// two horizontally or vertically neighbouring occupied cells, patch a
// left of (or above) patch b, of (Fwd + Bwd) / 2; 1 when s has no such
// pair. s's patches must be those of t.
func (t *Table) PairScore(s *State, grid int) float64 {
	sum, k := 0.0, 0
	for c := range grid * grid {
		a := int(s.At[c])
		if a < 0 {
			continue
		}
		for d := range 2 {
			nc := c + 1
			if d == Below {
				nc = c + grid
			}
			if (d == Right && c%grid == grid-1) || nc >= grid*grid || s.At[nc] < 0 {
				continue
			}
			i := a*t.N + int(s.At[nc])
			sum += float64(t.Fwd[d][i]+t.Bwd[d][i]) / 2
			k++
		}
	}
	if k == 0 {
		return 1
	}
	return math.Exp(sum / float64(k))
}

// Order is how the game orders the patches.
type Order uint8

const (
	// OrderFixed places the patches in a fixed order (reshuffled per
	// attempt); a move chooses the cell.
	OrderFixed Order = iota
	// OrderFree lets a move choose the patch and its cell (n^2 moves on
	// an empty board of n cells); P is asked about every patch not placed.
	OrderFree
)

// ParseOrder reads "fixed" or "free" ("": fixed).
func ParseOrder(s string) (Order, error) { return parseEnum[Order](orderNames[:], "order", s) }

var orderNames = [...]string{OrderFixed: "fixed", OrderFree: "free"}

// String returns "fixed" or "free".
func (o Order) String() string { return enumName(orderNames[:], o, "Order") }

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
// 100 simulations per patch with PUCT (c_puct 1.5), P's priors and V's
// values, batches of 8 leaves, mean backup, actions by visits, the
// patches in a fixed order, no hints and predicted rewards. The greedy
// solvers use Reward, Attempts, Seed, Hybrid, Hints, CentralHint and
// Order only.
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
	// is the complete reassembly V values most (default 1); with an
	// oracle reward, the one it rewards most (and the attempts stop at a
	// perfect one).
	Attempts int
	// Judge is what compares the attempts' answers (default V's value;
	// the pair network's likelihood needs Solve's table).
	Judge Judge
	// Seed drives the reshuffled orders and the hints.
	Seed uint64
	// Hybrid, when positive, multiplies P's priors by the classic
	// compatibilities (CompatTable, Hybrid) with this weight: no longer a
	// purely learned solver.
	Hybrid float64
	// Prior is where the priors come from: P, or uniform (Table 9).
	Prior Prior
	// Value is where the values come from: V, or the constant
	// ValueConstant at the end of the game, during it, or both (Table 9).
	// A constant at the end needs the predicted reward.
	Value ValueMode
	// Selection is the tree's rule: PUCT (default), UCT or SP-MCTS.
	Selection Selection
	// C is the exploration constant of UCT and SP-MCTS (0: package mcts's
	// defaults, 0.7 and 0.5); D SP-MCTS's variance constant (0: 0.01, for
	// values in [0, 1]).
	C, D float64
	// Hints is the number of patches placed in their true cell before the
	// game (drawn from Seed, the same for every attempt; needs the truth);
	// they are never moved. With CentralHint the first hint is the patch
	// of the central cell (odd grids), Alphazzle's "central hint".
	Hints       int
	CentralHint bool
	// Order is the game: patches in a fixed order (default) or chosen by
	// the search with their cell (OrderFree).
	Order Order
	// Visit, when set, is called with every state MCTS evaluates (the
	// states fine-tuning learns from). It must not keep s.
	Visit func(s *State)
	// OnStep, when set, is called by MCTS before every placement with the
	// root's statistics (Step: priors, visits, values, V's estimate), for
	// a caller that shows the search; the answer is the same without it.
	OnStep func(Step)
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
	if o.D <= 0 {
		o.D = 0.01
	}
	if o.CentralHint && o.Hints < 1 {
		o.Hints = 1
	}
	return o
}

// check reports options that contradict each other or the puzzle.
func (o Options) check(pz *Puzzle, algo algorithm) error {
	if o.Reward.Oracle() && pz.Truth == nil {
		return fmt.Errorf("neural: the %s reward needs the puzzle's solution", o.Reward)
	}
	if !o.Value.EndByV() && o.Reward != Predicted {
		return fmt.Errorf("neural: value %s replaces the predicted reward, not the %s one", o.Value, o.Reward)
	}
	if !pz.Fragments && pz.Patches != nil && len(pz.Patches) != pz.Cells() {
		return fmt.Errorf("neural: %d patches for %d cells: a puzzle of fragments (Puzzle.Fragments) may have any number", len(pz.Patches), pz.Cells())
	}
	if pz.Fragments && (o.Hints > 0 || o.Order == OrderFree || o.Hybrid > 0 || algo != algoMCTS && algo != algoGreedyP && algo != algoGreedyV) {
		return fmt.Errorf("neural: a puzzle of fragments takes no hints, no unordered game and no hybrid")
	}
	if o.Hints < 0 || o.Hints >= pz.Cells() {
		return fmt.Errorf("neural: %d hints for %d patches: want 0 to %d", o.Hints, pz.Cells(), pz.Cells()-1)
	}
	if o.Hints > 0 && pz.Truth == nil {
		return fmt.Errorf("neural: hints need the puzzle's solution")
	}
	if o.CentralHint && pz.Grid%2 == 0 {
		return fmt.Errorf("neural: a %dx%d grid has no central cell", pz.Grid, pz.Grid)
	}
	if algo == algoGreedyV && o.Value != ValueV {
		return fmt.Errorf("neural: greedy V needs V's values (value %s)", o.Value)
	}
	if algo == algoGreedyP && o.Prior != PriorP {
		return fmt.Errorf("neural: greedy P needs P's priors (prior %s)", o.Prior)
	}
	if o.Judge > JudgeBoth || o.Selection > SelectSPMCTS || o.Value > ValueConst || o.Prior > PriorUniform || o.Order > OrderFree || o.Reward > Patches {
		return fmt.Errorf("neural: unknown option value")
	}
	return nil
}

// Result is a solver's answer.
type Result struct {
	// Cells[i] is the cell chosen for patch i.
	Cells []int
	// Value is V's estimate of the answer (ValueConstant when the value
	// mode keeps V from valuing complete reassemblies; with Options.Judge
	// pairs or both, what the judge gave it); Reward its
	// ground-truth reward (1 solved, 0 not; -1 when the truth is unknown).
	Value, Reward float64
	// Attempt is the attempt (0-based) that gave the answer.
	Attempt int
	// Attempts are every attempt's answer, in order (Table 10 compares
	// the answer with the worst and the best of them by the truth).
	Attempts []Attempt
	// Evaluations counts the states given to P or V, Batches the network
	// calls.
	Evaluations, Batches int64
	Elapsed              time.Duration
}

// Attempt is the answer of one attempt.
type Attempt struct {
	Cells []int
	// Value is what the attempts are compared by (as Result.Value).
	Value float64
}

// Solve reassembles pz with the model's networks. The oracle rewards and
// the hints need pz.Truth. Cost: one pair-network call over 2n(n-1)
// pairs, then per attempt and per patch Sims leaf evaluations (MCTS), one
// (GreedyP) or n (GreedyV); in the unordered game P reads every patch not
// placed yet for every leaf. Stopped by ctx, it returns the best answer
// so far (possibly none) with the context's error.
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
	if err := opts.check(pz, algo); err != nil {
		return Result{}, err
	}
	t, err := m.Table(pz)
	if err != nil {
		return Result{}, err
	}
	ev := m.Heads[pz.Grid].Evaluator(t, pz.Grid)
	if pz.Fragments {
		fh, ok := m.Frag[pz.Grid]
		if !ok {
			return Result{}, fmt.Errorf("neural: the model has no heads for %dx%d puzzles of fragments", pz.Grid, pz.Grid)
		}
		ev = fragEval{fh, t, pz.Grid}
	}
	if opts.Hybrid > 0 {
		ct, err := CompatTable(ctx, pz, compatScale)
		if err != nil {
			return Result{}, err
		}
		ev = Hybrid(ev, ct, pz.Grid, opts.Hybrid)
	}
	res, err := searchJudged(ctx, ev, pz, opts, algo, t)
	res.Elapsed = time.Since(start)
	return res, err
}

// Evaluator gives the search its priors and values: the P and V heads
// over a puzzle's table (Heads.Evaluator), or any other estimator, such
// as an oracle in tests.
type Evaluator interface {
	// Priors returns for each state (none done) a weight per cell (0 for
	// occupied cells) for putting the next patch there, and in the game
	// of fragments one more for setting it aside; the search normalises
	// them (uniform when they sum to 0).
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

// HintPatches returns the patches opts places before the game (Hints of
// them, in their true cells): with CentralHint the patch of the central
// cell first, the others drawn from Seed. pz must have its truth.
func HintPatches(pz *Puzzle, opts Options) []int {
	opts = opts.defaults()
	if opts.Hints <= 0 {
		return nil
	}
	perm := hintOrder(pz, rand.New(rand.NewPCG(opts.Seed, 0x68696e74)), hintSpec{central: opts.CentralHint})
	return perm[:min(opts.Hints, len(perm))]
}

// startState returns the first state of a game with the order order: the
// hints first in the order, placed in their true cells.
func startState(pz *Puzzle, order, hints []int, free bool) *State {
	if len(hints) > 0 {
		rest := make([]int, 0, len(order))
		for _, p := range order {
			if !slices.Contains(hints, p) {
				rest = append(rest, p)
			}
		}
		order = append(append([]int(nil), hints...), rest...)
	}
	var s *State
	switch {
	case pz.Fragments:
		s = NewFragmentState(order, pz.Cells())
	case free:
		s = NewFreeState(order)
	default:
		s = NewState(order)
	}
	for range hints {
		s.Play(pz.Truth[s.Next()])
	}
	return s
}

// searchWith is Search playing algo.
func searchWith(ctx context.Context, ev Evaluator, pz *Puzzle, opts Options, algo algorithm) (Result, error) {
	return searchJudged(ctx, ev, pz, opts, algo, nil)
}

// searchJudged is searchWith with the puzzle's pair table t, which
// JudgePairs and JudgeBoth need.
func searchJudged(ctx context.Context, ev Evaluator, pz *Puzzle, opts Options, algo algorithm, t *Table) (Result, error) {
	start := time.Now()
	opts = opts.defaults()
	if err := opts.check(pz, algo); err != nil {
		return Result{}, err
	}
	if opts.Judge != JudgeV && t == nil {
		return Result{}, fmt.Errorf("neural: judge %s needs the pair network's table (Solve, not Search)", opts.Judge)
	}
	n := pz.Cells()
	if pz.Fragments {
		n = len(pz.Patches)
	}
	rng := rand.New(rand.NewPCG(opts.Seed, 0x6174746d))
	hints := HintPatches(pz, opts)
	best := Result{Value: math.Inf(-1), Reward: -1}
	bestOracle := math.Inf(-1)
	var stats Result
	for k := range opts.Attempts {
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		if k > 0 {
			rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		g := &game{eval: ev, pz: pz, opts: opts, algo: algo, ctx: ctx, attempt: k}
		s, val, err := g.play(startState(pz, order, hints, opts.Order == OrderFree))
		stats.Evaluations += g.evals
		stats.Batches += g.batches
		if s != nil && opts.Judge != JudgeV {
			ps := t.PairScore(s, pz.Grid)
			if opts.Judge == JudgePairs {
				val = ps
			} else {
				val *= ps
			}
		}
		if s != nil {
			best.Attempts = append(best.Attempts, Attempt{Cells: s.Cells(), Value: val})
			r := -1.0
			if pz.Truth != nil {
				r = s.Reward(pz.Truth)
			}
			better := val > best.Value
			if opts.Reward.Oracle() {
				if o := opts.Reward.of(s, pz); o != bestOracle {
					better = o > bestOracle
				}
			}
			if better {
				best.Cells, best.Value, best.Reward, best.Attempt = s.Cells(), val, r, k
				if opts.Reward.Oracle() {
					bestOracle = opts.Reward.of(s, pz)
				}
			}
		}
		if err != nil {
			best.Evaluations, best.Batches, best.Elapsed = stats.Evaluations, stats.Batches, time.Since(start)
			return best, fmt.Errorf("neural: %w", err)
		}
		if opts.Reward.Oracle() && bestOracle == 1 {
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
	attempt        int // 0-based, for Options.OnStep
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

// movePriors returns P's weight of every move of each unfinished state
// (moves[i] the moves of states[i], as State.Moves lists them): in the
// unordered game P is asked about every patch not placed yet (one state
// per patch, State.WithNext), all in one call.
func (g *game) movePriors(states []*State, moves [][]int) ([][]float64, error) {
	out := make([][]float64, len(states))
	if g.opts.Order != OrderFree {
		pri, err := g.priors(states)
		if err != nil {
			return nil, err
		}
		for i := range states {
			out[i] = make([]float64, len(moves[i]))
			for j, c := range moves[i] {
				out[i][j] = pri[i][c]
			}
		}
		return out, nil
	}
	n := g.pz.Cells()
	var asked []*State
	first := make([]int, len(states)) // index in asked of states[i]'s patch Order[Placed]
	for i, s := range states {
		first[i] = len(asked)
		for _, p := range s.Order[s.Placed:] {
			asked = append(asked, s.WithNext(p))
		}
	}
	pri, err := g.priors(asked)
	if err != nil {
		return nil, err
	}
	for i, s := range states {
		out[i] = make([]float64, len(moves[i]))
		at := map[int]int{}
		for k, p := range s.Order[s.Placed:] {
			at[p] = first[i] + k
		}
		for j, m := range moves[i] {
			out[i][j] = pri[at[m/n]][m%n]
		}
	}
	return out, nil
}

// endValue is what the complete reassembly s is worth to the search: the
// oracle reward, V's prediction, or the constant.
func (g *game) endValue(s *State) (float64, error) {
	if g.opts.Reward.Oracle() {
		return g.opts.Reward.of(s, g.pz), nil
	}
	return g.answerValue(s)
}

// answerValue is the value attempts are compared by: V's estimate of the
// complete reassembly s, or the constant when V does not value the end.
func (g *game) answerValue(s *State) (float64, error) {
	if !g.opts.Value.EndByV() {
		return ValueConstant, nil
	}
	v, err := g.values([]*State{s})
	if err != nil {
		return 0, err
	}
	return v[0], nil
}

// play plays s to the end and returns the final state and its value
// (answerValue).
func (g *game) play(s *State) (*State, float64, error) {
	switch g.algo {
	case algoGreedyP:
		var moves []int
		for !s.Done() {
			if err := g.ctx.Err(); err != nil {
				return nil, 0, err
			}
			moves = s.Moves(moves[:0])
			pr, err := g.movePriors([]*State{s}, [][]int{moves})
			if err != nil {
				return nil, 0, err
			}
			bj := 0
			for j := range moves {
				if pr[0][j] > pr[0][bj] {
					bj = j
				}
			}
			s.PlayMove(moves[bj])
		}
	case algoGreedyV:
		var moves []int
		var kids []*State
		for !s.Done() {
			if err := g.ctx.Err(); err != nil {
				return nil, 0, err
			}
			moves = s.Moves(moves[:0])
			kids = kids[:0]
			for _, m := range moves {
				k := s.Clone()
				k.PlayMove(m)
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
			s.PlayMove(moves[bi])
		}
	default:
		return g.mcts(s)
	}
	v, err := g.answerValue(s)
	if err != nil {
		return nil, 0, err
	}
	return s, v, nil
}

// enumName returns the name of v, one of an option's values, or
// typ(v) for a value out of range.
func enumName[T ~uint8](names []string, v T, typ string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, uint8(v))
}

// parseEnum reads one of names as its index, "" as the first (the
// option's default); what names the option in the error.
func parseEnum[T ~uint8](names []string, what, s string) (T, error) {
	if s == "" {
		return 0, nil
	}
	for v, name := range names {
		if s == name {
			return T(v), nil
		}
	}
	want := strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	return 0, fmt.Errorf("neural: %s %q: want %s", what, s, want)
}

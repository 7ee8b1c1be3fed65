package catalog

import (
	"fmt"
	"math"

	"tessera/samegame"
	"tessera/samegame/policy"
)

// SameGameOptions are the samegame solvers' options: plain data that
// travels as JSON (a job's spec, the web's forms), each field's json tag its
// name and, with '-' for '_', its flag (BindFlags); the zero value gives
// every solver its defaults. Each solver reads the fields its entry's Reads
// lists.
type SameGameOptions struct {
	Order          samegame.Ordering `json:"order,omitempty" help:"dfs move order: shortlook, largest or lookahead"`
	LookaheadPlies int               `json:"lookahead,omitempty" help:"dfs with -order shortlook: plies ordered by lookahead (default 6)"`
	TableBits      int               `json:"table_bits,omitempty" help:"exact (default 23) and dfs on dust boards (default 22): a table of 2^N entries of 8 bytes"`
	Width          int               `json:"width,omitempty" help:"beam width (default 1000; nn-beam 2000)"`
	Level          int               `json:"level,omitempty" help:"nesting level of nmcs (default 2) and nrpa (default 3)"`
	Iterations     int               `json:"iterations,omitempty" help:"nrpa iterations per level (default 100); nn-mcts tree iterations per click (default 200)"`
	Nodes          int64             `json:"nodes,omitempty" help:"stop after this many nodes (dfs, exact, beam) or playouts (mcts, nmcs, nrpa); 0: no limit"`
	Seed           uint64            `json:"seed,string,omitempty" applies:"all" help:"random seed: the same seed gives the same result"`
	NoTabu         bool              `json:"no_tabu,omitempty" help:"standard rules: let the Monte-Carlo searches break up the largest colour"`
	TabuPairs      bool              `json:"tabu_pairs,omitempty" help:"nrpa, standard rules: after 10 clicks, let the largest colour's groups of two be clicked"`
	Stabilize      int               `json:"stabilize,omitempty" help:"nrpa: playouts of a level-1 iteration before its policy adapts (stabilized NRPA; 0 or 1: plain NRPA)"`
	Portfolio      int               `json:"portfolio,omitempty" help:"nrpa: race this many top-level searches, halving them every -round iterations (0 or 1: one search)"`
	Round          int               `json:"round,omitempty" help:"nrpa -portfolio: a member's iterations between two cuts (default 5)"`
	MoveCode       string            `json:"move_code,omitempty" help:"nrpa: the policy's move code: cells (the default: colour and exact cells, Cazenave's Zobrist code) or anchor (colour, the clicked anchor cell and the size up to 8)"`
	TabuColors     int               `json:"tabu_colors,omitempty" help:"nrpa, standard rules: race the search over up to N colours kept for last (those tied with the largest colour), one a portfolio member in turn (with -dist: one a restart in turn; 0 or 1: the lowest largest colour)"`
	PriorLeft      float64           `json:"prior_left,omitempty" help:"nrpa: generalized NRPA prior: a move weighs exp(-K*L/mean) more, L the cells of its colour left, mean a colour's cells at the start (K > 0: clear the rare colours first; 0: none)"`
	PriorSize      float64           `json:"prior_size,omitempty" help:"nrpa: generalized NRPA prior: a group of n cells weighs n^K more (K < 0: small groups first; 0: none)"`
	TabuSecond     bool              `json:"tabu_second,omitempty" help:"nrpa, standard rules: keep the next largest colour together too, for second-last (its groups hidden unless whole, or only the two colours are left)"`
	Alpha          float64           `json:"alpha,omitempty" help:"nrpa: the learning rate of the policy's adaptation (0: 1, Rosin's)"`
	Repeats        int               `json:"repeats,omitempty" help:"nrpa: a level ends once its best sequence came back N times (limited repetitions, Cazenave 2024; 0: no limit)"`
	// Restart keeps the Monte-Carlo searches going until their context
	// ends (a CPU budget has no deadline to tell them); front ends set it
	// when the solve has a budget.
	Restart bool   `json:"restart,omitempty" flag:"-"`
	Model   string `json:"model,omitempty" help:"nn, nn-after, nn-value, nn-beam, nn-mcts: the network file (default: the shipped dust network, for nn-after the shipped afterstate network)"`
	Views   int    `json:"views,omitempty" help:"nn-after: symmetric views of each board whose ratings are averaged (2: and its mirror image; up to 10; default 1)"`
	Dist    int    `json:"dist,omitempty" help:"nrpa: distributed NRPA (Negrevergne and Cazenave): the root level here, N level-(L-1) searches at a time (0: the single-process NRPA)"`
}

// Check reports options out of range, naming the flag.
func (o SameGameOptions) Check() error {
	switch {
	case o.Level < 0 || o.Level > 10:
		return fmt.Errorf("-level %d out of range (0 to 10)", o.Level)
	case o.Iterations < 0 || o.Width < 0 || o.Nodes < 0 || o.Dist < 0 || o.LookaheadPlies < 0:
		return fmt.Errorf("-iterations, -width, -nodes, -dist and -lookahead must not be negative")
	case o.Stabilize < 0 || o.Stabilize > 1000:
		return fmt.Errorf("-stabilize %d out of range (0 to 1000)", o.Stabilize)
	case o.Repeats < 0 || o.Repeats > 1000000:
		return fmt.Errorf("-repeats %d out of range (0 to 1000000)", o.Repeats)
	case math.Abs(o.PriorLeft) > 20 || math.Abs(o.PriorSize) > 20 || o.PriorLeft != o.PriorLeft || o.PriorSize != o.PriorSize:
		return fmt.Errorf("-prior-left %v or -prior-size %v out of range (-20 to 20)", o.PriorLeft, o.PriorSize)
	case !(o.Alpha >= 0 && o.Alpha <= 100):
		return fmt.Errorf("-alpha %v out of range (0 to 100)", o.Alpha)
	case o.TabuColors < 0 || o.TabuColors > samegame.MaxColors:
		return fmt.Errorf("-tabu-colors %d out of range (0 to %d)", o.TabuColors, samegame.MaxColors)
	case o.Portfolio < 0 || o.Portfolio > 64 || o.Round < 0 || o.Round > 1000:
		return fmt.Errorf("-portfolio %d or -round %d out of range (0 to 64, 0 to 1000)", o.Portfolio, o.Round)
	case o.LookaheadPlies > 64:
		return fmt.Errorf("-lookahead %d out of range (0 to 64)", o.LookaheadPlies)
	case o.TableBits != 0 && (o.TableBits < 10 || o.TableBits > 32):
		return fmt.Errorf("-table-bits %d out of range (10 to 32)", o.TableBits)
	case o.Views < 0 || o.Views > 10:
		return fmt.Errorf("-views %d out of range (0 to 10)", o.Views)
	}
	return nil
}

// SameGameHooks are what a samegame solve needs at run time and never
// sends: they stay with the process that runs the solver.
type SameGameHooks struct {
	// Progress, when set, receives the best solution so far now and then.
	Progress func(samegame.Solution)
	// NRPAExec runs the distributed NRPA's searches (nil: goroutines in
	// this process; a jobs executor sends them to workers).
	NRPAExec samegame.NRPAExecutor
}

// SameGameRun is what a samegame entry's New reads: the options and the
// hooks.
type SameGameRun struct {
	SameGameOptions
	Hooks SameGameHooks
}

// mc is the Monte-Carlo searches' share of the options: -nodes counts
// their playouts.
func (o SameGameRun) mc() samegame.MC {
	return samegame.MC{Seed: o.Seed, MaxPlayouts: o.Nodes, Restart: o.Restart, NoTabu: o.NoTabu, Progress: o.Hooks.Progress}
}

// Capabilities of the samegame entries: what they play and read.
var (
	dustOnly = []string{"dust"}
	mcReads  = []string{"nodes", "no_tabu"}
)

// SameGame is the table of the cluster-clearing games' solvers, in menu
// order: a page offers the first entry that plays its rules as its default
// (exact for the dust game, nrpa for standard SameGame). Those of package
// samegame come first, then those guided by the dust game's network
// (package policy).
var SameGame = Table[samegame.Solver, SameGameRun]{
	{ID: "exact", Name: "Exact", Optimal: true, Plays: dustOnly, Reads: []string{"table_bits", "nodes"},
		Doc: "IDA* with a table of learned bounds: proves the fewest clicks of a dust board of up to 64 cells (seconds on hard boards)",
		New: func(o SameGameRun) (samegame.Solver, error) {
			return samegame.Exact{TableBits: o.TableBits, MaxNodes: o.Nodes, Progress: o.Hooks.Progress}, nil
		}},
	{ID: "nrpa", Name: "NRPA", Anytime: true, Reads: append([]string{"level", "iterations", "dist", "tabu_pairs", "stabilize", "portfolio", "round", "tabu_colors", "move_code", "prior_left", "prior_size", "tabu_second", "alpha", "repeats"}, mcReads...),
		Doc: "nested rollout policy adaptation (level 3, 100 iterations): learns a playout policy; uses its whole time",
		New: func(o SameGameRun) (samegame.Solver, error) {
			code, err := samegame.ParseMoveCode(o.MoveCode)
			if err != nil {
				return nil, err
			}
			if o.Dist > 0 && (o.TabuPairs || o.Stabilize > 1 || o.Portfolio > 1 || code != samegame.CodeCells || o.PriorLeft != 0 || o.PriorSize != 0 || o.TabuSecond || o.Alpha != 0 || o.Repeats != 0) {
				return nil, fmt.Errorf("nrpa: -tabu-pairs, -stabilize, -portfolio, -move-code, -prior-*, -tabu-second, -alpha and -repeats are for the single-process search, not -dist")
			}
			if o.Dist > 0 {
				return samegame.DistNRPA{Level: o.Level, Iterations: o.Iterations, Parallel: o.Dist, Seed: o.Seed,
					MaxPlayouts: o.Nodes, Restart: o.Restart, NoTabu: o.NoTabu, TabuColors: o.TabuColors,
					Exec: o.Hooks.NRPAExec, Progress: o.Hooks.Progress}, nil
			}
			if o.Hooks.NRPAExec != nil {
				return nil, fmt.Errorf("nrpa: a search executor (-nats) needs -dist N")
			}
			return samegame.NRPA{Level: o.Level, Iterations: o.Iterations, TabuPairs: o.TabuPairs, Stabilize: o.Stabilize,
				Portfolio: o.Portfolio, Round: o.Round, TabuColors: o.TabuColors, MoveCode: code,
				PriorLeft: o.PriorLeft, PriorSize: o.PriorSize, TabuSecond: o.TabuSecond, Alpha: o.Alpha, Repeats: o.Repeats, MC: o.mc()}, nil
		}},
	{ID: "nmcs", Name: "Nested Monte-Carlo search", Anytime: true, Reads: append([]string{"level"}, mcReads...),
		Doc: "nested Monte-Carlo search (level 2): nested random playouts; uses its whole time",
		New: func(o SameGameRun) (samegame.Solver, error) {
			return samegame.NMCS{Level: o.Level, MC: o.mc()}, nil
		}},
	{ID: "mcts", Name: "Monte-Carlo tree search", Anytime: true, Reads: mcReads,
		Doc: "single-player MCTS (SP-MCTS): random playouts guide a growing tree; uses its whole time",
		New: func(o SameGameRun) (samegame.Solver, error) {
			return samegame.MCTS{MC: o.mc()}, nil
		}},
	{ID: "beam", Name: "Beam search", Anytime: true, Reads: []string{"width", "nodes"},
		Doc: "keeps the 1,000 most promising boards per click (width): fast, short, not proven",
		New: func(o SameGameRun) (samegame.Solver, error) {
			return samegame.Beam{Width: o.Width, MaxNodes: o.Nodes, Progress: o.Hooks.Progress}, nil
		}},
	{ID: "dfs", Name: "Depth-first (blog)", Optimal: true, Anytime: true, Reads: []string{"order", "lookahead", "table_bits", "nodes"},
		Doc: "the source blog's depth-first branch-and-bound: improves its best until the search ends (a proof) or time runs out",
		New: func(o SameGameRun) (samegame.Solver, error) {
			return samegame.DFS{Order: o.Order, LookaheadPlies: o.LookaheadPlies, TableBits: o.TableBits, MaxNodes: o.Nodes,
				Progress: o.Hooks.Progress}, nil
		}},
	{ID: "greedy", Name: "Greedy (largest group)",
		Doc: "clicks the largest group at every turn: the one-pass baseline, in microseconds",
		New: func(SameGameRun) (samegame.Solver, error) { return samegame.Greedy{}, nil }},
	{ID: "nn", Name: "Network, greedy", Anytime: true, Plays: dustOnly, Reads: []string{"model"},
		Doc: "the dust game's network clicks its best-scored group at every turn, as in the source blog",
		New: withNetwork(func(p *policy.Policy, _ SameGameRun) samegame.Solver { return policy.Greedy{P: p} })},
	{ID: "nn-after", Name: "Afterstate network, greedy", Anytime: true, Plays: dustOnly, Reads: []string{"model", "views"},
		Doc: "the afterstate network clicks the group whose resulting board it rates best",
		New: func(o SameGameRun) (samegame.Solver, error) {
			p, err := sameGamePolicy(o, true)
			if err == nil && !p.IsAfterstate() {
				err = fmt.Errorf("nn-after: %s is not an afterstate network (samegame train -after)", o.Model)
			}
			return policy.After{P: p, Views: o.Views}, err
		}},
	{ID: "nn-value", Name: "Network, one step ahead", Anytime: true, Plays: dustOnly, Reads: []string{"model"},
		Doc: "clicks the group whose resulting board the network's value head gives the fewest clicks left",
		New: withNetwork(func(p *policy.Policy, _ SameGameRun) samegame.Solver { return policy.Value{P: p} })},
	{ID: "nn-beam", Name: "Network beam search", Anytime: true, Plays: dustOnly, Reads: []string{"model", "width"},
		Doc: "beam search of width 2,000 ranked by the network's scores, never longer than its greedy line",
		New: withNetwork(func(p *policy.Policy, o SameGameRun) samegame.Solver { return policy.Beam{P: p, Width: o.Width} })},
	{ID: "nn-mcts", Name: "Network tree search", Anytime: true, Plays: dustOnly, Reads: []string{"model", "iterations"},
		Doc: "PUCT tree search (200 iterations per click) with the network's priors and value head",
		New: withNetwork(func(p *policy.Policy, o SameGameRun) samegame.Solver {
			return policy.MCTS{P: p, Iterations: int64(o.Iterations)}
		})},
}

func init() { register("samegame", SameGame.Menu) }

// withNetwork is the constructor of a solver that the network plays
// (sameGamePolicy, not the afterstate one): solver builds it from the
// network loaded.
func withNetwork(solver func(p *policy.Policy, o SameGameRun) samegame.Solver) func(SameGameRun) (samegame.Solver, error) {
	return func(o SameGameRun) (samegame.Solver, error) {
		p, err := sameGamePolicy(o, false)
		return solver(p, o), err
	}
}

// sameGamePolicy loads the network of o.Model, or the shipped one (the
// afterstate network with after), as a copy of its own with o.Views set.
func sameGamePolicy(o SameGameRun, after bool) (*policy.Policy, error) {
	var p *policy.Policy
	if o.Model != "" {
		var err error
		if p, err = policy.Load(o.Model); err != nil {
			return nil, err
		}
	} else {
		def := policy.Default
		if after {
			def = policy.DefaultAfterstate
		}
		d, err := def()
		if err != nil {
			return nil, err
		}
		c := *d // the shared default stays as it is
		p = &c
	}
	p.Views = o.Views
	return p, nil
}

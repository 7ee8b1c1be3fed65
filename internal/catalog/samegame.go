package catalog

import (
	"fmt"

	"tessera/samegame"
	"tessera/samegame/policy"
)

// SameGameOptions are the values of the samegame solvers' flags; each
// solver reads those it has and the zero value gives every solver its
// defaults.
type SameGameOptions struct {
	// Order is dfs's move order.
	Order samegame.Ordering
	// TableBits sizes the tables of exact and dfs (2^N entries; 0: their
	// defaults).
	TableBits int
	// Width is the beam width of beam (default 1,000) and nn-beam
	// (default 2,000).
	Width int
	// Level is the nesting level of nmcs and nrpa; Iterations nrpa's
	// iterations per level and nn-mcts's tree iterations per click.
	Level, Iterations int
	// Nodes stops dfs, exact and beam after this many nodes and the
	// Monte-Carlo searches after this many playouts (0: no limit).
	Nodes int64
	// Seed drives the Monte-Carlo searches.
	Seed uint64
	// NoTabu lets the Monte-Carlo searches break up the largest colour
	// under standard rules.
	NoTabu bool
	// Restart keeps the Monte-Carlo searches going until their context
	// ends (a CPU budget has no deadline to tell them).
	Restart bool
	// Model is the network file of the nn solvers ("": the shipped
	// network, for nn-after the shipped afterstate network), Views the
	// symmetric views an afterstate network averages.
	Model string
	Views int
	// Dist makes nrpa the distributed NRPA (samegame.DistNRPA): the root
	// level here, Dist level-(Level-1) searches at a time on NRPAExec
	// (0: the single-process NRPA).
	Dist int
	// NRPAExec runs the distributed NRPA's searches (nil: goroutines in
	// this process; a jobs executor sends them to workers).
	NRPAExec samegame.NRPAExecutor
	// Progress, when set, receives the best solution so far now and then.
	Progress func(samegame.Solution)
}

// SameGame is the table of the cluster-clearing games' solvers: those of
// package samegame (exact first: the web app's default), then those guided
// by the dust game's network (package policy).
var SameGame = Table[samegame.Solver, SameGameOptions]{
	{ID: "exact", Name: "Exact", Optimal: true,
		Doc: "IDA* with a table of learned bounds: proves the fewest clicks of a dust board of up to 64 cells (seconds on hard boards)",
		New: func(o SameGameOptions) (samegame.Solver, error) {
			return samegame.Exact{TableBits: o.TableBits, MaxNodes: o.Nodes, Progress: o.Progress}, nil
		}},
	{ID: "dfs", Name: "Depth-first (blog)", Optimal: true,
		Doc: "the source blog's depth-first branch-and-bound: improves its best until the search ends (a proof) or time runs out",
		New: func(o SameGameOptions) (samegame.Solver, error) {
			return samegame.DFS{Order: o.Order, TableBits: o.TableBits, MaxNodes: o.Nodes, Progress: o.Progress}, nil
		}},
	{ID: "beam", Name: "Beam search",
		Doc: "keeps the 1,000 most promising boards per click (width): fast, short, not proven",
		New: func(o SameGameOptions) (samegame.Solver, error) {
			return samegame.Beam{Width: o.Width, MaxNodes: o.Nodes, Progress: o.Progress}, nil
		}},
	{ID: "mcts", Name: "Monte-Carlo tree search",
		Doc: "single-player MCTS (SP-MCTS): random playouts guide a growing tree; uses its whole time",
		New: func(o SameGameOptions) (samegame.Solver, error) {
			return samegame.MCTS{Seed: o.Seed, MaxPlayouts: o.Nodes, Restart: o.Restart, NoTabu: o.NoTabu, Progress: o.Progress}, nil
		}},
	{ID: "nmcs", Name: "Nested Monte-Carlo search",
		Doc: "nested Monte-Carlo search (level 2): nested random playouts; uses its whole time",
		New: func(o SameGameOptions) (samegame.Solver, error) {
			return samegame.NMCS{Level: o.Level, Seed: o.Seed, MaxPlayouts: o.Nodes, Restart: o.Restart, NoTabu: o.NoTabu,
				Progress: o.Progress}, nil
		}},
	{ID: "nrpa", Name: "NRPA",
		Doc: "nested rollout policy adaptation (level 3, 100 iterations): learns a playout policy; uses its whole time",
		New: func(o SameGameOptions) (samegame.Solver, error) {
			if o.Dist > 0 {
				return samegame.DistNRPA{Level: o.Level, Iterations: o.Iterations, Parallel: o.Dist, Seed: o.Seed,
					MaxPlayouts: o.Nodes, Restart: o.Restart, NoTabu: o.NoTabu, Exec: o.NRPAExec, Progress: o.Progress}, nil
			}
			if o.NRPAExec != nil {
				return nil, fmt.Errorf("nrpa: a search executor (-nats) needs -dist N")
			}
			return samegame.NRPA{Level: o.Level, Iterations: o.Iterations, Seed: o.Seed, MaxPlayouts: o.Nodes,
				Restart: o.Restart, NoTabu: o.NoTabu, Progress: o.Progress}, nil
		}},
	{ID: "nn", Name: "Network, greedy",
		Doc: "the dust game's network clicks its best-scored group at every turn, as in the source blog",
		New: func(o SameGameOptions) (samegame.Solver, error) {
			p, err := sameGamePolicy(o, false)
			return policy.Greedy{P: p}, err
		}},
	{ID: "nn-after", Name: "Afterstate network, greedy",
		Doc: "the afterstate network clicks the group whose resulting board it rates best",
		New: func(o SameGameOptions) (samegame.Solver, error) {
			p, err := sameGamePolicy(o, true)
			if err == nil && !p.IsAfterstate() {
				err = fmt.Errorf("nn-after: %s is not an afterstate network (samegame train -after)", o.Model)
			}
			return policy.After{P: p, Views: o.Views}, err
		}},
	{ID: "nn-value", Name: "Network, one step ahead",
		Doc: "clicks the group whose resulting board the network's value head gives the fewest clicks left",
		New: func(o SameGameOptions) (samegame.Solver, error) {
			p, err := sameGamePolicy(o, false)
			return policy.Value{P: p}, err
		}},
	{ID: "nn-beam", Name: "Network beam search",
		Doc: "beam search of width 2,000 ranked by the network's scores, never longer than its greedy line",
		New: func(o SameGameOptions) (samegame.Solver, error) {
			p, err := sameGamePolicy(o, false)
			return policy.Beam{P: p, Width: o.Width}, err
		}},
	{ID: "nn-mcts", Name: "Network tree search",
		Doc: "PUCT tree search (200 iterations per click) with the network's priors and value head",
		New: func(o SameGameOptions) (samegame.Solver, error) {
			p, err := sameGamePolicy(o, false)
			return policy.MCTS{P: p, Iterations: int64(o.Iterations)}, err
		}},
}

func init() { register("samegame", SameGame.Menu) }

// sameGamePolicy loads the network of o.Model, or the shipped one (the
// afterstate network with after), as a copy of its own with o.Views set.
func sameGamePolicy(o SameGameOptions, after bool) (*policy.Policy, error) {
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

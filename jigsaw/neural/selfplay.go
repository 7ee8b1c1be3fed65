package neural

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"math/rand/v2"

	"tessera/mcts"
	"tessera/nn"
)

// PTarget is what P learns from a self-play game.
type PTarget uint8

const (
	// PVisits trains P towards MCTS's visit distribution at the root of
	// every placement (AlphaZero's policy target), over the empty cells.
	PVisits PTarget = iota
	// PTruth trains P on the true cell of the next patch at every root
	// that is still correct (the supervised target on the states the
	// search reached).
	PTruth
)

// VTarget is what V learns from a self-play game.
type VTarget uint8

const (
	// VLabel trains V on each state's own label (TrainOptions.Value's
	// target: 1 for a correct reassembly, 0 for a wrong one).
	VLabel VTarget = iota
	// VOutcome trains V on the outcome of the finished game (AlphaZero's
	// z: 1 when the reassembly reached is the true one, else 0) at every
	// root of the game.
	VOutcome
)

// SelfPlayOptions configure one epoch of Model.SelfPlay. The zero value
// plays 100 puzzles with Solve's default search (100 simulations, the
// predicted reward, as at test time), trains P on the visit
// distributions and V on the states' labels, mixed with the supervised
// examples of 100 fresh puzzles.
type SelfPlayOptions struct {
	// Puzzles is the number of fresh random puzzles played (default 100).
	Puzzles int
	// Search configures MCTS for the games (the fixed order; Attempts,
	// Visit and Hybrid are ignored).
	Search Options
	// Explore is the number of first placements of each game drawn from
	// the root's visit distribution (temperature 1, as AlphaZero's
	// opening moves) instead of played by Search.Choice; the examples
	// then cover states the search's own choices would not reach.
	Explore int
	P       PTarget
	V       VTarget
	// Terminals adds to V's examples every complete reassembly the
	// search valued, labelled with the truth: the near misses the
	// predicted reward must tell from the solution.
	Terminals bool
	// Replay is the number of fresh random puzzles whose supervised
	// examples (TrainHeads's: n for P, 2n for V per puzzle) are mixed in
	// against forgetting (default Puzzles; negative: none).
	Replay int
}

// SelfPlayStats describe one self-play epoch.
type SelfPlayStats struct {
	// Games played and Solved (the reassembly reached is the true one).
	Games, Solved int
	// Roots are the placements whose visit distributions were recorded,
	// Terminals the complete reassemblies added to V's examples.
	Roots, Terminals int
	Heads            HeadStats
}

// rootVisit is the search's statistics at the root of one placement.
type rootVisit struct {
	s      *State
	cells  []int
	visits []int
}

// SelfPlay is one epoch of AlphaZero-style fine-tuning of grid's heads
// (Silver et al. 2017): MCTS, guided by the current P and V, plays
// so.Puzzles fresh random puzzles of the images; at the root of every
// placement it records the visit counts of the root's children; when the
// game ends, P is trained towards the visit distributions (or the true
// cell, so.P) and V towards the states' labels (or the game's outcome,
// so.V), with the complete reassemblies the search valued (so.Terminals)
// and the supervised examples of so.Replay fresh puzzles, under opts
// (a small LearningRate and few Epochs keep it near the supervised
// heads). Cost: so.Puzzles games of Search.Sims simulations per
// placement, the pair tables of so.Puzzles+so.Replay puzzles, then the
// networks' training.
func (m *Model) SelfPlay(ctx context.Context, images []image.Image, grid int, so SelfPlayOptions, opts TrainOptions) (SelfPlayStats, error) {
	opts = opts.defaults()
	var st SelfPlayStats
	h, ok := m.Heads[grid]
	if !ok {
		return st, fmt.Errorf("neural: no heads for %dx%d", grid, grid)
	}
	if so.Puzzles <= 0 {
		so.Puzzles = 100
	}
	if so.Replay == 0 {
		so.Replay = so.Puzzles
	}
	search := so.Search
	search.Attempts, search.Order, search.Hybrid = 1, OrderFixed, 0
	search = search.defaults()
	samples, err := m.headPuzzles(ctx, images, grid, so.Puzzles, opts.Seed^0x5e1f)
	if err != nil {
		return st, err
	}
	var pd, vd nn.Data
	if so.Replay > 0 {
		replay, err := m.headPuzzles(ctx, images, grid, so.Replay, opts.Seed^0x7e91)
		if err != nil {
			return st, err
		}
		pd, vd = headData(replay, opts.Value, opts.Seed^0x7e91, opts.hints(grid))
	}
	rng := rand.New(rand.NewPCG(opts.Seed, 0x73656c66))
	n := grid * grid
	for i, hs := range samples {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		search.Seed = opts.Seed + uint64(i)
		roots, terms, end, err := selfPlayGame(ctx, h.Evaluator(hs.table, grid), hs.pz, search, so, rng)
		if err != nil {
			return st, err
		}
		st.Games++
		z := end.Reward(hs.pz.Truth)
		if z == 1 {
			st.Solved++
		}
		for _, r := range roots {
			if len(r.cells) >= 2 {
				switch so.P {
				case PTruth:
					if r.s.Correct(hs.pz.Truth) {
						pExample(&pd, hs.table, r.s, hs.pz)
						st.Roots++
					}
				default:
					if visitExample(&pd, hs.table, r, n, grid) {
						st.Roots++
					}
				}
			}
			if r.s.Placed == 0 {
				continue // the empty board: always correct, never valued
			}
			if so.V == VOutcome {
				vd.X = hs.table.encodeV(vd.X, r.s, grid)
				vd.Y = append(vd.Y, float32(z))
				vd.N++
			} else {
				vExample(&vd, hs.table, r.s, hs.pz, opts.Value)
			}
		}
		vExample(&vd, hs.table, end, hs.pz, opts.Value)
		for _, s := range terms {
			vExample(&vd, hs.table, s, hs.pz, opts.Value)
			st.Terminals++
		}
	}
	if pd.N == 0 || vd.N == 0 {
		return st, fmt.Errorf("neural: self-play gave no examples")
	}
	st.Heads, err = m.fitHeads(ctx, h, grid, pd, vd, opts)
	return st, err
}

// visitExample appends P's example for root r: the target is the share of
// the root's visits each empty cell received (-1 for occupied cells). It
// reports false (and appends nothing) when the root had no visits.
func visitExample(d *nn.Data, t *Table, r rootVisit, n, grid int) bool {
	total := 0
	for _, v := range r.visits {
		total += v
	}
	if total == 0 {
		return false
	}
	d.X = t.encodeP(d.X, r.s, grid)
	y := make([]float32, n)
	for c := range n {
		if r.s.At[c] >= 0 {
			y[c] = -1
		}
	}
	for j, c := range r.cells {
		y[c] = float32(r.visits[j]) / float32(total)
	}
	d.Y = append(d.Y, y...)
	d.N++
	return true
}

// selfPlayGame plays pz once with MCTS as game.mcts does (the same tree
// and evaluator), in a random patch order, recording the root's visits
// before every placement; the first so.Explore placements are drawn from
// the visits. It returns the roots, the distinct complete reassemblies
// the search valued (with so.Terminals) and the reassembly reached.
func selfPlayGame(ctx context.Context, ev Evaluator, pz *Puzzle, opts Options, so SelfPlayOptions, rng *rand.Rand) ([]rootVisit, []*State, *State, error) {
	var terms []*State
	seen := map[string]bool{}
	if so.Terminals {
		opts.Visit = func(s *State) {
			if !s.Done() {
				return
			}
			if key := string(int8sBytes(s.At)); !seen[key] {
				seen[key] = true
				terms = append(terms, s.Clone())
			}
		}
	}
	g := &game{eval: ev, pz: pz, opts: opts, algo: algoMCTS, ctx: ctx}
	c := opts.CPuct
	if opts.Selection != SelectPUCT {
		c = opts.C
	}
	t := mcts.NewTree(treeState{startState(pz, rng.Perm(pz.Cells()), HintPatches(pz, opts), false)},
		mcts.TreeOptions[treeState, int]{Selection: opts.Selection.engine(), C: c, D: opts.D,
			Evaluator: treeEvaluator{g}, Batch: opts.Batch, EvaluateTerminal: true,
			MinValue: 0, MaxValue: 1, Backup: opts.Backup, Choice: opts.Choice})
	var roots []rootVisit
	for !t.State().Done() {
		if err := t.Think(ctx, int64(opts.Sims)); err != nil {
			return nil, nil, nil, err
		}
		kids := t.Children()
		r := rootVisit{s: t.State().State.Clone(), cells: make([]int, len(kids)), visits: make([]int, len(kids))}
		total := 0
		for j, k := range kids {
			r.cells[j], r.visits[j] = k.Move, k.Visits
			total += k.Visits
		}
		roots = append(roots, r)
		pick := max(t.Best(), 0)
		if len(roots) <= so.Explore && total > 0 {
			x := rng.IntN(total)
			for j, v := range r.visits {
				if x < v {
					pick = j
					break
				}
				x -= v
			}
		}
		if err := t.Advance(pick); err != nil {
			return nil, nil, nil, err
		}
	}
	return roots, terms, t.State().State.Clone(), nil
}

// cloneHeads returns a copy of h (its weights, not its training state).
func cloneHeads(h Heads) (Heads, error) {
	cp := func(n *nn.Net) (*nn.Net, error) {
		var b bytes.Buffer
		if err := n.Write(&b, nil); err != nil {
			return nil, err
		}
		c, _, err := nn.Read(&b)
		return c, err
	}
	p, err := cp(h.P)
	if err != nil {
		return Heads{}, err
	}
	v, err := cp(h.V)
	return Heads{P: p, V: v}, err
}

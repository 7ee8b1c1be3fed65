package neural

import "tessera/mcts"

// Step is what MCTS knew when it played one placement, for a caller that
// shows the search as it goes (Options.OnStep): the root's children after
// the simulations, in the order of State.Moves.
type Step struct {
	// Attempt is the attempt (0-based); Placed the patches placed before
	// this move, hints included.
	Attempt, Placed int
	// Patch is the patch placed by the move (the state's Next; in the
	// unordered game the patch of the move played).
	Patch int
	// Cells is the reassembly before the move: the cell of each patch, -1
	// for a patch not placed.
	Cells []int
	// Moves are the legal moves: the empty cells (in the unordered game
	// patch*n+cell). Priors, Visits and Values are per move: the search's
	// normalised prior (P's, or uniform), the visits of the move's child
	// and the mean of the values backed up through it (0 unvisited).
	Moves  []int
	Priors []float64
	Visits []int
	Values []float64
	// Value is V's estimate of the reassembly before the move, or -1 when
	// the value mode keeps V from valuing unfinished reassemblies. It is
	// asked for the caller only: Result.Evaluations does not count it.
	Value float64
	// Chosen is the index in Moves of the move played.
	Chosen int
}

// step reports the root of t to opts.OnStep before the chosen child
// (index best) is played.
func (g *game) step(t *mcts.Tree[treeState, int], best int) {
	s := t.State().State
	kids := t.Children()
	st := Step{Attempt: g.attempt, Placed: s.Placed, Cells: s.Cells(), Value: -1, Chosen: best,
		Moves: make([]int, len(kids)), Priors: make([]float64, len(kids)), Visits: make([]int, len(kids)), Values: make([]float64, len(kids))}
	for i, k := range kids {
		st.Moves[i], st.Priors[i], st.Visits[i], st.Values[i] = k.Move, k.Prior, k.Visits, k.Mean
	}
	if s.Free {
		st.Patch = st.Moves[best] / len(s.Order)
	} else {
		st.Patch = s.Next()
	}
	if g.opts.Value.GameByV() {
		if v, err := g.eval.Values([]*State{s}); err == nil {
			st.Value = v[0]
		}
	}
	g.opts.OnStep(st)
}

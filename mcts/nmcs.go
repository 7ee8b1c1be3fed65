package mcts

import (
	"context"
	"math"
)

// NMCSOptions configure Nested Monte-Carlo Search.
type NMCSOptions[G any, M any] struct {
	Budget
	// Level is the nesting level: 0 is one playout, 1 tries every move
	// with a playout, each level above runs the level below for every
	// move. Zero means 2.
	Level int
	// Policy chooses the moves of the playouts; nil means Uniform.
	Policy Policy[G, M]
	// Repeat runs the search again (with new random playouts) until the
	// context or the budget ends, keeping the best sequence.
	Repeat bool
}

// NMCS runs Nested Monte-Carlo Search (Cazenave, "Nested Monte-Carlo
// Search", IJCAI 2009) from root, with memorisation of the best sequence at
// every level: at each step a level-l search tries every legal move
// followed by a level-(l-1) search, and then plays the next move of the
// best sequence found so far (not merely of this step's best).
//
// A level-l search makes about (b*d)^l playouts for a game of depth d and
// branching b. It returns the best sequence found from root (root is not
// changed). When the context or the budget stops it early, it returns the
// best sequence so far with an error wrapping the context's error or
// ErrBudget.
func NMCS[G Game[G, M], M any](ctx context.Context, root G, opts NMCSOptions[G, M]) (Result[M], error) {
	level := opts.Level
	if level == 0 {
		level = 2
	}
	s := &nmcs[G, M]{run: newRun[M](ctx, opts.Budget, 0x6e6d6373), policy: opts.Policy}
	if s.policy == nil {
		s.policy = Uniform[G, M]{}
	}
	s.states = make([]G, level+1)
	s.moves = make([][]M, level+1)
	s.seqs = make([][]M, level+1)
	for l := range s.states {
		s.states[l] = root.Clone()
	}
	top := root.Clone()
	for {
		s.stats.Iterations++
		top.CopyFrom(root)
		s.nested(top, level)
		if !opts.Repeat || s.stopped() {
			break
		}
	}
	return s.result()
}

type nmcs[G Game[G, M], M any] struct {
	*run[M]
	policy Policy[G, M]
	states []G   // states[l]: the child state a level-l search works on
	moves  [][]M // moves[l]: the legal moves at level l
	seqs   [][]M // seqs[l]: the best sequence of the level-l search
	pbuf   []M   // playout scratch
	tail   []M   // the last playout's moves
	path   []M   // the moves from the root to the state being searched
}

// nested runs a level-level search from pos (which it plays to the end)
// and returns the best score and sequence from pos. The sequence lives in
// s.seqs[level] (or s.tail for level 0) until the next call at that level.
func (s *nmcs[G, M]) nested(pos G, level int) (float64, []M) {
	s.stats.Nodes++
	if level == 0 {
		s.tail = s.tail[:0]
		score := playout(pos, s.policy, s.rng, &s.pbuf, &s.tail)
		s.playout()
		s.offer(score, s.path, s.tail)
		return score, s.tail
	}
	best := math.Inf(-1)
	seq := s.seqs[level][:0]
	played := 0
	base := len(s.path)
	for {
		moves := pos.Moves(s.moves[level][:0])
		s.moves[level] = moves
		if len(moves) == 0 {
			break
		}
		for i := range moves {
			m := s.moves[level][i]
			child := s.states[level]
			child.CopyFrom(pos)
			child.Play(m)
			s.path = append(s.path, m)
			score, tail := s.nested(child, level-1)
			s.path = s.path[:len(s.path)-1]
			if score > best {
				best = score
				seq = append(append(seq[:played], m), tail...)
			}
			if s.err != nil {
				break
			}
		}
		if s.err != nil || played >= len(seq) {
			break
		}
		pos.Play(seq[played])
		s.path = append(s.path, seq[played])
		played++
	}
	s.path = s.path[:base]
	s.seqs[level] = seq
	if played == 0 && len(seq) == 0 {
		return pos.Score(), seq
	}
	return best, seq
}

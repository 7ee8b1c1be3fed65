package mcts

import (
	"context"
	"fmt"
	"math"
)

// NRPAPolicy is an NRPA policy as plain data: the weight of every move code
// that has one (absent codes weigh 0), so that a policy can be copied to
// another process. It is the unit of exchange of a distributed NRPA
// (Negrevergne and Cazenave, "Distributed Nested Rollout Policy for
// SameGame", CGW 2017): the root level keeps its policy as an NRPAPolicy and
// sends a copy with every lower-level search it dispatches (NRPALevel),
// then adapts it toward its best sequence (AdaptPolicy).
type NRPAPolicy map[uint64]float64

// NRPALevel runs one level-level search of NRPA from root, starting from
// the policy pol (nil: every weight 0): the search that a level-(level+1)
// iteration makes with a copy of its policy. Level 0 is one playout.
// opts.Budget (seed, playouts, progress) and opts.Iterations and Alpha
// apply; opts.Level and Restart are ignored. It returns the search's best
// sequence (ties go to the latest, as in NRPA) and its score; stopped by
// the context or the budget, the best so far with the error.
func NRPALevel[G Coded[G, M], M any](ctx context.Context, root G, level int, pol NRPAPolicy, opts NRPAOptions) (Result[M], error) {
	if level < 0 {
		return Result[M]{}, fmt.Errorf("mcts: NRPA level %d is negative", level)
	}
	if opts.Iterations == 0 {
		opts.Iterations = 100
	}
	if opts.Alpha == 0 {
		opts.Alpha = 1
	}
	opts.Level, opts.Restart = level, false
	s := &nrpa[G, M]{run: newRun[M](ctx, opts.Budget, 0x6e727061), opts: opts, root: root, state: root.Clone()}
	s.initCache()
	top := max(level, 1)
	s.pols = make([]policy, top+1)
	s.bests = make([]record[M], top+1)
	for c, w := range pol {
		if w != 0 {
			s.pols[top].add(c, w)
		}
	}
	s.stats.Iterations = 1
	r := s.level(level)
	res, err := s.result()
	if r.score > math.Inf(-1) {
		res.Moves, res.Score = append([]M(nil), r.moves...), r.score
	}
	return res, err
}

// AdaptPolicy moves pol toward the sequence moves played from root
// (Rosin's Adapt, as NRPA does after every iteration): along the
// sequence, the weight of the move played rises by alpha (zero: 1) and the
// weight of every legal move falls by alpha times its probability under pol
// before the update. A move is recognised among the legal ones by its
// code; a sequence that is not legal from root is an error, and pol is then
// unchanged.
func AdaptPolicy[G Coded[G, M], M any](root G, pol NRPAPolicy, moves []M, alpha float64) error {
	if alpha == 0 {
		alpha = 1
	}
	type delta struct {
		code uint64
		d    float64
	}
	var deltas []delta
	g := root.Clone()
	var legal []M
	var w []float64
	for t, m := range moves {
		legal = g.Moves(legal[:0])
		code := g.Code(m)
		pick := -1
		w = w[:0]
		sum := 0.0
		for i, l := range legal {
			c := g.Code(l)
			if c == code {
				pick = i
			}
			e := math.Exp(pol[c])
			w = append(w, e)
			sum += e
		}
		if pick < 0 {
			return fmt.Errorf("mcts: move %d of the sequence is not legal", t+1)
		}
		f := -alpha / sum // as adapt computes it, for identical weights
		for i, l := range legal {
			d := w[i] * f
			if i == pick {
				d += alpha
			}
			deltas = append(deltas, delta{g.Code(l), d})
		}
		g.Play(legal[pick])
	}
	for _, d := range deltas {
		pol[d.code] += d.d
	}
	return nil
}

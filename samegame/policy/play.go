package policy

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"

	"tessera/samegame"
)

// Greedy plays b to the end by clicking, at every turn, the legal group with
// the highest score (the source's way of playing its network), and returns
// the clicks. One network evaluation per click. It stops with the clicks so
// far and the context's error when ctx ends. b must fit the policy.
func (p *Policy) Greedy(ctx context.Context, b *samegame.Board) (samegame.Solution, error) {
	start := time.Now()
	if err := p.geo.Fits(b); err != nil {
		return samegame.Solution{}, err
	}
	cur := b.Clone()
	var sol samegame.Solution
	minSize := b.Rules().MinGroup()
	score := 0
	for !cur.GameOver() {
		if err := ctx.Err(); err != nil {
			sol.Elapsed = time.Since(start)
			return sol, fmt.Errorf("policy: %w", err)
		}
		scores, groups, err := p.Scores([]*samegame.Board{cur})
		if err != nil {
			return sol, err
		}
		best := -1
		for i, g := range groups[0] {
			if int(g.Size) >= minSize && (best < 0 || scores[0][i] > scores[0][best]) {
				best = i
			}
		}
		g := groups[0][best]
		score += b.Rules().Points(cur.PlayGroup(g))
		sol.Moves = append(sol.Moves, g.Move())
	}
	sol.Clicks = len(sol.Moves)
	sol.Cleared = cur.IsEmpty()
	if sol.Cleared && b.Rules() == samegame.Standard {
		score += samegame.ClearBonus
	}
	if b.Rules() == samegame.Standard {
		sol.Score = score
	}
	sol.Nodes = int64(sol.Clicks)
	sol.Elapsed = time.Since(start)
	return sol, nil
}

// Lookahead plays b to the end greedily with one step of lookahead on the
// value head: at every turn it clicks the group whose resulting board has
// the fewest estimated clicks left (the value head's estimate, raised to
// the colours-left lower bound; an emptied board scores 0) less a tenth of
// the log-probability the policy gives the group (the group's score over
// the sum of the position's scores), which breaks near-ties. One batched
// network evaluation of the position and its children per click. The
// network must have a value head (HasValue).
func (p *Policy) Lookahead(ctx context.Context, b *samegame.Board) (samegame.Solution, error) {
	start := time.Now()
	if !p.value {
		return samegame.Solution{}, errors.New("policy: lookahead needs a network with a value head")
	}
	if b.Rules() != samegame.Dust {
		return samegame.Solution{}, samegame.ErrUnsupported
	}
	if err := p.geo.Fits(b); err != nil {
		return samegame.Solution{}, err
	}
	cur := b.Clone()
	var sol samegame.Solution
	var groups []samegame.Group
	for !cur.GameOver() {
		if err := ctx.Err(); err != nil {
			sol.Elapsed = time.Since(start)
			return sol, fmt.Errorf("policy: %w", err)
		}
		groups = cur.Groups(groups[:0])
		best, err := p.lookahead(cur, groups)
		if err != nil {
			return sol, err
		}
		cur.PlayGroup(groups[best])
		sol.Moves = append(sol.Moves, groups[best].Move())
		sol.Nodes += int64(len(groups))
	}
	sol.Clicks = len(sol.Moves)
	sol.Cleared = cur.IsEmpty()
	sol.Elapsed = time.Since(start)
	return sol, nil
}

// lookaheadPrior is the weight of the policy in Lookahead's choice: on
// 78 boards of a held-out set, weights 0, 0.1, 0.3 and 1 left the shipped
// network 3.67, 2.76, 2.81 and 3.36 clicks over the optimum on average.
const lookaheadPrior = 0.1

// lookahead returns the index of Lookahead's choice among groups, the
// legal groups of b.
func (p *Policy) lookahead(b *samegame.Board, groups []samegame.Group) (int, error) {
	boards := make([]*samegame.Board, 1, 1+len(groups))
	boards[0] = b
	for _, g := range groups {
		c := b.Clone()
		c.PlayGroup(g)
		boards = append(boards, c)
	}
	logits, err := p.logits(boards)
	if err != nil {
		return 0, err
	}
	prior := p.groupScores(logits[:p.net.Spec().Outputs], b, groups)
	sum := 0.0
	for _, s := range prior {
		sum += s
	}
	best, bestV := -1, math.Inf(1)
	for i := range groups {
		v := p.value1(logits, i+1, boards[i+1]) - lookaheadPrior*math.Log(prior[i]/sum)
		if v < bestV {
			best, bestV = i, v
		}
	}
	return best, nil
}

// beamState is a position of the beam with the clicks that led to it.
type beamState struct {
	board *samegame.Board
	moves []samegame.Move
	logp  float64 // log-probability of the clicks under the policy
}

// best returns the width candidates of highest rank, in decreasing rank
// and, among equal ranks, in their order in cands (as a stable sort of all
// of cands would give). It reorders cands; ranks is scratch space.
func best(cands []beamCand, width int, ranks *[]float64) []beamCand {
	if len(cands) > width {
		// The width-th highest rank: the candidates above it all go in,
		// then those equal to it in order until width are in.
		r := (*ranks)[:0]
		for _, c := range cands {
			r = append(r, c.rank)
		}
		slices.Sort(r)
		*ranks = r
		cut := r[len(r)-width]
		above := 0
		for _, v := range r[len(r)-width:] {
			if v > cut {
				above++
			}
		}
		ties := width - above
		k := 0
		for _, c := range cands {
			if c.rank > cut || (c.rank == cut && ties > 0) {
				if c.rank == cut {
					ties--
				}
				cands[k] = c
				k++
			}
		}
		cands = cands[:k]
	}
	slices.SortStableFunc(cands, func(a, c beamCand) int { return cmp.Compare(c.rank, a.rank) })
	return cands
}

// beamCand is a child of a beam position, not yet built: the parent's
// index, the group's index among the parent's groups, the line's
// log-probability, the child's hash and its rank (see Beam).
type beamCand struct {
	parent, group int32
	logp, rank    float64
	hash          uint64
}

// BeamOptions configure Beam. The zero value means width 2,000, prior
// weight 0.25 and colour weight 4.
type BeamOptions struct {
	// Width is the number of positions kept per depth (default 2,000).
	// With the shipped network on four sets of 100 fresh boards (seeds
	// 8001 to 8004), width 2,000 ends at the best known click count on 93
	// to 96 of them in 0.49 to 0.54 s a board (at most 0.84 s) on two
	// cores, built with GOEXPERIMENT=simd; the plain build takes about
	// 1.7 s a board.
	Width int
	// Prior is the weight of the policy's log-probability of a line in
	// its rank, against half the number of groups left (default 0.25; a
	// negative value gives the policy no weight: plain beam search).
	Prior float64
	// Colors is the weight of the colours a position has left in its rank
	// (default 4; a negative value gives them no weight): each colour
	// needs a click, so fewer colours at the same depth is closer to the
	// end.
	Colors float64
}

// Beam is beam search guided by the policy on a Dust board. It first plays
// the board greedily (Greedy), which gives an upper bound U on the clicks.
// Then, depth by depth, it expands every kept position and ranks each child
// by Prior times the log-probability of its line under the policy (a
// group's score divided by the sum of the scores of the position's groups)
// less half the number of groups left (the heuristic of samegame's own beam
// search: fewer, larger groups need fewer clicks) and less Colors times the
// number of colours left. It drops duplicate positions and children that
// cannot beat U (clicks so far plus colours left, an admissible bound,
// reaching U), and keeps the Width best. The
// first child found empty is returned: it has the fewest clicks among the
// lines the beam kept, never more than the greedy line, though it is not a
// proven optimum. Cost: one batched network evaluation of up to Width
// positions per click; the children are made and rated on every core.
func (p *Policy) Beam(ctx context.Context, b *samegame.Board, opts BeamOptions) (samegame.Solution, error) {
	width, prior, colors := opts.Width, opts.Prior, opts.Colors
	if width <= 0 {
		width = 2000
	}
	switch {
	case prior == 0:
		prior = 0.25
	case prior < 0:
		prior = 0
	}
	switch {
	case colors == 0:
		colors = 4
	case colors < 0:
		colors = 0
	}
	start := time.Now()
	if b.Rules() != samegame.Dust {
		return samegame.Solution{}, samegame.ErrUnsupported
	}
	sol, err := p.Greedy(ctx, b)
	if err != nil || !sol.Cleared {
		return sol, err
	}
	// A child is kept as its parent and group until it is among the Width
	// best: only those are built and stored. The children are made and
	// rated on every core, each worker taking a contiguous run of parents,
	// and then merged in the parents' order, so the result does not
	// depend on the number of cores.
	beam := []beamState{{board: b.Clone()}}
	seen := map[uint64]int{}
	workers := max(1, runtime.GOMAXPROCS(0))
	parts := make([][]beamCand, workers)
	empty := make([]beamCand, workers) // per worker: its first empty child, if any
	nodes := make([]int64, workers)    // per worker: the children made
	var (
		cands  []beamCand
		ranks  []float64
		next   []beamState
		boards []*samegame.Board
	)
	for depth := 1; len(beam) > 0; depth++ {
		if err := ctx.Err(); err != nil {
			sol.Elapsed = time.Since(start)
			return sol, fmt.Errorf("policy: %w", err)
		}
		boards = boards[:0]
		for _, s := range beam {
			boards = append(boards, s.board)
		}
		scores, groups, err := p.Scores(boards)
		if err != nil {
			return sol, err
		}
		expand := func(w, lo, hi int) {
			part := parts[w][:0]
			empty[w] = beamCand{parent: -1}
			var gbuf []samegame.Group
			for i := lo; i < hi; i++ {
				s := &beam[i]
				sum := 0.0
				for _, v := range scores[i] {
					sum += v
				}
				nodes[w] += int64(len(groups[i]))
				for gi, g := range groups[i] {
					child := *s.board
					child.PlayGroup(g)
					if child.IsEmpty() {
						empty[w] = beamCand{parent: int32(i), group: int32(gi)}
						parts[w] = part
						return
					}
					left := child.ColorsLeft()
					if depth+left >= sol.Clicks {
						continue // cannot beat the best line
					}
					logp := s.logp + math.Log(scores[i][gi]/sum)
					gbuf = child.Groups(gbuf[:0])
					part = append(part, beamCand{parent: int32(i), group: int32(gi), logp: logp, hash: child.Hash(),
						rank: prior*logp - 0.5*float64(len(gbuf)) - colors*float64(left)})
				}
			}
			parts[w] = part
		}
		k := min(workers, (len(beam)+63)/64)
		if k <= 1 {
			expand(0, 0, len(beam))
		} else {
			var wg sync.WaitGroup
			for w := range k {
				wg.Go(func() { expand(w, w*len(beam)/k, (w+1)*len(beam)/k) })
			}
			wg.Wait()
		}
		for w := range k {
			sol.Nodes += nodes[w]
			nodes[w] = 0
			if e := empty[w]; e.parent >= 0 {
				// The first depth with an empty child: no kept line is
				// shorter, and depth < sol.Clicks by the pruning.
				g := groups[e.parent][e.group]
				sol.Moves = append(slices.Clone(beam[e.parent].moves), g.Move())
				sol.Clicks = len(sol.Moves)
				sol.Elapsed = time.Since(start)
				return sol, nil
			}
		}
		cands = cands[:0]
		clear(seen)
		for _, part := range parts[:k] {
			for _, c := range part {
				if j, dup := seen[c.hash]; dup {
					if cands[j].logp < c.logp {
						cands[j] = c
					}
					continue
				}
				seen[c.hash] = len(cands)
				cands = append(cands, c)
			}
		}
		next = next[:0]
		for _, c := range best(cands, width, &ranks) {
			s, g := &beam[c.parent], groups[c.parent][c.group]
			child := s.board.Clone()
			child.PlayGroup(g)
			next = append(next, beamState{board: child, moves: append(slices.Clone(s.moves), g.Move()), logp: c.logp})
		}
		beam, next = next, beam
	}
	sol.Elapsed = time.Since(start)
	return sol, nil
}

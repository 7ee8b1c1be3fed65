package neural

import (
	"math"
)

// node is a node of the search tree; the children of a node are
// contiguous in the node array.
type node struct {
	parent   int32
	first    int32 // first child, -1 until expanded
	kids     int16
	cell     int8 // the action that led here
	terminal bool // a complete reassembly, valued
	visits   int32
	pending  int32 // leaves below waiting in the current batch
	prior    float32
	sum      float64 // sum of the values backed up
	best     float64 // highest value backed up
	value    float64 // a terminal's value
}

// mcts plays s to the end with Monte-Carlo tree search (Silver et al.,
// "Mastering the game of Go without human knowledge", 2017, in the
// single-player form of Alphazzle, Paumard, Picard and Tabia 2021): before
// every placement it runs opts.Sims simulations from the current state;
// each descends the tree by PUCT, Q + c_puct * prior * sqrt(N) / (1 + n),
// to a leaf, which is expanded at once with P's priors on every empty
// cell (AlphaZero expansion) and valued by V instead of a random playout;
// a complete reassembly is valued by the reward (V's prediction, or the
// truth). The value is backed up as a mean or a max. Leaves are evaluated
// in batches chosen with virtual losses (a pending leaf counts as a visit
// of value 0). Then it plays the most visited (or most valuable) child and
// keeps its subtree. The answer is the reassembly reached, or the best
// complete one met during the search when its reward is higher.
//
// It is written here rather than with package mcts, whose Search grows
// one tree for the whole game and returns its best sequence: Alphazzle
// decides placement by placement, keeps the subtree, backs up maxima and
// may pick actions by value.
func (g *game) mcts(root *State) (*State, float64, error) {
	n := g.pz.Cells()
	nodes := []node{{parent: -1, first: -1, cell: -1}}
	cur := root.Clone()
	r := int32(0)
	type leaf struct {
		node  int32
		state *State
	}
	batch := make([]leaf, 0, g.opts.Batch)
	pool := make([]*State, g.opts.Batch)
	for i := range pool {
		pool[i] = cur.Clone()
	}
	var bestState *State
	bestVal := math.Inf(-1)
	var open, done []*State
	var openIdx []int
	for !cur.Done() {
		for sims := 0; sims < g.opts.Sims; {
			if err := g.ctx.Err(); err != nil {
				return bestState, bestVal, err
			}
			batch = batch[:0]
			for len(batch) < g.opts.Batch && sims+len(batch) < g.opts.Sims {
				st := pool[len(batch)]
				st.CopyFrom(cur)
				k := r
				for nodes[k].kids > 0 {
					k = g.selectChild(nodes, k)
					st.Play(int(nodes[k].cell))
				}
				if nodes[k].terminal {
					g.backup(nodes, k, nodes[k].value)
					sims++
					continue
				}
				if nodes[k].pending > 0 {
					break // met a leaf of this batch again: evaluate what we have
				}
				for a := k; a >= 0; a = nodes[a].parent {
					nodes[a].pending++
				}
				batch = append(batch, leaf{k, st})
			}
			if len(batch) == 0 {
				continue
			}
			// Evaluate: V on every leaf, P on the unfinished ones.
			open, done, openIdx = open[:0], done[:0], openIdx[:0]
			all := make([]*State, len(batch))
			for i, l := range batch {
				all[i] = l.state
				if l.state.Done() {
					done = append(done, l.state)
				} else {
					open = append(open, l.state)
					openIdx = append(openIdx, i)
				}
				if g.opts.Visit != nil {
					g.opts.Visit(l.state)
				}
			}
			vals, err := g.values(all)
			if err != nil {
				return bestState, bestVal, err
			}
			var pri [][]float64
			if len(open) > 0 {
				if pri, err = g.priors(open); err != nil {
					return bestState, bestVal, err
				}
			}
			oi := 0
			for i, l := range batch {
				for a := l.node; a >= 0; a = nodes[a].parent {
					nodes[a].pending--
				}
				v := vals[i]
				if l.state.Done() {
					if g.opts.Reward == GroundTruth {
						v = l.state.Reward(g.pz.Truth)
					}
					nodes[l.node].terminal, nodes[l.node].value = true, v
					if v > bestVal {
						bestVal, bestState = v, l.state.Clone()
					}
				} else {
					pr := pri[oi]
					oi++
					first := int32(len(nodes))
					kids, sum := 0, 0.0
					for c := range n {
						if l.state.At[c] < 0 {
							sum += max(pr[c], 0)
							kids++
						}
					}
					for c := range n {
						if l.state.At[c] < 0 {
							p := 1 / float64(kids)
							if sum > 0 {
								p = max(pr[c], 0) / sum
							}
							nodes = append(nodes, node{parent: l.node, first: -1, cell: int8(c), prior: float32(p)})
						}
					}
					nodes[l.node].first, nodes[l.node].kids = first, int16(kids)
				}
				g.backup(nodes, l.node, v)
				sims++
			}
		}
		// Play the chosen child.
		p := &nodes[r]
		bc := p.first
		for c := p.first; c < p.first+int32(p.kids); c++ {
			if g.better(nodes, c, bc) {
				bc = c
			}
		}
		r = bc
		cur.Play(int(nodes[r].cell))
	}
	val := nodes[r].value
	if !nodes[r].terminal {
		v, err := g.values([]*State{cur})
		if err != nil {
			return bestState, bestVal, err
		}
		val = v[0]
		if g.opts.Reward == GroundTruth {
			val = cur.Reward(g.pz.Truth)
		}
	}
	if bestState != nil && bestVal > val {
		cur = bestState
	}
	// Report V's value of the answer (the attempts are compared by it).
	v, err := g.values([]*State{cur})
	if err != nil {
		return cur, 0, err
	}
	return cur, v[0], nil
}

// q is the value of node k for selection: the mean (or best) of its
// backed-up values, pending leaves counting as visits of value 0.
func (g *game) q(nodes []node, k int32) float64 {
	nd := &nodes[k]
	if g.opts.Backup == MaxBackup {
		return nd.best
	}
	return nd.sum / float64(nd.visits+nd.pending)
}

// selectChild returns the child of k with the highest PUCT score;
// unvisited children take their parent's value.
func (g *game) selectChild(nodes []node, k int32) int32 {
	p := &nodes[k]
	sqrtN := math.Sqrt(float64(max(p.visits+p.pending, 1)))
	fpu := 0.0
	if p.visits > 0 {
		fpu = p.sum / float64(p.visits)
	}
	best, bestVal := p.first, math.Inf(-1)
	for c := p.first; c < p.first+int32(p.kids); c++ {
		nd := &nodes[c]
		visits := nd.visits + nd.pending
		q := fpu
		if nd.visits > 0 {
			q = g.q(nodes, c)
		}
		u := q + g.opts.CPuct*float64(nd.prior)*sqrtN/float64(1+visits)
		if u > bestVal {
			best, bestVal = c, u
		}
	}
	return best
}

// backup adds value v to k and its ancestors.
func (g *game) backup(nodes []node, k int32, v float64) {
	for ; k >= 0; k = nodes[k].parent {
		nd := &nodes[k]
		if nd.visits == 0 || v > nd.best {
			nd.best = v
		}
		nd.visits++
		nd.sum += v
	}
}

// better reports whether child a is to be played rather than child b.
func (g *game) better(nodes []node, a, b int32) bool {
	na, nb := &nodes[a], &nodes[b]
	if g.opts.Choice == ByValue {
		if (na.visits > 0) != (nb.visits > 0) {
			return na.visits > 0
		}
		if na.visits == 0 {
			return na.prior > nb.prior
		}
		return g.q(nodes, a) > g.q(nodes, b)
	}
	if na.visits != nb.visits {
		return na.visits > nb.visits
	}
	return na.prior > nb.prior
}

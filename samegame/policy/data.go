package policy

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"tessera/nn"
	"tessera/samegame"
)

// Examples turns solved boards into training examples: for every entry with
// a move list (as written by "tessera samegame dataset" or "bench -o"), each
// position along the solution with the group its next click removes (the
// source's labels: every cell of the clicked group). Entries whose board
// does not fit g are skipped with an error; onlyOptimal skips the entries
// without a proven optimum. With value set, each target also holds the
// ValueBits targets of the value head: bit k is 1 when more than k clicks
// remain along the solution (the clicks of an optimal solution from that
// position when the solution is optimal). Entries with a "good" line (as
// "samegame dataset -labels" writes) are one example each: the board with
// every good group marked and "left" clicks to go; they are not counted
// as boards and onlyOptimal does not skip them. It returns the data and
// the number of boards used.
func (g Geometry) Examples(entries []samegame.Entry, onlyOptimal, value bool) (nn.Data, int, error) {
	var d nn.Data
	boards := 0
	for _, e := range entries {
		if _, ok := e.Info["good"]; ok {
			// A labelled position ("samegame dataset -labels"): one example
			// marking every good group.
			if err := g.Fits(e.Board); err != nil {
				return d, boards, fmt.Errorf("%s: %w", e.Name, err)
			}
			left, err := strconv.Atoi(e.Info["left"])
			if err != nil || left < 1 {
				return d, boards, fmt.Errorf("policy: %s: want \"left K\" with K > 0 beside \"good\"", e.Name)
			}
			grs, err := goodGroups(e)
			if err != nil {
				return d, boards, err
			}
			d.X = g.Encode(d.X, e.Board)
			d.Y = g.MaskAll(d.Y, e.Board, grs)
			if value {
				d.Y = valueTarget(d.Y, left)
			}
			d.N++
			continue
		}
		if len(e.Moves) == 0 || (onlyOptimal && e.Optimal == 0) {
			continue
		}
		if err := g.Fits(e.Board); err != nil {
			return d, boards, fmt.Errorf("%s: %w", e.Name, err)
		}
		b := e.Board.Clone()
		for k, r := range e.Moves {
			gr, ok := b.GroupAt(int(r.X), int(r.Y))
			if !ok {
				return d, boards, fmt.Errorf("policy: %s: move %d (%v) clicks an empty cell", e.Name, k+1, r.Move)
			}
			d.X = g.Encode(d.X, b)
			d.Y = g.Mask(d.Y, b, gr)
			if value {
				d.Y = valueTarget(d.Y, len(e.Moves)-k)
			}
			d.N++
			b.PlayGroup(gr)
		}
		boards++
	}
	return d, boards, nil
}

// AfterExamples turns labelled positions (entries with "good" lines, as
// "samegame dataset -labels" writes) into training examples for an
// afterstate network (Arch.After): each position is a group of k examples,
// boards its clicks leave, with targets that share 1 among the good clicks
// and 0 for the others (nn.LossSoftmaxCE over the group, nn.TrainOptions'
// Group). A position with more than k groups keeps at most k/2 good ones
// and fills up with other groups, drawn at random from seed; one with
// fewer is padded with empty inputs of target -1. Positions whose clicks
// are all good (or that have one group) teach nothing and are skipped.
// Entries without "good" lines are ignored. It returns the data and the
// number of positions used.
func (g Geometry) AfterExamples(entries []samegame.Entry, k int, seed uint64) (nn.Data, int, error) {
	var d nn.Data
	if k < 2 {
		return d, 0, fmt.Errorf("policy: groups of %d children, want at least 2", k)
	}
	rng := rand.New(rand.NewPCG(seed, 0xaf7e))
	positions := 0
	var groups, good, bad []samegame.Group
	for _, e := range entries {
		if _, ok := e.Info["good"]; !ok {
			continue
		}
		if err := g.Fits(e.Board); err != nil {
			return d, positions, fmt.Errorf("%s: %w", e.Name, err)
		}
		marked, err := goodGroups(e)
		if err != nil {
			return d, positions, err
		}
		groups = e.Board.Groups(groups[:0])
		good, bad = good[:0], bad[:0]
		for _, gr := range groups {
			if slices.ContainsFunc(marked, func(m samegame.Group) bool { return m.X == gr.X && m.Y == gr.Y }) {
				good = append(good, gr)
			} else {
				bad = append(bad, gr)
			}
		}
		if len(bad) == 0 || len(good) == 0 {
			continue
		}
		rng.Shuffle(len(good), func(i, j int) { good[i], good[j] = good[j], good[i] })
		rng.Shuffle(len(bad), func(i, j int) { bad[i], bad[j] = bad[j], bad[i] })
		ng := min(len(good), max(k/2, k-len(bad)))
		nb := min(len(bad), k-ng)
		for i := range k {
			var gr samegame.Group
			var y float32
			switch {
			case i < ng:
				gr, y = good[i], 1/float32(ng)
			case i < ng+nb:
				gr = bad[i-ng]
			default:
				// Padding: an all-zero input the loss ignores.
				d.X = append(d.X, make([]float32, g.InputSize())...)
				d.Y = append(d.Y, -1)
				continue
			}
			c := *e.Board
			c.PlayGroup(gr)
			d.X = g.Encode(d.X, &c)
			d.Y = append(d.Y, y)
		}
		d.N += k
		positions++
	}
	return d, positions, nil
}

// goodGroups returns the groups of e's "good" clicks.
func goodGroups(e samegame.Entry) ([]samegame.Group, error) {
	var grs []samegame.Group
	for f := range strings.SplitSeq(e.Info["good"], ";") {
		var x, y int
		if _, err := fmt.Sscanf(f, "%d,%d", &x, &y); err != nil {
			return nil, fmt.Errorf("policy: %s: bad good click %q (want x,y)", e.Name, f)
		}
		gr, ok := e.Board.GroupAt(x, y)
		if !ok {
			return nil, fmt.Errorf("policy: %s: good click %d,%d is on an empty cell", e.Name, x, y)
		}
		grs = append(grs, gr)
	}
	return grs, nil
}

// ValueBits is the number of outputs of the value head: an ordinal
// encoding of the clicks left, bit k meaning "more than k clicks remain"
// (Frank and Hall, "A simple approach to ordinal classification", 2001),
// so that the same sigmoid outputs and binary cross-entropy serve both
// heads. The expected clicks left are the sum of the bits' probabilities.
const ValueBits = 24

// valueTarget appends the value head's targets for a position with left
// clicks to go.
func valueTarget(dst []float32, left int) []float32 {
	for k := range ValueBits {
		v := float32(0)
		if left > k {
			v = 1
		}
		dst = append(dst, v)
	}
	return dst
}

// Augment applies a random symmetry of the dust game to one encoded example
// in place (y: the Cells policy targets, then any value targets, which no
// symmetry changes; or the single target of an afterstate example, see
// AfterExamples, which no symmetry changes either): a permutation of the colours and, with probability 1/2, the
// left-right mirror (the centre packing is symmetric when W is even). With
// 5 colours that is 240 variants of each position.
func (g Geometry) Augment(x, y []float32, rng *rand.Rand) {
	var perm [samegame.MaxColors + 1]int
	for i := range g.Channels() {
		perm[i] = i
	}
	rng.Shuffle(g.Colors, func(i, j int) { perm[i+1], perm[j+1] = perm[j+1], perm[i+1] })
	g.transform(x, y, &perm, g.W%2 == 0 && rng.IntN(2) == 1)
}

// transform recolours the encoded board x in place (channel k becomes
// perm[k]; perm[0] must be 0) and mirrors it left-right when mirror is
// set, with its cell targets y when y has them (see Augment).
func (g Geometry) transform(x, y []float32, perm *[samegame.MaxColors + 1]int, mirror bool) {
	ch := g.Channels()
	cells := len(y) >= g.Cells()
	var ca, cc [samegame.MaxColors + 1]float32
	for row := range g.H {
		for col := range g.W {
			if mirror && col >= g.W/2 {
				break
			}
			a, c := (row*g.W+col)*ch, (row*g.W+col)*ch
			if mirror {
				c = (row*g.W + g.W - 1 - col) * ch
				if cells {
					y[row*g.W+col], y[row*g.W+g.W-1-col] = y[row*g.W+g.W-1-col], y[row*g.W+col]
				}
			}
			// Recolour both cells and swap them when mirroring.
			copy(ca[:ch], x[a:a+ch])
			copy(cc[:ch], x[c:c+ch])
			for k := range ch {
				x[a+perm[k]] = cc[k]
				x[c+perm[k]] = ca[k]
			}
		}
	}
}

// Accuracy is the share of examples whose highest cell output falls on a
// cell of the labelled group: how often greedy play would click the group
// the solver clicked (k examples of logits and targets, of Cells outputs,
// or Cells+ValueBits with a value head).
func (g Geometry) Accuracy(logits, y []float32, k int) float64 {
	n, stride := g.Cells(), len(y)/k
	hit := 0
	for i := range k {
		best := i * stride
		for c := i * stride; c < i*stride+n; c++ {
			if logits[c] > logits[best] {
				best = c
			}
		}
		if y[best] > 0.5 {
			hit++
		}
	}
	return float64(hit) / float64(k)
}

package neural

import (
	"context"
	"fmt"
	"image"
	"math/rand/v2"

	"tessera/nn"
)

// TrainOptions configure the training stages. The zero value trains on
// 20 crops per image, 1,000 puzzles per head, 10 epochs of batches of 64.
type TrainOptions struct {
	// Crops is the number of random puzzles cut from each image for the
	// pair network (default 20): 12 true pairs and 12 false ones each for
	// 3x3 crops.
	Crops int
	// Puzzles is the number of random puzzles for the heads (default
	// 1,000), cut from random images.
	Puzzles int
	// Epochs, BatchSize and LearningRate go to nn.Train (defaults 10, 64,
	// 1e-3; early stopping after 3 epochs without a better loss on a
	// tenth of the examples held out).
	Epochs, BatchSize int
	LearningRate      float64
	// MaxSteps bounds each network's training (0: none).
	MaxSteps int
	// Value is V's target for correct partial reassemblies.
	Value ValueTarget
	Seed  uint64
	// Progress, when set, gets the training statistics of the network
	// named by stage ("pair", "p3", "v3", ...).
	Progress func(stage string, s nn.Stats)
}

func (o TrainOptions) defaults() TrainOptions {
	if o.Crops <= 0 {
		o.Crops = 20
	}
	if o.Puzzles <= 0 {
		o.Puzzles = 1000
	}
	return o
}

func (o TrainOptions) nnOptions(stage string, loss nn.Loss, metric func(logits, y []float32, k int) float64) nn.TrainOptions {
	t := nn.TrainOptions{Epochs: o.Epochs, BatchSize: o.BatchSize, LearningRate: o.LearningRate, MaxSteps: o.MaxSteps,
		Seed: o.Seed, Loss: loss, Metric: metric}
	if o.Progress != nil {
		t.Progress = func(s nn.Stats) { o.Progress(stage, s) }
	}
	return t
}

// PairData cuts crops 3x3 puzzles of g's patches and gaps from every image
// and returns the pair network's examples: each true adjacency (12 per
// puzzle) with target 1 and, for each, a false pair from the same puzzle
// with target 0 (the same first patch with another second one, or the
// other way round).
func (m *Model) PairData(images []image.Image, crops int, seed uint64) nn.Data {
	g := Geometry{Grid: 3, Patch: m.Patch, Gap: m.Gap}
	rng := rand.New(rand.NewPCG(seed, 0x70616972))
	var d nn.Data
	for _, img := range images {
		for range crops {
			pz := Random(img, g, rng)
			d = m.appendPairs(d, pz, rng)
		}
	}
	return d
}

func (m *Model) appendPairs(d nn.Data, pz *Puzzle, rng *rand.Rand) nn.Data {
	n, grid := pz.Cells(), pz.Grid
	st := m.strips(pz)
	byCell := make([]int, n)
	for i, c := range pz.Truth {
		byCell[c] = i
	}
	for c := range n {
		for dir := range 2 {
			nc := c + 1
			if dir == Below {
				nc = c + grid
			}
			if (dir == Right && c%grid == grid-1) || nc >= n {
				continue
			}
			a, b := byCell[c], byCell[nc]
			d.X = m.pairInput(d.X, st, dir, a, b)
			d.Y = append(d.Y, 1)
			o := otherThan(n, a, b, rng)
			if rng.IntN(2) == 0 {
				d.X = m.pairInput(d.X, st, dir, a, o)
			} else {
				d.X = m.pairInput(d.X, st, dir, o, b)
			}
			d.Y = append(d.Y, 0)
			d.N += 2
		}
	}
	return d
}

// otherThan draws a patch other than a and b uniformly.
func otherThan(n, a, b int, rng *rand.Rand) int {
	for {
		o := rng.IntN(n)
		if o != a && o != b {
			return o
		}
	}
}

// augmentPair flips a pair example along and/or across the gap (a mirror
// image of a true pair is a true pair), in place.
func (m *Model) augmentPair(x, _ []float32, rng *rand.Rand) {
	p, w2 := m.Patch, 2*m.Strip
	if rng.IntN(2) == 1 { // reverse along the gap
		for i := range p / 2 {
			a, b := x[i*w2*4:(i+1)*w2*4], x[(p-1-i)*w2*4:(p-i)*w2*4]
			for k := range a {
				a[k], b[k] = b[k], a[k]
			}
		}
	}
	if rng.IntN(2) == 1 { // reverse across the gap: b then a
		for i := range p {
			row := x[i*w2*4 : (i+1)*w2*4]
			for k := range w2 / 2 {
				for ch := range 4 {
					row[4*k+ch], row[4*(w2-1-k)+ch] = row[4*(w2-1-k)+ch], row[4*k+ch]
				}
			}
		}
	}
}

// binaryAccuracy is the share of examples whose sigmoid output is on the
// same side of 1/2 as the target.
func binaryAccuracy(logits, y []float32, k int) float64 {
	right := 0
	for i := range k {
		if (logits[i] > 0) == (y[i] > 0.5) {
			right++
		}
	}
	return float64(right) / float64(k)
}

// TrainPair trains the pair network on PairData of the images.
func (m *Model) TrainPair(ctx context.Context, images []image.Image, opts TrainOptions) (nn.Stats, error) {
	opts = opts.defaults()
	d := m.PairData(images, opts.Crops, opts.Seed)
	to := opts.nnOptions("pair", nn.LossBCE, binaryAccuracy)
	to.Augment = m.augmentPair
	return m.Pair.Train(ctx, d, to)
}

// PairAccuracy is the binary accuracy of the pair network on PairData of
// the images (one crop each per count).
func (m *Model) PairAccuracy(images []image.Image, crops int, seed uint64) (float64, error) {
	d := m.PairData(images, crops, seed)
	logits, err := m.Pair.Logits(d.X)
	if err != nil {
		return 0, err
	}
	return binaryAccuracy(logits, d.Y, d.N), nil
}

// headSample is one puzzle for the heads with its table.
type headSample struct {
	pz    *Puzzle
	table *Table
}

// headPuzzles cuts count random puzzles of grid from the images (each
// from a random image) and computes their tables.
func (m *Model) headPuzzles(ctx context.Context, images []image.Image, grid, count int, seed uint64) ([]headSample, error) {
	g := Geometry{Grid: grid, Patch: m.Patch, Gap: m.Gap}
	rng := rand.New(rand.NewPCG(seed, 0x68656164))
	out := make([]headSample, 0, count)
	for range count {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		pz := Random(images[rng.IntN(len(images))], g, rng)
		t, err := m.Table(pz)
		if err != nil {
			return nil, err
		}
		out = append(out, headSample{pz, t})
	}
	return out, nil
}

// pExample appends P's example for correct partial state s: the target is
// the next patch's true cell, -1 marks occupied cells (outside the
// softmax).
func pExample(d *nn.Data, t *Table, s *State, pz *Puzzle) {
	d.X = t.encodeP(d.X, s, pz.Grid)
	want := pz.Truth[s.Next()]
	for c := range pz.Cells() {
		switch {
		case s.At[c] >= 0:
			d.Y = append(d.Y, -1)
		case c == want:
			d.Y = append(d.Y, 1)
		default:
			d.Y = append(d.Y, 0)
		}
	}
	d.N++
}

func vExample(d *nn.Data, t *Table, s *State, pz *Puzzle, vt ValueTarget) {
	d.X = t.encodeV(d.X, s, pz.Grid)
	d.Y = append(d.Y, float32(vt.Target(s, pz.Truth)))
	d.N++
}

// headData draws the heads' examples from the puzzles: for P, every
// correct partial reassembly along a random order (n per puzzle); for V,
// per puzzle n correct partial or complete reassemblies and n wrong ones
// made from correct ones by moving one or two placed patches to other
// cells.
func headData(samples []headSample, vt ValueTarget, seed uint64) (p, v nn.Data) {
	rng := rand.New(rand.NewPCG(seed, 0x64617461))
	for _, hs := range samples {
		pz, n := hs.pz, hs.pz.Cells()
		order := rng.Perm(n)
		s := NewState(order)
		for !s.Done() {
			pExample(&p, hs.table, s, pz)
			s.Play(pz.Truth[s.Next()])
		}
		for range n {
			k := 1 + rng.IntN(n) // patches placed
			s := NewState(rng.Perm(n))
			for s.Placed < k {
				s.Play(pz.Truth[s.Next()])
			}
			vExample(&v, hs.table, s, pz, vt)
			vExample(&v, hs.table, corrupt(s, rng), pz, vt)
		}
	}
	return p, v
}

// corrupt returns a copy of the correct state s with one or two placed
// patches moved: swapped with another placed patch or put in an empty
// cell (always a wrong reassembly).
func corrupt(s *State, rng *rand.Rand) *State {
	n := len(s.Order)
	cells := make([]int, n)
	for i := range cells {
		cells[i] = int(s.CellOf[i])
	}
	moves := 1 + rng.IntN(2)
	for range moves {
		a := s.Order[rng.IntN(s.Placed)]
		c := rng.IntN(n)
		if c == cells[a] {
			c = (c + 1 + rng.IntN(n-1)) % n
		}
		for b, cb := range cells {
			if cb == c {
				cells[b] = cells[a]
				break
			}
		}
		cells[a] = c
	}
	out := NewState(s.Order)
	for _, p := range s.Order[:s.Placed] {
		out.At[cells[p]] = int8(p)
		out.CellOf[p] = int8(cells[p])
	}
	out.Placed = s.Placed
	if out.Correct(truthOf(s)) { // the moves undid each other: move one more
		return corrupt(s, rng)
	}
	return out
}

// truthOf returns the cells of the (correct) state s as a truth for its
// placed patches.
func truthOf(s *State) []int {
	t := make([]int, len(s.CellOf))
	for i, c := range s.CellOf {
		t[i] = int(c)
	}
	return t
}

// pAccuracy is the share of P examples whose highest legal output is the
// true cell.
func pAccuracy(cells int) func(logits, y []float32, k int) float64 {
	return func(logits, y []float32, k int) float64 {
		right := 0
		for e := range k {
			z, t := logits[e*cells:(e+1)*cells], y[e*cells:(e+1)*cells]
			bc := -1
			for c := range cells {
				if t[c] >= 0 && (bc < 0 || z[c] > z[bc]) {
					bc = c
				}
			}
			if t[bc] == 1 {
				right++
			}
		}
		return float64(right) / float64(k)
	}
}

// HeadStats are the training results of one grid's heads.
type HeadStats struct {
	P, V nn.Stats
	// Examples used.
	PExamples, VExamples int
}

// TrainHeads creates (or trains further) the heads of grid x grid puzzles
// on opts.Puzzles random puzzles of the images (headData: n P examples
// and 2n V examples per puzzle of n patches). New heads have the
// architecture arch.
func (m *Model) TrainHeads(ctx context.Context, images []image.Image, grid int, arch Arch, opts TrainOptions) (HeadStats, error) {
	opts = opts.defaults()
	h, ok := m.Heads[grid]
	if !ok {
		var err error
		if h, err = NewHeads(grid, arch, opts.Seed+uint64(grid)); err != nil {
			return HeadStats{}, err
		}
		m.Heads[grid] = h
	}
	samples, err := m.headPuzzles(ctx, images, grid, opts.Puzzles, opts.Seed)
	if err != nil {
		return HeadStats{}, err
	}
	pd, vd := headData(samples, opts.Value, opts.Seed)
	return m.fitHeads(ctx, h, grid, pd, vd, opts)
}

func (m *Model) fitHeads(ctx context.Context, h Heads, grid int, pd, vd nn.Data, opts TrainOptions) (HeadStats, error) {
	st := HeadStats{PExamples: pd.N, VExamples: vd.N}
	var err error
	if st.P, err = h.P.Train(ctx, pd, opts.nnOptions(fmt.Sprintf("p%d", grid), nn.LossSoftmaxCE, pAccuracy(grid*grid))); err != nil {
		return st, err
	}
	st.V, err = h.V.Train(ctx, vd, opts.nnOptions(fmt.Sprintf("v%d", grid), nn.LossMSE, binaryAccuracy))
	return st, err
}

// HeadAccuracy measures P and V on count fresh random puzzles of the
// images (drawn as in training): P's accuracy is the share of correct
// partial reassemblies where its best empty cell is the next patch's true
// cell; V's is the share of reassemblies (half correct, half wrong,
// partial and complete) it classifies right at 1/2.
func (m *Model) HeadAccuracy(ctx context.Context, images []image.Image, grid, count int, seed uint64) (pAcc, vAcc float64, err error) {
	h, ok := m.Heads[grid]
	if !ok {
		return 0, 0, fmt.Errorf("neural: no heads for %dx%d", grid, grid)
	}
	samples, err := m.headPuzzles(ctx, images, grid, count, seed)
	if err != nil {
		return 0, 0, err
	}
	pd, vd := headData(samples, ValueCorrect, seed)
	pl, err := h.P.Logits(pd.X)
	if err != nil {
		return 0, 0, err
	}
	vl, err := h.V.Logits(vd.X)
	if err != nil {
		return 0, 0, err
	}
	return pAccuracy(grid*grid)(pl, pd.Y, pd.N), binaryAccuracy(vl, vd.Y, vd.N), nil
}

// FineTune plays opts.Puzzles random puzzles of the images with MCTS
// (solve, with the ground-truth reward unless set otherwise), keeps every
// state the searches evaluated (labelled with the truth: V's target, and
// P's for the correct unfinished ones), and trains the heads further on
// them mixed with as many fresh examples. It returns the number of states
// collected.
func (m *Model) FineTune(ctx context.Context, images []image.Image, grid int, solve Options, opts TrainOptions) (HeadStats, int, error) {
	opts = opts.defaults()
	h, ok := m.Heads[grid]
	if !ok {
		return HeadStats{}, 0, fmt.Errorf("neural: no heads for %dx%d", grid, grid)
	}
	samples, err := m.headPuzzles(ctx, images, grid, opts.Puzzles, opts.Seed^0xf17e)
	if err != nil {
		return HeadStats{}, 0, err
	}
	pd, vd := headData(samples, opts.Value, opts.Seed^0xf17e)
	states := 0
	for i, hs := range samples {
		if err := ctx.Err(); err != nil {
			return HeadStats{}, states, err
		}
		so := solve
		so.Seed = opts.Seed + uint64(i)
		seen := map[string]bool{}
		so.Visit = func(s *State) {
			key := string(int8sBytes(s.At))
			if seen[key] {
				return
			}
			seen[key] = true
			states++
			vExample(&vd, hs.table, s, hs.pz, opts.Value)
			if !s.Done() && s.Correct(hs.pz.Truth) {
				pExample(&pd, hs.table, s, hs.pz)
			}
		}
		if _, err := Search(ctx, h.Evaluator(hs.table, grid), hs.pz, so); err != nil {
			return HeadStats{}, states, err
		}
	}
	st, err := m.fitHeads(ctx, h, grid, pd, vd, opts)
	return st, states, err
}

func int8sBytes(a []int8) []byte {
	b := make([]byte, len(a))
	for i, v := range a {
		b[i] = byte(v)
	}
	return b
}

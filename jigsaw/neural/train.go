package neural

import (
	"context"
	"fmt"
	"image"
	"math"
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
	// Hints is the least number of patches placed (in their true cells)
	// in every example of the heads: P learns only states with at least
	// Hints patches placed, V states whose first Hints patches are right
	// (its wrong examples move other patches; with Hints = n-1 of n, one
	// hint moves too, as a wrong complete reassembly needs two). With
	// CentralHint the central cell's patch is always among them
	// (Alphazzle's Tables 6 and 7). At most n-1.
	Hints       int
	CentralHint bool
	Seed        uint64
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
	g := m.Geometry(3)
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
	g := m.Geometry(grid)
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
	d.Y = appendPTarget(d.Y, s, pz.Truth[s.Next()], pz.Cells())
	d.N++
}

// appendPTarget appends to y P's target for state s whose next patch
// belongs in output want: 1 there, -1 for the occupied cells (outside the
// softmax), 0 elsewhere, over outputs outputs (the cells, and for the
// fragment heads one more, set aside).
func appendPTarget(y []float32, s *State, want, outputs int) []float32 {
	for c := range outputs {
		switch {
		case c < len(s.At) && s.At[c] >= 0:
			y = append(y, -1)
		case c == want:
			y = append(y, 1)
		default:
			y = append(y, 0)
		}
	}
	return y
}

func vExample(d *nn.Data, t *Table, s *State, pz *Puzzle, vt ValueTarget) {
	d.X = t.encodeV(d.X, s, pz.Grid)
	d.Y = append(d.Y, float32(vt.Target(s, pz.Truth)))
	d.N++
}

// hintSpec is how many patches every example has placed, and whether the
// central one is among them.
type hintSpec struct {
	n       int
	central bool
}

func (o TrainOptions) hints(grid int) hintSpec {
	h := hintSpec{n: max(o.Hints, 0), central: o.CentralHint && grid%2 == 1}
	if h.central && h.n < 1 {
		h.n = 1
	}
	h.n = min(h.n, grid*grid-1)
	return h
}

// headsOf returns the heads of grid in set, and whether set had them;
// otherwise they are made by newHeads (seeded with seed+grid) and added.
func headsOf(set *map[int]Heads, grid int, arch Arch, seed uint64, newHeads func(int, Arch, uint64) (Heads, error)) (Heads, bool, error) {
	if *set == nil {
		*set = map[int]Heads{}
	}
	if h, ok := (*set)[grid]; ok {
		return h, true, nil
	}
	h, err := newHeads(grid, arch, seed+uint64(grid))
	if err == nil {
		(*set)[grid] = h
	}
	return h, false, err
}

// hintOrder returns a random order of pz's patches, with the central
// cell's patch first when h asks for it.
func hintOrder(pz *Puzzle, rng *rand.Rand, h hintSpec) []int {
	order := rng.Perm(pz.Cells())
	if h.central {
		centre := (pz.Grid / 2) * (pz.Grid + 1)
		for i, p := range order {
			if pz.Truth[p] == centre {
				order[0], order[i] = order[i], order[0]
				break
			}
		}
	}
	return order
}

// headData draws the heads' examples from the puzzles: for P, every
// correct partial reassembly along a random order (n per puzzle, fewer
// with hints: those with at least h.n patches placed); for V, per puzzle
// n correct partial or complete reassemblies (at least h.n+1 patches
// placed when h.n > 0) and n wrong ones made from correct ones by moving
// one or two placed patches (not the first h.n, or n-2 when h.n = n-1) to
// other cells.
func headData(samples []headSample, vt ValueTarget, seed uint64, h hintSpec) (p, v nn.Data) {
	rng := rand.New(rand.NewPCG(seed, 0x64617461))
	for _, hs := range samples {
		pz, n := hs.pz, hs.pz.Cells()
		order := hintOrder(pz, rng, h)
		s := NewState(order)
		for !s.Done() {
			if s.Placed >= h.n {
				pExample(&p, hs.table, s, pz)
			}
			s.Play(pz.Truth[s.Next()])
		}
		for range n {
			k := 1 + rng.IntN(n) // patches placed
			if h.n > 0 {
				k = h.n + 1 + rng.IntN(n-h.n)
			}
			s := NewState(hintOrder(pz, rng, h))
			for s.Placed < k {
				s.Play(pz.Truth[s.Next()])
			}
			vExample(&v, hs.table, s, pz, vt)
			vExample(&v, hs.table, corrupt(s, rng, min(h.n, n-2)), pz, vt)
		}
	}
	return p, v
}

// corrupt returns a copy of the correct state s with one or two placed
// patches moved, none of the first fixed of the order: swapped with
// another placed patch or put in an empty cell (always a wrong
// reassembly). s must have more than fixed patches placed.
func corrupt(s *State, rng *rand.Rand, fixed int) *State {
	n := len(s.Order)
	cells := make([]int, n)
	for i := range cells {
		cells[i] = int(s.CellOf[i])
	}
	held := make([]bool, n) // the cells of the fixed patches
	for _, p := range s.Order[:fixed] {
		held[cells[p]] = true
	}
	moves := 1 + rng.IntN(2)
	for range moves {
		a := s.Order[fixed+rng.IntN(s.Placed-fixed)]
		c := rng.IntN(n)
		if c == cells[a] {
			c = (c + 1 + rng.IntN(n-1)) % n
		}
		for held[c] || c == cells[a] {
			c = (c + 1) % n
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
		return corrupt(s, rng, fixed)
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
	h, _, err := headsOf(&m.Heads, grid, arch, opts.Seed, NewHeads)
	if err != nil {
		return HeadStats{}, err
	}
	samples, err := m.headPuzzles(ctx, images, grid, opts.Puzzles, opts.Seed)
	if err != nil {
		return HeadStats{}, err
	}
	pd, vd := headData(samples, opts.Value, opts.Seed, opts.hints(grid))
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
	pd, vd := headData(samples, ValueCorrect, seed, hintSpec{})
	return headScores(h, grid, pd, vd)
}

func headScores(h Heads, grid int, pd, vd nn.Data) (pAcc, vAcc float64, err error) {
	pAcc, vAcc = math.NaN(), math.NaN()
	if pd.N > 0 {
		pl, err := h.P.Logits(pd.X)
		if err != nil {
			return 0, 0, err
		}
		pAcc = pAccuracy(grid*grid)(pl, pd.Y, pd.N)
	}
	if vd.N > 0 {
		vl, err := h.V.Logits(vd.X)
		if err != nil {
			return 0, 0, err
		}
		vAcc = binaryAccuracy(vl, vd.Y, vd.N)
	}
	return pAcc, vAcc, nil
}

// Accuracies are P's and V's validation accuracies (HeadAccuracy's
// measures) with hints: over every reassembly with at least Hints patches
// placed (Alphazzle's Table 6), and per number of patches placed
// (Table 7: P[k] over correct reassemblies with exactly k placed, k < n;
// V[k] over as many correct and wrong ones, k >= 1; NaN where nothing
// was measured).
type Accuracies struct {
	P, V             float64
	PPlaced, VPlaced []float64
}

// HeadAccuracyHints measures P and V as HeadAccuracy does on count fresh
// puzzles, with hints patches (the central one first when central) always
// placed in their true cells, and per number of patches placed.
func (m *Model) HeadAccuracyHints(ctx context.Context, images []image.Image, grid, count int, seed uint64, hints int, central bool) (Accuracies, error) {
	h, ok := m.Heads[grid]
	if !ok {
		return Accuracies{}, fmt.Errorf("neural: no heads for %dx%d", grid, grid)
	}
	spec := TrainOptions{Hints: hints, CentralHint: central}.hints(grid)
	samples, err := m.headPuzzles(ctx, images, grid, count, seed)
	if err != nil {
		return Accuracies{}, err
	}
	var acc Accuracies
	pd, vd := headData(samples, ValueCorrect, seed, spec)
	if acc.P, acc.V, err = headScores(h, grid, pd, vd); err != nil {
		return acc, err
	}
	n := grid * grid
	acc.PPlaced, acc.VPlaced = make([]float64, n+1), make([]float64, n+1)
	rng := rand.New(rand.NewPCG(seed, 0x706c6163))
	for k := 0; k <= n; k++ {
		var pk, vk nn.Data
		for _, hs := range samples {
			s := NewState(hintOrder(hs.pz, rng, spec))
			for s.Placed < k {
				s.Play(hs.pz.Truth[s.Next()])
			}
			if k < n && k >= spec.n {
				pExample(&pk, hs.table, s, hs.pz)
			}
			if k >= 1 && k > min(spec.n, n-2) {
				vExample(&vk, hs.table, s, hs.pz, ValueCorrect)
				vExample(&vk, hs.table, corrupt(s, rng, min(spec.n, n-2)), hs.pz, ValueCorrect)
			}
		}
		if acc.PPlaced[k], acc.VPlaced[k], err = headScores(h, grid, pk, vk); err != nil {
			return acc, err
		}
	}
	return acc, nil
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
	pd, vd := headData(samples, opts.Value, opts.Seed^0xf17e, opts.hints(grid))
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

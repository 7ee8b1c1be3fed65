package neural

import (
	"context"
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"tessera/nn"
)

// The game of fragments (m patches for n cells) needs heads that know
// what is set aside and how many patches are left for the empty cells:
// each input cell has the plain heads' channels and three more, the same
// in every cell.
const (
	// fpChannels: P's 21, then the surplus (patches left, the next one
	// included, less the empty cells, over n: negative when cells must
	// stay empty), the share of patches set aside (over n), and the next
	// patch's strongest link to a placed patch (its best pair logit with
	// any of them, either way, either direction; 0 when none is placed).
	fpChannels = pChannels + 3
	// fvChannels: V's 14, then the surplus and the share set aside, and
	// the strongest link of a patch set aside to a placed one (0 when
	// none is set aside): an own patch set aside wrongly links well.
	fvChannels = vChannels + 3
)

// fragGlobals are the three channels the fragment heads add.
func (t *Table) fragGlobals(s *State, x int) [3]float32 {
	n := float32(len(s.At))
	empty := 0
	for _, p := range s.At {
		if p < 0 {
			empty++
		}
	}
	surplus := float32(len(s.Order)-s.Placed-empty) / n
	aside := float32(s.Aside()) / n
	if x < 0 { // V: the best link of a patch set aside
		best, any := float32(math.Inf(-1)), false
		for p, c := range s.CellOf {
			if c == SetAside {
				best, any = max(best, t.link(s, p)), true
			}
		}
		if !any {
			best = 0
		}
		return [3]float32{surplus, aside, best}
	}
	return [3]float32{surplus, aside, t.link(s, x)}
}

// link is patch x's strongest pair logit with a placed patch (scaled and
// clipped as the features are; 0 when none is placed).
func (t *Table) link(s *State, x int) float32 {
	best, any := float32(math.Inf(-1)), false
	n := t.N
	for b, c := range s.CellOf {
		if c < 0 || b == x {
			continue
		}
		for d := range 2 {
			best = max(best, t.L[d][x*n+b], t.L[d][b*n+x])
		}
		any = true
	}
	if !any {
		return 0
	}
	return clip(best / 5)
}

// encodeFP appends the fragment P's input for s (not done): P's channels
// (encodeP) and the three of fragGlobals per cell.
func (t *Table) encodeFP(dst []float32, s *State, grid int) []float32 {
	base := t.encodeP(nil, s, grid)
	g := t.fragGlobals(s, s.Next())
	for c := range grid * grid {
		dst = append(dst, base[c*pChannels:(c+1)*pChannels]...)
		dst = append(dst, g[:]...)
	}
	return dst
}

// encodeFV appends the fragment V's input for s: V's channels (encodeV)
// and the three of fragGlobals per cell.
func (t *Table) encodeFV(dst []float32, s *State, grid int) []float32 {
	base := t.encodeV(nil, s, grid)
	g := t.fragGlobals(s, -1)
	for c := range grid * grid {
		dst = append(dst, base[c*vChannels:(c+1)*vChannels]...)
		dst = append(dst, g[:]...)
	}
	return dst
}

// NewFragHeads returns untrained fragment heads for grid x grid puzzles
// (P with grid*grid+1 outputs, the last one "set aside").
func NewFragHeads(grid int, arch Arch, seed uint64) (Heads, error) {
	return newHeads(grid, fpChannels, fvChannels, grid*grid+1, arch, seed)
}

// fragEval is the fragment heads as an Evaluator of a puzzle of
// fragments: Priors gives a weight per cell and one more for setting the
// next patch aside.
type fragEval struct {
	h    Heads
	t    *Table
	grid int
}

func (e fragEval) Priors(states []*State) ([][]float64, error) {
	n := e.grid * e.grid
	logits, err := logitsOf(e.h.P, states, n*fpChannels, func(x []float32, s *State) []float32 { return e.t.encodeFP(x, s, e.grid) })
	if err != nil {
		return nil, err
	}
	out := make([][]float64, len(states))
	for i, s := range states {
		out[i] = maskedSoftmax(logits[i*(n+1):(i+1)*(n+1)], func(c int) bool { return c == n || s.At[c] < 0 })
	}
	return out, nil
}

func (e fragEval) Values(states []*State) ([]float64, error) {
	logits, err := logitsOf(e.h.V, states, e.grid*e.grid*fvChannels, func(x []float32, s *State) []float32 { return e.t.encodeFV(x, s, e.grid) })
	return sigmoids(logits), err
}

// FragOptions are the puzzles of fragments training and its measures
// draw: each from a random image, with 0 to MaxMissing patches missing
// and 0 to MaxForeign strays from another random image (uniformly).
type FragOptions struct {
	MaxMissing, MaxForeign int
	// Play, when positive and the heads exist already, adds to V's
	// examples the states of Play games per puzzle played by sampling
	// the current P's priors, each labelled with the truth: the
	// plausible wrong reassemblies a search meets, which random
	// corruptions seldom make.
	Play int
}

func (f FragOptions) draw(rng *rand.Rand) (missing, foreign int) {
	return rng.IntN(max(f.MaxMissing, 0) + 1), rng.IntN(max(f.MaxForeign, 0) + 1)
}

// fragPuzzles cuts count random puzzles of fragments of grid from the
// images (FragOptions) and computes their tables. Puzzle i is drawn from
// its own stream (seed, i), so the samples do not depend on the number
// of cores; the cutting runs on GOMAXPROCS goroutines and the pair
// network on batches of puzzles (on every core).
func (m *Model) fragPuzzles(ctx context.Context, images []image.Image, grid, count int, seed uint64, fo FragOptions) ([]headSample, error) {
	if len(images) < 2 {
		return nil, fmt.Errorf("neural: fragments need two images or more (strays come from another)")
	}
	g := m.Geometry(grid)
	pzs := make([]*Puzzle, count)
	errs := make([]error, count)
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := 0
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= count || ctx.Err() != nil {
					return
				}
				rng := rand.New(rand.NewPCG(seed, uint64(i)^0x66726167))
				a := rng.IntN(len(images))
				missing, foreign := fo.draw(rng)
				pz := Random(images[a], g, rng)
				b := (a + 1 + rng.IntN(len(images)-1)) % len(images)
				pzs[i], errs[i] = MakeFragments(pz, missing, Strays(images[b], g, foreign, rng), rng)
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]headSample, 0, count)
	const batch = 64
	for lo := 0; lo < count; lo += batch {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for _, err := range errs[lo:min(lo+batch, count)] {
			if err != nil {
				return nil, err
			}
		}
		ts, err := m.Tables(pzs[lo:min(lo+batch, count)])
		if err != nil {
			return nil, err
		}
		for k, t := range ts {
			out = append(out, headSample{pzs[lo+k], t})
		}
	}
	return out, nil
}

// Tables is Table for several puzzles in one pair-network call.
func (m *Model) Tables(pzs []*Puzzle) ([]*Table, error) {
	var x []float32
	offs := make([]int, len(pzs)+1)
	for i, pz := range pzs {
		n := len(pz.Patches)
		st := m.strips(pz)
		for d := range 2 {
			for a := range n {
				for b := range n {
					if a != b {
						x = m.pairInput(x, st, d, a, b)
					}
				}
			}
		}
		offs[i+1] = offs[i] + 2*n*(n-1)
	}
	logits, err := m.Pair.Logits(x)
	if err != nil {
		return nil, err
	}
	out := make([]*Table, len(pzs))
	for i, pz := range pzs {
		n := len(pz.Patches)
		l := logits[offs[i]:offs[i+1]]
		out[i] = NewTable(n, func(d, a, b int) float32 {
			k := d*n*(n-1) + a*(n-1) + b
			if b > a {
				k--
			}
			return l[k]
		})
	}
	return out, nil
}

// fragPExample appends the fragment P's example for the correct partial
// state s: the next patch's true cell, or set aside (the last output)
// for a stray; -1 marks occupied cells.
func fragPExample(d *nn.Data, t *Table, s *State, pz *Puzzle) {
	d.X = t.encodeFP(d.X, s, pz.Grid)
	want, n := pz.Truth[s.Next()], pz.Cells()
	if want < 0 {
		want = n
	}
	d.Y = appendPTarget(d.Y, s, want, n+1)
	d.N++
}

func fragVExample(d *nn.Data, t *Table, s *State, pz *Puzzle) {
	d.X = t.encodeFV(d.X, s, pz.Grid)
	y := float32(0)
	if s.Correct(pz.Truth) {
		y = 1
	}
	d.Y = append(d.Y, y)
	d.N++
}

// truthState plays the first k patches of order in their true cells (a
// stray set aside) in the game of fragments of pz.
func truthState(pz *Puzzle, order []int, k int) *State {
	s := NewFragmentState(order, pz.Cells())
	for s.Placed < k {
		s.Play(truthMove(pz, s))
	}
	return s
}

// truthMove is the right move for s's next patch.
func truthMove(pz *Puzzle, s *State) int {
	if c := pz.Truth[s.Next()]; c >= 0 {
		return c
	}
	return s.AsideMove()
}

// fragData draws the fragment heads' examples: for P every correct state
// along a random order (m per puzzle of m patches); for V per puzzle m
// correct states (a third of them complete, the others with 1 to m
// patches played) and as many wrong ones made from them by
// corruptFragments.
func fragData(samples []headSample, seed uint64) (p, v nn.Data) {
	rng := rand.New(rand.NewPCG(seed, 0x66646174))
	for _, hs := range samples {
		pz, m := hs.pz, len(hs.pz.Patches)
		s := NewFragmentState(rng.Perm(m), pz.Cells())
		for !s.Done() {
			fragPExample(&p, hs.table, s, pz)
			s.Play(truthMove(pz, s))
		}
		for range m {
			k := m
			if rng.IntN(3) > 0 {
				k = 1 + rng.IntN(m)
			}
			s := truthState(pz, rng.Perm(m), k)
			fragVExample(&v, hs.table, s, pz)
			fragVExample(&v, hs.table, corruptFragments(s, pz.Truth, rng), pz)
		}
	}
	return p, v
}

// corruptFragments returns a copy of the correct state s (some patches
// played) made wrong by one or two moves: a played patch goes to another
// cell (swapping with the patch there, which takes its place, set aside
// or not) or is set aside; a stray set aside may so come back. One time
// in three the placed patches are first rolled: the columns (or the rows)
// turned cyclically by 1 to grid-1, the error MCTS makes most (a block
// moved across the picture's border, its neighbours kept).
func corruptFragments(s *State, truth []int, rng *rand.Rand) *State {
	n := len(s.At)
	grid := 1
	for grid*grid < n {
		grid++
	}
	for {
		pos := make([]int, len(s.CellOf)) // cell, n for set aside, -1 not played
		for p, c := range s.CellOf {
			pos[p] = int(c)
			if c == SetAside {
				pos[p] = n
			}
		}
		at := func(c int) int {
			for p, q := range pos {
				if q == c {
					return p
				}
			}
			return -1
		}
		moves := 1 + rng.IntN(2)
		if grid*grid == n && rng.IntN(3) == 0 {
			k, rows := 1+rng.IntN(grid-1), rng.IntN(2) == 0
			for p, c := range pos {
				if c >= 0 && c < n {
					r, col := c/grid, c%grid
					if rows {
						r = (r + k) % grid
					} else {
						col = (col + k) % grid
					}
					pos[p] = r*grid + col
				}
			}
			moves = rng.IntN(2)
		}
		for range moves {
			a := s.Order[rng.IntN(s.Placed)]
			t := rng.IntN(n + 1)
			if t == pos[a] {
				continue
			}
			if t < n {
				if b := at(t); b >= 0 {
					pos[b] = pos[a]
				}
			}
			pos[a] = t
		}
		out := NewFragmentState(s.Order, n)
		for _, p := range s.Order[:s.Placed] {
			if pos[p] == n {
				out.CellOf[p] = SetAside
			} else {
				out.At[pos[p]], out.CellOf[p] = int8(p), int8(pos[p])
			}
		}
		out.Placed = s.Placed
		if !out.Correct(truth) {
			return out
		}
	}
}

// FragStats are the fragment heads' training results and examples.
type FragStats = HeadStats

// TrainFragments creates (or trains further) the fragment heads of
// grid x grid puzzles on opts.Puzzles random puzzles of fragments of the
// images (fragPuzzles, fragData), with the pair network as it is.
func (m *Model) TrainFragments(ctx context.Context, images []image.Image, grid int, fo FragOptions, arch Arch, opts TrainOptions) (FragStats, error) {
	opts = opts.defaults()
	h, ok, err := headsOf(&m.Frag, grid, arch, opts.Seed, NewFragHeads)
	if err != nil {
		return FragStats{}, err
	}
	samples, err := m.fragPuzzles(ctx, images, grid, opts.Puzzles, opts.Seed, fo)
	if err != nil {
		return FragStats{}, err
	}
	pd, vd := fragData(samples, opts.Seed)
	if ok && fo.Play > 0 {
		if err := playedStates(ctx, &vd, h, samples, fo.Play, opts.Seed); err != nil {
			return FragStats{}, err
		}
	}
	st := FragStats{PExamples: pd.N, VExamples: vd.N}
	if st.P, err = h.P.Train(ctx, pd, opts.nnOptions(fmt.Sprintf("fp%d", grid), nn.LossSoftmaxCE, pAccuracy(grid*grid+1))); err != nil {
		return st, err
	}
	st.V, err = h.V.Train(ctx, vd, opts.nnOptions(fmt.Sprintf("fv%d", grid), nn.LossMSE, binaryAccuracy))
	return st, err
}

// FragAccuracy measures the fragment heads on count fresh puzzles of
// fragments of the images: P (its best legal output is the right one),
// Aside (P's best is "set aside" for a stray, over the strays' turns),
// V (right at 1/2 on as many correct as wrong states).
func (m *Model) FragAccuracy(ctx context.Context, images []image.Image, grid, count int, seed uint64, fo FragOptions) (pAcc, aside, vAcc float64, err error) {
	h, ok := m.Frag[grid]
	if !ok {
		return 0, 0, 0, fmt.Errorf("neural: no fragment heads for %dx%d", grid, grid)
	}
	samples, err := m.fragPuzzles(ctx, images, grid, count, seed, fo)
	if err != nil {
		return 0, 0, 0, err
	}
	pd, vd := fragData(samples, seed)
	n := grid*grid + 1
	pl, err := h.P.Logits(pd.X)
	if err != nil {
		return 0, 0, 0, err
	}
	pAcc = pAccuracy(n)(pl, pd.Y, pd.N)
	strays, found := 0, 0
	for e := range pd.N {
		z, y := pl[e*n:(e+1)*n], pd.Y[e*n:(e+1)*n]
		if y[n-1] != 1 {
			continue
		}
		strays++
		best := n - 1
		for c := range n {
			if y[c] >= 0 && z[c] > z[best] {
				best = c
			}
		}
		if best == n-1 {
			found++
		}
	}
	aside = math.NaN()
	if strays > 0 {
		aside = float64(found) / float64(strays)
	}
	vl, err := h.V.Logits(vd.X)
	if err != nil {
		return 0, 0, 0, err
	}
	return pAcc, aside, binaryAccuracy(vl, vd.Y, vd.N), nil
}

// playedStates appends to d, for every sample, the states of games games
// played by sampling h's P (one state per turn, then the end), each
// labelled with the truth.
func playedStates(ctx context.Context, d *nn.Data, h Heads, samples []headSample, games int, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, 0x706c6179))
	for _, hs := range samples {
		if err := ctx.Err(); err != nil {
			return err
		}
		ev := fragEval{h, hs.table, hs.pz.Grid}
		for range games {
			s := NewFragmentState(rng.Perm(len(hs.pz.Patches)), hs.pz.Cells())
			for !s.Done() {
				pr, err := ev.Priors([]*State{s})
				if err != nil {
					return err
				}
				x, c := rng.Float64(), 0
				for c < len(pr[0])-1 && x >= pr[0][c] {
					x -= pr[0][c]
					c++
				}
				for pr[0][c] == 0 { // rounding: the last legal move
					c--
				}
				s.Play(c)
				fragVExample(d, hs.table, s, hs.pz)
			}
		}
	}
	return nil
}

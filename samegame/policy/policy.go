package policy

import (
	"bufio"
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"sync"

	"tessera/nn"
	"tessera/samegame"
)

// Policy is a network that, given a board, marks the cells of the group to
// click: one sigmoid output per cell (the source's design). An afterstate
// policy (Arch.After) instead has one output that rates a board: each
// group is scored by the board its click leaves.
type Policy struct {
	net *nn.Net
	geo Geometry
	// value reports a value head: ValueBits outputs after the cells'.
	value bool
	// after reports an afterstate network (one output per board).
	after bool
	// Info is how the network was trained (free text from its file).
	Info map[string]string
	// Views is the number of symmetric views of each board whose ratings
	// an afterstate network averages (0 or 1: the board as it is; 2: and
	// its mirror image; more: and copies with the colours shifted
	// cyclically, mirrored and not), at most 2*Colors (Colors when the
	// width is odd and the mirror no symmetry). It costs one network
	// evaluation per view and child.
	Views int
}

// Arch is a network architecture for a policy: 3x3 convolution layers,
// then dense layers, then the outputs: one per cell, and with Value the
// ValueBits outputs of a value head that estimates the clicks left. With
// After the network has a single output instead, which rates the board a
// click leaves (see AfterExamples); Value must then be false. No layers
// means DefaultArch's.
type Arch struct {
	Conv, Hidden []int
	Value, After bool
}

// DefaultArch is the architecture of the shipped network: two 3x3
// convolutions of 32 channels, a dense layer of 512 and a value head
// (0.83 M weights), which trained on 75,000 positions in 40 minutes on a
// loaded 2-core machine. Convolutions see which neighbours share a colour,
// which is what a group is: trained on the same 580 positions, two
// convolutions and a dense layer of 256 reached a validation accuracy (top
// output on the solver's group) of 0.45 where three dense layers of 512
// (Arch{Hidden: []int{512, 512, 512}}, ten times faster to run) reached
// 0.35. The source's network is ten dense layers of 1,500.
var DefaultArch = Arch{Conv: []int{32, 32}, Hidden: []int{512}, Value: true}

// New returns an untrained policy for boards of geo with weights drawn from
// seed.
func New(geo Geometry, arch Arch, seed uint64) (*Policy, error) {
	if len(arch.Conv) == 0 && len(arch.Hidden) == 0 {
		arch.Conv, arch.Hidden = DefaultArch.Conv, DefaultArch.Hidden
	}
	out := geo.Cells()
	switch {
	case arch.After && arch.Value:
		return nil, errors.New("policy: an afterstate network has no value head")
	case arch.After:
		out = 1
	case arch.Value:
		out += ValueBits
	}
	net, err := nn.New(nn.Spec{Input: []int{geo.H, geo.W, geo.Channels()}, Conv: arch.Conv, Hidden: arch.Hidden,
		Outputs: out}, seed)
	if err != nil {
		return nil, err
	}
	return &Policy{net: net, geo: geo, value: arch.Value, after: arch.After}, nil
}

// Read reads a policy written by Write.
func Read(r io.Reader) (*Policy, error) {
	net, info, err := nn.Read(r)
	if err != nil {
		return nil, err
	}
	s := net.Spec()
	if len(s.Input) != 3 || s.Input[2] < 2 || (s.Outputs != s.Input[0]*s.Input[1] && s.Outputs != s.Input[0]*s.Input[1]+ValueBits && s.Outputs != 1) {
		return nil, fmt.Errorf("policy: network of input %v and %d outputs is not a board policy", s.Input, s.Outputs)
	}
	return &Policy{net: net, geo: Geometry{W: s.Input[1], H: s.Input[0], Colors: s.Input[2] - 1},
		value: s.Outputs > s.Input[0]*s.Input[1], after: s.Outputs == 1, Info: info}, nil
}

// Load reads the policy file path.
func Load(path string) (*Policy, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(bufio.NewReader(f))
}

// Write writes the policy (see nn.Net.Write) with its Info.
func (p *Policy) Write(w io.Writer) error { return p.net.Write(w, p.Info) }

// Save writes the policy to the file path.
func (p *Policy) Save(path string) error { return p.net.Save(path, p.Info) }

// Geometry returns the boards the policy is for.
func (p *Policy) Geometry() Geometry { return p.geo }

// HasValue reports whether the network has a value head (see Values).
func (p *Policy) HasValue() bool { return p.value }

// IsAfterstate reports whether the network rates the boards that clicks
// leave (Arch.After) rather than marking cells.
func (p *Policy) IsAfterstate() bool { return p.after }

// Net returns the underlying network.
func (p *Policy) Net() *nn.Net { return p.net }

// embedded is a policy file built into the binary, read on first use.
type embedded struct {
	data []byte
	once sync.Once
	p    *Policy
	err  error
}

// get reads the policy once and returns the same value to every caller.
func (e *embedded) get() (*Policy, error) {
	e.once.Do(func() { e.p, e.err = Read(bytes.NewReader(e.data)) })
	return e.p, e.err
}

var (
	//go:embed models/dust.nn
	defaultModel []byte
	//go:embed models/dust-after.nn
	afterModel []byte

	defaultPolicy = &embedded{data: defaultModel}
	afterPolicy   = &embedded{data: afterModel}
)

// Default returns the shipped policy for the dust game (8x6, 5 colours),
// models/dust.nn, trained with a value head on solutions of beam search
// and the exact solver (Info and models/README.md say how).
// It is loaded once; the same value is returned to every caller.
func Default() (*Policy, error) { return defaultPolicy.get() }

// DefaultAfterstate returns the shipped afterstate network for the dust
// game, models/dust-after.nn (see Arch.After; Info and models/README.md
// say how it was trained). It is loaded once;
// the same value is returned to every caller.
func DefaultAfterstate() (*Policy, error) { return afterPolicy.get() }

// Scores evaluates the policy on boards (all must fit its geometry) in one
// batch and returns, for each board, the score of each of its groups in the
// order of Board.Groups: the mean sigmoid output over the group's cells,
// in (0, 1). An afterstate network rates the board each group's click
// leaves, and a group's score is its share of the softmax over the
// board's groups (a click that empties the board gets all of it).
func (p *Policy) Scores(boards []*samegame.Board) ([][]float64, [][]samegame.Group, error) {
	if p.after {
		return p.afterScores(boards)
	}
	logits, err := p.logits(boards)
	if err != nil {
		return nil, nil, err
	}
	stride := p.net.Spec().Outputs
	scores := make([][]float64, len(boards))
	groups := make([][]samegame.Group, len(boards))
	score := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			groups[i] = boards[i].Groups(nil)
			scores[i] = p.groupScores(logits[i*stride:(i+1)*stride], boards[i], groups[i])
		}
	}
	// Large batches (a beam's) are scored on every core.
	parallel(len(boards), 128, score)
	return scores, groups, nil
}

// groupScores returns the score of each of groups, the groups of b, from
// b's logits: the mean sigmoid output over the group's cells.
func (p *Policy) groupScores(logits []float32, b *samegame.Board, groups []samegame.Group) []float64 {
	s := make([]float64, len(groups))
	for c, gi := range components(b, groups, nil) {
		if gi >= 0 {
			s[gi] += sigmoid(logits[c])
		}
	}
	for gi, g := range groups {
		s[gi] /= float64(g.Size)
	}
	return s
}

// value1 is the value head's estimate of the clicks left on b, the i-th
// board of logits, raised to the colours left (a lower bound: each colour
// needs a click).
func (p *Policy) value1(logits []float32, i int, b *samegame.Board) float64 {
	if b.IsEmpty() {
		return 0
	}
	stride, cells := p.net.Spec().Outputs, p.geo.Cells()
	v := 0.0
	for _, z := range logits[i*stride+cells : (i+1)*stride] {
		v += sigmoid(z)
	}
	return max(v, float64(b.ColorsLeft()))
}

// logits encodes boards (which must fit the policy) and runs the network
// on them in one batch.
func (p *Policy) logits(boards []*samegame.Board) ([]float32, error) {
	x := make([]float32, 0, len(boards)*p.geo.InputSize())
	for _, b := range boards {
		if err := p.geo.Fits(b); err != nil {
			return nil, err
		}
		x = p.geo.Encode(x, b)
	}
	return p.net.Logits(x)
}

// Values estimates the clicks left to clear each board with the value head
// (the expected value of its ordinal outputs, at most ValueBits, raised to
// the number of colours left), in one batch; an empty board gets 0. It returns an error when the network has
// no value head.
func (p *Policy) Values(boards []*samegame.Board) ([]float64, error) {
	if !p.value {
		return nil, errors.New("policy: the network has no value head")
	}
	logits, err := p.logits(boards)
	if err != nil {
		return nil, err
	}
	v := make([]float64, len(boards))
	for i, b := range boards {
		v[i] = p.value1(logits, i, b)
	}
	return v, nil
}

func sigmoid(z float32) float64 { return 1 / (1 + math.Exp(-float64(z))) }

// afterScores is Scores for an afterstate network: every board's children
// go through the network in one batch.
func (p *Policy) afterScores(boards []*samegame.Board) ([][]float64, [][]samegame.Group, error) {
	for _, b := range boards {
		if err := p.geo.Fits(b); err != nil {
			return nil, nil, err
		}
	}
	groups := make([][]samegame.Group, len(boards))
	first := make([]int, len(boards)+1) // children of board i: first[i]..first[i+1]
	for i, b := range boards {
		groups[i] = b.Groups(nil)
		first[i+1] = first[i] + len(groups[i])
	}
	in, n := p.geo.InputSize(), first[len(boards)]
	// The mirror is a symmetry of the game when the width is even.
	mirrors := 1 + (1 - p.geo.W%2)
	views := min(max(p.Views, 1), mirrors*p.geo.Colors)
	// View v: colours shifted by v/mirrors, mirrored when v is odd (and
	// the mirror a symmetry).
	perms := make([][samegame.MaxColors + 1]int, views)
	for v := range perms {
		for ch := 1; ch <= p.geo.Colors; ch++ {
			perms[v][ch] = 1 + (ch-1+v/mirrors)%p.geo.Colors
		}
	}
	x := make([]float32, views*n*in)
	empty := make([]bool, n)
	encode := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			for j, g := range groups[i] {
				c := *boards[i]
				c.PlayGroup(g)
				k := first[i] + j
				empty[k] = c.IsEmpty()
				v0 := x[k*in : (k+1)*in]
				p.geo.Encode(v0[:0], &c)
				for v := 1; v < views; v++ {
					xv := x[(v*n+k)*in : (v*n+k+1)*in]
					copy(xv, v0)
					p.geo.transform(xv, nil, &perms[v], mirrors == 2 && v%2 == 1)
				}
			}
		}
	}
	parallel(len(boards), 32, encode)
	logits, err := p.net.Logits(x)
	if err != nil {
		return nil, nil, err
	}
	for k := range n {
		for v := 1; v < views; v++ {
			logits[k] += logits[v*n+k]
		}
		logits[k] /= float32(views)
	}
	scores := make([][]float64, len(boards))
	parallel(len(boards), 128, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			z := logits[first[i]:first[i+1]]
			scores[i] = softmaxScores(z, empty[first[i]:first[i+1]])
		}
	})
	return scores, groups, nil
}

// softmaxScores is the softmax of the children's logits z, except that
// when some children are empty boards they share all the mass.
func softmaxScores(z []float32, empty []bool) []float64 {
	s := make([]float64, len(z))
	if slices.Contains(empty, true) {
		for i, e := range empty {
			if e {
				s[i] = 1
			}
		}
	} else {
		m := float32(math.Inf(-1))
		for _, v := range z {
			m = max(m, v)
		}
		for i, v := range z {
			s[i] = math.Exp(float64(v - m))
		}
	}
	sum := 0.0
	for _, v := range s {
		sum += v
	}
	for i := range s {
		s[i] /= sum
	}
	return s
}

// parallel runs f over [0, n) in contiguous pieces, one per core but no
// more than n/per pieces.
func parallel(n, per int, f func(lo, hi int)) {
	k := min(runtime.GOMAXPROCS(0), n/per)
	if k <= 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for w := range k {
		wg.Go(func() { f(w*n/k, (w+1)*n/k) })
	}
	wg.Wait()
}

// Certainty returns the source blog's certainty board of b under p: per
// cell (index y*w+x, row 0 at the bottom) the probability that the group
// holding it is the click to make, the group's score over the sum of the
// scores of b's groups (so the groups' probabilities sum to 1 and a
// group's cells share one); -1 for an empty cell.
func (p *Policy) Certainty(b *samegame.Board) ([]float64, error) {
	if err := p.geo.Fits(b); err != nil {
		return nil, err
	}
	scores, groups, err := p.Scores([]*samegame.Board{b})
	if err != nil {
		return nil, err
	}
	sum := 0.0
	for _, v := range scores[0] {
		sum += v
	}
	at := make(map[samegame.Move]float64, len(groups[0]))
	for i, g := range groups[0] {
		at[g.Move()] = scores[0][i] / max(sum, 1e-12)
	}
	w := b.Width()
	cert := make([]float64, w*b.Height())
	for y := range b.Height() {
		for x := range w {
			cert[y*w+x] = -1
			if g, ok := b.GroupAt(x, y); ok {
				cert[y*w+x] = at[g.Move()]
			}
		}
	}
	return cert, nil
}

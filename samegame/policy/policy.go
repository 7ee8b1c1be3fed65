package policy

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"math"
	"os"
	"sync"

	"tessera/internal/nn"
	"tessera/samegame"
)

// Policy is a network that, given a board, marks the cells of the group to
// click: one sigmoid output per cell (the source's design).
type Policy struct {
	net *nn.Net
	geo Geometry
	// Info is how the network was trained (free text from its file).
	Info map[string]string
}

// Arch is a network architecture for a policy: 3x3 convolution layers,
// then dense layers. The zero value is the default, DefaultArch.
type Arch struct {
	Conv, Hidden []int
}

// DefaultArch is the architecture of the shipped network: two 3x3
// convolutions of 32 channels and a dense layer of 256 (0.42 M weights),
// which trains on two cores in well under an hour. Convolutions see which
// neighbours share a colour, which is what a group is: trained on the same
// 580 positions, it reached a validation accuracy (top output on the
// solver's group) of 0.45 where three dense layers of 512
// (Arch{Hidden: []int{512, 512, 512}}, ten times faster to run) reached
// 0.35. The source's network is ten dense layers of 1,500.
var DefaultArch = Arch{Conv: []int{32, 32}, Hidden: []int{256}}

// New returns an untrained policy for boards of geo with weights drawn from
// seed.
func New(geo Geometry, arch Arch, seed uint64) (*Policy, error) {
	if len(arch.Conv) == 0 && len(arch.Hidden) == 0 {
		arch = DefaultArch
	}
	net, err := nn.New(nn.Spec{Input: []int{geo.H, geo.W, geo.Channels()}, Conv: arch.Conv, Hidden: arch.Hidden,
		Outputs: geo.Cells()}, seed)
	if err != nil {
		return nil, err
	}
	return &Policy{net: net, geo: geo}, nil
}

// Read reads a policy written by Write.
func Read(r io.Reader) (*Policy, error) {
	net, info, err := nn.Read(r)
	if err != nil {
		return nil, err
	}
	s := net.Spec()
	if len(s.Input) != 3 || s.Input[2] < 2 || s.Outputs != s.Input[0]*s.Input[1] {
		return nil, fmt.Errorf("policy: network of input %v and %d outputs is not a board policy", s.Input, s.Outputs)
	}
	return &Policy{net: net, geo: Geometry{W: s.Input[1], H: s.Input[0], Colors: s.Input[2] - 1}, Info: info}, nil
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

// Net returns the underlying network.
func (p *Policy) Net() *nn.Net { return p.net }

//go:embed testdata/dust.nn
var defaultModel []byte

var (
	defaultOnce   sync.Once
	defaultPolicy *Policy
	defaultErr    error
)

// Default returns the shipped policy for the dust game (8x6, 5 colours),
// trained on optimal solutions of the exact solver (see Info for how).
// It is loaded once; the same value is returned to every caller.
func Default() (*Policy, error) {
	defaultOnce.Do(func() { defaultPolicy, defaultErr = Read(bytes.NewReader(defaultModel)) })
	return defaultPolicy, defaultErr
}

// Scores evaluates the policy on boards (all must fit its geometry) in one
// batch and returns, for each board, the score of each of its groups in the
// order of Board.Groups: the mean sigmoid output over the group's cells,
// in (0, 1).
func (p *Policy) Scores(boards []*samegame.Board) ([][]float64, [][]samegame.Group, error) {
	x := make([]float32, 0, len(boards)*p.geo.InputSize())
	for _, b := range boards {
		if err := p.geo.Fits(b); err != nil {
			return nil, nil, err
		}
		x = p.geo.Encode(x, b)
	}
	logits, err := p.net.Logits(x)
	if err != nil {
		return nil, nil, err
	}
	scores := make([][]float64, len(boards))
	groups := make([][]samegame.Group, len(boards))
	var comp []int
	cells := p.geo.Cells()
	for i, b := range boards {
		groups[i] = b.Groups(nil)
		comp = components(b, groups[i], comp)
		s := make([]float64, len(groups[i]))
		for c, gi := range comp {
			if gi >= 0 {
				s[gi] += sigmoid(logits[i*cells+c])
			}
		}
		for gi, g := range groups[i] {
			s[gi] /= float64(g.Size)
		}
		scores[i] = s
	}
	return scores, groups, nil
}

func sigmoid(z float32) float64 { return 1 / (1 + math.Exp(-float64(z))) }

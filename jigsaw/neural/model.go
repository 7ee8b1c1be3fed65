package neural

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"tessera/nn"
)

// Model is the learned part of the solver: the pair network, which scores
// whether one patch continues another across the gap, and for each grid
// size the P (policy) and V (value) heads over the pair table.
type Model struct {
	// Patch and Gap are the geometry the pair network was trained for.
	Patch, Gap int
	// Strip is the width in pixels of the border strip of each patch that
	// the pair network sees.
	Strip int
	Pair  *nn.Net
	// Heads[g] are the P and V heads of g x g puzzles.
	Heads map[int]Heads
	// Frag[g] are the P and V heads of g x g puzzles of fragments
	// (Puzzle.Fragments: patches missing, strays mixed in), whose P has
	// one more output (set aside) and whose inputs say what is set aside
	// (files fp<g>.nn and fv<g>.nn).
	Frag map[int]Heads
}

// Heads are the policy and value networks of one grid size.
type Heads struct {
	P, V *nn.Net
}

// Arch sizes the networks of a new model. The zero value is DefaultArch.
type Arch struct {
	// Strip is the border strip width (pixels) the pair network sees.
	Strip int
	// PairConv and PairHidden are the pair network's 3x3 convolution
	// channels and dense widths.
	PairConv, PairHidden []int
	// HeadConv and HeadHidden size both heads.
	HeadConv, HeadHidden []int
}

// DefaultArch is the shipped architecture: the pair network sees 6 px
// strips through two 3x3 convolutions of 16 channels and a dense layer of
// 32 (0.25 M weights); the heads have two 3x3 convolutions of 32 channels
// over the cell grid and a dense layer of 64.
var DefaultArch = Arch{Strip: 6, PairConv: []int{16, 16}, PairHidden: []int{32}, HeadConv: []int{32, 32}, HeadHidden: []int{64}}

func (a Arch) defaults() Arch {
	if a.Strip == 0 {
		a.Strip = DefaultArch.Strip
	}
	if a.PairConv == nil && a.PairHidden == nil {
		a.PairConv, a.PairHidden = DefaultArch.PairConv, DefaultArch.PairHidden
	}
	if a.HeadConv == nil && a.HeadHidden == nil {
		a.HeadConv, a.HeadHidden = DefaultArch.HeadConv, DefaultArch.HeadHidden
	}
	return a
}

// NewModel returns an untrained model for patches and gaps of g with
// weights drawn from seed; heads are added by NewHeads.
func NewModel(g Geometry, arch Arch, seed uint64) (*Model, error) {
	g = g.Defaults()
	arch = arch.defaults()
	if arch.Strip < 1 || arch.Strip > g.Patch {
		return nil, fmt.Errorf("neural: strip %d px for %d px patches", arch.Strip, g.Patch)
	}
	pair, err := nn.New(nn.Spec{Input: []int{g.Patch, 2 * arch.Strip, 4}, Conv: arch.PairConv, Hidden: arch.PairHidden, Outputs: 1}, seed)
	if err != nil {
		return nil, err
	}
	return &Model{Patch: g.Patch, Gap: g.GapPx(), Strip: arch.Strip, Pair: pair, Heads: map[int]Heads{}, Frag: map[int]Heads{}}, nil
}

// NewHeads returns untrained heads for grid x grid puzzles.
func NewHeads(grid int, arch Arch, seed uint64) (Heads, error) {
	return newHeads(grid, pChannels, vChannels, grid*grid, arch, seed)
}

// newHeads returns untrained heads for grid x grid cells of pc channels
// (P, of outputs outputs) and vc channels (V), drawn from seed.
func newHeads(grid, pc, vc, outputs int, arch Arch, seed uint64) (Heads, error) {
	arch = arch.defaults()
	p, err := nn.New(nn.Spec{Input: []int{grid, grid, pc}, Conv: arch.HeadConv, Hidden: arch.HeadHidden, Outputs: outputs}, seed)
	if err != nil {
		return Heads{}, err
	}
	v, err := nn.New(nn.Spec{Input: []int{grid, grid, vc}, Conv: arch.HeadConv, Hidden: arch.HeadHidden, Outputs: 1}, seed+1)
	if err != nil {
		return Heads{}, err
	}
	return Heads{P: p, V: v}, nil
}

// Geometry is the geometry of grid x grid puzzles the model was made for
// (a 0 px gap as NoGap).
func (m *Model) Geometry(grid int) Geometry {
	return Geometry{Grid: grid, Patch: m.Patch, Gap: GapOf(m.Gap)}
}

// Fits reports whether the model solves puzzles of geometry g.
func (m *Model) Fits(g Geometry) error {
	if g.Patch != m.Patch || g.GapPx() != m.Gap {
		return fmt.Errorf("neural: the model is for %d px patches with %d px gaps, not %d and %d", m.Patch, m.Gap, g.Patch, g.GapPx())
	}
	if _, ok := m.Heads[g.Grid]; !ok {
		return fmt.Errorf("neural: the model has no heads for %dx%d puzzles", g.Grid, g.Grid)
	}
	return nil
}

// strips holds the border strips of a puzzle's patches as the pair
// network reads them: strips[4*i+side] is Patch x Strip x 3 values
// (along the side, across it, channel), centred on 0. Sides: 0 top,
// 1 right, 2 bottom, 3 left; "across" counts from the side's inner end
// for right and bottom (so that a right strip followed by a left strip
// reads left to right across the gap).
func (m *Model) strips(pz *Puzzle) [][]float32 {
	p, w := m.Patch, m.Strip
	out := make([][]float32, 4*len(pz.Patches))
	for i, pc := range pz.Patches {
		for side := range 4 {
			s := make([]float32, 0, p*w*3)
			for a := range p {
				for k := range w {
					var x, y int
					switch side {
					case 0:
						x, y = a, k
					case 1:
						x, y = p-w+k, a
					case 2:
						x, y = a, p-w+k
					case 3:
						x, y = k, a
					}
					r, g, b := pc.RGB(x, y)
					s = append(s, float32(r)/65535-0.5, float32(g)/65535-0.5, float32(b)/65535-0.5)
				}
			}
			out[4*i+side] = s
		}
	}
	return out
}

// pairInput appends the pair network's input for "b is the d-neighbour of
// a": Patch x 2*Strip x 4 (a's strip, then b's, and a channel that is 1
// for Below).
func (m *Model) pairInput(dst []float32, strips [][]float32, d, a, b int) []float32 {
	p, w := m.Patch, m.Strip
	sa, sb := strips[4*a+1], strips[4*b+3]
	if d == Below {
		sa, sb = strips[4*a+2], strips[4*b+0]
	}
	dir := float32(d)
	for i := range p {
		for k := range w {
			o := 3 * (i*w + k)
			dst = append(dst, sa[o], sa[o+1], sa[o+2], dir)
		}
		for k := range w {
			o := 3 * (i*w + k)
			dst = append(dst, sb[o], sb[o+1], sb[o+2], dir)
		}
	}
	return dst
}

// Table runs the pair network on every ordered pair of pz's patches in
// both directions (2n(n-1) examples in one batched call).
func (m *Model) Table(pz *Puzzle) (*Table, error) {
	n := len(pz.Patches)
	st := m.strips(pz)
	x := make([]float32, 0, 2*n*(n-1)*m.Pair.Spec().InputSize())
	for d := range 2 {
		for a := range n {
			for b := range n {
				if a != b {
					x = m.pairInput(x, st, d, a, b)
				}
			}
		}
	}
	logits, err := m.Pair.Logits(x)
	if err != nil {
		return nil, err
	}
	return NewTable(n, func(d, a, b int) float32 {
		k := d*n*(n-1) + a*(n-1) + b
		if b > a {
			k--
		}
		return logits[k]
	}), nil
}

// Priors evaluates P on states (none done) and returns, per state, the
// probability of each cell (0 for occupied cells): the softmax of P's
// logits over the empty cells.
func (h Heads) Priors(t *Table, states []*State, grid int) ([][]float64, error) {
	logits, err := logitsOf(h.P, states, grid*grid*pChannels, func(x []float32, s *State) []float32 { return t.encodeP(x, s, grid) })
	if err != nil {
		return nil, err
	}
	n := grid * grid
	out := make([][]float64, len(states))
	for i, s := range states {
		out[i] = maskedSoftmax(logits[i*n:(i+1)*n], func(c int) bool { return s.At[c] < 0 })
	}
	return out, nil
}

// maskedSoftmax is the softmax of the logits z over the outputs c with
// legal(c), 0 for the others.
func maskedSoftmax(z []float32, legal func(int) bool) []float64 {
	m := math.Inf(-1)
	for c, v := range z {
		if legal(c) {
			m = max(m, float64(v))
		}
	}
	pr := make([]float64, len(z))
	sum := 0.0
	for c, v := range z {
		if legal(c) {
			pr[c] = math.Exp(float64(v) - m)
			sum += pr[c]
		}
	}
	for c := range pr {
		pr[c] /= sum
	}
	return pr
}

// Values evaluates V on states: the estimated probability that each is
// (or, partial, can still become) a correct reassembly.
func (h Heads) Values(t *Table, states []*State, grid int) ([]float64, error) {
	logits, err := logitsOf(h.V, states, grid*grid*vChannels, func(x []float32, s *State) []float32 { return t.encodeV(x, s, grid) })
	return sigmoids(logits), err
}

// logitsOf runs net on states, each encoded by encode as size inputs.
func logitsOf(net *nn.Net, states []*State, size int, encode func([]float32, *State) []float32) ([]float32, error) {
	x := make([]float32, 0, len(states)*size)
	for _, s := range states {
		x = encode(x, s)
	}
	return net.Logits(x)
}

// sigmoids returns the logistic function of each of z (nil for nil).
func sigmoids(z []float32) []float64 {
	if z == nil {
		return nil
	}
	out := make([]float64, len(z))
	for i, v := range z {
		out[i] = 1 / (1 + math.Exp(-float64(v)))
	}
	return out
}

// File names of a model directory.
const pairFile = "pair.nn"

func headFile(kind string, grid int) string { return fmt.Sprintf("%s%d.nn", kind, grid) }

// Save writes the model into the directory dir (created if needed):
// pair.nn and p<g>.nn, v<g>.nn for every grid size g; info is recorded in
// pair.nn, with the model's patch, gap and strip sizes over any info
// keys of those names.
func (m *Model) Save(dir string, info map[string]string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	all := map[string]string{}
	for k, v := range info {
		all[k] = v
	}
	// The model's own geometry, whatever info says (a model loaded for
	// another gap and retrained keeps the info of the one it came from).
	all["patch"], all["gap"], all["strip"] = strconv.Itoa(m.Patch), strconv.Itoa(m.Gap), strconv.Itoa(m.Strip)
	if err := m.Pair.Save(filepath.Join(dir, pairFile), all); err != nil {
		return err
	}
	for g, h := range m.Heads {
		if err := h.P.Save(filepath.Join(dir, headFile("p", g)), nil); err != nil {
			return err
		}
		if err := h.V.Save(filepath.Join(dir, headFile("v", g)), nil); err != nil {
			return err
		}
	}
	for g, h := range m.Frag {
		if err := h.P.Save(filepath.Join(dir, headFile("fp", g)), nil); err != nil {
			return err
		}
		if err := h.V.Save(filepath.Join(dir, headFile("fv", g)), nil); err != nil {
			return err
		}
	}
	return nil
}

// Load reads a model directory written by Save.
func Load(dir string) (*Model, map[string]string, error) {
	return loadFS(os.DirFS(dir))
}

func loadFS(fsys fs.FS) (*Model, map[string]string, error) {
	data, err := fs.ReadFile(fsys, pairFile)
	if err != nil {
		return nil, nil, fmt.Errorf("neural: %w", err)
	}
	pair, info, err := nn.Read(bytes.NewReader(data))
	if err != nil {
		return nil, nil, fmt.Errorf("neural: %s: %w", pairFile, err)
	}
	m := &Model{Pair: pair, Heads: map[int]Heads{}, Frag: map[int]Heads{}}
	m.Patch, _ = strconv.Atoi(info["patch"])
	m.Gap, _ = strconv.Atoi(info["gap"])
	m.Strip, _ = strconv.Atoi(info["strip"])
	if in := pair.Spec().Input; len(in) != 3 || in[0] != m.Patch || in[1] != 2*m.Strip || in[2] != 4 || m.Gap < 0 {
		return nil, nil, fmt.Errorf("neural: %s: input %v does not fit patch %d, strip %d", pairFile, in, m.Patch, m.Strip)
	}
	for g := 2; g <= 8; g++ {
		for _, k := range []struct {
			prefix      string
			heads       map[int]Heads
			pCh, vCh, o int
		}{{"", m.Heads, pChannels, vChannels, 0}, {"f", m.Frag, fpChannels, fvChannels, 1}} {
			h, ok, err := readHeads(fsys, k.prefix, g, k.pCh, k.vCh, g*g+k.o)
			if err != nil {
				return nil, nil, err
			}
			if ok {
				k.heads[g] = h
			}
		}
	}
	return m, info, nil
}

// readHeads reads the heads prefix+p<g>.nn and prefix+v<g>.nn of fsys,
// when both are there, and checks their shapes (pCh and vCh input
// channels, pOut outputs for P).
func readHeads(fsys fs.FS, prefix string, g, pCh, vCh, pOut int) (Heads, bool, error) {
	pf, vf := headFile(prefix+"p", g), headFile(prefix+"v", g)
	pd, perr := fs.ReadFile(fsys, pf)
	vd, verr := fs.ReadFile(fsys, vf)
	if perr != nil || verr != nil {
		return Heads{}, false, nil
	}
	p, _, err := nn.Read(bytes.NewReader(pd))
	if err != nil {
		return Heads{}, false, fmt.Errorf("neural: %s: %w", pf, err)
	}
	v, _, err := nn.Read(bytes.NewReader(vd))
	if err != nil {
		return Heads{}, false, fmt.Errorf("neural: %s: %w", vf, err)
	}
	if in := p.Spec().Input; len(in) != 3 || in[0] != g || in[1] != g || in[2] != pCh || p.Spec().Outputs != pOut {
		return Heads{}, false, fmt.Errorf("neural: %s does not fit %dx%d puzzles", pf, g, g)
	}
	if in := v.Spec().Input; len(in) != 3 || in[0] != g || in[1] != g || in[2] != vCh || v.Spec().Outputs != 1 {
		return Heads{}, false, fmt.Errorf("neural: %s does not fit %dx%d puzzles", vf, g, g)
	}
	return Heads{P: p, V: v}, true, nil
}

//go:embed models
var shipped embed.FS

var (
	defaultOnce  sync.Once
	defaultModel *Model
	defaultInfo  map[string]string
	defaultErr   error
)

// For returns the shipped model for puzzles of g's patch and gap sizes:
// Default for 40 px patches with 4 px gaps, otherwise the model of the
// folder models/pPATCH-gGAP (models/README.md lists them: 3x3 heads, or
// 2x2 for patches that touch), loaded once. It fails when none was shipped
// for g.
func For(g Geometry) (*Model, map[string]string, error) {
	g = g.Defaults()
	m, info, err := Default()
	if err != nil || (m.Patch == g.Patch && m.Gap == g.GapPx()) {
		return m, info, err
	}
	name := geometryDir(g.Patch, g.GapPx())
	otherMu.Lock()
	defer otherMu.Unlock()
	if e, ok := others[name]; ok {
		return e.m, e.info, e.err
	}
	var e loaded
	if sub, err := fs.Sub(shipped, "models/"+name); err != nil {
		e.err = err
	} else if _, err := fs.Stat(sub, pairFile); err != nil {
		e.err = fmt.Errorf("neural: no model shipped for %d px patches with %d px gaps (models: %s)", g.Patch, g.GapPx(), strings.Join(ShippedGeometries(), ", "))
	} else {
		e.m, e.info, e.err = loadFS(sub)
	}
	others[name] = e
	return e.m, e.info, e.err
}

// ShippedGeometries lists the shipped models' geometries as "40 px / 4 px"
// strings, the default first.
func ShippedGeometries() []string {
	out := []string{"40 px / 4 px"}
	entries, _ := fs.ReadDir(shipped, "models")
	for _, e := range entries {
		var p, g int
		if _, err := fmt.Sscanf(e.Name(), "p%d-g%d", &p, &g); err == nil && e.IsDir() && e.Name() == geometryDir(p, g) {
			out = append(out, fmt.Sprintf("%d px / %d px", p, g))
		}
	}
	return out
}

func geometryDir(patch, gap int) string { return fmt.Sprintf("p%d-g%d", patch, gap) }

type loaded struct {
	m    *Model
	info map[string]string
	err  error
}

var (
	otherMu sync.Mutex
	others  = map[string]loaded{}
)

// Default returns the shipped model (40 px patches, 4 px gaps, heads for
// the grid sizes it was trained on; Info says how), loaded once.
func Default() (*Model, map[string]string, error) {
	defaultOnce.Do(func() {
		sub, err := fs.Sub(shipped, "models")
		if err != nil {
			defaultErr = err
			return
		}
		defaultModel, defaultInfo, defaultErr = loadFS(sub)
	})
	return defaultModel, defaultInfo, defaultErr
}

// Regap makes m, a model for patches of g's side, one for g's gap when
// stage trains the pair network first (all or pair): the pair network
// reads strips of the same size whatever the gap, and it and the heads
// then train on puzzles of the new gap. It reports whether m now has g's
// patch and gap.
func (m *Model) Regap(g Geometry, stage string) bool {
	if m.Patch == g.Patch && (stage == "all" || stage == "pair") {
		m.Gap = g.GapPx()
	}
	return m.Patch == g.Patch && m.Gap == g.GapPx()
}

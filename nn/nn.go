package nn

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/gobackend"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graphs read best with the dot import
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/layers"
	"github.com/gomlx/gomlx/ml/layers/activation"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train"
)

// Spec describes a network: an input of shape Input per example, then Conv
// 3x3 convolution layers (same padding, ReLU; only when Input is [H, W, C]),
// then Hidden dense ReLU layers on the flattened features, then a dense
// layer of Outputs logits.
type Spec struct {
	Input   []int `json:"input"`
	Conv    []int `json:"conv,omitempty"`
	Hidden  []int `json:"hidden,omitempty"`
	Outputs int   `json:"outputs"`
}

// InputSize is the number of input values of one example.
func (s Spec) InputSize() int {
	n := 1
	for _, d := range s.Input {
		n *= d
	}
	return n
}

// Validate reports whether s describes a network New can build.
func (s Spec) Validate() error {
	if len(s.Input) == 0 || s.InputSize() <= 0 || slices.ContainsFunc(s.Input, func(d int) bool { return d <= 0 }) {
		return fmt.Errorf("nn: bad input shape %v", s.Input)
	}
	if len(s.Conv) > 0 && len(s.Input) != 3 {
		return fmt.Errorf("nn: convolutions need an input of shape [H, W, C], not %v", s.Input)
	}
	if slices.ContainsFunc(s.Conv, func(c int) bool { return c <= 0 }) || slices.ContainsFunc(s.Hidden, func(c int) bool { return c <= 0 }) {
		return errors.New("nn: layer widths must be positive")
	}
	if s.Outputs <= 0 {
		return errors.New("nn: no outputs")
	}
	return nil
}

var (
	backendOnce sync.Once
	backendVal  compute.Backend
	backendErr  error
)

// Backend returns the process's GoMLX backend: the pure-Go one
// (github.com/gomlx/compute/gobackend), which needs no cgo and downloads
// nothing. It sets GOMLX_NO_AUTO_INSTALL=1 first, so that no GoMLX code
// linked in by a dependency tries to fetch a native backend. Built with
// GOEXPERIMENT=simd (Go 1.26, amd64), its matrix products use AVX2/AVX-512
// kernels: about 2.5x faster training and 6x faster batched inference.
func Backend() (compute.Backend, error) {
	backendOnce.Do(func() {
		os.Setenv("GOMLX_NO_AUTO_INSTALL", "1")
		backendVal, backendErr = gobackend.New("")
		if backendErr != nil {
			backendErr = fmt.Errorf("nn: go backend: %w", backendErr)
		}
	})
	return backendVal, backendErr
}

// Net is a network of a Spec with its weights. Its methods are safe for
// concurrent use (calls are serialised).
type Net struct {
	spec    Spec
	backend compute.Backend
	store   *model.Store

	mu    sync.Mutex
	infer *model.Exec
	// fast is the hand-written forward pass over a copy of the weights
	// (see fastNet), built on first use and dropped when they change.
	fast *fastNet
	// trainer is kept between calls of Train with the same learning rate,
	// so that its compiled graphs and Adam's moments carry over.
	trainer      *train.Trainer
	trainerLR    float64
	trainerLoss  Loss
	trainerGroup int
}

// modelScope is the scope of the network's weights in its store; the
// optimizer keeps its state elsewhere.
const modelScope = "model"

// New returns a network of spec with weights drawn from seed.
func New(spec Spec, seed uint64) (*Net, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	b, err := Backend()
	if err != nil {
		return nil, err
	}
	store := model.NewStore()
	store.SetParam(model.ParamInitialSeed, int64(seed>>1))
	return &Net{spec: spec, backend: b, store: store}, nil
}

// Spec returns the network's description.
func (n *Net) Spec() Spec { return n.spec }

// Params returns the number of weights (after the first use: the weights
// are created when a graph first needs them).
func (n *Net) Params() int {
	k := 0
	for v := range n.store.IterVariables() {
		if isModelVar(v) {
			k += v.Shape().Size()
		}
	}
	return k
}

func isModelVar(v *model.Variable) bool {
	p := v.Path()
	return len(p) > len(modelScope)+1 && p[1:len(modelScope)+1] == modelScope && p[len(modelScope)+1] == '/'
}

// forward builds the network on x, of shape [batch, Input...], and returns
// the logits [batch, Outputs].
func (n *Net) forward(scope *model.Scope, x *Node) *Node {
	s := scope.In(modelScope)
	batch := x.Shape().Dimensions[0]
	for i, ch := range n.spec.Conv {
		x = activation.Relu(Conv3x3(s.In("conv%d", i), x, ch))
	}
	x = Reshape(x, batch, -1)
	for i, w := range n.spec.Hidden {
		x = activation.Relu(layers.Dense(s.In("hidden%d", i), x, true, w))
	}
	return layers.Dense(s.In("out"), x, true, n.spec.Outputs)
}

// Conv3x3 is a 3x3 convolution with zero padding and stride 1 on x of shape
// [batch, H, W, C], returning [batch, H, W, channels]. It is written as
// im2col (nine shifted slices concatenated) followed by a dense layer,
// which the pure-Go backend runs about 30 times faster than its generic
// ConvGeneral (see shared/research/ml.md).
func Conv3x3(scope *model.Scope, x *Node, channels int) *Node {
	g := x.Graph()
	d := x.Shape().Dimensions
	xp := Pad(x, ScalarZero(g, x.DType()), PadAxis{}, PadAxis{Start: 1, End: 1}, PadAxis{Start: 1, End: 1}, PadAxis{})
	parts := make([]*Node, 0, 9)
	for dy := range 3 {
		for dx := range 3 {
			parts = append(parts, Slice(xp, AxisRange(), AxisRange(dy, dy+d[1]), AxisRange(dx, dx+d[2]), AxisRange()))
		}
	}
	return layers.Dense(scope, Concatenate(parts, -1), true, channels)
}

// maxBatch is the largest batch one inference call runs; bigger inputs are
// split.
const maxBatch = 256

// batchSize rounds k up to a power of two (at most maxBatch), so that only a
// few graphs are ever compiled.
func batchSize(k int) int {
	b := 1
	for b < k && b < maxBatch {
		b *= 2
	}
	return b
}

// Logits runs the network on k examples, x holding k*InputSize values
// (example after example, in the order of Spec.Input), and returns
// k*Outputs logits. It runs the hand-written forward pass (fastNet: about
// three times the GoMLX graph's examples per second on the dust policy's
// CNN, in the plain build and with GOEXPERIMENT=simd), on every core for
// large k; its results are deterministic and agree with the graph's to
// float32 rounding.
func (n *Net) Logits(x []float32) ([]float32, error) {
	in := n.spec.InputSize()
	if len(x)%in != 0 {
		return nil, fmt.Errorf("nn: %d input values is not a multiple of the input size %d", len(x), in)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.logitsLocked(x)
}

func (n *Net) logitsLocked(x []float32) ([]float32, error) {
	if n.fast == nil {
		ws := n.weights()
		if len(ws) == 0 {
			// The weights are created when a graph first needs them.
			if _, err := n.graphLogits(make([]float32, n.spec.InputSize())); err != nil {
				return nil, err
			}
			ws = n.weights()
		}
		f, err := newFastNet(n.spec, ws)
		if err != nil {
			return nil, err
		}
		n.fast = f
	}
	return n.fast.logits(x), nil
}

// graphLogits is Logits on the GoMLX graph. Examples are evaluated in
// batches of up to 256; each batch size (rounded up to a power of two)
// compiles its graph once.
func (n *Net) graphLogits(x []float32) ([]float32, error) {
	in := n.spec.InputSize()
	k := len(x) / in
	out := make([]float32, 0, k*n.spec.Outputs)
	if n.infer == nil {
		e, err := model.NewExec(n.backend, n.store, n.forward)
		if err != nil {
			return nil, fmt.Errorf("nn: %w", err)
		}
		e.SetMaxCache(16)
		n.infer = e
	}
	var buf []float32
	for lo := 0; lo < k; lo += maxBatch {
		m := min(k-lo, maxBatch)
		b := batchSize(m)
		buf = append(buf[:0], x[lo*in:(lo+m)*in]...)
		buf = append(buf, make([]float32, (b-m)*in)...)
		t := tensors.FromFlatDataAndDimensions(buf, append([]int{b}, n.spec.Input...)...)
		res, err := n.infer.Call(t)
		t.FinalizeAll()
		if err != nil {
			return nil, fmt.Errorf("nn: %w", err)
		}
		flat, err := tensors.CopyFlatData[float32](res[0])
		res[0].FinalizeAll()
		if err != nil {
			return nil, fmt.Errorf("nn: %w", err)
		}
		out = append(out, flat[:m*n.spec.Outputs]...)
	}
	return out, nil
}

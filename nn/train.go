package nn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graphs read best with the dot import
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/train"
	"github.com/gomlx/gomlx/ml/train/loss"
	"github.com/gomlx/gomlx/ml/train/optimizer"
)

// Data is a set of examples: X holds N*InputSize inputs and Y N*Outputs
// targets in [0, 1], example after example.
type Data struct {
	X, Y []float32
	N    int
}

// TrainOptions configure Train. The zero value trains 10 epochs of batches
// of 64 with Adam at a learning rate of 1e-3, keeping 10% of the examples for
// validation and stopping after 3 epochs without a better validation loss.
type TrainOptions struct {
	// Epochs is the most passes over the training examples (default 10).
	Epochs int
	// MaxSteps stops after this many batches (0: no limit).
	MaxSteps int
	// BatchSize is the number of examples per step (default 64).
	BatchSize int
	// LearningRate of Adam (default 1e-3).
	LearningRate float64
	// Validation is the fraction of examples held out (default 0.1; a
	// negative value holds out none, as NoValidation does).
	Validation float64
	// NoValidation holds out no example; then no early stopping happens.
	NoValidation bool
	// Patience stops training after this many epochs without a better
	// validation loss (default 3). The weights of the best epoch are kept.
	Patience int
	// Seed drives the shuffles, the split and Augment.
	Seed uint64
	// Augment, when set, transforms one training example in place (x of
	// InputSize values, y of Outputs values) before it enters a batch:
	// symmetries of the task multiply the data.
	Augment func(x, y []float32, rng *rand.Rand)
	// Metric, when set, scores the validation predictions (logits and
	// targets of k examples) after every epoch, such as an accuracy.
	Metric func(logits, y []float32, k int) float64
	// Progress, when set, is called every few steps and after each epoch.
	Progress func(Stats)
	// Loss is the training loss; the zero value is LossBCE.
	Loss Loss
	// Group, when above 1, makes the examples come in groups of Group
	// consecutive ones that are shuffled, split and batched together
	// (BatchSize counts groups), and the loss sees each group's logits as
	// one row: with LossSoftmaxCE and a network of one output, a softmax
	// over the group, as when a network scores each of a position's
	// moves by the position it leads to. Targets of -1 mark padding, as in
	// LossSoftmaxCE. Augment still sees one example at a time; Metric sees
	// the groups (k groups of Group logits and targets).
	Group int
}

// Loss is a training loss on the network's logits.
type Loss uint8

const (
	// LossBCE is binary cross-entropy of sigmoid(logit) on every output
	// (targets in [0, 1], several may be 1).
	LossBCE Loss = iota
	// LossSoftmaxCE is the cross-entropy of the softmax of the logits against
	// targets that form a distribution over the outputs (one-hot for a
	// class). A negative target excludes its output from the softmax: an
	// illegal move of a policy.
	LossSoftmaxCE
	// LossMSE is the mean squared error of sigmoid(logit) against targets in
	// [0, 1] (a value network regressing a probability).
	LossMSE
)

// String returns "bce", "softmax-ce" or "mse".
func (l Loss) String() string {
	switch l {
	case LossBCE:
		return "bce"
	case LossSoftmaxCE:
		return "softmax-ce"
	case LossMSE:
		return "mse"
	}
	return fmt.Sprintf("Loss(%d)", uint8(l))
}

// lossFn is the graph of the loss l (labels then logits).
func (l Loss) lossFn() func(labels, logits []*Node) *Node {
	switch l {
	case LossSoftmaxCE:
		return func(labels, logits []*Node) *Node {
			y, z := labels[0], logits[0]
			legal := GreaterOrEqual(y, ZerosLike(y))
			z = Where(legal, z, AddScalar(ZerosLike(z), -1e9))
			return ReduceAllMean(ReduceSum(Neg(Mul(Max(y, ZerosLike(y)), LogSoftmax(z))), -1))
		}
	case LossMSE:
		return func(labels, logits []*Node) *Node {
			d := Sub(Sigmoid(logits[0]), labels[0])
			return ReduceAllMean(Mul(d, d))
		}
	}
	return loss.BinaryCrossentropyLogits
}

// Eval is the loss l of logits against targets y (out values per example),
// as the training loop computes it, averaged over the examples.
func (l Loss) Eval(logits, y []float32, out int) float64 {
	switch l {
	case LossSoftmaxCE:
		s := 0.0
		for e := 0; e+out <= len(logits); e += out {
			z, t := logits[e:e+out], y[e:e+out]
			m := math.Inf(-1)
			for i, v := range z {
				if t[i] >= 0 {
					m = max(m, float64(v))
				}
			}
			lse := 0.0
			for i, v := range z {
				if t[i] >= 0 {
					lse += math.Exp(float64(v) - m)
				}
			}
			lse = m + math.Log(lse)
			for i, v := range z {
				if t[i] > 0 {
					s -= float64(t[i]) * (float64(v) - lse)
				}
			}
		}
		return s / float64(len(logits)/out)
	case LossMSE:
		s := 0.0
		for i, z := range logits {
			d := 1/(1+math.Exp(-float64(z))) - float64(y[i])
			s += d * d
		}
		return s / float64(len(logits))
	}
	return BCE(logits, y)
}

// Stats describe training so far.
type Stats struct {
	Epoch, Step int
	// Examples trained on, and per second of wall-clock time.
	Examples    int64
	ExamplesSec float64
	// Loss is the training loss of the last batch (TrainOptions.Loss);
	// ValLoss and ValMetric are those of the last finished epoch (NaN
	// before the first).
	Loss, ValLoss, ValMetric float64
	// BestEpoch is the epoch whose weights are kept (1-based; 0: none yet).
	BestEpoch int
	// EpochDone is set on the call that ends an epoch.
	EpochDone bool
	Elapsed   time.Duration
}

// ErrDiverged reports a training loss that became NaN or infinite.
var ErrDiverged = errors.New("nn: training diverged")

// Train fits the network to data with opts.Loss (by default binary
// cross-entropy on every output: sigmoid targets, several may be 1) and
// Adam (Kingma and Ba, 2015), shuffling every epoch, holding out a validation split, and stopping
// early (keeping the best epoch's weights). A context that ends stops
// training after the current step and returns its error with the best
// weights so far in place. Cost per step: one forward and backward pass
// over a batch.
func (n *Net) Train(ctx context.Context, data Data, opts TrainOptions) (Stats, error) {
	in, out := n.spec.InputSize(), n.spec.Outputs
	if data.N <= 0 || len(data.X) != data.N*in || len(data.Y) != data.N*out {
		return Stats{}, fmt.Errorf("nn: data of %d examples needs %d inputs and %d targets, has %d and %d",
			data.N, data.N*in, data.N*out, len(data.X), len(data.Y))
	}
	group := max(opts.Group, 1)
	if group > 1 {
		if out != 1 || opts.Loss != LossSoftmaxCE {
			return Stats{}, errors.New("nn: groups of examples need a network of one output and LossSoftmaxCE")
		}
		if data.N%group != 0 {
			return Stats{}, fmt.Errorf("nn: %d examples are not groups of %d", data.N, group)
		}
		// From here on an "example" is a group: its inputs and targets are
		// contiguous.
		data.N /= group
		in, out = in*group, group
	}
	opts = opts.withDefaults()
	rng := rand.New(rand.NewPCG(opts.Seed, 0x6e6e))
	order := rng.Perm(data.N)
	nVal := 0
	if opts.Validation > 0 {
		nVal = min(int(float64(data.N)*opts.Validation), data.N-1)
	}
	val, tr := order[:nVal], order[nVal:]
	valX, valY := gather(data, val, in, out)

	n.mu.Lock()
	defer n.mu.Unlock()
	trainer := n.trainerLocked(opts, group)

	st := Stats{ValLoss: math.NaN(), ValMetric: math.NaN()}
	start := time.Now()
	best := math.Inf(1)
	var bestW map[string][]float32
	bs := opts.BatchSize
	xb, yb := make([]float32, bs*in), make([]float32, bs*out)
	var err error
loop:
	for epoch := 1; epoch <= opts.Epochs; epoch++ {
		st.Epoch = epoch
		rng.Shuffle(len(tr), func(i, j int) { tr[i], tr[j] = tr[j], tr[i] })
		for lo := 0; lo+bs <= len(tr) || (lo == 0 && len(tr) > 0); lo += bs {
			if err = ctx.Err(); err != nil {
				break loop
			}
			fillBatch(xb, yb, data, tr, lo, in, out, group, opts.Augment, rng)
			batch := train.Batch{
				Inputs: []*tensors.Tensor{tensors.FromFlatDataAndDimensions(xb, append([]int{bs * group}, n.spec.Input...)...)},
				Labels: []*tensors.Tensor{tensors.FromFlatDataAndDimensions(yb, bs, out)},
			}
			metrics, terr := trainer.TrainStep(batch)
			n.fast = nil // the weights changed
			if terr != nil {
				err = fmt.Errorf("nn: train step: %w", terr)
				break loop
			}
			st.Loss = scalar(metrics[1])
			for _, m := range metrics {
				m.FinalizeAll()
			}
			if math.IsNaN(st.Loss) || math.IsInf(st.Loss, 0) {
				err = ErrDiverged
				break loop
			}
			st.Step++
			st.Examples += int64(bs * group)
			st.Elapsed = time.Since(start)
			st.ExamplesSec = float64(st.Examples) / st.Elapsed.Seconds()
			if opts.Progress != nil && st.Step%20 == 0 {
				opts.Progress(st)
			}
			if opts.MaxSteps > 0 && st.Step >= opts.MaxSteps {
				break
			}
		}
		if nVal > 0 {
			logits, lerr := n.logitsLocked(valX)
			if lerr != nil {
				err = lerr
				break
			}
			st.ValLoss = opts.Loss.Eval(logits, valY, out)
			if opts.Metric != nil {
				st.ValMetric = opts.Metric(logits, valY, nVal)
			}
			if st.ValLoss < best {
				best, st.BestEpoch, bestW = st.ValLoss, epoch, n.weights()
			}
		} else {
			st.BestEpoch = epoch
		}
		st.EpochDone = true
		st.Elapsed = time.Since(start)
		if opts.Progress != nil {
			opts.Progress(st)
		}
		st.EpochDone = false
		if (opts.MaxSteps > 0 && st.Step >= opts.MaxSteps) || (nVal > 0 && epoch-st.BestEpoch >= opts.Patience) {
			break
		}
	}
	if bestW != nil {
		if rerr := n.setWeights(bestW); rerr != nil && err == nil {
			err = rerr
		}
	}
	return st, err
}

// withDefaults fills in the defaults of the options left zero.
func (opts TrainOptions) withDefaults() TrainOptions {
	if opts.Epochs <= 0 {
		opts.Epochs = 10
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = 64
	}
	if opts.LearningRate <= 0 {
		opts.LearningRate = 1e-3
	}
	if opts.NoValidation {
		opts.Validation = -1
	}
	if opts.Validation == 0 {
		opts.Validation = 0.1
	}
	if opts.Patience <= 0 {
		opts.Patience = 3
	}
	return opts
}

// trainerLocked returns the network's trainer for opts' learning rate and
// loss over groups of group examples, made again when they changed. n.mu
// is held.
func (n *Net) trainerLocked(opts TrainOptions, group int) *train.Trainer {
	if n.trainer == nil || n.trainerLR != opts.LearningRate || n.trainerLoss != opts.Loss || n.trainerGroup != group {
		lossFn := opts.Loss.lossFn()
		if group > 1 {
			inner := lossFn
			lossFn = func(labels, logits []*Node) *Node {
				return inner(labels, []*Node{ReshapeLike(logits[0], labels[0])})
			}
		}
		n.trainer = train.NewTrainer(n.backend, n.store, n.forward, lossFn,
			optimizer.Adam().LearningRate(opts.LearningRate).Done(), nil, nil)
		n.trainerLR, n.trainerLoss, n.trainerGroup = opts.LearningRate, opts.Loss, group
	}
	return n.trainer
}

// fillBatch copies the examples tr[lo], tr[lo+1], ... (wrapping around)
// into the batch xb, yb (in inputs and out targets an example, each a
// group of group), each augmented when augment is set.
func fillBatch(xb, yb []float32, data Data, tr []int, lo, in, out, group int, augment func(x, y []float32, rng *rand.Rand), rng *rand.Rand) {
	for i := range len(xb) / in {
		e := tr[(lo+i)%len(tr)]
		x, y := xb[i*in:(i+1)*in], yb[i*out:(i+1)*out]
		copy(x, data.X[e*in:(e+1)*in])
		copy(y, data.Y[e*out:(e+1)*out])
		if augment != nil {
			// One example at a time, also within a group.
			ein, eout := in/group, out/group
			for j := range group {
				augment(x[j*ein:(j+1)*ein], y[j*eout:(j+1)*eout], rng)
			}
		}
	}
}

func gather(d Data, idx []int, in, out int) (x, y []float32) {
	x, y = make([]float32, 0, len(idx)*in), make([]float32, 0, len(idx)*out)
	for _, e := range idx {
		x = append(x, d.X[e*in:(e+1)*in]...)
		y = append(y, d.Y[e*out:(e+1)*out]...)
	}
	return x, y
}

func scalar(t *tensors.Tensor) float64 {
	switch v := t.Value().(type) {
	case float32:
		return float64(v)
	case float64:
		return v
	}
	return math.NaN()
}

// BCE is the mean binary cross-entropy of sigmoid(logits) against
// targets y, computed stably from the logits.
func BCE(logits, y []float32) float64 {
	s := 0.0
	for i, z := range logits {
		zf := float64(z)
		// log(1+exp(-|z|)) + max(z,0) - z*y
		s += math.Log1p(math.Exp(-math.Abs(zf))) + max(zf, 0) - zf*float64(y[i])
	}
	return s / float64(len(logits))
}

// weights copies the network's weights.
func (n *Net) weights() map[string][]float32 {
	w := map[string][]float32{}
	for v := range n.store.IterVariables() {
		if isModelVar(v) {
			if flat, err := tensors.CopyFlatData[float32](v.MustValue()); err == nil {
				w[v.Path()] = flat
			}
		}
	}
	return w
}

// setWeights restores weights copied by weights.
func (n *Net) setWeights(w map[string][]float32) error {
	n.fast = nil
	for v := range n.store.IterVariables() {
		if flat, ok := w[v.Path()]; ok {
			if err := v.SetValue(tensors.FromFlatDataAndDimensions(flat, v.Shape().Dimensions...)); err != nil {
				return fmt.Errorf("nn: %w", err)
			}
		}
	}
	return nil
}

// CopyLayers sets the weights of n that have a counterpart of the same
// name and shape in from (its convolution and hidden layers when the two
// share them) and returns how many weights it copied; the rest keep their
// values. Starting a network for a new output (a head of another size)
// from the trunk of a trained one is its use.
func (n *Net) CopyLayers(from *Net) (int, error) {
	if from == n {
		return 0, errors.New("nn: CopyLayers from the network itself")
	}
	// Using a network creates its weights.
	for _, m := range []*Net{from, n} {
		if _, err := m.Logits(make([]float32, m.spec.InputSize())); err != nil {
			return 0, err
		}
	}
	from.mu.Lock()
	src, srcShape := from.weights(), from.shapes()
	from.mu.Unlock()
	n.mu.Lock()
	defer n.mu.Unlock()
	keep := map[string][]float32{}
	copied := 0
	for name, shape := range n.shapes() {
		if slices.Equal(srcShape[name], shape) {
			keep[name] = src[name]
			copied += len(src[name])
		}
	}
	return copied, n.setWeights(keep)
}

// shapes returns the dimensions of each of the network's weights.
func (n *Net) shapes() map[string][]int {
	s := map[string][]int{}
	for v := range n.store.IterVariables() {
		if isModelVar(v) {
			s[v.Path()] = v.Shape().Dimensions
		}
	}
	return s
}

// GroupAccuracy is a TrainOptions.Metric for grouped examples
// (TrainOptions.Group): the share of the k groups whose highest logit
// among the non-padding examples (target -1) has a positive target, that
// is how often picking the best-rated candidate picks a good one.
func GroupAccuracy(logits, y []float32, k int) float64 {
	if k == 0 {
		return 0
	}
	n, hit := len(y)/k, 0
	for i := range k {
		best := -1
		for j := i * n; j < (i+1)*n; j++ {
			if y[j] >= 0 && (best < 0 || logits[j] > logits[best]) {
				best = j
			}
		}
		if best >= 0 && y[best] > 0 {
			hit++
		}
	}
	return float64(hit) / float64(k)
}

package nn

import (
	"bytes"
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// xorData is a tiny task no linear model solves: the target is the XOR of
// the first two inputs, and the second output their AND.
func xorData(n int, seed uint64) Data {
	rng := rand.New(rand.NewPCG(seed, 1))
	d := Data{N: n}
	for range n {
		a, b := rng.IntN(2), rng.IntN(2)
		d.X = append(d.X, float32(a), float32(b), rng.Float32())
		d.Y = append(d.Y, float32(a^b), float32(a&b))
	}
	return d
}

func TestTrainLearnsXor(t *testing.T) {
	net, err := New(Spec{Input: []int{3}, Hidden: []int{16}, Outputs: 2}, 1)
	if err != nil {
		t.Fatal(err)
	}
	d := xorData(512, 2)
	var epochs int
	st, err := net.Train(context.Background(), d, TrainOptions{Epochs: 60, BatchSize: 32, LearningRate: 0.01, Seed: 3,
		Patience: 60, Progress: func(s Stats) {
			if s.EpochDone {
				epochs++
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if st.ValLoss > 0.1 || epochs == 0 {
		t.Fatalf("validation loss %.3f after %d epochs, want < 0.1", st.ValLoss, epochs)
	}
	logits, err := net.Logits([]float32{0, 1, 0.5, 1, 1, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if logits[0] < 0 || logits[1] > 0 || logits[2] > 0 || logits[3] < 0 {
		t.Fatalf("logits %v: want xor(0,1)=1, and(0,1)=0, xor(1,1)=0, and(1,1)=1", logits)
	}
}

func TestConvSaveLoadIdentical(t *testing.T) {
	spec := Spec{Input: []int{4, 5, 2}, Conv: []int{3}, Hidden: []int{8}, Outputs: 4}
	net, err := New(spec, 7)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float32, 3*spec.InputSize())
	for i := range x {
		x[i] = rng.Float32()
	}
	d := Data{X: x, Y: make([]float32, 3*4), N: 3}
	if _, err := net.Train(context.Background(), d, TrainOptions{MaxSteps: 2, BatchSize: 2, Validation: -1}); err != nil {
		t.Fatal(err)
	}
	want, err := net.Logits(x)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := net.Write(&buf, map[string]string{"note": "test"}); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	net2, info, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if info["note"] != "test" || net2.Params() != net.Params() || net2.Params() != 9*2*3+3+4*5*3*8+8+8*4+4 {
		t.Fatalf("info %v, params %d and %d", info, net.Params(), net2.Params())
	}
	got, err := net2.Logits(x)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("logit %d: %v after loading, %v before", i, got[i], want[i])
		}
	}
	// Damaged files fail with an error.
	for _, bad := range [][]byte{data[:len(data)-3], append(append([]byte{}, data...), 0), []byte("tessera-nn 1\n{}\n"), data[:5]} {
		if _, _, err := Read(bytes.NewReader(bad)); err == nil {
			t.Errorf("Read accepted a damaged file of %d bytes", len(bad))
		}
	}
	// A spec that does not fit the weights.
	wrong := strings.Replace(string(data), `"outputs":4`, `"outputs":5`, 1)
	if _, _, err := Read(strings.NewReader(wrong)); err == nil {
		t.Error("Read accepted weights that do not fit the spec")
	}
}

// TestSoftmaxAndMSELosses trains a class from a one-hot input with the
// masked softmax cross-entropy (output 3 is never legal) and a
// probability with the squared error.
func TestSoftmaxAndMSELosses(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	var d, v Data
	for range 300 {
		c := rng.IntN(3)
		x := []float32{0, 0, 0}
		x[c] = 1
		y := []float32{0, 0, 0, -1}
		y[c] = 1
		d.X, d.Y = append(d.X, x...), append(d.Y, y...)
		d.N++
		v.X, v.Y = append(v.X, x...), append(v.Y, float32(c)/4)
		v.N++
	}
	net, err := New(Spec{Input: []int{3}, Hidden: []int{8}, Outputs: 4}, 1)
	if err != nil {
		t.Fatal(err)
	}
	st, err := net.Train(context.Background(), d, TrainOptions{Epochs: 40, LearningRate: 0.02, Loss: LossSoftmaxCE, Patience: 40})
	if err != nil {
		t.Fatal(err)
	}
	if st.ValLoss > 0.1 {
		t.Fatalf("softmax cross-entropy %.3f after training", st.ValLoss)
	}
	logits, _ := net.Logits([]float32{0, 1, 0})
	if logits[1] < logits[0] || logits[1] < logits[2] {
		t.Fatalf("logits %v: want output 1 highest among 0..2", logits)
	}
	if got := LossSoftmaxCE.Eval([]float32{0, 0, 0, 50}, []float32{1, 0, 0, -1}, 4); got < 1.09 || got > 1.1 {
		t.Fatalf("masked softmax CE of uniform logits over 3 legal outputs = %.4f, want ln 3", got)
	}
	reg, err := New(Spec{Input: []int{3}, Hidden: []int{8}, Outputs: 1}, 2)
	if err != nil {
		t.Fatal(err)
	}
	st, err = reg.Train(context.Background(), v, TrainOptions{Epochs: 60, LearningRate: 0.02, Loss: LossMSE, Patience: 60})
	if err != nil {
		t.Fatal(err)
	}
	if st.ValLoss > 0.002 {
		t.Fatalf("squared error %.4f after training", st.ValLoss)
	}
	if LossMSE.String() != "mse" || LossSoftmaxCE.String() != "softmax-ce" || LossBCE.String() != "bce" {
		t.Fatal("loss names")
	}
}

// FuzzRead: no file makes Read panic, hang or build a network larger than
// its weights; what it accepts writes back to the same bytes.
func FuzzRead(f *testing.F) {
	net, err := New(Spec{Input: []int{3, 2, 2}, Conv: []int{2}, Hidden: []int{3}, Outputs: 2}, 1)
	if err != nil {
		f.Fatal(err)
	}
	if _, err := net.Logits(make([]float32, 12)); err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if err := net.Write(&buf, map[string]string{"k": "v"}); err != nil {
		f.Fatal(err)
	}
	good := buf.Bytes()
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte("tessera-nn 1\n{\"spec\":{\"input\":[1000000,1000000,3],\"hidden\":[4],\"outputs\":1},\"vars\":[]}\n"))
	f.Add([]byte("tessera-nn 1\n{\"spec\":{\"input\":[2],\"hidden\":[4611686018427387904],\"outputs\":1},\"vars\":[]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, info, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := n.Write(&out, info); err != nil {
			t.Fatalf("write back: %v", err)
		}
		if n2, _, err := Read(bytes.NewReader(out.Bytes())); err != nil || n2.Params() != n.Params() {
			t.Fatalf("read back: %v", err)
		}
	})
}

// TestTrainGroups trains a one-output network to rank: each group of 4
// examples has one marked as best (the largest first input) and one
// padding example, and the softmax over the group must come to pick it.
func TestTrainGroups(t *testing.T) {
	const k = 4
	rng := rand.New(rand.NewPCG(6, 7))
	var d Data
	for range 400 {
		best, pad := rng.IntN(k-1), k-1
		for j := range k {
			a := rng.Float32() * 0.8
			y := float32(0)
			switch j {
			case best:
				a, y = 0.9+rng.Float32()*0.1, 1
			case pad:
				a, y = 0, -1
			}
			d.X = append(d.X, a, rng.Float32())
			d.Y = append(d.Y, y)
			d.N++
		}
	}
	net, err := New(Spec{Input: []int{2}, Hidden: []int{8}, Outputs: 1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var acc float64
	st, err := net.Train(context.Background(), d, TrainOptions{Epochs: 40, BatchSize: 8, LearningRate: 0.02, Loss: LossSoftmaxCE,
		Group: k, Patience: 40, Seed: 1, Metric: func(logits, y []float32, groups int) float64 {
			if len(logits) != groups*k || len(y) != groups*k {
				t.Fatalf("metric got %d logits and %d targets for %d groups", len(logits), len(y), groups)
			}
			acc = GroupAccuracy(logits, y, groups)
			return acc
		}})
	if err != nil {
		t.Fatal(err)
	}
	if st.ValLoss > 0.2 || acc < 0.95 || st.Examples%k != 0 {
		t.Fatalf("validation loss %.3f, accuracy %.2f, %d examples", st.ValLoss, acc, st.Examples)
	}
	logits, _ := net.Logits([]float32{0.95, 0.5, 0.3, 0.5})
	if logits[0] <= logits[1] {
		t.Fatalf("logits %v: want the larger first input rated higher", logits)
	}
	for _, bad := range []struct {
		spec Spec
		n    int
	}{{Spec{Input: []int{2}, Outputs: 2}, 8}, {Spec{Input: []int{2}, Outputs: 1}, 6}} {
		net, _ := New(bad.spec, 1)
		x := Data{X: make([]float32, bad.n*2), Y: make([]float32, bad.n*bad.spec.Outputs), N: bad.n}
		if _, err := net.Train(context.Background(), x, TrainOptions{Loss: LossSoftmaxCE, Group: k}); err == nil {
			t.Errorf("groups of %d accepted for %d examples of %d outputs", k, bad.n, bad.spec.Outputs)
		}
	}
}

// TestCopyLayers starts a network of another output size from a trained
// one's layers: the shared layers' weights are copied exactly, the output
// layer is left alone.
func TestCopyLayers(t *testing.T) {
	from, err := New(Spec{Input: []int{4, 3, 2}, Conv: []int{3}, Hidden: []int{5}, Outputs: 6}, 1)
	if err != nil {
		t.Fatal(err)
	}
	to, err := New(Spec{Input: []int{4, 3, 2}, Conv: []int{3}, Hidden: []int{5}, Outputs: 1}, 2)
	if err != nil {
		t.Fatal(err)
	}
	k, err := to.CopyLayers(from)
	if err != nil {
		t.Fatal(err)
	}
	// conv: 9*2*3 + 3, hidden: 4*3*3*5 + 5.
	if want := 9*2*3 + 3 + 36*5 + 5; k != want {
		t.Fatalf("copied %d weights, want %d", k, want)
	}
	fw, tw := from.weights(), to.weights()
	same := 0
	for name, w := range tw {
		if slices.Equal(w, fw[name]) {
			same += len(w)
		}
	}
	if same != k || to.Params() == k {
		t.Fatalf("%d weights equal after copying %d of %d", same, k, to.Params())
	}
	if _, err := to.CopyLayers(to); err == nil {
		t.Error("CopyLayers from itself accepted")
	}
}

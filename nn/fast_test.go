package nn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFastMatchesGraph checks the hand-written forward pass against the
// GoMLX graph on networks with and without convolutions, with widths that
// are and are not multiples of the kernel's blocks, and batches that are
// and are not multiples of its chunks.
func TestFastMatchesGraph(t *testing.T) {
	for _, spec := range []Spec{
		{Input: []int{6, 8, 6}, Conv: []int{32, 32}, Hidden: []int{512}, Outputs: 72},
		{Input: []int{5, 3, 4}, Conv: []int{7}, Hidden: []int{33, 20}, Outputs: 9},
		{Input: []int{17}, Hidden: []int{40}, Outputs: 3},
		{Input: []int{4, 4, 2}, Conv: []int{16, 48, 5}, Outputs: 16},
	} {
		net, err := New(spec, 7)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for _, k := range []int{1, 5, 64, 139} {
			x := make([]float32, k*spec.InputSize())
			for i := range x {
				if rng.IntN(3) > 0 {
					x[i] = float32(rng.NormFloat64())
				}
			}
			want, err := net.graphLogits(x)
			if err != nil {
				t.Fatal(err)
			}
			f, err := newFastNet(spec, net.weights())
			if err != nil {
				t.Fatal(err)
			}
			got := f.logits(x)
			if len(got) != len(want) {
				t.Fatalf("%v, %d examples: %d logits, want %d", spec, k, len(got), len(want))
			}
			for i := range got {
				if d := math.Abs(float64(got[i] - want[i])); d > 1e-4*(1+math.Abs(float64(want[i]))) {
					t.Fatalf("%v, %d examples: logit %d is %g, the graph gives %g", spec, k, i, got[i], want[i])
				}
			}
		}
	}
}

// BenchmarkInfer compares the GoMLX graph and the hand-written pass on the
// dust policy's network (two 3x3 convolutions of 32, a dense layer of 512,
// 72 outputs) for batches of 1,000 examples.
func BenchmarkInfer(b *testing.B) {
	net, f, x := inferBench(b)
	b.Run("graph", func(b *testing.B) {
		for b.Loop() {
			if _, err := net.graphLogits(x); err != nil {
				b.Fatal(err)
			}
		}
		reportExamples(b, len(x)/net.spec.InputSize())
	})
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			f.logits(x)
		}
		reportExamples(b, len(x)/net.spec.InputSize())
	})
}

// inferBench returns the dust policy's network with fresh weights, its
// hand-written pass and 1,000 one-hot examples.
func inferBench(b *testing.B) (*Net, *fastNet, []float32) {
	spec := Spec{Input: []int{6, 8, 6}, Conv: []int{32, 32}, Hidden: []int{512}, Outputs: 72}
	net, err := New(spec, 7)
	if err != nil {
		b.Fatal(err)
	}
	x := oneHot(1000, spec)
	if _, err := net.Logits(x[:spec.InputSize()]); err != nil {
		b.Fatal(err)
	}
	f, err := newFastNet(spec, net.weights())
	if err != nil {
		b.Fatal(err)
	}
	return net, f, x
}

// reportExamples reports examples per second for k examples per iteration.
func reportExamples(b *testing.B, k int) {
	b.ReportMetric(float64(b.N*k)/b.Elapsed().Seconds(), "examples/s")
}

// oneHot returns k examples of spec's input, each cell one-hot over the
// input's last axis at random (boards).
func oneHot(k int, spec Spec) []float32 {
	x := make([]float32, k*spec.InputSize())
	ch := spec.Input[len(spec.Input)-1]
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < len(x); i += ch {
		x[i+rng.IntN(ch)] = 1
	}
	return x
}

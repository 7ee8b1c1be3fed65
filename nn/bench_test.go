package nn

import (
	"context"
	"math/rand/v2"
	"testing"
)

// benchSpecs are dust policy networks (samegame/policy): small CNNs (the
// second with the value head of the shipped network), an MLP, and the
// source blog's ten dense layers of 1,500.
var benchSpecs = []struct {
	name string
	spec Spec
}{
	{"conv32x2-256", Spec{Input: []int{6, 8, 6}, Conv: []int{32, 32}, Hidden: []int{256}, Outputs: 48}},
	{"conv32x2-512-value", Spec{Input: []int{6, 8, 6}, Conv: []int{32, 32}, Hidden: []int{512}, Outputs: 48 + 24}},
	{"mlp512x3", Spec{Input: []int{6, 8, 6}, Hidden: []int{512, 512, 512}, Outputs: 48}},
	{"mlp1500x10", Spec{Input: []int{6, 8, 6}, Hidden: []int{1500, 1500, 1500, 1500, 1500, 1500, 1500, 1500, 1500, 1500}, Outputs: 48}},
}

func randomData(s Spec, n int) Data {
	rng := rand.New(rand.NewPCG(1, 1))
	d := Data{N: n, X: make([]float32, n*s.InputSize()), Y: make([]float32, n*s.Outputs)}
	for i := range d.X {
		d.X[i] = float32(rng.IntN(2))
	}
	for i := range d.Y {
		d.Y[i] = float32(rng.IntN(2))
	}
	return d
}

// BenchmarkTrain measures training throughput (examples/s) of the dust
// policy's network, batches of 64. Compare builds with and without
// GOEXPERIMENT=simd.
func BenchmarkTrain(b *testing.B) {
	for _, s := range benchSpecs {
		b.Run(s.name, func(b *testing.B) { benchmarkTrain(b, s.spec) })
	}
}

func benchmarkTrain(b *testing.B, dustSpec Spec) {
	net, err := New(dustSpec, 1)
	if err != nil {
		b.Fatal(err)
	}
	d := randomData(dustSpec, 64)
	opts := TrainOptions{MaxSteps: 1, BatchSize: 64, Validation: -1}
	if _, err := net.Train(context.Background(), d, opts); err != nil { // compile
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := net.Train(context.Background(), d, opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(64*b.N)/b.Elapsed().Seconds(), "examples/s")
}

func benchmarkInfer(b *testing.B, batch int) {
	for _, s := range benchSpecs {
		b.Run(s.name, func(b *testing.B) { benchmarkInferSpec(b, s.spec, batch) })
	}
}

func benchmarkInferSpec(b *testing.B, dustSpec Spec, batch int) {
	net, err := New(dustSpec, 1)
	if err != nil {
		b.Fatal(err)
	}
	x := randomData(dustSpec, batch).X
	if _, err := net.Logits(x); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := net.Logits(x); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(batch*b.N)/b.Elapsed().Seconds(), "examples/s")
}

// BenchmarkInfer1 is the latency of one position (a greedy move).
func BenchmarkInfer1(b *testing.B) { benchmarkInfer(b, 1) }

// BenchmarkInfer256 is batched inference (a beam's depth).
func BenchmarkInfer256(b *testing.B) { benchmarkInfer(b, 256) }

//go:build goexperiment.simd && amd64

package nn

import (
	"testing"

	"simd/archsimd"
)

// TestFastKernels runs TestFastMatchesGraph with each vector kernel the
// CPU can run, and the scalar one.
func TestFastKernels(t *testing.T) {
	defer func(k int) { kernel = k }(kernel)
	for _, k := range []struct {
		name string
		id   int
		ok   bool
	}{
		{"avx512", kernelAVX512, archsimd.X86.AVX512()},
		{"avx2", kernelAVX2, archsimd.X86.AVX2() && archsimd.X86.FMA()},
		{"scalar", kernelScalar, true},
	} {
		t.Run(k.name, func(t *testing.T) {
			if !k.ok {
				t.Skipf("this CPU cannot run the %s kernel", k.name)
			}
			kernel = k.id
			TestFastMatchesGraph(t)
		})
	}
}

// BenchmarkInferKernels is BenchmarkInfer's hand-written pass with each
// kernel the CPU can run.
func BenchmarkInferKernels(b *testing.B) {
	defer func(k int) { kernel = k }(kernel)
	spec := Spec{Input: []int{6, 8, 6}, Conv: []int{32, 32}, Hidden: []int{512}, Outputs: 72}
	net, err := New(spec, 7)
	if err != nil {
		b.Fatal(err)
	}
	const k = 1000
	x := oneHot(k, spec)
	if _, err := net.Logits(x[:spec.InputSize()]); err != nil {
		b.Fatal(err)
	}
	f, err := newFastNet(spec, net.weights())
	if err != nil {
		b.Fatal(err)
	}
	for _, kk := range []struct {
		name string
		id   int
		ok   bool
	}{
		{"avx512", kernelAVX512, archsimd.X86.AVX512()},
		{"avx2", kernelAVX2, archsimd.X86.AVX2() && archsimd.X86.FMA()},
		{"scalar", kernelScalar, true},
	} {
		if !kk.ok {
			continue
		}
		b.Run(kk.name, func(b *testing.B) {
			kernel = kk.id
			for b.Loop() {
				f.logits(x)
			}
			b.ReportMetric(float64(b.N*k)/b.Elapsed().Seconds(), "examples/s")
		})
	}
}

//go:build goexperiment.simd && amd64

package nn

import (
	"testing"

	"simd/archsimd"
)

// kernels are the kernels this CPU can run.
func kernels() []struct {
	name string
	id   int
} {
	ks := []struct {
		name string
		id   int
	}{{"scalar", kernelScalar}}
	if archsimd.X86.AVX2() && archsimd.X86.FMA() {
		ks = append(ks, struct {
			name string
			id   int
		}{"avx2", kernelAVX2})
	}
	if archsimd.X86.AVX512() {
		ks = append(ks, struct {
			name string
			id   int
		}{"avx512", kernelAVX512})
	}
	return ks
}

// TestFastKernels runs TestFastMatchesGraph with each kernel the CPU can
// run.
func TestFastKernels(t *testing.T) {
	defer func(k int) { kernel = k }(kernel)
	for _, k := range kernels() {
		t.Run(k.name, func(t *testing.T) {
			kernel = k.id
			TestFastMatchesGraph(t)
		})
	}
}

// BenchmarkInferKernels is BenchmarkInfer's hand-written pass with each
// kernel the CPU can run.
func BenchmarkInferKernels(b *testing.B) {
	defer func(k int) { kernel = k }(kernel)
	net, f, x := inferBench(b)
	for _, k := range kernels() {
		b.Run(k.name, func(b *testing.B) {
			kernel = k.id
			for b.Loop() {
				f.logits(x)
			}
			reportExamples(b, len(x)/net.spec.InputSize())
		})
	}
}

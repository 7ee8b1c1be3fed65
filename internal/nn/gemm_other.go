//go:build !(goexperiment.simd && amd64)

package nn

// fastKernel reports whether gemm runs a vector kernel: not in this build
// (see gemm_simd.go).
const fastKernel = false

// gemm is gemmScalar in builds without GOEXPERIMENT=simd on amd64.
func gemm(m int, l *fastLayer, a, c []float32, relu bool) { gemmScalar(m, l, a, c, relu) }

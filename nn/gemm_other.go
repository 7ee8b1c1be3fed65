//go:build !(goexperiment.simd && amd64)

package nn

// gemm is gemmScalar in builds without GOEXPERIMENT=simd on amd64.
func gemm(m int, l *fastLayer, a, c []float32, relu bool) { gemmScalar(m, l, a, c, relu) }

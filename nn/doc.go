// Package nn holds the project's neural-network building blocks on GoMLX
// (github.com/gomlx/gomlx v0.28.8) with its pure-Go backend: backend
// selection that never downloads anything, dense and 3x3 convolution
// layers, a training loop (Adam, batches, a validation split, early
// stopping, seeds), network files, and batched inference.
//
// A network is a Spec (input shape, convolution channels, dense widths,
// number of outputs) with its weights. Train fits it with binary
// cross-entropy on sigmoid outputs, or (TrainOptions.Loss) softmax
// cross-entropy over the outputs with illegal ones masked out, or the
// squared error of sigmoid outputs; Logits runs it on many examples at once.
// With TrainOptions.Group, examples come in groups that are shuffled and
// batched together, and a one-output network's logits over each group
// meet the softmax loss as one row: a network that rates candidates (the
// positions a position's moves lead to) trained to rank them. CopyLayers
// starts a network from the layers of another with the same trunk.
//
//	net, _ := nn.New(nn.Spec{Input: []int{6, 8, 6}, Conv: []int{32}, Hidden: []int{256}, Outputs: 48}, seed)
//	stats, err := net.Train(ctx, nn.Data{X: x, Y: y, N: n}, nn.TrainOptions{Epochs: 20})
//	logits, err := net.Logits(x[:k*288]) // k examples
//	err = net.Save("model.nn", map[string]string{"data": "..."})
//
// # Backend and speed
//
// Backend returns GoMLX's pure-Go backend (github.com/gomlx/compute/gobackend);
// the package never imports github.com/gomlx/gomlx/backends/default, which
// would try to download XLA at run time, and sets GOMLX_NO_AUTO_INSTALL=1.
// Build with GOEXPERIMENT=simd (Go 1.26 on amd64) for its AVX2/AVX-512
// matrix kernels:
//
//	GOEXPERIMENT=simd go build ./cmd/tessera
//	GOEXPERIMENT=simd go test -bench . ./nn
//
// The same code builds without it and runs the portable kernels, about 2.5
// times slower in training. Convolutions are written as im2col (nine
// shifted slices) followed by a dense layer, because the backend's generic
// convolution is a scalar loop about 30 times slower (see
// shared/research/ml.md).
//
// Inference (Logits) does not use the graph: a hand-written forward pass
// (fast.go) copies the weights once, builds the im2col rows with copy, and
// multiplies with gemm, which adds the biases and applies ReLU as it
// stores. The backend copies the nine slices of each convolution element
// by element, which took about 40% of its time on the dust policy's CNN.
// With GOEXPERIMENT=simd, gemm is a vector kernel (gemm_simd.go: blocks of
// 4 rows by 32 columns with AVX-512, by 16 with AVX2 and FMA); otherwise
// it is a scalar loop that skips zero inputs (one-hot boards, ReLU
// outputs). On the quiet 2-core test machine (BenchmarkInferKernels) the
// AVX2 kernel gives 34,100 examples/s, about 72% of the AVX-512 kernel's
// 47,400. On that CNN,
// in batches of 1,000 on two cores (BenchmarkInfer): 6,570 examples/s
// against the graph's 2,050 in the plain build, and 50,400 against 16,700
// with GOEXPERIMENT=simd. TestFastMatchesGraph checks the two against each
// other.
//
// # Files
//
// Write and Read use one file: the line "tessera-nn 1", a line of JSON
// (the Spec, the names and shapes of the weights, free-text info), then the
// weights as little-endian float32. Reloaded networks give bit-identical
// outputs. The optimizer's state is not kept.
//
// Training and inference throughput by architecture (with and without
// GOEXPERIMENT=simd) is measured in docs/results/samegame.md.
package nn

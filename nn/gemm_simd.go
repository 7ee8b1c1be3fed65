//go:build goexperiment.simd && amd64

package nn

import "simd/archsimd"

// The kernels gemm can run, best first.
const (
	kernelAVX512 = iota
	kernelAVX2
	kernelScalar
)

// kernel is the kernel gemm runs: built with GOEXPERIMENT=simd on amd64,
// AVX-512 when the CPU has it, else AVX2 with FMA, else the scalar loop.
// Tests set it to check each kernel the CPU can run.
var kernel = func() int {
	switch {
	case archsimd.X86.AVX512():
		return kernelAVX512
	case archsimd.X86.AVX2() && archsimd.X86.FMA():
		return kernelAVX2
	}
	return kernelScalar
}()

// gemm sets c (m rows of l.out values) to a (m rows of l.in) times l.w
// plus l.b, with ReLU when relu is set, with the kernel the CPU allows.
func gemm(m int, l *fastLayer, a, c []float32, relu bool) {
	switch kernel {
	case kernelAVX512:
		gemm16(m, l, a, c, relu)
	case kernelAVX2:
		gemm8(m, l, a, c, relu)
	default:
		gemmScalar(m, l, a, c, relu)
	}
}

// gemm16 is gemm's AVX-512 kernel: blocks of 4 rows by 32 columns in 8
// vector registers, each weight vector read once per block of rows; a
// last block of 16 columns and single rows take the rest.
func gemm16(m int, l *fastLayer, a, c []float32, relu bool) {
	K, S, N := l.in, l.stride, l.out
	a = a[:m*K]
	c = c[:m*N]
	var zero archsimd.Float32x16
	store := func(v archsimd.Float32x16, r, j int) {
		if j >= N {
			return
		}
		if relu {
			v = v.Max(zero)
		}
		v.StoreSlicePart(c[r*N+j : r*N+N])
	}
	j := 0
	for ; j+32 <= S; j += 32 {
		bias := l.b[j : j+32 : j+32]
		b0 := archsimd.LoadFloat32x16((*[16]float32)(bias[:16]))
		b1 := archsimd.LoadFloat32x16((*[16]float32)(bias[16:32]))
		r := 0
		for ; r+4 <= m; r += 4 {
			a0 := a[r*K : (r+1)*K]
			a1 := a[(r+1)*K : (r+2)*K]
			a2 := a[(r+2)*K : (r+3)*K]
			a3 := a[(r+3)*K : (r+4)*K]
			a1, a2, a3 = a1[:len(a0)], a2[:len(a0)], a3[:len(a0)]
			c00, c01, c10, c11 := b0, b1, b0, b1
			c20, c21, c30, c31 := b0, b1, b0, b1
			off := j
			for k := range a0 {
				wk := l.w[off : off+32 : off+32]
				off += S
				w0 := archsimd.LoadFloat32x16((*[16]float32)(wk[:16]))
				w1 := archsimd.LoadFloat32x16((*[16]float32)(wk[16:32]))
				v := archsimd.BroadcastFloat32x16(a0[k])
				c00, c01 = v.MulAdd(w0, c00), v.MulAdd(w1, c01)
				v = archsimd.BroadcastFloat32x16(a1[k])
				c10, c11 = v.MulAdd(w0, c10), v.MulAdd(w1, c11)
				v = archsimd.BroadcastFloat32x16(a2[k])
				c20, c21 = v.MulAdd(w0, c20), v.MulAdd(w1, c21)
				v = archsimd.BroadcastFloat32x16(a3[k])
				c30, c31 = v.MulAdd(w0, c30), v.MulAdd(w1, c31)
			}
			store(c00, r, j)
			store(c01, r, j+16)
			store(c10, r+1, j)
			store(c11, r+1, j+16)
			store(c20, r+2, j)
			store(c21, r+2, j+16)
			store(c30, r+3, j)
			store(c31, r+3, j+16)
		}
		for ; r < m; r++ {
			c0, c1 := b0, b1
			off := j
			for _, x := range a[r*K : (r+1)*K] {
				wk := l.w[off : off+32 : off+32]
				off += S
				v := archsimd.BroadcastFloat32x16(x)
				c0 = v.MulAdd(archsimd.LoadFloat32x16((*[16]float32)(wk[:16])), c0)
				c1 = v.MulAdd(archsimd.LoadFloat32x16((*[16]float32)(wk[16:32])), c1)
			}
			store(c0, r, j)
			store(c1, r, j+16)
		}
	}
	if j < S { // one block of 16 columns left
		b0 := archsimd.LoadFloat32x16((*[16]float32)(l.b[j : j+16]))
		for r := range m {
			c0 := b0
			off := j
			for _, x := range a[r*K : (r+1)*K] {
				wk := l.w[off : off+16 : off+16]
				off += S
				c0 = archsimd.BroadcastFloat32x16(x).MulAdd(archsimd.LoadFloat32x16((*[16]float32)(wk)), c0)
			}
			store(c0, r, j)
		}
	}
}

// gemm8 is gemm's AVX2 kernel: blocks of 4 rows by 16 columns (two
// vectors of 8) in 8 registers; single rows take the rest. l.stride is a
// multiple of 16, so the blocks cover every column.
func gemm8(m int, l *fastLayer, a, c []float32, relu bool) {
	K, S, N := l.in, l.stride, l.out
	a = a[:m*K]
	c = c[:m*N]
	var zero archsimd.Float32x8
	store := func(v archsimd.Float32x8, r, j int) {
		if j >= N {
			return
		}
		if relu {
			v = v.Max(zero)
		}
		v.StoreSlicePart(c[r*N+j : r*N+N])
	}
	for j := 0; j < S; j += 16 {
		bias := l.b[j : j+16 : j+16]
		b0 := archsimd.LoadFloat32x8((*[8]float32)(bias[:8]))
		b1 := archsimd.LoadFloat32x8((*[8]float32)(bias[8:16]))
		r := 0
		for ; r+4 <= m; r += 4 {
			a0 := a[r*K : (r+1)*K]
			a1 := a[(r+1)*K : (r+2)*K]
			a2 := a[(r+2)*K : (r+3)*K]
			a3 := a[(r+3)*K : (r+4)*K]
			a1, a2, a3 = a1[:len(a0)], a2[:len(a0)], a3[:len(a0)]
			c00, c01, c10, c11 := b0, b1, b0, b1
			c20, c21, c30, c31 := b0, b1, b0, b1
			off := j
			for k := range a0 {
				wk := l.w[off : off+16 : off+16]
				off += S
				w0 := archsimd.LoadFloat32x8((*[8]float32)(wk[:8]))
				w1 := archsimd.LoadFloat32x8((*[8]float32)(wk[8:16]))
				v := archsimd.BroadcastFloat32x8(a0[k])
				c00, c01 = v.MulAdd(w0, c00), v.MulAdd(w1, c01)
				v = archsimd.BroadcastFloat32x8(a1[k])
				c10, c11 = v.MulAdd(w0, c10), v.MulAdd(w1, c11)
				v = archsimd.BroadcastFloat32x8(a2[k])
				c20, c21 = v.MulAdd(w0, c20), v.MulAdd(w1, c21)
				v = archsimd.BroadcastFloat32x8(a3[k])
				c30, c31 = v.MulAdd(w0, c30), v.MulAdd(w1, c31)
			}
			store(c00, r, j)
			store(c01, r, j+8)
			store(c10, r+1, j)
			store(c11, r+1, j+8)
			store(c20, r+2, j)
			store(c21, r+2, j+8)
			store(c30, r+3, j)
			store(c31, r+3, j+8)
		}
		for ; r < m; r++ {
			c0, c1 := b0, b1
			off := j
			for _, x := range a[r*K : (r+1)*K] {
				wk := l.w[off : off+16 : off+16]
				off += S
				v := archsimd.BroadcastFloat32x8(x)
				c0 = v.MulAdd(archsimd.LoadFloat32x8((*[8]float32)(wk[:8])), c0)
				c1 = v.MulAdd(archsimd.LoadFloat32x8((*[8]float32)(wk[8:16])), c1)
			}
			store(c0, r, j)
			store(c1, r, j+8)
		}
	}
}

//go:build goexperiment.simd && amd64

package nn

import "simd/archsimd"

// fastKernel reports whether gemm runs a vector kernel. Built with
// GOEXPERIMENT=simd on amd64, it is the AVX-512 kernel below when the CPU
// has AVX-512.
var fastKernel = archsimd.X86.AVX512()

// gemm sets c (m rows of l.out values) to a (m rows of l.in) times l.w
// plus l.b, with ReLU when relu is set. The AVX-512 kernel computes blocks
// of 4 rows by 32 columns in 8 vector registers, reading each weight
// vector once per block of rows; a last block of 16 columns and single
// rows take the rest.
func gemm(m int, l *fastLayer, a, c []float32, relu bool) {
	if !fastKernel {
		gemmScalar(m, l, a, c, relu)
		return
	}
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

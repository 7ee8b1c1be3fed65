package nn

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// fastNet is a network's forward pass written out in Go, for inference
// only: im2col by copying rows, then matrix products by gemm with the
// bias and ReLU applied as the results are stored. GoMLX's pure-Go backend
// runs the same network with a very fast matrix kernel but copies the
// convolutions' nine shifted slices element by element (about 40% of its
// time on the dust policy's CNN), so this pass is about three times
// faster on that network, in the plain build and with GOEXPERIMENT=simd
// (BenchmarkInfer). It is built from a copy of the weights and must be
// rebuilt when they change.
type fastNet struct {
	spec  Spec
	conv  []fastLayer // 3x3 convolutions: weights [9*in][out], rows (dy, dx, c)
	dense []fastLayer // hidden layers, then the output layer
	pool  sync.Pool   // *fastScratch
}

// fastLayer is a dense layer: weights [in][stride] with the columns past
// out zero (stride is out rounded up to a multiple of 16, so that the
// kernel reads whole vectors), and the biases, padded the same way.
type fastLayer struct {
	in, out, stride int
	w, b            []float32
}

// fastScratch holds one worker's buffers.
type fastScratch struct {
	patch, a, b, flat, hid []float32
}

// fastChunk is the number of examples one worker runs through the dense
// layers at once (the weights of a wide layer are read once per chunk),
// and fastConvChunk the number it runs through the convolutions at once
// (their im2col rows stay in the core's cache).
const (
	fastChunk     = 64
	fastConvChunk = 8
)

func newFastLayer(w, b []float32, in, out int) (fastLayer, error) {
	if len(w) != in*out || len(b) != out {
		return fastLayer{}, fmt.Errorf("nn: layer of %d x %d has %d weights and %d biases", in, out, len(w), len(b))
	}
	stride := (out + 15) &^ 15
	l := fastLayer{in: in, out: out, stride: stride, w: make([]float32, in*stride), b: make([]float32, stride)}
	for i := range in {
		copy(l.w[i*stride:i*stride+out], w[i*out:(i+1)*out])
	}
	copy(l.b, b)
	return l, nil
}

// newFastNet copies the weights ws (as Net.weights returns them) of a
// network of spec.
func newFastNet(spec Spec, ws map[string][]float32) (*fastNet, error) {
	f := &fastNet{spec: spec}
	layer := func(name string, in, out int) (fastLayer, error) {
		return newFastLayer(ws["/"+modelScope+"/"+name+"/dense/weights"], ws["/"+modelScope+"/"+name+"/dense/biases"], in, out)
	}
	features := spec.InputSize()
	if len(spec.Conv) > 0 {
		c := spec.Input[2]
		for i, ch := range spec.Conv {
			l, err := layer(fmt.Sprintf("conv%d", i), 9*c, ch)
			if err != nil {
				return nil, err
			}
			f.conv = append(f.conv, l)
			c = ch
		}
		features = spec.Input[0] * spec.Input[1] * c
	}
	for i, w := range spec.Hidden {
		l, err := layer(fmt.Sprintf("hidden%d", i), features, w)
		if err != nil {
			return nil, err
		}
		f.dense = append(f.dense, l)
		features = w
	}
	l, err := layer("out", features, spec.Outputs)
	if err != nil {
		return nil, err
	}
	f.dense = append(f.dense, l)
	return f, nil
}

// logits runs the network on the k examples of x and returns k*Outputs
// logits, splitting the examples among the cores.
func (f *fastNet) logits(x []float32) []float32 {
	in, outs := f.spec.InputSize(), f.spec.Outputs
	k := len(x) / in
	out := make([]float32, k*outs)
	// Chunks of fastChunk examples; a small batch (a position's children)
	// is split into smaller ones, multiples of fastConvChunk, so that
	// every core gets a share.
	cores := runtime.GOMAXPROCS(0)
	size := fastChunk
	if k < fastChunk*cores {
		size = max(fastConvChunk, ((k+cores-1)/cores+fastConvChunk-1)/fastConvChunk*fastConvChunk)
	}
	chunks := (k + size - 1) / size
	run := func(c int) { f.chunk(x, out, c*size, min((c+1)*size, k)) }
	workers := min(cores, chunks)
	if workers <= 1 {
		for c := range chunks {
			run(c)
		}
		return out
	}
	var wg sync.WaitGroup
	var next atomic.Int64 // the next chunk to run
	for range workers {
		wg.Go(func() {
			for c := int(next.Add(1) - 1); c < chunks; c = int(next.Add(1) - 1) {
				run(c)
			}
		})
	}
	wg.Wait()
	return out
}

// chunk runs examples lo to hi of x (at most fastChunk).
func (f *fastNet) chunk(x, out []float32, lo, hi int) {
	in, outs := f.spec.InputSize(), f.spec.Outputs
	n := hi - lo
	s, _ := f.pool.Get().(*fastScratch)
	if s == nil {
		s = &fastScratch{}
	}
	defer f.pool.Put(s)
	act := x[lo*in : hi*in]
	if len(f.conv) > 0 {
		h, w := f.spec.Input[0], f.spec.Input[1]
		last := f.conv[len(f.conv)-1].out
		s.flat = grow(s.flat, n*h*w*last)
		for e := 0; e < n; e += fastConvChunk {
			m := min(fastConvChunk, n-e)
			cur, c := act[e*in:(e+m)*in], f.spec.Input[2]
			for i := range f.conv {
				l := &f.conv[i]
				s.patch = im2col(s.patch, cur, m, h, w, c)
				var dst []float32
				switch {
				case i == len(f.conv)-1:
					dst = s.flat[e*h*w*last : (e+m)*h*w*last]
				case i%2 == 0:
					s.a = grow(s.a, m*h*w*l.out)
					dst = s.a
				default:
					s.b = grow(s.b, m*h*w*l.out)
					dst = s.b
				}
				gemm(m*h*w, l, s.patch, dst, true)
				cur, c = dst, l.out
			}
		}
		act = s.flat
	}
	for i := range f.dense {
		l := &f.dense[i]
		last := i == len(f.dense)-1
		var dst []float32
		switch {
		case last:
			dst = out[lo*outs : hi*outs]
		case i%2 == 0:
			s.hid = grow(s.hid, n*l.out)
			dst = s.hid
		default:
			s.b = grow(s.b, n*l.out)
			dst = s.b
		}
		gemm(n, l, act, dst, !last)
		act = dst
	}
}

func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

// im2col writes into dst (grown as needed) the 3x3 neighbourhoods of the m
// examples of x, each [h][w][c]: one row of 9*c values per cell, in the
// order (dy, dx, channel), zeros outside the board (GoMLX's Conv3x3).
func im2col(dst, x []float32, m, h, w, c int) []float32 {
	row := 9 * c
	dst = grow(dst, m*h*w*row)
	clear(dst)
	for e := range m {
		src := x[e*h*w*c : (e+1)*h*w*c]
		for y := range h {
			for xx := range w {
				p := dst[((e*h+y)*w+xx)*row:][:row]
				for dy := -1; dy <= 1; dy++ {
					yy := y + dy
					if yy < 0 || yy >= h {
						continue
					}
					for dx := -1; dx <= 1; dx++ {
						xs := xx + dx
						if xs < 0 || xs >= w {
							continue
						}
						k := (dy+1)*3 + dx + 1
						copy(p[k*c:(k+1)*c], src[(yy*w+xs)*c:][:c])
					}
				}
			}
		}
	}
	return dst
}

// gemmScalar sets c (m rows of l.out) to a (m rows of l.in) times l.w plus
// l.b, with ReLU when relu is set: the portable kernel.
func gemmScalar(m int, l *fastLayer, a, c []float32, relu bool) {
	acc := make([]float32, l.stride)
	for r := range m {
		copy(acc, l.b)
		for k, v := range a[r*l.in : (r+1)*l.in] {
			if v == 0 {
				continue
			}
			wr := l.w[k*l.stride : (k+1)*l.stride]
			for j := range acc {
				acc[j] += v * wr[j]
			}
		}
		cr := c[r*l.out : (r+1)*l.out]
		copy(cr, acc)
		if relu {
			for j, v := range cr {
				cr[j] = max(v, 0)
			}
		}
	}
}

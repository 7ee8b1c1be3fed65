package neural

import "math"

// Directions of a pair: Right means b is the right neighbour of a, Below
// that b is under a.
const (
	Right = 0
	Below = 1
)

// Table holds what the pair network says about every ordered pair of the
// patches of one puzzle, in both directions. It is computed once per
// puzzle (n(n-1) pairs per direction, one batched network call) and is
// all the P and V heads see of the pixels.
type Table struct {
	N int
	// L[d][a*N+b] is the pair network's logit that patch b is the
	// d-neighbour of patch a (0 on the diagonal).
	L [2][]float32
	// Fwd[d][a*N+b] is log P(b | a, d): the logit normalised by softmax
	// over every candidate b != a; Bwd[d][a*N+b] is log P(a | b, d), over
	// every a != b. A pair that is each other's best choice is a best
	// buddy (Pomeranz et al. 2011).
	Fwd, Bwd [2][]float32
	// Out[d][a] is the best logit of a having a d-neighbour, In[d][b] of b
	// being someone's d-neighbour: low values mark patches of the last
	// column or row (Out) and of the first (In).
	Out, In [2][]float32
}

// NewTable builds a table from the pair logits logit(d, a, b).
func NewTable(n int, logit func(d, a, b int) float32) *Table {
	t := &Table{N: n}
	for d := range 2 {
		t.L[d] = make([]float32, n*n)
		t.Fwd[d] = make([]float32, n*n)
		t.Bwd[d] = make([]float32, n*n)
		t.Out[d] = make([]float32, n)
		t.In[d] = make([]float32, n)
		for a := range n {
			for b := range n {
				if a != b {
					t.L[d][a*n+b] = logit(d, a, b)
				}
			}
		}
		normalise(n, t.L[d], t.Out[d], t.Fwd[d], func(a, b int) int { return a*n + b })
		normalise(n, t.L[d], t.In[d], t.Bwd[d], func(b, a int) int { return a*n + b })
	}
	return t
}

// normalise sets, for every i, best[i] to the best logit l[at(i, j)]
// over j != i and norm[at(i, j)] to that logit normalised by softmax over
// them (at least -20): Out and Fwd with at(a, b) = a*N+b, In and Bwd with
// the transpose.
func normalise(n int, l, best, norm []float32, at func(i, j int) int) {
	for i := range n {
		m, lse := maxLSE(n, func(j int) (float32, bool) { return l[at(i, j)], j != i })
		best[i] = m
		for j := range n {
			if j != i {
				norm[at(i, j)] = max(l[at(i, j)]-lse, -20)
			}
		}
	}
}

// maxLSE returns the maximum and the log-sum-exp of the values v(i) that
// are kept.
func maxLSE(n int, v func(int) (float32, bool)) (float32, float32) {
	m := float32(math.Inf(-1))
	for i := range n {
		if x, ok := v(i); ok {
			m = max(m, x)
		}
	}
	s := 0.0
	for i := range n {
		if x, ok := v(i); ok {
			s += math.Exp(float64(x - m))
		}
	}
	return m, m + float32(math.Log(s))
}

// pairFeatures appends the features of "b is the d-neighbour of a".
func (t *Table) pairFeatures(dst []float32, d, a, b int) []float32 {
	i := a*t.N + b
	return append(dst, clip(t.L[d][i]/5), t.Fwd[d][i]/5, t.Bwd[d][i]/5, 1)
}

// pairOrZero appends the features of "b is the d-neighbour of a", or
// zeros when either is -1 (an empty or missing cell).
func (t *Table) pairOrZero(dst []float32, d, a, b int) []float32 {
	if a < 0 || b < 0 {
		return append(dst, 0, 0, 0, 0)
	}
	return t.pairFeatures(dst, d, a, b)
}

func clip(x float32) float32 { return max(-4, min(4, x)) }

// Channels of the head inputs.
const (
	pChannels = 1 + 4*4 + 4
	vChannels = 1 + 4 + 4 + 4 + 1
)

// encodeP appends P's input for state s (not done): a Grid x Grid x 21
// tensor. Per cell: occupied; for each side (up, right, down, left) of an
// empty cell whose neighbour there is occupied, the features of the next
// patch against that neighbour (scaled logit, log P forward, log P
// backward, 1); and the next patch's Out and In strengths.
func (t *Table) encodeP(dst []float32, s *State, grid int) []float32 {
	x := s.Next()
	zero := [4]float32{}
	for c := range grid * grid {
		r, col := c/grid, c%grid
		if s.At[c] >= 0 {
			dst = append(dst, 1)
			for range 4 {
				dst = append(dst, zero[:]...)
			}
		} else {
			dst = append(dst, 0)
			dst = t.pairOrZero(dst, Below, nb(s, grid, r-1, col), x) // the neighbour above x
			dst = t.pairOrZero(dst, Right, x, nb(s, grid, r, col+1))
			dst = t.pairOrZero(dst, Below, x, nb(s, grid, r+1, col))
			dst = t.pairOrZero(dst, Right, nb(s, grid, r, col-1), x)
		}
		dst = append(dst, clip(t.Out[Right][x]/5), clip(t.Out[Below][x]/5), clip(t.In[Right][x]/5), clip(t.In[Below][x]/5))
	}
	return dst
}

// nb returns the patch at (r, c), or -1 when it is empty or off the grid.
func nb(s *State, grid, r, c int) int {
	if r < 0 || c < 0 || r >= grid || c >= grid {
		return -1
	}
	return int(s.At[r*grid+c])
}

// encodeV appends V's input for state s: a Grid x Grid x 14 tensor. Per
// cell: occupied; the features of the pair it makes with its right
// neighbour and with the one below when both cells are occupied; its
// patch's Out and In strengths; and the share of patches not placed yet.
func (t *Table) encodeV(dst []float32, s *State, grid int) []float32 {
	zero := [4]float32{}
	left := float32(len(s.Order)-s.Placed) / float32(len(s.Order))
	for c := range grid * grid {
		r, col := c/grid, c%grid
		x := int(s.At[c])
		if x < 0 {
			dst = append(dst, 0)
			dst = append(dst, zero[:]...)
			dst = append(dst, zero[:]...)
			dst = append(dst, zero[:]...)
			dst = append(dst, left)
			continue
		}
		dst = append(dst, 1)
		dst = t.pairOrZero(dst, Right, x, nb(s, grid, r, col+1))
		dst = t.pairOrZero(dst, Below, x, nb(s, grid, r+1, col))
		dst = append(dst, clip(t.Out[Right][x]/5), clip(t.Out[Below][x]/5), clip(t.In[Right][x]/5), clip(t.In[Below][x]/5), left)
	}
	return dst
}

// Top1 is the share of the true adjacencies of a puzzle (truth[i] the
// true cell of patch i on a grid x grid board) whose first patch ranks the
// second first among every candidate in the table: how often the pair
// scores alone find the right neighbour.
func (t *Table) Top1(truth []int, grid int) float64 {
	byCell := make([]int, len(truth))
	for i, c := range truth {
		byCell[c] = i
	}
	right, pairs := 0, 0
	for c := range grid * grid {
		for d := range 2 {
			nc := c + 1
			if d == Below {
				nc = c + grid
			}
			if (d == Right && c%grid == grid-1) || nc >= grid*grid {
				continue
			}
			a, b := byCell[c], byCell[nc]
			pairs++
			best := true
			for o := range t.N {
				if o != a && o != b && t.L[d][a*t.N+o] >= t.L[d][a*t.N+b] {
					best = false
					break
				}
			}
			if best {
				right++
			}
		}
	}
	return float64(right) / float64(pairs)
}

package kernel

import "math"

// Assign solves the n x n assignment problem: it returns perm with
// perm[i] the column of row i, minimising the sum of cost[i*n+perm[i]].
// It is the Hungarian method with potentials (Kuhn, Munkres; the
// shortest augmenting path form of Jonker and Volgenant), O(n^3) time and
// O(n) extra memory. Costs must be finite.
func Assign(n int, cost []float64) []int {
	if len(cost) != n*n {
		panic("edgematch: Assign: cost is not n x n")
	}
	var a Assigner
	return a.Solve(n, cost)
}

// Assigner keeps the Hungarian method's work arrays between calls.
type Assigner struct {
	u, v, minv []float64
	p, way     []int
	used       []bool
	perm       []int
}

// Solve is Assign with reused buffers; the result is overwritten by the
// next call.
func (a *Assigner) Solve(n int, cost []float64) []int {
	if cap(a.u) < n+1 {
		a.u, a.v, a.minv = make([]float64, n+1), make([]float64, n+1), make([]float64, n+1)
		a.p, a.way, a.used, a.perm = make([]int, n+1), make([]int, n+1), make([]bool, n+1), make([]int, n)
	}
	u, v, minv := a.u[:n+1], a.v[:n+1], a.minv[:n+1]
	p, way, used, perm := a.p[:n+1], a.way[:n+1], a.used[:n+1], a.perm[:n]
	clear(u)
	clear(v)
	clear(p)
	clear(way)
	for i := 1; i <= n; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j] = math.Inf(1)
			used[j] = false
		}
		for {
			used[j0] = true
			i0, delta, j1 := p[j0], math.Inf(1), 0
			row := cost[(i0-1)*n:]
			for j := 1; j <= n; j++ {
				if used[j] {
					continue
				}
				cur := row[j-1] - u[i0] - v[j]
				if cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for j := 0; j <= n; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	for j := 1; j <= n; j++ {
		perm[p[j]-1] = j - 1
	}
	return perm
}

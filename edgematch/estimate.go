package edgematch

import (
	"context"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"time"
)

// TreeEstimate is the result of EstimateTree.
type TreeEstimate struct {
	// Nodes estimates the placements of an exhaustive DFS.Solve with the
	// same order (the nodes of its search tree, the root excluded).
	Nodes float64
	// StdErr is the standard error of Nodes over the probes.
	StdErr float64
	// Levels[d] estimates the nodes at depth d+1 (the placements of
	// step d); the first levels with few nodes are nearly exact.
	Levels []float64
	// Probes is the number of random root-to-leaf walks made.
	Probes int
	// Complete counts the probes that reached a full board.
	Complete int
	// Elapsed is the wall-clock time.
	Elapsed time.Duration
}

// EstimateTree estimates the size of the tree that DFS.Solve searches on p
// in the given order (tables, twins and folded rotations included), by
// Knuth's estimator ("Estimating the efficiency of backtrack programs",
// Math. Comp. 29, 1975): a probe walks from the root, choosing a child
// uniformly among the d_i that the backtracker would try at depth i, and
// d_1 + d_1 d_2 + ... is an unbiased estimate of the node count. The mean
// over the probes has a large variance on unbalanced trees, so read it as
// an order of magnitude. Each probe costs at most Cells() candidate
// scans; probes <= 0 means 10000. The same seed gives the same estimate.
func EstimateTree(ctx context.Context, p *Puzzle, order Order, probes int, seed uint64) (TreeEstimate, error) {
	return EstimateScan(ctx, p, Scan{Order: order}, probes, seed)
}

// EstimateScan is EstimateTree for a scan from any corner.
func EstimateScan(ctx context.Context, p *Puzzle, scan Scan, probes int, seed uint64) (TreeEstimate, error) {
	start := time.Now()
	if probes <= 0 {
		probes = 10000
	}
	if err := p.Validate(); err != nil {
		return TreeEstimate{}, err
	}
	c, err := compile(p, compileOptions{cells: scan.Cells(p.Rows, p.Cols), breakSymmetry: true})
	if err != nil {
		return TreeEstimate{}, err
	}
	est := TreeEstimate{Levels: make([]float64, c.n)}
	if !c.hintsFit || c.n == 0 {
		est.Elapsed = time.Since(start)
		return est, nil
	}
	rng := rand.New(rand.NewPCG(seed, 0x6b6e757468))
	w := newDFSWorker(c)
	children := make([]int32, 0, 64)
	var sum, sumSq float64
	for probe := range probes {
		if probe&255 == 0 {
			if err := ctx.Err(); err != nil {
				est.Elapsed = time.Since(start)
				return est, err
			}
		}
		w.reset(nil)
		weight, total := 1.0, 0.0
		for i := range c.n {
			children = w.children(i, children[:0])
			if len(children) == 0 {
				break
			}
			weight *= float64(len(children))
			total += weight
			est.Levels[i] += weight
			e := c.cand[children[rng.IntN(len(children))]]
			w.placed[i] = e.o
			w.used[e.piece>>6] |= 1 << (e.piece & 63)
			binary.LittleEndian.PutUint32(w.col[c.stepPad[i]*4:], e.packed)
			if i == c.n-1 {
				est.Complete++
			}
		}
		sum += total
		sumSq += total * total
		est.Probes++
	}
	n := float64(est.Probes)
	est.Nodes = sum / n
	for i := range est.Levels {
		est.Levels[i] /= n
	}
	if est.Probes > 1 {
		variance := (sumSq - sum*sum/n) / (n - 1)
		est.StdErr = math.Sqrt(max(variance, 0) / n)
	}
	est.Elapsed = time.Since(start)
	return est, nil
}

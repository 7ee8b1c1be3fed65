package exact

import (
	"context"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"time"

	"tessera/edgematch"
	"tessera/edgematch/internal/kernel"
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
func EstimateTree(ctx context.Context, p *edgematch.Puzzle, order edgematch.Order, probes int, seed uint64) (TreeEstimate, error) {
	return EstimateScan(ctx, p, edgematch.Scan{Order: order}, probes, seed)
}

// EstimateScan is EstimateTree for a scan from any corner.
func EstimateScan(ctx context.Context, p *edgematch.Puzzle, scan edgematch.Scan, probes int, seed uint64) (TreeEstimate, error) {
	start := time.Now()
	if probes <= 0 {
		probes = 10000
	}
	if err := p.Validate(); err != nil {
		return TreeEstimate{}, err
	}
	c, err := kernel.Compile(p, kernel.CompileOptions{Cells: scan.Cells(p.Rows, p.Cols), BreakSymmetry: true})
	if err != nil {
		return TreeEstimate{}, err
	}
	est := TreeEstimate{Levels: make([]float64, c.N)}
	if !c.HintsFit || c.N == 0 {
		est.Elapsed = time.Since(start)
		return est, nil
	}
	rng := rand.New(rand.NewPCG(seed, 0x6b6e757468))
	w := kernel.NewWorker(c)
	children := make([]int32, 0, 64)
	var sum, sumSq float64
	for probe := range probes {
		if probe&255 == 0 {
			if err := ctx.Err(); err != nil {
				est.Elapsed = time.Since(start)
				return est, err
			}
		}
		w.Reset(nil)
		weight, total := 1.0, 0.0
		for i := range c.N {
			children = w.Children(i, children[:0])
			if len(children) == 0 {
				break
			}
			weight *= float64(len(children))
			total += weight
			est.Levels[i] += weight
			e := c.Cand[children[rng.IntN(len(children))]]
			w.Placed[i] = e.O
			w.Used[e.Piece>>6] |= 1 << (e.Piece & 63)
			binary.LittleEndian.PutUint32(w.Col[c.StepPad[i]*4:], e.Packed)
			if i == c.N-1 {
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

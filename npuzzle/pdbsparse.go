package npuzzle

import (
	"math"
	"sync"
)

// Sparse zone tables (PDBOptions.Sparse). A zero-aware table is read at
// the rank of its tiles' placement, whose computation (a bit count a tile)
// takes a fifth of the 24-puzzle's search. A sparse table keeps the same
// words at the index that reads the tiles' cells as the digits of a
// number in base n: n^k words, most of them never read (two tiles in one
// cell), 1.95 GB for a 6-tile table of the 5x5 board against 1.02 GB, but
// an index of k multiply-adds. The search visits the same nodes.

// sparseBytes returns the memory of the sparse table of k tiles on n cells
// (math.MaxInt64 when it does not fit an int64).
func sparseBytes(n, k int) int64 {
	w := int64(8)
	for range k {
		if w > math.MaxInt64/int64(n) {
			return math.MaxInt64
		}
		w *= int64(n)
	}
	return w
}

// makeSparse replaces the table's zone words by the same words at their
// sparse indices, with workers goroutines. The placements in rank order are
// the tuples of distinct cells in lexicographic order, so that a walk of
// the tuples from each first cell reads that cell's run of zone words in
// order.
func (t *patternTable) makeSparse(workers int) {
	n, k := t.n, len(t.tiles)
	t.sparseMult = [8]int64{}
	m := int64(1)
	for i := k - 1; i >= 0; i-- {
		t.sparseMult[i] = m
		m *= int64(n)
	}
	s := make([]uint64, m)
	hugePages(s)
	run := placements(n-1, k-1) // the placements of each first cell
	var wg sync.WaitGroup
	cells := make(chan int, n)
	for c := range n {
		cells <- c
	}
	close(cells)
	for range max(workers, 1) {
		wg.Go(func() {
			for c0 := range cells {
				r := int64(c0) * run
				var walk func(i int, used uint64, idx int64)
				walk = func(i int, used uint64, idx int64) {
					if i == k {
						s[idx] = t.zone[r]
						r++
						return
					}
					for c := range n {
						if used&(1<<c) == 0 {
							walk(i+1, used|1<<c, idx+int64(c)*t.sparseMult[i])
						}
					}
				}
				walk(1, 1<<c0, int64(c0)*t.sparseMult[0])
			}
		})
	}
	wg.Wait()
	t.sparse, t.zone = s, nil
}

// maxSparseTiles bounds the patterns of sparse tables: zero-aware tables
// are for boards of up to 25 cells, so a sparse table takes at most 25^6
// words.
const maxSparseTiles = 6

// sparseNeed returns the memory of the sparse tables of part: 0 without
// sparse, math.MaxInt64 for a partition that has none (not zero-aware, or
// a pattern of more than maxSparseTiles tiles).
func sparseNeed(part Partition, sparse bool) int64 {
	if !sparse {
		return 0
	}
	if !part.Zero {
		return math.MaxInt64
	}
	var need int64
	for _, tiles := range part.TablePatterns() {
		b := sparseBytes(part.Size.Rows*part.Size.Cols, len(tiles))
		if len(tiles) > maxSparseTiles || need > math.MaxInt64-b {
			return math.MaxInt64
		}
		need += b
	}
	return need
}

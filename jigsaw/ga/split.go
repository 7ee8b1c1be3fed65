package ga

import (
	"cmp"
	"slices"

	"tessera/jigsaw"
)

// Split thresholds.
const (
	// minCoreShare: a region of trusted adjacencies counts as a picture
	// when it holds at least this share of the pieces (and minCore).
	minCoreShare = 0.02
	minCore      = 8
	// mergeShare: two regions are one picture when at least this share
	// of the adjacencies between them are likely (see likelyRank).
	mergeShare = 0.4
	// likelyRank: an adjacency is likely right when one edge ranks the
	// other among its best likelyRank candidates.
	likelyRank = 3
)

// ranks reports whether edge f is among the best k candidates of edge e.
func (pr *problem) ranks(e, f int32, k int) bool {
	cs := pr.c.Candidates(int(e>>2), jigsaw.Side(e&3))
	for _, x := range cs[:min(k, len(cs))] {
		if x.Piece == f>>2 && x.Side == jigsaw.Side(f&3) {
			return true
		}
	}
	return false
}

// split assigns the pieces of ch to output images (Options.Images: 1
// keeps one, k > 1 makes exactly k, 0 finds how many). The pictures of a
// mixed bag come out of the search glued edge to edge, and the edges
// along such a seam are almost never best buddies, while inside a
// picture most adjacencies are. So:
//
//  1. Trusted adjacencies are best buddies that close a 2x2 square of
//     best buddies (a chance best-buddy pair across a seam does not); the
//     connected regions of trusted adjacencies holding at least 2% of the
//     pieces are the cores of pictures.
//  2. The other pieces join the core they touch, round by round: the core
//     of a best-buddy neighbour first, else the one most of their placed
//     neighbours belong to.
//  3. Neighbouring regions whose shared adjacencies are at least 40%
//     likely (one edge ranks the other among its best 3 candidates: true
//     adjacencies 96% of the time, across seams 2% on the MIT set) are
//     merged, best seam first (a picture split by a featureless area or
//     by misplaced pieces); to reach k images, the best seams are merged
//     whatever their share; with fewer cores than k, fewer images come
//     out.
//
// O(n α(n)) plus the merging, which is quadratic in the number of cores.
func (pr *problem) split(ch *chromosome, images int) ([]int32, int) {
	if images == 1 {
		return nil, 1
	}
	n := pr.n
	cells := make(map[[2]int32]int32, n)
	for p, at := range ch.at {
		cells[[2]int32{at.r, at.c}] = int32(p)
	}
	// neighbour in direction d of piece p, or -1
	nbr := func(p int32, d int) int32 {
		at := ch.at[p]
		if q, ok := cells[[2]int32{at.r + step[d][0], at.c + step[d][1]}]; ok {
			return q
		}
		return -1
	}
	// bbDir[p*4+d]: the adjacency of p in direction d is a best-buddy
	// pair; likely[p*4+d]: one of its edges ranks the other among its
	// best few candidates
	bbDir := make([]bool, 4*n)
	likely := make([]bool, 4*n)
	for p := range int32(n) {
		for d := range 4 {
			a := (int32(d) - int32(ch.at[p].rot)) & 3
			f := ch.rel[4*p+a]
			if f < 0 {
				continue
			}
			bbDir[4*p+int32(d)] = pr.bb[4*p+a] == f
			likely[4*p+int32(d)] = pr.ranks(4*p+a, f, likelyRank) || pr.ranks(f, 4*p+a, likelyRank)
		}
	}
	// step 1: union over trusted adjacencies (right and down of p, each
	// in a 2x2 square of best buddies above/below or left/right)
	uf := newUnionFind(n)
	square := func(p int32) bool { // the square with p at its top-left
		r, b := nbr(p, 1), nbr(p, 2)
		return r >= 0 && b >= 0 && bbDir[4*p+1] && bbDir[4*p+2] && bbDir[4*r+2] && bbDir[4*b+1]
	}
	for p := range int32(n) {
		if !square(p) {
			continue
		}
		r, b := nbr(p, 1), nbr(p, 2)
		uf.union(p, r)
		uf.union(p, b)
		uf.union(r, nbr(r, 2))
	}
	label := make([]int32, n)
	size := make([]int32, n)
	for p := range int32(n) {
		size[uf.find(p)]++
	}
	cores := int32(0)
	coreOf := make([]int32, n)
	for p := range n {
		coreOf[p] = -1
	}
	threshold := max(minCore, int32(minCoreShare*float64(n)))
	for p := range int32(n) {
		if uf.find(p) == p && size[p] >= threshold {
			coreOf[p] = cores
			cores++
		}
	}
	if cores == 0 {
		return nil, 1
	}
	for p := range int32(n) {
		label[p] = coreOf[uf.find(p)]
	}
	// step 2: the other pieces join a neighbouring core, round by round:
	// through best-buddy adjacencies first, then by majority
	next := slices.Clone(label)
	votes := make([]int32, cores)
	for _, byBuddies := range []bool{true, false} {
		for changed := true; changed; {
			changed = false
			for p := range int32(n) {
				if label[p] >= 0 {
					continue
				}
				clear(votes)
				for d := range 4 {
					if q := nbr(p, d); q >= 0 && label[q] >= 0 && (!byBuddies || bbDir[4*p+int32(d)]) {
						votes[label[q]]++
					}
				}
				if best := argmax(votes); votes[best] > 0 {
					next[p], changed = best, true
				}
			}
			copy(label, next)
		}
	}
	for p := range label {
		if label[p] < 0 { // not connected to any core
			label[p] = 0
		}
	}
	// step 3: merge regions along good seams
	regions := int(cores)
	for regions > 1 {
		seam := make(map[[2]int32][2]int) // (a < b) -> adjacencies, best buddies
		for p := range int32(n) {
			for d := 1; d <= 2; d++ {
				q := nbr(p, d)
				if q < 0 || label[p] == label[q] {
					continue
				}
				k := [2]int32{min(label[p], label[q]), max(label[p], label[q])}
				v := seam[k]
				v[0]++
				if likely[4*p+int32(d)] {
					v[1]++
				}
				seam[k] = v
			}
		}
		bestKey, bestShare := [2]int32{-1, -1}, -1.0
		for k, v := range seam {
			share := float64(v[1]) / float64(v[0])
			if share > bestShare || share == bestShare && cmp.Or(cmp.Compare(k[0], bestKey[0]), cmp.Compare(k[1], bestKey[1])) < 0 {
				bestKey, bestShare = k, share
			}
		}
		if bestShare < 0 || images == 0 && bestShare < mergeShare || images > 0 && regions <= images {
			break
		}
		for p := range label {
			if label[p] == bestKey[1] {
				label[p] = bestKey[0]
			}
		}
		regions--
	}
	// number the regions by their smallest piece
	renum := make(map[int32]int32)
	for p := range label {
		if _, ok := renum[label[p]]; !ok {
			renum[label[p]] = int32(len(renum))
		}
		label[p] = renum[label[p]]
	}
	return label, len(renum)
}

func argmax(v []int32) int32 {
	best := 0
	for i := range v {
		if v[i] > v[best] {
			best = i
		}
	}
	return int32(best)
}

// unionFind is a disjoint-set forest with path halving.
type unionFind []int32

func newUnionFind(n int) unionFind {
	u := make(unionFind, n)
	for i := range u {
		u[i] = int32(i)
	}
	return u
}

func (u unionFind) find(x int32) int32 {
	for u[x] != x {
		u[x] = u[u[x]]
		x = u[x]
	}
	return x
}

func (u unionFind) union(a, b int32) {
	if a, b = u.find(a), u.find(b); a != b {
		u[max(a, b)] = min(a, b)
	}
}

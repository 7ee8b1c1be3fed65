package bag

import (
	"cmp"
	"context"
	"math"
	"slices"

	"tessera/jigsaw"
	"tessera/jigsaw/greedy"
)

// Picture counting thresholds (see countPictures).
const (
	// maxPictures bounds the count.
	maxPictures = 64
	// minPicture is the fewest pieces of a picture, and minPictureShare
	// the smallest share of the bag a picture must hold.
	minPicture      = 8
	minPictureShare = 0.05
	// minMeanShare: the smallest picture holds at least this share of
	// the mean picture.
	minMeanShare = 0.25
)

// countPictures estimates how many pictures the mixed bag pz holds and
// returns, for more than one, the greedy solver's assembly of that many
// (the split bag then starts from). The greedy solver told k pictures
// starts a new one whenever no candidate is a best buddy of the assembly.
// Told the right number it makes whole pictures; told one more, it makes
// the extra picture of the few pieces whose best buddies ran out (on the
// MIT set at most an eighth of a picture). So k grows while the greedy
// solver's smallest picture for k holds at least minPicture pieces,
// minPictureShare of the bag and minMeanShare of the mean picture (n / k).
//
// On bags of 1, 2 and 4 MIT images (432 pieces each, Type 2) it counts
// 34 of 35 bags right. Time: about k + 1 greedy assemblies.
func countPictures(ctx context.Context, pz *jigsaw.Puzzle, c *jigsaw.Compat) (int, *jigsaw.Placement, error) {
	n := len(pz.Pieces)
	k := 1
	var split *jigsaw.Placement
	for try := 2; try <= min(maxPictures, n/minPicture); try++ {
		g, err := greedy.Solver{}.Solve(ctx, &jigsaw.Problem{Puzzle: pz, Compat: c, Images: try})
		if err != nil {
			return k, split, err
		}
		sizes := make([]int, try)
		for _, q := range g.Placement.Pieces {
			sizes[q.Image]++
		}
		m := float64(slices.Min(sizes))
		if m < minPicture || m < minPictureShare*float64(n) || m < minMeanShare*float64(n)/float64(try) {
			break
		}
		k, split = try, g.Placement
	}
	return k, split, nil
}

// minCore is the fewest pieces of a core that relabelCores moves whole.
const minCore = 10

// loopCores returns for every piece the root of its core: pieces joined by
// loops of four best buddies (p, its right neighbour, the one below that,
// and p's bottom neighbour, each the best buddy of the next around the
// loop, with rotations consistent). Unlike single best-buddy pairs, which
// featureless sky or snow forms across pictures, such loops are pure: on
// the bags of 4 MIT pictures every core of at least 10 pieces lies in one
// picture. O(n) best-buddy lookups.
func loopCores(c *jigsaw.Compat) []int32 {
	n := c.N()
	parent := make([]int32, n)
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(i int32) int32 {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	// at returns the best buddy of the side of piece p (turned rot) that
	// faces direction d, and the turn that makes it face back.
	at := func(p int32, rot, d jigsaw.Side) (int32, jigsaw.Side, bool) {
		x, ok := c.BestBuddy(int(p), (d-rot)&3)
		if !ok {
			return 0, 0, false
		}
		return x.Piece, (d.Opposite() - x.Side) & 3, true
	}
	turns := jigsaw.Side(1)
	if c.Rotated() {
		turns = 4
	}
	for p := range int32(n) {
		for rot := range turns {
			q, rq, ok1 := at(p, rot, jigsaw.Right)
			s, rs, ok2 := at(p, rot, jigsaw.Bottom)
			if !ok1 || !ok2 || q == s {
				continue
			}
			r1, t1, ok3 := at(q, rq, jigsaw.Bottom)
			r2, t2, ok4 := at(s, rs, jigsaw.Right)
			if !ok3 || !ok4 || r1 != r2 || t1 != t2 || r1 == p {
				continue
			}
			for _, x := range [3]int32{q, s, r1} {
				parent[find(x)] = find(p)
			}
		}
	}
	for i := range parent {
		parent[i] = find(int32(i))
	}
	return parent
}

// relabelCores moves every core (see loopCores) of at least minCore
// pieces whole into the part (label) that holds most of it, so that a
// picture the split cut in two along a featureless seam comes back
// together. Then the labels spread from the cores in waves: a piece not
// yet reached takes the most common label among its best buddies that
// were (ties: its own label, then the lowest), and is reached from then
// on; pieces never reached keep theirs. It returns the parts whose pieces
// changed, or nil when a part would keep fewer than minPicture pieces
// (labels then unchanged).
func relabelCores(c *jigsaw.Compat, labels []int, k int) []bool {
	root := loopCores(c)
	members := map[int32][]int{}
	for p, r := range root {
		members[r] = append(members[r], p)
	}
	next := slices.Clone(labels)
	reached := make([]bool, len(labels))
	for _, ps := range members {
		if len(ps) < minCore {
			continue
		}
		count := make([]int, k)
		for _, p := range ps {
			count[labels[p]]++
		}
		best := 0
		for l := range count {
			if count[l] > count[best] {
				best = l
			}
		}
		for _, p := range ps {
			next[p], reached[p] = best, true
		}
	}
	next = spread(c, next, reached, k)
	size := make([]int, k)
	changed := make([]bool, k)
	for p, l := range next {
		size[l]++
		if l != labels[p] {
			changed[l], changed[labels[p]] = true, true
		}
	}
	if slices.Min(size) < minPicture {
		return nil
	}
	copy(labels, next)
	return changed
}

// spread spreads the labels of the pieces reached along best buddies, in
// waves: a piece not yet reached takes the most common label among its
// best buddies that were (ties: its own label, then the lowest), and is
// reached from then on. Labels run from 0 to k-1 (a piece not reached
// may hold -1); it returns the labels, reached marks the pieces reached.
func spread(c *jigsaw.Compat, next []int, reached []bool, k int) []int {
	votes := make([]int, k)
	for wave := true; wave; {
		wave = false
		nowReached := slices.Clone(reached)
		now := slices.Clone(next)
		for p := range next {
			if reached[p] {
				continue
			}
			clear(votes)
			any := false
			for a := range jigsaw.Side(4) {
				if x, ok := c.BestBuddy(p, a); ok && reached[x.Piece] {
					votes[next[x.Piece]]++
					any = true
				}
			}
			if !any {
				continue
			}
			best := next[p]
			for l := range votes {
				if best < 0 || votes[l] > votes[best] {
					best = l
				}
			}
			now[p], nowReached[p], wave = best, true, true
		}
		next = now
		copy(reached, nowReached)
	}
	return next
}

// segments labels the pieces by the cores of best-buddy loops of at least
// minCore pieces (loopCores), each a segment, their labels spread along
// best buddies (spread); pieces not reached hold -1. It returns the
// labels and the number of segments, the largest first.
func segments(c *jigsaw.Compat) ([]int, int) {
	root := loopCores(c)
	size := map[int32]int{}
	for _, r := range root {
		size[r]++
	}
	var roots []int32
	for r, s := range size {
		if s >= minCore {
			roots = append(roots, r)
		}
	}
	slices.SortFunc(roots, func(a, b int32) int { return cmp.Or(cmp.Compare(size[b], size[a]), cmp.Compare(a, b)) })
	label := map[int32]int{}
	for i, r := range roots {
		label[r] = i
	}
	labels := make([]int, len(root))
	reached := make([]bool, len(root))
	for p, r := range root {
		l, ok := label[r]
		if !ok {
			l = -1
		}
		labels[p], reached[p] = l, ok
	}
	return spread(c, labels, reached, len(roots)), len(roots)
}

// mergeLinks is the fewest best-buddy pairs between two segments that
// joins them into one picture, and segmentMeanShare the smallest share
// of the mean picture that a picture counted by segments holds (see
// splitSegments).
const (
	mergeLinks       = 3
	segmentMeanShare = 0.5
)

// splitSegments counts and splits the pictures of a bag by its segments
// (segments: cores of best-buddy loops, their labels spread along best
// buddies), for a bag too large for countPictures' greedy test: in a bag
// of many large photographs the greedy solver's first picture runs on
// across several of them (across best buddies of featureless areas), so
// that told more pictures it makes small ones and the count stops short
// (3 of the 7 photographs of a bag of 17,408 pieces). Segments joined by
// at least mergeLinks best-buddy pairs are one picture; the pictures
// counted are the most of the largest groups such that the smallest
// holds at least minPicture pieces, minPictureShare of the bag and
// segmentMeanShare of the mean picture (a picture whose segments stay
// apart is not counted twice). When that counts more than k, it returns the count and
// every piece's picture: those of the groups counted keep it, the others
// take, in waves, the picture of their most alike candidate already
// labelled (Compat.Candidates; any left: the largest picture). Else it
// returns k and nil. Time O(n K).
func splitSegments(c *jigsaw.Compat, k int) (int, []int) {
	labels, segs := segments(c)
	n := len(labels)
	group := make([]int, segs)
	for i := range group {
		group[i] = i
	}
	find := func(i int) int {
		for group[i] != i {
			group[i] = group[group[i]]
			i = group[i]
		}
		return i
	}
	links := map[[2]int]int{}
	for p, l := range labels {
		for a := range jigsaw.Side(4) {
			if x, ok := c.BestBuddy(p, a); ok && l >= 0 && int(x.Piece) > p && labels[x.Piece] >= 0 && labels[x.Piece] != l {
				links[[2]int{min(l, labels[x.Piece]), max(l, labels[x.Piece])}]++
			}
		}
	}
	for pair, m := range links {
		if m >= mergeLinks {
			group[find(pair[0])] = find(pair[1])
		}
	}
	size := make([]int, segs)
	for _, l := range labels {
		if l >= 0 {
			size[find(l)]++
		}
	}
	var roots []int
	for g, s := range size {
		if s > 0 {
			roots = append(roots, g)
		}
	}
	slices.SortFunc(roots, func(a, b int) int { return cmp.Or(cmp.Compare(size[b], size[a]), cmp.Compare(a, b)) })
	count := 0
	for i, g := range roots {
		m := float64(size[g])
		if i+1 > maxPictures || m < minPicture || m < minPictureShare*float64(n) {
			break
		}
		if m >= segmentMeanShare*float64(n)/float64(i+1) {
			count = i + 1
		}
	}
	if count <= k {
		return k, nil
	}
	picture := make([]int, segs)
	for i := range picture {
		picture[i] = -1
	}
	for i, g := range roots[:count] {
		picture[g] = i
	}
	out := make([]int, n)
	for p, l := range labels {
		out[p] = -1
		if l >= 0 {
			out[p] = picture[find(l)]
		}
	}
	for wave := true; wave; {
		wave = false
		now := slices.Clone(out)
		for p := range out {
			if out[p] >= 0 {
				continue
			}
			best, bd := -1, float32(0)
			for a := range jigsaw.Side(4) {
				for _, x := range c.Candidates(p, a) {
					if l := out[x.Piece]; l >= 0 && (best < 0 || x.D < bd) {
						best, bd = l, x.D
					}
				}
			}
			if best >= 0 {
				now[p], wave = best, true
			}
		}
		out = now
	}
	for p := range out {
		out[p] = max(out[p], 0)
	}
	return count, out
}

// unsolved returns the pieces of each picture of labels (0 to k-1) in
// rows, as they come: the bag's placement until its pictures are solved.
func unsolved(labels []int, k int) *jigsaw.Placement {
	size := make([]int, k)
	for _, l := range labels {
		size[l]++
	}
	width := make([]int, k)
	for l, s := range size {
		width[l] = max(1, int(math.Ceil(math.Sqrt(float64(s)))))
	}
	at := make([]int, k)
	p := &jigsaw.Placement{Images: k}
	for piece, l := range labels {
		p.Pieces = append(p.Pieces, jigsaw.Placed{Piece: piece, Image: l, Row: at[l] / width[l], Col: at[l] % width[l]})
		at[l]++
	}
	p.Normalize()
	return p
}

package ga

import (
	"context"
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
		g, err := greedy.Solve(ctx, pz, greedy.Options{Compat: c, Images: try})
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

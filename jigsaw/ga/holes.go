package ga

import (
	"context"
	"time"

	"tessera/jigsaw"
	"tessera/jigsaw/greedy"
)

// solveHoles solves a picture whose pieces may be missing and mixed with
// strays (Problem.Holes): the greedy solver finds the frame (the known
// one, or its estimate) and the pieces that fit it, setting the strays
// aside; the search then runs on those pieces in that frame, whose empty
// cells are the holes, seeded with the greedy layout, each free edge
// costing its best candidate's dissimilarity. Its answer replaces the
// greedy layout only when it keeps at least as many best-buddy
// adjacencies.
func (s Solver) solveHoles(ctx context.Context, p *jigsaw.Problem, c *jigsaw.Compat, res jigsaw.Result, start time.Time) (jigsaw.Result, error) {
	g, err := greedy.Solver{CompatOptions: s.CompatOptions}.Solve(ctx, &jigsaw.Problem{Puzzle: p.Puzzle, Compat: c, Rows: p.Rows, Cols: p.Cols, Holes: true})
	res.SeedTime = time.Since(start) - res.CompatTime
	if err != nil || g.Frame[0] == 0 || len(g.Placement.Pieces) == 0 {
		g.CompatTime, g.SeedTime, g.Elapsed = res.CompatTime, res.SeedTime, time.Since(start)
		return g, err
	}
	// the pieces kept, renumbered, and the greedy layout as a seed
	kept := make([]int, 0, len(g.Placement.Pieces))
	sub := &jigsaw.Puzzle{PieceSize: p.Puzzle.PieceSize, Rotated: p.Puzzle.Rotated, Depth: p.Puzzle.Depth}
	seed := &jigsaw.Placement{Images: 1}
	for i, q := range g.Placement.Pieces {
		kept = append(kept, q.Piece)
		sub.Pieces = append(sub.Pieces, p.Puzzle.Pieces[q.Piece])
		q.Piece = i
		seed.Pieces = append(seed.Pieces, q)
	}
	sc, err := jigsaw.NewCompat(ctx, sub, s.CompatOptions)
	if err != nil {
		g.Elapsed = time.Since(start)
		return g, err
	}
	res.CompatTime += sc.Elapsed()
	f := g.Placement.Frames[0]
	sp := &jigsaw.Problem{Puzzle: sub, Compat: sc, Rows: f.Rows, Cols: f.Cols, Seed: seed, Progress: p.Progress}
	if p.Snapshot != nil {
		sp.Snapshot = func(gen jigsaw.Generation, pl *jigsaw.Placement) {
			for i := range pl.Pieces {
				pl.Pieces[i].Piece = kept[pl.Pieces[i].Piece]
			}
			p.Snapshot(gen, pl)
		}
	}
	// Unless NoneCost says otherwise, a free edge costs its best
	// candidate's dissimilarity, about what its missing neighbour would
	// have cost: the holes, whose number the frame fixes, are not pushed
	// to the border (the fewest free edges) nor spread to spare every poor
	// adjacency.
	inner := s
	inner.holeEdges = s.NoneCost == 0
	one, err := inner.Solve(ctx, sp)
	if one.Placement == nil || sc.Fit(one.Placement).BestBuddies < sc.Fit(seed).BestBuddies {
		// The fitness can be lowered by moving holes beside pieces that
		// fit nothing well (flat areas) rather than where pieces are
		// missing; a layout with fewer best-buddy adjacencies than the
		// greedy one is such a case, and the greedy layout stands.
		g.Elapsed = time.Since(start)
		return g, err
	}
	out := &jigsaw.Placement{Images: 1}
	for _, q := range one.Placement.Pieces {
		q.Piece = kept[q.Piece]
		out.Pieces = append(out.Pieces, q)
	}
	rows, cols := f.Rows, f.Cols
	if b := out.Bounds(0); b.Dy() > rows || b.Dx() > cols {
		rows, cols = cols, rows
	}
	out.Frames = []jigsaw.Frame{{Row: out.Bounds(0).Min.Y, Col: out.Bounds(0).Min.X, Rows: rows, Cols: cols}}
	out.Normalize()
	res.Placement, res.Frame = out, [2]int{rows, cols}
	res.Fitness, res.SeedFitness, res.History = one.Fitness, one.SeedFitness, one.History
	res.SeedTime += one.SeedTime
	return res, err
}

package greedy

import (
	"context"
	"time"

	"tessera/jigsaw"
)

// DefaultAccept is the least fit (Paikin & Tal's compatibility averaged
// over the neighbours, see Solve) of a piece placed when pieces may be
// missing or stray (Problem.Holes): below it the cell is left a hole and
// the pieces that fit no better are set aside.
const DefaultAccept = 0.1

// solveHoles assembles a picture whose pieces may be missing and mixed
// with strays (Problem.Holes): in the known frame, or else in the frame
// estimated from an assembly without one (frameWithHoles), placing pieces
// while the best candidate fits at least Accept, then stopping: the empty
// cells of the frame are holes, the unplaced pieces are set aside.
func (sv Solver) solveHoles(ctx context.Context, c *jigsaw.Compat, opts options, res jigsaw.Result, start time.Time) (jigsaw.Result, error) {
	opts.holes = true
	opts.accept = float32(sv.Accept)
	if sv.Accept == 0 {
		opts.accept = DefaultAccept
	}
	good := goodD(c)
	if opts.rows == 0 {
		s, err := assemble(ctx, c, opts, 1)
		if err != nil {
			return finish(res, c, s, 0, 0, start), err
		}
		s.setAside(good)
		if opts.rows, opts.cols = frameWithHoles(s); opts.rows == 0 {
			return finish(res, c, s, 0, 0, start), nil
		}
	}
	s, err := assemble(ctx, c, opts, 1)
	if err == nil {
		s.setAside(good)
	}
	return finish(res, c, s, opts.rows, opts.cols, start), err
}

// goodRatio: an adjacency whose dissimilarity is below goodRatio times
// the median of the edges' best dissimilarities is a plausible one.
const goodRatio = 1.5

// goodD returns the dissimilarity below which an adjacency is plausible
// (goodRatio times the median best dissimilarity of the edges).
func goodD(c *jigsaw.Compat) float32 { return goodRatio * c.MedianBestD() }

// setAside takes out of the assembly the pieces placed after the sure
// ones (those placed while a candidate fitted Accept) that have no
// plausible adjacency in it: no neighbour that is a best buddy or below
// dissimilarity good. Strays, which come from another picture, fit
// nothing; a piece of the picture placed late has a neighbour that fits
// it, unless it is misplaced.
func (s *solver) setAside(good float32) {
	if s.sure < 0 {
		return
	}
	var out []int32
	for _, k32 := range s.order[s.sure:] {
		k := int(k32)
		q := s.pos[k]
		fits := false
		for d := range jigsaw.Side(4) {
			dr, dc := jigsaw.Offset(d)
			o, ok := s.grid[cell{q.img, q.row + int32(dr), q.col + int32(dc)}]
			if !ok {
				continue
			}
			a, b := jigsaw.SideAt(d, q.rot), jigsaw.SideAt(d.Opposite(), s.pos[o].rot)
			bb, isBB := s.c.BestBuddy(k, a)
			if s.c.D(k, a, int(o), b) < good || isBB && int(bb.Piece) == int(o) && bb.Side == b {
				fits = true
				break
			}
		}
		if !fits {
			out = append(out, k32)
		}
	}
	for _, k := range out {
		s.isPlaced[k] = false
		delete(s.grid, s.pos[k].cell)
	}
}

// finish fills res from the assembly s in the frame rows x cols (none when
// rows is 0), recorded in the placement in the orientation the pieces
// take.
func finish(res jigsaw.Result, c *jigsaw.Compat, s *solver, rows, cols int, start time.Time) jigsaw.Result {
	p := s.placement(1)
	if rows > 0 && len(p.Pieces) > 0 {
		b := p.Bounds(0)
		if b.Dy() > rows || b.Dx() > cols {
			rows, cols = cols, rows
		}
		p.Frames = []jigsaw.Frame{{Rows: rows, Cols: cols}}
		res.Frame = [2]int{rows, cols}
	}
	res.Placement = p
	res.Finish(c, start)
	return res
}

// frameWithHoles estimates the frame of a picture with missing pieces
// from an assembly without a frame: the rectangle (aspect ratio at most
// 4, area from half to four times the pieces) that maximises twice the
// pieces it covers less its empty cells, so that a row or column joins the
// frame when more than a third of its cells hold pieces (the assembly of
// a picture with featureless areas is sparse).
// It returns 0, 0 when nothing is placed.
func frameWithHoles(s *solver) (rows, cols int) {
	if len(s.bounds) == 0 {
		return 0, 0
	}
	b := s.bounds[0]
	bh, bw := int(b[1]-b[0])+1, int(b[3]-b[2])+1
	ps := make([]int32, (bh+1)*(bw+1))
	placed := 0
	for k := range s.n {
		if s.isPlaced[k] && s.pos[k].img == 0 {
			q := s.pos[k]
			ps[(int(q.row-b[0])+1)*(bw+1)+int(q.col-b[2])+1] = 1
			placed++
		}
	}
	for r := 1; r <= bh; r++ {
		for c := 1; c <= bw; c++ {
			ps[r*(bw+1)+c] += ps[(r-1)*(bw+1)+c] + ps[r*(bw+1)+c-1] - ps[(r-1)*(bw+1)+c-1]
		}
	}
	best := -1 << 62
	for h := 1; h <= bh; h++ {
		for w := 1; w <= bw; w++ {
			if h > 4*w || w > 4*h || 2*h*w < placed || h*w > 4*placed {
				continue
			}
			for r := 0; r+h <= bh; r++ {
				for c := 0; c+w <= bw; c++ {
					v := int(ps[(r+h)*(bw+1)+c+w] - ps[r*(bw+1)+c+w] - ps[(r+h)*(bw+1)+c] + ps[r*(bw+1)+c])
					if score := 3*v - h*w; score > best {
						best, rows, cols = score, h, w
					}
				}
			}
		}
	}
	return rows, cols
}

package jigsaw

import (
	"fmt"
	"image"
)

// ScoreOptions configure Score. The zero value is invariant to a global
// rotation and shift of each output image (Type 2, unknown size).
type ScoreOptions struct {
	// Absolute counts a piece as directly correct only when it sits upright
	// in its true cell, counted from row 0, column 0 of its output image:
	// the usual measure for Type 1 with known size.
	Absolute bool
}

// ImageScore is the accuracy of one source image of a puzzle.
type ImageScore struct {
	Name   string `json:"name"`
	Pieces int    `json:"pieces"`
	// Correct is the number of pieces in their true cell and orientation,
	// under the best global rotation and shift of one output image
	// (Output), or under none with ScoreOptions.Absolute.
	Correct int `json:"correct"`
	// Adjacencies counts the image's pairs of edge-adjacent cells,
	// 2*rows*cols - rows - cols; CorrectAdjacencies those placed side by
	// side in the same output image, the right way round.
	Adjacencies        int     `json:"adjacencies"`
	CorrectAdjacencies int     `json:"correct_adjacencies"`
	Direct             float64 `json:"direct"`
	Neighbor           float64 `json:"neighbor"`
	Perfect            bool    `json:"perfect"`
	// Output is the output image that holds the Correct pieces, or -1.
	Output int `json:"output"`
	// Missing is the number of the image's cells whose piece is lost
	// (Pieces counts only those present); HolesRight how many of them
	// are empty cells in the frame of Output, where Correct's rotation
	// and shift put them.
	Missing    int `json:"missing,omitempty"`
	HolesRight int `json:"holes_right,omitempty"`
	// Aside is the number of the image's pieces that are not placed.
	Aside int `json:"aside,omitempty"`
}

// Accuracy is the score of a placement against the truth.
type Accuracy struct {
	// Direct is the fraction of all pieces directly correct (Cho et al.
	// 2010), Neighbor the fraction of all true adjacencies kept, over the
	// pieces and adjacencies of every source image together.
	Direct   float64 `json:"direct"`
	Neighbor float64 `json:"neighbor"`
	// Perfect reports that every source image is reconstructed exactly.
	Perfect bool `json:"perfect"`
	// Images holds the scores per source image (several for a mixed bag).
	Images []ImageScore `json:"images"`
	// Missing is the number of pieces lost from the pictures, Holes the
	// number of empty cells in the frames of the output images, and
	// HolesRight how many of those are where a piece is really missing.
	Missing    int `json:"missing,omitempty"`
	Holes      int `json:"holes,omitempty"`
	HolesRight int `json:"holes_right,omitempty"`
	// Strays is the number of stray pieces (from pictures not to be
	// reassembled), StraysAside how many of them are not placed, and
	// Aside the number of the pictures' own pieces not placed.
	Strays      int `json:"strays,omitempty"`
	StraysAside int `json:"strays_aside,omitempty"`
	Aside       int `json:"aside,omitempty"`
}

// RotateCell turns a cell offset (r, c) by rho quarter turns clockwise
// about the origin (rows grow downwards): (r, c) -> (c, -r) per turn.
func RotateCell[T int | int32](r, c T, rho Rotation) (T, T) {
	switch rho & 3 {
	case 1:
		return c, -r
	case 2:
		return -r, -c
	case 3:
		return -c, r
	}
	return r, c
}

// Score measures placement p against truth t: direct accuracy (pieces in
// the right cell), neighbour accuracy (adjacencies kept, Cho et al. 2010)
// and perfect reconstruction, per source image and overall.
//
// A piece's final orientation is its sheet rotation composed with its
// placed rotation. An adjacency counts when both pieces are in the same
// output image with the same final orientation rho and stand in their true
// relative position turned by rho; so neighbour accuracy never depends on
// a global rotation or shift. Direct accuracy takes, for each source
// image, the output image, global rotation and shift that put the most of
// its pieces right (a vote over the pieces, O(n)), unless opts.Absolute.
// Unplaced pieces count as wrong.
//
// When pieces are missing (Truth.Missing) the accuracies count only the
// pieces present and the adjacencies between two of them; a missing
// piece's cell is a hole found (HolesRight) when the image's best
// rotation and shift put it on an empty cell of the output's frame.
// Stray pieces (from images marked Stray) count as set aside when they are
// not placed. O(n) expected time.
func Score(t *Truth, p *Placement, opts ScoreOptions) (Accuracy, error) {
	n := len(t.Pieces)
	if err := p.Validate(n, true); err != nil {
		return Accuracy{}, err
	}
	where := make([]int, n) // piece -> index in p.Pieces, or -1
	for k := range where {
		where[k] = -1
	}
	full := make(map[[3]int]bool, len(p.Pieces))
	for i, q := range p.Pieces {
		where[q.Piece] = i
		full[[3]int{q.Image, q.Row, q.Col}] = true
	}
	// cell -> piece (or -1), per source image
	offset := make([]int, len(t.Images)+1)
	for i, im := range t.Images {
		offset[i+1] = offset[i] + im.Rows*im.Cols
	}
	cellPiece := make([]int, offset[len(t.Images)])
	for i := range cellPiece {
		cellPiece[i] = -1
	}
	for k, o := range t.Pieces {
		cellPiece[offset[o.Image]+o.Row*t.Images[o.Image].Cols+o.Col] = k
	}
	var acc Accuracy
	totalPieces, totalCorrect, totalAdj, totalAdjOK := 0, 0, 0, 0
	acc.Perfect = true
	for g, im := range t.Images {
		if im.Stray {
			for _, k := range cellPiece[offset[g]:offset[g+1]] {
				if k >= 0 {
					acc.Strays++
					if where[k] < 0 {
						acc.StraysAside++
					}
				}
			}
			continue
		}
		s := scoreImage(t, p, opts, im, cellPiece[offset[g]:offset[g+1]], where, full)
		acc.Perfect = acc.Perfect && s.Perfect
		totalPieces += s.Pieces
		totalCorrect += s.Correct
		totalAdj += s.Adjacencies
		totalAdjOK += s.CorrectAdjacencies
		acc.Missing += s.Missing
		acc.HolesRight += s.HolesRight
		acc.Aside += s.Aside
		acc.Images = append(acc.Images, s)
	}
	for img := range p.Images {
		acc.Holes += p.Holes(img)
	}
	acc.Direct = 1
	if totalPieces > 0 {
		acc.Direct = float64(totalCorrect) / float64(totalPieces)
	}
	acc.Neighbor = 1
	if totalAdj > 0 {
		acc.Neighbor = float64(totalAdjOK) / float64(totalAdj)
	}
	return acc, nil
}

// scoreImage scores one source image, whose cells hold the pieces cells
// (-1 for a missing piece); where maps pieces to p.Pieces, full the
// occupied cells of the output images.
func scoreImage(t *Truth, p *Placement, opts ScoreOptions, im TruthImage, cells, where []int, full map[[3]int]bool) ImageScore {
	type vote struct{ out, rho, dr, dc int }
	s := ImageScore{Name: im.Name, Output: -1}
	votes := make(map[vote]int)
	best, bestVote := 0, vote{}
	for _, k := range cells {
		if k < 0 {
			s.Missing++
			continue
		}
		s.Pieces++
		if where[k] < 0 {
			s.Aside++
			continue
		}
		q := p.Pieces[where[k]]
		rho := t.Pieces[k].Rotation.Add(q.Rotation)
		rr, cc := RotateCell(t.Pieces[k].Row, t.Pieces[k].Col, rho)
		v := vote{q.Image, int(rho), q.Row - rr, q.Col - cc}
		if opts.Absolute && (v.rho != 0 || v.dr != 0 || v.dc != 0) {
			continue
		}
		votes[v]++
		if c := votes[v]; c > best || (c == best && q.Image < s.Output) {
			best, s.Output, bestVote = c, q.Image, v
		}
	}
	s.Correct = best
	var frame image.Rectangle
	if s.Output >= 0 {
		frame = p.Frame(s.Output)
	}
	for cell, a := range cells {
		r, c := cell/im.Cols, cell%im.Cols
		if a < 0 {
			if s.Output >= 0 {
				rr, cc := RotateCell(r, c, Rotation(bestVote.rho))
				at := image.Pt(cc+bestVote.dc, rr+bestVote.dr)
				if at.In(frame) && !full[[3]int{s.Output, at.Y, at.X}] {
					s.HolesRight++
				}
			}
			continue
		}
		for _, d := range [2]Side{Right, Bottom} {
			dr, dc := Offset(d)
			if r+dr >= im.Rows || c+dc >= im.Cols {
				continue
			}
			b := cells[(r+dr)*im.Cols+c+dc]
			if b < 0 {
				continue
			}
			s.Adjacencies++
			if where[a] < 0 || where[b] < 0 {
				continue
			}
			qa, qb := p.Pieces[where[a]], p.Pieces[where[b]]
			rho := t.Pieces[a].Rotation.Add(qa.Rotation)
			if qa.Image != qb.Image || t.Pieces[b].Rotation.Add(qb.Rotation) != rho {
				continue
			}
			wr, wc := RotateCell(dr, dc, rho)
			if qb.Row-qa.Row == wr && qb.Col-qa.Col == wc {
				s.CorrectAdjacencies++
			}
		}
	}
	s.Direct, s.Neighbor = 1, 1
	if s.Pieces > 0 {
		s.Direct = float64(s.Correct) / float64(s.Pieces)
	}
	if s.Adjacencies > 0 {
		s.Neighbor = float64(s.CorrectAdjacencies) / float64(s.Adjacencies)
	}
	s.Perfect = s.Correct == s.Pieces && s.HolesRight == s.Missing
	return s
}

// String summarises the accuracy in one line.
func (a Accuracy) String() string {
	return fmt.Sprintf("direct %.2f%%, neighbour %.2f%%, perfect %v", 100*a.Direct, 100*a.Neighbor, a.Perfect)
}

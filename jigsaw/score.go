package jigsaw

import "fmt"

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
}

// rotateCell turns a cell offset by rho quarter turns clockwise about the
// origin (rows grow downwards): (r, c) -> (c, -r) per turn.
func rotateCell(r, c int, rho Rotation) (int, int) {
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
// Unplaced pieces count as wrong. O(n) expected time.
func Score(t *Truth, p *Placement, opts ScoreOptions) (Accuracy, error) {
	n := len(t.Pieces)
	if err := p.Validate(n, true); err != nil {
		return Accuracy{}, err
	}
	where := make([]int, n) // piece -> index in p.Pieces, or -1
	for k := range where {
		where[k] = -1
	}
	for i, q := range p.Pieces {
		where[q.Piece] = i
	}
	// cell -> piece, per source image
	offset := make([]int, len(t.Images)+1)
	for i, im := range t.Images {
		offset[i+1] = offset[i] + im.Rows*im.Cols
	}
	cellPiece := make([]int, offset[len(t.Images)])
	for k, o := range t.Pieces {
		cellPiece[offset[o.Image]+o.Row*t.Images[o.Image].Cols+o.Col] = k
	}
	type vote struct{ out, rho, dr, dc int }
	var acc Accuracy
	totalPieces, totalCorrect, totalAdj, totalAdjOK := 0, 0, 0, 0
	acc.Perfect = true
	for g, im := range t.Images {
		s := ImageScore{Name: im.Name, Pieces: im.Rows * im.Cols, Output: -1,
			Adjacencies: 2*im.Rows*im.Cols - im.Rows - im.Cols}
		votes := make(map[vote]int)
		best := 0
		for cell := range s.Pieces {
			k := cellPiece[offset[g]+cell]
			if where[k] < 0 {
				continue
			}
			q := p.Pieces[where[k]]
			rho := t.Pieces[k].Rotation.Add(q.Rotation)
			rr, cc := rotateCell(t.Pieces[k].Row, t.Pieces[k].Col, rho)
			v := vote{q.Image, int(rho), q.Row - rr, q.Col - cc}
			if opts.Absolute && (v.rho != 0 || v.dr != 0 || v.dc != 0) {
				continue
			}
			votes[v]++
			if c := votes[v]; c > best || (c == best && q.Image < s.Output) {
				best, s.Output = c, q.Image
			}
		}
		s.Correct = best
		for cell := range s.Pieces {
			r, c := cell/im.Cols, cell%im.Cols
			a := cellPiece[offset[g]+cell]
			for _, d := range [2]Side{Right, Bottom} {
				dr, dc := Offset(d)
				if r+dr >= im.Rows || c+dc >= im.Cols {
					continue
				}
				b := cellPiece[offset[g]+(r+dr)*im.Cols+c+dc]
				if where[a] < 0 || where[b] < 0 {
					continue
				}
				qa, qb := p.Pieces[where[a]], p.Pieces[where[b]]
				rho := t.Pieces[a].Rotation.Add(qa.Rotation)
				if qa.Image != qb.Image || t.Pieces[b].Rotation.Add(qb.Rotation) != rho {
					continue
				}
				wr, wc := rotateCell(dr, dc, rho)
				if qb.Row-qa.Row == wr && qb.Col-qa.Col == wc {
					s.CorrectAdjacencies++
				}
			}
		}
		s.Direct = float64(s.Correct) / float64(s.Pieces)
		s.Neighbor = 1
		if s.Adjacencies > 0 {
			s.Neighbor = float64(s.CorrectAdjacencies) / float64(s.Adjacencies)
		}
		s.Perfect = s.Correct == s.Pieces
		acc.Perfect = acc.Perfect && s.Perfect
		totalPieces += s.Pieces
		totalCorrect += s.Correct
		totalAdj += s.Adjacencies
		totalAdjOK += s.CorrectAdjacencies
		acc.Images = append(acc.Images, s)
	}
	acc.Direct = float64(totalCorrect) / float64(totalPieces)
	acc.Neighbor = 1
	if totalAdj > 0 {
		acc.Neighbor = float64(totalAdjOK) / float64(totalAdj)
	}
	return acc, nil
}

// String summarises the accuracy in one line.
func (a Accuracy) String() string {
	return fmt.Sprintf("direct %.2f%%, neighbour %.2f%%, perfect %v", 100*a.Direct, 100*a.Neighbor, a.Perfect)
}

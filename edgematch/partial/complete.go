package partial

import (
	"fmt"
	"math/rand/v2"

	"tessera/edgematch"
	"tessera/edgematch/internal/kernel"
)

// CompleteBest completes the partial board b (its empty cells NoPiece) in
// the best way: the pieces b leaves out go to its empty cells, each
// fitting the frame, in the arrangement that scores the most, with the
// placed pieces kept where they are. It starts from the optimal assignment
// per kind of cell (as the break search's completions) and searches the
// empty cells by the window repairs' branch and bound, for at most
// maxNodes placements (0: 100 million). It returns the complete board and
// whether its arrangement is proven the best (false when the placements
// ran out first: the board is then the best found). b itself is not
// changed.
//
// With atLeast > 0 only completions of atLeast or more are sought, which
// prunes far more: when the board returned scores less, it is the
// assignment's (or the best found) and proven says that no completion
// reaches atLeast.
//
// It is the exact completion of a backtracker's deepest partial boards
// (those of Blackwood's solver and its ports, which stop short of the last
// cells), so that they are scored as complete boards.
func CompleteBest(p *edgematch.Puzzle, b *edgematch.Board, maxNodes, atLeast int) (*edgematch.Board, bool, error) {
	if err := p.Validate(); err != nil {
		return nil, false, err
	}
	if err := p.Check(b); err != nil {
		return nil, false, err
	}
	for _, h := range p.Hints {
		if pl := b.At(h.Row, h.Col); pl.Piece != edgematch.NoPiece && (pl.Piece != h.Piece || p.Tiles[pl.Piece].Rotate(pl.Rot) != p.Tiles[h.Piece].Rotate(h.Rot)) {
			return nil, false, fmt.Errorf("edgematch: row %d, column %d: piece %d/%d where the hint is %d/%d", h.Row+1, h.Col+1, pl.Piece+1, pl.Rot, h.Piece+1, h.Rot)
		}
	}
	if maxNodes <= 0 {
		maxNodes = 100_000_000
	}
	c, err := kernel.Compile(p, kernel.CompileOptions{Order: edgematch.OrderRows})
	if err != nil {
		return nil, false, err
	}
	l := newLNS(c, rand.New(rand.NewPCG(1, 2)))
	// The hints' cells hold their pieces; every placed piece must stand
	// where its kind (corner, border, inner) fits, or the assignment per
	// kind has no answer.
	start := b.Clone()
	for _, h := range p.Hints {
		start.Set(h.Row, h.Col, h.Piece, h.Rot)
	}
	if err := p.Check(start); err != nil {
		return nil, false, err
	}
	var cells []int
	for cell, pl := range start.Cells {
		if pl.Piece == edgematch.NoPiece {
			cells = append(cells, cell)
			continue
		}
		if !c.Fits(int(l.oriOf(pl.Piece, pl.Rot)), l.mask[cell]) {
			return nil, false, fmt.Errorf("edgematch: row %d, column %d: piece %d/%d does not fit the frame there", cell/p.Cols+1, cell%p.Cols+1, pl.Piece+1, pl.Rot)
		}
	}
	if err := l.kindsMatch(start); err != nil {
		return nil, false, err
	}
	l.fill(start)
	if len(cells) < 2 {
		return l.board(), true, nil
	}
	in := make([]bool, l.n)
	for _, cell := range cells {
		in[cell] = true
	}
	before := l.localScore(cells, in)
	// The window's edges must reach atLeast less the edges elsewhere.
	want := max(before, atLeast-(l.score-before))
	if after := l.win.solve(cells, in, want, maxNodes); after >= 0 {
		l.score += after - before
	}
	return l.board(), l.win.nodes < maxNodes, nil
}

// kindsMatch reports an error unless every kind of cell (inner, border,
// corner) has as many empty cells as pieces of that kind left out of b.
func (l *lns) kindsMatch(b *edgematch.Board) error {
	used := make([]bool, len(l.p.Tiles))
	var empty [3]int
	for cell, pl := range b.Cells {
		if pl.Piece == edgematch.NoPiece {
			empty[l.kind[cell]]++
		} else {
			used[pl.Piece] = true
		}
	}
	for kind := int8(0); kind <= 2; kind++ {
		left := 0
		for pc := range l.p.Tiles {
			if !used[pc] && l.pieceFits(pc, kind) {
				left++
			}
		}
		if left != empty[kind] {
			return fmt.Errorf("edgematch: %d empty cells of kind %d (0 inner, 1 border, 2 corner) for %d pieces left of that kind", empty[kind], kind, left)
		}
	}
	return nil
}

package samegame

import (
	"fmt"
	"hash/maphash"
	"math"
	"math/rand/v2"
	"slices"
)

// Position is a game in progress for the searches of package mcts: a
// board, the points and clicks so far, and an optional tabu colour. It
// implements mcts.Game and mcts.Coded with Group moves (the code of a move
// is Group.Code, the Zobrist hash of its cells, as in Cazenave's NRPA for
// SameGame).
//
// Score is the final score under Standard rules (points, plus ClearBonus
// for an empty board) and minus the number of clicks under Dust (every
// dust game ends with an empty board), so that searches maximise it.
type Position struct {
	board    Board
	points   int
	clicks   int
	tabu     Color // the tabu colour, or Empty
	tabuLeft int   // cells of the tabu colour left
	pairs    bool  // tabu pairs may be clicked after pairsAfter clicks
	second   Color // SetTabuSecond's colour kept for second-last, or Empty
	code     MoveCode
	left     [MaxColors]int16 // cells of each colour left
	prior    *priorTables     // SetPrior's tables, nil when off
	scratch  *scratch
}

// priorTables hold SetPrior's factors: by the cells left of a move's
// colour and by the move's size.
type priorTables struct {
	left, size []float64
}

// NewPosition starts a game on a copy of b. With tabu set, Moves hides the
// groups of the colour with the most cells on b (the lowest such colour on
// a tie) unless no other move is legal or the group is all that is left of
// that colour: the "TabuColor" move filter of Schadd et al. and Cazenave,
// which keeps the largest colour together for one big final group.
func NewPosition(b *Board, tabu bool) *Position {
	if !tabu {
		return newPositionTabu(b, Empty)
	}
	c, _ := mostFrequent(b)
	return newPositionTabu(b, c)
}

// newPositionTabu starts a game on a copy of b with tabu colour c (Empty:
// no filter).
func newPositionTabu(b *Board, c Color) *Position {
	p := &Position{board: *b, tabu: Empty, second: Empty, scratch: new(scratch)}
	for c, n := range b.ColorCounts() {
		p.left[c] = int16(n)
	}
	if c != Empty {
		if n := b.ColorCounts()[c]; n > 0 {
			p.tabu, p.tabuLeft = c, n
		}
	}
	return p
}

// TabuCandidates returns the colours worth keeping for last on b: those
// with as many cells as the most frequent colour (at most k of them, the
// lowest colour first), so that the first is the tabu colour of
// NewPosition. On the standard set: the five colours of positions 11 to 15
// (45 cells each), one colour elsewhere. A colour with fewer cells caps the
// final group lower ((n-2)^2 points: 94 fewer for one cell less at 50), and
// a race over nearly tied colours measured worse than the largest alone
// (docs/results/samegame.md, session 7).
func TabuCandidates(b *Board, k int) []Color {
	n := b.ColorCounts()
	var cs []Color
	for c := range MaxColors {
		if n[c] > 0 {
			cs = append(cs, Color(c))
		}
	}
	slices.SortStableFunc(cs, func(x, y Color) int { return n[y] - n[x] })
	if len(cs) == 0 {
		return nil
	}
	k = min(k, len(cs))
	for i := 1; i < k; i++ {
		if n[cs[i]] < n[cs[0]] {
			k = i
		}
	}
	return cs[:max(k, 1)]
}

// pairsAfter is the number of clicks after which SetTabuPairs lets the
// tabu colour's groups of two cells be clicked.
const pairsAfter = 10

// SetTabuPairs relaxes the tabu-colour filter: after the first 10 clicks,
// the tabu colour's groups of two cells are legal too (the selective rule
// of Negrevergne and Cazenave's NRPA code: a pair scores nothing and
// clears the way; larger groups of that colour stay hidden).
func (p *Position) SetTabuPairs(on bool) { p.pairs = on }

// SetTabuSecond keeps a second colour together, for second-last: the
// colour with the most cells after the tabu colour (the lowest on a tie).
// Moves then hides its groups too, unless the group is all that is left
// of it; when only the two colours' groups are left, the second colour's
// are legal, and when only the tabu colour's are left, all of them. Both
// colours can then end in one large group each. Without a tabu colour it
// does nothing.
func (p *Position) SetTabuSecond(on bool) {
	p.second = Empty
	if !on || p.tabu == Empty {
		return
	}
	for c, n := range p.left {
		if Color(c) != p.tabu && n > 0 && (p.second == Empty || n > p.left[p.second]) {
			p.second = Color(c)
		}
	}
}

// tabuOK reports whether the tabu-colour filter lets g be clicked.
func (p *Position) tabuOK(g Group) bool {
	return g.Color != p.tabu || int(g.Size) == p.tabuLeft || (p.pairs && g.Size <= 2 && p.clicks >= pairsAfter)
}

// mostFrequent returns the colour with the most cells and its count.
func mostFrequent(b *Board) (Color, int) {
	n := b.ColorCounts()
	best := 0
	for c := 1; c < MaxColors; c++ {
		if n[c] > n[best] {
			best = c
		}
	}
	if n[best] == 0 {
		return Empty, 0
	}
	return Color(best), n[best]
}

// Board returns the current position. The caller must not change it.
func (p *Position) Board() *Board { return &p.board }

// Clicks returns the number of clicks played.
func (p *Position) Clicks() int { return p.clicks }

// Tabu returns the tabu colour, or Empty when there is none.
func (p *Position) Tabu() Color { return p.tabu }

// Moves appends the legal groups (filtered by the tabu colour) to dst.
func (p *Position) Moves(dst []Group) []Group {
	base := len(dst)
	dst = p.board.groupsWith(dst, p.board.rules.MinGroup(), p.scratch)
	if p.tabu == Empty || len(dst) == base {
		return dst
	}
	k := base
	for _, g := range dst[base:] {
		if p.tabuOK(g) && (p.second == Empty || g.Color != p.second || g.Size == p.left[p.second]) {
			dst[k] = g
			k++
		}
	}
	if k == base && p.second != Empty { // only the kept colours: the second is free
		for _, g := range dst[base:] {
			if p.tabuOK(g) {
				dst[k] = g
				k++
			}
		}
	}
	if k == base { // only tabu moves: all of them are legal
		return dst
	}
	return dst[:k]
}

// Play removes g, one of the groups Moves returned.
func (p *Position) Play(g Group) {
	n := p.board.PlayGroup(g)
	p.points += p.board.rules.Points(n)
	p.clicks++
	p.left[g.Color] -= int16(n)
	if g.Color == p.tabu {
		p.tabuLeft -= n
	}
}

// Score returns the score so far: under Standard the points plus
// ClearBonus when the board is empty, under Dust minus the clicks.
func (p *Position) Score() float64 {
	if p.board.rules == Dust {
		return -float64(p.clicks)
	}
	return float64(score(Standard, p.points, &p.board))
}

// Clone returns a copy of p with its own working memory.
func (p *Position) Clone() *Position {
	q := *p
	q.scratch = new(scratch)
	return &q
}

// CopyFrom sets p to a copy of q.
func (p *Position) CopyFrom(q *Position) {
	s := p.scratch
	*p = *q
	p.scratch = s
}

// keySeeds seed the two halves of Key.
var keySeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// Key names what Moves and Code return in p, for the cache of move lists
// of NRPA (mcts.Keyed): a 128-bit hash of the cells, the colours held
// back, the move code and whether the tabu pairs are free. The hash is
// seeded afresh in every process: it decides where a state sits in the
// cache, never which moves a search plays.
func (p *Position) Key() [2]uint64 {
	b := &p.board
	cells := b.cells[stride : stride*(int(b.w)+1)]
	x := uint64(uint8(p.tabu)) | uint64(uint8(p.second))<<8 | uint64(p.code)<<16 | uint64(b.rules)<<24
	if p.pairs && p.clicks >= pairsAfter {
		x |= 1 << 32
	}
	return [2]uint64{maphash.Bytes(keySeeds[0], cells) ^ x*0x9e3779b97f4a7c15, maphash.Bytes(keySeeds[1], cells) + x}
}

// MoveCode is how Position codes a move for NRPA's policy: what makes two
// moves of different games (playouts) the same move to it.
type MoveCode uint8

const (
	// CodeCells, the default, is Group.Code: the colour and the exact set
	// of cells (Cazenave's Zobrist code). A group one cell larger is
	// another move.
	CodeCells MoveCode = iota
	// CodeAnchor is the colour and the group's anchor cell (its lowest
	// cell in its leftmost column, the cell a click names) with the size
	// class: 2, 3, ... 7, or 8 and more. Groups that differ in a few far
	// cells share a weight, so the policy learns from fewer playouts.
	CodeAnchor
)

// ParseMoveCode reads a MoveCode's name: "cells" (or "") or "anchor".
func ParseMoveCode(s string) (MoveCode, error) {
	switch s {
	case "", "cells":
		return CodeCells, nil
	case "anchor":
		return CodeAnchor, nil
	}
	return 0, fmt.Errorf("samegame: move code %q: want cells or anchor", s)
}

// SetMoveCode sets how Code codes moves (CodeCells at first).
func (p *Position) SetMoveCode(c MoveCode) { p.code = c }

// Code returns the code of g for NRPA: Group.Code, or with CodeAnchor a
// mix of its colour, anchor cell and size class.
func (p *Position) Code(g Group) uint64 {
	if p.code == CodeAnchor {
		sz := uint64(min(g.Size, 8))
		return (uint64(uint8(g.Color))<<24 | sz<<16 | uint64(uint8(g.X))<<8 | uint64(uint8(g.Y)) + 1) * 0x9e3779b97f4a7c15
	}
	return g.Code
}

// SetPrior gives NRPA's playouts a prior over the moves (a Generalized
// NRPA bias, mcts.NRPAOptions.Prior): a group of colour c and n cells
// weighs exp(-left*L/mean) * n^size, where L is the number of cells of
// colour c left on the board and mean the mean number of cells of a colour
// on the board when SetPrior is called (a search calls it at its root). left > 0 favours the colours with the fewest cells left
// (clearing the rare colours first lets the others merge); size < 0
// favours small groups (a large group left alone may still grow). Both 0
// (the default) is no prior: Prior is 1 for every move.
func (p *Position) SetPrior(left, size float64) {
	if left == 0 && size == 0 {
		p.prior = nil
		return
	}
	cells, colours := 0, 0
	for _, n := range p.left {
		if n > 0 {
			cells += int(n)
			colours++
		}
	}
	mean := float64(cells) / float64(max(colours, 1))
	t := &priorTables{left: make([]float64, cells+1), size: make([]float64, cells+1)}
	for n := range t.left {
		t.left[n] = math.Exp(-left * float64(n) / mean)
		t.size[n] = math.Pow(float64(max(n, 1)), size)
	}
	p.prior = t
}

// Prior returns g's prior weight (SetPrior), 1 when there is none.
func (p *Position) Prior(g Group) float64 {
	if p.prior == nil {
		return 1
	}
	return p.prior.left[p.left[g.Color]] * p.prior.size[g.Size]
}

// TabuColorPolicy is a playout policy for mcts (Schadd et al.'s
// TabuColorRandom): it picks uniformly among the moves that do not break up
// the colour that had the most cells at the start of the game, unless only
// such moves are left or the group is all that is left of that colour. It
// is the filter of NewPosition(b, true) applied to playouts only, so that a
// tree search still considers every move near its root.
type TabuColorPolicy struct {
	Tabu Color
}

// NewTabuColorPolicy returns the policy for games starting from b.
func NewTabuColorPolicy(b *Board) TabuColorPolicy {
	c, _ := mostFrequent(b)
	return TabuColorPolicy{Tabu: c}
}

// Choose picks a move; it allocates nothing.
func (t TabuColorPolicy) Choose(p *Position, moves []Group, rng *rand.Rand) int {
	if t.Tabu == Empty {
		return rng.IntN(len(moves))
	}
	left := p.board.ColorCounts()[t.Tabu]
	var ok [MaxSize * MaxSize]uint16
	n := 0
	for i, g := range moves {
		if g.Color != t.Tabu || int(g.Size) == left {
			ok[n] = uint16(i)
			n++
		}
	}
	if n == 0 {
		return rng.IntN(len(moves))
	}
	return int(ok[rng.IntN(n)])
}

package samegame

import (
	"context"
	"iter"
	"math/rand/v2"
	"slices"
	"testing"

	"tessera/search"
)

// bitSpace is a Dust board on bit boards as a space of package search:
// the successors of a board are its groups in the order of the bit-board
// beam (bitGeom.groups), the key is the board's hash and the goal is the
// empty board. rank is the bit-board beam's value with its sign turned
// (search.Beam keeps the lowest ranks): groups left plus twice the
// colours left.
type bitSpace struct {
	g          *bitGeom
	succ, kids []bitGroup // scratch of Successors and rank
}

func (sp *bitSpace) Key(s bitBoard) uint64  { return sp.g.hash(&s) }
func (sp *bitSpace) IsGoal(s bitBoard) bool { return s.occ == 0 }
func (sp *bitSpace) rank(s bitBoard) float64 {
	sp.kids = sp.g.groups(&s, sp.kids[:0], 1)
	return float64(len(sp.kids) + 2*sp.g.colorsLeft(&s))
}

func (sp *bitSpace) Successors(s bitBoard) iter.Seq2[bitGroup, bitBoard] {
	return func(yield func(bitGroup, bitBoard) bool) {
		sp.succ = sp.g.groups(&s, sp.succ[:0], 1)
		for _, grp := range sp.succ {
			child := s
			sp.g.play(&child, grp.mask, int(grp.color))
			if !yield(grp, child) {
				return
			}
		}
	}
}

// genericBeam is the Dust beam of width width run by search.Beam.
func genericBeam(ctx context.Context, b *Board, width int) ([]Move, search.Stats, error) {
	sp := &bitSpace{g: newBitGeom(b)}
	res, err := search.Beam(ctx, sp, sp.g.toBits(b), sp.rank, search.BeamOptions{Width: width, Distinct: true})
	moves := make([]Move, len(res.Moves))
	for i, grp := range res.Moves {
		moves[i] = sp.g.move(grp.mask)
	}
	return moves, res.Stats, err
}

// fastBeam runs the bit-board beam with default options (their type is
// inferred, so that this test does not name it).
func fastBeam(ctx context.Context, b *Board, width int) (Solution, error) {
	return callZero(ctx, b, width, beamBits)
}

func callZero[O any](ctx context.Context, b *Board, width int, f func(context.Context, *Board, int, O) (Solution, error)) (Solution, error) {
	var o O
	return f(ctx, b, width, o)
}

// dustBoards returns the blog's examples and random 8x6 boards of 5
// colours.
func dustBoards(t testing.TB, random int) []*Board {
	var boards []*Board
	for _, e := range readSet(t, "dust_blog_examples.txt", Dust) {
		boards = append(boards, e.Board)
	}
	rng := rand.New(rand.NewPCG(20, 5))
	for range random {
		boards = append(boards, Random(8, 6, 5, Dust, rng))
	}
	return boards
}

// TestBitBeamIsSearchBeam checks the bit-board beam, samegame's fast
// path, against the generic search.Beam on the same space, ranking and
// tie-breaking: the same clicks, width by width.
func TestBitBeamIsSearchBeam(t *testing.T) {
	for i, b := range dustBoards(t, 12) {
		if !fitsBits(b) {
			t.Fatalf("board %d does not fit the bit engine", i)
		}
		for _, width := range []int{1, 7, 60} {
			fast, err := fastBeam(t.Context(), b, width)
			if err != nil {
				t.Fatal(err)
			}
			moves, _, err := genericBeam(t.Context(), b, width)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(fast.Moves, moves) {
				t.Fatalf("board %d, width %d: bit beam %v (%d clicks), search.Beam %v (%d)",
					i, width, fast.Moves, len(fast.Moves), moves, len(moves))
			}
			if res, err := Replay(b, moves); err != nil || !res.Cleared {
				t.Fatalf("board %d, width %d: %v does not clear the board: %v", i, width, moves, err)
			}
		}
	}
}

// BenchmarkBeam compares the bit-board beam with search.Beam on the same
// bit boards (width 200; an operation solves the blog's examples and 8
// random 8x6 boards of 5 colours): the price of the generic engine
// (interfaces, iterators, candidates holding their boards, a map for the
// duplicates).
func BenchmarkBeam(b *testing.B) {
	boards := dustBoards(b, 8)
	const width = 200
	b.Run("bits", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, bd := range boards {
				if _, err := fastBeam(context.Background(), bd, width); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.N*len(boards))/b.Elapsed().Seconds(), "boards/s")
	})
	b.Run("search.Beam", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, bd := range boards {
				if _, _, err := genericBeam(context.Background(), bd, width); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.N*len(boards))/b.Elapsed().Seconds(), "boards/s")
	})
}

package npuzzle

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
)

// ErrUnsolvable is returned for a board that cannot reach its goal.
var ErrUnsolvable = errors.New("npuzzle: board is not solvable")

// Solvable reports whether b can reach the goal g. A board can reach its goal
// exactly when the parity of the permutation that takes it to the goal
// (counting the blank as a tile) equals the parity of the blank's taxicab
// distance to its goal cell: every move is one transposition and moves the
// blank by one cell. This covers odd and even widths and any m x n shape in
// O(n) time.
func Solvable(b *Board, g Goal) bool {
	n := len(b.cells)
	// perm[c] is the goal cell of the tile now at cell c; its parity is
	// n minus the number of cycles.
	visited := make([]bool, n)
	cycles := 0
	for c := range n {
		if visited[c] {
			continue
		}
		cycles++
		for x := c; !visited[x]; x = g.goalCell(int(b.cells[x]), n) {
			visited[x] = true
		}
	}
	permParity := (n - cycles) & 1
	gb := g.goalCell(0, n)
	dist := abs(b.blank/b.cols-gb/b.cols) + abs(b.blank%b.cols-gb%b.cols)
	return permParity == dist&1
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// WalkLength is the source game's shuffle length for a board: ten random
// moves per cell.
func WalkLength(s Size) int { return s.Rows * s.Cols * 10 }

// RandomWalk returns the goal board shuffled by steps random legal moves,
// the source game's shuffle. Each step picks uniformly among the legal moves
// other than the one undoing the previous step, so the walk does not waste
// steps on immediate reversals. The board is always solvable. Time O(steps);
// RandomWalkContext is the same walk bounded by a context.
func RandomWalk(s Size, g Goal, steps int, rng *rand.Rand) *Board {
	b, _ := RandomWalkContext(context.Background(), s, g, steps, rng)
	return b
}

// RandomWalkContext is RandomWalk that checks ctx every 65,536 steps: once
// ctx has ended it returns nil and an error wrapping ctx.Err(). With the
// same rng it walks the same board as RandomWalk.
func RandomWalkContext(ctx context.Context, s Size, g Goal, steps int, rng *rand.Rand) (*Board, error) {
	b := Solved(s, g)
	var last Move
	var buf [4]Move
	for i := range steps {
		if i&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("npuzzle: random walk stopped after %d of %d steps: %w", i, steps, err)
			}
		}
		moves := buf[:0]
		for _, m := range korfOrder {
			if target(b.rows, b.cols, b.blank, m) >= 0 && (i == 0 || m != last.Inverse()) {
				moves = append(moves, m)
			}
		}
		last = moves[rng.IntN(len(moves))]
		_ = b.Apply(last)
	}
	return b, nil
}

// Random returns a board drawn uniformly from the solvable boards of size s:
// a uniform permutation, with two tiles swapped if it is not solvable (the
// swap is a bijection between the two parity classes).
func Random(s Size, g Goal, rng *rand.Rand) *Board {
	b := Solved(s, g)
	rng.Shuffle(len(b.cells), func(i, j int) { b.cells[i], b.cells[j] = b.cells[j], b.cells[i] })
	for c, t := range b.cells {
		if t == 0 {
			b.blank = c
		}
	}
	if !Solvable(b, g) {
		// Swap the first two cells that hold tiles (not the blank).
		i, j := 0, 1
		if b.blank == i {
			i = 2
		} else if b.blank == j {
			j = 2
		}
		b.cells[i], b.cells[j] = b.cells[j], b.cells[i]
	}
	return b
}

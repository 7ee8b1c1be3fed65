package search_test

import (
	"context"
	"fmt"
	"iter"
	"math"

	"tessera/search"
)

// numbers is the integers with the moves "+1" and "*2".
type numbers struct{ target int }

func (numbers) Key(n int) int       { return n }
func (p numbers) IsGoal(n int) bool { return n == p.target }
func (p numbers) Successors(n int) iter.Seq2[string, int] {
	return func(yield func(string, int) bool) {
		_ = yield("+1", n+1) && yield("*2", 2*n)
	}
}

func ExampleBFS() {
	res, err := search.BFS(context.Background(), numbers{target: 10}, 1, search.Options{})
	fmt.Println(res.Moves, err)
	// Output: [+1 *2 +1 *2] <nil>
}

func ExampleIDAStar() {
	// A heuristic must never overestimate: from n, at least one move is
	// needed unless n is the target.
	target := 100
	h := func(n int) int {
		if n == target {
			return 0
		}
		return 1
	}
	res, err := search.IDAStar(context.Background(), numbers{target: target}, 1, h, search.Options{MaxExpanded: 1e6})
	fmt.Println(len(res.Moves), res.Moves, err)
	// Output: 8 [+1 +1 *2 *2 *2 +1 *2 *2] <nil>
}

func ExampleBeam() {
	// Keep the numbers nearest the target at every depth: a narrow beam
	// finds a path quickly, not the shortest (8 moves, as IDA* shows).
	target := 100
	near := func(n int) float64 { return math.Abs(float64(target - n)) }
	for _, width := range []int{2, 50} {
		res, err := search.Beam(context.Background(), numbers{target: target}, 1, near, search.BeamOptions{Width: width, Distinct: true})
		fmt.Println(width, len(res.Moves), res.Moves, err)
	}
	// Output:
	// 2 11 [+1 +1 *2 *2 *2 *2 *2 +1 +1 +1 +1] <nil>
	// 50 8 [+1 +1 *2 *2 *2 +1 *2 *2] <nil>
}

package mcts_test

import (
	"context"
	"fmt"

	"tessera/mcts"
)

// counter is a three-step game: each move m (1 or 2) turns n into n*m+m.
// The best sequence is 2, 2, 2: n goes 2, 6, 14.
type counter struct{ n, steps int }

func (c *counter) Moves(dst []int) []int {
	if c.steps == 3 {
		return dst
	}
	return append(dst, 1, 2)
}
func (c *counter) Play(m int)            { c.n, c.steps = c.n*m+m, c.steps+1 }
func (c *counter) Score() float64        { return float64(c.n) }
func (c *counter) Clone() *counter       { d := *c; return &d }
func (c *counter) CopyFrom(src *counter) { *c = *src }
func (c *counter) Code(m int) uint64     { return uint64(c.steps*2 + m) }

func Example() {
	ctx := context.Background()
	res, err := mcts.NRPA(ctx, &counter{}, mcts.NRPAOptions{Level: 2, Iterations: 10})
	if err != nil {
		panic(err)
	}
	fmt.Println("nrpa", res.Moves, res.Score)
	tree, _ := mcts.Search(ctx, &counter{}, mcts.TreeOptions[*counter, int]{Selection: mcts.UCT, MaxIterations: 50})
	fmt.Println("uct ", tree.Moves, tree.Score)
	// Output:
	// nrpa [2 2 2] 14
	// uct  [2 2 2] 14
}

// ExampleTree plays the counter game move by move: think, show the
// root's children, play the best and keep its subtree.
func ExampleTree() {
	ctx := context.Background()
	t := mcts.NewTree(&counter{}, mcts.TreeOptions[*counter, int]{Selection: mcts.UCT, Budget: mcts.Budget{Seed: 1}})
	for len(t.State().Moves(nil)) > 0 {
		if err := t.Think(ctx, 30); err != nil {
			panic(err)
		}
		kids := t.Children()
		b := t.Best()
		fmt.Printf("play %d (visits %d of %d)\n", kids[b].Move, kids[b].Visits, kids[0].Visits+kids[1].Visits)
		if err := t.Advance(b); err != nil {
			panic(err)
		}
	}
	fmt.Println(t.Played(), t.State().Score())
	// Output:
	// play 2 (visits 28 of 30)
	// play 2 (visits 55 of 58)
	// play 2 (visits 81 of 85)
	// [2 2 2] 14
}

package edgematch_test

import (
	"context"
	"fmt"
	"strings"

	"tessera/edgematch"
	"tessera/edgematch/exact"
	"tessera/edgematch/relax"
)

func Example() {
	// A 2x2 puzzle: four corner pieces around a cross of colours 1 and 2.
	p, err := edgematch.ParsePuzzle(strings.NewReader(`
2 2
0 1 2 0
0 0 2 1
2 1 0 0
2 0 0 1
`))
	if err != nil {
		panic(err)
	}
	res, err := exact.DFS{Workers: 1}.Solve(context.Background(), p)
	if err != nil {
		panic(err)
	}
	fmt.Print(res.Board)
	fmt.Println(res.Score, res.Score.Solved())
	// Output:
	// 2 2
	// 1/0 2/0
	// 3/0 4/0
	// 4/4 true
}

func ExampleGenerate() {
	p, solution, _ := edgematch.Generate(edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: 4, Cols: 5, Colours: 3, Seed: 7})
	fmt.Println(p.Rows, p.Cols, len(p.Tiles), p.Score(solution))
	// Output:
	// 4 5 20 31/31
}

func ExampleSolver() {
	p, _, _ := edgematch.Generate(edgematch.GenerateOptions{Kind: edgematch.Kovalsky, Rows: 4, Cols: 4, Colours: 9, Seed: 2})
	for _, s := range []edgematch.Solver{
		exact.DFS{Workers: 1},
		exact.DFS{Workers: 1, Count: true},
		relax.LP{Search: exact.DFS{Workers: 1}},
	} {
		res, err := s.Solve(context.Background(), p)
		fmt.Printf("%T: %v, %d solutions, err %v", s, res.Score, res.Stats.Solutions, err)
		if res.LP != nil {
			fmt.Printf(", %d LP, method %s", res.LP.Iterations, res.LP.Method)
		}
		fmt.Println()
	}
	// Output:
	// exact.DFS: 24/24, 1 solutions, err <nil>
	// exact.DFS: 24/24, 1 solutions, err <nil>
	// relax.LP: 24/24, 0 solutions, err <nil>, 1 LP, method lp
}

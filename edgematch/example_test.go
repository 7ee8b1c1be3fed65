package edgematch_test

import (
	"context"
	"fmt"
	"strings"

	"tessera/edgematch"
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
	res, err := edgematch.SolveDFS(context.Background(), p, edgematch.DFSOptions{Workers: 1})
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

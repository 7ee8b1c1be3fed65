package tangram_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"tessera/tangram"
)

// Example reads a small translation-only puzzle, solves it exactly,
// checks the answer and writes it.
func Example() {
	// Two small triangles and a unit square make a little flag.
	text := `
name flag
piece left  0 0 1 0 0 1       # small triangle, right angle bottom-left
piece right 0 0 1 0 1 1       # small triangle, right angle bottom-right
piece block 0 0 1 0 1 1 0 1   # unit square
silhouette 0 0 2 0 1 1 1 2 0 1
`
	p, err := tangram.ParsePuzzle(strings.NewReader(text))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := tangram.Exact{}.Solve(context.Background(), p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("solved:", res.Solved, "check:", tangram.Check(p, res.Solution))
	tangram.FormatSolution(os.Stdout, p, res.Solution)
	// Output:
	// solved: true check: <nil>
	// place left 1 0
	// place right 0 1
	// place block 0 0
}

// ExampleSDP solves the square of the seven tans by Algorithm 2, the
// rank-one SDP relaxation, with the pure-Go SDP solver; every iterate's
// poses are kept for drawing.
func ExampleSDP() {
	p, _, err := tangram.Classic("square")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := tangram.SDP{}.Solve(context.Background(), p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("solved:", res.Solved, "check:", tangram.Check(p, res.Solution))
	fmt.Println("SDPs:", res.SDP.Iterations, "iterates kept:", len(res.SDP.Iterates))
	// Output:
	// solved: true check: <nil>
	// SDPs: 2 iterates kept: 2
}

package npuzzle_test

import (
	"context"
	"fmt"

	"tessera/npuzzle"
)

func Example() {
	b, err := npuzzle.Parse("1 2 3/4 0 6/7 5 8", npuzzle.Size{})
	if err != nil {
		panic(err)
	}
	sol, err := npuzzle.IDAStar{}.Solve(context.Background(), b, npuzzle.BlankLast)
	if err != nil {
		panic(err)
	}
	fmt.Println(npuzzle.FormatMoves(sol.Moves), len(sol.Moves), sol.Optimal)
	end, _ := npuzzle.Replay(b, sol.Moves)
	fmt.Println(end)
	// Output:
	// UL 2 true
	// 1 2 3
	// 4 5 6
	// 7 8 0
}

// A pattern database for the 3x3 board, built in memory, and the optimal
// solver with it on one of the two boards 31 moves from the goal.
func ExampleLoadPDB() {
	part, err := npuzzle.ParsePartition("1,2,3,4/5,6,7,8", npuzzle.Size{Rows: 3, Cols: 3}, npuzzle.BlankLast)
	if err != nil {
		panic(err)
	}
	pdb, err := npuzzle.LoadPDB(context.Background(), part, npuzzle.PDBOptions{NoCache: true})
	if err != nil {
		panic(err)
	}
	b, _ := npuzzle.Parse("8 6 7/2 5 4/3 0 1", npuzzle.Size{})
	fmt.Println("Manhattan", npuzzle.Estimate(b, npuzzle.BlankLast, npuzzle.Manhattan), "PDB", pdb.Estimate(b, npuzzle.BlankLast))
	sol, err := npuzzle.IDAStar{Heuristic: npuzzle.PatternDB, PDB: pdb}.Solve(context.Background(), b, npuzzle.BlankLast)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(sol.Moves), sol.Optimal)
	// Output:
	// Manhattan 21 PDB 29
	// 31 true
}

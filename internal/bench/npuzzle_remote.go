package bench

import (
	"context"
	"fmt"
	"sync"

	"tessera/internal/catalog"
	"tessera/npuzzle"
)

// npuzzleItem is one board of the comparison for one method: in-process
// the board and solver, as a job the board's line and the method's index.
type npuzzleItem struct {
	Board  int    `json:"board"`
	Tiles  string `json:"tiles"`
	Size   string `json:"size"`
	Method int    `json:"method"`

	b      *npuzzle.Board
	solver npuzzle.Solver
}

// npuzzleSolvers caches a worker's solvers of NpuzzleMethods.
var npuzzleSolvers sync.Map

func (it npuzzleItem) resolve() (*npuzzle.Board, npuzzle.Solver, error) {
	if it.solver != nil {
		return it.b, it.solver, nil
	}
	if it.Method < 0 || it.Method >= len(NpuzzleMethods) {
		return nil, nil, fmt.Errorf("bench: npuzzle method %d out of range", it.Method)
	}
	size, err := npuzzle.ParseSize(it.Size)
	if err != nil {
		return nil, nil, err
	}
	b, err := npuzzle.Parse(it.Tiles, size)
	if err != nil {
		return nil, nil, err
	}
	if s, ok := npuzzleSolvers.Load(it.Method); ok {
		return b, s.(npuzzle.Solver), nil
	}
	m := NpuzzleMethods[it.Method]
	s, err := catalog.Npuzzle.New(m.ID, m.Opts)
	if err != nil {
		return nil, nil, err
	}
	npuzzleSolvers.Store(it.Method, s)
	return b, s, nil
}

// NpuzzleCompareItem is the comparison's item kind: one board, one method
// ("bench.npuzzle.compare").
var NpuzzleCompareItem = NewItem("bench.npuzzle.compare", func(ctx context.Context, in npuzzleItem) NpuzzleRecord {
	b, solver, err := in.resolve()
	if err != nil {
		return NpuzzleRecord{Board: in.Board, Tiles: in.Tiles, Method: NpuzzleMethods[min(max(in.Method, 0), len(NpuzzleMethods)-1)].Name, Error: err.Error()}
	}
	sol, err := solver.Solve(ctx, b, npuzzle.BlankLast)
	rec := NpuzzleRecord{Board: in.Board, Tiles: b.Line(), Method: NpuzzleMethods[in.Method].Name, Length: len(sol.Moves),
		Optimal: sol.Optimal, Expanded: sol.Stats.Expanded, Generated: sol.Stats.Generated, Seconds: Seconds(sol.Stats.Elapsed)}
	if err != nil {
		rec.Error = err.Error()
	}
	return rec
})

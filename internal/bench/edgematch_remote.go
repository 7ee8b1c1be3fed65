package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"tessera/edgematch"
	"tessera/internal/catalog"
)

// edgeMatchItem is one puzzle: in-process the item and solver, as a job
// the puzzle's text (with its hints), the solver's id and options.
type edgeMatchItem struct {
	Name    string                   `json:"name"`
	Group   string                   `json:"group,omitempty"`
	Puzzle  string                   `json:"puzzle"`
	Algo    string                   `json:"algo"`
	Options catalog.EdgeMatchOptions `json:"options"`
	Timeout time.Duration            `json:"timeout_ns"`

	item   EdgeMatchItem
	solver edgematch.Solver
}

var edgeMatchSolvers sync.Map

// EdgeMatchJob is the edge-matching bench's item kind ("bench.edgematch").
var EdgeMatchJob = NewItem("bench.edgematch", func(ctx context.Context, in edgeMatchItem) EdgeMatchRecord {
	b := &EdgeMatch{Timeout: in.Timeout, Solver: in.solver, Algo: in.Algo}
	it := in.item
	if b.Solver == nil {
		p, err := edgematch.ParsePuzzle(bytes.NewReader([]byte(in.Puzzle)))
		if err != nil {
			return EdgeMatchRecord{Puzzle: in.Name, Group: in.Group, Error: err.Error()}
		}
		it = EdgeMatchItem{Name: in.Name, Group: in.Group, Puzzle: p}
		key, _ := json.Marshal(struct {
			A string
			O catalog.EdgeMatchOptions
		}{in.Algo, in.Options})
		if s, ok := edgeMatchSolvers.Load(string(key)); ok {
			b.Solver = s.(edgematch.Solver)
		} else {
			if in.Options.SATSolver != "" {
				err = errors.New("a job does not choose the worker's SAT solver (sat_solver)")
			} else {
				b.Solver, err = catalog.EdgeMatch.New(in.Algo, catalog.EdgeMatchRun{EdgeMatchOptions: in.Options})
			}
			if err != nil {
				return EdgeMatchRecord{Puzzle: in.Name, Group: in.Group, Error: err.Error(), Max: p.MaxScore()}
			}
			edgeMatchSolvers.Store(string(key), b.Solver)
		}
	}
	return b.solve(ctx, it)
})

func (b *EdgeMatch) item(i int) edgeMatchItem {
	it := edgeMatchItem{Name: b.Items[i].Name, Group: b.Items[i].Group, Algo: b.Algo, Timeout: b.Timeout, item: b.Items[i], solver: b.Solver}
	if b.Remote != nil {
		it.Options = b.Options
		var buf bytes.Buffer
		b.Items[i].Puzzle.WriteTo(&buf)
		it.Puzzle, it.item, it.solver = buf.String(), EdgeMatchItem{}, nil
	}
	return it
}

package bench

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"tessera/internal/catalog"
	"tessera/tangram"
)

// tangramOpts are catalog.TangramOptions as JSON (without OnIterate).
type tangramOpts struct {
	SDPBackend string
	K, MaxIter int
	MaxNodes   int64
	MaxTime    time.Duration
	Seed       uint64
	Plain      bool
}

// tangramItem is one puzzle: in-process the puzzle and solver, as a job
// the puzzle's text, the solver's id and options.
type tangramItem struct {
	Name    string        `json:"name"`
	Puzzle  string        `json:"puzzle"`
	Algo    string        `json:"algo"`
	Options tangramOpts   `json:"options"`
	Timeout time.Duration `json:"timeout_ns"`

	p      *tangram.Puzzle
	solver tangram.Solver
}

var tangramSolvers sync.Map

// TangramJob is the tangram bench's item kind ("bench.tangram").
var TangramJob = NewItem("bench.tangram", func(ctx context.Context, in tangramItem) TangramRecord {
	p, solver := in.p, in.solver
	if solver == nil {
		var err error
		if p, err = tangram.ParsePuzzle(strings.NewReader(in.Puzzle)); err != nil {
			return TangramRecord{Puzzle: in.Name, Algo: in.Algo, Error: err.Error()}
		}
		key, _ := json.Marshal(struct {
			A string
			O tangramOpts
		}{in.Algo, in.Options})
		if s, ok := tangramSolvers.Load(string(key)); ok {
			solver = s.(tangram.Solver)
		} else {
			o := in.Options
			if solver, err = catalog.Tangram.New(in.Algo, catalog.TangramOptions{SDPBackend: o.SDPBackend, K: o.K, MaxIter: o.MaxIter,
				MaxNodes: o.MaxNodes, MaxTime: o.MaxTime, Seed: o.Seed, Plain: o.Plain}); err != nil {
				return TangramRecord{Puzzle: in.Name, Algo: in.Algo, Error: err.Error()}
			}
			tangramSolvers.Store(string(key), solver)
		}
	}
	res, err := solver.Solve(ctx, p)
	return TangramRecordOf(in.Name, in.Algo, res, err, in.Timeout)
})

func (b *Tangram) item(i int) tangramItem {
	it := tangramItem{Name: b.Items[i].Name, Algo: b.Algo, Timeout: b.Timeout, p: b.Items[i].Puzzle, solver: b.Solver}
	if b.Remote != nil {
		o := b.Options
		it.Options = tangramOpts{SDPBackend: o.SDPBackend, K: o.K, MaxIter: o.MaxIter, MaxNodes: o.MaxNodes, MaxTime: o.MaxTime,
			Seed: o.Seed, Plain: o.Plain}
		it.Puzzle, it.p, it.solver = b.Items[i].Puzzle.String(), nil, nil
	}
	return it
}

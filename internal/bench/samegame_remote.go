package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"tessera/internal/catalog"
	"tessera/samegame"
)

// sameGameOpts are catalog.SameGameOptions as JSON (without Progress).
type sameGameOpts struct {
	Order             samegame.Ordering
	TableBits, Width  int
	Level, Iterations int
	Nodes             int64
	Seed              uint64
	NoTabu, Restart   bool
	Model             string
	Views             int
}

func (o sameGameOpts) catalog() catalog.SameGameOptions {
	return catalog.SameGameOptions{Order: o.Order, TableBits: o.TableBits, Width: o.Width, Level: o.Level, Iterations: o.Iterations,
		Nodes: o.Nodes, Seed: o.Seed, NoTabu: o.NoTabu, Restart: o.Restart, Model: o.Model, Views: o.Views}
}

func sameGameOptsOf(o catalog.SameGameOptions) sameGameOpts {
	return sameGameOpts{Order: o.Order, TableBits: o.TableBits, Width: o.Width, Level: o.Level, Iterations: o.Iterations,
		Nodes: o.Nodes, Seed: o.Seed, NoTabu: o.NoTabu, Restart: o.Restart, Model: o.Model, Views: o.Views}
}

// sameGameItem is one board for one solver: in-process it carries the
// entry and solver; as a job, their text.
type sameGameItem struct {
	Algo     string       `json:"algo"`
	Options  sameGameOpts `json:"options"`
	Rules    string       `json:"rules"`
	Name     string       `json:"name"`
	Board    string       `json:"board"`
	Notation int          `json:"notation"`
	Optimal  int          `json:"optimal,omitempty"`
	Number   int          `json:"number"`

	entry  samegame.Entry
	solver samegame.Solver
}

func sameGameItemOf(algo string, o catalog.SameGameOptions, s samegame.Solver, e samegame.Entry, number int) sameGameItem {
	it := sameGameItem{Algo: algo, Number: number, entry: e, solver: s}
	// The text is only needed to send the item; making it is cheap next
	// to a solve but is skipped when it stays here.
	it.Options = sameGameOptsOf(o)
	return it
}

// wire fills the item's text for a job.
func (it sameGameItem) wire() sameGameItem {
	it.Rules = it.entry.Board.Rules().String()
	it.Name, it.Notation, it.Optimal = it.entry.Name, int(it.entry.Notation), it.entry.Optimal
	it.Board = samegame.Format(it.entry.Board, it.entry.Notation)
	return it
}

// sameGameSolvers caches a worker's solvers by algorithm and options.
var sameGameSolvers sync.Map

func (it sameGameItem) resolve() (samegame.Solver, samegame.Entry, error) {
	if it.solver != nil {
		return it.solver, it.entry, nil
	}
	rules, err := samegame.ParseRules(it.Rules)
	if err != nil {
		return nil, samegame.Entry{}, err
	}
	b, err := samegame.ParseBoard(it.Board, rules)
	if err != nil {
		return nil, samegame.Entry{}, err
	}
	e := samegame.Entry{Name: it.Name, Board: b, Notation: samegame.Notation(it.Notation), Optimal: it.Optimal}
	key, _ := json.Marshal(struct {
		A string
		O sameGameOpts
	}{it.Algo, it.Options})
	if s, ok := sameGameSolvers.Load(string(key)); ok {
		return s.(samegame.Solver), e, nil
	}
	s, err := catalog.SameGame.New(it.Algo, it.Options.catalog())
	if err != nil {
		return nil, e, err
	}
	sameGameSolvers.Store(string(key), s)
	return s, e, nil
}

// sameGameWire is a record as a job's result, with what the record keeps
// of the solution.
type sameGameWire struct {
	Record  SameGameRecord `json:"record"`
	Optimal bool           `json:"optimal"`
}

// SameGameItem is the bench's item kind: one board solved by one
// algorithm ("bench.samegame").
var SameGameItem = func() *Item[sameGameItem, SameGameRecord] {
	it := NewItem("bench.samegame", func(ctx context.Context, in sameGameItem) SameGameRecord {
		s, e, err := in.resolve()
		if err != nil {
			return SameGameRecord{Board: in.Number, Name: in.Name, Error: fmt.Sprintf("bench: %v", err)}
		}
		return sameGameSolve(ctx, s, in.Algo, e, in.Number)
	})
	it.Encode = func(r SameGameRecord) any { return sameGameWire{Record: r, Optimal: r.sol.Optimal} }
	it.Decode = func(b []byte) (SameGameRecord, error) {
		var w sameGameWire
		if err := json.Unmarshal(b, &w); err != nil {
			return SameGameRecord{}, err
		}
		r := w.Record
		moves, err := samegame.ParseMoves(r.Moves)
		if err != nil {
			return r, err
		}
		r.sol = samegame.Solution{Moves: moves, Optimal: w.Optimal, Score: r.Score, Clicks: r.Clicks, Cleared: r.Cleared,
			Nodes: r.Nodes, Playouts: r.Playouts}
		return r, nil
	}
	return it
}()

// item is the a-th algorithm on the i-th listed board.
func (s *SameGame) item(solvers []samegame.Solver, a, i int) sameGameItem {
	o := s.Options
	o.Restart = s.Timeout > 0
	it := sameGameItemOf(s.Algos[a], o, solvers[a], s.Entries[s.List[i]-1], s.List[i])
	if s.Remote != nil {
		it = it.wire()
	}
	return it
}

package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

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
	s, err := catalog.Npuzzle.New(m.ID, catalog.NpuzzleRun{NpuzzleOptions: m.Opts})
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

// npuzzleSetItem is one instance of a bench with one solver.
type npuzzleSetItem struct {
	Number    int                    `json:"number"`
	Tiles     string                 `json:"tiles"`
	Size      string                 `json:"size"`
	Published int                    `json:"published"`
	Goal      string                 `json:"goal"`
	Algo      string                 `json:"algo"`
	Options   catalog.NpuzzleOptions `json:"options"`
	Process   bool                   `json:"process_cpu"`
	Timeout   time.Duration          `json:"timeout_ns"`

	s *NpuzzleSet
	i int
}

type npuzzleSetWire struct {
	Rec NpuzzleSetRecord `json:"rec"`
	Err string           `json:"err,omitempty"`
}

type npuzzleSetup struct {
	solver npuzzle.Solver
	err    error
	once   sync.Once
}

var npuzzleSetups sync.Map

// NpuzzleSetJob is the item kind of an npuzzle bench with one solver
// ("bench.npuzzle.set").
var NpuzzleSetJob = func() *Item[npuzzleSetItem, setResult] {
	it := NewItem("bench.npuzzle.set", func(ctx context.Context, in npuzzleSetItem) setResult {
		if in.s != nil {
			return npuzzleSetSolve(ctx, in.s.Solver, in.s.Instances[in.i], in.s.Goal, in.s.Workers > 1, in.s.Timeout)
		}
		fail := func(err error) setResult {
			return setResult{rec: NpuzzleSetRecord{Instance: in.Number, Published: in.Published, Error: err.Error()}, err: err}
		}
		size, err := npuzzle.ParseSize(in.Size)
		if err != nil {
			return fail(err)
		}
		b, err := npuzzle.Parse(in.Tiles, size)
		if err != nil {
			return fail(err)
		}
		goal, err := npuzzle.ParseGoal(in.Goal)
		if err != nil {
			return fail(err)
		}
		key, _ := json.Marshal(struct {
			A string
			G string
			O catalog.NpuzzleOptions
		}{in.Algo, in.Size + " " + in.Goal, in.Options})
		v, _ := npuzzleSetups.LoadOrStore(string(key), &npuzzleSetup{})
		setup := v.(*npuzzleSetup)
		setup.once.Do(func() {
			run := catalog.NpuzzleRun{NpuzzleOptions: in.Options}
			if setup.err = in.Options.Check(); setup.err != nil {
				return
			}
			if in.Options.Heuristic == "pdb" && (in.Algo != "fast" || in.Options.Partition != "" || size.Rows >= 4 && size.Cols >= 4) {
				// A database built here on a first use is not under the
				// item's budget: a setup, as the local run's.
				var part npuzzle.Partition
				if part, setup.err = npuzzle.PartitionFor(in.Options.Partition, size, goal); setup.err != nil {
					return
				}
				run.Hooks.PDB, setup.err = npuzzle.LoadPDB(context.WithoutCancel(ctx), part,
					npuzzle.PDBOptions{MaxBytes: in.Options.MaxMem.Bytes()})
				if setup.err != nil {
					return
				}
			}
			setup.solver, setup.err = catalog.Npuzzle.New(in.Algo, run)
		})
		if setup.err != nil {
			return fail(setup.err)
		}
		return npuzzleSetSolve(ctx, setup.solver, npuzzle.Instance{Number: in.Number, Board: b, Published: in.Published}, goal, in.Process, in.Timeout)
	})
	it.Encode = func(r setResult) any {
		w := npuzzleSetWire{Rec: r.rec}
		if r.err != nil {
			w.Err = r.err.Error()
		}
		return w
	}
	it.Decode = func(b []byte) (setResult, error) {
		var w npuzzleSetWire
		if err := json.Unmarshal(b, &w); err != nil {
			return setResult{}, err
		}
		r := setResult{rec: w.Rec}
		if w.Err != "" {
			r.err = errors.New(w.Err)
		}
		return r, nil
	}
	return it
}()

func (s *NpuzzleSet) item(i int) npuzzleSetItem {
	if s.Remote == nil {
		return npuzzleSetItem{s: s, i: i}
	}
	inst := s.Instances[i]
	return npuzzleSetItem{Number: inst.Number, Tiles: inst.Board.Line(), Size: inst.Board.Size().String(), Published: inst.Published,
		Goal: s.Goal.String(), Algo: s.Algo, Options: s.Options, Process: s.Workers > 1, Timeout: s.Timeout}
}

package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"tessera/npuzzle"
)

// NpuzzleKind is the job kind of a sliding-tile solve.
const NpuzzleKind = "npuzzle.solve"

// NpuzzleJob is one sliding-tile solve as it travels: the spec and the
// board itself, with what the record repeats of it. It is the input of the
// job kind "npuzzle.solve". A pdb heuristic's database travels as its
// partition's name (Options.Partition): the worker loads it from its own
// cache, never from a folder the job names.
type NpuzzleJob struct {
	Spec[NpuzzleOptions]
	// Board is the board's tiles (npuzzle.Parse, Board.Line), at most
	// MaxNpuzzleBoard bytes; Size its size where one line does not tell
	// ("" for square boards); Goal blank-last ("", the default) or
	// blank-first.
	Board string `json:"board"`
	Size  string `json:"size,omitempty"`
	Goal  string `json:"goal,omitempty"`
	// Number and Published are copied into the record: the board's 1-based
	// number in its set (0: none) and its published optimal length (0 or
	// -1: none).
	Number    int `json:"number,omitempty"`
	Published int `json:"published,omitempty"`
}

// MaxNpuzzleBoard bounds a job's board text (a 10 x 10 board fits).
const MaxNpuzzleBoard = 4 << 10

// NpuzzleRecord is the one result of a sliding-tile solve: what `npuzzle
// solve -json` prints, each line of `npuzzle bench -json` with one solver
// (the comparison's lines add the method) and what an "npuzzle.solve" job
// returns.
type NpuzzleRecord struct {
	// Instance is the board's 1-based number in its set (0: not from one).
	Instance int    `json:"instance,omitempty"`
	Board    string `json:"board"`
	Size     string `json:"size"`
	Goal     string `json:"goal"`
	Solver   string `json:"solver"`
	// Heuristic, Partition and Weight are those the solver used (the
	// pattern database's partition with the pdb heuristic).
	Heuristic string  `json:"heuristic,omitempty"`
	Partition string  `json:"partition,omitempty"`
	Weight    float64 `json:"weight,omitempty"`
	Moves     string  `json:"moves"`
	Length    int     `json:"length"`
	Solved    bool    `json:"solved"`
	Optimal   bool    `json:"optimal"`
	// Published is the set's optimal length (-1: none); Matched says the
	// solution has that length.
	Published  int   `json:"published,omitempty"`
	Matched    bool  `json:"matched,omitempty"`
	Expanded   int64 `json:"expanded"`
	Generated  int64 `json:"generated"`
	PeakStored int64 `json:"peak_stored"`
	// Seconds is the search's time; CPUSeconds its CPU time (Linux only:
	// of the solving thread, or of the process with Workers above 1);
	// SetupSeconds the time to load or build the pattern database, where
	// the front end counts it.
	Seconds      float64 `json:"seconds"`
	CPUSeconds   float64 `json:"cpu_seconds,omitempty"`
	SetupSeconds float64 `json:"setup_seconds,omitempty"`
	// Stopped names the budget that ended the search ("time"), when one
	// did; Error says why the solve failed (empty: it succeeded).
	Stopped string `json:"stopped,omitempty"`
	Error   string `json:"error,omitempty"`
}

// Parse reads the job's board and goal.
func (j NpuzzleJob) Parse() (*npuzzle.Board, npuzzle.Goal, error) {
	if len(j.Board) > MaxNpuzzleBoard {
		return nil, 0, fmt.Errorf("npuzzle job: board longer than %d KiB", MaxNpuzzleBoard>>10)
	}
	var size npuzzle.Size
	if j.Size != "" {
		var err error
		if size, err = npuzzle.ParseSize(j.Size); err != nil {
			return nil, 0, err
		}
	}
	goal := npuzzle.BlankLast
	if j.Goal != "" {
		var err error
		if goal, err = npuzzle.ParseGoal(j.Goal); err != nil {
			return nil, 0, err
		}
	}
	b, err := npuzzle.Parse(j.Board, size)
	return b, goal, err
}

// NpuzzleNeedsPDB reports whether solver id with opts on boards of size s
// uses a pattern database: with the pdb heuristic, but for fast only with
// a partition or on boards of 4x4 and more.
func NpuzzleNeedsPDB(id string, opts NpuzzleOptions, s npuzzle.Size) bool {
	return opts.Heuristic == "pdb" && (id != "fast" || opts.Partition != "" || s.Rows >= 4 && s.Cols >= 4)
}

// Record returns the record of the job before its solve: the board, its
// numbers and the solver.
func (j NpuzzleJob) Record() NpuzzleRecord {
	return NpuzzleRecord{Instance: j.Number, Board: j.Board, Size: j.Size, Goal: j.Goal, Solver: j.Solver, Published: j.Published}
}

// Run solves the job's board on this machine under its budget, with h's
// hooks (h.PDB: the database of the options' partition, loaded by the
// caller), and records the result; a failure is the record's Error.
func (j NpuzzleJob) Run(ctx context.Context, h NpuzzleHooks) NpuzzleRecord {
	rec := j.Record()
	b, goal, err := j.Parse()
	var s npuzzle.Solver
	if err == nil {
		rec.Board, rec.Size, rec.Goal = b.Line(), b.Size().String(), goal.String()
		s, err = j.solver(h)
	}
	if err != nil {
		rec.Error = err.Error()
		return rec
	}
	var sol npuzzle.Solution
	cpu, _ := OnCPU(j.Options.Workers > 1, func() {
		WithBudget(ctx, j.Budget.Timeout, j.Budget.CPU, func(ctx context.Context) { sol, err = s.Solve(ctx, b, goal) })
	})
	rec.CPUSeconds = cpu.Seconds()
	rec.Fill(s, h.PDB, sol, err)
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		rec.Stopped = "time"
	}
	return rec
}

// solver checks the job's options and builds its solver.
func (j NpuzzleJob) solver(h NpuzzleHooks) (npuzzle.Solver, error) {
	if _, err := Npuzzle.Lookup(j.Solver); err != nil {
		return nil, err
	}
	if err := j.Options.Check(); err != nil {
		return nil, err
	}
	if err := Npuzzle.Applies(Options(j.Options), Given(j.Options), j.Solver); err != nil {
		return nil, err
	}
	return Npuzzle.New(j.Solver, NpuzzleRun{NpuzzleOptions: j.Options, Hooks: h})
}

// Fill records the solution sol (and the error err) of solver s, which
// ran with the pattern database pdb (nil: none).
func (r *NpuzzleRecord) Fill(s npuzzle.Solver, pdb *npuzzle.PDB, sol npuzzle.Solution, err error) {
	r.Moves, r.Length, r.Solved, r.Optimal = npuzzle.FormatMoves(sol.Moves), len(sol.Moves), err == nil, sol.Optimal
	r.Expanded, r.Generated, r.PeakStored, r.Seconds = sol.Stats.Expanded, sol.Stats.Generated, sol.Stats.PeakStored, sol.Stats.Elapsed.Seconds()
	switch s := s.(type) {
	case npuzzle.AStar:
		r.Heuristic, r.Weight = s.Heuristic.String(), s.Weight
	case npuzzle.IDAStar:
		r.Heuristic = s.Heuristic.String()
	}
	if pdb != nil {
		r.Heuristic, r.Partition = npuzzle.PatternDB.String(), pdb.Partition().Name
	}
	r.Matched = err == nil && r.Published > 0 && r.Length == r.Published
	if err != nil {
		r.Error = err.Error()
	}
}

// npuzzlePDBs are the pattern databases a worker loaded, by partition,
// size and goal: loaded once, from this machine's cache.
var npuzzlePDBs sync.Map

type npuzzlePDB struct {
	once sync.Once
	pdb  *npuzzle.PDB
	err  error
}

// LoadNpuzzlePDB returns the pattern database that job j needs (nil:
// none), loading it once per process from the user's cache folder (built
// there on a first use, bounded by the options' MaxMem, not by ctx's end:
// a setup, as a local run's).
func LoadNpuzzlePDB(ctx context.Context, j NpuzzleJob) (*npuzzle.PDB, error) {
	b, goal, err := j.Parse()
	if err != nil || !NpuzzleNeedsPDB(j.Solver, j.Options, b.Size()) {
		return nil, err
	}
	part, err := npuzzle.PartitionFor(j.Options.Partition, b.Size(), goal)
	if err != nil {
		return nil, err
	}
	key := fmt.Sprintf("%s %v %v %d", part.Name, part.Size, goal, j.Options.MaxMem)
	v, _ := npuzzlePDBs.LoadOrStore(key, &npuzzlePDB{})
	p := v.(*npuzzlePDB)
	p.once.Do(func() {
		p.pdb, p.err = npuzzle.LoadPDB(context.WithoutCancel(ctx), part, npuzzle.PDBOptions{MaxBytes: j.Options.MaxMem.Bytes()})
	})
	return p.pdb, p.err
}

// runNpuzzleJob is the job kind "npuzzle.solve": an NpuzzleJob in, an
// NpuzzleRecord out.
func runNpuzzleJob(ctx context.Context, spec json.RawMessage, _ func(any)) (any, error) {
	j, err := decodeSpec[NpuzzleJob]("npuzzle.solve", spec)
	if err != nil {
		return nil, err
	}
	var rec NpuzzleRecord
	pdb, err := LoadNpuzzlePDB(ctx, j)
	if err != nil {
		rec = j.Record()
		rec.Error = err.Error()
	} else {
		rec = j.Run(ctx, NpuzzleHooks{PDB: pdb})
	}
	if err := ctx.Err(); err != nil {
		return rec, err
	}
	return rec, nil
}

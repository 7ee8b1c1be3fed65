package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"tessera/npuzzle"
	"tessera/search"
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
	// Blank, when set, is the blank's home cell of a goal with the gap
	// anywhere (the web's game; Goal is then empty): the tiles are numbered
	// in reading order around it (see NpuzzleGoalMap). The job solves the
	// board mapped to blank-last and records the moves on the board as
	// given, the walk home included.
	Blank *int `json:"blank,omitempty"`
	// BuildMiB, when above 0, bounds the memory of a pattern database
	// table the job may build on its worker: a database whose missing
	// tables take more to build is refused with a message naming the
	// command that builds it, rather than built for minutes (7-8 and
	// 6-6-6-6 take 0.5 to 1 GiB a table; 6-6-3 5 MiB). 0: MaxMem's bound
	// alone.
	BuildMiB int64 `json:"build_mib,omitempty"`
	// Note is copied into the record: the front end's word for people on
	// its choices (the database it named).
	Note string `json:"note,omitempty"`
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
	// Note is for people: the job's note, a walk home added to the
	// solver's answer, a database the fast solver went without.
	Note string `json:"note,omitempty"`
}

// Parse reads the job's board and the goal its solver solves: the job's
// Goal, or blank-last with a Blank (the board is then mapped to it, see
// NpuzzleGoalMap).
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
	if err != nil || j.Blank == nil {
		return b, goal, err
	}
	switch n := b.Rows() * b.Cols(); {
	case j.Goal != "":
		return nil, 0, errors.New("npuzzle job: give goal or blank, not both")
	case *j.Blank < 0 || *j.Blank >= n:
		return nil, 0, fmt.Errorf("npuzzle job: blank %d is not a cell of a %v board (0..%d)", *j.Blank, b.Size(), n-1)
	}
	return b, npuzzle.BlankLast, nil
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
	return NpuzzleRecord{Instance: j.Number, Board: j.Board, Size: j.Size, Goal: j.Goal, Solver: j.Solver, Published: j.Published, Note: j.Note}
}

// Run solves the job's board on this machine under its budget, with h's
// hooks (h.PDB: the database of the options' partition, loaded by the
// caller), and records the result; a failure is the record's Error. With a
// Blank the solver solves the board mapped to blank-last, and the record
// holds the board as given, its goal and the moves mapped back, followed
// by the walk home (then not proven shortest).
func (j NpuzzleJob) Run(ctx context.Context, h NpuzzleHooks) NpuzzleRecord {
	rec := j.Record()
	b, goal, err := j.Parse()
	var s npuzzle.Solver
	var gm *NpuzzleGoalMap
	if err == nil {
		rec.Board, rec.Size, rec.Goal = b.Line(), b.Size().String(), goal.String()
		if j.Blank != nil {
			gm = NewNpuzzleGoalMap(b.Size(), *j.Blank)
			rec.Goal = NpuzzleGoalName(b.Size(), *j.Blank)
			b = gm.ToSolver(b)
		}
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
	if gm != nil {
		moves := gm.FromSolver(sol.Moves, err == nil)
		rec.Moves, rec.Length, rec.Optimal = npuzzle.FormatMoves(moves), len(moves), sol.Optimal && gm.Walk() == 0
		if err == nil && gm.Walk() > 0 {
			rec.addNote(fmt.Sprintf("the gap's home is not in a corner, so the solver's answer ends with %d moves that walk the gap home; the whole is not proven shortest", gm.Walk()))
		}
	}
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		rec.Stopped = "time"
	}
	return rec
}

// addNote adds a note for people to the record's.
func (r *NpuzzleRecord) addNote(note string) {
	if r.Note != "" {
		note = r.Note + "; " + note
	}
	r.Note = note
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

// NpuzzlePDBLoader loads the pattern database of partition part for job j
// (a worker's cache, or a server's loaded databases), calling build with
// the progress of a build.
type NpuzzlePDBLoader func(ctx context.Context, j NpuzzleJob, part npuzzle.Partition, build func(npuzzle.BuildProgress)) (*npuzzle.PDB, error)

// ErrNpuzzleBigBuild is the error of a database whose build the job's
// BuildMiB does not allow.
var ErrNpuzzleBigBuild = errors.New("not in this machine's cache, and the job does not build it")

// NpuzzlePartition returns the partition of the pattern database job j
// needs, and whether it needs one.
func NpuzzlePartition(j NpuzzleJob) (npuzzle.Partition, bool, error) {
	b, goal, err := j.Parse()
	if err != nil || !NpuzzleNeedsPDB(j.Solver, j.Options, b.Size()) {
		return npuzzle.Partition{}, false, err
	}
	part, err := npuzzle.PartitionFor(j.Options.Partition, b.Size(), goal)
	return part, err == nil, err
}

// LoadNpuzzlePDB returns the pattern database that job j needs (nil:
// none), loading it once per process from the user's cache folder (built
// there on a first use, bounded by the options' MaxMem and the job's
// BuildMiB, not by ctx's end: a setup, as a local run's).
func LoadNpuzzlePDB(ctx context.Context, j NpuzzleJob) (*npuzzle.PDB, error) {
	part, ok, err := NpuzzlePartition(j)
	if !ok {
		return nil, err
	}
	return loadCachedNpuzzlePDB(ctx, j, part, nil)
}

// loadCachedNpuzzlePDB is the worker's NpuzzlePDBLoader: the user's cache
// folder, one load per process (build, when set, sees the progress of the
// build it starts).
func loadCachedNpuzzlePDB(ctx context.Context, j NpuzzleJob, part npuzzle.Partition, build func(npuzzle.BuildProgress)) (*npuzzle.PDB, error) {
	if err := checkNpuzzleBuild(j, part); err != nil {
		return nil, err
	}
	_, goal, _ := j.Parse()
	key := fmt.Sprintf("%s %v %v %d %v", part.Name, part.Size, goal, j.Options.MaxMem, j.Options.Sparse)
	v, _ := npuzzlePDBs.LoadOrStore(key, &npuzzlePDB{})
	p := v.(*npuzzlePDB)
	p.once.Do(func() {
		p.pdb, p.err = npuzzle.LoadPDB(context.WithoutCancel(ctx), part, npuzzle.PDBOptions{MaxBytes: j.Options.MaxMem.Bytes(), Sparse: j.Options.Sparse, Progress: build})
	})
	return p.pdb, p.err
}

// checkNpuzzleBuild refuses a database whose missing tables (in the user's
// cache folder) take more than the job's BuildMiB to build.
func checkNpuzzleBuild(j NpuzzleJob, part npuzzle.Partition) error {
	if j.BuildMiB <= 0 {
		return nil
	}
	files, err := part.TableFiles("")
	if err != nil {
		return nil // LoadPDB says why
	}
	for _, f := range files {
		if need := part.BuildBytes(len(f.Tiles)); !f.Present && need > j.BuildMiB<<20 {
			return fmt.Errorf("pattern database %s: %w (its build takes %d MiB a table, this job allows %d MiB); build it there once with `tessera npuzzle pdb build -size %v -partition %s`",
				part.Name, ErrNpuzzleBigBuild, need>>20, j.BuildMiB, part.Size, part.Name)
		}
	}
	return nil
}

// NpuzzleProgress is the progress of an npuzzle.solve job: the database's
// load or build, then the search.
type NpuzzleProgress struct {
	Phase     string  `json:"phase"` // "database" or "search"
	Message   string  `json:"message"`
	Expanded  int64   `json:"expanded,omitempty"`
	Generated int64   `json:"generated,omitempty"`
	MS        float64 `json:"ms"`
	Layer     float64 `json:"layer,omitempty"` // of the database table being built, 0..1
	// The database's build: table (1-based) of tables, the breadth-first
	// level being expanded and the abstract states reached so far.
	Table  int   `json:"table,omitempty"`
	Tables int   `json:"tables,omitempty"`
	Depth  int   `json:"depth,omitempty"`
	States int64 `json:"states,omitempty"`
}

// NpuzzleBuildProgress describes the build of partition part's database
// for people: the table being built among those the database builds (the
// others are their rotations or reflections).
func NpuzzleBuildProgress(part npuzzle.Partition, bp npuzzle.BuildProgress, elapsed time.Duration) NpuzzleProgress {
	own := part.TablePatterns()
	table, tables := 1+slices.IndexFunc(own, func(t []int) bool { return slices.Equal(t, bp.Tiles) }), len(own)
	if table == 0 {
		table, tables = bp.Table+1, bp.Tables
	}
	return NpuzzleProgress{Phase: "database", Layer: bp.Layer, MS: float64(elapsed.Microseconds()) / 1000,
		Table: table, Tables: tables, Depth: bp.Depth, States: bp.States,
		Message: fmt.Sprintf("Building the pattern database %s: table %d of %d (%d tiles), breadth-first level %d (%.0f%% through it), %s states reached",
			part.Name, table, tables, len(bp.Tiles), bp.Depth, 100*bp.Layer, GroupDigits(bp.States))}
}

// GroupDigits writes n with thousands separators: 1,234,567.
func GroupDigits(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// NpuzzleGuide says for people what guides solver id's search with opts
// and the database pdb (nil: none).
func NpuzzleGuide(id string, opts NpuzzleOptions, pdb *npuzzle.PDB) string {
	if pdb != nil {
		return "pattern database " + pdb.Partition().Name
	}
	if g := map[string]string{"bfs": "none", "bibfs": "none", "wastar": "Manhattan distance"}[id]; g != "" && opts.Heuristic == "" {
		return g
	}
	if opts.Heuristic != "" && opts.Heuristic != "linear" {
		return opts.Heuristic
	}
	return "linear conflict"
}

// RunNpuzzleJob runs job j as the kind "npuzzle.solve" does: its database
// loaded by load (progress: "database" while it loads or builds), then
// the search ("search", with its counts). The fast solver goes without a
// database it may not build (ErrNpuzzleBigBuild), and its record says so.
func RunNpuzzleJob(ctx context.Context, j NpuzzleJob, load NpuzzlePDBLoader, progress func(any)) NpuzzleRecord {
	start := time.Now()
	report := func(p NpuzzleProgress) {
		if progress != nil {
			p.MS = float64(time.Since(start).Microseconds()) / 1000
			progress(p)
		}
	}
	var pdb *npuzzle.PDB
	part, ok, err := NpuzzlePartition(j)
	if ok {
		report(NpuzzleProgress{Phase: "database", Message: fmt.Sprintf("Loading the pattern database %s…", part.Name)})
		pdb, err = load(ctx, j, part, func(bp npuzzle.BuildProgress) { report(NpuzzleBuildProgress(part, bp, time.Since(start))) })
	}
	note := ""
	if err != nil && j.Solver == "fast" && errors.Is(err, ErrNpuzzleBigBuild) {
		note = fmt.Sprintf("the fast solver went without its database (%v)", err)
		j.Options.Heuristic, j.Options.Partition, pdb, err = "", "", nil, nil
	}
	if err != nil {
		rec := j.Record()
		rec.Error = err.Error()
		return rec
	}
	name := j.Solver
	if e, err := Npuzzle.Lookup(j.Solver); err == nil {
		name = e.Name
	}
	msg := fmt.Sprintf("Searching with %s (%s)…", name, NpuzzleGuide(j.Solver, j.Options, pdb))
	report(NpuzzleProgress{Phase: "search", Message: msg})
	rec := j.Run(ctx, NpuzzleHooks{PDB: pdb, Progress: func(st search.Stats) {
		report(NpuzzleProgress{Phase: "search", Message: msg, Expanded: st.Expanded, Generated: st.Generated})
	}})
	if note != "" {
		rec.addNote(note)
	}
	return rec
}

// runNpuzzleJob is the job kind "npuzzle.solve": an NpuzzleJob in, an
// NpuzzleRecord out, the database from this machine's cache.
func runNpuzzleJob(ctx context.Context, spec json.RawMessage, progress func(any)) (any, error) {
	j, err := decodeSpec[NpuzzleJob]("npuzzle.solve", spec)
	if err != nil {
		return nil, err
	}
	rec := RunNpuzzleJob(ctx, j, loadCachedNpuzzlePDB, progress)
	if err := ctx.Err(); err != nil {
		return rec, err
	}
	return rec, nil
}

package bench

import (
	"cmp"
	"context"
	"io"
	"time"

	"tessera/internal/catalog"
	"tessera/internal/progress"
	"tessera/npuzzle"
)

// NpuzzleBench is `tessera npuzzle bench`: the solvers compared on random
// boards (Compare, NpuzzleCompare), or one solver on the boards of a set
// file or on random boards (Run, NpuzzleSet). Plain data, a field per
// option, each named by its json tag (its flag: catalog.BindFlags) and
// documented by its help tag; DefaultNpuzzleBench gives the defaults.
type NpuzzleBench struct {
	Size      string `json:"size" help:"board size ROWSxCOLS"`
	N         int    `json:"n" help:"number of boards (at most 100000)"`
	Uniform   bool   `json:"uniform" help:"uniformly random boards (false: the game's random walk)"`
	Set       string `json:"set" help:"run the boards of this set file instead of random boards (a file, or a set of the shared data: korf100, korf-felner50, ...)"`
	Goal      string `json:"goal" help:"blank-last, blank-first or auto: from the -set file, blank-last for random boards"`
	Instances string `json:"instances" help:"with -set: the instances to run, such as 1-10,38,40 (default all)"`
	Journal   string `json:"journal" help:"with -set: a journal file of the run (created if missing): instances it records as solved are reported, not solved again, and this run's are added, so a run of days can stop and go on"`
	Reference string `json:"reference" help:"with -set: a file of published node counts, lines \"INSTANCE NODES\" (such as korf-felner-24-kf2002-nodes.txt), to project the CPU time of the instances not solved"`
	// Seed draws the random boards, Timeout bounds each solve, JSON
	// prints a line per item.
	Seed    uint64        `json:"seed" flag:"-"`
	Timeout time.Duration `json:"timeout_ns" flag:"-"`
	JSON    bool          `json:"json" flag:"-"`
}

// DefaultNpuzzleBench is an NpuzzleBench with the defaults of every option.
func DefaultNpuzzleBench() NpuzzleBench {
	return NpuzzleBench{Size: "3x3", N: 100, Uniform: true, Goal: "auto", Seed: 1, Timeout: 30 * time.Second}
}

// Check checks the size and the number of boards (a mistake is a
// UsageError) and returns the size.
func (b *NpuzzleBench) Check() (npuzzle.Size, error) {
	s, err := npuzzle.ParseSize(b.Size)
	if err != nil {
		return s, Usagef("%v", err)
	}
	if b.N < 1 || b.N > NpuzzleMaxBoards {
		return s, Usagef("-n %d out of range: from 1 to %d boards", b.N, NpuzzleMaxBoards)
	}
	return s, nil
}

// Compare compares the solvers of NpuzzleMethods on the random boards,
// here or on remote's workers (nil: here), counting the solves on p, and
// prints the comparison to w.
func (b *NpuzzleBench) Compare(ctx context.Context, w io.Writer, p *progress.Reporter, remote Remote) error {
	s, err := b.Check()
	if err != nil {
		return err
	}
	count := p.Counter("solves", b.N*len(NpuzzleMethods))
	return NpuzzleCompare{Size: s, Boards: b.N, Seed: b.Seed, Uniform: b.Uniform, Timeout: b.Timeout, JSON: b.JSON,
		Done: func() { count.Add(1) }, Remote: remote}.Run(ctx, w)
}

// Run runs the solver sv (its options checked; Run builds it, its
// pattern database's load reported on p and stderr) on the instances of
// Set or on the random boards, here or on remote's workers (nil: here),
// through the Journal when named, and prints the bench to w. workers is
// the solver's -workers, reported.
func (b *NpuzzleBench) Run(ctx context.Context, w, stderr io.Writer, p *progress.Reporter, sv *NpuzzleSolver, workers int, remote Remote) (err error) {
	s, err := b.Check()
	if err != nil {
		return err
	}
	set := NpuzzleSet{Set: b.Set, Timeout: b.Timeout, JSON: b.JSON, Workers: workers, Algo: sv.Algo, Remote: remote}
	var all []npuzzle.Instance
	if b.Set == "" {
		err = set.Random(s, b.N, b.Uniform, b.Seed, b.Goal)
	} else if all, err = set.ReadSet(b.Set, b.Goal, b.Instances); err == nil && b.Reference != "" {
		err = set.ReadReference(b.Reference)
	}
	if err == nil && b.Journal != "" {
		head := NewNpuzzleJournalHeader(all, set.Goal, sv.Algo, sv.Options)
		if set.Journal, err = OpenNpuzzleJournal(b.Journal, head, all, set.Goal); err == nil {
			defer func() { err = cmp.Or(err, set.Journal.Close()) }()
			p.Logf("journal %s: %d instances solved by earlier runs", b.Journal, set.Journal.Len())
		}
	}
	if err != nil {
		return err
	}
	if err := sv.Build(ctx, set.Instances[0].Board.Size(), set.Goal, p, stderr, 0, catalog.NpuzzleHooks{}); err != nil {
		return err
	}
	set.Options, set.PDB, set.Setup = sv.Options, sv.PDB, sv.Setup
	count := p.Counter("instances", len(set.Instances))
	set.Done = func() { count.Add(1) }
	return set.Run(ctx, w)
}

package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"tessera/internal/catalog"
	"tessera/internal/progress"
	"tessera/npuzzle"
)

// NpuzzleSolver is a catalog.Npuzzle solver as `tessera npuzzle solve`
// and `bench` build it: the entry Algo with Options (checked), and the
// pattern database that its heuristic asks for, loaded from the cache
// folder Cache (of this machine; "": the user's) or built there. Build
// sets Solver, PDB (nil: none) and Setup, the seconds the database's load
// took.
type NpuzzleSolver struct {
	Algo    string
	Options catalog.NpuzzleOptions
	Cache   string
	Solver  npuzzle.Solver
	PDB     *npuzzle.PDB
	Setup   float64
}

// Build builds the solver for boards of size and goal with the hooks h:
// it loads the database (reporting on rep, warnings to stderr) within ctx,
// whose -timeout is timeout (for the message), and -max-mem; the search
// gets what -max-mem leaves. Options the entry refuses, and a partition
// that does not fit the board, are UsageErrors, found before a load of
// minutes.
func (s *NpuzzleSolver) Build(ctx context.Context, size npuzzle.Size, goal npuzzle.Goal, rep *progress.Reporter, stderr io.Writer,
	timeout time.Duration, h catalog.NpuzzleHooks) error {
	if _, err := catalog.Npuzzle.New(s.Algo, catalog.NpuzzleRun{NpuzzleOptions: s.Options}); err != nil {
		return Usagef("-algo %s: %v", s.Algo, err)
	}
	if catalog.NpuzzleNeedsPDB(s.Algo, s.Options, size) {
		part, err := NpuzzlePartition(s.Options.Partition, size, goal)
		if err == nil && s.Algo != "fast" && part.Size != size {
			err = Usagef("partition %v does not fit a %v board", part, size)
		}
		if err == nil {
			h.PDB, s.Setup, err = LoadPDB(ctx, part, npuzzle.PDBOptions{CacheDir: s.Cache, MaxBytes: s.Options.MaxMem.Bytes(), Sparse: s.Options.Sparse}, rep, stderr, timeout)
		}
		if err != nil {
			return err
		}
	}
	var err error
	s.PDB = h.PDB
	s.Solver, err = catalog.Npuzzle.New(s.Algo, catalog.NpuzzleRun{NpuzzleOptions: s.Options, Hooks: h})
	return err
}

// NpuzzlePartition returns the partition name names for boards of size s
// (zero: from the partition's name) and goal g; a mistake is a
// UsageError.
func NpuzzlePartition(name string, s npuzzle.Size, g npuzzle.Goal) (npuzzle.Partition, error) {
	if name == "" && s == (npuzzle.Size{}) {
		return npuzzle.Partition{}, Usagef("give -partition (5-5-5, 6-6-3, 7-8 or 6-6-6-6)")
	}
	part, err := npuzzle.PartitionFor(name, s, g)
	if err != nil {
		return part, Usagef("%v", err)
	}
	return part, nil
}

// Solve solves b for goal with the built solver within ctx (whose
// -timeout is timeout, for the message) and returns the record, with the
// search's error explained: a budget's end names -timeout, an unsolvable
// board the two goals.
func (s *NpuzzleSolver) Solve(ctx context.Context, b *npuzzle.Board, goal npuzzle.Goal, timeout time.Duration) (catalog.NpuzzleRecord, error) {
	sol, err := s.Solver.Solve(ctx, b, goal)
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("no solution within -timeout %v: %w", timeout, err)
	}
	if errors.Is(err, npuzzle.ErrUnsolvable) {
		err = fmt.Errorf("%w for the goal %s (%s): half of all boards reach it, the other half a goal of the other parity "+
			"(a textbook's 1 2 3/8 0 4/7 6 5, say); the goals here are blank-last and blank-first (-goal)", err, goal, npuzzle.Solved(b.Size(), goal).Line())
	}
	j := catalog.NpuzzleJob{Spec: catalog.Spec[catalog.NpuzzleOptions]{Solver: s.Algo, Options: s.Options}, Board: b.Line(), Goal: goal.String()}
	rec := j.Record()
	rec.Size, rec.SetupSeconds = b.Size().String(), s.Setup
	rec.Fill(s.Solver, s.PDB, sol, err)
	if errors.Is(err, context.DeadlineExceeded) {
		rec.Stopped = "time"
	}
	return rec, err
}

// WriteNpuzzleShuffle prints a board b of size s for goal shuffled from
// seed (uniformly, or by a walk of moves steps): as a JSON object, or the
// board.
func WriteNpuzzleShuffle(w io.Writer, b *npuzzle.Board, goal npuzzle.Goal, seed uint64, uniform bool, moves int, asJSON bool) error {
	if !asJSON {
		_, err := fmt.Fprintln(w, b)
		return err
	}
	out := map[string]any{"board": b.Line(), "size": b.Size().String(), "goal": goal.String(), "seed": seed}
	if uniform {
		out["uniform"] = true
	} else {
		out["moves"] = moves
	}
	return WriteJSON(w, out)
}

// NpuzzleBoard returns the board of `tessera npuzzle solve`: that of the
// arguments (ReadNpuzzleBoard, of size), or with shuffle (a size
// ROWSxCOLS) a board of that size for goal shuffled from seed
// (npuzzle.Shuffle: the game's walk, or uniformly). Both, neither or a
// bad size is a UsageError.
func NpuzzleBoard(ctx context.Context, stdin io.Reader, args []string, size npuzzle.Size, goal npuzzle.Goal, shuffle string, uniform bool, seed uint64) (*npuzzle.Board, error) {
	switch {
	case shuffle != "" && len(args) > 0:
		return nil, Usagef("give either BOARD or -shuffle, not both")
	case shuffle != "":
		s, err := npuzzle.ParseSize(shuffle)
		if err != nil {
			return nil, Usagef("%v", err)
		}
		return npuzzle.Shuffle(ctx, s, goal, uniform, npuzzle.WalkLength(s), seed)
	case len(args) == 0:
		return nil, Usagef("no board given")
	}
	return ReadNpuzzleBoard(stdin, args, size)
}

// ReadNpuzzleBoard reads a board of size (zero: square, from its tiles)
// from a command line's arguments, joined, or from stdin (at most 64 KiB)
// for the one argument "-". A board that does not parse is a UsageError.
func ReadNpuzzleBoard(stdin io.Reader, args []string, size npuzzle.Size) (*npuzzle.Board, error) {
	text := strings.Join(args, " ")
	if len(args) == 1 && args[0] == "-" {
		b, err := io.ReadAll(io.LimitReader(stdin, 1<<16))
		if err != nil {
			return nil, err
		}
		text = string(b)
	}
	b, err := npuzzle.Parse(text, size)
	if err != nil {
		return nil, Usagef("%v", err)
	}
	return b, nil
}

package sat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"tessera/edgematch"
)

// SAT solves a puzzle with an external SAT solver, a Solver: it encodes the
// puzzle (EncodeSAT), writes the formula to a temporary DIMACS file, runs
// the solver on it, reads its answer (the SAT competitions' output: "s
// SATISFIABLE" and the model on "v" lines), decodes the model into a board
// and verifies it before returning it. Counting adds a blocking clause
// per solution and runs the solver again until it answers UNSATISFIABLE.
// The zero value finds one solution with the first solver of SATSolvers
// on the PATH.
//
// The solver process runs under the context: a deadline or a cancel kills
// it (and its process group on Unix) before Solve returns.
type SAT struct {
	// Solver is the SAT solver's command: a name looked up on the PATH or
	// a path ("": the first of SATSolvers found). It must read a DIMACS
	// file named as its last argument and print the competition output.
	Solver string
	// Args are the arguments before the file (nil: "-q --sat" for cadical
	// and kissat: the answer only, in their configuration for satisfiable
	// formulas).
	Args []string
	// Count counts every solution (by blocking clauses) instead of
	// stopping at the first; Result.Stats.Solutions holds the count,
	// board rotations and exchanges of identical pieces included, as the
	// backtracker counts, and Result.Board the first solution found.
	Count bool
	// MaxSolutions stops counting once at least this many solutions are
	// counted (0: no limit); the error then wraps ErrBudget.
	MaxSolutions int64
	// Encode tunes the encoding (symmetry breaking, the size limit).
	Encode SATEncodeOptions
	// Progress, when set, is called after every run of the solver with
	// the statistics so far.
	Progress func(edgematch.Stats)
}

var _ edgematch.Solver = SAT{}

// SATSolvers are the solvers SAT looks for on the PATH, in order.
var SATSolvers = []string{"cadical", "kissat", "cryptominisat5"}

// ErrNoSATSolver is returned when no SAT solver is found.
var ErrNoSATSolver = errors.New("edgematch: no SAT solver found on the PATH (install cadical: apt-get install cadical)")

// FindSATSolver returns the path of the SAT solver name (a name on the
// PATH or a path), or of the first of SATSolvers on the PATH for "". It
// wraps ErrNoSATSolver when there is none.
func FindSATSolver(name string) (string, error) {
	if name != "" {
		path, err := exec.LookPath(name)
		if err != nil {
			return "", fmt.Errorf("%w: %q: %v", ErrNoSATSolver, name, err)
		}
		return path, nil
	}
	for _, s := range SATSolvers {
		if path, err := exec.LookPath(s); err == nil {
			return path, nil
		}
	}
	return "", fmt.Errorf("%w; looked for %s", ErrNoSATSolver, strings.Join(SATSolvers, ", "))
}

// maxSATOutput bounds what SAT reads of the solver's output besides the
// model.
const maxSATOutput = 16 << 20

// Solve finds a solution of p (or counts them with Count). It returns
// ErrNoSolution when the solver proves there is none (or, counting, none
// at all), an error wrapping ErrBudget at MaxSolutions, the context's error
// when the deadline or a cancel stops it, and ErrNoSATSolver when there is
// no solver. Any model that does not decode into a verified solution is an
// error, never a result.
func (s SAT) Solve(ctx context.Context, p *edgematch.Puzzle) (edgematch.Result, error) {
	start := time.Now()
	if err := p.Validate(); err != nil {
		return edgematch.Result{}, err
	}
	res := edgematch.Result{Board: edgematch.NewBoard(p.Rows, p.Cols)}
	finish := func(err error) (edgematch.Result, error) {
		res.Score = p.Score(res.Board)
		res.Stats.Elapsed = time.Since(start)
		if res.Score.Solved() {
			res.Stats.MaxDepth = p.Cells()
		}
		return res, err
	}
	if s.MaxSolutions < 0 {
		return finish(errors.New("edgematch: SAT.MaxSolutions must not be negative"))
	}
	path, err := FindSATSolver(s.Solver)
	if err != nil {
		return finish(err)
	}
	enc, err := EncodeSAT(ctx, p, s.Encode)
	if err != nil {
		return finish(err)
	}
	if enc.Unsat {
		return finish(edgematch.ErrNoSolution)
	}
	args := s.Args
	if args == nil {
		switch strings.TrimSuffix(filepath.Base(path), ".exe") {
		case "cadical", "kissat":
			// Quiet (the answer only), in the configuration tuned for
			// satisfiable formulas: on Brendan's 7x6 and 7x7 it took 22 and
			// 12 s of CPU where the default took 29 s and more than 50.
			args = []string{"-q", "--sat"}
		}
	}
	dir, err := os.MkdirTemp("", "tessera-sat-")
	if err != nil {
		return finish(err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "puzzle.cnf")
	found := false
	for {
		status, model, err := runSATSolver(ctx, path, args, file, &enc.CNF)
		if err != nil {
			return finish(err)
		}
		switch status {
		case satUnsat:
			if !found {
				return finish(edgematch.ErrNoSolution)
			}
			return finish(nil)
		case satUnknown:
			if err := ctx.Err(); err != nil {
				return finish(err)
			}
			return finish(fmt.Errorf("edgematch: %s answered UNKNOWN", filepath.Base(path)))
		}
		b, err := enc.Decode(model)
		if err != nil {
			return finish(fmt.Errorf("%s: %w", filepath.Base(path), err))
		}
		if !found {
			res.Board = b
			found = true
		}
		if !s.Count {
			res.Stats.Solutions = 1
			return finish(nil)
		}
		if res.Stats.Solutions > math.MaxInt64-int64(enc.Symmetry) {
			res.Stats.Solutions = math.MaxInt64
		} else {
			res.Stats.Solutions += int64(enc.Symmetry)
		}
		if s.Progress != nil {
			st := res.Stats
			st.Elapsed = time.Since(start)
			s.Progress(st)
		}
		if s.MaxSolutions > 0 && res.Stats.Solutions >= s.MaxSolutions {
			return finish(fmt.Errorf("%w: stopped after %d solutions (the limit)", edgematch.ErrBudget, res.Stats.Solutions))
		}
		if err := enc.Block(b); err != nil {
			return finish(err)
		}
	}
}

// runSATSolver writes f to file and runs the solver at path on it under
// ctx, returning its answer. The process is killed when ctx is done.
func runSATSolver(ctx context.Context, path string, args []string, file string, f *CNF) (satStatus, []bool, error) {
	if err := ctx.Err(); err != nil {
		return satUnknown, nil, err
	}
	w, err := os.Create(file)
	if err != nil {
		return satUnknown, nil, err
	}
	_, err = f.WriteTo(w)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return satUnknown, nil, fmt.Errorf("edgematch: writing the formula: %w", err)
	}
	cmd := exec.CommandContext(ctx, path, append(append([]string(nil), args...), file)...)
	setProcessGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	limit := int64(maxSATOutput) + 16*int64(f.Vars)
	stdout := &limitedBuffer{max: limit}
	stderr := &limitedBuffer{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		return satUnknown, nil, fmt.Errorf("edgematch: starting the SAT solver: %w", err)
	}
	if satStarted != nil {
		satStarted(cmd.Process.Pid)
	}
	waitErr := cmd.Wait()
	if err := ctx.Err(); err != nil {
		return satUnknown, nil, err
	}
	if stdout.over {
		return satUnknown, nil, fmt.Errorf("edgematch: %s printed more than %d bytes", filepath.Base(path), limit)
	}
	status, model, err := parseSATOutput(bytes.NewReader(stdout.buf.Bytes()), f.Vars)
	if err != nil {
		return satUnknown, nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	if status == satUnknown && waitErr != nil {
		msg := strings.TrimSpace(stderr.buf.String())
		return satUnknown, nil, fmt.Errorf("edgematch: %s failed without an answer: %v: %s", filepath.Base(path), waitErr, truncate(msg, 500))
	}
	return status, model, nil
}

// satStarted, when set (by tests), receives the pid of each solver
// process started.
var satStarted func(pid int)

// limitedBuffer keeps up to max bytes and notes whether more came.
type limitedBuffer struct {
	buf  bytes.Buffer
	max  int64
	over bool
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - int64(l.buf.Len()); int64(len(p)) > room {
		l.over = true
		if room > 0 {
			l.buf.Write(p[:room])
		}
		return len(p), nil
	}
	return l.buf.Write(p)
}

package npuzzle

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"

	"tessera/search"
)

// ErrBudget is search.ErrBudget: a solver hit one of its limits.
var ErrBudget = search.ErrBudget

// Solver finds moves that take a board to a goal. The solvers are values
// that carry their parameters: BFS, BidirectionalBFS, AStar, IDAStar and
// Fast. Each rejects a board of the wrong parity at once with
// ErrUnsolvable, without searching; when a limit or the context stops it,
// the error wraps ErrBudget or is the context's, and the Solution holds the
// statistics so far.
type Solver interface {
	Solve(ctx context.Context, b *Board, g Goal) (Solution, error)
}

// Solution is a sequence of moves that solves a board.
type Solution struct {
	Moves []Move
	// Optimal reports that the solver proves Moves shortest: BFS,
	// bidirectional BFS, IDA*, A* with weight 1, and Fast when the board
	// was small enough for its last search alone.
	Optimal bool
	Stats   search.Stats
}

// Limits bound a search and report on it. The zero value bounds only the
// memory, to search.DefaultMaxBytes.
type Limits struct {
	// MaxStates bounds the number of states stored at once (0: no bound).
	MaxStates int64
	// MaxBytes bounds the memory of the search in bytes, as the process's
	// peak resident memory (0: search.DefaultMaxBytes; negative: no
	// bound). The generic searches count their stored states in bytes
	// (search.Options.MaxBytes: each entry with its map slot, and the
	// board's string); their peak heap is a few times that, because maps
	// and slices grow by doubling (old and new arrays live together while
	// they grow) and the garbage collector lets the heap reach twice the
	// live data (GOGC=100). Each solver divides MaxBytes by the ratio of
	// peak resident memory to that count measured for it on 4x4 boards
	// (BFS 2.9, bidirectional BFS 2.2, A* 2.6; see memoryOverhead), so
	// that a search stops with the process at 0.8 to 1.1 times MaxBytes,
	// plus the runtime's 10 to 20 MB. The specialised IDA* stores only
	// its path and ignores it.
	MaxBytes int64
	// MaxExpanded bounds the number of expanded states (0: no bound); the
	// only limit of the specialised IDA*, with the context.
	MaxExpanded int64
	// Progress, when set, is called with the statistics so far about every
	// 65,536 expansions and after every IDA* iteration.
	Progress func(search.Stats)
}

// memoryOverhead is the measured ratio of the peak resident memory of a
// generic search to its count of stored bytes (search.Options.MaxBytes),
// on 4x4 boards stopped by a 256 MiB bound (Go 1.26, GOGC=100).
var memoryOverhead = struct{ bfs, bibfs, astar, idastar float64 }{2.9, 2.2, 2.6, 1}

// options returns the search options, with MaxBytes turned from memory
// into the search's count of stored bytes by the solver's overhead.
func (l Limits) options(weight, overhead float64) search.Options {
	maxBytes := l.MaxBytes
	if maxBytes == 0 {
		maxBytes = search.DefaultMaxBytes
	}
	if maxBytes > 0 {
		maxBytes = max(int64(float64(maxBytes)/overhead), 1)
	}
	return search.Options{MaxStates: l.MaxStates, MaxBytes: maxBytes, MaxExpanded: l.MaxExpanded, Weight: weight, Progress: l.Progress}
}

// BFS is breadth-first search (search.BFS): optimal, stores every state up
// to the solution depth (181,440 on the 3x3 board).
type BFS struct{ Limits }

// Solve implements Solver.
func (s BFS) Solve(ctx context.Context, b *Board, g Goal) (Solution, error) {
	if !Solvable(b, g) {
		return Solution{}, ErrUnsolvable
	}
	sp := newSpace(b.Size(), g)
	res, err := search.BFS(ctx, sp, string(b.cells), s.options(0, memoryOverhead.bfs))
	return s.solution(res, err, true)
}

func (BFS) String() string { return "breadth-first search" }

// BidirectionalBFS meets a forward and a backward breadth-first search
// (search.BidirectionalBFS): optimal, with about the square root of BFS's
// states.
type BidirectionalBFS struct{ Limits }

// Solve implements Solver.
func (s BidirectionalBFS) Solve(ctx context.Context, b *Board, g Goal) (Solution, error) {
	if !Solvable(b, g) {
		return Solution{}, ErrUnsolvable
	}
	sp := newSpace(b.Size(), g)
	res, err := search.BidirectionalBFS(ctx, sp, string(b.cells), sp.goal, s.options(0, memoryOverhead.bibfs))
	return s.solution(res, err, true)
}

func (BidirectionalBFS) String() string { return "bidirectional breadth-first search" }

// AStar is best-first search on g + Weight*h (search.AStar): optimal with
// weight 1 (or 0), at most Weight times the optimum above (the source game
// uses Manhattan distance x 5). The zero value is A* with linear conflict.
type AStar struct {
	Heuristic Heuristic
	// PDB is the pattern database of the PatternDB heuristic, for boards
	// of its size (see LoadPDB).
	PDB    *PDB
	Weight float64
	Limits
}

// Solve implements Solver.
func (s AStar) Solve(ctx context.Context, b *Board, g Goal) (Solution, error) {
	if !Solvable(b, g) {
		return Solution{}, ErrUnsolvable
	}
	sp := newSpace(b.Size(), g)
	h, err := estimator(sp, b, g, s.Heuristic, s.PDB)
	if err != nil {
		return Solution{}, err
	}
	res, err := search.AStar(ctx, sp, string(b.cells), h, s.options(s.Weight, memoryOverhead.astar))
	return s.solution(res, err, s.Weight <= 1)
}

func (s AStar) String() string {
	h := describeHeuristic(s.Heuristic, s.PDB)
	if s.Weight > 1 {
		return fmt.Sprintf("A*, %s x %g", h, s.Weight)
	}
	return "A*, " + h
}

// IDAStar is iterative-deepening A* (search.IDAStar): optimal in O(d)
// memory. The zero value is IDA* with linear conflict.
//
// With Manhattan distance or a pattern database it runs a solver
// specialised for the puzzle (in place, incremental, no allocation while it
// searches; tens of millions of nodes a second with Manhattan distance)
// unless Generic is set; its limits are Limits.MaxExpanded and the context.
// Its counts follow search.IDAStar's, so both expand and generate the same
// nodes on blank-first boards.
type IDAStar struct {
	Heuristic Heuristic
	// PDB is the pattern database of the PatternDB heuristic, for boards
	// of its size (see LoadPDB).
	PDB *PDB
	// Workers is the number of goroutines of the specialised solver (0 or
	// 1: one). Iterations of more than a few million nodes are then
	// searched in parallel (AIDA*, see parallel.go), with the same solution
	// and the same counts as on one goroutine.
	Workers int
	// Generic makes it use the generic search.IDAStar even where the
	// specialised solver applies: a reference for tests and comparisons,
	// several times slower.
	Generic bool
	// MovePruning, when above 0, makes the specialised solver skip the
	// moves that complete a redundant sequence of the blank of up to that
	// many moves (a finite-state machine, see fsm.go; DefaultFSMDepth is a
	// good value, at most MaxFSMDepth): the solutions stay optimal, the
	// node counts fall. 0 prunes only the move back to the parent, as
	// Korf's counts do.
	MovePruning int
	Limits
}

// Solve implements Solver.
func (s IDAStar) Solve(ctx context.Context, b *Board, g Goal) (Solution, error) {
	if !Solvable(b, g) {
		return Solution{}, ErrUnsolvable
	}
	if err := checkPDB(b, s.Heuristic, s.PDB); err != nil {
		return Solution{}, err
	}
	if !s.Generic && (s.Heuristic == Manhattan || s.Heuristic == PatternDB) {
		f := newFrame(b, g)
		var d *PDB
		if s.Heuristic == PatternDB {
			d = s.PDB
		}
		var fsm *moveFSM
		if s.MovePruning > 0 {
			if s.MovePruning > MaxFSMDepth || b.Len() > maxFSMCells {
				return Solution{}, fmt.Errorf("npuzzle: move pruning of %d moves on a %v board: at most %d moves, %d cells",
					s.MovePruning, b.Size(), MaxFSMDepth, maxFSMCells)
			}
			fsm = fsmFor(b.rows, b.cols, max(s.MovePruning, 2))
		}
		is := newIDASearch(f, d, fsm)
		is.workers = s.Workers
		moves, st, err := is.run(ctx, s.options(0, memoryOverhead.idastar))
		if err != nil {
			return Solution{Stats: st}, err
		}
		for i, m := range moves {
			moves[i] = f.boardMove(m)
		}
		return Solution{Moves: moves, Optimal: true, Stats: st}, nil
	}
	sp := newSpace(b.Size(), g)
	h, err := estimator(sp, b, g, s.Heuristic, s.PDB)
	if err != nil {
		return Solution{}, err
	}
	res, err := search.IDAStar(ctx, sp, string(b.cells), h, s.options(0, memoryOverhead.idastar))
	return s.solution(res, err, true)
}

func (s IDAStar) String() string { return "IDA*, " + describeHeuristic(s.Heuristic, s.PDB) }

// solution turns the result of a generic search into a Solution, and a
// stop at the memory bound into an error that names Limits.MaxBytes.
func (l Limits) solution(res search.Result[string, Move], err error, optimal bool) (Solution, error) {
	if err != nil {
		if errors.Is(err, ErrBudget) && strings.Contains(err.Error(), "MiB of states stored") {
			maxBytes := l.MaxBytes
			if maxBytes == 0 {
				maxBytes = search.DefaultMaxBytes
			}
			err = fmt.Errorf("%w: the search reached its memory bound of %d MiB with %d states stored", ErrBudget, maxBytes>>20, res.Stats.PeakStored)
		}
		return Solution{Stats: res.Stats}, err
	}
	return Solution{Moves: res.Moves, Optimal: optimal, Stats: res.Stats}, nil
}

// checkPDB checks that the PatternDB heuristic has a database for b.
func checkPDB(b *Board, h Heuristic, d *PDB) error {
	if h != PatternDB {
		return nil
	}
	if d == nil {
		return fmt.Errorf("npuzzle: the pdb heuristic needs a pattern database (the solver's PDB, see LoadPDB)")
	}
	if d.part.Size != b.Size() {
		return fmt.Errorf("npuzzle: pattern database %v does not fit a %v board", d.part, b.Size())
	}
	return nil
}

// estimator returns the heuristic h on the states of sp.
func estimator(sp *space, b *Board, g Goal, h Heuristic, d *PDB) (search.Heuristic[string], error) {
	if err := checkPDB(b, h, d); err != nil {
		return nil, err
	}
	if h == PatternDB {
		return d.stringEstimate(g), nil
	}
	return sp.table.estimate(h), nil
}

// heuristicText names the heuristics for people.
var heuristicText = map[Heuristic]string{
	LinearConflict: "linear conflict", Manhattan: "Manhattan distance", Misplaced: "misplaced tiles", PatternDB: "pattern database",
}

// describeHeuristic names h for people, with the database's partition.
func describeHeuristic(h Heuristic, d *PDB) string {
	if h != PatternDB || d == nil {
		return heuristicText[h]
	}
	s := fmt.Sprintf("pattern database %s", d.Partition())
	if d.Reflected() {
		s += " + reflection"
	}
	return s
}

// space is a sliding-tile puzzle as a search.Space. A state is the string of
// the board's cells, row-major, so it is its own key.
type space struct {
	rows, cols int
	goal       string
	table      *goalTable
}

func newSpace(s Size, g Goal) *space {
	return &space{rows: s.Rows, cols: s.Cols, goal: string(Solved(s, g).cells), table: newGoalTable(s, g)}
}

func (p *space) Key(s string) string     { return s }
func (p *space) IsGoal(s string) bool    { return s == p.goal }
func (p *space) StateBytes(s string) int { return len(s) }

// Successors yields the legal moves in Korf's order and the boards they
// lead to.
func (p *space) Successors(s string) iter.Seq2[Move, string] {
	return func(yield func(Move, string) bool) {
		blank := strings.IndexByte(s, 0)
		var buf [MaxSide * MaxSide]byte
		for _, m := range korfOrder {
			t := target(p.rows, p.cols, blank, m)
			if t < 0 {
				continue
			}
			copy(buf[:], s)
			buf[blank], buf[t] = buf[t], 0
			if !yield(m, string(buf[:len(s)])) {
				return
			}
		}
	}
}

// Predecessors yields (m, q) for every board q from which move m leads to s:
// q is s with one move applied, and m is that move's inverse.
func (p *space) Predecessors(s string) iter.Seq2[Move, string] {
	return func(yield func(Move, string) bool) {
		for m, q := range p.Successors(s) {
			if !yield(m.Inverse(), q) {
				return
			}
		}
	}
}

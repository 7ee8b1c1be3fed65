package npuzzle

import (
	"context"
	"fmt"
	"iter"
	"strings"

	"tessera/search"
)

// ErrBudget is search.ErrBudget: a solver hit one of its limits.
var ErrBudget = search.ErrBudget

// Algorithm names a solver.
type Algorithm uint8

const (
	// AStar is best-first search on g + w*h (search.AStar); optimal with
	// weight 1. The default.
	AStar Algorithm = iota
	// IDAStar is iterative-deepening A* (search.IDAStar); optimal, O(d)
	// memory.
	IDAStar
	// BFS is breadth-first search (search.BFS); optimal, stores every state
	// up to the solution depth.
	BFS
	// BidirectionalBFS meets a forward and a backward breadth-first search
	// (search.BidirectionalBFS); optimal.
	BidirectionalBFS
	// Fast answers any board up to 10x10 quickly with a short, not always
	// shortest, solution: see SolveFast.
	Fast
)

var algorithmNames = [...]string{AStar: "astar", IDAStar: "idastar", BFS: "bfs", BidirectionalBFS: "bibfs", Fast: "fast"}

// String returns "astar", "idastar", "bfs", "bibfs" or "fast".
func (a Algorithm) String() string {
	if int(a) < len(algorithmNames) {
		return algorithmNames[a]
	}
	return fmt.Sprintf("Algorithm(%d)", a)
}

// ParseAlgorithm parses a name written by String.
func ParseAlgorithm(s string) (Algorithm, error) {
	for a, n := range algorithmNames {
		if s == n {
			return Algorithm(a), nil
		}
	}
	return 0, fmt.Errorf("npuzzle: unknown algorithm %q (want astar, idastar, bfs, bibfs or fast)", s)
}

// Options select and bound a solver. The zero value is A* with linear
// conflict, towards the blank-last goal, with the search package's default
// memory bound.
type Options struct {
	Algorithm Algorithm
	Heuristic Heuristic // for AStar and IDAStar
	Goal      Goal
	// PDB is the pattern database of the PatternDB heuristic, for boards of
	// its size (see LoadPDB); Fast also uses it when given.
	PDB *PDB
	// Generic makes IDAStar use the generic search.IDAStar even where the
	// specialised solver applies (Manhattan and PatternDB): a reference
	// for tests and comparisons, several times slower.
	Generic bool
	// Workers is the number of goroutines of the specialised IDA* (0 or 1:
	// one). Iterations of more than a few million nodes are then searched
	// in parallel (AIDA*, see parallel.go), with the same solution and the
	// same counts as on one goroutine.
	Workers int
	// Search holds the limits (states, memory, expansions), the A* weight
	// and a progress callback.
	Search search.Options
}

// Solution is a sequence of moves that solves a board.
type Solution struct {
	Moves []Move
	// Optimal reports that the solver proves Moves shortest: BFS,
	// bidirectional BFS, IDA*, and A* with weight 1.
	Optimal bool
	Stats   search.Stats
}

// Solve finds moves that take b to the goal of opts. It returns
// ErrUnsolvable at once, without searching, for a board of the wrong parity.
// When a limit of opts.Search or the context stops it, the error wraps
// ErrBudget or is the context's, and the Solution holds the statistics so
// far.
//
// IDAStar with Manhattan distance or a pattern database runs a solver
// specialised for the puzzle (in place, incremental, no allocation while it
// searches; tens of millions of nodes a second with Manhattan distance)
// unless opts.Generic is set; its limits are opts.Search.MaxExpanded and the
// context. Its counts follow search.IDAStar's, so both expand and generate
// the same nodes on blank-first boards.
func Solve(ctx context.Context, b *Board, opts Options) (Solution, error) {
	if !Solvable(b, opts.Goal) {
		return Solution{}, ErrUnsolvable
	}
	if opts.Algorithm == Fast {
		return SolveFast(ctx, b, opts)
	}
	if opts.Heuristic == PatternDB {
		if opts.PDB == nil {
			return Solution{}, fmt.Errorf("npuzzle: the pdb heuristic needs a pattern database (Options.PDB, see LoadPDB)")
		}
		if opts.PDB.part.Size != b.Size() {
			return Solution{}, fmt.Errorf("npuzzle: pattern database %v does not fit a %v board", opts.PDB.part, b.Size())
		}
	}
	if opts.Algorithm == IDAStar && !opts.Generic && (opts.Heuristic == Manhattan || opts.Heuristic == PatternDB) {
		f := newFrame(b, opts.Goal)
		var d *PDB
		if opts.Heuristic == PatternDB {
			d = opts.PDB
		}
		s := newIDASearch(f, d)
		s.workers = opts.Workers
		moves, st, err := s.run(ctx, opts.Search)
		if err != nil {
			return Solution{Stats: st}, err
		}
		for i, m := range moves {
			moves[i] = f.boardMove(m)
		}
		return Solution{Moves: moves, Optimal: true, Stats: st}, nil
	}
	sp := newSpace(b.Size(), opts.Goal)
	start := string(b.cells)
	var h search.Heuristic[string]
	if opts.Heuristic == PatternDB {
		h = opts.PDB.stringEstimate(opts.Goal)
	} else {
		h = sp.table.estimate(opts.Heuristic)
	}
	var (
		res search.Result[string, Move]
		err error
	)
	optimal := true
	switch opts.Algorithm {
	case AStar:
		res, err = search.AStar(ctx, sp, start, h, opts.Search)
		optimal = opts.Search.Weight <= 1
	case IDAStar:
		res, err = search.IDAStar(ctx, sp, start, h, opts.Search)
	case BFS:
		res, err = search.BFS(ctx, sp, start, opts.Search)
	case BidirectionalBFS:
		res, err = search.BidirectionalBFS(ctx, sp, start, sp.goal, opts.Search)
	default:
		return Solution{}, fmt.Errorf("npuzzle: unknown algorithm %v", opts.Algorithm)
	}
	if err != nil {
		return Solution{Stats: res.Stats}, err
	}
	return Solution{Moves: res.Moves, Optimal: optimal, Stats: res.Stats}, nil
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

package dist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"tessera/edgematch"
	"tessera/edgematch/exact"
	"tessera/edgematch/partial"
	"tessera/internal/jobs"
)

// Job kinds of the edge-matching searches.
const (
	SubtreeKind = "edgematch.subtree"
	PartialKind = "edgematch.partial"
)

func init() {
	jobs.Register(SubtreeKind, subtreeHandler)
	jobs.Register(PartialKind, partialHandler)
}

// SubtreeInput is the input of an edgematch.subtree job.
type SubtreeInput struct {
	// Puzzle is the piece set as edgematch.Format writes it, hints
	// included.
	Puzzle string `json:"puzzle"`
	// Scan is the scan order (edgematch.ParseScan; "" auto).
	Scan       string `json:"scan,omitempty"`
	Count      bool   `json:"count,omitempty"`
	NoSymmetry bool   `json:"no_symmetry,omitempty"`
	// Prefix is the placements of the first cells of the scan, each
	// [piece, rotation] with pieces from 0.
	Prefix [][2]int `json:"prefix"`
}

// SubtreeResult is the result of an edgematch.subtree job.
type SubtreeResult struct {
	Nodes     int64 `json:"nodes"`
	Solutions int64 `json:"solutions,omitempty"`
	MaxDepth  int   `json:"max_depth"`
	// Board is the subtree's first solution, or the deepest board of an
	// exhausted one (edgematch.Format).
	Board string `json:"board,omitempty"`
	// NoSolution says that the subtree was exhausted without a solution.
	NoSolution bool    `json:"no_solution,omitempty"`
	Seconds    float64 `json:"seconds"`
}

// subtreeProgress is an edgematch.subtree job's progress.
type subtreeProgress struct {
	Nodes int64 `json:"nodes"`
}

func formatPuzzle(p *edgematch.Puzzle) string { return string(edgematch.Format(p)) }
func formatBoard(b *edgematch.Board) string   { return string(edgematch.Format(b)) }

func parsePuzzle(text string) (*edgematch.Puzzle, error) {
	return edgematch.ParsePuzzle(strings.NewReader(text))
}

// readInput decodes the input of a job of kind, an I, and parses its
// puzzle, puzzle(in); an error names the kind.
func readInput[I any](kind string, raw json.RawMessage, puzzle func(I) string) (I, *edgematch.Puzzle, error) {
	var in I
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, nil, fmt.Errorf("%s: %w", kind, err)
	}
	p, err := parsePuzzle(puzzle(in))
	if err != nil {
		return in, nil, fmt.Errorf("%s: puzzle: %w", kind, err)
	}
	return in, p, nil
}

// parseBoard reads a board of p's size.
func parseBoard(text string, p *edgematch.Puzzle) (*edgematch.Board, error) {
	b, err := edgematch.ParseBoard(strings.NewReader(text))
	if err != nil {
		return nil, err
	}
	if b.Rows != p.Rows || b.Cols != p.Cols {
		return nil, fmt.Errorf("dist: a %dx%d board for a %dx%d puzzle", b.Rows, b.Cols, p.Rows, p.Cols)
	}
	return b, nil
}

func subtreeHandler(ctx context.Context, raw json.RawMessage, progress func(any)) (any, error) {
	in, p, err := readInput(SubtreeKind, raw, func(in SubtreeInput) string { return in.Puzzle })
	if err != nil {
		return nil, err
	}
	d := exact.DFS{Count: in.Count, NoSymmetry: in.NoSymmetry, Workers: 1,
		Progress: func(st edgematch.Stats) { progress(subtreeProgress{st.Nodes}) }}
	if in.Scan != "" {
		if d.Scan, err = edgematch.ParseScan(in.Scan); err != nil {
			return nil, fmt.Errorf("edgematch.subtree: %w", err)
		}
	}
	if len(in.Prefix) > p.Cells() {
		return nil, fmt.Errorf("edgematch.subtree: a prefix of %d placements for %d cells", len(in.Prefix), p.Cells())
	}
	prefix := make([]edgematch.Placement, len(in.Prefix))
	for i, pr := range in.Prefix {
		prefix[i] = edgematch.Placement{Piece: pr[0], Rot: pr[1]}
	}
	res, err := d.SolveSubtree(ctx, p, prefix)
	out := SubtreeResult{Nodes: res.Stats.Nodes, Solutions: res.Stats.Solutions, MaxDepth: res.Stats.MaxDepth,
		Seconds: res.Stats.Elapsed.Seconds()}
	if res.Board != nil {
		out.Board = formatBoard(res.Board)
	}
	switch {
	case errors.Is(err, edgematch.ErrNoSolution):
		out.NoSolution = true
	case err != nil:
		return nil, err
	}
	return out, nil
}

// Subtrees is the exact.SubtreeExecutor that runs every subtree as an
// edgematch.subtree job on the workers of Client: InFlight jobs are
// submitted ahead in scan order (the work queue hands them out in that
// order), the next one as each ends, so that a first solution has only
// InFlight jobs to cancel.
type Subtrees struct {
	Client *jobs.Client
	// InFlight is the number of jobs submitted ahead (0: 128); it should
	// exceed the workers of all the machines.
	InFlight int
}

// RunSubtrees implements exact.SubtreeExecutor.
func (s Subtrees) RunSubtrees(ctx context.Context, p *edgematch.Puzzle, d exact.DFS, prefixes [][]edgematch.Placement, report func(exact.SubtreeReport)) error {
	inFlight := s.InFlight
	if inFlight <= 0 {
		inFlight = 128
	}
	puzzle := formatPuzzle(p)
	scan := ""
	if d.Scan.Order != edgematch.OrderAuto {
		scan = d.Scan.String()
	} else if d.Order != edgematch.OrderAuto {
		scan = d.Order.String()
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	slots := make(chan struct{}, inFlight)
	var failed error
	for i, pre := range prefixes {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		in := SubtreeInput{Puzzle: puzzle, Scan: scan, Count: d.Count, NoSymmetry: d.NoSymmetry, Prefix: make([][2]int, len(pre))}
		for j, pl := range pre {
			in.Prefix[j] = [2]int{pl.Piece, pl.Rot}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			start := time.Now()
			var nodes int64
			raw, err := run(ctx, s.Client, SubtreeKind, in, 0, func(pr json.RawMessage) {
				var sp subtreeProgress
				if json.Unmarshal(pr, &sp) != nil {
					return
				}
				mu.Lock()
				defer mu.Unlock()
				nodes = sp.Nodes
				report(exact.SubtreeReport{Index: i, Result: edgematch.Result{Stats: edgematch.Stats{Nodes: sp.Nodes, Elapsed: time.Since(start)}}})
			})
			rep := exact.SubtreeReport{Index: i, Done: true}
			rep.Result.Stats.Nodes = nodes
			if err == nil {
				rep.Result, rep.Err = subtreeOutcome(raw, p)
			} else if errors.Is(err, errCanceled) && ctx.Err() != nil {
				rep.Err = ctx.Err()
			} else {
				rep.Err = err
			}
			mu.Lock()
			defer mu.Unlock()
			if rep.Err != nil && !errors.Is(rep.Err, edgematch.ErrNoSolution) && ctx.Err() == nil && failed == nil {
				failed = rep.Err
			}
			report(rep)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	return failed
}

// subtreeOutcome reads an edgematch.subtree result as SolveSubtree's.
func subtreeOutcome(raw json.RawMessage, p *edgematch.Puzzle) (edgematch.Result, error) {
	var out SubtreeResult
	if err := json.Unmarshal(raw, &out); err != nil {
		return edgematch.Result{}, fmt.Errorf("dist: subtree result: %w", err)
	}
	res := edgematch.Result{Stats: edgematch.Stats{Nodes: out.Nodes, Solutions: out.Solutions, MaxDepth: out.MaxDepth,
		Elapsed: time.Duration(out.Seconds * float64(time.Second))}}
	if out.Board != "" {
		b, err := parseBoard(out.Board, p)
		if err != nil {
			return res, fmt.Errorf("dist: subtree board: %w", err)
		}
		res.Board, res.Score = b, p.Score(b)
	}
	if out.NoSolution {
		return res, edgematch.ErrNoSolution
	}
	return res, nil
}

// PartialInput is the input of an edgematch.partial job: one seeded
// partial search with one worker.
type PartialInput struct {
	Puzzle string `json:"puzzle"`
	// Algo is the search: "breaks" (partial.Breaks, the catalogue's
	// partial; "" means it too), "tiles" (partial.Tiles) or "lns"
	// (partial.Partial, the large neighbourhood search).
	Algo  string `json:"algo,omitempty"`
	Seed  uint64 `json:"seed"`
	Start string `json:"start,omitempty"` // a board to improve or beat
	// Target: every search.
	Target int `json:"target,omitempty"`
	// lns: DFSNodes, MaxMoves.
	DFSNodes int64 `json:"dfs_nodes,omitempty"`
	MaxMoves int64 `json:"max_moves,omitempty"`
	// breaks and tiles: Scan (edgematch.ParseScan; "" the default fill
	// order), MaxNodes, RestartNodes, PolishMoves, Schedule (absent: the
	// default).
	Scan         string `json:"scan,omitempty"`
	MaxNodes     int64  `json:"max_nodes,omitempty"`
	RestartNodes int64  `json:"restart_nodes,omitempty"`
	PolishMoves  int64  `json:"polish_moves,omitempty"`
	Schedule     []int  `json:"schedule,omitempty"`
	// breaks: Heuristic colours (absent: the default), NoHeuristic.
	Heuristic   []int `json:"heuristic,omitempty"`
	NoHeuristic bool  `json:"no_heuristic,omitempty"`
	// tiles: ReserveFrom, GroupIters.
	ReserveFrom int `json:"reserve_from,omitempty"`
	GroupIters  int `json:"group_iters,omitempty"`
}

// partialInput is the job input of one search of base.
func partialInput(base partial.SeededSearch) (PartialInput, error) {
	scan := func(sc edgematch.Scan) string {
		if sc.Order == edgematch.OrderAuto {
			return ""
		}
		return sc.String()
	}
	var in PartialInput
	var start *edgematch.Board
	switch s := base.(type) {
	case partial.Breaks:
		in = PartialInput{Algo: "breaks", Target: s.Target, Scan: scan(s.Scan), MaxNodes: s.MaxNodes, RestartNodes: s.RestartNodes,
			PolishMoves: s.PolishMoves, Schedule: s.Schedule, NoHeuristic: s.NoHeuristic}
		if s.Schedule != nil && len(s.Schedule) == 0 {
			return in, errors.New("dist: an empty break schedule cannot be sent")
		}
		for _, c := range s.Heuristic {
			in.Heuristic = append(in.Heuristic, int(c))
		}
		start = s.Start
	case partial.Tiles:
		in = PartialInput{Algo: "tiles", Target: s.Target, Scan: scan(s.Scan), MaxNodes: s.MaxNodes, RestartNodes: s.RestartNodes,
			PolishMoves: s.PolishMoves, Schedule: s.Schedule, ReserveFrom: s.ReserveFrom, GroupIters: s.GroupIters}
		if s.Schedule != nil && len(s.Schedule) == 0 {
			return in, errors.New("dist: an empty break schedule cannot be sent")
		}
		start = s.Start
	case partial.Partial:
		in = PartialInput{Algo: "lns", Target: s.Target, DFSNodes: s.DFSNodes, MaxMoves: s.MaxMoves}
		start = s.Start
	default:
		return in, fmt.Errorf("dist: no job runs a %T", base)
	}
	if start != nil {
		in.Start = formatBoard(start)
	}
	return in, nil
}

// search is the search that in asks for, one worker, reporting to onBest.
func (in PartialInput) search(p *edgematch.Puzzle, onBest func(*edgematch.Board, edgematch.Score)) (partial.SeededSearch, error) {
	var start *edgematch.Board
	if in.Start != "" {
		var err error
		if start, err = parseBoard(in.Start, p); err != nil {
			return nil, fmt.Errorf("start: %w", err)
		}
	}
	var scan edgematch.Scan
	if in.Scan != "" {
		var err error
		if scan, err = edgematch.ParseScan(in.Scan); err != nil {
			return nil, err
		}
	}
	if len(in.Schedule) > p.Cells() || len(in.Heuristic) > 256 {
		return nil, fmt.Errorf("a schedule of %d or %d heuristic colours", len(in.Schedule), len(in.Heuristic))
	}
	var s partial.SeededSearch
	switch in.Algo {
	case "", "breaks":
		b := partial.Breaks{Target: in.Target, Scan: scan, MaxNodes: in.MaxNodes, RestartNodes: in.RestartNodes,
			PolishMoves: in.PolishMoves, Schedule: in.Schedule, NoHeuristic: in.NoHeuristic, Start: start}
		for _, c := range in.Heuristic {
			if c < 0 || c >= p.Colours() {
				return nil, fmt.Errorf("heuristic colour %d out of range", c)
			}
			b.Heuristic = append(b.Heuristic, edgematch.Colour(c))
		}
		s = b
	case "tiles":
		s = partial.Tiles{Target: in.Target, Scan: scan, MaxNodes: in.MaxNodes, RestartNodes: in.RestartNodes,
			PolishMoves: in.PolishMoves, Schedule: in.Schedule, ReserveFrom: in.ReserveFrom, GroupIters: in.GroupIters, Start: start}
	case "lns":
		s = partial.Partial{Target: in.Target, DFSNodes: in.DFSNodes, MaxMoves: in.MaxMoves, Start: start}
	default:
		return nil, fmt.Errorf("unknown algo %q", in.Algo)
	}
	return s.Seeded(in.Seed, onBest), nil
}

// PartialBoard is an edgematch.partial job's progress (its best board so
// far) and its result (the best board, with the work).
type PartialBoard struct {
	Score int    `json:"score"`
	Board string `json:"board"`
	Nodes int64  `json:"nodes,omitempty"`
	Moves int64  `json:"moves,omitempty"`
	// The result's only: the search's seed, and the boards it completed
	// (breaks and tiles; edgematch.Stats.Completed and Top).
	Seed      uint64  `json:"seed,omitempty"`
	Completed int64   `json:"completed,omitempty"`
	Top       []int64 `json:"top,omitempty"`
}

func partialHandler(ctx context.Context, raw json.RawMessage, progress func(any)) (any, error) {
	in, p, err := readInput(PartialKind, raw, func(in PartialInput) string { return in.Puzzle })
	if err != nil {
		return nil, err
	}
	s, err := in.search(p, func(b *edgematch.Board, sc edgematch.Score) {
		progress(PartialBoard{Score: sc.Matched, Board: formatBoard(b)})
	})
	if err != nil {
		return nil, fmt.Errorf("edgematch.partial: %w", err)
	}
	res, err := s.Solve(ctx, p)
	if res.Board == nil {
		if err == nil {
			err = errors.New("edgematch.partial: no board")
		}
		return nil, err
	}
	// The context's end is the search's budget: its best board is the result.
	return PartialBoard{Score: res.Score.Matched, Board: formatBoard(res.Board), Nodes: res.Stats.Nodes, Moves: res.Stats.Moves,
		Seed: in.Seed, Completed: res.Stats.Completed, Top: res.Stats.Top}, nil
}

// Partial is the partial.PartialExecutor that runs every seeded search
// (partial.Breaks, Tiles or Partial) as an edgematch.partial job on the
// workers of Client, all at once.
type Partial struct {
	Client *jobs.Client
}

// RunPartial implements partial.PartialExecutor.
func (x Partial) RunPartial(ctx context.Context, p *edgematch.Puzzle, base partial.SeededSearch, seeds []uint64, onBest func(int, *edgematch.Board)) ([]edgematch.Result, error) {
	tmpl, err := partialInput(base)
	if err != nil {
		return nil, err
	}
	tmpl.Puzzle = formatPuzzle(p)
	results := make([]edgematch.Result, len(seeds))
	errs := make([]error, len(seeds))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, seed := range seeds {
		in := tmpl
		in.Seed = seed
		wg.Add(1)
		go func() {
			defer wg.Done()
			give := func(pb PartialBoard) *edgematch.Board {
				b, err := parseBoard(pb.Board, p)
				if err != nil {
					return nil
				}
				mu.Lock()
				defer mu.Unlock()
				onBest(i, b)
				return b
			}
			raw, err := run(ctx, x.Client, PartialKind, in, partialGrace, func(pr json.RawMessage) {
				var pb PartialBoard
				if json.Unmarshal(pr, &pb) == nil {
					give(pb)
				}
			})
			if err != nil {
				errs[i] = err
				return
			}
			var pb PartialBoard
			if err := json.Unmarshal(raw, &pb); err != nil {
				errs[i] = err
				return
			}
			if b := give(pb); b != nil {
				results[i] = edgematch.Result{Board: b, Score: p.Score(b), Stats: edgematch.Stats{Nodes: pb.Nodes, Moves: pb.Moves,
					Completed: pb.Completed, Top: pb.Top}}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return results, err
	}
	for _, err := range errs {
		if err != nil && !errors.Is(err, errCanceled) {
			return results, err
		}
	}
	return results, nil
}

// check that the executors fit.
var (
	_ exact.SubtreeExecutor   = Subtrees{}
	_ partial.PartialExecutor = Partial{}
)

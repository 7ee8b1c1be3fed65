package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"tessera/edgematch"
)

// EdgeMatchItem is one puzzle of an edge-matching bench; Group names the
// size and colour count of a generated puzzle ("" for a file).
type EdgeMatchItem struct {
	Name, Group string
	Puzzle      *edgematch.Puzzle
}

// EdgeMatchRecord is one -json line of `edgematch bench`.
type EdgeMatchRecord struct {
	Puzzle      string  `json:"puzzle"`
	Score       int     `json:"score"`
	Max         int     `json:"max"`
	Solved      bool    `json:"solved"`
	Seconds     float64 `json:"seconds"`
	Nodes       int64   `json:"nodes"`
	Group       string  `json:"group,omitempty"`
	Iterations  int     `json:"lp_iterations,omitempty"`
	Permutation bool    `json:"lp_permutation,omitempty"`
	Method      string  `json:"lp_method,omitempty"`
	Variables   int     `json:"lp_variables,omitempty"`
	Error       string  `json:"error,omitempty"`
}

// EdgeMatchGroup aggregates the generated puzzles of one size and colour
// count.
type EdgeMatchGroup struct {
	Group          string  `json:"group"`
	Puzzles        int     `json:"puzzles"`
	Solved         int     `json:"solved"`
	Permutation    int     `json:"lp_permutation,omitempty"`
	MeanIterations float64 `json:"lp_mean_iterations,omitempty"`
	MeanVariables  float64 `json:"lp_mean_variables,omitempty"`
	MeanSeconds    float64 `json:"mean_seconds"`
}

// EdgeMatchSummary is the last -json line of `edgematch bench`. Its fields
// are in alphabetical order, the order of the lines written before it had a
// type (summary last).
type EdgeMatchSummary struct {
	Algo       string           `json:"algo"`
	CPUSeconds float64          `json:"cpu_seconds,omitempty"` // the process's, all workers
	Groups     []EdgeMatchGroup `json:"groups,omitempty"`
	Nodes      int64            `json:"nodes"`
	PerCPU     float64          `json:"placements_per_cpu_second,omitempty"`
	PerSecond  float64          `json:"placements_per_second,omitempty"`
	Puzzles    int              `json:"puzzles"`
	Seconds    float64          `json:"seconds"`
	Solved     int              `json:"solved"`
	Summary    bool             `json:"summary"`
}

// EdgeMatch is an edge-matching bench: every item solved in turn by Solver
// (which brings its own workers), each under Timeout of wall-clock time.
type EdgeMatch struct {
	Items   []EdgeMatchItem
	Algo    string // the catalogue id, for the summary
	Solver  edgematch.Solver
	Timeout time.Duration
	// Log, when set, receives a line per puzzle; Done is called after each.
	Log  func(format string, args ...any)
	Done func()
}

// Run solves the items and writes their records and the summary to w
// (whose Header it sets); it returns ctx's error if ctx ends first.
func (b *EdgeMatch) Run(ctx context.Context, w *Writer) error {
	lpCols := b.Algo == "lp"
	w.Header = "puzzle\tscore\tsolved\tseconds\tplacements\tM/s"
	if lpCols {
		w.Header += "\tLPs\tpermutation\tmethod"
	}
	w.Header += "\tnote"
	cpu0, _ := ProcessCPU()
	recs, err := Run(ctx, len(b.Items), Options{Workers: 1, Timeout: b.Timeout, Done: b.Done},
		func(ctx context.Context, i int) EdgeMatchRecord { return b.solve(ctx, b.Items[i]) },
		func(_ int, r *EdgeMatchRecord, _ time.Duration) error {
			if b.Log != nil {
				b.Log("%s: %d/%d, %.2f s", r.Puzzle, r.Score, r.Max, r.Seconds)
			}
			return w.Item(r, r.row(lpCols))
		})
	if err != nil {
		return err
	}
	cpu1, _ := ProcessCPU()
	s := EdgeMatchSummary{Summary: true, Algo: b.Algo, Puzzles: len(recs), CPUSeconds: Seconds(cpu1 - cpu0), Groups: edgeMatchGroups(recs)}
	for _, r := range recs {
		if r.Solved {
			s.Solved++
		}
		s.Seconds += r.Seconds
		s.Nodes += r.Nodes
	}
	if s.Seconds > 0 && s.Nodes > 0 {
		s.PerSecond = float64(s.Nodes) / s.Seconds
	}
	if s.CPUSeconds > 0 && s.Nodes > 0 {
		s.PerCPU = float64(s.Nodes) / s.CPUSeconds
	}
	return w.Summary(s, func(out io.Writer) { s.text(out, lpCols) })
}

// solve runs the bench's solver on one item.
func (b *EdgeMatch) solve(ctx context.Context, it EdgeMatchItem) EdgeMatchRecord {
	res, err := EdgeMatchSolve(ctx, b.Solver, it.Puzzle)
	r := EdgeMatchRecord{Puzzle: it.Name, Group: it.Group, Score: res.Score.Matched, Max: res.Score.Max,
		Solved: res.Score.Solved(), Seconds: Seconds(res.Stats.Elapsed), Nodes: res.Stats.Nodes}
	if l := res.LP; l != nil {
		r.Iterations, r.Permutation, r.Method, r.Variables = l.Iterations, l.Permutation, l.Method, l.Variables
	}
	if err != nil {
		r.Error = err.Error()
		if errors.Is(err, context.DeadlineExceeded) {
			r.Error = "stopped by -timeout " + b.Timeout.String()
		}
	}
	if res.Board == nil {
		r.Max = it.Puzzle.MaxScore()
	}
	return r
}

// EdgeMatchSolve runs s on p. A partial search ends when its time is up:
// that is its budget, not a failure, so its context's DeadlineExceeded is
// dropped.
func EdgeMatchSolve(ctx context.Context, s edgematch.Solver, p *edgematch.Puzzle) (edgematch.Result, error) {
	res, err := s.Solve(ctx, p)
	if _, anytime := s.(edgematch.Partial); anytime && errors.Is(err, context.DeadlineExceeded) {
		err = nil
	}
	return res, err
}

// row is the record's table row.
func (r *EdgeMatchRecord) row(lpCols bool) string {
	rate := 0.0
	if r.Seconds > 0 {
		rate = float64(r.Nodes) / r.Seconds / 1e6
	}
	line := fmt.Sprintf("%s\t%d/%d\t%v\t%.2f\t%d\t%.1f", r.Puzzle, r.Score, r.Max, r.Solved, r.Seconds, r.Nodes, rate)
	if lpCols {
		line += fmt.Sprintf("\t%d\t%v\t%s", r.Iterations, r.Permutation, r.Method)
	}
	return line + "\t" + r.Error
}

// text writes the summary paragraph and the table of groups.
func (s *EdgeMatchSummary) text(w io.Writer, lpCols bool) {
	fmt.Fprintf(w, "\n%d puzzles, %d solved, %.2f s, %d placements", s.Puzzles, s.Solved, s.Seconds, s.Nodes)
	if s.PerSecond > 0 {
		fmt.Fprintf(w, " (%.1f M/s)", s.PerSecond/1e6)
	}
	if s.CPUSeconds > 0 {
		fmt.Fprintf(w, "; %.2f s of CPU time", s.CPUSeconds)
		if s.PerCPU > 0 {
			fmt.Fprintf(w, " (%.1f M placements per CPU second)", s.PerCPU/1e6)
		}
	}
	fmt.Fprintln(w)
	if len(s.Groups) == 0 {
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	head := "group\tpuzzles\tsolved"
	if lpCols {
		head += "\tP a permutation\tmean LPs\tmean LP variables"
	}
	fmt.Fprintln(tw, head+"\tmean seconds")
	for _, g := range s.Groups {
		line := fmt.Sprintf("%s\t%d\t%d", g.Group, g.Puzzles, g.Solved)
		if lpCols {
			line += fmt.Sprintf("\t%d\t%.1f\t%.0f", g.Permutation, g.MeanIterations, g.MeanVariables)
		}
		fmt.Fprintf(tw, "%s\t%.2f\n", line, g.MeanSeconds)
	}
	tw.Flush()
}

// edgeMatchGroups aggregates the records of generated puzzles by group, in
// order of first appearance.
func edgeMatchGroups(recs []EdgeMatchRecord) []EdgeMatchGroup {
	var out []EdgeMatchGroup
	index := map[string]int{}
	for _, r := range recs {
		if r.Group == "" {
			continue
		}
		i, ok := index[r.Group]
		if !ok {
			i = len(out)
			index[r.Group] = i
			out = append(out, EdgeMatchGroup{Group: r.Group})
		}
		g := &out[i]
		g.Puzzles++
		if r.Solved {
			g.Solved++
		}
		if r.Permutation {
			g.Permutation++
		}
		g.MeanIterations += float64(r.Iterations)
		g.MeanVariables += float64(r.Variables)
		g.MeanSeconds += r.Seconds
	}
	for i := range out {
		n := float64(out[i].Puzzles)
		out[i].MeanIterations /= n
		out[i].MeanVariables /= n
		out[i].MeanSeconds /= n
	}
	return out
}

// EdgeMatchGenerated makes the puzzles of a generated bench: for every size
// ({rows, cols}) and colour count, n puzzles of kind g.Kind (with g.Frame
// and g.Rotate) from seeds g.Seed, g.Seed+1, ....
func EdgeMatchGenerated(g edgematch.GenerateOptions, sizes [][2]int, colours []int, n int) ([]EdgeMatchItem, error) {
	var items []EdgeMatchItem
	for _, sz := range sizes {
		for _, c := range colours {
			group := fmt.Sprintf("%dx%d c%d", sz[0], sz[1], c)
			if g.Rotate {
				group += " rotated"
			}
			for i := range n {
				o := g
				o.Rows, o.Cols, o.Colours, o.Seed = sz[0], sz[1], c, g.Seed+uint64(i)
				p, _, err := edgematch.Generate(o)
				if err != nil {
					return nil, err
				}
				items = append(items, EdgeMatchItem{Name: fmt.Sprintf("%s %dx%d c%d seed %d", o.Kind, o.Rows, o.Cols, c, o.Seed), Group: group, Puzzle: p})
			}
		}
	}
	return items, nil
}

// EdgeMatchFiles resolves a bench's puzzle list, each a file, a folder (its
// *.txt files) or a glob pattern; a relative one that names nothing is
// looked up in the data folder data ("": none).
func EdgeMatchFiles(list []string, data string) ([]string, error) {
	var files []string
	for _, item := range list {
		found, err := edgeMatchExpand(item)
		if err != nil {
			return nil, err
		}
		if len(found) == 0 && !filepath.IsAbs(item) && data != "" {
			if found, err = edgeMatchExpand(filepath.Join(data, item)); err != nil {
				return nil, err
			}
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("-set: %s: no puzzle files", item)
		}
		files = append(files, found...)
	}
	return files, nil
}

// edgeMatchExpand returns the .txt files named by a file, a folder or a glob
// pattern (an error only for a malformed pattern: filepath.ErrBadPattern).
func edgeMatchExpand(item string) ([]string, error) {
	if st, err := os.Stat(item); err == nil {
		if !st.IsDir() {
			return []string{item}, nil
		}
		return filepath.Glob(filepath.Join(item, "*.txt"))
	}
	m, err := filepath.Glob(item)
	if err != nil {
		return nil, fmt.Errorf("-set: %w", err)
	}
	return m, nil
}

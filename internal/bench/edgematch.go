package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"tessera/edgematch"
	"tessera/edgematch/exact"
	"tessera/internal/catalog"
)

// EdgeMatchItem is one puzzle of an edge-matching bench; Group names the
// size and colour count of a generated puzzle ("" for a file).
type EdgeMatchItem struct {
	Name, Group string
	Puzzle      *edgematch.Puzzle
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
// (which brings its own workers), each under Timeout of wall-clock time, in
// process or as "edgematch.solve" jobs on Remote's workers ("-nats").
type EdgeMatch struct {
	Items   []EdgeMatchItem
	Algo    string // the catalogue id, for the summary
	Solver  edgematch.Solver
	Timeout time.Duration
	// Log, when set, receives a line per puzzle; Done is called after each.
	Log  func(format string, args ...any)
	Done func()
	// Remote, when set, runs the solves as jobs on workers ("-nats"),
	// which build the solver Algo with Options (its hooks stay here).
	Remote  Remote
	Options catalog.EdgeMatchOptions
}

// Run solves the items and writes their records and the summary to w
// (whose Header it sets); it returns ctx's error if ctx ends first, and
// an error wrapping ErrEdgeMatchFailed when some puzzle failed: the solver
// returned an error (no solution, a budget ended dfs or lp, an LP too
// large). partial at its timeout has not failed.
func (b *EdgeMatch) Run(ctx context.Context, w *Writer) error {
	lpCols := b.Algo == "lp"
	w.Header = "puzzle\tscore\tsolved\tseconds\tplacements\tM/s"
	if lpCols {
		w.Header += "\tLPs\tpermutation\tmethod"
	}
	w.Header += "\tnote"
	cpu0, _ := catalog.ProcessCPU()
	recs, err := RunJobs(ctx, len(b.Items), Options{Workers: 1, Done: b.Done, Remote: b.Remote}, catalog.EdgeMatchKind, b.Timeout,
		func(ctx context.Context, in edgeMatchJob) catalog.EdgeMatchRecord {
			o := in.Solve(ctx, b.Solver, in.item.Puzzle)
			return o.Record()
		}, b.job,
		func(i int, r *catalog.EdgeMatchRecord) error {
			r.Group = b.Items[i].Group
			if b.Log != nil {
				b.Log("%s: %d/%d, %.2f s", r.Puzzle, r.Score, r.Max, r.Seconds)
			}
			return w.Item(r, edgeMatchRow(r, lpCols))
		})
	for i := range recs {
		recs[i].Group = b.Items[i].Group
	}
	if err != nil {
		return err
	}
	cpu1, _ := catalog.ProcessCPU()
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
	if err := w.Summary(s, func(out io.Writer) { s.text(out, lpCols) }); err != nil {
		return err
	}
	failed := 0
	for _, r := range recs {
		if r.Error != "" {
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("%w: %d of %d puzzles (see their notes)", ErrEdgeMatchFailed, failed, len(recs))
	}
	return nil
}

// ErrEdgeMatchFailed is returned by a bench's Run, after it has written every
// record and the summary, when some items failed (their records say why):
// the command's exit status is then 1.
var ErrEdgeMatchFailed = errors.New("failed")

// edgeMatchJob is one puzzle of a bench: the catalogue's job (the
// puzzle's text only when it travels) and, in process, the item.
type edgeMatchJob struct {
	catalog.EdgeMatchJob
	item EdgeMatchItem
}

// job returns item i's job.
func (b *EdgeMatch) job(i int) edgeMatchJob {
	it := b.Items[i]
	j := edgeMatchJob{EdgeMatchJob: catalog.EdgeMatchJob{Name: it.Name,
		Spec: catalog.Spec[catalog.EdgeMatchOptions]{Solver: b.Algo, Options: b.Options, Budget: catalog.Budget{Timeout: b.Timeout}}}, item: it}
	if b.Remote != nil {
		var buf strings.Builder
		it.Puzzle.WriteTo(&buf)
		j.Puzzle, j.item = buf.String(), EdgeMatchItem{}
	}
	return j
}

// EdgeMatchSolve runs s, the catalogue's solver algo, on p. An anytime
// search ends when its time is up: that is its budget, not a failure, so
// its context's DeadlineExceeded is dropped.
func EdgeMatchSolve(ctx context.Context, algo string, s edgematch.Solver, p *edgematch.Puzzle) (edgematch.Result, error) {
	res, err := s.Solve(ctx, p)
	if EdgeMatchAnytime(algo) && errors.Is(err, context.DeadlineExceeded) {
		err = nil
	}
	return res, err
}

// EdgeMatchAnytime reports whether the catalogue's solver algo is anytime
// (its entry's Anytime: partial, tiles, lns): it runs until its budget,
// and its deadline is not a failure.
func EdgeMatchAnytime(algo string) bool {
	e, err := catalog.EdgeMatch.Lookup(algo)
	return err == nil && e.Anytime
}

// row is the record's table row.
func edgeMatchRow(r *catalog.EdgeMatchRecord, lpCols bool) string {
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
func edgeMatchGroups(recs []catalog.EdgeMatchRecord) []EdgeMatchGroup {
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

// EdgeMatchGenerated makes the puzzles of a generated bench: n puzzles of
// kind g.Kind (with g.Frame and g.Rotate) from seeds g.Seed, g.Seed+1, ...
// for every size ("ROWSxCOLS") in the comma-separated list sizes and every
// colour count in colours. Its errors are mistakes in those parameters.
func EdgeMatchGenerated(g edgematch.GenerateOptions, sizes, colours string, n int) ([]EdgeMatchItem, error) {
	if g.Rotate && g.Kind != edgematch.Kovalsky {
		return nil, errors.New("-rotate applies to -kind kovalsky")
	}
	if n < 1 {
		return nil, errors.New("-n must be at least 1")
	}
	var items []EdgeMatchItem
	for _, sz := range strings.Split(sizes, ",") {
		rows, cols, err := edgematch.ParseSize(strings.TrimSpace(sz))
		if err != nil {
			return nil, err
		}
		for _, cs := range strings.Split(colours, ",") {
			c, err := strconv.Atoi(strings.TrimSpace(cs))
			if err != nil {
				return nil, fmt.Errorf("-colors %q: want numbers", colours)
			}
			group := fmt.Sprintf("%dx%d c%d", rows, cols, c)
			if g.Rotate {
				group += " rotated"
			}
			for i := range n {
				o := g
				o.Rows, o.Cols, o.Colours, o.Seed = rows, cols, c, g.Seed+uint64(i)
				p, _, err := edgematch.Generate(o)
				if err != nil {
					return nil, err
				}
				items = append(items, EdgeMatchItem{Name: fmt.Sprintf("%s %dx%d c%d seed %d", o.Kind, rows, cols, c, o.Seed), Group: group, Puzzle: p})
			}
		}
	}
	return items, nil
}

// EdgeMatchSet reads the puzzles of a bench's list, each item a file, a
// folder (its *.txt files) or a glob pattern; a relative one that names
// nothing is looked up in the data folder data ("": none). Each puzzle gets
// the first nhints hints of the file hints (none when hints is ""; all when
// nhints <= 0) and is named after its file.
func EdgeMatchSet(list []string, data, hints string, nhints int) ([]EdgeMatchItem, error) {
	var items []EdgeMatchItem
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
		for _, f := range found {
			p, err := edgematch.ReadPuzzleFile(f)
			if err == nil && hints != "" {
				err = p.AddHintsFile(hints, nhints)
			}
			if err != nil {
				return nil, err
			}
			items = append(items, EdgeMatchItem{Name: strings.TrimSuffix(filepath.Base(f), ".txt"), Puzzle: p})
		}
	}
	return items, nil
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

// EdgeMatchSolved is what `edgematch solve` reports: the outcome (whose
// Record is its -json object), and for Print its text, the LP backend and
// the file the board was saved to.
type EdgeMatchSolved struct {
	catalog.EdgeMatchOutcome
	Backend string // the LP backend's name (lp)
	Saved   string // the file the board was saved to
}

// Print writes the text report: the puzzle, the board, the score and the
// solver's statistics.
func (s *EdgeMatchSolved) Print(w io.Writer) {
	res, st := s.Result, s.Result.Stats
	fmt.Fprintf(w, "puzzle   %s: %s\n", s.Name, s.Puzzle.Describe())
	if res.Board.Filled() > 0 {
		fmt.Fprintf(w, "board\n\t%s\n", strings.ReplaceAll(strings.TrimSuffix(res.Board.String(), "\n"), "\n", "\n\t"))
	}
	state := "solved"
	if !res.Score.Solved() {
		state = fmt.Sprintf("%d mismatches", res.Score.Mismatches())
	}
	fmt.Fprintf(w, "score    %v (%s)\n", res.Score, state)
	if s.Options.Count {
		fmt.Fprintf(w, "count    %d solutions\n", st.Solutions)
	}
	if l := res.LP; l != nil {
		fmt.Fprintf(w, "lp       %d LPs (%s), %d variables, %d constraints; permutation: %v; %d fractional entries left; %.2f s in LPs\n",
			l.Iterations, s.Backend, l.Variables, l.Constraints, l.Permutation, l.Fractional, l.LPTime.Seconds())
		switch l.Method {
		case "lp+search":
			fmt.Fprintf(w, "method   %s (%d cells fixed from P, then the backtracker)\n", l.Method, l.Fixed)
		case "search":
			fmt.Fprintf(w, "method   %s (the backtracker alone, after fixing cells from P failed or was not possible)\n", l.Method)
		case "lp":
			fmt.Fprintf(w, "method   lp (P is a permutation: the LP alone solved the puzzle)\n")
		}
	}
	if s.Anytime() {
		if s.Algo == "lns" {
			fmt.Fprintf(w, "search   %d placements for the start boards, %d improvement moves, %.2f s, seed %d", st.Nodes, st.Moves, st.Elapsed.Seconds(), s.Options.Seed)
		} else {
			fmt.Fprintf(w, "search   %d placements (%.1f M/s), %d repair moves, %.2f s, seed %d", st.Nodes, st.NodesPerSecond()/1e6, st.Moves, st.Elapsed.Seconds(), s.Options.Seed)
		}
		switch s.StoppedBy() {
		case "timeout":
			fmt.Fprint(w, "; ended by -timeout (wall clock: another run may differ; -max-nodes, for lns -max-moves, is reproducible)")
		case "max-moves":
			fmt.Fprintf(w, "; ended by -max-moves %d (reproducible with this seed and worker count)", s.Options.MaxMoves)
		case "max-nodes":
			fmt.Fprintf(w, "; ended by -max-nodes %d per worker (reproducible with this seed and one worker)", s.Options.MaxNodes)
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "best     score %d first reached after %.2f s\n", res.Score.Matched, st.BestAt.Seconds())
	} else {
		fmt.Fprintf(w, "search   %d placements (%.1f M/s), %.2f s\n", st.Nodes, s.Rate()/1e6, st.Elapsed.Seconds())
	}
	if s.SplitDepth > 0 {
		fmt.Fprintf(w, "split    %d subtrees below the first %d cells of the scan\n", st.Subtrees, s.SplitDepth)
	}
	if s.Resumed > 0 {
		fmt.Fprintf(w, "journal  %d subtrees searched by earlier runs (%d of the placements; the rate is this run's)\n", s.Resumed, s.ResumedNodes)
	}
	if s.ShowURL {
		fmt.Fprintf(w, "viewer   %s\n", s.URL())
	}
	if s.Saved != "" {
		fmt.Fprintf(w, "saved    %s\n", s.Saved)
	}
}

// EdgeMatchEstimate is `edgematch estimate`: Knuth's estimate of the
// backtracker's tree on Puzzle in each of Scans, named by their order alone
// unless Corners (the 16 scans from every corner).
type EdgeMatchEstimate struct {
	Name    string // the puzzle file
	Puzzle  *edgematch.Puzzle
	Scans   []edgematch.Scan
	Corners bool
	Probes  int
	Seed    uint64
}

// EdgeMatchEstimateRecord is one -json line of `edgematch estimate`, its
// fields in the order they had before they had a type.
type EdgeMatchEstimateRecord struct {
	Complete int     `json:"complete"`
	Nodes    float64 `json:"nodes"`
	Order    string  `json:"order"`
	Probes   int     `json:"probes"`
	Seconds  float64 `json:"seconds"`
	StdErr   float64 `json:"stderr"`
}

// Run estimates every scan in turn and writes a line for each: JSON
// objects, or a table under a line naming the puzzle.
func (e *EdgeMatchEstimate) Run(ctx context.Context, w io.Writer, asJSON bool) error {
	width := 8
	if e.Corners {
		width = 46
	}
	if !asJSON {
		fmt.Fprintf(w, "%s: %s\n", e.Name, e.Puzzle.Describe())
		fmt.Fprintf(w, "%-*s %12s %10s %10s\n", width, "order", "tree nodes", "± (1 se)", "complete")
	}
	for _, sc := range e.Scans {
		est, err := exact.EstimateScan(ctx, e.Puzzle, sc, e.Probes, e.Seed)
		if err != nil {
			return err
		}
		name := sc.String()
		if !e.Corners {
			name = sc.Order.String()
		}
		if asJSON {
			err = WriteJSON(w, EdgeMatchEstimateRecord{Order: name, Nodes: est.Nodes, StdErr: est.StdErr, Probes: est.Probes, Complete: est.Complete, Seconds: Seconds(est.Elapsed)})
		} else {
			_, err = fmt.Fprintf(w, "%-*s %12.3g %10.2g %10d\n", width, name, est.Nodes, est.StdErr, est.Complete)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

package bench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"tessera/internal/catalog"
	"tessera/samegame"
)

// SameGameBoards draws n boards as "tessera samegame generate" does with
// the same seed, size and colours, named "position 1" to "position n";
// with prefix > 0 each board is then played 0 to prefix random clicks
// (uniformly), for positions off the optimal lines ("samegame dataset").
func SameGameBoards(n int, seed uint64, w, h, colors int, rules samegame.Rules, prefix int) []samegame.Entry {
	notation := samegame.Digits
	if rules == samegame.Dust {
		notation = samegame.Letters
	}
	rng := rand.New(rand.NewPCG(seed, 0x67656e)) // the generator of "samegame generate"
	entries := make([]samegame.Entry, n)
	for i := range entries {
		b := samegame.Random(w, h, colors, rules, rng)
		if prefix > 0 {
			for range rng.IntN(prefix + 1) {
				if gs := b.Moves(nil); len(gs) > 0 {
					b.PlayGroup(gs[rng.IntN(len(gs))])
				}
			}
		}
		entries[i] = samegame.Entry{Name: "position " + strconv.Itoa(i+1), Board: b, Notation: notation}
	}
	return entries
}

// SameGame is a bench of the cluster-clearing games: the boards List of
// Entries, each solved by every solver of Algos (catalogue ids) within
// Timeout. With one algorithm it prints a line per board and a summary
// (SameGameRecord, SameGameSummary); with several (or a Plot) it compares
// them (SameGameCompareRecord, SameGameCompareSummary).
type SameGame struct {
	Entries []samegame.Entry
	// List holds the 1-based numbers of the entries to run.
	List  []int
	Rules samegame.Rules
	Algos []string
	// Options are the solvers' (catalog.SameGame); Restart is set when
	// Timeout is.
	Options catalog.SameGameOptions
	// Timeout is each solve's budget (0: none), in CPU time of the
	// solving thread with CPU.
	Timeout time.Duration
	CPU     bool
	Workers int
	JSON    bool
	// Plot, when set, receives the comparison drawn as a PNG (SameGamePlot).
	Plot func(png []byte) error
	// Done, when set, is called after each solve (progress).
	Done func()
	// Remote, when set, runs the solves as jobs on workers ("-nats").
	Remote Remote
}

// SameGameRecord is one -json line of a bench of one algorithm: the
// catalogue's record of a solve.
type SameGameRecord = catalog.SameGameRecord

// SameGameSummary is the last -json line of a bench of one algorithm.
type SameGameSummary struct {
	Summary       bool    `json:"summary"`
	Boards        int     `json:"boards"`
	Total         int     `json:"total"`
	Seconds       float64 `json:"seconds"`
	Rules         string  `json:"rules"`
	Algo          string  `json:"algo"`
	Timeout       float64 `json:"timeout"`
	Workers       int     `json:"workers"`
	Proven        int     `json:"proven"`
	Cleared       int     `json:"cleared"`
	CPUSeconds    float64 `json:"cpu_seconds,omitempty"`
	MedianSeconds float64 `json:"median_seconds"`
	MedianCPU     float64 `json:"median_cpu_seconds,omitempty"`
	MaxCPU        float64 `json:"max_cpu_seconds,omitempty"`
	MaxSeconds    float64 `json:"max_seconds"`
	Known         int     `json:"known_optima,omitempty"`
	AtOptimum     int     `json:"at_optimum,omitempty"`
	WithinOne     int     `json:"within_one,omitempty"`
	Failed        int     `json:"failed,omitempty"`
}

// ErrSameGameFailed is returned (wrapped, with the count) by SameGame.Run
// after it printed everything, when a board failed: no solution within its
// budget, or a solver's error.
var ErrSameGameFailed = errors.New("bench: samegame boards failed")

// job is the a-th algorithm on the i-th listed board, as the job that
// solves it. The anytime searches use their whole budget (Restart).
func (s *SameGame) job(a, i int) catalog.SameGameJob {
	o := s.Options
	o.Restart = s.Timeout > 0
	e := s.Entries[s.List[i]-1]
	return catalog.SameGameJob{Spec: catalog.Spec[catalog.SameGameOptions]{Solver: s.Algos[a], Options: o,
		Budget: catalog.Budget{Timeout: s.Timeout, CPU: s.CPU}},
		Rules: e.Board.Rules().String(), Board: samegame.Format(e.Board, e.Notation), Name: e.Name, Number: s.List[i], Known: e.Optimal}
}

// check looks the algorithms up and checks the options, before any work.
func (s *SameGame) check() error {
	for _, id := range s.Algos {
		if _, err := catalog.SameGame.Lookup(id); err != nil {
			return err
		}
	}
	return s.Options.Check()
}

// runJobs solves the jobs job(j/len(List), j%len(List)) for j < n, here or
// on s.Remote's workers.
func (s *SameGame) runJobs(ctx context.Context, n int, workers int, emit func(i int, r *SameGameRecord) error) ([]SameGameRecord, error) {
	return RunJobs(ctx, n, Options{Workers: workers, Done: s.Done, Remote: s.Remote}, catalog.SameGameKind, s.Timeout,
		func(ctx context.Context, j catalog.SameGameJob) SameGameRecord {
			return j.Run(ctx, catalog.SameGameHooks{})
		},
		func(j int) catalog.SameGameJob { return s.job(j/len(s.List), j%len(s.List)) }, emit)
}

// Run runs the bench and prints it to w; with one algorithm it returns
// the records, in the order of List. When a board failed it returns, after
// printing everything, an error wrapping ErrSameGameFailed (with the
// records).
func (s *SameGame) Run(ctx context.Context, w io.Writer) ([]SameGameRecord, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if len(s.Algos) > 1 || s.Plot != nil {
		return nil, s.compare(ctx, w)
	}
	start := time.Now()
	cpuStart, _ := catalog.ProcessCPU()
	out := &Writer{W: w, JSON: s.JSON, AlignRight: true, Header: "board\tname\tscore\tclicks\tcleared\tplayouts\tseconds\t"}
	if s.Rules == samegame.Dust {
		out.Header = "board\tname\tclicks\toptimal\tknown\tnodes\tseconds\t"
	}
	var remoteCPU atomic.Int64
	recs, err := s.runJobs(ctx, len(s.List), s.Workers, func(i int, r *SameGameRecord) error {
		if s.Remote != nil {
			remoteCPU.Add(int64(r.CPUSeconds * float64(time.Second)))
		}
		return out.Item(r, sameGameRow(r, s.Rules))
	})
	if err != nil {
		return recs, err
	}
	sum := s.summarize(recs, time.Since(start))
	if cpuEnd, ok := catalog.ProcessCPU(); ok {
		sum.CPUSeconds = Seconds(cpuEnd - cpuStart + time.Duration(remoteCPU.Load()))
	}
	if err := out.Summary(sum, func(w io.Writer) { sum.print(w, s.Rules) }); err != nil {
		return recs, err
	}
	if sum.Failed > 0 {
		return recs, fmt.Errorf("%w: %d of %d", ErrSameGameFailed, sum.Failed, sum.Boards)
	}
	return recs, nil
}

// sameGameRow is the record's table row.
func sameGameRow(r *SameGameRecord, rules samegame.Rules) string {
	opt := "-"
	if r.Optimal != nil {
		opt = map[bool]string{true: "proven", false: "no"}[*r.Optimal]
	}
	note := ""
	if r.Error != "" {
		note = "  " + r.Error
	}
	if rules == samegame.Dust {
		known := "-"
		if r.Known > 0 {
			known = strconv.Itoa(r.Known)
		}
		return fmt.Sprintf("%d\t%s\t%d\t%s\t%s\t%d\t%.2f\t%s", r.Board, r.Name, r.Clicks, opt, known, r.Nodes, r.Seconds, note)
	}
	return fmt.Sprintf("%d\t%s\t%d\t%d\t%v\t%d\t%.2f\t%s", r.Board, r.Name, r.Score, r.Clicks, r.Cleared, r.Playouts, r.Seconds, note)
}

func (s *SameGame) summarize(recs []SameGameRecord, wall time.Duration) SameGameSummary {
	sum := SameGameSummary{Summary: true, Boards: len(recs), Seconds: Seconds(wall), Rules: s.Rules.String(), Algo: s.Algos[0],
		Timeout: Seconds(s.Timeout), Workers: s.Workers}
	var secs, cpus []float64
	for _, r := range recs {
		if r.CPUSeconds > 0 {
			cpus = append(cpus, r.CPUSeconds)
			sum.MaxCPU = max(sum.MaxCPU, r.CPUSeconds)
		}
		if s.Rules == samegame.Dust {
			sum.Total += r.Clicks
		} else {
			sum.Total += r.Score
		}
		if r.Proven() {
			sum.Proven++
		}
		if r.Cleared {
			sum.Cleared++
		}
		if r.Error != "" {
			sum.Failed++
		}
		if r.Known > 0 && s.Rules == samegame.Dust {
			sum.Known++
			if r.Cleared && r.Clicks == r.Known {
				sum.AtOptimum++
			}
			if r.Cleared && r.Clicks <= r.Known+1 {
				sum.WithinOne++
			}
		}
		secs = append(secs, r.Seconds)
		sum.MaxSeconds = max(sum.MaxSeconds, r.Seconds)
	}
	sum.MedianSeconds = Median(secs)
	sum.MedianCPU = Median(cpus)
	return sum
}

// print writes the summary paragraph under the table.
func (s SameGameSummary) print(w io.Writer, rules samegame.Rules) {
	fmt.Fprintf(w, "\n%d boards, %s rules, %s, -timeout %gs, %d workers: ", s.Boards, rules, s.Algo, s.Timeout, s.Workers)
	if rules == samegame.Dust {
		fmt.Fprintf(w, "%d clicks in total (mean %.2f), %d proven optimal", s.Total, float64(s.Total)/float64(max(1, s.Boards)), s.Proven)
		if s.Known > 0 {
			fmt.Fprintf(w, ", %d of %d at the known optimum, %d within one click", s.AtOptimum, s.Known, s.WithinOne)
		}
	} else {
		fmt.Fprintf(w, "total score %d, %d boards cleared", s.Total, s.Cleared)
	}
	fmt.Fprintf(w, "; median %.2f s, max %.2f s per board", s.MedianSeconds, s.MaxSeconds)
	if s.MedianCPU > 0 {
		fmt.Fprintf(w, " (CPU: median %.2f s, max %.2f s)", s.MedianCPU, s.MaxCPU)
	}
	fmt.Fprintf(w, "; %.1f s wall, %.1f s CPU in all\n", s.Seconds, s.CPUSeconds)
	if s.Failed > 0 {
		fmt.Fprintf(w, "%d boards failed\n", s.Failed)
	}
}

// SameGameSet writes the boards of list (1-based numbers into entries)
// with their solutions recs (in the order of list) as a set file: "optimal
// N" for the proven ones, then the moves with each group's colour and
// size. The header names the algorithm and timeout.
func SameGameSet(entries []samegame.Entry, list []int, recs []SameGameRecord, rules samegame.Rules, algo string, timeout time.Duration) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "# tessera samegame bench -algo %s -timeout %v: %d boards with their solutions\n", algo, timeout, len(list))
	for i, number := range list {
		e := entries[number-1]
		r := recs[i]
		name := e.Name
		if !strings.Contains(name, " ") {
			name = "board " + name
		}
		kind, label, _ := strings.Cut(name, " ")
		if kind != "position" && kind != "example" {
			kind, label = "position", strconv.Itoa(number)
		}
		notation := e.Notation
		fmt.Fprintf(&sb, "\n%s %s\nboard\n%s", kind, label, samegame.Format(e.Board, notation))
		switch {
		case rules == samegame.Dust && r.Proven():
			fmt.Fprintf(&sb, "optimal %d\n", r.Clicks)
		case e.Optimal > 0:
			fmt.Fprintf(&sb, "optimal %d\n", e.Optimal)
		}
		if rules == samegame.Standard {
			fmt.Fprintf(&sb, "score %d\n", r.Score)
		}
		moves, merr := samegame.ParseMoves(r.Moves)
		if res, err := samegame.Replay(e.Board, moves); err == nil && merr == nil {
			fmt.Fprintf(&sb, "moves %d\n", len(moves))
			for k, m := range moves {
				g := res.Removed[k]
				color := strconv.Itoa(int(g.Color))
				if notation == samegame.Letters {
					color = string(samegame.LetterColors[g.Color])
				}
				fmt.Fprintf(&sb, "%d %d %s %d\n", m.X, m.Y, color, g.Size)
			}
		}
	}
	return sb.String()
}

// SameGameDataset solves every entry with the solver algo within timeout
// (wall-clock), workers at a time, here or as jobs on remote's workers
// (nil: in-process), and returns them in the set format (SameGameSet) with
// the number solved optimally: training data for package policy
// ("samegame dataset").
func SameGameDataset(ctx context.Context, remote Remote, entries []samegame.Entry, rules samegame.Rules, algo string, o catalog.SameGameOptions,
	timeout time.Duration, workers int, done func()) (string, int, error) {
	bs := &SameGame{Entries: entries, Rules: rules, Algos: []string{algo}, Options: o, Timeout: timeout, Remote: remote, Done: done}
	if err := bs.check(); err != nil {
		return "", 0, err
	}
	bs.List, _ = ParseList("", len(entries)) // all
	recs, err := bs.runJobs(ctx, len(entries), workers, nil)
	if err != nil {
		return "", 0, err
	}
	return SameGameSet(entries, bs.List, recs, rules, algo, timeout), Count(recs, (*SameGameRecord).Proven), nil
}

// SameGameLabels runs samegame.BeamLabels on every entry (beam width,
// perDepth positions per depth) within timeout each, workers at a time
// (here, or as jobs on remote's workers; nil: in-process),
// and returns the labelled positions in the set format, each with its
// "left" and "good" lines, with the boards solved, the positions written
// and the boards left out for taking longer than timeout.
func SameGameLabels(ctx context.Context, remote Remote, entries []samegame.Entry, width, perDepth, workers int, timeout time.Duration,
	done func()) (text string, boards, total, skipped int, err error) {
	texts := make([]string, len(entries))
	var errs []error
	_, err = RunItems(ctx, len(entries), Options{Workers: workers, Done: done, Remote: remote}, SameGameLabelsJob,
		func(i int) sameGameLabelsItem {
			it := sameGameLabelsItem{Name: entries[i].Name, Width: width, PerDepth: perDepth, Timeout: timeout, entry: entries[i]}
			if remote != nil {
				it.Board, it.entry = samegame.Format(entries[i].Board, samegame.Letters), samegame.Entry{}
			}
			return it
		},
		func(i int, r *sameGameLabelsOut, _ time.Duration) error {
			switch {
			case r.Err != "":
				errs = append(errs, errors.New(r.Err))
			case r.Skipped:
				skipped++
			default:
				texts[i] = r.Text
				total += r.N
			}
			return nil
		})
	if err != nil {
		return "", 0, 0, 0, err
	}
	if err := errors.Join(errs...); err != nil {
		return "", 0, 0, 0, err
	}
	boards = len(entries) - skipped
	text = fmt.Sprintf("# tessera samegame dataset -labels %d -width %d: %d positions of %d boards\n", perDepth, width, total, boards) + strings.Join(texts, "")
	return text, boards, total, skipped, nil
}

// sameGameLabelsItem is one board to label: in-process its entry, as a
// job its text (dust rules, letters).
type sameGameLabelsItem struct {
	Name     string        `json:"name"`
	Board    string        `json:"board"`
	Width    int           `json:"width"`
	PerDepth int           `json:"per_depth"`
	Timeout  time.Duration `json:"timeout_ns"`

	entry samegame.Entry
}

// sameGameLabelsOut is a board's labelled positions in the set format, or
// why there are none.
type sameGameLabelsOut struct {
	Text    string `json:"text"`
	N       int    `json:"n"`
	Skipped bool   `json:"skipped,omitempty"`
	Err     string `json:"err,omitempty"`
}

// SameGameLabelsJob is the item kind of samegame dataset -labels
// ("bench.samegame.labels").
var SameGameLabelsJob = NewItem("bench.samegame.labels", func(ctx context.Context, in sameGameLabelsItem) sameGameLabelsOut {
	e := in.entry
	if e.Board == nil {
		b, err := samegame.ParseBoard(in.Board, samegame.Dust)
		if err != nil {
			return sameGameLabelsOut{Err: fmt.Sprintf("%s: %v", in.Name, err)}
		}
		e = samegame.Entry{Name: in.Name, Board: b, Notation: samegame.Letters}
	}
	bctx, cancel := context.WithTimeout(ctx, in.Timeout)
	labels, _, err := samegame.BeamLabels(bctx, e.Board, in.Width, in.PerDepth)
	cancel()
	if err != nil {
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			return sameGameLabelsOut{Skipped: true}
		}
		return sameGameLabelsOut{Err: fmt.Errorf("%s: %w", e.Name, err).Error()}
	}
	var sb strings.Builder
	for j, l := range labels {
		pos := e.Board.Clone()
		for _, m := range l.Moves {
			if _, err := pos.Play(m); err != nil {
				return sameGameLabelsOut{Err: fmt.Errorf("%s: %w", e.Name, err).Error()}
			}
		}
		good := make([]string, len(l.Good))
		for k, m := range l.Good {
			good[k] = fmt.Sprintf("%d,%d", m.X, m.Y)
		}
		fmt.Fprintf(&sb, "\n%s.%d\nboard\n%sleft %d\ngood %s\n", e.Name, j+1, samegame.Format(pos, samegame.Letters), l.Left, strings.Join(good, ";"))
	}
	return sameGameLabelsOut{Text: sb.String(), N: len(labels)}
})

// SameGameCompareRecord is one -json line of a bench of several
// algorithms: the clicks of each on one board, and the reference they are
// measured against.
type SameGameCompareRecord struct {
	Board  int                `json:"board"`
	Name   string             `json:"name"`
	Clicks map[string]int     `json:"clicks"`
	Secs   map[string]float64 `json:"seconds"`
	// Best is the proven optimum when Proven, else the fewest clicks any
	// algorithm (or the file's "optimal N") found.
	Best   int               `json:"best"`
	Proven bool              `json:"proven"`
	Errors map[string]string `json:"errors,omitempty"`
}

// SameGameCompareSummary is the last -json line of a bench of several
// algorithms.
type SameGameCompareSummary struct {
	Summary bool     `json:"summary"`
	Boards  int      `json:"boards"`
	Rules   string   `json:"rules"`
	Algos   []string `json:"algos"`
	Timeout float64  `json:"timeout"`
	Workers int      `json:"workers"`
	// Proven counts the boards whose optimum was proven (by exact or the
	// file); the others are measured against the best line found.
	Proven int `json:"proven"`
	// Cleared counts, per algorithm, the boards it cleared within its
	// limits; MeanClicks, MeanExcess (clicks over the reference) and
	// MeanSeconds are averages over those boards, AtBest counts the boards
	// at the reference.
	Cleared     map[string]int     `json:"cleared"`
	MeanClicks  map[string]float64 `json:"mean_clicks"`
	MeanExcess  map[string]float64 `json:"mean_excess"`
	AtBest      map[string]int     `json:"at_best"`
	AtOptimum   map[string]int     `json:"at_proven_optimum"`
	MeanSeconds map[string]float64 `json:"mean_seconds"`
	MsPerMove   map[string]float64 `json:"ms_per_move"`
	// Excess is the table of differences to the reference: for each
	// algorithm, the number of boards at each excess (index 0: at the
	// reference, 1: one click over, ...).
	Excess  map[string][]int `json:"excess"`
	Seconds float64          `json:"seconds"`
}

// compare runs every algorithm on every listed board (board and algorithm
// pairs shared among workers), prints one line per board with JSON and
// then the summary, or a table, and draws the plot.
func (s *SameGame) compare(ctx context.Context, w io.Writer) error {
	names, list := s.Algos, s.List
	start := time.Now()
	// Algorithm-major order: each algorithm's boards run together, so that
	// timings share conditions.
	flat, err := s.runJobs(ctx, len(list)*len(names), s.Workers, nil)
	if err != nil {
		return err
	}
	sum := SameGameCompareSummary{Summary: true, Boards: len(list), Rules: s.Rules.String(), Algos: names, Timeout: Seconds(s.Timeout),
		Workers: s.Workers, Cleared: map[string]int{}, MeanClicks: map[string]float64{}, MeanExcess: map[string]float64{}, AtBest: map[string]int{},
		AtOptimum: map[string]int{}, MeanSeconds: map[string]float64{}, MsPerMove: map[string]float64{},
		Excess: map[string][]int{}}
	lines := make([]SameGameCompareRecord, len(list))
	moves := make([]int, len(names))
	for i := range list {
		e := s.Entries[list[i]-1]
		r := SameGameCompareRecord{Board: list[i], Name: flat[i].Name, Clicks: map[string]int{}, Secs: map[string]float64{},
			Best: e.Optimal, Proven: e.Optimal > 0}
		for a := range names {
			rec := flat[a*len(list)+i]
			if rec.Error != "" {
				if r.Errors == nil {
					r.Errors = map[string]string{}
				}
				r.Errors[names[a]] = rec.Error
			}
			if !rec.Cleared {
				continue
			}
			r.Clicks[names[a]] = rec.Clicks
			r.Secs[names[a]] = rec.Seconds
			if rec.Proven() && s.Rules == samegame.Dust {
				r.Best, r.Proven = rec.Clicks, true
			}
			if !r.Proven && (r.Best == 0 || rec.Clicks < r.Best) {
				r.Best = rec.Clicks
			}
		}
		if r.Proven {
			sum.Proven++
		}
		for a, name := range names {
			c, ok := r.Clicks[name]
			if !ok {
				continue
			}
			sum.Cleared[name]++
			sum.MeanClicks[name] += float64(c)
			sum.MeanSeconds[name] += r.Secs[name]
			moves[a] += c
			d := max(c-r.Best, 0)
			sum.MeanExcess[name] += float64(d)
			for len(sum.Excess[name]) <= d {
				sum.Excess[name] = append(sum.Excess[name], 0)
			}
			sum.Excess[name][d]++
			if d == 0 {
				sum.AtBest[name]++
				if r.Proven {
					sum.AtOptimum[name]++
				}
			}
		}
		lines[i] = r
	}
	for a, name := range names {
		if n := float64(sum.Cleared[name]); n > 0 {
			sum.MsPerMove[name] = sum.MeanSeconds[name] * 1000 / float64(max(moves[a], 1))
			sum.MeanClicks[name] /= n
			sum.MeanExcess[name] /= n
			sum.MeanSeconds[name] /= n
		}
	}
	sum.Seconds = Seconds(time.Since(start))
	if s.Plot != nil {
		png, err := SameGamePlot(names, lines)
		if err != nil {
			return err
		}
		if err := s.Plot(png); err != nil {
			return err
		}
	}
	var fail error
	if failed := Count(flat, func(r *SameGameRecord) bool { return r.Error != "" }); failed > 0 {
		fail = fmt.Errorf("%w: %d of %d solves", ErrSameGameFailed, failed, len(flat))
	}
	if s.JSON {
		for _, r := range lines {
			if err := WriteJSON(w, r); err != nil {
				return err
			}
		}
		return cmp.Or(WriteJSON(w, sum), fail)
	}
	sum.Print(w, s.Timeout)
	return fail
}

// Print prints the table of differences to the reference.
func (s SameGameCompareSummary) Print(w io.Writer, timeout time.Duration) {
	rows := 0
	for _, e := range s.Excess {
		rows = max(rows, len(e))
	}
	fmt.Fprintf(w, "%d boards, %s rules, -timeout %v per solve: the optimum is proven on %d, the others are measured against the fewest clicks found;\nthe means are over the boards each algorithm cleared\n\n",
		s.Boards, s.Rules, timeout, s.Proven)
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "clicks over the best\t%s\t\n", strings.Join(s.Algos, "\t"))
	for d := range rows {
		label := "+" + strconv.Itoa(d)
		if d == 0 {
			label = "0 (best)"
		}
		fmt.Fprintf(tw, "%s\t", label)
		for _, a := range s.Algos {
			n := 0
			if d < len(s.Excess[a]) {
				n = s.Excess[a][d]
			}
			fmt.Fprintf(tw, "%d\t", n)
		}
		fmt.Fprintln(tw)
	}
	row := func(label string, f func(a string) string) {
		fmt.Fprintf(tw, "%s\t", label)
		for _, a := range s.Algos {
			fmt.Fprintf(tw, "%s\t", f(a))
		}
		fmt.Fprintln(tw)
	}
	mean := func(label, format string, v map[string]float64) { // over the cleared boards: none, no mean
		row(label, func(a string) string {
			if s.Cleared[a] == 0 {
				return "–"
			}
			return fmt.Sprintf(format, v[a])
		})
	}
	if slices.ContainsFunc(s.Algos, func(a string) bool { return s.Cleared[a] < s.Boards }) {
		row("not cleared", func(a string) string { return strconv.Itoa(s.Boards - s.Cleared[a]) })
	}
	row("at a proven optimum", func(a string) string { return strconv.Itoa(s.AtOptimum[a]) })
	mean("mean clicks", "%.2f", s.MeanClicks)
	mean("mean excess", "%.2f", s.MeanExcess)
	mean("seconds per board", "%.3f", s.MeanSeconds)
	mean("ms per click", "%.2f", s.MsPerMove)
	tw.Flush()
	fmt.Fprintf(w, "\n%.1f s wall\n", s.Seconds)
}

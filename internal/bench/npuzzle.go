package bench

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"tessera/internal/catalog"
	"tessera/npuzzle"
)

// NpuzzleMethod is one solver of the source game's comparison: a catalogue
// entry with options, under the label the comparison has always printed.
type NpuzzleMethod struct {
	Name   string
	Source string // the source's figure for states searched, if any
	ID     string // catalog.Npuzzle id
	Opts   catalog.NpuzzleOptions
}

// NpuzzleMethods are the source's comparison plus IDA* with linear conflict.
var NpuzzleMethods = []NpuzzleMethod{
	{"BFS", "~100,000", "bfs", catalog.NpuzzleOptions{}},
	{"bidirectional BFS", "~3,500", "bibfs", catalog.NpuzzleOptions{}},
	{"A* (Manhattan x 5)", "~300", "wastar", catalog.NpuzzleOptions{}},
	{"A* (Manhattan)", "", "astar", catalog.NpuzzleOptions{Heuristic: "manhattan"}},
	{"IDA* (linear conflict)", "", "idastar", catalog.NpuzzleOptions{}},
}

// NpuzzleCompareRecord is one -json line of the comparison: one board,
// one method (its label) and the catalogue's record.
type NpuzzleCompareRecord struct {
	Method string `json:"method"`
	catalog.NpuzzleRecord
}

// NpuzzleMethodSummary aggregates one method over the boards.
type NpuzzleMethodSummary struct {
	Method         string  `json:"method"`
	Solved         int     `json:"solved"`
	Optimal        int     `json:"optimal"`
	MeanExpanded   float64 `json:"mean_expanded"`
	MedianExpanded float64 `json:"median_expanded"`
	MeanGenerated  float64 `json:"mean_generated"`
	MeanSeconds    float64 `json:"mean_seconds"`
	MedianSeconds  float64 `json:"median_seconds"`
	MeanLength     float64 `json:"mean_length"`
	Source         string  `json:"source_states,omitempty"`
}

// NpuzzleCompareSummary is the last -json line of the comparison (its
// fields in the order the bench has always written them).
type NpuzzleCompareSummary struct {
	Boards  int                    `json:"boards"`
	Methods []NpuzzleMethodSummary `json:"methods"`
	Seed    uint64                 `json:"seed"`
	Size    string                 `json:"size"`
	Summary bool                   `json:"summary"`
	Uniform bool                   `json:"uniform"`
}

// NpuzzleMaxBoards bounds the boards of a bench (-n): every board's
// records are kept for the medians.
const NpuzzleMaxBoards = 100_000

// NpuzzleRandom draws n boards of size s for goal g from seed: uniformly
// among the solvable boards, or by the game's random walk of
// npuzzle.WalkLength(s) moves. The same seed gives the same boards as
// `tessera npuzzle shuffle` draws first. It panics if n is above
// NpuzzleMaxBoards (the caller bounds the count first).
func NpuzzleRandom(s npuzzle.Size, g npuzzle.Goal, n int, uniform bool, seed uint64) []npuzzle.Instance {
	if n > NpuzzleMaxBoards {
		panic(fmt.Sprintf("bench: %d boards, more than NpuzzleMaxBoards", n))
	}
	d := newNpuzzleDraw(s, g, uniform, seed)
	set := make([]npuzzle.Instance, 0, n)
	for i := range n {
		set = append(set, npuzzle.Instance{Number: i + 1, Published: -1, Board: d.board(i)})
	}
	return set
}

// npuzzleDraw draws the boards of NpuzzleRandom one at a time, in order,
// keeping only the last: a bench holds one board, not all of them.
type npuzzleDraw struct {
	mu      sync.Mutex
	rng     *rand.Rand
	size    npuzzle.Size
	goal    npuzzle.Goal
	uniform bool
	drawn   int // boards drawn so far
	last    *npuzzle.Board
}

func newNpuzzleDraw(s npuzzle.Size, g npuzzle.Goal, uniform bool, seed uint64) *npuzzleDraw {
	return &npuzzleDraw{rng: npuzzle.ShuffleRNG(seed), size: s, goal: g, uniform: uniform}
}

// board returns board i (from 0); i must be the last board drawn or a later one.
func (d *npuzzleDraw) board(i int) *npuzzle.Board {
	d.mu.Lock()
	defer d.mu.Unlock()
	if i < d.drawn-1 {
		panic("bench: npuzzle boards drawn out of order")
	}
	for d.drawn <= i {
		if d.uniform {
			d.last = npuzzle.Random(d.size, d.goal, d.rng)
		} else {
			d.last = npuzzle.RandomWalk(d.size, d.goal, npuzzle.WalkLength(d.size), d.rng)
		}
		d.drawn++
	}
	return d.last
}

// NpuzzleCompare is `tessera npuzzle bench` without a chosen solver: the
// methods of NpuzzleMethods on Boards random boards of one size, one solve
// at a time, each within Timeout; it prints a line per board and method
// under JSON, then the summary of each method (a table otherwise).
type NpuzzleCompare struct {
	Size    npuzzle.Size
	Boards  int
	Seed    uint64
	Uniform bool
	Timeout time.Duration
	JSON    bool
	Done    func() // after each solve, for progress
	// Remote, when set, runs the solves as jobs on workers ("-nats").
	Remote Remote
}

// Run runs the comparison and prints it on w.
//
// Boards must be from 1 to NpuzzleMaxBoards; the boards are drawn as the
// solves reach them. It returns an error after printing everything when a
// solve failed (its budget ended, or a memory bound).
func (c NpuzzleCompare) Run(ctx context.Context, w io.Writer) error {
	if c.Boards < 1 || c.Boards > NpuzzleMaxBoards {
		return fmt.Errorf("bench: %d boards: want 1 to %d", c.Boards, NpuzzleMaxBoards)
	}
	boards := newNpuzzleDraw(c.Size, npuzzle.BlankLast, c.Uniform, c.Seed)
	out := &Writer{W: w, JSON: c.JSON, AlignRight: true,
		Header: "method\tsolved\texpanded mean\texpanded median\tgenerated mean\tms mean\tms median\tlength mean\toptimal\tsource states\t"}
	k := len(NpuzzleMethods)
	line := func(j int) string { return boards.board(j).Line() }
	if c.Remote != nil {
		// Jobs are made concurrently: draw the boards first.
		lines := make([]string, c.Boards)
		for j := range lines {
			lines[j] = boards.board(j).Line()
		}
		line = func(j int) string { return lines[j] }
	}
	job := func(i int) catalog.NpuzzleJob {
		m := NpuzzleMethods[i%k]
		return catalog.NpuzzleJob{Spec: catalog.Spec[catalog.NpuzzleOptions]{Solver: m.ID, Options: m.Opts, Budget: catalog.Budget{Timeout: c.Timeout}},
			Board: line(i / k), Size: c.Size.String(), Number: i/k + 1}
	}
	recs, err := RunJobs(ctx, c.Boards*k, Options{Workers: 1, Done: c.Done, Remote: c.Remote}, catalog.NpuzzleKind, c.Timeout,
		func(ctx context.Context, j catalog.NpuzzleJob) catalog.NpuzzleRecord {
			return j.Run(ctx, catalog.NpuzzleHooks{})
		}, job,
		func(i int, r *catalog.NpuzzleRecord) error {
			if c.JSON {
				return out.Item(NpuzzleCompareRecord{Method: NpuzzleMethods[i%k].Name, NpuzzleRecord: *r}, "")
			}
			return nil
		})
	if err != nil {
		return err
	}
	sum := NpuzzleCompareSummary{Boards: c.Boards, Seed: c.Seed, Size: c.Size.String(), Summary: true, Uniform: c.Uniform}
	optimalLen := 0
	for m, method := range NpuzzleMethods {
		var mine []catalog.NpuzzleRecord
		for i := m; i < len(recs); i += k {
			mine = append(mine, recs[i])
			if m == 0 && recs[i].Error == "" && recs[i].Optimal {
				optimalLen += recs[i].Length
			}
		}
		sum.Methods = append(sum.Methods, summarizeNpuzzle(method, mine))
	}
	var fail error
	if failed := Count(recs, func(r *catalog.NpuzzleRecord) bool { return r.Error != "" }); failed > 0 {
		fail = fmt.Errorf("bench: %d of %d solves failed (see the error of each)", failed, len(recs))
	}
	if c.JSON {
		return cmp.Or(out.Summary(sum, nil), fail)
	}
	fmt.Fprintf(w, "%v, %d %s boards, seed %d, mean optimal length %.2f\n\n", c.Size, c.Boards, drawKind(c.Uniform), c.Seed,
		float64(optimalLen)/float64(max(1, sum.Methods[0].Solved)))
	for _, r := range sum.Methods {
		out.Item(nil, fmt.Sprintf("%s\t%d\t%.0f\t%.0f\t%.0f\t%.2f\t%.2f\t%.2f\t%d\t%s\t", r.Method, r.Solved, r.MeanExpanded, r.MedianExpanded,
			r.MeanGenerated, 1000*r.MeanSeconds, 1000*r.MedianSeconds, r.MeanLength, r.Optimal, r.Source))
	}
	return cmp.Or(out.Summary(nil, nil), fail)
}

// drawKind names how random boards are drawn.
func drawKind(uniform bool) string {
	return map[bool]string{true: "uniformly random", false: "random-walk"}[uniform]
}

// summarizeNpuzzle aggregates the records of one method.
func summarizeNpuzzle(m NpuzzleMethod, recs []catalog.NpuzzleRecord) NpuzzleMethodSummary {
	s := NpuzzleMethodSummary{Method: m.Name, Source: m.Source}
	var exp, secs []float64
	for _, r := range recs {
		if r.Error != "" {
			continue
		}
		s.Solved++
		if r.Optimal {
			s.Optimal++
		}
		exp = append(exp, float64(r.Expanded))
		secs = append(secs, r.Seconds)
		s.MeanGenerated += float64(r.Generated)
		s.MeanLength += float64(r.Length)
	}
	if s.Solved > 0 {
		k := float64(s.Solved)
		s.MeanExpanded, s.MedianExpanded = Mean(exp), Median(exp)
		s.MeanSeconds, s.MedianSeconds = Mean(secs), Median(secs)
		s.MeanGenerated /= k
		s.MeanLength /= k
	}
	return s
}

// NpuzzleSetSummary is the last -json line of a bench with one solver.
type NpuzzleSetSummary struct {
	Summary       bool    `json:"summary"`
	Instances     int     `json:"instances"`
	Matched       int     `json:"matched"`
	Nodes         int64   `json:"nodes"`
	Seconds       float64 `json:"seconds"`
	SetupSeconds  float64 `json:"setup_seconds"`
	Solved        int     `json:"solved"`
	MeanLength    float64 `json:"mean_length"`
	MeanPublished float64 `json:"mean_published,omitempty"` // over the solved instances that have one
	MaxSeconds    float64 `json:"max_seconds"`
	CPUSeconds    float64 `json:"cpu_seconds,omitempty"`
	MaxCPUSeconds float64 `json:"max_cpu_seconds,omitempty"`
	Set           string  `json:"set"`
	Size          string  `json:"size"`
	Goal          string  `json:"goal"`
	Solver        string  `json:"solver"`
	Workers       int     `json:"workers"`
	// Journaled is how many of the instances solved come from the journal
	// (solved by earlier runs); Unsolved the instances chosen not solved
	// yet, and ProjectedCPUSeconds the CPU time they would take, projected
	// from the reference node counts (NpuzzleSet.Reference) scaled by this
	// solver's nodes and rate on the instances solved.
	Journaled           int     `json:"journaled,omitempty"`
	Unsolved            []int   `json:"unsolved,omitempty"`
	ProjectedCPUSeconds float64 `json:"projected_cpu_seconds,omitempty"`

	total, published, withPublished int
	solvedAt                        map[int]catalog.NpuzzleRecord
}

// add counts an instance's record.
func (sum *NpuzzleSetSummary) add(rec catalog.NpuzzleRecord) {
	if rec.Solved {
		sum.Solved++
		sum.total += rec.Length
		if rec.Published >= 0 {
			sum.published += rec.Published
			sum.withPublished++
		}
		if sum.solvedAt == nil {
			sum.solvedAt = map[int]catalog.NpuzzleRecord{}
		}
		sum.solvedAt[rec.Instance] = rec
	} else if rec.Instance > 0 {
		sum.Unsolved = append(sum.Unsolved, rec.Instance)
	}
	sum.Instances++
	if rec.Matched {
		sum.Matched++
	}
	sum.Nodes += rec.Generated
	sum.Seconds += rec.Seconds
	sum.MaxSeconds = max(sum.MaxSeconds, rec.Seconds)
	sum.CPUSeconds += rec.CPUSeconds
	sum.MaxCPUSeconds = max(sum.MaxCPUSeconds, rec.CPUSeconds)
}

// finish works out the means and, given reference node counts, the
// projection: the unsolved instances' reference nodes, times this
// solver's nodes per reference node and divided by its nodes per CPU-second
// (or per second where CPU time is not measured), both over the instances
// solved that have a reference.
func (sum *NpuzzleSetSummary) finish(ref map[int]int64) {
	if sum.Solved > 0 {
		sum.MeanLength = float64(sum.total) / float64(sum.Solved)
	}
	if sum.withPublished > 0 {
		sum.MeanPublished = float64(sum.published) / float64(sum.withPublished)
	}
	var refNodes, nodes int64
	var secs float64
	for n, r := range sum.solvedAt {
		if rn, ok := ref[n]; ok && rn > 0 {
			refNodes += rn
			nodes += r.Generated
			secs += cmp.Or(r.CPUSeconds, r.Seconds)
		}
	}
	if refNodes == 0 || nodes == 0 || secs == 0 {
		return
	}
	for _, n := range sum.Unsolved {
		sum.ProjectedCPUSeconds += float64(ref[n]) * float64(nodes) / float64(refNodes) / (float64(nodes) / secs)
	}
}

// NpuzzleSet is `tessera npuzzle bench` with one solver: on the instances
// of a set file (npuzzle.ParseSet) or on random boards (NpuzzleRandom), one
// after the other, each within Timeout. It prints a line per instance
// (length, published length, nodes generated without the root, seconds and
// CPU seconds of search) and the totals.
type NpuzzleSet struct {
	Title     string // the first line of the table ("korf100.txt: 4x4 boards, goal blank-first (from the boards)")
	Set       string // the set file, for the summary ("" for random boards)
	Instances []npuzzle.Instance
	Goal      npuzzle.Goal
	// Algo and Options are the catalogue's solver and its options; PDB the
	// pattern database of Options.Partition, loaded by the caller (nil:
	// none), and Setup the seconds its load took.
	Algo    string
	Options catalog.NpuzzleOptions
	PDB     *npuzzle.PDB
	Setup   float64
	// Workers is the solver's workers, reported; above 1 the CPU time is
	// the process's, else the solving thread's.
	Workers int
	Timeout time.Duration
	JSON    bool
	Done    func() // after each instance, for progress
	// Remote, when set, solves the instances as jobs on workers ("-nats",
	// catalog.NpuzzleKind), which load the pattern database of
	// Options.Partition from their own cache (the user's cache folder
	// there: built on a first use, as here).
	Remote Remote
	// Journal, when set, gives the instances solved by earlier runs, which
	// are reported and not solved again, and records this run's.
	Journal *NpuzzleJournal
	// Reference, when set, holds published node counts by instance (such
	// as Korf and Felner's), from which the summary projects the CPU time
	// of the instances not solved.
	Reference map[int]int64
}

// job is instance i's job.
func (s NpuzzleSet) job(i int) catalog.NpuzzleJob {
	inst := s.Instances[i]
	return catalog.NpuzzleJob{Spec: catalog.Spec[catalog.NpuzzleOptions]{Solver: s.Algo, Options: s.Options, Budget: catalog.Budget{Timeout: s.Timeout}},
		Board: inst.Board.Line(), Size: inst.Board.Size().String(), Goal: s.Goal.String(), Number: inst.Number, Published: inst.Published}
}

// Run runs the bench and prints it on w. It returns an error after
// printing everything when an instance failed.
func (s NpuzzleSet) Run(ctx context.Context, w io.Writer) error {
	solver, err := catalog.Npuzzle.New(s.Algo, catalog.NpuzzleRun{NpuzzleOptions: s.Options, Hooks: catalog.NpuzzleHooks{PDB: s.PDB}})
	if err != nil {
		return err
	}
	sum := NpuzzleSetSummary{Summary: true, Set: s.Set, Size: s.Instances[0].Board.Size().String(), Goal: s.Goal.String(),
		Solver: fmt.Sprint(solver), SetupSeconds: s.Setup, Workers: s.Workers}
	out := &Writer{W: w, JSON: s.JSON, AlignRight: true, Header: "instance\tlength\tpublished\tmatch\tnodes\tseconds\tCPU s\t"}
	if !s.JSON {
		fmt.Fprintf(w, "%s, %s, setup %.1f s\n\n", s.Title, sum.Solver, s.Setup)
	}
	var todo []int
	add := func(rec catalog.NpuzzleRecord) error {
		sum.add(rec)
		return out.Item(rec, setRow(rec))
	}
	for i, inst := range s.Instances {
		if r, ok := s.Journal.Solved(inst.Number); ok {
			sum.Journaled++
			if err := add(r); err != nil {
				return err
			}
			continue
		}
		todo = append(todo, i)
	}
	_, err = RunJobs(ctx, len(todo), Options{Workers: 1, Done: s.Done, Remote: s.Remote}, catalog.NpuzzleKind, s.Timeout,
		func(ctx context.Context, j catalog.NpuzzleJob) catalog.NpuzzleRecord {
			return j.Run(ctx, catalog.NpuzzleHooks{PDB: s.PDB})
		},
		func(i int) catalog.NpuzzleJob { return s.job(todo[i]) },
		func(i int, r *catalog.NpuzzleRecord) error {
			if r.Error != "" && ctx.Err() != nil {
				return ctx.Err() // interrupted, not a failed instance
			}
			if r.Stopped == "time" {
				r.Error = fmt.Sprintf("no solution within -timeout %v", s.Timeout)
			}
			if s.Journal != nil {
				s.Journal.Add(*r)
			}
			return add(*r)
		})
	if err != nil {
		return err
	}
	sum.finish(s.Reference)
	var fail error
	if sum.Solved < sum.Instances {
		fail = fmt.Errorf("bench: %d of %d instances failed", sum.Instances-sum.Solved, sum.Instances)
	}
	return cmp.Or(out.Summary(sum, func(w io.Writer) { printSetSummary(w, sum) }), fail)
}

// setRow is an instance's row of the table.
func setRow(r catalog.NpuzzleRecord) string {
	match, length, published := "yes", strconv.Itoa(r.Length), "-"
	if r.Published >= 0 {
		published = strconv.Itoa(r.Published)
	}
	switch {
	case r.Error != "":
		match, length = r.Error, "-"
	case r.Published < 0:
		match = ""
	case !r.Matched:
		match = "no"
	}
	return fmt.Sprintf("%d\t%s\t%s\t%s\t%d\t%.3f\t%.3f\t", r.Instance, length, published, match, r.Generated, r.Seconds, r.CPUSeconds)
}

func printSetSummary(w io.Writer, s NpuzzleSetSummary) {
	fmt.Fprintf(w, "\nsolved %d of %d, mean length %.2f", s.Solved, s.Instances, s.MeanLength)
	if s.MeanPublished > 0 {
		fmt.Fprintf(w, "; %d at the published length (mean %.2f on the instances solved)", s.Matched, s.MeanPublished)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%d nodes generated, %.2f s of search (longest %.2f s), %.0f nodes/s; setup %.1f s\n",
		s.Nodes, s.Seconds, s.MaxSeconds, float64(s.Nodes)/max(s.Seconds, 1e-9), s.SetupSeconds)
	if s.CPUSeconds > 0 {
		fmt.Fprintf(w, "CPU time of the search: %.2f s (longest %.2f s), %.0f nodes per CPU-second\n",
			s.CPUSeconds, s.MaxCPUSeconds, float64(s.Nodes)/s.CPUSeconds)
	}
	if s.Journaled > 0 {
		fmt.Fprintf(w, "%d of the instances solved come from the journal (earlier runs; their times are theirs)\n", s.Journaled)
	}
	if s.ProjectedCPUSeconds > 0 {
		fmt.Fprintf(w, "not solved yet: %d instances, projected %.0f CPU-seconds (%.2f CPU-hours) from the reference node counts at this solver's nodes and rate\n",
			len(s.Unsolved), s.ProjectedCPUSeconds, s.ProjectedCPUSeconds/3600)
	}
}

package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"tessera/internal/bench"
	"tessera/npuzzle"
)

// setInstance is one line of a benchmark set file.
type setInstance struct {
	number    int // 1-based line number among the instances
	board     *npuzzle.Board
	published int // the published optimal length, -1 if the file has none
}

// readSet reads a set file: one board per line, its tiles row-major (0 for
// the blank) on a square board, optionally followed by the published
// optimal length; blank lines and lines starting with # are skipped.
func readSet(path string) ([]setInstance, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []setInstance
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		inst := setInstance{number: len(out) + 1, published: -1}
		tiles := fields
		if side := isqrt(len(fields) - 1); side*side == len(fields)-1 && side >= npuzzle.MinSide {
			tiles = fields[:len(fields)-1]
			p, err := strconv.Atoi(fields[len(fields)-1])
			if err != nil || p < 0 {
				return nil, fmt.Errorf("%s:%d: the published length %q is not a number", path, line, fields[len(fields)-1])
			}
			inst.published = p
		}
		side := isqrt(len(tiles))
		b, err := npuzzle.Parse(strings.Join(tiles, " "), npuzzle.Size{Rows: side, Cols: side})
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		inst.board = b
		out = append(out, inst)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no instances", path)
	}
	for _, inst := range out[1:] {
		if inst.board.Size() != out[0].board.Size() {
			return nil, fmt.Errorf("%s: instance %d is %v, instance 1 %v: one size per set", path, inst.number, inst.board.Size(), out[0].board.Size())
		}
	}
	return out, nil
}

func isqrt(n int) int {
	if n < 0 {
		return -1
	}
	return int(math.Round(math.Sqrt(float64(n))))
}

// setGoal tells the goal of a set file: from its name (blank-last,
// blank-first), else from a README.md beside it that names the file on a
// line saying blank-first, top-left, blank-last or bottom-right, else from
// the boards: the one goal for which every board is solvable and every
// published length has the parity of the Manhattan distance.
func setGoal(path string, set []setInstance) (npuzzle.Goal, string, error) {
	base := filepath.Base(path)
	switch {
	case strings.Contains(base, "blank-last"):
		return npuzzle.BlankLast, "file name", nil
	case strings.Contains(base, "blank-first"):
		return npuzzle.BlankFirst, "file name", nil
	}
	if readme, err := os.ReadFile(filepath.Join(filepath.Dir(path), "README.md")); err == nil {
		for line := range strings.SplitSeq(string(readme), "\n") {
			if !strings.Contains(line, "`"+base+"`") {
				continue
			}
			l := strings.ToLower(line)
			first := strings.Contains(l, "blank-first") || strings.Contains(l, "top-left")
			last := strings.Contains(l, "blank-last") || strings.Contains(l, "bottom-right")
			if first != last {
				if first {
					return npuzzle.BlankFirst, "README.md", nil
				}
				return npuzzle.BlankLast, "README.md", nil
			}
		}
	}
	var fits []npuzzle.Goal
	for _, g := range []npuzzle.Goal{npuzzle.BlankLast, npuzzle.BlankFirst} {
		ok := true
		for _, inst := range set {
			md := npuzzle.Estimate(inst.board, g, npuzzle.Manhattan)
			if !npuzzle.Solvable(inst.board, g) || (inst.published >= 0 && (inst.published < md || (inst.published-md)%2 != 0)) {
				ok = false
				break
			}
		}
		if ok {
			fits = append(fits, g)
		}
	}
	if len(fits) == 1 {
		return fits[0], "boards", nil
	}
	return 0, "", usagef("cannot tell the goal of %s from its name, a README.md or its boards: give -goal blank-last or blank-first", path)
}

// parseInstances reads a list such as "1-10,38,40" of instance numbers.
func parseInstances(s string, n int) (map[int]bool, error) {
	if s == "" {
		return nil, nil
	}
	keep := map[int]bool{}
	for part := range strings.SplitSeq(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err1 := strconv.Atoi(lo)
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 1 || b > n || a > b {
			return nil, usagef("-instances: %q is not a number or range within 1..%d", part, n)
		}
		for i := a; i <= b; i++ {
			keep[i] = true
		}
	}
	return keep, nil
}

// setRecord is one -json line of npuzzle bench -set.
type setRecord struct {
	Instance  int     `json:"instance"`
	Length    int     `json:"length"`
	Published int     `json:"published"`
	Nodes     int64   `json:"nodes"`
	Seconds   float64 `json:"seconds"`
	// CPUSeconds is the CPU time of the search (Linux only): of the solving
	// thread, or of the process with -workers above 1.
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
	Matched    bool    `json:"matched"`
	Optimal    bool    `json:"optimal"`
	Expanded   int64   `json:"expanded"`
	Moves      string  `json:"moves,omitempty"`
	Error      string  `json:"error,omitempty"`
}

// setSummary is the last -json line of npuzzle bench -set.
type setSummary struct {
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
}

// setBench is the configuration of npuzzle bench with one solver: on a set
// file (-set) or on random boards.
type setBench struct {
	path      string
	goal      string // "auto" or a goal
	instances string
	solver    solverFlags
	timeout   time.Duration
	asJSON    bool
	progress  bool
}

// runFile reads the set file and runs it.
func (sb *setBench) runFile(ctx context.Context, env *Env) error {
	set, err := readSet(sb.path)
	if err != nil {
		return err
	}
	var goal npuzzle.Goal
	goalFrom := "-goal"
	if sb.goal == "auto" {
		if goal, goalFrom, err = setGoal(sb.path, set); err != nil {
			return err
		}
	} else if goal, err = npuzzle.ParseGoal(sb.goal); err != nil {
		return usagef("%v", err)
	}
	keep, err := parseInstances(sb.instances, len(set))
	if err != nil {
		return err
	}
	if keep != nil {
		set = slices.DeleteFunc(set, func(inst setInstance) bool { return !keep[inst.number] })
	}
	return sb.run(ctx, env, set, goal, fmt.Sprintf("%s: %v boards, goal %v (from the %s)", sb.path, set[0].board.Size(), goal, goalFrom))
}

// run solves the instances one after the other and prints a line for each
// and the totals; title describes the instances.
func (sb *setBench) run(ctx context.Context, env *Env, set []setInstance, goal npuzzle.Goal, title string) error {
	opts, err := sb.solver.options(goal)
	if err != nil {
		return err
	}
	size := set[0].board.Size()
	p := newProgress(env, sb.progress)
	defer p.Done()
	setup, err := sb.solver.loadPDB(ctx, &opts, size, p)
	if err != nil {
		return err
	}
	sum := setSummary{Summary: true, Set: sb.path, Size: size.String(), Goal: goal.String(), Solver: describe(opts), SetupSeconds: setup,
		Workers: opts.Workers}
	var tw *tabwriter.Writer
	if !sb.asJSON {
		fmt.Fprintf(env.Stdout, "%s, %s, setup %.1f s\n\n", title, sum.Solver, setup)
		tw = tabwriter.NewWriter(env.Stdout, 0, 8, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "instance\tlength\tpublished\tmatch\tnodes\tseconds\tCPU s\t")
	}
	total, published, withPublished := 0, 0, 0
	count := p.Counter("instances", len(set))
	for _, inst := range set {
		if err := ctx.Err(); err != nil {
			return err
		}
		sctx, cancel := withTimeout(ctx, sb.timeout)
		var (
			sol npuzzle.Solution
			err error
		)
		cpu, _ := bench.OnCPU(opts.Workers > 1, func() { sol, err = npuzzle.Solve(sctx, inst.board, opts) })
		cancel()
		rec := setRecord{Instance: inst.number, Length: len(sol.Moves), Published: inst.published,
			Nodes: sol.Stats.Generated, Expanded: sol.Stats.Expanded, Seconds: seconds(sol.Stats.Elapsed),
			CPUSeconds: seconds(cpu), Optimal: sol.Optimal}
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			rec.Error = fmt.Sprintf("no solution within -timeout %v", sb.timeout)
		case err != nil:
			rec.Error = err.Error()
		default:
			rec.Moves = npuzzle.FormatMoves(sol.Moves)
			rec.Matched = inst.published == rec.Length
			sum.Solved++
			total += rec.Length
			if inst.published >= 0 {
				published += inst.published
				withPublished++
			}
		}
		if err != nil && ctx.Err() != nil {
			return ctx.Err() // interrupted, not a failed instance
		}
		sum.Instances++
		if rec.Matched {
			sum.Matched++
		}
		sum.Nodes += rec.Nodes
		sum.Seconds += rec.Seconds
		sum.MaxSeconds = max(sum.MaxSeconds, rec.Seconds)
		sum.CPUSeconds += rec.CPUSeconds
		sum.MaxCPUSeconds = max(sum.MaxCPUSeconds, rec.CPUSeconds)
		count.Add(1)
		if sb.asJSON {
			if err := writeJSON(env.Stdout, rec); err != nil {
				return err
			}
			continue
		}
		match, length := "yes", strconv.Itoa(rec.Length)
		switch {
		case rec.Error != "":
			match, length = rec.Error, "-"
		case inst.published < 0:
			match = ""
		case !rec.Matched:
			match = "no"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%.3f\t%.3f\t\n", inst.number, length, publishedText(inst.published), match, rec.Nodes, rec.Seconds, rec.CPUSeconds)
	}
	p.Done()
	if sum.Solved > 0 {
		sum.MeanLength = float64(total) / float64(sum.Solved)
	}
	if withPublished > 0 {
		sum.MeanPublished = float64(published) / float64(withPublished)
	}
	if sb.asJSON {
		return writeJSON(env.Stdout, sum)
	}
	tw.Flush()
	printSetSummary(env.Stdout, sum)
	return nil
}

func publishedText(p int) string {
	if p < 0 {
		return "-"
	}
	return strconv.Itoa(p)
}

func printSetSummary(w io.Writer, s setSummary) {
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
}

// runRandom runs the solver on n random boards of size s (uniform, or the
// game's random walk), drawn from seed.
func (sb *setBench) runRandom(ctx context.Context, env *Env, s npuzzle.Size, n int, uniform bool, seed uint64) error {
	goal := npuzzle.BlankLast
	if sb.goal != "auto" {
		var err error
		if goal, err = npuzzle.ParseGoal(sb.goal); err != nil {
			return usagef("%v", err)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x6e70757a7a6c65))
	set := make([]setInstance, n)
	for i := range set {
		set[i] = setInstance{number: i + 1, published: -1}
		if uniform {
			set[i].board = npuzzle.Random(s, goal, rng)
		} else {
			set[i].board = npuzzle.RandomWalk(s, goal, npuzzle.WalkLength(s), rng)
		}
	}
	kind := "uniformly random"
	if !uniform {
		kind = "random-walk"
	}
	return sb.run(ctx, env, set, goal, fmt.Sprintf("%d %s %v boards (seed %d), goal %v", n, kind, s, seed, goal))
}

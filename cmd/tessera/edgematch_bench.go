package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"tessera/edgematch"
	"tessera/internal/bench"
)

// emBenchRecord is one -json line of edgematch bench.
type emBenchRecord struct {
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

// emGroup aggregates the generated puzzles of one size and colour count.
type emGroup struct {
	Group          string  `json:"group"`
	Puzzles        int     `json:"puzzles"`
	Solved         int     `json:"solved"`
	Permutation    int     `json:"lp_permutation,omitempty"`
	MeanIterations float64 `json:"lp_mean_iterations,omitempty"`
	MeanVariables  float64 `json:"lp_mean_variables,omitempty"`
	MeanSeconds    float64 `json:"mean_seconds"`
}

// benchItem is a puzzle to bench.
type benchItem struct {
	name, group string
	p           *edgematch.Puzzle
}

var emBenchCmd = &Command{
	Name:      "bench",
	UsageLine: "-set FILES -algo dfs|partial|lp [-timeout D] [-json] | -kind K -size S1,S2 -colors C1,C2 [-rotate] -n N -algo lp",
	Short:     "solve a set of puzzles and report scores, times and placements",
	Long: `Bench solves every puzzle of -set (a comma-separated list of files, folders
and glob patterns, also given as arguments; relative names not found are
looked up in the data folder, so "edgematch/brendan_set1/0[3-8]x0*.txt" works)
with -algo, each bounded by -timeout, and prints per puzzle the score, whether
it is solved, the seconds and the placements, then the totals.

With -kind, -size and -colors (comma-separated lists) it generates -n puzzles
for every size and colour count from -seed instead, and adds a table per
group: for -algo lp the share of puzzles where P became a permutation and the
mean number of LPs, as in Kovalsky, Glasner and Basri's experiments.

With -json: one object per puzzle ({"puzzle", "score", "max", "solved",
"seconds", "nodes", ...}), then {"summary": true, "puzzles", "solved",
"seconds", ...}.`,
	Flags: func(fs *flag.FlagSet) Runner {
		var sf solveFlags
		var hf hintFlags
		sf.define(fs)
		hf.define(fs)
		set := fs.String("set", "", "puzzle files, folders or glob patterns, comma-separated")
		kind := fs.String("kind", "", "generate puzzles of this kind (framed or kovalsky) instead of -set")
		sizes := fs.String("size", "8x8", "with -kind: sizes, comma-separated")
		colors := fs.String("colors", "8", "with -kind: colour counts, comma-separated")
		frame := fs.Int("frame", 0, "with -kind framed: frame colours (0: about a third of the inner colours)")
		rotate := fs.Bool("rotate", false, "with -kind kovalsky: unknown orientation")
		n := fs.Int("n", 10, "with -kind: puzzles per size and colour count")
		seed := seedFlag(fs)
		timeout := timeoutFlag(fs, time.Minute)
		data := dataFlag(fs)
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			order, backend, err := sf.check()
			if err != nil {
				return err
			}
			var items []benchItem
			if *kind != "" {
				if *set != "" || len(args) > 0 {
					return usagef("give either -kind or -set, not both")
				}
				if items, err = generatedItems(*kind, *sizes, *colors, *frame, *rotate, *n, *seed); err != nil {
					return err
				}
			} else {
				files, err := expandSet(*set, args, *data)
				if err != nil {
					return err
				}
				for _, f := range files {
					p, err := hf.read(env, f)
					if err != nil {
						return err
					}
					items = append(items, benchItem{name: strings.TrimSuffix(filepath.Base(f), ".txt"), p: p})
				}
			}
			pr := newProgress(env, *prog)
			defer pr.Done()
			count := pr.Counter("puzzles", len(items))
			var recs []emBenchRecord
			cpu0, _ := bench.ProcessCPU()
			for _, it := range items {
				if err := ctx.Err(); err != nil {
					return err
				}
				sctx, cancel := withTimeout(ctx, *timeout)
				o := runSolver(sctx, it.p, &sf, order, backend, false, *seed, nil, nil, pr.Printf)
				cancel()
				rec := emBenchRecord{Puzzle: it.name, Group: it.group, Score: o.res.Score.Matched, Max: o.res.Score.Max,
					Solved: o.res.Score.Solved(), Seconds: seconds(o.res.Stats.Elapsed), Nodes: o.res.Stats.Nodes}
				if o.lp != nil {
					rec.Iterations, rec.Permutation, rec.Method, rec.Variables = o.lp.Iterations, o.lp.Permutation, o.lp.Method, o.lp.Variables
				}
				if o.err != nil {
					rec.Error = o.err.Error()
					if errors.Is(o.err, context.DeadlineExceeded) {
						rec.Error = "stopped by -timeout " + timeout.String()
					}
				}
				if o.res.Board == nil {
					rec.Max = it.p.MaxScore()
				}
				recs = append(recs, rec)
				pr.Logf("%s: %d/%d, %.2f s", rec.Puzzle, rec.Score, rec.Max, rec.Seconds)
				if *asJSON {
					if err := writeJSON(env.Stdout, rec); err != nil {
						return err
					}
				}
				count.Add(1)
			}
			pr.Done()
			cpu1, _ := bench.ProcessCPU()
			cpu := seconds(cpu1 - cpu0)
			solved, secs, nodes := 0, 0.0, int64(0)
			for _, r := range recs {
				if r.Solved {
					solved++
				}
				secs += r.Seconds
				nodes += r.Nodes
			}
			groups := groupRecords(recs)
			if *asJSON {
				sum := map[string]any{"summary": true, "puzzles": len(recs), "solved": solved, "seconds": secs, "nodes": nodes,
					"algo": sf.algo}
				if secs > 0 && nodes > 0 {
					sum["placements_per_second"] = float64(nodes) / secs
				}
				if cpu > 0 {
					sum["cpu_seconds"] = cpu
					if nodes > 0 {
						sum["placements_per_cpu_second"] = float64(nodes) / cpu
					}
				}
				if len(groups) > 0 {
					sum["groups"] = groups
				}
				return writeJSON(env.Stdout, sum)
			}
			printEMBench(env.Stdout, recs, sf.algo == "lp")
			fmt.Fprintf(env.Stdout, "\n%d puzzles, %d solved, %.2f s, %d placements", len(recs), solved, secs, nodes)
			if secs > 0 && nodes > 0 {
				fmt.Fprintf(env.Stdout, " (%.1f M/s)", float64(nodes)/secs/1e6)
			}
			if cpu > 0 {
				fmt.Fprintf(env.Stdout, "; %.2f s of CPU time", cpu)
				if nodes > 0 {
					fmt.Fprintf(env.Stdout, " (%.1f M placements per CPU second)", float64(nodes)/cpu/1e6)
				}
			}
			fmt.Fprintln(env.Stdout)
			if len(groups) > 0 {
				fmt.Fprintln(env.Stdout)
				printEMGroups(env.Stdout, groups, sf.algo == "lp")
			}
			return nil
		}
	},
}

// expandSet resolves the -set list and the arguments into puzzle files.
func expandSet(set string, args []string, data string) ([]string, error) {
	var items []string
	for _, s := range strings.Split(set, ",") {
		if s = strings.TrimSpace(s); s != "" {
			items = append(items, s)
		}
	}
	items = append(items, args...)
	if len(items) == 0 {
		return nil, usagef("no puzzles: give -set FILES or -kind")
	}
	var files []string
	for _, item := range items {
		found, err := expandItem(item)
		if err != nil {
			return nil, err
		}
		if len(found) == 0 && !filepath.IsAbs(item) {
			if dir, derr := resolveData(data); derr == nil {
				if found, err = expandItem(filepath.Join(dir, item)); err != nil {
					return nil, err
				}
			}
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("-set: %s: no puzzle files", item)
		}
		files = append(files, found...)
	}
	return files, nil
}

// expandItem returns the .txt puzzle files named by a file, a folder or a
// glob pattern.
func expandItem(item string) ([]string, error) {
	if st, err := os.Stat(item); err == nil {
		if !st.IsDir() {
			return []string{item}, nil
		}
		return filepath.Glob(filepath.Join(item, "*.txt"))
	}
	m, err := filepath.Glob(item)
	if err != nil {
		return nil, usagef("-set: %v", err)
	}
	return m, nil
}

// generatedItems makes the puzzles of a -kind bench.
func generatedItems(kind, sizes, colors string, frame int, rotate bool, n int, seed uint64) ([]benchItem, error) {
	k, err := edgematch.ParseKind(kind)
	if err != nil {
		return nil, usagef("%v", err)
	}
	if rotate && k != edgematch.Kovalsky {
		return nil, usagef("-rotate applies to -kind kovalsky")
	}
	if n < 1 {
		return nil, usagef("-n must be at least 1")
	}
	var items []benchItem
	for _, sz := range strings.Split(sizes, ",") {
		rows, cols, err := parseEMSize(strings.TrimSpace(sz))
		if err != nil {
			return nil, err
		}
		for _, cs := range strings.Split(colors, ",") {
			c, err := strconv.Atoi(strings.TrimSpace(cs))
			if err != nil {
				return nil, usagef("-colors %q: want numbers", colors)
			}
			group := fmt.Sprintf("%dx%d c%d", rows, cols, c)
			if rotate {
				group += " rotated"
			}
			for i := range n {
				s := seed + uint64(i)
				p, _, err := edgematch.Generate(edgematch.GenerateOptions{Kind: k, Rows: rows, Cols: cols, Colours: c, Frame: frame, Rotate: rotate, Seed: s})
				if err != nil {
					return nil, usagef("%v", err)
				}
				items = append(items, benchItem{name: fmt.Sprintf("%s %dx%d c%d seed %d", k, rows, cols, c, s), group: group, p: p})
			}
		}
	}
	return items, nil
}

// groupRecords aggregates the records of generated puzzles by group, in
// order of first appearance.
func groupRecords(recs []emBenchRecord) []emGroup {
	var out []emGroup
	index := map[string]int{}
	for _, r := range recs {
		if r.Group == "" {
			continue
		}
		i, ok := index[r.Group]
		if !ok {
			i = len(out)
			index[r.Group] = i
			out = append(out, emGroup{Group: r.Group})
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
		out[i].MeanIterations /= float64(out[i].Puzzles)
		out[i].MeanVariables /= float64(out[i].Puzzles)
		out[i].MeanSeconds /= float64(out[i].Puzzles)
	}
	return out
}

func printEMBench(w io.Writer, recs []emBenchRecord, lpCols bool) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	head := "puzzle\tscore\tsolved\tseconds\tplacements\tM/s"
	if lpCols {
		head += "\tLPs\tpermutation\tmethod"
	}
	fmt.Fprintln(tw, head+"\tnote")
	for _, r := range recs {
		rate := 0.0
		if r.Seconds > 0 {
			rate = float64(r.Nodes) / r.Seconds / 1e6
		}
		line := fmt.Sprintf("%s\t%d/%d\t%v\t%.2f\t%d\t%.1f", r.Puzzle, r.Score, r.Max, r.Solved, r.Seconds, r.Nodes, rate)
		if lpCols {
			line += fmt.Sprintf("\t%d\t%v\t%s", r.Iterations, r.Permutation, r.Method)
		}
		fmt.Fprintln(tw, line+"\t"+r.Error)
	}
	tw.Flush()
}

func printEMGroups(w io.Writer, groups []emGroup, lpCols bool) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	head := "group\tpuzzles\tsolved"
	if lpCols {
		head += "\tP a permutation\tmean LPs\tmean LP variables"
	}
	fmt.Fprintln(tw, head+"\tmean seconds")
	for _, g := range groups {
		line := fmt.Sprintf("%s\t%d\t%d", g.Group, g.Puzzles, g.Solved)
		if lpCols {
			line += fmt.Sprintf("\t%d\t%.1f\t%.0f", g.Permutation, g.MeanIterations, g.MeanVariables)
		}
		fmt.Fprintf(tw, "%s\t%.2f\n", line, g.MeanSeconds)
	}
	tw.Flush()
}

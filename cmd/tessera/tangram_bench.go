package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/sdp"
	"tessera/tangram"
)

var tgBenchCmd = &Command{
	Name:      "bench",
	UsageLine: "-set FILES | -n N [-seed S] [-pieces tans] -algo " + strings.Join(catalog.Tangram.IDs(), "|") + " [-sdp go|csdp] [-timeout D] [-json]",
	Short:     "solve a set of puzzles and report the share solved and the times",
	Long: `Bench solves every puzzle of -set (a comma-separated list of files, folders,
glob patterns and classic:NAME for the classic figures, also given as
arguments), or -n generated puzzles from seeds -seed, -seed+1, ..., with
-algo, each bounded by -timeout, and prints per puzzle whether it is solved,
the seconds and the SDPs, then the totals. With -json: one object per puzzle
({"puzzle", "solved", "seconds", "iterations", "objective", ...}), then
{"summary": true, "solved", "instances", "seconds", ...}. The exit status is
1 when some puzzle is not solved.`,
	Flags: func(fs *flag.FlagSet) Runner {
		var sf tgSolveFlags
		sf.define(fs)
		set := fs.String("set", "", "puzzle files, folders, glob patterns or classic:NAME, comma-separated")
		n := fs.Int("n", 0, "generate this many puzzles instead of -set (at most 100,000)")
		pieces := fs.String("pieces", "tans", "with -n: the piece set")
		timeout := timeoutFlag(fs, time.Minute)
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
		natsURL := natsFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if err := sf.check(); err != nil {
				return err
			}
			var list []string
			for s := range strings.SplitSeq(*set, ",") {
				if s = strings.TrimSpace(s); s != "" {
					list = append(list, s)
				}
			}
			list = append(list, args...)
			var (
				items []bench.TangramItem
				err   error
			)
			switch {
			case *n > 0 && len(list) > 0:
				return usagef("give either -n or -set, not both")
			case *n > 0:
				items, err = bench.TangramGenerated(ctx, *pieces, *n, int64(sf.o.Seed))
			case len(list) > 0:
				items, err = bench.TangramSet(list)
			default:
				return usagef("no puzzles: give -set FILES or -n N")
			}
			switch {
			case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
				return err
			case err != nil:
				return usagef("%v", err)
			}
			pr := newProgress(env, *prog)
			defer pr.Done()
			remote, closeRemote, err := benchRemote(ctx, *natsURL)
			if err != nil {
				return err
			}
			defer closeRemote()
			b := bench.Tangram{Items: items, Algo: sf.algo, Options: sf.o, Timeout: *timeout, Log: pr.Logf, Remote: remote}
			w := &bench.Writer{W: env.Stdout, JSON: *asJSON}
			if err := b.Run(ctx, w); err != nil {
				return err
			}
			if b.Unsolved > 0 {
				return fmt.Errorf("%d of %d puzzles not solved", b.Unsolved, len(items))
			}
			return nil
		}
	},
}

// tgSolveFlags are the solver flags of solve and bench: -algo and a flag
// per option of catalog.TangramOptions.
type tgSolveFlags struct {
	fs   *flag.FlagSet
	algo string
	o    catalog.TangramOptions
	list []catalog.Option
}

func (s *tgSolveFlags) define(fs *flag.FlagSet) {
	s.fs = fs
	s.o.Seed = 1
	fs.StringVar(&s.algo, "algo", "sdp", "solver: "+strings.Join(catalog.Tangram.IDs(), ", "))
	s.list = catalog.BindFlags(fs, &s.o)
}

// check refuses an unknown solver, options out of range or an option the
// solver does not read (usage errors), and a backend missing from this
// build (a failure).
func (s *tgSolveFlags) check() error {
	if _, err := catalog.Tangram.Lookup(s.algo); err != nil {
		return usagef("-algo: %v", err)
	}
	if err := s.o.Check(); err != nil {
		return usagef("%v", err)
	}
	if err := catalog.Tangram.Applies(s.list, catalog.SetFlags(s.fs, s.list), s.algo); err != nil {
		return usagef("%v", err)
	}
	if s.o.SDPBackend != "" {
		if _, err := sdp.Lookup(s.o.SDPBackend); err != nil {
			if errors.Is(err, sdp.ErrNotBuilt) {
				return err
			}
			return usagef("-sdp: %v", err)
		}
	}
	return nil
}

var tgFiguresCmd = &Command{
	Name:      "figures",
	UsageLine: "[-category C | -hard N [-seed S]] [-solve] [-count N] [-pictures] [-max-nodes N] [-timeout D] [-json]",
	Short:     "list the figure set, or solve and count it with the exact solver and report the times",
	Long: `Figures lists the tangram figure set (tangram.Figures: name, category, source,
parts and holes of the silhouette). With -solve each figure is solved by the
exact solver from its silhouette alone, the seven tans turned and mirrored,
each bounded by -timeout and -max-nodes, and the summary gives the count
solved, the mean, median, 99th percentile and worst seconds. With -count N
the search goes on past the first solution and counts the distinct tilings
up to N ("N+" when it stopped there); the summary says how many figures
have exactly one. -hard N takes instead N hard random figures
(tangram.GenerateHard, seeds -seed, -seed+1, ...: many reflex corners, no
edge longer than 2). -pictures draws each figure as a picture (25 to 90 pixels
a unit, turned, with 0 to 2% of the pixels flipped, all from the figure's
index and -seed), traces it back (tangram.Trace) and reports whether it snaps,
whether it is the figure drawn and whether the exact solver fills it. Run it
under GOMAXPROCS=1 to measure one core. The exit
status is 1 when some figure is not solved.`,
	Flags: func(fs *flag.FlagSet) Runner {
		category := fs.String("category", "", "only the figures of this category")
		hard := fs.Int("hard", 0, "take this many hard random figures instead of the set (at most 10,000)")
		seed := seedFlag(fs)
		solve := fs.Bool("solve", false, "solve every figure with the exact solver")
		pictures := fs.Bool("pictures", false, "draw, trace and solve every figure")
		count := fs.Int64("count", 0, "count distinct solutions up to this many (implies -solve; 0: no count)")
		maxNodes := fs.Int64("max-nodes", 10_000_000, "stop a figure's search after this many placements")
		timeout := timeoutFlag(fs, time.Minute)
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) > 0 {
				return usagef("unexpected arguments %q", args)
			}
			if *count < 0 || *maxNodes < 0 {
				return usagef("-count and -max-nodes must be at least 0")
			}
			var figs []tangram.Figure
			if *hard < 0 || *hard > 10_000 {
				return usagef("-hard: want 0 to 10,000")
			}
			for k := range *hard {
				s := int64(*seed) + int64(k)
				p, _, err := tangram.GenerateHard(s, tangram.Tans(), tangram.HardOptions{})
				if err != nil {
					return err
				}
				figs = append(figs, tangram.Figure{Name: p.Name, Category: "hard", Source: "tangram.GenerateHard", Puzzle: p})
			}
			for _, f := range tangram.Figures() {
				if *hard > 0 {
					break
				}
				if *category == "" || f.Category == *category {
					figs = append(figs, f)
				}
			}
			if len(figs) == 0 {
				cats, _ := tangram.FigureCategories()
				return usagef("no figures in category %q (have %s)", *category, strings.Join(cats, ", "))
			}
			if *pictures {
				return traceFigures(ctx, env, figs, int64(*seed), *timeout, *asJSON)
			}
			if !*solve && *count == 0 {
				return listFigures(env, figs, *asJSON)
			}
			return benchFigures(ctx, env, figs, tangram.Exact{MaxNodes: *maxNodes}, *count, *timeout, *asJSON)
		}
	},
}

func listFigures(env *Env, figs []tangram.Figure, asJSON bool) error {
	enc := json.NewEncoder(env.Stdout)
	for _, f := range figs {
		if asJSON {
			if err := enc.Encode(map[string]any{"name": f.Name, "category": f.Category, "source": f.Source,
				"parts": len(f.Puzzle.Parts), "holes": len(f.Puzzle.Holes)}); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(env.Stdout, "%-14s %-12s parts %d holes %d  %s\n", f.Name, f.Category, len(f.Puzzle.Parts), len(f.Puzzle.Holes), f.Source)
	}
	return nil
}

// figureRecord is one line of "tangram figures -solve -json".
type figureRecord struct {
	Name      string  `json:"figure"`
	Category  string  `json:"category"`
	Solved    bool    `json:"solved"`
	Seconds   float64 `json:"seconds"`
	Nodes     int64   `json:"nodes"`
	Solutions int64   `json:"solutions,omitempty"`
	Complete  bool    `json:"complete,omitempty"`
	Error     string  `json:"error,omitempty"`
}

func benchFigures(ctx context.Context, env *Env, figs []tangram.Figure, ex tangram.Exact, count int64, timeout time.Duration, asJSON bool) error {
	enc := json.NewEncoder(env.Stdout)
	var secs []float64
	solved, unique, worst := 0, 0, ""
	worstS := -1.0
	for _, f := range figs {
		fctx, cancel := ctx, context.CancelFunc(func() {})
		if timeout > 0 {
			fctx, cancel = context.WithTimeout(ctx, timeout)
		}
		rec := figureRecord{Name: f.Name, Category: f.Category}
		if count > 0 {
			res, err := ex.Count(fctx, f.Puzzle, count)
			rec.Solved, rec.Seconds, rec.Nodes = res.First != nil, res.Elapsed.Seconds(), res.Nodes
			rec.Solutions, rec.Complete = res.Solutions, res.Complete
			if err != nil {
				rec.Error = err.Error()
			}
			if res.Complete && res.Solutions == 1 {
				unique++
			}
		} else {
			res, err := ex.Solve(fctx, f.Puzzle)
			rec.Solved, rec.Seconds, rec.Nodes = res.Solved, res.Elapsed.Seconds(), res.Nodes
			if err != nil {
				rec.Error = err.Error()
			}
		}
		cancel()
		if err := ctx.Err(); err != nil {
			return err
		}
		if rec.Solved {
			solved++
		}
		secs = append(secs, rec.Seconds)
		if rec.Seconds > worstS {
			worstS, worst = rec.Seconds, f.Name
		}
		if asJSON {
			if err := enc.Encode(rec); err != nil {
				return err
			}
		} else {
			sol := ""
			if count > 0 {
				sol = fmt.Sprintf("  solutions %d", rec.Solutions)
				if !rec.Complete {
					sol += "+"
				}
			}
			fmt.Fprintf(env.Stdout, "%-14s %-12s solved %-5v %9.6f s %8d nodes%s %s\n", f.Name, f.Category, rec.Solved, rec.Seconds, rec.Nodes, sol, rec.Error)
		}
	}
	sum := summarizeSeconds(secs)
	if asJSON {
		out := map[string]any{"summary": true, "figures": len(figs), "solved": solved, "mean_seconds": sum.mean,
			"median_seconds": sum.median, "p99_seconds": sum.p99, "worst_seconds": sum.worst, "worst_figure": worst}
		if count > 0 {
			out["unique"], out["count_limit"] = unique, count
		}
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(env.Stdout, "solved %d of %d; seconds: mean %.6f, median %.6f, p99 %.6f, worst %.6f (%s)\n",
			solved, len(figs), sum.mean, sum.median, sum.p99, sum.worst, worst)
		if count > 0 {
			fmt.Fprintf(env.Stdout, "%d figures with exactly one solution (counted up to %d)\n", unique, count)
		}
	}
	if solved < len(figs) {
		return fmt.Errorf("%d of %d figures not solved", len(figs)-solved, len(figs))
	}
	return nil
}

type secondsSummary struct{ mean, median, p99, worst float64 }

// summarizeSeconds returns the mean, the median, the 99th percentile
// (nearest rank) and the maximum.
func summarizeSeconds(xs []float64) secondsSummary {
	if len(xs) == 0 {
		return secondsSummary{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	total := 0.0
	for _, x := range s {
		total += x
	}
	median := s[len(s)/2]
	if len(s)%2 == 0 {
		median = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	rank := int(math.Ceil(0.99*float64(len(s)))) - 1
	return secondsSummary{mean: total / float64(len(s)), median: median, p99: s[max(rank, 0)], worst: s[len(s)-1]}
}

// traceRecord is one line of "tangram figures -pictures -json".
type traceRecord struct {
	Name     string  `json:"figure"`
	Scale    float64 `json:"scale"`
	Degrees  float64 `json:"degrees"`
	Noise    float64 `json:"noise"`
	Snapped  bool    `json:"snapped"`
	Same     bool    `json:"same_shape"`
	Solved   bool    `json:"solved"`
	Residual float64 `json:"residual"`
	Seconds  float64 `json:"trace_seconds"`
	Faults   int     `json:"faults"`
}

func traceFigures(ctx context.Context, env *Env, figs []tangram.Figure, seed int64, timeout time.Duration, asJSON bool) error {
	enc := json.NewEncoder(env.Stdout)
	snapped, same, solved := 0, 0, 0
	var secs []float64
	for i, f := range figs {
		if err := ctx.Err(); err != nil {
			return err
		}
		k := int64(i) + seed
		rec := traceRecord{Name: f.Name, Scale: float64(25 + k*37%66), Degrees: float64(k * 73 % 360),
			Noise: []float64{0, 0.005, 0.01, 0.02}[k%4]}
		img := tangram.Picture(f.Puzzle, tangram.PictureOptions{Scale: rec.Scale, Angle: rec.Degrees * math.Pi / 180, Noise: rec.Noise, Seed: uint64(k)})
		start := time.Now()
		res, err := tangram.Trace(img, tangram.TraceOptions{})
		rec.Seconds = time.Since(start).Seconds()
		secs = append(secs, rec.Seconds)
		if err == nil {
			rec.Snapped, rec.Residual, rec.Faults = res.Snapped, res.MaxResidual, len(res.Faults)
			if res.Puzzle != nil {
				rec.Same = tangram.SameShape(f.Puzzle, res.Puzzle)
				sctx, cancel := ctx, context.CancelFunc(func() {})
				if timeout > 0 {
					sctx, cancel = context.WithTimeout(ctx, timeout)
				}
				r, _ := tangram.Exact{MaxNodes: 10_000_000}.Solve(sctx, res.Puzzle)
				cancel()
				rec.Solved = r.Solved
			}
		}
		if rec.Snapped {
			snapped++
		}
		if rec.Same {
			same++
		}
		if rec.Solved {
			solved++
		}
		if asJSON {
			if err := enc.Encode(rec); err != nil {
				return err
			}
		} else {
			fmt.Fprintf(env.Stdout, "%-14s %3.0f px %5.1f deg noise %.3f  snapped %-5v same %-5v solved %-5v residual %.3f  %.3f s\n",
				f.Name, rec.Scale, rec.Degrees, rec.Noise, rec.Snapped, rec.Same, rec.Solved, rec.Residual, rec.Seconds)
		}
	}
	sum := summarizeSeconds(secs)
	if asJSON {
		return enc.Encode(map[string]any{"summary": true, "pictures": len(figs), "snapped": snapped, "same_shape": same,
			"solved": solved, "mean_trace_seconds": sum.mean, "worst_trace_seconds": sum.worst})
	}
	fmt.Fprintf(env.Stdout, "%d pictures: %d snapped, %d the figure drawn, %d solved; tracing: mean %.3f s, worst %.3f s\n",
		len(figs), snapped, same, solved, sum.mean, sum.worst)
	if solved < len(figs) {
		return fmt.Errorf("%d of %d pictures not traced and solved", len(figs)-solved, len(figs))
	}
	return nil
}

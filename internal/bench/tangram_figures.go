package bench

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"tessera/internal/catalog"
	"tessera/tangram"
)

// TangramFigureSet is the figures of `tangram figures`: hard > 0 random hard
// figures (tangram.GenerateHard, seeds seed, seed+1, ...), else the figure
// set, only those of category when it is not empty.
func TangramFigureSet(category string, hard int, seed int64) ([]tangram.Figure, error) {
	if hard < 0 || hard > 10_000 {
		return nil, fmt.Errorf("-hard: want 0 to 10,000")
	}
	var figs []tangram.Figure
	for k := range hard {
		p, _, err := tangram.GenerateHard(seed+int64(k), tangram.Tans(), tangram.HardOptions{})
		if err != nil {
			return nil, err
		}
		figs = append(figs, tangram.Figure{Name: p.Name, Category: "hard", Source: "tangram.GenerateHard", Puzzle: p})
	}
	if hard > 0 {
		return figs, nil
	}
	for _, f := range tangram.Figures() {
		if category == "" || f.Category == category {
			figs = append(figs, f)
		}
	}
	if len(figs) == 0 {
		cats, _ := tangram.FigureCategories()
		return nil, fmt.Errorf("no figures in category %q (have %s)", category, strings.Join(cats, ", "))
	}
	return figs, nil
}

// ListTangramFigures prints the figures: name, category, source, parts and
// holes, one line (or JSON object) each.
func ListTangramFigures(w io.Writer, figs []tangram.Figure, asJSON bool) error {
	for _, f := range figs {
		if asJSON {
			if err := WriteJSON(w, map[string]any{"name": f.Name, "category": f.Category, "source": f.Source,
				"parts": len(f.Puzzle.Parts), "holes": len(f.Puzzle.Holes)}); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(w, "%-14s %-12s parts %d holes %d  %s\n", f.Name, f.Category, len(f.Puzzle.Parts), len(f.Puzzle.Holes), f.Source)
	}
	return nil
}

// FigureRecord is one line of `tangram figures -solve -json`.
type FigureRecord struct {
	Name      string  `json:"figure"`
	Category  string  `json:"category"`
	Solved    bool    `json:"solved"`
	Seconds   float64 `json:"seconds"`
	Nodes     int64   `json:"nodes"`
	Solutions int64   `json:"solutions,omitempty"`
	Complete  bool    `json:"complete,omitempty"`
	Error     string  `json:"error,omitempty"`
}

// TangramFigures solves each figure with the exact solver from its
// silhouette alone, or with Count > 0 counts its tilings up to Count, each
// bounded by Timeout; lines are printed as each figure ends.
type TangramFigures struct {
	Figures []tangram.Figure
	Exact   tangram.Exact
	Count   int64
	Timeout time.Duration
}

func (b TangramFigures) solve(ctx context.Context, f tangram.Figure) FigureRecord {
	ctx, cancel := catalog.WithTimeout(ctx, b.Timeout)
	defer cancel()
	rec := FigureRecord{Name: f.Name, Category: f.Category}
	var err error
	if b.Count > 0 {
		var res tangram.CountResult
		res, err = b.Exact.Count(ctx, f.Puzzle, b.Count)
		rec.Solved, rec.Seconds, rec.Nodes = res.First != nil, res.Elapsed.Seconds(), res.Nodes
		rec.Solutions, rec.Complete = res.Solutions, res.Complete
	} else {
		var res tangram.Result
		res, err = b.Exact.Solve(ctx, f.Puzzle)
		rec.Solved, rec.Seconds, rec.Nodes = res.Solved, res.Elapsed.Seconds(), res.Nodes
	}
	if err != nil {
		rec.Error = err.Error()
	}
	return rec
}

// Run prints a line per figure, then the count solved and the mean,
// median, 99th percentile and worst seconds; it fails when some figure is
// not solved.
func (b TangramFigures) Run(ctx context.Context, w io.Writer, asJSON bool) error {
	var secs []float64
	solved, unique, worst := 0, 0, ""
	worstS := -1.0
	for _, f := range b.Figures {
		rec := b.solve(ctx, f)
		if err := ctx.Err(); err != nil {
			return err
		}
		if rec.Solved {
			solved++
		}
		if rec.Complete && rec.Solutions == 1 {
			unique++
		}
		secs = append(secs, rec.Seconds)
		if rec.Seconds > worstS {
			worstS, worst = rec.Seconds, f.Name
		}
		if asJSON {
			if err := WriteJSON(w, rec); err != nil {
				return err
			}
			continue
		}
		sol := ""
		if b.Count > 0 {
			sol = fmt.Sprintf("  solutions %d", rec.Solutions)
			if !rec.Complete {
				sol += "+"
			}
		}
		fmt.Fprintf(w, "%-14s %-12s solved %-5v %9.6f s %8d nodes%s %s\n", f.Name, f.Category, rec.Solved, rec.Seconds, rec.Nodes, sol, rec.Error)
	}
	sum := summarizeSeconds(secs)
	n := len(b.Figures)
	if asJSON {
		out := map[string]any{"summary": true, "figures": n, "solved": solved, "mean_seconds": sum.mean,
			"median_seconds": sum.median, "p99_seconds": sum.p99, "worst_seconds": sum.worst, "worst_figure": worst}
		if b.Count > 0 {
			out["unique"], out["count_limit"] = unique, b.Count
		}
		if err := WriteJSON(w, out); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(w, "solved %d of %d; seconds: mean %.6f, median %.6f, p99 %.6f, worst %.6f (%s)\n",
			solved, n, sum.mean, sum.median, sum.p99, sum.worst, worst)
		if b.Count > 0 {
			fmt.Fprintf(w, "%d figures with exactly one solution (counted up to %d)\n", unique, b.Count)
		}
	}
	if solved < n {
		return fmt.Errorf("%d of %d figures not solved", n-solved, n)
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

// TracedRecord is one line of `tangram figures -pictures -json`.
type TracedRecord struct {
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

// TangramPictures draws each figure as a picture (25 to 90 pixels a unit,
// turned, 0 to 2% of the pixels flipped, all from the figure's index and
// Seed), traces it back and solves the figure traced, each solve bounded by
// Timeout.
type TangramPictures struct {
	Figures []tangram.Figure
	Seed    int64
	Timeout time.Duration
}

func (b TangramPictures) trace(ctx context.Context, i int, f tangram.Figure) TracedRecord {
	k := int64(i) + b.Seed
	rec := TracedRecord{Name: f.Name, Scale: float64(25 + k*37%66), Degrees: float64(k * 73 % 360),
		Noise: []float64{0, 0.005, 0.01, 0.02}[k%4]}
	img := tangram.Picture(f.Puzzle, tangram.PictureOptions{Scale: rec.Scale, Angle: rec.Degrees * math.Pi / 180, Noise: rec.Noise, Seed: uint64(k)})
	start := time.Now()
	res, err := tangram.Trace(img, tangram.TraceOptions{})
	rec.Seconds = time.Since(start).Seconds()
	if err != nil {
		return rec
	}
	rec.Snapped, rec.Residual, rec.Faults = res.Snapped, res.MaxResidual, len(res.Faults)
	if res.Puzzle != nil {
		rec.Same = tangram.SameShape(f.Puzzle, res.Puzzle)
		sctx, cancel := catalog.WithTimeout(ctx, b.Timeout)
		r, _ := tangram.Exact{MaxNodes: 10_000_000}.Solve(sctx, res.Puzzle)
		cancel()
		rec.Solved = r.Solved
	}
	return rec
}

// Run prints a line per picture, then the counts snapped, drawn back and
// solved; it fails when some picture is not traced and solved.
func (b TangramPictures) Run(ctx context.Context, w io.Writer, asJSON bool) error {
	snapped, same, solved := 0, 0, 0
	var secs []float64
	for i, f := range b.Figures {
		if err := ctx.Err(); err != nil {
			return err
		}
		rec := b.trace(ctx, i, f)
		secs = append(secs, rec.Seconds)
		snapped += b2i(rec.Snapped)
		same += b2i(rec.Same)
		solved += b2i(rec.Solved)
		if asJSON {
			if err := WriteJSON(w, rec); err != nil {
				return err
			}
		} else {
			fmt.Fprintf(w, "%-14s %3.0f px %5.1f deg noise %.3f  snapped %-5v same %-5v solved %-5v residual %.3f  %.3f s\n",
				f.Name, rec.Scale, rec.Degrees, rec.Noise, rec.Snapped, rec.Same, rec.Solved, rec.Residual, rec.Seconds)
		}
	}
	sum := summarizeSeconds(secs)
	n := len(b.Figures)
	if asJSON {
		return WriteJSON(w, map[string]any{"summary": true, "pictures": n, "snapped": snapped, "same_shape": same,
			"solved": solved, "mean_trace_seconds": sum.mean, "worst_trace_seconds": sum.worst})
	}
	fmt.Fprintf(w, "%d pictures: %d snapped, %d the figure drawn, %d solved; tracing: mean %.3f s, worst %.3f s\n",
		n, snapped, same, solved, sum.mean, sum.worst)
	if solved < n {
		return fmt.Errorf("%d of %d pictures not traced and solved", n-solved, n)
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

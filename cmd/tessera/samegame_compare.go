package main

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"tessera/samegame"
)

// randomEntries draws n boards as "samegame generate" does with the same
// seed, size and colours.
func randomEntries(n int, seed uint64, w, h, colors int, rules samegame.Rules) []samegame.Entry {
	notation := samegame.Digits
	if rules == samegame.Dust {
		notation = samegame.Letters
	}
	rng := rand.New(rand.NewPCG(seed, 0x67656e)) // the generator of "samegame generate"
	entries := make([]samegame.Entry, n)
	for i := range entries {
		entries[i] = samegame.Entry{Name: "position " + strconv.Itoa(i+1), Board: samegame.Random(w, h, colors, rules, rng),
			Notation: notation}
	}
	return entries
}

// parallelFor calls f(i) for i from 0 to n-1 on up to workers goroutines,
// handing out the indices in order, and returns when all calls are done
// or, once ctx ends, when the running ones are.
func parallelFor(ctx context.Context, n, workers int, f func(i int)) {
	var (
		mu   sync.Mutex
		next int
		wg   sync.WaitGroup
	)
	for range min(workers, n) {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n || ctx.Err() != nil {
					return
				}
				f(i)
			}
		})
	}
	wg.Wait()
}

// sgCompareRecord is one -json line of a bench of several algorithms: the
// clicks of each on one board, and the reference they are measured against.
type sgCompareRecord struct {
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

// sgCompareSummary is the last -json line of a bench of several algorithms.
type sgCompareSummary struct {
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

// runCompare runs every algorithm of algos on every listed board (board
// and algorithm pairs shared among workers), prints one line per board
// with -json and then the summary, or a table, and draws the plot.
func runCompare(ctx context.Context, env *Env, entries []samegame.Entry, list []int, rules samegame.Rules,
	algos []samegame.Algorithm, opts samegame.Options, timeout time.Duration, cpu bool, workers int,
	asJSON bool, plot string, prog bool) error {
	names := make([]string, len(algos))
	for i, a := range algos {
		names[i] = sgAlgoName(a)
	}
	p := newProgress(env, prog)
	defer p.Done()
	count := p.Counter("solves", len(list)*len(algos))
	start := time.Now()
	recs := make([][]sgBenchRecord, len(list))
	for i := range recs {
		recs[i] = make([]sgBenchRecord, len(algos))
	}
	var mu sync.Mutex
	// Algorithm-major order: each algorithm's boards run together, so that
	// timings share conditions.
	parallelFor(ctx, len(list)*len(algos), workers, func(j int) {
		a, i := j/len(list), j%len(list)
		o := opts
		o.Algorithm = algos[a]
		rec := benchOne(ctx, entries[list[i]-1], list[i], rules, o, timeout, cpu)
		mu.Lock()
		recs[i][a] = rec
		mu.Unlock()
		count.Add(1)
	})
	p.Done()
	if err := ctx.Err(); err != nil {
		return err
	}
	sum := sgCompareSummary{Summary: true, Boards: len(list), Rules: rules.String(), Algos: names, Timeout: seconds(timeout),
		Workers: workers, Cleared: map[string]int{}, MeanClicks: map[string]float64{}, MeanExcess: map[string]float64{}, AtBest: map[string]int{},
		AtOptimum: map[string]int{}, MeanSeconds: map[string]float64{}, MsPerMove: map[string]float64{},
		Excess: map[string][]int{}}
	lines := make([]sgCompareRecord, len(list))
	moves := make([]int, len(algos))
	for i, rs := range recs {
		r := sgCompareRecord{Board: list[i], Name: rs[0].Name, Clicks: map[string]int{}, Secs: map[string]float64{},
			Best: entries[list[i]-1].Optimal, Proven: entries[list[i]-1].Optimal > 0}
		for a, rec := range rs {
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
			if rec.sol.Optimal && rules == samegame.Dust {
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
	sum.Seconds = seconds(time.Since(start))
	if plot != "" {
		if err := writeComparePlot(plot, names, lines); err != nil {
			return err
		}
	}
	if asJSON {
		for _, r := range lines {
			if err := writeJSON(env.Stdout, r); err != nil {
				return err
			}
		}
		return writeJSON(env.Stdout, sum)
	}
	printCompare(env.Stdout, sum, timeout)
	return nil
}

// printCompare prints the table of differences to the reference.
func printCompare(w io.Writer, s sgCompareSummary, timeout time.Duration) {
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

// Plot colours: one per algorithm, then the heat map's.
var plotColors = []color.RGBA{{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255},
	{148, 103, 189, 255}, {140, 86, 75, 255}}

// writeComparePlot draws the source's two figures as one PNG: on the left
// a 2-D histogram of the first algorithm's clicks (vertical) against the
// second's (horizontal), with the diagonal, and on the right the histogram
// of clicks over the best for every algorithm.
func writeComparePlot(path string, names []string, lines []sgCompareRecord) error {
	const W, H = 1100, 520
	img := image.NewRGBA(image.Rect(0, 0, W, H))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	black := color.RGBA{0, 0, 0, 255}
	grey := color.RGBA{200, 200, 200, 255}

	// Left: first algorithm against the second (or against the best).
	xName, yName := "best", names[0]
	if len(names) > 1 {
		xName = names[1]
	}
	get := func(r sgCompareRecord, name string) (int, bool) {
		if name == "best" {
			return r.Best, r.Best > 0
		}
		c, ok := r.Clicks[name]
		return c, ok
	}
	lo, hi := 1<<30, 0
	counts := map[[2]int]int{}
	for _, r := range lines {
		x, ok1 := get(r, xName)
		y, ok2 := get(r, yName)
		if !ok1 || !ok2 {
			continue
		}
		counts[[2]int{x, y}]++
		lo, hi = min(lo, x, y), max(hi, x, y)
	}
	if hi >= lo {
		x0, y0, size := 70, 40, 420
		n := hi - lo + 1
		cell := size / n
		size = cell * n
		peak := 0
		for _, c := range counts {
			peak = max(peak, c)
		}
		for k, c := range counts {
			t := float64(c) / float64(peak)
			col := color.RGBA{uint8(255 - 225*t), uint8(255 - 180*t), uint8(255 - 75*t), 255}
			px, py := x0+(k[0]-lo)*cell, y0+size-(k[1]-lo+1)*cell
			fillRect(img, px, py, cell, cell, col)
			if cell >= 18 {
				txt := black
				if t > 0.6 {
					txt = color.RGBA{255, 255, 255, 255}
				}
				label(img, px+cell/2-len(strconv.Itoa(c))*7/2, py+cell/2+4, strconv.Itoa(c), txt)
			}
		}
		for i := 0; i <= n; i++ { // grid, axes and ticks
			fillRect(img, x0+i*cell, y0, 1, size, grey)
			fillRect(img, x0, y0+i*cell, size, 1, grey)
		}
		for i := range size { // the diagonal
			img.Set(x0+i, y0+size-i, black)
		}
		for v := lo; v <= hi; v++ {
			s := strconv.Itoa(v)
			label(img, x0+(v-lo)*cell+cell/2-len(s)*7/2, y0+size+16, s, black)
			label(img, x0-8-len(s)*7, y0+size-(v-lo)*cell-cell/2+4, s, black)
		}
		label(img, x0+size/2-60, y0+size+36, "clicks of "+xName, black)
		label(img, 4, y0-14, "clicks of "+yName+" (boards per cell)", black)
	}

	// Right: clicks over the best, one bar per algorithm.
	x0, y0, pw, ph := 600, 40, 460, 420
	maxD, peak := 0, 0
	hist := make([][]int, len(names))
	for a, name := range names {
		for _, r := range lines {
			if c, ok := r.Clicks[name]; ok {
				d := max(c-r.Best, 0)
				for len(hist[a]) <= d {
					hist[a] = append(hist[a], 0)
				}
				hist[a][d]++
				maxD = max(maxD, d)
			}
		}
		for _, c := range hist[a] {
			peak = max(peak, c)
		}
	}
	if peak > 0 {
		groupW := pw / (maxD + 1)
		barW := max(1, (groupW-6)/len(names))
		fillRect(img, x0, y0+ph, pw, 1, black)
		for d := 0; d <= maxD; d++ {
			for a := range names {
				if d >= len(hist[a]) || hist[a][d] == 0 {
					continue
				}
				bh := hist[a][d] * (ph - 20) / peak
				fillRect(img, x0+d*groupW+3+a*barW, y0+ph-bh, barW-1, bh, plotColors[a%len(plotColors)])
			}
			s := "+" + strconv.Itoa(d)
			label(img, x0+d*groupW+groupW/2-len(s)*7/2, y0+ph+16, s, black)
		}
		label(img, x0+pw/2-80, y0+ph+36, "clicks over the best known", black)
		label(img, x0, y0-14, fmt.Sprintf("boards (of %d; highest bar %d)", len(lines), peak), black)
		for a, name := range names {
			fillRect(img, x0+pw-120, y0+10+a*18, 12, 12, plotColors[a%len(plotColors)])
			label(img, x0+pw-102, y0+21+a*18, name, black)
		}
	}
	var buf strings.Builder
	if err := png.Encode(&buf, img); err != nil {
		return err
	}
	return writeFileAtomic(path, []byte(buf.String()))
}

func fillRect(img *image.RGBA, x, y, w, h int, c color.RGBA) {
	draw.Draw(img, image.Rect(x, y, x+w, y+h), image.NewUniform(c), image.Point{}, draw.Src)
}

func label(img *image.RGBA, x, y int, s string, c color.RGBA) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

// parseAlgos reads a comma-separated -algo list.
func parseAlgos(s string) ([]samegame.Algorithm, error) {
	var as []samegame.Algorithm
	for f := range strings.SplitSeq(s, ",") {
		a, err := sgParseAlgorithm(strings.TrimSpace(f))
		if err != nil {
			return nil, usagef("%v", err)
		}
		if slices.Contains(as, a) {
			return nil, usagef("-algo names %s twice", f)
		}
		as = append(as, a)
	}
	return as, nil
}

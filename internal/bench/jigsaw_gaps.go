package bench

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"tessera/imageio"
	"tessera/internal/catalog"
	"tessera/internal/progress"
	"tessera/jigsaw/neural"
	"tessera/nn"
)

// Gaps is `tessera jigsaw neural bench`: Crops random gap puzzles cut from
// every image of Files, a catalog.GapsJob per image (the spec's solver and
// options, the seed drawing the puzzles), here or, with Remote, on workers.
//
// The fields with a json tag are the command line's flags
// (catalog.BindFlags), documented by their help tags.
type Gaps struct {
	Files    []string
	Crops    int `json:"crops" help:"random puzzles per image"`
	Geometry neural.Geometry
	Spec     catalog.Spec[catalog.GapOptions]
	OutDir   string `json:"out" help:"write each reassembly as DIR/puzzle-N.png"`
	// Report lists, beside the answer (V's choice among the attempts,
	// "best"), the attempts to score too: "worst" and "oracle"
	// (catalog.GapsJob).
	Report []string
	// Errors adds the error distribution of the puzzles solved here
	// (neural.ErrorStats): the patches misplaced by the wrong answers, and
	// V's verdicts on reassemblies with k patches misplaced.
	Errors bool `json:"errors" help:"also report the error distribution: wrong answers by patches misplaced, and V's verdict on reassemblies by patches misplaced (not with -nats)"`
	// Missing and Foreign make every puzzle one of fragments, solved here
	// (runFragments).
	Missing int `json:"missing" help:"puzzles of fragments: patches taken away from each puzzle (their cells stay empty)"`
	Foreign int `json:"foreign" help:"puzzles of fragments: strays from another image of -set mixed into each puzzle (to be set aside)"`
	// Progress reports on stderr; Hooks are the in-process runs' (a model
	// loaded here).
	Progress *progress.Reporter
	Hooks    catalog.GapHooks
	// Remote, when set, solves the images as "gaps.solve" jobs on workers
	// (the shipped model).
	Remote Remote
}

// GapReports are the valid entries of Gaps.Report.
var GapReports = catalog.GapReports

// gapSum adds up scores.
type gapSum struct {
	patch, neighbor float64
	perfect         int
}

func (s *gapSum) add(patch, neighbor float64, perfect bool) {
	s.patch, s.neighbor = s.patch+patch, s.neighbor+neighbor
	if perfect {
		s.perfect++
	}
}

// gapTally is a bench's running totals: the answers' scores, seconds and
// puzzles, and with Report the worst and oracle attempts'.
type gapTally struct {
	gapSum
	worst, oracle gapSum
	seconds       float64
	k             int
}

// mean is the tally's mean patch, neighbour and perfect shares.
func (t *gapTally) means() map[string]float64 {
	n := float64(t.k)
	return map[string]float64{"patch": t.patch / n, "neighbor": t.neighbor / n, "perfect": float64(t.perfect) / n, "puzzles": n}
}

// gapsOut is an image's outcome: its result, or the error that ends the
// bench.
type gapsOut struct {
	catalog.GapsResult
	err error
}

// Run solves every puzzle in turn (the whole run under ctx's budget) and
// prints through w; it stops at the first error.
func (g *Gaps) Run(ctx context.Context, w *Writer) error {
	if g.Missing > 0 || g.Foreign > 0 {
		return g.runFragments(ctx, w)
	}
	var es *gapErrors
	if g.Errors {
		es = &gapErrors{m: g.Hooks.Model, rng: rand.New(rand.NewPCG(g.Spec.Options.Seed, 0x696e76))}
	}
	t, err := g.run(ctx, w, es)
	if err != nil {
		return err
	}
	return g.summary(w, t, es)
}

// run solves the puzzles, writing their lines through w (under JSON), and
// returns the totals.
func (g *Gaps) run(ctx context.Context, w *Writer, es *gapErrors) (*gapTally, error) {
	if g.OutDir != "" {
		if err := os.MkdirAll(g.OutDir, 0o755); err != nil {
			return nil, err
		}
	}
	if _, err := g.Spec.Options.Neural(g.Geometry.Grid); err != nil {
		return nil, err
	}
	if g.Remote != nil && g.Spec.Options.Model != "" {
		return nil, errors.New("bench: a job names no file on its worker: -model works without -nats (workers use the shipped models)")
	}
	hooks := g.Hooks
	if es != nil {
		hooks.OnResult = es.add
	}
	var t gapTally
	store, addrs, err := pictureStore(ctx, g.Remote, g.Files)
	if err != nil {
		return nil, err
	}
	_, err = RunJobs(ctx, len(g.Files), Options{Workers: 1, Remote: g.Remote}, catalog.GapsKind, 0,
		func(ctx context.Context, job catalog.GapsJob) gapsOut {
			res, err := job.Run(ctx, store, hooks)
			return gapsOut{res, err}
		},
		func(i int) catalog.GapsJob {
			f := g.Files[i]
			return catalog.GapsJob{Spec: g.Spec, Picture: catalog.Picture{Name: filepath.Base(f), Blob: addrs[f]},
				Grid: g.Geometry.Grid, Patch: g.Geometry.Patch, Gap: g.Geometry.Gap, Index: i, Crops: g.Crops, Report: g.Report, Save: g.OutDir != ""}
		},
		func(i int, im *gapsOut) error {
			if im.err != nil {
				return im.err
			}
			if g.OutDir != "" {
				if err := writeOutputs(ctx, store, im.Outputs, func(c int) string {
					return filepath.Join(g.OutDir, fmt.Sprintf("puzzle-%d.png", i*g.Crops+c))
				}); err != nil {
					return err
				}
			}
			for _, r := range im.Records {
				if r.GapScore == nil {
					r.GapScore = &catalog.GapScore{}
				}
				t.add(r.Patch, r.Neighbor, r.Perfect)
				t.seconds += r.Seconds
				if r.Worst != nil {
					t.worst.add(r.Worst.Patch, r.Worst.Neighbor, r.Worst.Perfect)
				}
				if r.Oracle != nil {
					t.oracle.add(r.Oracle.Patch, r.Oracle.Neighbor, r.Oracle.Perfect)
				}
				if w.JSON {
					if err := w.Item(r, ""); err != nil {
						return err
					}
				}
				t.k++
				g.Progress.Printf("%d puzzles: %.1f%% patches, %.1f%% neighbours, %d perfect", t.k, 100*t.patch/float64(t.k), 100*t.neighbor/float64(t.k), t.perfect)
			}
			return nil
		})
	if err != nil {
		return nil, err
	}
	g.Progress.Done()
	return &t, nil
}

// summary writes the summary of the totals t (and the error distribution
// es, when not nil): the object, or the text.
func (g *Gaps) summary(w *Writer, t *gapTally, es *gapErrors) error {
	n0, _ := g.Spec.Options.Neural(g.Geometry.Grid)
	n, o := float64(t.k), g.Spec.Options
	type namedSum struct {
		name string
		sum  gapSum
	}
	var extra []namedSum
	if slices.Contains(g.Report, "worst") {
		extra = append(extra, namedSum{"worst", t.worst})
	}
	if slices.Contains(g.Report, "oracle") {
		extra = append(extra, namedSum{"oracle", t.oracle})
	}
	var r0 catalog.GapsRecord // the defaults written out
	r0.Solved(g.Spec.Solver, n0, &neural.Puzzle{Geometry: g.Geometry}, neural.Result{})
	if w.JSON {
		if es != nil && es.err != nil {
			return es.err
		}
		sum := map[string]any{"summary": true, "puzzles": t.k, "patch": t.patch / n, "neighbor": t.neighbor / n,
			"perfect": float64(t.perfect) / n, "seconds": t.seconds / n, "algo": g.Spec.Solver, "reward": r0.Reward,
			"grid": g.Geometry.Grid, "sims": r0.Sims, "attempts": r0.Attempts, "hybrid": o.Hybrid, "seed": o.Seed}
		if r0.Judge != "" {
			sum["judge"] = r0.Judge
		}
		// The ablations' settings, when any is not the default.
		if n0.Prior != 0 || n0.Value != 0 || n0.Selection != 0 || n0.Order != 0 || n0.Hints != 0 || o.C != 0 {
			sum["prior"], sum["value"], sum["select"], sum["order"], sum["hints"] = n0.Prior.String(), n0.Value.String(), n0.Selection.String(), n0.Order.String(), n0.Hints
			if n0.CentralHint {
				sum["hints"] = "central"
			}
			if o.C > 0 {
				sum["c"] = o.C
			}
		}
		for _, e := range extra {
			sum[e.name+"_patch"], sum[e.name+"_neighbor"], sum[e.name+"_perfect"] = e.sum.patch/n, e.sum.neighbor/n, float64(e.sum.perfect)/n
		}
		if es != nil {
			es.fields(sum)
		}
		return w.Summary(sum, nil)
	}
	fmt.Fprintf(w.W, "%d puzzles %dx%d, %s (%s reward, %d sims, %d attempts)\npatches %.1f%%, neighbours %.1f%%, perfect %.1f%% (%d), %.3f s per puzzle\n",
		t.k, g.Geometry.Grid, g.Geometry.Grid, g.Spec.Solver, r0.Reward, r0.Sims, r0.Attempts, 100*t.patch/n, 100*t.neighbor/n, 100*float64(t.perfect)/n, t.perfect, t.seconds/n)
	for _, e := range extra {
		fmt.Fprintf(w.W, "%s attempt: patches %.1f%%, neighbours %.1f%%, perfect %.1f%% (%d)\n",
			e.name, 100*e.sum.patch/n, 100*e.sum.neighbor/n, 100*float64(e.sum.perfect)/n, e.sum.perfect)
	}
	if es == nil {
		return nil
	}
	if es.err != nil {
		return es.err
	}
	_, err := io.WriteString(w.W, es.text())
	return err
}

// gapErrors gathers a gap bench's error distribution (neural.ErrorStats)
// from the puzzles solved in this process: the patches misplaced by the
// wrong answers, and V's verdicts (model m, reassemblies drawn from rng)
// on reassemblies with k patches misplaced. Puzzles solved on workers are
// not seen.
type gapErrors struct {
	m   *neural.Model
	rng *rand.Rand
	st  neural.ErrorStats
	err error
}

// add is a catalog.GapHooks.OnResult: it counts pz's answer when wrong
// and V's verdicts on pz (complete puzzles only).
func (e *gapErrors) add(pz *neural.Puzzle, res neural.Result, err error) {
	if err != nil || res.Cells == nil || pz.Truth == nil || e.err != nil {
		return
	}
	e.st.Answer(pz, res.Cells, res.Value)
	if e.m != nil && len(pz.Patches) == pz.Cells() {
		e.err = e.st.Judge(e.m, pz, e.rng)
	}
}

// fields adds the distribution to a summary object: per number of
// patches misplaced k (the index), the wrong answers and how many V
// flagged, and V's accuracy (null where nothing was judged) over how many.
func (e *gapErrors) fields(sum map[string]any) {
	st := e.st
	var vacc []any
	for k := range st.VSeen {
		if st.VSeen[k] == 0 {
			vacc = append(vacc, nil)
		} else {
			vacc = append(vacc, float64(st.VRight[k])/float64(st.VSeen[k]))
		}
	}
	sum["wrong_misplaced"], sum["wrong_flagged"], sum["v_by_misplaced"], sum["v_by_misplaced_n"] = st.Wrong, st.Flagged, vacc, st.VSeen
}

// text is the distribution as lines.
func (e *gapErrors) text() string {
	var b strings.Builder
	st := e.st
	b.WriteString(wrongLine("wrong answers by patches misplaced", st))
	b.WriteString("V right at 1/2 by patches misplaced (0: the truth; 2: one swap):")
	for k, n := range st.VSeen {
		if n > 0 {
			fmt.Fprintf(&b, " %d: %.1f%%", k, 100*float64(st.VRight[k])/float64(n))
		}
	}
	b.WriteString("\n")
	return b.String()
}

// wrongLine is the line "label: " and the wrong answers of st by patches
// misplaced (or none).
func wrongLine(label string, st neural.ErrorStats) string {
	h := []string{"none"}
	for k, c := range st.Wrong {
		if c > 0 {
			if h[0] == "none" {
				h = h[:0]
			}
			h = append(h, fmt.Sprintf("%d: %d (V below 1/2: %d)", k, c, st.Flagged[k]))
		}
	}
	return label + ": " + strings.Join(h, " ") + "\n"
}

// gapFragRecord is a line of the bench of fragments.
type gapFragRecord struct {
	Puzzle      int     `json:"puzzle"`
	Image       string  `json:"image"`
	Patch       float64 `json:"patch"`
	Neighbor    float64 `json:"neighbor"`
	Perfect     bool    `json:"perfect"`
	Missing     int     `json:"missing"`
	Strays      int     `json:"strays"`
	StraysFound int     `json:"strays_found"`
	OwnAside    int     `json:"own_aside"`
	Misplaced   int     `json:"misplaced"`
	Seconds     float64 `json:"seconds"`
	Value       float64 `json:"value"`
	Cells       []int   `json:"cells"`
}

// runFragments is the bench of fragments ("jigsaw neural bench -missing K
// -foreign J"), here: the puzzles of the plain bench (image i's crops
// drawn from the stream (seed, i)) made puzzles of fragments
// (neural.RandomFragments: Missing of their patches taken away, Foreign
// strays from another image of the set mixed in), each solved by the
// game of fragments and scored (patches, neighbours, perfect, strays set
// aside).
func (g *Gaps) runFragments(ctx context.Context, w *Writer) error {
	var es neural.ErrorStats
	var t gapTally
	strays, found, ownAside := 0, 0, 0
	load := func(f string) (image.Image, error) {
		img, err := imageio.Load(f, imageio.Options{})
		if err != nil {
			return nil, err
		}
		return img.Pix, nil
	}
	o := g.Spec.Options
	for i, f := range g.Files {
		img, err := load(f)
		if err != nil {
			return err
		}
		rng := rand.New(rand.NewPCG(o.Seed, uint64(i)))
		for c := range g.Crops {
			fz, err := neural.RandomFragments(img, g.Geometry, g.Missing, g.Foreign, rng, func(rng *rand.Rand) (image.Image, error) {
				return load(g.Files[(i+1+rng.IntN(len(g.Files)-1))%len(g.Files)])
			})
			if err != nil {
				return err
			}
			run := catalog.GapRun{GapOptions: o, Grid: g.Geometry.Grid, Hooks: g.Hooks}
			run.Seed += uint64(t.k)
			s, err := catalog.Gaps.New(g.Spec.Solver, run)
			if err != nil {
				return err
			}
			res, err := s.Solve(ctx, fz)
			if err != nil {
				return err
			}
			acc := fz.Score(res.Cells)
			es.Answer(fz, res.Cells, res.Value)
			r := gapFragRecord{Puzzle: i*g.Crops + c, Image: filepath.Base(f), Patch: acc.Patch, Neighbor: acc.Neighbor, Perfect: acc.Perfect,
				Missing: g.Missing, Strays: acc.Strays, StraysFound: acc.StraysFound, OwnAside: acc.OwnAside, Misplaced: fz.Misplaced(res.Cells),
				Seconds: res.Elapsed.Seconds(), Value: res.Value, Cells: res.Cells}
			t.add(r.Patch, r.Neighbor, r.Perfect)
			t.seconds += r.Seconds
			strays, found, ownAside = strays+r.Strays, found+r.StraysFound, ownAside+r.OwnAside
			t.k++
			if w.JSON {
				if err := w.Item(r, ""); err != nil {
					return err
				}
			}
			g.Progress.Printf("%d puzzles: %.1f%% patches, %d perfect, %d of %d strays set aside", t.k, 100*t.patch/float64(t.k), t.perfect, found, strays)
		}
	}
	g.Progress.Done()
	n := float64(max(t.k, 1))
	foundShare := 1.0
	if strays > 0 {
		foundShare = float64(found) / float64(strays)
	}
	if w.JSON {
		return w.Summary(map[string]any{"summary": true, "puzzles": t.k, "patch": t.patch / n, "neighbor": t.neighbor / n, "perfect": float64(t.perfect) / n,
			"missing": g.Missing, "foreign": g.Foreign, "strays_found": foundShare, "own_aside": float64(ownAside) / n, "seconds": t.seconds / n,
			"algo": g.Spec.Solver, "reward": o.Reward, "sims": o.Sims, "attempts": o.Attempts, "grid": g.Geometry.Grid, "seed": o.Seed,
			"wrong_misplaced": es.Wrong, "wrong_flagged": es.Flagged}, nil)
	}
	fmt.Fprintf(w.W, "%d puzzles %dx%d of fragments (%d missing, %d foreign), %s (%s reward, %d sims, %d attempts)\n",
		t.k, g.Geometry.Grid, g.Geometry.Grid, g.Missing, g.Foreign, g.Spec.Solver, o.Reward, o.Sims, o.Attempts)
	fmt.Fprintf(w.W, "patches %.1f%%, neighbours %.1f%%, perfect %.1f%% (%d), strays set aside %.1f%% (%d of %d), own patches set aside %.2f per puzzle, %.3f s per puzzle\n",
		100*t.patch/n, 100*t.neighbor/n, 100*float64(t.perfect)/n, t.perfect, 100*foundShare, found, strays, float64(ownAside)/n, t.seconds/n)
	_, err := io.WriteString(w.W, wrongLine("wrong answers by patches misplaced (a stray placed counts)", es))
	return err
}

// GapScores benches model m as `jigsaw neural bench -set SET -crops CROPS
// -seed 1` does with the default search (one MCTS attempt, the predicted
// reward) and returns the mean patch, neighbor and perfect shares and the
// number of puzzles.
func GapScores(ctx context.Context, m *neural.Model, grid int, set string, crops int) (map[string]float64, error) {
	files, err := GapSet(set)
	if err != nil {
		return nil, err
	}
	g := m.Geometry(grid)
	if err := g.Validate(); err != nil {
		return nil, err
	}
	b := Gaps{Files: files, Crops: crops, Geometry: g, Spec: catalog.Spec[catalog.GapOptions]{Solver: "mcts", Options: catalog.GapOptions{Seed: 1}},
		Report: []string{"best"}, Hooks: catalog.GapHooks{Model: m}}
	t, err := b.run(ctx, &Writer{W: io.Discard, JSON: true}, nil)
	if err != nil {
		return nil, err
	}
	return t.means(), nil
}

// GapCurve benches the model of every epoch of self-play (its Bench is a
// neural.Plan.Bench) on the images of Val, Crops puzzles each, and for
// the curve only on those of Test (one each): a line per epoch goes to
// Log, the points to Points.
type GapCurve struct {
	Val, Test string
	Crops     int
	Log       io.Writer
	Points    []map[string]any
}

// Bench benches model m of epoch for grid and returns the score that
// chooses the best epoch: the share of perfect puzzles of Val (the share
// of patches breaking ties).
func (c *GapCurve) Bench(ctx context.Context, m *neural.Model, grid, epoch int) (float64, error) {
	pt := map[string]any{"epoch": epoch}
	v, err := GapScores(ctx, m, grid, c.Val, c.Crops)
	if err != nil {
		return 0, err
	}
	pt["val"] = v
	line := fmt.Sprintf("selfplay %dx%d epoch %d: val %.1f%% / %.1f%% / %.1f%%", grid, grid, epoch, 100*v["patch"], 100*v["neighbor"], 100*v["perfect"])
	if c.Test != "" {
		t, err := GapScores(ctx, m, grid, c.Test, 1)
		if err != nil {
			return 0, err
		}
		pt["test"] = t
		line += fmt.Sprintf(", test %.1f%% / %.1f%% / %.1f%%", 100*t["patch"], 100*t["neighbor"], 100*t["perfect"])
	}
	fmt.Fprintln(c.Log, line)
	c.Points = append(c.Points, pt)
	return v["perfect"] + 1e-3*v["patch"], nil
}

// GapHeadAccuracy prints the accuracies of a model's heads measured on
// puzzles random puzzles of grid x grid patches with hints (`tessera
// jigsaw neural accuracy`): the JSON object, or a line and a table by
// patches placed.
func GapHeadAccuracy(w io.Writer, acc neural.Accuracies, grid int, hints string, puzzles int, seed uint64, asJSON bool) error {
	if asJSON {
		nan := func(v []float64) []any {
			out := make([]any, len(v))
			for i, x := range v {
				if x == x {
					out[i] = x
				}
			}
			return out
		}
		return WriteJSON(w, map[string]any{"grid": grid, "hints": hints, "puzzles": puzzles, "seed": seed,
			"p": acc.P, "v": acc.V, "p_placed": nan(acc.PPlaced), "v_placed": nan(acc.VPlaced)})
	}
	pct := func(x float64) string {
		if x != x {
			return "-"
		}
		return fmt.Sprintf("%.2f%%", 100*x)
	}
	fmt.Fprintf(w, "%d puzzles %dx%d, hints %s: P %.2f%%, V %.2f%%\nplaced      P       V\n", puzzles, grid, grid, hints, 100*acc.P, 100*acc.V)
	for k := range acc.PPlaced {
		fmt.Fprintf(w, "%6d %7s %7s\n", k, pct(acc.PPlaced[k]), pct(acc.VPlaced[k]))
	}
	return nil
}

// GapTrained prints the report of a training run (neural.Model.Train,
// `tessera jigsaw neural train`): the JSON object, or a line per field in
// the fields' order.
func GapTrained(w io.Writer, rep map[string]any, asJSON bool) error {
	if asJSON {
		return WriteJSON(w, rep)
	}
	for _, k := range slices.Sorted(maps.Keys(rep)) {
		fmt.Fprintf(w, "%-22s %v\n", k, rep[k])
	}
	return nil
}

// TrainProgress shows a network's training statistics s on p: an epoch's
// end as a line, a step on the status line, each after prefix (a stage's
// name and a space, or "").
func TrainProgress(p *progress.Reporter, prefix string, s nn.Stats) {
	if s.EpochDone {
		p.Logf("%sepoch %d: loss %.4f, validation loss %.4f, accuracy %.3f, %.0f examples/s", prefix, s.Epoch, s.Loss, s.ValLoss, s.ValMetric, s.ExamplesSec)
	} else {
		p.Printf("%sepoch %d step %d: loss %.4f, %.0f examples/s", prefix, s.Epoch, s.Step, s.Loss, s.ExamplesSec)
	}
}

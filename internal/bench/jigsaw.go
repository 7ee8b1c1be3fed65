package bench

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"tessera/imageio"
	"tessera/internal/catalog"
	"tessera/internal/datadir"
	"tessera/internal/progress"
	"tessera/jigsaw"
	"tessera/jigsaw/neural"
)

// Jigsaw is `tessera jigsaw bench`: every image of a set (or every bag of
// Bag images, in order) cut into Piece-pixel pieces, scrambled from Seed
// (turned too for Type 2), solved by Solver and scored, one puzzle at a
// time (the solvers use every core).
type Jigsaw struct {
	Files []string
	Piece int
	Type  int  // 1 or 2
	Known bool // the solver is told the size of a single picture
	Bag   int  // images per puzzle (0: one, not a bag)
	Crop  bool // cut the centre of images whose sides are not multiples of Piece
	// Solver solves each puzzle; Algo is its catalogue id, Label its
	// description in the text report, Metric its compatibility measure.
	Solver jigsaw.Solver
	Algo   string
	Label  string
	Metric jigsaw.Metric
	Seed   uint64
	// OutDir, when set, receives each reconstruction as NAME.png (a bag's
	// as bag-B-N.png).
	OutDir string
	// Timeout is each puzzle's budget (0: none), decoding included.
	Timeout time.Duration
	// Progress reports on stderr; OnGeneration, when set, is each
	// puzzle's jigsaw.Problem.Progress.
	Progress     *progress.Reporter
	OnGeneration func(jigsaw.Generation)
	// Remote, when set, runs the puzzles as jobs on workers ("-nats"),
	// which build the solver Algo with Options and read the same files.
	Remote  Remote
	Options catalog.JigsawOptions
}

// JigsawRecord is one -json line of jigsaw bench: one source image.
type JigsawRecord struct {
	Image         string  `json:"image"`
	Pieces        int     `json:"pieces"`
	Direct        float64 `json:"direct"`
	Neighbor      float64 `json:"neighbor"`
	Perfect       bool    `json:"perfect"`
	Seconds       float64 `json:"seconds"`
	CompatSeconds float64 `json:"compat_seconds"`
	// CPUSeconds is the CPU time of the whole process (every core) while
	// it solved the puzzle: a figure that load on other processes barely
	// changes.
	CPUSeconds  float64 `json:"cpu_seconds"`
	BestBuddies float64 `json:"best_buddies"`
	// Frame is the rows and columns the solver estimated for a picture
	// of unknown size. Bag numbers the mixed bag (from 1) and Outputs
	// says how many pictures the solver made of it, with -bag.
	Frame   []int   `json:"frame,omitempty"`
	Bag     int     `json:"bag,omitempty"`
	Outputs int     `json:"outputs,omitempty"`
	Fitness float64 `json:"fitness,omitempty"`
	Error   string  `json:"error,omitempty"`
}

// jigsawPuzzle is the outcome of one puzzle: a record per source image.
type jigsawPuzzle struct {
	recs      []JigsawRecord
	secs, cpu float64
	right     bool     // as many outputs as pictures
	outputs   []string // from a worker: the reconstructions' blobs
	err       error
}

// Run benches every puzzle, printing through w (whose Header it sets),
// and ends with the summary. It fails on an image it cannot read or an
// output it cannot write; a solver's error is recorded with its puzzle.
func (j *Jigsaw) Run(ctx context.Context, w *Writer) error {
	if j.OutDir != "" {
		if err := os.MkdirAll(j.OutDir, 0o755); err != nil {
			return err
		}
	}
	var groups [][]string
	for files := j.Files; len(files) > 0; {
		k := min(max(j.Bag, 1), len(files))
		groups, files = append(groups, files[:k]), files[k:]
	}
	what := "images"
	if j.Bag > 0 {
		what = "bags"
	}
	count := j.Progress.Counter(what, len(groups))
	w.AlignRight, w.Header = true, "image\tpieces\tdirect\tneighbour\tperfect\tseconds\tcpu s\t"
	if j.Bag > 0 {
		w.Header = "image\tbag\toutputs\tpieces\tdirect\tneighbour\tperfect\tseconds\tcpu s\t"
	}
	var (
		recs       []JigsawRecord
		secs, cpus []float64
		right      int
		store      BlobRemote
		addrs      map[string]string
	)
	if j.Remote != nil {
		var err error
		if store, err = blobRemote(j.Remote); err != nil {
			return err
		}
		if addrs, err = putFiles(ctx, store, j.Files); err != nil {
			return err
		}
	}
	_, err := RunItems(ctx, len(groups), Options{Workers: 1, Timeout: j.Timeout, Remote: j.Remote},
		JigsawJob, func(b int) jigsawItem { return j.item(b, groups[b], addrs) },
		func(b int, o *jigsawPuzzle, _ time.Duration) error {
			if o.err != nil {
				return o.err
			}
			if store != nil && j.OutDir != "" {
				if err := j.fetchOutputs(ctx, store, b, groups[b], o.outputs); err != nil {
					return err
				}
			}
			secs, cpus = append(secs, o.secs), append(cpus, o.cpu)
			if o.right {
				right++
			}
			for _, r := range o.recs {
				recs = append(recs, r)
				row := r.Image + "\t"
				if j.Bag > 0 {
					row = fmt.Sprintf("%s\t%d\t%d\t", r.Image, r.Bag, r.Outputs)
				}
				row += fmt.Sprintf("%d\t%.2f%%\t%.2f%%\t%v\t%.3f\t%.3f\t", r.Pieces, 100*r.Direct, 100*r.Neighbor, r.Perfect, r.Seconds, r.CPUSeconds)
				if err := w.Item(r, row); err != nil {
					return err
				}
				j.Progress.Logf("%s: direct %.1f%%, neighbour %.1f%%, %.2f s", r.Image, 100*r.Direct, 100*r.Neighbor, r.Seconds)
			}
			count.Add(1)
			return nil
		})
	if err != nil {
		return err
	}
	j.Progress.Done()
	if err := j.summary(w, recs, secs, cpus, right, len(groups)); err != nil {
		return err
	}
	return jigsawFailures(recs)
}

// errJigsawFailed is returned by a jigsaw bench whose puzzles did not all
// succeed (a solver's error, such as its budget ending), after the
// report: the command exits 1.
var errJigsawFailed = errors.New("bench: some puzzles failed")

// jigsawFailures returns an error wrapping errJigsawFailed that counts
// the records with an error and quotes the first, or nil.
func jigsawFailures(recs []JigsawRecord) error {
	failed, first := 0, ""
	for _, r := range recs {
		if r.Error != "" {
			if failed == 0 {
				first = r.Image + ": " + r.Error
			}
			failed++
		}
	}
	if failed == 0 {
		return nil
	}
	return fmt.Errorf("%w: %d of %d images (first: %s)", errJigsawFailed, failed, len(recs), first)
}

// jigsawPicture is a picture of a puzzle: its name and how to read it.
type jigsawPicture struct {
	Name string
	Read func(ctx context.Context) ([]byte, error)
}

// jigsawFiles are the pictures of files, read from this machine's files.
func jigsawFiles(files []string) []jigsawPicture {
	pics := make([]jigsawPicture, len(files))
	for i, f := range files {
		pics[i] = jigsawPicture{Name: filepath.Base(f), Read: func(ctx context.Context) ([]byte, error) { return readImageFile(ctx, f) }}
	}
	return pics
}

// puzzle loads, scrambles, solves and scores bag b of pictures; save,
// when set, receives each reconstruction i as a PNG writer (with its
// number in the placement).
func (j *Jigsaw) puzzle(ctx context.Context, b int, pics []jigsawPicture, save func(i int, png func(io.Writer) error) error) jigsawPuzzle {
	var grids []*jigsaw.Grid
	for _, pic := range pics {
		data, err := pic.Read(ctx)
		var g *jigsaw.Grid
		if err == nil {
			g, err = JigsawGridOf(ctx, pic.Name, data, j.Piece, j.Crop)
		}
		if err != nil && ctx.Err() != nil {
			// The puzzle's budget ended while decoding: a failed puzzle,
			// not the end of the bench.
			var recs []JigsawRecord
			for _, pic := range pics {
				recs = append(recs, JigsawRecord{Image: pic.Name, Bag: b + 1, Error: err.Error()})
			}
			if j.Bag == 0 {
				recs[0].Bag = 0
			}
			return jigsawPuzzle{recs: recs}
		}
		if err != nil {
			return jigsawPuzzle{err: err}
		}
		grids = append(grids, g)
	}
	pz, truth := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Rotate: j.Type == 2, Seed: j.Seed})
	p := &jigsaw.Problem{Puzzle: pz, Images: 1, Progress: j.OnGeneration}
	switch {
	case j.Bag > 0 && catalog.CountsPictures(j.Solver):
		p.Images = 0
	case j.Bag > 0:
		p.Images = len(grids)
	case j.Known:
		p.Rows, p.Cols = grids[0].Rows, grids[0].Cols
	}
	cpu0, _ := catalog.ProcessCPU()
	res, serr := j.Solver.Solve(ctx, p)
	cpu1, _ := catalog.ProcessCPU()
	out := jigsawPuzzle{secs: res.Elapsed.Seconds(), cpu: (cpu1 - cpu0).Seconds()}
	var acc jigsaw.Accuracy
	if res.Placement != nil {
		var err error
		if acc, err = jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{Absolute: j.Known && j.Type == 1}); err != nil {
			return jigsawPuzzle{err: err}
		}
		out.right = res.Placement.Images == len(grids)
		for i := range res.Placement.Images {
			if save == nil || res.Placement.Bounds(i).Empty() {
				continue
			}
			if err := save(i, func(w io.Writer) error { return jigsaw.WritePNG(w, pz, res.Placement, i) }); err != nil {
				return jigsawPuzzle{err: err}
			}
		}
	}
	for i, g := range grids {
		rec := JigsawRecord{Image: g.Name, Pieces: g.Rows * g.Cols, Seconds: out.secs, CompatSeconds: res.CompatTime.Seconds(),
			CPUSeconds: out.cpu, BestBuddies: res.BestBuddies, Fitness: res.Fitness}
		if res.Frame != [2]int{} {
			rec.Frame = res.Frame[:]
		}
		if j.Bag > 0 {
			rec.Bag = b + 1
			if res.Placement != nil {
				rec.Outputs = res.Placement.Images
			}
		}
		if serr != nil {
			rec.Error = serr.Error()
		}
		if res.Placement != nil {
			s := acc.Images[i]
			rec.Direct, rec.Neighbor, rec.Perfect = s.Direct, s.Neighbor, s.Perfect
		}
		out.recs = append(out.recs, rec)
	}
	return out
}

// summary writes the summary object, or the table's mean row and the
// report's last lines.
func (j *Jigsaw) summary(w *Writer, recs []JigsawRecord, secs, cpus []float64, right, puzzles int) error {
	var direct, neighbor []float64
	perfect := 0
	for _, r := range recs {
		direct, neighbor = append(direct, r.Direct), append(neighbor, r.Neighbor)
		if r.Perfect {
			perfect++
		}
	}
	dims := map[bool]string{true: "known", false: "unknown"}[j.Known]
	if w.JSON {
		sum := map[string]any{"summary": true, "images": len(recs), "direct": Mean(direct),
			"neighbor": Mean(neighbor), "perfect": perfect, "seconds": Mean(secs), "max_seconds": slices.Max(secs),
			"cpu_seconds": Mean(cpus), "peak_rss_mib": catalog.PeakRSS() >> 20,
			"type": j.Type, "dims": dims, "piece": j.Piece, "metric": j.Metric.String(), "seed": j.Seed, "algo": j.Algo}
		if j.Bag > 0 {
			sum["bag"], sum["bags"], sum["outputs_right"] = j.Bag, puzzles, right
		}
		return w.Summary(sum, nil)
	}
	bagNote, gap := "", ""
	if j.Bag > 0 {
		told := map[bool]string{true: "count not told", false: "count told"}[catalog.CountsPictures(j.Solver)]
		bagNote, gap = fmt.Sprintf(", bags of %d (%s)", j.Bag, told), "\t\t"
	}
	fmt.Fprintf(w.W, "Type %d, size %s%s, %d px pieces, %s with %s, seed %d\n\n", j.Type, dims, bagNote, j.Piece, j.Label, j.Metric, j.Seed)
	w.Item(nil, fmt.Sprintf("mean\t%s\t%.2f%%\t%.2f%%\t%d/%d\t%.3f\t%.3f\t", gap, 100*Mean(direct), 100*Mean(neighbor), perfect, len(recs), Mean(secs), Mean(cpus)))
	return w.Summary(nil, func(out io.Writer) {
		if j.Bag > 0 {
			fmt.Fprintf(out, "bags that came out as the right number of pictures: %d/%d\n", right, puzzles)
		}
		if rss := catalog.PeakRSS(); rss > 0 {
			fmt.Fprintf(out, "peak memory (resident): %d MiB\n", rss>>20)
		}
		for _, r := range recs {
			if r.Error != "" {
				fmt.Fprintf(out, "%s: %s\n", r.Image, r.Error)
			}
		}
	})
}

// Gaps is `tessera jigsaw neural bench`: Crops random gap puzzles cut from
// every image of Files (drawn from Options.Seed), each solved by the
// catalogue's solver Algo (catalog.Gaps) with Options and scored.
type Gaps struct {
	Files    []string
	Crops    int
	Geometry neural.Geometry
	Algo     string
	Options  catalog.GapOptions
	OutDir   string
	// Report lists, beside the answer (V's choice among the attempts,
	// "best"), the attempts to score too: "worst" (the lowest patch
	// score, then neighbour score, of the attempts) and "oracle" (the
	// highest): Alphazzle's Table 10.
	Report []string
	// Progress reports on stderr.
	Progress *progress.Reporter
	// Remote, when set, solves the images as jobs on workers ("-nats"),
	// which build the solver from Settings (the model loaded there) and
	// read the same files.
	Remote   Remote
	Settings catalog.GapSettings
}

// GapReports are the valid entries of Gaps.Report.
var GapReports = []string{"best", "worst", "oracle"}

// gapRecord is one -json line of jigsaw neural bench.
type gapRecord struct {
	Crop     int     `json:"crop"`
	Image    string  `json:"image"`
	Neighbor float64 `json:"neighbor"`
	Patch    float64 `json:"patch"`
	Perfect  bool    `json:"perfect"`
	Puzzle   int     `json:"puzzle"`
	Seconds  float64 `json:"seconds"`
	Value    float64 `json:"value"`
	// The worst and the oracle-best attempts (with Report).
	Worst  *gapScore `json:"worst,omitempty"`
	Oracle *gapScore `json:"oracle,omitempty"`
}

// gapScore is the score of one attempt.
type gapScore struct {
	Neighbor float64 `json:"neighbor"`
	Patch    float64 `json:"patch"`
	Perfect  bool    `json:"perfect"`
}

// gapSum adds up scores.
type gapSum struct {
	patch, neighbor float64
	perfect         int
}

func (s *gapSum) add(sc gapScore) {
	s.patch, s.neighbor = s.patch+sc.Patch, s.neighbor+sc.Neighbor
	if sc.Perfect {
		s.perfect++
	}
}

// extremes returns the attempts' lowest and highest scores, ordered by
// patch score then neighbour score.
func extremes(pz *neural.Puzzle, attempts []neural.Attempt) (worst, best gapScore) {
	for i, a := range attempts {
		acc := pz.Score(a.Cells)
		sc := gapScore{Neighbor: acc.Neighbor, Patch: acc.Patch, Perfect: acc.Perfect}
		less := func(a, b gapScore) bool { return a.Patch < b.Patch || a.Patch == b.Patch && a.Neighbor < b.Neighbor }
		if i == 0 || less(sc, worst) {
			worst = sc
		}
		if i == 0 || less(best, sc) {
			best = sc
		}
	}
	return worst, best
}

// gapImage is the outcome of one image's puzzles.
type gapImage struct {
	recs    []gapRecord
	outputs []string // from a worker: each crop's picture as a blob
	err     error
}

// Run solves every puzzle in turn (the whole run under ctx's budget) and
// prints through w; it stops at the first error.
func (g *Gaps) Run(ctx context.Context, w *Writer) error {
	if g.OutDir != "" {
		if err := os.MkdirAll(g.OutDir, 0o755); err != nil {
			return err
		}
	}
	var sumP, sumN, sumS float64
	var worst, oracle gapSum
	perfect, k := 0, 0
	var (
		store BlobRemote
		addrs map[string]string
	)
	if g.Remote != nil {
		var err error
		if store, err = blobRemote(g.Remote); err != nil {
			return err
		}
		if g.Settings.Model != "" {
			return errors.New("bench: a job names no file on its worker: -model works without -nats (workers use the shipped models)")
		}
		if addrs, err = putFiles(ctx, store, g.Files); err != nil {
			return err
		}
	}
	_, err := RunItems(ctx, len(g.Files), Options{Workers: 1, Remote: g.Remote}, GapsJob, func(i int) gapItem { return g.item(i, addrs) }, func(i int, im *gapImage, _ time.Duration) error {
		if im.err != nil {
			return im.err
		}
		if store != nil && g.OutDir != "" {
			if err := g.fetchOutputs(ctx, store, i, im.outputs); err != nil {
				return err
			}
		}
		for _, r := range im.recs {
			sumP, sumN, sumS = sumP+r.Patch, sumN+r.Neighbor, sumS+r.Seconds
			if r.Perfect {
				perfect++
			}
			if r.Worst != nil {
				worst.add(*r.Worst)
			}
			if r.Oracle != nil {
				oracle.add(*r.Oracle)
			}
			if w.JSON {
				if err := w.Item(r, ""); err != nil {
					return err
				}
			}
			k++
			g.Progress.Printf("%d puzzles: %.1f%% patches, %.1f%% neighbours, %d perfect", k, 100*sumP/float64(k), 100*sumN/float64(k), perfect)
		}
		return nil
	})
	if err != nil {
		return err
	}
	g.Progress.Done()
	n, o := float64(k), g.Options
	type namedSum struct {
		name string
		sum  gapSum
	}
	var extra []namedSum
	if slices.Contains(g.Report, "worst") {
		extra = append(extra, namedSum{"worst", worst})
	}
	if slices.Contains(g.Report, "oracle") {
		extra = append(extra, namedSum{"oracle", oracle})
	}
	if w.JSON {
		sum := map[string]any{"summary": true, "puzzles": k, "patch": sumP / n, "neighbor": sumN / n,
			"perfect": float64(perfect) / n, "seconds": sumS / n, "algo": g.Algo, "reward": o.Reward.String(),
			"grid": g.Geometry.Grid, "sims": o.Sims, "attempts": o.Attempts, "hybrid": o.Hybrid, "seed": o.Seed}
		// The ablations' settings, when any is not the default.
		if o.Prior != 0 || o.Value != 0 || o.Selection != 0 || o.Order != 0 || o.Hints != 0 || o.C != 0 {
			sum["prior"], sum["value"], sum["select"], sum["order"], sum["hints"] = o.Prior.String(), o.Value.String(), o.Selection.String(), o.Order.String(), o.Hints
			if o.CentralHint {
				sum["hints"] = "central"
			}
			if o.C > 0 {
				sum["c"] = o.C
			}
		}
		for _, e := range extra {
			sum[e.name+"_patch"], sum[e.name+"_neighbor"], sum[e.name+"_perfect"] = e.sum.patch/n, e.sum.neighbor/n, float64(e.sum.perfect)/n
		}
		return w.Summary(sum, nil)
	}
	fmt.Fprintf(w.W, "%d puzzles %dx%d, %s (%s reward, %d sims, %d attempts)\npatches %.1f%%, neighbours %.1f%%, perfect %.1f%% (%d), %.3f s per puzzle\n",
		k, g.Geometry.Grid, g.Geometry.Grid, g.Algo, o.Reward, o.Sims, o.Attempts, 100*sumP/n, 100*sumN/n, 100*float64(perfect)/n, perfect, sumS/n)
	for _, e := range extra {
		fmt.Fprintf(w.W, "%s attempt: patches %.1f%%, neighbours %.1f%%, perfect %.1f%% (%d)\n",
			e.name, 100*e.sum.patch/n, 100*e.sum.neighbor/n, 100*float64(e.sum.perfect)/n, e.sum.perfect)
	}
	return nil
}

// image cuts, solves and scores the puzzles of image i: crop c is puzzle
// k = i*Crops + c, drawn from the image's own stream (Seed, i) and solved
// with seed Seed + k.
//
// pic reads the image; save, when set, receives each crop's solved picture
// (its number c) as a PNG writer.
func (g *Gaps) image(ctx context.Context, i int, pic jigsawPicture, save func(c int, png func(io.Writer) error) error) gapImage {
	data, err := pic.Read(ctx)
	if err != nil {
		return gapImage{err: err}
	}
	img, err := imageio.DecodeBytesContext(ctx, data, imageio.Options{})
	if err != nil {
		return gapImage{err: fmt.Errorf("%s: %w", pic.Name, err)}
	}
	rng := rand.New(rand.NewPCG(g.Options.Seed, uint64(i)))
	var out gapImage
	for c := range g.Crops {
		k := i*g.Crops + c
		pz := neural.Random(img.Pix, g.Geometry, rng)
		o := g.Options
		o.Seed += uint64(k)
		s, err := catalog.Gaps.New(g.Algo, o)
		if err != nil {
			return gapImage{err: err}
		}
		res, err := s.Solve(ctx, pz)
		if err != nil {
			return gapImage{err: err}
		}
		acc := pz.Score(res.Cells)
		if save != nil {
			if err := save(c, func(w io.Writer) error { return png.Encode(w, pz.Render(res.Cells, color.White)) }); err != nil {
				return gapImage{err: err}
			}
		}
		rec := gapRecord{Puzzle: k, Image: pic.Name, Crop: c, Patch: acc.Patch, Neighbor: acc.Neighbor,
			Perfect: acc.Perfect, Seconds: res.Elapsed.Seconds(), Value: res.Value}
		if len(res.Attempts) > 0 {
			worst, oracle := extremes(pz, res.Attempts)
			if slices.Contains(g.Report, "worst") {
				rec.Worst = &worst
			}
			if slices.Contains(g.Report, "oracle") {
				rec.Oracle = &oracle
			}
		}
		out.recs = append(out.recs, rec)
	}
	return out
}

// LoadJigsawGrid reads an image and cuts it into piece-pixel pieces (its centre,
// with crop, when its sides are not multiples of piece).
func LoadJigsawGrid(ctx context.Context, path string, piece int, crop bool) (*jigsaw.Grid, error) {
	data, err := readImageFile(ctx, path)
	if err != nil {
		return nil, err
	}
	return JigsawGridOf(ctx, filepath.Base(path), data, piece, crop)
}

// readImageFile reads an image file, bounded as imageio.ReadAllContext
// bounds it.
func readImageFile(ctx context.Context, path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	data, err := imageio.ReadAllContext(ctx, f, imageio.Options{})
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return data, nil
}

// JigsawGridOf decodes the image data (named name) and cuts it as
// LoadJigsawGrid does.
func JigsawGridOf(ctx context.Context, name string, data []byte, piece int, crop bool) (*jigsaw.Grid, error) {
	// Bound the pieces by the header, before decoding.
	if _, w, h, err := imageio.Header(data, imageio.Options{}); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	} else if piece >= 2 && (w/piece)*(h/piece) > jigsaw.DefaultMaxPieces {
		return nil, fmt.Errorf("%s: %w: %dx%d cut into %d-pixel pieces makes %d, over the limit of %d", name, jigsaw.ErrTooManyPieces,
			w, h, piece, (w/piece)*(h/piece), jigsaw.DefaultMaxPieces)
	}
	img, err := imageio.DecodeBytesContext(ctx, data, imageio.Options{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	g, err := jigsaw.CutContext(ctx, img.Pix, piece, jigsaw.CutOptions{Crop: crop, Depth: img.Depth})
	if err != nil {
		if errors.Is(err, jigsaw.ErrNotDivisible) {
			err = fmt.Errorf("%w; use -crop to cut the centre", err)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	g.Name = name
	return g, nil
}

// jigsawExts are the extensions a set picks up in a folder.
var jigsawExts = []string{".png", ".jpg", ".jpeg", ".webp"}

// JigsawSet resolves a jigsaw bench's -set: a folder (its images, in
// natural order: 2.png before 10.png), a comma-separated list of files, or
// the name of a set in the shared data (data, or datadir's, /jigsaw/NAME).
func JigsawSet(set, data string) ([]string, error) {
	if strings.Contains(set, ",") {
		var files []string
		for _, f := range strings.Split(set, ",") {
			if f = strings.TrimSpace(f); f != "" {
				files = append(files, f)
			}
		}
		return files, nil
	}
	st, err := os.Stat(set)
	if err != nil && !strings.ContainsRune(set, filepath.Separator) {
		dir := data
		if dir == "" {
			dir, _ = datadir.Dir()
		}
		if alt := filepath.Join(dir, "jigsaw", set); dir != "" {
			if st2, err2 := os.Stat(alt); err2 == nil && st2.IsDir() {
				set, st, err = alt, st2, nil
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("-set %s: %w", set, err)
	}
	if !st.IsDir() {
		return []string{set}, nil
	}
	entries, err := os.ReadDir(set)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() && slices.Contains(jigsawExts, strings.ToLower(filepath.Ext(e.Name()))) {
			files = append(files, filepath.Join(set, e.Name()))
		}
	}
	slices.SortFunc(files, jigsawNatural)
	if len(files) == 0 {
		return nil, fmt.Errorf("-set %s: no PNG, JPEG or WebP images", set)
	}
	return files, nil
}

// GapSet lists the images of a comma-separated list of folders and files
// (each read as JigsawSet reads one, without the shared data).
func GapSet(set string) ([]string, error) {
	var files []string
	for _, part := range strings.Split(set, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		more, err := JigsawSet(part, "")
		if err != nil {
			return nil, err
		}
		files = append(files, more...)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no PNG, JPEG or WebP images", set)
	}
	return files, nil
}

// jigsawNatural orders "2.png" before "10.png".
func jigsawNatural(a, b string) int {
	a, b = filepath.Base(a), filepath.Base(b)
	na, nb := jigsawLeadingNumber(a), jigsawLeadingNumber(b)
	if na != nb {
		return na - nb
	}
	return strings.Compare(a, b)
}

func jigsawLeadingNumber(s string) int {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			break
		}
		n = min(10*n+int(r-'0'), 1<<30)
	}
	return n
}

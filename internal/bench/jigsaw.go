package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"tessera/imageio"
	"tessera/internal/catalog"
	"tessera/internal/datadir"
	"tessera/internal/progress"
	"tessera/jigsaw"
)

// Jigsaw is `tessera jigsaw bench`: every image of a set (or every bag of
// Bag images, in order) cut into Piece-pixel pieces, scrambled from the
// spec's seed (turned too for Type 2), solved and scored: a
// catalog.JigsawJob per puzzle, one at a time (the solvers use every
// core), here or, with Remote, on workers.
//
// The fields with a json tag are the command line's flags
// (catalog.BindFlags), documented by their help tags.
type Jigsaw struct {
	Files []string
	Piece int  `json:"piece" help:"piece side in pixels"`
	Type  int  `json:"type" help:"1: position unknown; 2: position and rotation unknown"`
	Known bool // the solver is told the size of a single picture
	Bag   int  `json:"bag" help:"mix the pieces of this many images per puzzle (sizes unknown)"`
	Crop  bool `json:"crop" help:"cut the centre of images whose sides are not multiples of -piece"`
	// Spec is the solver, its options and each puzzle's budget (decoding
	// included).
	Spec catalog.Spec[catalog.JigsawOptions]
	// OutDir, when set, receives each reconstruction as NAME.png (a bag's
	// as bag-B-N.png).
	OutDir string `json:"out" help:"write the reconstructions to this folder"`
	// Progress reports on stderr; Hooks are each puzzle's in-process run's.
	Progress *progress.Reporter
	Hooks    catalog.JigsawHooks
	// Remote, when set, runs the puzzles as "jigsaw.solve" jobs on
	// workers, the pictures sent as blobs.
	Remote Remote
}

// jigsawOut is a puzzle's outcome: its result, or the error that ends the
// bench (here; a worker's ends it through RunJobs).
type jigsawOut struct {
	catalog.JigsawResult
	err error
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
		recs       []catalog.JigsawRecord
		secs, cpus []float64
		right      int
		rects      int // outputs that are full rectangles, with -bag
	)
	store, addrs, err := pictureStore(ctx, j.Remote, j.Files)
	if err != nil {
		return err
	}
	_, err = RunJobs(ctx, len(groups), Options{Workers: 1, Remote: j.Remote}, catalog.JigsawKind, j.Spec.Budget.Timeout,
		func(ctx context.Context, job catalog.JigsawJob) jigsawOut {
			res, err := job.Run(ctx, store, j.Hooks)
			return jigsawOut{res, err}
		},
		func(b int) catalog.JigsawJob { return j.job(b, groups[b], addrs) },
		func(b int, o *jigsawOut) error {
			if o.err != nil {
				return o.err
			}
			if j.OutDir != "" {
				if err := writeOutputs(ctx, store, o.Outputs, func(i int) string {
					return filepath.Join(j.OutDir, j.outName(b, filepath.Base(groups[b][0]), i))
				}); err != nil {
					return err
				}
			}
			if len(o.Records) > 0 {
				secs, cpus = append(secs, o.Records[0].Seconds), append(cpus, o.Records[0].CPUSeconds)
				rects += o.Records[0].Rectangles
			}
			if o.Right() {
				right++
			}
			for _, r := range o.Records {
				recs = append(recs, r)
				row := r.Image + "\t"
				if j.Bag > 0 {
					row = fmt.Sprintf("%s\t%d\t%d\t", r.Image, r.Bag, r.Outputs)
				}
				a := r.JigsawAccuracy
				row += fmt.Sprintf("%d\t%.2f%%\t%.2f%%\t%v\t%.3f\t%.3f\t", r.Pieces, 100*a.Direct, 100*a.Neighbor, a.Perfect, r.Seconds, r.CPUSeconds)
				if err := w.Item(r, row); err != nil {
					return err
				}
				j.Progress.Logf("%s: direct %.1f%%, neighbour %.1f%%, %.2f s", r.Image, 100*a.Direct, 100*a.Neighbor, r.Seconds)
			}
			count.Add(1)
			return nil
		})
	if err != nil {
		return err
	}
	j.Progress.Done()
	if err := j.summary(w, recs, secs, cpus, right, rects, len(groups)); err != nil {
		return err
	}
	return jigsawFailures(recs)
}

// job is the job of puzzle b, the pictures files (by their addresses in
// the store).
func (j *Jigsaw) job(b int, files []string, addrs map[string]string) catalog.JigsawJob {
	pics := make([]catalog.Picture, len(files))
	for i, f := range files {
		pics[i] = catalog.Picture{Name: filepath.Base(f), Blob: addrs[f]}
	}
	job := catalog.JigsawJob{Spec: j.Spec, Pictures: pics, Piece: j.Piece, Type: j.Type, Known: j.Known, Crop: j.Crop, Save: j.OutDir != ""}
	if j.Bag > 0 {
		job.Bag = b + 1
	}
	return job
}

// outName is the file name of reconstruction i of puzzle b, whose first
// picture is named first.
func (j *Jigsaw) outName(b int, first string, i int) string {
	if j.Bag > 0 {
		return fmt.Sprintf("bag-%d-%d.png", b+1, i+1)
	}
	return strings.TrimSuffix(first, filepath.Ext(first)) + ".png"
}

// errJigsawFailed is returned by a jigsaw bench whose puzzles did not all
// succeed (a solver's error, such as its budget ending), after the
// report: the command exits 1.
var errJigsawFailed = errors.New("bench: some puzzles failed")

// jigsawFailures returns an error wrapping errJigsawFailed that counts
// the records with an error and quotes the first, or nil.
func jigsawFailures(recs []catalog.JigsawRecord) error {
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

// summary writes the summary object, or the table's mean row and the
// report's last lines.
func (j *Jigsaw) summary(w *Writer, recs []catalog.JigsawRecord, secs, cpus []float64, right, rects, puzzles int) error {
	var direct, neighbor []float64
	perfect := 0
	for _, r := range recs {
		direct, neighbor = append(direct, r.Direct), append(neighbor, r.Neighbor)
		if r.Perfect {
			perfect++
		}
	}
	dims := map[bool]string{true: "known", false: "unknown"}[j.Known]
	o := j.Spec.Options
	if w.JSON {
		sum := map[string]any{"summary": true, "images": len(recs), "direct": Mean(direct),
			"neighbor": Mean(neighbor), "perfect": perfect, "seconds": Mean(secs), "max_seconds": slices.Max(secs),
			"cpu_seconds": Mean(cpus), "peak_rss_mib": catalog.PeakRSS() >> 20,
			"type": j.Type, "dims": dims, "piece": j.Piece, "metric": o.Metric.String(), "seed": o.Seed, "algo": j.Spec.Solver}
		if j.Bag > 0 {
			sum["bag"], sum["bags"], sum["outputs_right"], sum["rectangles"] = j.Bag, puzzles, right, rects
		}
		return w.Summary(sum, nil)
	}
	bagNote, gap := "", ""
	if j.Bag > 0 {
		told := map[bool]string{true: "count not told", false: "count told"}[catalog.CountsPictures(j.Spec.Solver)]
		bagNote, gap = fmt.Sprintf(", bags of %d (%s)", j.Bag, told), "\t\t"
	}
	fmt.Fprintf(w.W, "Type %d, size %s%s, %d px pieces, %s with %s, seed %d\n\n", j.Type, dims, bagNote, j.Piece,
		JigsawLabel(j.Spec.Solver, o, false), o.Metric, o.Seed)
	w.Item(nil, fmt.Sprintf("mean\t%s\t%.2f%%\t%.2f%%\t%d/%d\t%.3f\t%.3f\t", gap, 100*Mean(direct), 100*Mean(neighbor), perfect, len(recs), Mean(secs), Mean(cpus)))
	return w.Summary(nil, func(out io.Writer) {
		if j.Bag > 0 {
			fmt.Fprintf(out, "bags that came out as the right number of pictures: %d/%d\n", right, puzzles)
			fmt.Fprintf(out, "outputs that are full rectangles: %d\n", rects)
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

// LoadJigsawGrid reads an image and cuts it into piece-pixel pieces (its centre,
// with crop, when its sides are not multiples of piece).
func LoadJigsawGrid(ctx context.Context, path string, piece int, crop bool) (*jigsaw.Grid, error) {
	data, err := imageio.ReadFileContext(ctx, path, imageio.Options{})
	if err != nil {
		return nil, err
	}
	return catalog.JigsawGridOf(ctx, filepath.Base(path), data, piece, crop)
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

package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"tessera/internal/catalog"
	"time"

	"tessera/tangram"
)

// TangramItem is one puzzle of a tangram bench.
type TangramItem struct {
	Name   string
	Puzzle *tangram.Puzzle
}

// TangramRecord is one -json line of `tangram bench`: the catalogue's
// record of a solve.
type TangramRecord = catalog.TangramRecord

// TangramSummary is the last -json line of `tangram bench`.
type TangramSummary struct {
	Summary        bool    `json:"summary"`
	Algo           string  `json:"algo"`
	Instances      int     `json:"instances"`
	Solved         int     `json:"solved"`
	Seconds        float64 `json:"seconds"`
	MedianSeconds  float64 `json:"median_seconds"`
	MaxSeconds     float64 `json:"max_seconds"`
	MeanIterations float64 `json:"mean_iterations,omitempty"`
	MaxIterations  int     `json:"max_iterations,omitempty"`
}

// Tangram is a tangram bench: every item solved in turn by the catalogue
// solver Algo with Options, each under Timeout of wall-clock time, in this
// process or as "tangram.solve" jobs on Remote's workers ("-nats").
type Tangram struct {
	Items   []TangramItem
	Algo    string // the catalogue id
	Options catalog.TangramOptions
	Timeout time.Duration
	Log     func(format string, args ...any)
	// Unsolved is set by Run: the puzzles not solved.
	Unsolved int
	Remote   Remote
}

// job is item i as the job that solves it.
func (b *Tangram) job(i int) catalog.TangramJob {
	return catalog.TangramJob{Spec: catalog.Spec[catalog.TangramOptions]{Solver: b.Algo, Options: b.Options,
		Budget: catalog.Budget{Timeout: b.Timeout}}, Name: b.Items[i].Name, Puzzle: b.Items[i].Puzzle.String()}
}

// Run solves the items and writes their records and the summary to w.
func (b *Tangram) Run(ctx context.Context, w *Writer) error {
	w.Header = "puzzle\tsolved\tseconds\titerations\tobjective\trestarts\tnodes\tnote"
	if _, err := catalog.Tangram.Lookup(b.Algo); err != nil {
		return err
	}
	if err := b.Options.Check(); err != nil {
		return err
	}
	recs, err := RunJobs(ctx, len(b.Items), Options{Workers: 1, Remote: b.Remote}, catalog.TangramKind, b.Timeout,
		func(ctx context.Context, j catalog.TangramJob) TangramRecord {
			rec, _ := j.Run(ctx, catalog.TangramHooks{})
			return rec
		}, b.job,
		func(_ int, r *TangramRecord) error {
			if b.Log != nil {
				b.Log("%s: solved %v, %.2f s", r.Puzzle, r.Solved, r.Seconds)
			}
			return w.Item(r, fmt.Sprintf("%s\t%v\t%.2f\t%d\t%.3g\t%d\t%d\t%s", r.Puzzle, r.Solved, r.Seconds, r.Iterations, r.Objective, r.Restarts, r.Nodes, r.Error))
		})
	if err != nil {
		return err
	}
	s := TangramSummary{Summary: true, Algo: b.Algo, Instances: len(recs)}
	var secs []float64
	for _, r := range recs {
		if r.Solved {
			s.Solved++
		}
		s.Seconds += r.Seconds
		s.MaxSeconds = max(s.MaxSeconds, r.Seconds)
		secs = append(secs, r.Seconds)
		s.MeanIterations += float64(r.Iterations)
		s.MaxIterations = max(s.MaxIterations, r.Iterations)
	}
	if len(recs) > 0 {
		s.MeanIterations /= float64(len(recs))
	}
	s.MedianSeconds = Median(secs)
	b.Unsolved = s.Instances - s.Solved
	return w.Summary(s, func(out io.Writer) {
		fmt.Fprintf(out, "\n%d puzzles, %d solved by %s, %.2f s (median %.2f s, max %.2f s)", s.Instances, s.Solved, s.Algo, s.Seconds, s.MedianSeconds, s.MaxSeconds)
		if s.MaxIterations > 0 {
			fmt.Fprintf(out, "; %.1f SDPs on average, at most %d", s.MeanIterations, s.MaxIterations)
		}
		fmt.Fprintln(out)
	})
}

// MaxTangramGenerated bounds TangramGenerated's n: generating takes about
// half a millisecond a puzzle, and solving each takes seconds.
const MaxTangramGenerated = 100_000

// TangramGenerated makes n planted puzzles of the piece set pieces
// (tangram.SetNames) from seeds seed, seed+1, ...; n is 1 to
// MaxTangramGenerated. It stops with an error wrapping ctx.Err() once ctx
// has ended.
func TangramGenerated(ctx context.Context, pieces string, n int, seed int64) ([]TangramItem, error) {
	if n < 1 || n > MaxTangramGenerated {
		return nil, fmt.Errorf("-n %d: want 1 to %d puzzles", n, MaxTangramGenerated)
	}
	set, ok := tangram.Set(pieces)
	if !ok {
		return nil, fmt.Errorf("unknown piece set %q (have %s)", pieces, strings.Join(tangram.SetNames(), ", "))
	}
	var items []TangramItem
	for i := range n {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("bench: generating tangram puzzles: %w", err)
		}
		p, _, err := tangram.Generate(seed+int64(i), set)
		if err != nil {
			return nil, err
		}
		items = append(items, TangramItem{Name: fmt.Sprintf("%s seed %d", pieces, seed+int64(i)), Puzzle: p})
	}
	return items, nil
}

// TangramSet reads the puzzles of a bench's list: files, folders (their
// *.txt files) or glob patterns; "classic:NAME" names a classic figure.
func TangramSet(list []string) ([]TangramItem, error) {
	var items []TangramItem
	for _, item := range list {
		if name, ok := strings.CutPrefix(item, "classic:"); ok {
			p, _, err := tangram.Classic(name)
			if err != nil {
				return nil, err
			}
			items = append(items, TangramItem{Name: name, Puzzle: p})
			continue
		}
		found, err := edgeMatchExpand(item)
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("-set: %s: no puzzle files", item)
		}
		for _, f := range found {
			p, err := ReadTangramFile(f)
			if err != nil {
				return nil, err
			}
			items = append(items, TangramItem{Name: strings.TrimSuffix(filepath.Base(f), ".txt"), Puzzle: p})
		}
	}
	return items, nil
}

// ReadTangramFile reads a puzzle file ("-" is not special); errors name
// the file.
func ReadTangramFile(path string) (*tangram.Puzzle, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := tangram.ParsePuzzle(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

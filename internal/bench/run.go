package bench

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"time"

	"tessera/internal/catalog"
)

// Options are a run's workers and per-item budget. The zero value runs one
// item per CPU with no time limit.
type Options struct {
	// Workers is how many items run at once (0: runtime.NumCPU()).
	Workers int
	// Timeout is each item's budget (0: none): wall-clock time, or with
	// CPU the CPU time of the item's thread (Linux; elsewhere wall-clock).
	Timeout time.Duration
	CPU     bool
	// Done, when set, is called after each item (progress counters).
	Done func()
	// Remote, when set, runs the items of RunItems as jobs on workers
	// (tessera worker) instead of in this process; Run ignores it.
	Remote Remote
}

// Run calls work for the items 0..n-1 on Options.Workers goroutines, each
// under its own budget (work must return promptly once its context ends),
// and calls emit with each result in item order as soon as every earlier
// item is done; emit is never called concurrently and may change the
// result (to record cpu, the CPU time the item's thread used with
// Options.CPU, else 0). Run returns every result in order; it stops handing
// out items when ctx ends or emit fails and returns that error (results of
// items never run are zero values). A nil emit is allowed.
func Run[R any](ctx context.Context, n int, opts Options, work func(ctx context.Context, i int) R, emit func(i int, r *R, cpu time.Duration) error) ([]R, error) {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	res := make([]R, n)
	cpus := make([]time.Duration, n)
	var (
		mu      sync.Mutex
		done    = make([]bool, n)
		printed int
		next    int
		emitErr error
		wg      sync.WaitGroup
	)
	flush := func() {
		for printed < n && done[printed] {
			if emit != nil && emitErr == nil {
				emitErr = emit(printed, &res[printed], cpus[printed])
			}
			printed++
		}
	}
	for range min(workers, n) {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				stop := emitErr != nil
				mu.Unlock()
				if i >= n || stop || ctx.Err() != nil {
					return
				}
				var r R
				used := catalog.WithBudget(ctx, opts.Timeout, opts.CPU, func(ctx context.Context) { r = work(ctx, i) })
				mu.Lock()
				res[i], cpus[i] = r, used
				done[i] = true
				flush()
				mu.Unlock()
				if opts.Done != nil {
					opts.Done()
				}
			}
		})
	}
	wg.Wait()
	if emitErr != nil {
		return res, emitErr
	}
	return res, ctx.Err()
}

// Mean returns the mean of xs (0 for none).
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t / float64(len(xs))
}

// Median returns the median of xs (0 for none); xs is not changed.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Seconds converts a duration to seconds for JSON output.
func Seconds(d time.Duration) float64 { return d.Seconds() }

// Count counts the records for which pred holds.
func Count[R any](recs []R, pred func(*R) bool) int {
	n := 0
	for i := range recs {
		if pred(&recs[i]) {
			n++
		}
	}
	return n
}

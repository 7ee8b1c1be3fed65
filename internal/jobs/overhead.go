package jobs

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Overhead is the per-job overhead of a job system, as MeasureOverhead
// measures it: the milliseconds from submit to result of empty jobs
// (NoopKind), and the jobs per second.
type Overhead struct {
	Jobs        int     `json:"jobs"`
	Concurrency int     `json:"concurrency"`
	MedianMs    float64 `json:"median_ms"`
	P90Ms       float64 `json:"p90_ms"`
	P99Ms       float64 `json:"p99_ms"`
	MaxMs       float64 `json:"max_ms"`
	PerSecond   float64 `json:"jobs_per_second"`
	Seconds     float64 `json:"seconds"`
}

// MeasureOverhead calls n empty jobs (NoopKind) on c, concurrency at a
// time, and returns the distribution of their submit-to-result times. The
// first failed call stops it (the calls in flight finish): its error, and
// those of the calls in flight, are returned; so is ctx's error when ctx
// ends first.
func MeasureOverhead(ctx context.Context, c *Client, n, concurrency int) (Overhead, error) {
	if n < 1 || concurrency < 1 {
		return Overhead{}, fmt.Errorf("jobs: overhead of %d jobs, %d at a time: both must be positive", n, concurrency)
	}
	lat := make([]float64, n)
	var (
		next   atomic.Int64 // the next job's index
		failed atomic.Bool  // a call failed: take no more jobs
		mu     sync.Mutex
		errs   []error
		wg     sync.WaitGroup
	)
	start := time.Now()
	for range concurrency {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n && !failed.Load() && ctx.Err() == nil; i = int(next.Add(1)) - 1 {
				t0 := time.Now()
				_, err := c.Call(ctx, NoopKind, nil, 0)
				lat[i] = time.Since(t0).Seconds() * 1000
				if err != nil {
					failed.Store(true)
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	wall := time.Since(start)
	if err := errors.Join(errs...); err != nil {
		return Overhead{}, err
	}
	if err := ctx.Err(); err != nil {
		return Overhead{}, err
	}
	slices.Sort(lat)
	q := func(p float64) float64 { return lat[min(len(lat)-1, int(math.Ceil(p*float64(len(lat))))-1)] }
	median := lat[n/2]
	if n%2 == 0 {
		median = (lat[n/2-1] + lat[n/2]) / 2
	}
	return Overhead{Jobs: n, Concurrency: concurrency, MedianMs: median, P90Ms: q(0.90), P99Ms: q(0.99), MaxMs: lat[n-1],
		PerSecond: float64(n) / wall.Seconds(), Seconds: wall.Seconds()}, nil
}

// String is the one-line report of tessera jobs bench.
func (o Overhead) String() string {
	return fmt.Sprintf("%d empty jobs, %d in flight: submit to result median %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms; %.0f jobs/s (%.1f s)",
		o.Jobs, o.Concurrency, o.MedianMs, o.P90Ms, o.P99Ms, o.MaxMs, o.PerSecond, o.Seconds)
}

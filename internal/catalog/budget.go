package catalog

import (
	"context"
	"runtime"
	"time"
)

// cpuContext ends when its thread has used limit of CPU time (or when its
// parent ends). Its Err method reads the CPU clock of the calling thread,
// so it is only meaningful for a search that polls Err from the goroutine
// that made it, locked to its thread: WithBudget arranges that. Done
// closes only with the parent; the searches here poll Err.
type cpuContext struct {
	context.Context
	start, limit time.Duration
}

func (c *cpuContext) Err() error {
	if err := c.Context.Err(); err != nil {
		return err
	}
	if now, _ := ThreadCPU(); now-c.start >= c.limit {
		return context.DeadlineExceeded
	}
	return nil
}

// WithTimeout derives a context that ends after d, or never when d <= 0.
func WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}

// WithBudget runs f with a context that ends after d: d of CPU time of the
// calling thread when cpu is set and the system can measure it, else d of
// wall-clock time (d <= 0: no limit). With cpu set it returns the CPU time
// f used (0 when it cannot be measured).
func WithBudget(ctx context.Context, d time.Duration, cpu bool, f func(ctx context.Context)) time.Duration {
	ctx, cancel := WithTimeout(ctx, 0)
	defer cancel()
	if cpu {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if start, ok := ThreadCPU(); ok {
			limit := d
			if d <= 0 {
				limit = 1<<63 - 1
			}
			f(&cpuContext{Context: ctx, start: start, limit: limit})
			end, _ := ThreadCPU()
			return end - start
		}
	}
	if d > 0 {
		var tcancel context.CancelFunc
		ctx, tcancel = context.WithTimeout(ctx, d)
		defer tcancel()
	}
	f(ctx)
	return 0
}

// OnCPU runs f and returns the CPU time it took: on a shared machine a
// fairer measure than the wall clock. With process false, f runs locked to
// its OS thread and the time is that thread's (a single-threaded solver);
// with process true it is the whole process's (a solver with workers). ok
// is false where the platform cannot tell.
func OnCPU(process bool, f func()) (cpu time.Duration, ok bool) {
	clock := ProcessCPU
	if !process {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		clock = ThreadCPU
	}
	before, ok := clock()
	f()
	after, ok2 := clock()
	if !ok || !ok2 {
		return 0, false
	}
	return after - before, true
}

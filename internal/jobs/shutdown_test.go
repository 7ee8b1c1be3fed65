package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// shutdownPhase drives test.shutdown: 0 blocks until shutdownStop is
// closed, then fails as a handler does whose process's own context ended
// (the web server's, cancelled by the same interrupt as the workers'); 1
// succeeds.
var (
	shutdownPhase atomic.Int32
	shutdownStop  = make(chan struct{})
)

func init() {
	Register("test.shutdown", func(ctx context.Context, in json.RawMessage, progress func(any)) (any, error) {
		if shutdownPhase.Load() == 1 {
			return "ok", nil
		}
		select {
		case <-shutdownStop:
			return nil, errors.New("stopping: context canceled")
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
}

// A job whose handler ends with an error because the process is stopping
// goes back to the queue, even when the handler returns before the
// workers' context has told it why: it runs again, it is not recorded as
// failed (serve stopped by Ctrl-C recorded its running jobs "failed:
// context canceled").
func TestShutdownHandsJobsBack(t *testing.T) {
	shutdownPhase.Store(0)
	shutdownStop = make(chan struct{})
	c := embedded(t, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const n = 16
	ids := submitN(t, ctx, c, n, Spec{Kind: "test.shutdown"})
	wctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); RunWorkers(wctx, c, n) }()
	for running := 0; running < n; {
		running = 0
		for _, id := range ids {
			if st, err := c.Status(ctx, id); err == nil && st.State == Running {
				running++
			}
		}
		if ctx.Err() != nil {
			t.Fatalf("%d of %d jobs running", running, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()              // the interrupt: the workers' context ends...
	close(shutdownStop) // ...and with it the process's own, which the handlers see first
	<-done
	for _, id := range ids {
		if st, err := c.Status(ctx, id); err != nil || st.State == Failed {
			t.Errorf("job %s after the shutdown: %+v, %v", id, st, err)
		}
	}
	shutdownPhase.Store(1)
	wctx, stop = context.WithCancel(ctx)
	defer stop()
	go RunWorkers(wctx, c, 4)
	for _, id := range ids {
		st, err := c.Wait(ctx, id)
		if err != nil || st.State != Done || string(st.Result) != `"ok"` {
			t.Errorf("job %s run again: %+v, %v", id, st, err)
		}
	}
}

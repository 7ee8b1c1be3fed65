package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestQueueBound: past the queue's bound a submission is refused with
// ErrFull, saying which bound; the refused job leaves no record, and the
// jobs accepted are all there.
func TestQueueBound(t *testing.T) {
	c := embedded(t, 0, WithLimits(Limits{MaxQueued: 5}))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for i := range 5 {
		if _, err := c.Submit(ctx, Spec{Kind: NoopKind}); err != nil {
			t.Fatalf("job %d of 5: %v", i+1, err)
		}
	}
	_, err := c.Submit(ctx, Spec{ID: "sixth", Kind: NoopKind})
	if !errors.Is(err, ErrFull) || !strings.Contains(err.Error(), "queue") || !strings.Contains(err.Error(), "maximum messages") {
		t.Fatalf("sixth job: %v, want ErrFull for the queue", err)
	}
	if _, err := c.Status(ctx, "sixth"); !errors.Is(err, ErrNotFound) {
		t.Errorf("refused job recorded: %v", err)
	}
	if all, err := c.List(ctx); err != nil || len(all) != 5 {
		t.Errorf("%d records, %v; want the 5 accepted", len(all), err)
	}
	// Workers drain the queue: room again.
	wctx, wcancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); RunWorkers(wctx, c, 2) }()
	defer func() { wcancel(); <-done }()
	for {
		info, err := c.js.Stream(ctx, StreamName)
		if err != nil {
			t.Fatal(err)
		}
		if info.CachedInfo().State.Msgs == 0 {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("the queue did not drain")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := c.Submit(ctx, Spec{Kind: NoopKind}); err != nil {
		t.Fatalf("after the queue drained: %v", err)
	}
}

// TestRecordBound: once the bucket is nine tenths full submissions are
// refused with ErrFull (and the server's own bound holds behind it).
func TestRecordBound(t *testing.T) {
	c := embedded(t, 0, WithLimits(Limits{MaxRecords: 20}))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var err error
	n := 0
	for ; n < 25; n++ {
		if _, err = c.Submit(ctx, Spec{Kind: NoopKind}); err != nil {
			break
		}
	}
	if !errors.Is(err, ErrFull) || !strings.Contains(err.Error(), "record") {
		t.Fatalf("after %d jobs: %v, want ErrFull for the records", n, err)
	}
	if n != 18 || !strings.Contains(err.Error(), "nine tenths") {
		t.Fatalf("%d jobs accepted with a bound of 20 records, want 18 (nine tenths): %v", n, err)
	}
	t.Logf("%d accepted, then: %v", n, err)
}

// TestRetention: the store's owner forgets finished jobs past the
// retention; a queued job is kept.
func TestRetention(t *testing.T) {
	c := embedded(t, 0, WithLimits(Limits{Retention: 500 * time.Millisecond}))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	wctx, wcancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); RunWorkers(wctx, c, 1) }()
	id, err := c.Submit(ctx, Spec{Kind: NoopKind, Input: json.RawMessage(`1`)})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := c.Wait(ctx, id); err != nil || st.State != Done {
		t.Fatalf("%+v, %v", st, err)
	}
	wcancel()
	<-done
	queued, err := c.Submit(ctx, Spec{Kind: NoopKind})
	if err != nil {
		t.Fatal(err)
	}
	for {
		_, err := c.Status(ctx, id)
		if errors.Is(err, ErrNotFound) {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("finished job not forgotten after its retention")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if st, err := c.Status(ctx, queued); err != nil || st.State != Queued {
		t.Errorf("queued job: %+v, %v", st, err)
	}
}

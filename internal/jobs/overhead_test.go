package jobs

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// MeasureOverhead calls every job once and orders its quantiles; with no
// worker to run the jobs it ends with its context.
func TestMeasureOverhead(t *testing.T) {
	c, err := StartEmbedded(t.Context(), ServerOptions{Dir: t.TempDir()}, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	o, err := MeasureOverhead(t.Context(), c, 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	if o.Jobs != 7 || o.Concurrency != 3 || !(0 < o.MedianMs && o.MedianMs <= o.P90Ms && o.P90Ms <= o.P99Ms && o.P99Ms <= o.MaxMs) || o.PerSecond <= 0 {
		t.Errorf("overhead %+v", o)
	}
	if s := o.String(); !strings.HasPrefix(s, "7 empty jobs, 3 in flight: submit to result median ") {
		t.Errorf("line %q", s)
	}
	if _, err := MeasureOverhead(t.Context(), c, 0, 1); err == nil {
		t.Error("0 jobs measured")
	}

	idle, err := StartEmbedded(t.Context(), ServerOptions{Dir: t.TempDir()}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	if _, err := MeasureOverhead(ctx, idle, 3, 1); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("no workers: %v, want the deadline", err)
	}
}

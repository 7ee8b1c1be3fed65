package web

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"tessera/internal/jobs"
)

// TestNATSJobsFull: a submission past the job store's bound is answered
// 507 with the reason; the ids the NATS backend gives are 128 random
// bits.
func TestNATSJobsFull(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := jobs.StartEmbedded(ctx, jobs.ServerOptions{Dir: t.TempDir()}, 0, jobs.WithLimits(jobs.Limits{MaxQueued: 1}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	n := NATSJobs{C: c}
	id, err := n.Submit(ctx, jobs.NoopKind, json.RawMessage(`1`), time.Second)
	if err != nil || !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(id) {
		t.Fatalf("first job: %q, %v", id, err)
	}
	_, err = n.Submit(ctx, jobs.NoopKind, json.RawMessage(`2`), time.Second)
	var ae *apiError
	if !errors.As(err, &ae) || ae.status != 507 || !strings.Contains(ae.msg, "queue") {
		t.Fatalf("past the bound: %v, want a 507", err)
	}
}

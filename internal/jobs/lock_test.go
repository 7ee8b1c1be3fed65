package jobs

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"tessera/internal/flock"
)

// TestStoreLocked: a second server on a store in use is refused with
// ErrStoreBusy and a message that says what to do; once the first has
// stopped the store is free again. serve's and jobs server's default
// stores differ.
func TestStoreLocked(t *testing.T) {
	if !flock.Supported {
		t.Skip("no flock(2) here: stores are not locked")
	}
	dir := t.TempDir()
	ctx := context.Background()
	a, err := StartServer(ctx, ServerOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	_, err = StartServer(ctx, ServerOptions{Dir: dir})
	if !errors.Is(err, ErrStoreBusy) || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "-store") {
		t.Fatalf("second server on one store: %v, want ErrStoreBusy naming the store and -store", err)
	}
	a.Shutdown()
	b, err := StartServer(ctx, ServerOptions{Dir: dir})
	if err != nil {
		t.Fatalf("after the first stopped: %v", err)
	}
	b.Shutdown()
	if DefaultDir() == DefaultServerDir() {
		t.Errorf("serve and jobs server default to one store %s", DefaultDir())
	}
}

// TestSyncAlways: the embedded server syncs every write before it
// acknowledges it unless told an interval.
func TestSyncAlways(t *testing.T) {
	s, err := StartServer(context.Background(), ServerOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if cfg := s.NATS().JetStreamConfig(); cfg == nil || !cfg.SyncAlways {
		t.Errorf("default: JetStream config %+v, want SyncAlways", cfg)
	}
	s.Shutdown()
	s, err = StartServer(context.Background(), ServerOptions{Dir: t.TempDir(), SyncInterval: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown()
	if cfg := s.NATS().JetStreamConfig(); cfg == nil || cfg.SyncAlways || cfg.SyncInterval != time.Minute {
		t.Errorf("interval: JetStream config %+v, want a 1m interval", cfg)
	}
}

package jobs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// ErrFull is returned by Submit when the queue or the records have
// reached their bound (Limits): the job is not accepted. Wait for the
// queue to drain and finished records to be forgotten (Limits.Retention),
// forget jobs (Forget), or raise the bound.
var ErrFull = errors.New("jobs: the job store is full")

// Limits bound what a job store holds. Zero fields take the defaults
// (DefaultLimits).
type Limits struct {
	// MaxQueued bounds the jobs waiting in the queue (the stream's
	// MaxMsgs) and MaxQueueBytes their specs' bytes (MaxBytes): a
	// submission past either is refused (ErrFull).
	MaxQueued     int64
	MaxQueueBytes int64
	// MaxRecords bounds the bucket's entries (a job's record and its
	// progress value are two) and MaxRecordBytes their bytes. Submissions
	// are refused (ErrFull) once the bucket is nine tenths full, so
	// that the jobs accepted can still record their outcomes.
	MaxRecords     int64
	MaxRecordBytes int64
	// Retention is how long a finished job's record (its result) is kept
	// after it finished; then it is forgotten (Forget) by the client that
	// set the limits (a server process: tessera jobs server, serve).
	Retention time.Duration
}

// DefaultLimits are the bounds of a store made without others: 10,000
// queued jobs in 256 MiB, 100,000 entries in 2 GiB of records, finished
// records kept a week.
var DefaultLimits = Limits{
	MaxQueued:      10000,
	MaxQueueBytes:  256 << 20,
	MaxRecords:     100000,
	MaxRecordBytes: 2 << 30,
	Retention:      7 * 24 * time.Hour,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.MaxQueued <= 0 {
		l.MaxQueued = d.MaxQueued
	}
	if l.MaxQueueBytes <= 0 {
		l.MaxQueueBytes = d.MaxQueueBytes
	}
	if l.MaxRecords <= 0 {
		l.MaxRecords = d.MaxRecords
	}
	if l.MaxRecordBytes <= 0 {
		l.MaxRecordBytes = d.MaxRecordBytes
	}
	if l.Retention <= 0 {
		l.Retention = d.Retention
	}
	return l
}

// WithLimits sets the bounds of the stream and bucket and the retention
// of finished records, applied to them (made or changed) by Connect: the
// option of the process that owns the store (StartEmbedded gives it
// DefaultLimits when not given). This client then forgets finished
// records past the retention (Sweep) every so often until it is closed.
// Clients without it use the store's bounds as they are (or make it with
// DefaultLimits).
func WithLimits(l Limits) Option {
	return func(o *options) { o.limits, o.ownLimits = l.withDefaults(), true }
}

// full reports whether err is the server's refusal of a write past a
// stream's bound (DiscardNew).
func full(err error) bool {
	var apiErr *jetstream.APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	return apiErr.ErrorCode == 10077 && strings.Contains(apiErr.Description, "maximum") // JSStreamStoreFailedF
}

// room refuses a submission when the bucket is nine tenths full (its
// state read at most every 100 ms).
func (c *Client) room(ctx context.Context) error {
	c.roomMu.Lock()
	stale := time.Since(c.roomAt) > 100*time.Millisecond
	if stale {
		c.roomAt = time.Now() // one reader at a time
	}
	c.roomMu.Unlock()
	if stale {
		// A short wait of its own: in a failover the stream may have no
		// leader to answer for a while, and the bucket's own bounds
		// still hold without this check.
		ictx, cancel := context.WithTimeout(ctx, time.Second)
		info, err := c.kvStream.Info(ictx)
		cancel()
		if err == nil {
			c.roomMu.Lock()
			c.roomInfo, c.roomAt = info, time.Now()
			c.roomMu.Unlock()
		}
	}
	c.roomMu.Lock()
	defer c.roomMu.Unlock()
	info := c.roomInfo
	if info == nil {
		return nil
	}
	cfg, st := info.Config, info.State
	if cfg.MaxMsgs > 0 && st.Msgs*10 >= uint64(cfg.MaxMsgs)*9 {
		return fmt.Errorf("%w: %d job records and progress values, nine tenths of the bound of %d; finished jobs are forgotten after the retention, or raise the bound",
			ErrFull, st.Msgs, cfg.MaxMsgs)
	}
	if cfg.MaxBytes > 0 && st.Bytes*10 >= uint64(cfg.MaxBytes)*9 {
		return fmt.Errorf("%w: %d bytes of job records, nine tenths of the bound of %d; finished jobs are forgotten after the retention, or raise the bound",
			ErrFull, st.Bytes, cfg.MaxBytes)
	}
	return nil
}

// counted adds a record this client wrote to the cached state of the
// bucket, so that a burst of submissions between two reads of the state
// stops at nine tenths too.
func (c *Client) counted(bytes int) {
	c.roomMu.Lock()
	defer c.roomMu.Unlock()
	if c.roomInfo != nil {
		c.roomInfo.State.Msgs++
		c.roomInfo.State.Bytes += uint64(bytes)
	}
}

// Sweep forgets the finished jobs that finished more than retention ago
// (their records and progress) and drops the markers of records deleted
// more than half an hour ago. It returns how many it forgot.
func (c *Client) Sweep(ctx context.Context, retention time.Duration) (int, error) {
	all, err := c.List(ctx)
	if err != nil {
		return 0, err
	}
	cutoff := time.Now().Add(-retention)
	n := 0
	for _, st := range all {
		if !st.State.Final() || st.Finished.IsZero() || st.Finished.After(cutoff) {
			continue
		}
		if err := c.Forget(ctx, st.ID); err != nil && !errors.Is(err, ErrNotFound) {
			return n, err
		}
		n++
	}
	if err := c.kv.PurgeDeletes(ctx); err != nil {
		return n, err
	}
	return n, nil
}

// sweepEvery is how often the owner of the limits sweeps.
func sweepEvery(retention time.Duration) time.Duration {
	return min(max(retention/4, time.Second), 10*time.Minute)
}

// startSweeping runs Sweep every so often until the client is closed.
func (c *Client) startSweeping() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(sweepEvery(c.o.limits.Retention))
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				sctx, scancel := context.WithTimeout(ctx, time.Minute)
				c.Sweep(sctx, c.o.limits.Retention)
				scancel()
			}
		}
	}()
	c.mu.Lock()
	c.closers = append(c.closers, func() { cancel(); <-done })
	c.mu.Unlock()
}

package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// errShutdown ends a handler's context when its worker stops: the job is
// handed back to the queue, not recorded.
var errShutdown = errors.New("jobs: worker stopping")

// errCanceled ends a handler's context on Cancel.
var errCanceled = errors.New("jobs: canceled")

// RunWorkers runs n workers (n < 1: one) in this process on c until ctx
// ends. Each pulls one job at a time from the queue, runs the handler of
// its kind (registered with Register) and records the outcome exactly
// once; while a job runs it tells the server it is alive every third of
// the ack wait. When ctx ends, running jobs are handed back to the queue
// (their handlers' contexts end) and RunWorkers returns nil.
func RunWorkers(ctx context.Context, c *Client, n int) error {
	n = max(n, 1)
	ackWait := c.o.ackWait
	if info := c.cons.CachedInfo(); info != nil && info.Config.AckWait > 0 {
		ackWait = info.Config.AckWait
	}
	maxAttempts := c.o.maxAttempts
	if info := c.cons.CachedInfo(); info != nil && info.Config.MaxDeliver > 1 {
		maxAttempts = info.Config.MaxDeliver - 1
	}
	w := &worker{c: c, ackWait: ackWait, maxAttempts: maxAttempts, running: map[string]context.CancelCauseFunc{}}
	sub, err := c.nc.Subscribe(CancelSubject+"*", func(m *nats.Msg) {
		id := strings.TrimPrefix(m.Subject, CancelSubject)
		w.mu.Lock()
		cancel := w.running[id]
		w.mu.Unlock()
		if cancel != nil {
			cancel(errCanceled)
		}
	})
	if err != nil {
		return fmt.Errorf("jobs: worker: %w", err)
	}
	defer sub.Unsubscribe()
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() { w.loop(ctx) })
	}
	wg.Wait()
	return nil
}

type worker struct {
	c           *Client
	ackWait     time.Duration
	maxAttempts int
	mu          sync.Mutex
	running     map[string]context.CancelCauseFunc
}

func (w *worker) loop(ctx context.Context) {
	for ctx.Err() == nil {
		fctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		msg, err := w.c.cons.Next(jetstream.FetchContext(fctx))
		cancel()
		if err != nil {
			if ctx.Err() == nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, nats.ErrTimeout) {
				// A connection lost, a leader being elected: wait a little.
				select {
				case <-ctx.Done():
				case <-time.After(250 * time.Millisecond):
				}
			}
			continue
		}
		w.handle(ctx, msg)
	}
}

// record writes a final record unless one is there already; it retries
// while the server is unreachable (a cluster electing a leader) for a
// while, on a context of its own so that a stopping worker still records
// a job it finished.
func (w *worker) record(id string, f func(*Status)) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for {
		_, _, err := w.c.update(ctx, id, func(st *Status) bool { f(st); return true })
		if err == nil || errors.Is(err, ErrNotFound) || full(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(250 * time.Millisecond):
		}
	}
}

func ackCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 10*time.Second)
}

func (w *worker) handle(ctx context.Context, msg jetstream.Msg) {
	var spec Spec
	if err := json.Unmarshal(msg.Data(), &spec); err != nil || spec.check() != nil || spec.ID == "" {
		msg.Term() // cannot come from Submit
		return
	}
	attempt := 1
	if md, err := msg.Metadata(); err == nil {
		attempt = int(md.NumDelivered)
	}
	id := spec.ID
	now := time.Now().UTC()
	fail := func(st State, text string) func(*Status) {
		return func(s *Status) { s.State, s.Error, s.Finished, s.Worker = st, text, time.Now().UTC(), w.c.o.name }
	}
	// Start: record running (or find the job final or canceled already).
	var canceled bool
	gctx, gcancel := ackCtx()
	_, changed, err := w.c.update(gctx, id, func(st *Status) bool {
		if st.CancelRequested {
			canceled = true
			return false
		}
		st.State, st.Started, st.Attempts, st.Worker = Running, now, attempt, w.c.o.name
		return true
	})
	gcancel()
	if errors.Is(err, ErrNotFound) { // forgotten: nothing to record
		msg.Term()
		return
	}
	if err != nil {
		msg.Nak()
		return
	}
	switch {
	case !changed && !canceled: // final already
		w.ack(msg)
		return
	case canceled:
		if w.record(id, fail(Canceled, "canceled")) == nil {
			w.ack(msg)
		}
		return
	case attempt > w.maxAttempts:
		if w.record(id, fail(Failed, fmt.Sprintf("jobs: %d workers were lost on this job (max attempts %d)", attempt-1, w.maxAttempts))) == nil {
			msg.Term()
		}
		return
	}
	h, ok := handler(spec.Kind)
	if !ok {
		if w.record(id, fail(Failed, fmt.Sprintf("jobs: unknown kind %q on worker %s", spec.Kind, w.c.o.name))) == nil {
			w.ack(msg)
		}
		return
	}

	jctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(ctx, func() { cancel(errShutdown) })
	defer stop()
	w.mu.Lock()
	w.running[id] = cancel
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		delete(w.running, id)
		w.mu.Unlock()
	}()
	// A cancel published before the subscription saw this job.
	if st, err := w.c.Status(jctx, id); err == nil && st.CancelRequested {
		cancel(errCanceled)
	}
	hctx := jctx
	if spec.Timeout > 0 {
		var tcancel context.CancelFunc
		hctx, tcancel = context.WithTimeout(jctx, time.Duration(spec.Timeout))
		defer tcancel()
	}

	// Heartbeats while the handler runs.
	hbDone := make(chan struct{})
	var hbWG sync.WaitGroup
	hbWG.Go(func() {
		t := time.NewTicker(max(w.ackWait/3, 100*time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-hbDone:
				return
			case <-t.C:
				msg.InProgress()
			}
		}
	})
	pr := &progress{kv: w.c.kv, key: "progress." + id}
	res, herr := runHandler(WithBlobs(hctx, w.c), h, spec.Input, pr.set)
	pr.stop()
	close(hbDone)
	hbWG.Wait()

	// jctx is ctx's child: when the workers stop, it ends at once with
	// ctx's cause, before the AfterFunc above can give errShutdown, and a
	// handler may end first through its own process's context (serve's,
	// ended by the same interrupt). A job that failed while the workers
	// were stopping goes back to the queue, unless it was canceled.
	cause := context.Cause(jctx)
	switch {
	case errors.Is(cause, errCanceled):
		herr = errCanceled
	case errors.Is(cause, errShutdown) || herr != nil && ctx.Err() != nil:
		msg.Nak() // another worker takes it
		return
	}
	upd := w.outcome(res, herr, spec, hctx.Err())
	err = w.record(id, upd)
	if full(err) {
		// No room for the result: the job fails with a short record
		// rather than run again and again.
		err = w.record(id, fail(Failed, "jobs: the job store is full: the outcome was not kept ("+err.Error()+")"))
	}
	if err != nil {
		msg.Nak()
		return
	}
	w.ack(msg)
}

// ack acknowledges and waits for the server's confirmation (a lost ack
// only means a redelivery, which finds the record final and acks again).
func (w *worker) ack(msg jetstream.Msg) {
	ctx, cancel := ackCtx()
	defer cancel()
	msg.DoubleAck(ctx)
}

// runHandler calls h, turning a panic into an error.
func runHandler(ctx context.Context, h Handler, in json.RawMessage, progress func(any)) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("jobs: handler panicked: %v\n%s", r, debug.Stack())
		}
	}()
	return h(ctx, in, progress)
}

// progress coalesces a job's progress values: the latest is written to
// the bucket at most every progressEvery.
type progress struct {
	kv  jetstream.KeyValue
	key string

	mu      sync.Mutex
	latest  []byte
	started bool
	wake    chan struct{}
	done    chan struct{}
	wg      sync.WaitGroup
}

const progressEvery = 250 * time.Millisecond

func (p *progress) set(v any) {
	b, err := json.Marshal(v)
	if err != nil || len(b) > MaxProgressBytes {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.latest = b
	if !p.started {
		p.started = true
		p.wake, p.done = make(chan struct{}, 1), make(chan struct{})
		p.wg.Go(p.flush)
	}
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *progress) flush() {
	for {
		select {
		case <-p.done:
			return
		case <-p.wake:
		}
		p.mu.Lock()
		b := p.latest
		p.latest = nil
		p.mu.Unlock()
		if b != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			p.kv.Put(ctx, p.key, b)
			cancel()
		}
		select {
		case <-p.done:
			return
		case <-time.After(progressEvery):
		}
	}
}

func (p *progress) stop() {
	p.mu.Lock()
	started := p.started
	p.mu.Unlock()
	if started {
		close(p.done)
		p.wg.Wait()
	}
}

// outcome returns the update that records a handler's result res or error
// herr (errCanceled when canceled); hctxErr is its context's error.
func (w *worker) outcome(res any, herr error, spec Spec, hctxErr error) func(*Status) {
	fail := func(st State, text string) func(*Status) {
		return func(s *Status) { s.State, s.Error, s.Finished, s.Worker = st, text, time.Now().UTC(), w.c.o.name }
	}
	var out json.RawMessage
	if herr == nil {
		b, err := json.Marshal(res)
		switch {
		case err != nil:
			herr = fmt.Errorf("jobs: encoding the result: %w", err)
		case len(b) > MaxResultBytes:
			herr = fmt.Errorf("jobs: result of %d bytes, more than the limit of %d", len(b), MaxResultBytes)
		default:
			out = b
		}
	}
	switch {
	case herr == nil:
		return func(s *Status) {
			s.State, s.Result, s.Error, s.Finished, s.Worker = Done, out, "", time.Now().UTC(), w.c.o.name
		}
	case errors.Is(herr, errCanceled):
		return fail(Canceled, "canceled")
	case spec.Timeout > 0 && errors.Is(hctxErr, context.DeadlineExceeded):
		return fail(Failed, fmt.Sprintf("jobs: time limit %v exceeded: %v", time.Duration(spec.Timeout), herr))
	default:
		return fail(Failed, herr.Error())
	}
}

package jobs

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Names of the JetStream objects (see the package doc).
const (
	StreamName    = "TESSERA_JOBS"         // work-queue stream of specs
	QueueSubject  = "tessera.jobs.queue"   // the stream's subject
	Bucket        = "TESSERA_JOBS"         // key-value bucket: job.<id>, progress.<id>
	ConsumerName  = "tessera-workers"      // durable pull consumer the workers share
	CancelSubject = "tessera.jobs.cancel." // + id: core NATS cancel notice
)

// Defaults of the options.
const (
	DefaultAckWait     = 30 * time.Second
	DefaultMaxAttempts = 3
)

// Option sets a Client option (Connect).
type Option func(*options)

type options struct {
	ackWait     time.Duration
	maxAttempts int
	replicas    int
	name        string
	setupWait   time.Duration
	token       string
	creds       string
	tlsCA       string
	localCA     bool // tlsCA is used only if the server asks for TLS
	limits      Limits
	ownLimits   bool // apply limits to the stream and bucket, and sweep
}

// WithAckWait sets the consumer's ack wait when Connect creates it
// (DefaultAckWait): a job whose worker stops sending heartbeats (killed,
// cut off) is redelivered after it. Workers send a heartbeat every third
// of it. It has no effect on a consumer that already exists.
func WithAckWait(d time.Duration) Option { return func(o *options) { o.ackWait = d } }

// WithMaxAttempts sets how many workers may be lost on one job
// (DefaultMaxAttempts) before it is recorded as failed, when Connect
// creates the consumer. A handler's error fails the job at once.
func WithMaxAttempts(n int) Option { return func(o *options) { o.maxAttempts = n } }

// WithReplicas sets the replicas of the stream and bucket when Connect
// creates them (1; 3 in a cluster of three or more for no loss when a
// node dies).
func WithReplicas(n int) Option { return func(o *options) { o.replicas = n } }

// WithName names this client's workers in Status.Worker (host-pid).
func WithName(name string) Option { return func(o *options) { o.name = name } }

// WithSetupWait bounds how long Connect retries creating the stream while
// a cluster is electing leaders (30 s).
func WithSetupWait(d time.Duration) Option { return func(o *options) { o.setupWait = d } }

// Client submits, watches and works jobs on a NATS server with JetStream.
// It is safe for concurrent use.
type Client struct {
	nc   *nats.Conn
	js   jetstream.JetStream
	kv   jetstream.KeyValue
	cons jetstream.Consumer
	o    options

	kvStream jetstream.Stream // the bucket's stream (its bounds, its state)
	roomMu   sync.Mutex
	roomAt   time.Time
	roomInfo *jetstream.StreamInfo

	mu       sync.Mutex
	waiters  map[string][]chan Status
	watching bool
	closers  []func()
	server   *Server

	blobMu sync.Mutex
	blobs  jetstream.ObjectStore // made on first use (blobs.go)
}

// Connect connects to the NATS server or cluster at url (comma-separated
// URLs for several nodes) and creates the stream, bucket and consumer if
// they are missing.
//
// It authenticates with the first of: a token in the URL
// (nats://TOKEN@HOST:PORT), WithToken, WithCreds's file, the file named
// by $TESSERA_NATS_CREDS; else, when every URL names a loopback host, the
// tokens of this machine's default stores (DefaultServerDir, then
// DefaultDir), each tried in turn; else none. TLS is required and
// verified with WithTLSCA's file, or $TESSERA_NATS_CA's; a local store's
// certificate is used when the server asks for TLS. A refused token gives
// an error wrapping nats.ErrAuthorization.
func Connect(ctx context.Context, url string, opts ...Option) (*Client, error) {
	o := options{ackWait: DefaultAckWait, maxAttempts: DefaultMaxAttempts, replicas: 1, setupWait: 30 * time.Second, limits: DefaultLimits}
	for _, f := range opts {
		f(&o)
	}
	if o.name == "" {
		h, _ := os.Hostname()
		o.name = h + "-" + strconv.Itoa(os.Getpid())
	}
	creds, err := o.credentials(url)
	if err != nil {
		return nil, err
	}
	var nc *nats.Conn
	for _, cr := range creds {
		nopts := append([]nats.Option{nats.Name("tessera " + o.name), nats.MaxReconnects(-1), nats.ReconnectWait(250 * time.Millisecond)},
			cr.natsOptions()...)
		nc, err = nats.Connect(url, nopts...)
		if err == nil {
			break
		}
		if !errors.Is(err, nats.ErrAuthorization) {
			return nil, fmt.Errorf("jobs: connect %s: %w", url, err)
		}
		err = fmt.Errorf("jobs: connect %s with %s: %w", url, cr.from, err)
	}
	if err != nil {
		return nil, fmt.Errorf("%w (give the server's token: -creds FILE, a copy of its store's %s, or $%s=FILE, or nats://TOKEN@HOST:PORT)",
			err, TokenFile, EnvCreds)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("jobs: %w", err)
	}
	c := &Client{nc: nc, js: js, o: o, waiters: map[string][]chan Status{}}
	sctx, cancel := context.WithTimeout(ctx, o.setupWait)
	defer cancel()
	for {
		// Each try under its own timeout: a request lost in a failover
		// must not use up the whole wait.
		octx, ocancel := context.WithTimeout(sctx, 2*opTimeout)
		err = c.setup(octx)
		ocancel()
		if err == nil {
			if o.ownLimits {
				c.startSweeping()
			}
			return c, nil
		}
		select {
		case <-sctx.Done():
			nc.Close()
			return nil, fmt.Errorf("jobs: setting up on %s: %w", url, err)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

func (c *Client) setup(ctx context.Context) error {
	l := c.o.limits
	scfg := jetstream.StreamConfig{
		Name:       StreamName,
		Subjects:   []string{QueueSubject},
		Retention:  jetstream.WorkQueuePolicy,
		Storage:    jetstream.FileStorage,
		Replicas:   c.o.replicas,
		Duplicates: 10 * time.Minute,
		MaxMsgSize: MaxSpecBytes + 4096,
		MaxMsgs:    l.MaxQueued,
		MaxBytes:   l.MaxQueueBytes,
		Discard:    jetstream.DiscardNew, // past a bound, refuse the new job, drop none
	}
	kcfg := jetstream.KeyValueConfig{
		Bucket:       Bucket,
		History:      1,
		Storage:      jetstream.FileStorage,
		Replicas:     c.o.replicas,
		MaxValueSize: MaxResultBytes + 64<<10,
		MaxBytes:     l.MaxRecordBytes,
	}
	var (
		st  jetstream.Stream
		kv  jetstream.KeyValue
		err error
	)
	if c.o.ownLimits {
		// The store's owner applies its bounds to a store made before.
		if st, err = c.js.CreateOrUpdateStream(ctx, scfg); err != nil {
			return err
		}
		if kv, err = c.js.CreateOrUpdateKeyValue(ctx, kcfg); err != nil {
			return err
		}
	} else {
		st, err = c.js.CreateStream(ctx, scfg)
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			st, err = c.js.Stream(ctx, StreamName)
		}
		if err != nil {
			return err
		}
		kv, err = c.js.CreateKeyValue(ctx, kcfg)
		if errors.Is(err, jetstream.ErrBucketExists) {
			kv, err = c.js.KeyValue(ctx, Bucket)
		}
		if err != nil {
			return err
		}
	}
	kvs, err := c.js.Stream(ctx, "KV_"+Bucket)
	if err != nil {
		return err
	}
	// A bucket's configuration has no MaxMsgs: set on its stream (when
	// made here, or by the store's owner).
	if cfg := kvs.CachedInfo().Config; c.o.ownLimits || cfg.MaxMsgs <= 0 {
		if cfg.MaxMsgs != l.MaxRecords {
			cfg.MaxMsgs = l.MaxRecords
			if kvs, err = c.js.UpdateStream(ctx, cfg); err != nil {
				return err
			}
		}
	}
	c.kvStream = kvs
	// The first client makes the consumer (replicas as the stream's);
	// later ones use it as it is.
	cons, err := st.Consumer(ctx, ConsumerName)
	if errors.Is(err, jetstream.ErrConsumerNotFound) {
		cons, err = st.CreateConsumer(ctx, jetstream.ConsumerConfig{
			Durable:       ConsumerName,
			AckPolicy:     jetstream.AckExplicitPolicy,
			AckWait:       c.o.ackWait,
			MaxDeliver:    c.o.maxAttempts + 1,
			MaxAckPending: 100000,
		})
		if errors.Is(err, jetstream.ErrConsumerExists) {
			cons, err = st.Consumer(ctx, ConsumerName)
		}
	}
	if err != nil {
		return err
	}
	c.kv, c.cons = kv, cons
	return nil
}

// Close stops what the client started (its workers' server, when made by
// StartEmbedded) and closes the connection.
func (c *Client) Close() {
	c.mu.Lock()
	closers := c.closers
	c.closers = nil
	c.mu.Unlock()
	for i := len(closers) - 1; i >= 0; i-- {
		closers[i]()
	}
	c.nc.Close()
	if c.server != nil {
		c.server.Shutdown()
	}
}

// Server returns the embedded server of a client made by StartEmbedded
// (nil otherwise).
func (c *Client) Server() *Server { return c.server }

// Conn returns the NATS connection (for extra subjects of a distributed
// search: broadcasting a best-so-far bound).
func (c *Client) Conn() *nats.Conn { return c.nc }

// JetStream returns the JetStream context.
func (c *Client) JetStream() jetstream.JetStream { return c.js }

// Name returns the client's worker name.
func (c *Client) Name() string { return c.o.name }

// opTimeout bounds one request to the server; do retries a request that
// timed out or found no leader (a node lost, a leader being elected) for
// up to retryFor, within the caller's context.
const (
	opTimeout = 5 * time.Second
	retryFor  = time.Minute
)

// permanent reports whether err is an answer rather than a failure to
// get one.
func permanent(err error) bool {
	return errors.Is(err, jetstream.ErrKeyExists) || errors.Is(err, jetstream.ErrKeyNotFound) || isWrongSeq(err) ||
		errors.Is(err, ErrNotFound) || errors.Is(err, ErrSpec) || errors.Is(err, jetstream.ErrKeyDeleted) || full(err)
}

// do runs f, each try under opTimeout, retrying failures to reach a
// leader until retryFor has passed or ctx ends.
func (c *Client) do(ctx context.Context, f func(ctx context.Context) error) error {
	deadline := time.Now().Add(retryFor)
	for {
		octx, cancel := context.WithTimeout(ctx, opTimeout)
		err := f(octx)
		cancel()
		if err == nil || permanent(err) || ctx.Err() != nil || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// Submit checks spec (ErrSpec: no kind, malformed, over MaxSpecBytes),
// records it as queued and publishes it to the work queue. It returns the
// job's id.
func (c *Client) Submit(ctx context.Context, spec Spec) (string, error) {
	if err := spec.check(); err != nil {
		return "", err
	}
	if spec.ID == "" {
		spec.ID = NewID()
	}
	b, err := json.Marshal(spec)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrSpec, err)
	}
	if len(b) > MaxSpecBytes {
		return "", fmt.Errorf("%w: %d bytes, more than the limit of %d", ErrSpec, len(b), MaxSpecBytes)
	}
	if err := c.room(ctx); err != nil {
		return "", err
	}
	st := Status{ID: spec.ID, Kind: spec.Kind, State: Queued, Submitted: time.Now().UTC(), Timeout: spec.Timeout}
	sb, _ := json.Marshal(st)
	tries := 0
	err = c.do(ctx, func(ctx context.Context) error {
		tries++
		_, err := c.kv.Create(ctx, "job."+spec.ID, sb)
		if errors.Is(err, jetstream.ErrKeyExists) && tries > 1 {
			// An earlier try got through unanswered: ours if it says so.
			if e, gerr := c.kv.Get(ctx, "job."+spec.ID); gerr == nil && string(e.Value()) == string(sb) {
				return nil
			}
		}
		return err
	})
	if err != nil {
		if errors.Is(err, jetstream.ErrKeyExists) {
			return "", fmt.Errorf("%w: %s", ErrExists, spec.ID)
		}
		if full(err) {
			return "", fmt.Errorf("%w: the job records are at their bound (%v); finished jobs are forgotten after the retention, or raise the bound", ErrFull, err)
		}
		return "", fmt.Errorf("jobs: recording %s: %w", spec.ID, err)
	}
	c.counted(len(sb) + len(spec.ID) + 64)
	// The message id makes a repeated publish (a try whose answer was
	// lost) a no-op on the server.
	err = c.do(ctx, func(ctx context.Context) error {
		_, err := c.js.Publish(ctx, QueueSubject, b, jetstream.WithMsgID(spec.ID))
		return err
	})
	if err != nil {
		c.do(context.WithoutCancel(ctx), func(ctx context.Context) error { return c.kv.Purge(ctx, "job."+spec.ID) })
		if full(err) {
			return "", fmt.Errorf("%w: the queue is at its bound (%v); wait for the workers to drain it, or raise the bound", ErrFull, err)
		}
		return "", fmt.Errorf("jobs: publishing %s: %w", spec.ID, err)
	}
	return spec.ID, nil
}

// NewID draws a job id: 128 bits from crypto/rand as 32 hex digits, so
// that no client can guess another's job (ids are read, watched and
// canceled by id).
func NewID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand panics rather)
	return hex.EncodeToString(b[:])
}

// SubmitJSON parses a spec as ParseSpec does (refusing a malformed or
// oversized one with ErrSpec) and submits it.
func (c *Client) SubmitJSON(ctx context.Context, b []byte) (string, error) {
	spec, err := ParseSpec(b)
	if err != nil {
		return "", err
	}
	return c.Submit(ctx, spec)
}

// Status returns the job's record (ErrNotFound when there is none).
func (c *Client) Status(ctx context.Context, id string) (Status, error) {
	st, _, err := c.get(ctx, id)
	return st, err
}

func (c *Client) get(ctx context.Context, id string) (Status, uint64, error) {
	if !idRE.MatchString(id) {
		return Status{}, 0, fmt.Errorf("%w: %q", ErrNotFound, truncate(id, 40))
	}
	var e jetstream.KeyValueEntry
	err := c.do(ctx, func(ctx context.Context) (err error) {
		e, err = c.kv.Get(ctx, "job."+id)
		return err
	})
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Status{}, 0, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return Status{}, 0, fmt.Errorf("jobs: reading %s: %w", id, err)
	}
	var st Status
	if err := json.Unmarshal(e.Value(), &st); err != nil {
		return Status{}, 0, fmt.Errorf("jobs: record of %s: %w", id, err)
	}
	return st, e.Revision(), nil
}

// update changes the job's record with f by compare-and-set, retrying on
// a concurrent change, unless the record is final already (then it
// returns it with ok false) or f returns false.
func (c *Client) update(ctx context.Context, id string, f func(*Status) bool) (st Status, ok bool, err error) {
	for {
		st, rev, err := c.get(ctx, id)
		if err != nil {
			return st, false, err
		}
		if st.State.Final() || !f(&st) {
			return st, false, nil
		}
		b, err := json.Marshal(st)
		if err != nil {
			return st, false, err
		}
		err = c.do(ctx, func(ctx context.Context) error {
			_, err := c.kv.Update(ctx, "job."+id, b, rev)
			return err
		})
		if err == nil {
			return st, true, nil
		}
		if !errors.Is(err, jetstream.ErrKeyExists) && !isWrongSeq(err) {
			return st, false, fmt.Errorf("jobs: recording %s: %w", id, err)
		}
	}
}

func isWrongSeq(err error) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence
}

// Wait waits until the job is final and returns its record (Result holds a
// done job's result, Error a failed or canceled job's error). A watch of
// the bucket wakes it; it also reads the record now and then (every 2 s,
// then less often up to every 30 s) in case the watch missed the change. It returns
// ErrNotFound for an unknown id and ctx's error when ctx ends first.
func (c *Client) Wait(ctx context.Context, id string) (Status, error) {
	ch := make(chan Status, 1)
	c.mu.Lock()
	c.waiters[id] = append(c.waiters[id], ch)
	c.mu.Unlock()
	defer c.dropWaiter(id, ch)
	poll := time.NewTimer(0)
	defer poll.Stop()
	every := time.Second
	for {
		select {
		case st := <-ch:
			return st, nil
		case <-poll.C:
			// The first check, then a fallback should the watch miss
			// an update (a connection lost and recovered) or not start
			// (a cluster electing a leader).
			watching := c.watchFinals() == nil
			st, err := c.Status(ctx, id)
			if err != nil && (errors.Is(err, ErrNotFound) || ctx.Err() != nil) {
				return st, err
			}
			if err == nil && st.State.Final() {
				return st, nil
			}
			if watching {
				// The watch does the work: poll less and less often.
				every = min(2*every, 30*time.Second)
			} else {
				every = 250 * time.Millisecond
			}
			poll.Reset(every)
		case <-ctx.Done():
			return Status{}, ctx.Err()
		}
	}
}

func (c *Client) dropWaiter(id string, ch chan Status) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ws := slices.DeleteFunc(c.waiters[id], func(w chan Status) bool { return w == ch })
	if len(ws) == 0 {
		delete(c.waiters, id)
	} else {
		c.waiters[id] = ws
	}
}

// watchFinals starts, once, the watch of every job record that hands
// final records to Wait.
func (c *Client) watchFinals() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.watching {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	w, err := c.kv.Watch(ctx, "job.*", jetstream.UpdatesOnly(), jetstream.IgnoreDeletes())
	if err != nil {
		cancel()
		return fmt.Errorf("jobs: watching: %w", err)
	}
	c.watching = true
	c.closers = append(c.closers, func() { w.Stop(); cancel() })
	go func() {
		for e := range w.Updates() {
			st, ok := finalStatus(e)
			if !ok {
				continue
			}
			c.mu.Lock()
			for _, ch := range c.waiters[st.ID] {
				select {
				case ch <- st:
				default:
				}
			}
			c.mu.Unlock()
		}
	}()
	return nil
}

// Call submits a job of kind with input and timeout, waits for it and
// returns its result; a failed or canceled job gives an error wrapping
// ErrFailed with the job's error. When ctx ends first it cancels the job.
func (c *Client) Call(ctx context.Context, kind string, input json.RawMessage, timeout time.Duration) (json.RawMessage, error) {
	id, err := c.Submit(ctx, Spec{Kind: kind, Input: input, Timeout: Duration(timeout)})
	if err != nil {
		return nil, err
	}
	st, err := c.Wait(ctx, id)
	if err != nil {
		if ctx.Err() != nil {
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			c.Cancel(cctx, id)
			cancel()
		}
		return nil, err
	}
	if st.State != Done {
		return nil, fmt.Errorf("%w: %s %s: %s", ErrFailed, kind, st.State, st.Error)
	}
	return st.Result, nil
}

// Watch returns the job's events: its record now, its latest progress if
// any, then each progress and change until the final record, after which
// the channel is closed (at once for a finished job, so a reloaded page
// sees the outcome again). The channel is closed too when ctx ends. It
// returns ErrNotFound for an unknown id.
func (c *Client) Watch(ctx context.Context, id string) (<-chan Event, error) {
	cur, err := c.Status(ctx, id)
	if err != nil {
		return nil, err
	}
	out := make(chan Event, 16)
	if cur.State.Final() {
		out <- Event{Status: cur, Final: true}
		close(out)
		return out, nil
	}
	wctx, cancel := context.WithCancel(ctx)
	w, err := c.kv.WatchFiltered(wctx, []string{"job." + id, "progress." + id}, jetstream.IgnoreDeletes())
	if err != nil {
		cancel()
		return nil, fmt.Errorf("jobs: watching %s: %w", id, err)
	}
	send := func(ev Event) bool {
		select {
		case out <- ev:
			return true
		case <-wctx.Done():
			return false
		}
	}
	go func() {
		defer close(out)
		defer cancel()
		defer w.Stop()
		if !send(Event{Status: cur}) {
			return
		}
		for {
			var e jetstream.KeyValueEntry
			select {
			case e = <-w.Updates():
			case <-wctx.Done():
				return
			}
			if e == nil {
				continue
			}
			if e.Key() == "job."+id {
				var st Status
				if json.Unmarshal(e.Value(), &st) != nil {
					continue
				}
				cur = st
				if !send(Event{Status: st, Final: st.State.Final()}) || st.State.Final() {
					return
				}
				continue
			}
			if !send(Event{Status: cur, Progress: json.RawMessage(e.Value())}) {
				return
			}
		}
	}()
	return out, nil
}

// Cancel cancels the job: a queued job is recorded as canceled at once; a
// running job's worker is told to stop (its handler's context ends) and
// records it as canceled. Canceling a final job does nothing. It returns
// ErrNotFound for an unknown id.
func (c *Client) Cancel(ctx context.Context, id string) error {
	st, changed, err := c.update(ctx, id, func(st *Status) bool {
		if st.State == Queued {
			st.State, st.Finished, st.Error = Canceled, time.Now().UTC(), "canceled before it started"
			return true
		}
		if st.CancelRequested {
			return false
		}
		st.CancelRequested = true
		return true
	})
	if err != nil {
		return err
	}
	if changed && st.State == Running {
		return c.nc.Publish(CancelSubject+id, nil)
	}
	return nil
}

// List returns every job's record, oldest first.
func (c *Client) List(ctx context.Context) ([]Status, error) {
	w, err := c.kv.Watch(ctx, "job.*", jetstream.IgnoreDeletes())
	if err != nil {
		return nil, fmt.Errorf("jobs: listing: %w", err)
	}
	defer w.Stop()
	var all []Status
	for {
		select {
		case e := <-w.Updates():
			if e == nil {
				slices.SortStableFunc(all, func(a, b Status) int {
					return cmp.Or(a.Submitted.Compare(b.Submitted), cmp.Compare(a.ID, b.ID))
				})
				return all, nil
			}
			var st Status
			if json.Unmarshal(e.Value(), &st) == nil {
				all = append(all, st)
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Forget deletes a final job's record and progress (ErrNotFound when
// unknown; an error when it is not final).
func (c *Client) Forget(ctx context.Context, id string) error {
	st, err := c.Status(ctx, id)
	if err != nil {
		return err
	}
	if !st.State.Final() {
		return fmt.Errorf("jobs: %s is %s, not finished", id, st.State)
	}
	if err := c.kv.Purge(ctx, "job."+id); err != nil {
		return err
	}
	c.kv.Purge(ctx, "progress."+id)
	return nil
}

// finalStatus returns the status a watched update of a job holds, and
// whether it is a final one (an update may be nil: the watch's marker
// that the current values have all been sent).
func finalStatus(e jetstream.KeyValueEntry) (Status, bool) {
	var st Status
	if e == nil || json.Unmarshal(e.Value(), &st) != nil {
		return Status{}, false
	}
	return st, st.State.Final()
}

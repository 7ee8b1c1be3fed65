package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"tessera/internal/catalog"
	"tessera/internal/jobs"
	"tessera/internal/store"
)

// Long solves run as jobs: the page submits one, follows its progress as
// server-sent events, may cancel it, and reads its result; the page keeps
// the job's id, so that a reload finds the job again, running or finished.
// Jobs is the job system the server runs them on: internal/jobs (NATS
// JetStream, where a job also survives a server restart) in `tessera
// serve`, or MemJobs, in memory, in tests and where none is given.

// JobFunc runs one job of a kind (catalog.JobFunc: it reads its spec,
// calls progress with values to show as it goes, each replacing the last,
// and returns the result or an error a person can read, soon after ctx
// ends).
type JobFunc = catalog.JobFunc

// Job states.
const (
	JobQueued    = "queued"
	JobRunning   = "running"
	JobDone      = "done"
	JobFailed    = "failed"
	JobCancelled = "canceled"
)

// JobState is what a job system knows of a job.
type JobState struct {
	ID       string          `json:"id"`
	Kind     string          `json:"kind"`
	State    string          `json:"state"`
	Progress json.RawMessage `json:"progress,omitempty"`
	Result   json.RawMessage `json:"result,omitempty"`
	Error    string          `json:"error,omitempty"`
	Created  time.Time       `json:"created"`
	Updated  time.Time       `json:"updated"`
}

// Finished reports whether the job has ended, one way or another.
func (j JobState) Finished() bool {
	return j.State == JobDone || j.State == JobFailed || j.State == JobCancelled
}

// ErrNoJob is returned for an unknown job id.
var ErrNoJob = errors.New("web: no such job")

// Jobs is a job system: the server registers its kinds on it when it is
// made, then submits, watches and cancels.
type Jobs interface {
	// Register makes fn run the jobs of kind.
	Register(kind string, fn JobFunc) error
	// Submit queues a job of a registered kind with its spec and time
	// limit, and returns its id.
	Submit(ctx context.Context, kind string, spec json.RawMessage, timeout time.Duration) (string, error)
	// Job returns a job's state, or an error wrapping ErrNoJob.
	Job(ctx context.Context, id string) (JobState, error)
	// Watch calls fn with the job's state now and after each change, until
	// the job finishes (fn sees that state) or ctx ends.
	Watch(ctx context.Context, id string, fn func(JobState)) error
	// Cancel asks a job to stop; a finished job is left as it is.
	Cancel(ctx context.Context, id string) error
	// PutBlob and GetBlob are the job system's blob store, where a job's
	// inputs travel by content address (a page's pictures): a worker
	// reads them from there, never from a file the job names.
	jobs.Blobs
}

// MemJobs is a Jobs in memory: each job runs in its own goroutine at once;
// the last MaxKept finished jobs are kept, and the blobs put last, up to
// MaxBlobBytes all together. Nothing survives the process.
type MemJobs struct {
	MaxKept      int   // finished jobs kept (0: 1000)
	MaxBlobBytes int64 // bytes of blobs kept (0: 256 MiB)

	mu    sync.Mutex
	kinds map[string]JobFunc
	jobs  map[string]*memJob
	base  context.Context
	stop  context.CancelFunc
	wg    sync.WaitGroup

	blobMu    sync.Mutex
	blobs     map[string][]byte
	blobOrder []string // oldest first
	blobBytes int64
}

type memJob struct {
	st     JobState
	cancel context.CancelFunc
	wake   chan struct{} // closed at each change
}

// NewMemJobs returns an empty MemJobs; Close cancels its jobs.
func NewMemJobs() *MemJobs {
	ctx, cancel := context.WithCancel(context.Background())
	return &MemJobs{kinds: map[string]JobFunc{}, jobs: map[string]*memJob{}, base: ctx, stop: cancel}
}

// Close cancels the running jobs and waits for them.
func (m *MemJobs) Close() error {
	m.stop()
	m.wg.Wait()
	return nil
}

func (m *MemJobs) Register(kind string, fn JobFunc) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.kinds[kind] = fn
	return nil
}

func (m *MemJobs) Submit(ctx context.Context, kind string, spec json.RawMessage, timeout time.Duration) (string, error) {
	m.mu.Lock()
	fn := m.kinds[kind]
	if fn == nil {
		m.mu.Unlock()
		return "", fmt.Errorf("web: no job kind %q", kind)
	}
	now := time.Now()
	jctx, cancel := context.WithTimeout(m.base, timeout)
	j := &memJob{st: JobState{ID: jobs.NewID(), Kind: kind, State: JobRunning, Created: now, Updated: now}, cancel: cancel, wake: make(chan struct{})}
	m.jobs[j.st.ID] = j
	m.forgetOld()
	m.wg.Add(1)
	m.mu.Unlock()
	go func() {
		defer m.wg.Done()
		defer cancel()
		res, err := fn(jobs.WithBlobs(jctx, m), spec, func(v any) {
			b, err := json.Marshal(v)
			if err != nil {
				return
			}
			m.update(j, func(st *JobState) { st.Progress = b })
		})
		m.update(j, func(st *JobState) {
			switch {
			case st.State == JobCancelled:
				st.Error = "cancelled"
				if res != nil {
					st.Result, _ = json.Marshal(res)
				}
			case err == nil:
				b, merr := json.Marshal(res)
				if merr != nil {
					st.State, st.Error = JobFailed, merr.Error()
					return
				}
				st.State, st.Result = JobDone, b
			case errors.Is(jctx.Err(), context.DeadlineExceeded):
				st.State, st.Error = JobFailed, fmt.Sprintf("time limit of %v reached: %v", timeout, err)
			default:
				st.State, st.Error = JobFailed, err.Error()
			}
		})
	}()
	return j.st.ID, nil
}

// PutBlob keeps data (at most jobs.MaxBlobBytes) under its address,
// dropping the oldest blobs over MaxBlobBytes: the jobs that read a blob
// start at once, so they have read it by then.
func (m *MemJobs) PutBlob(_ context.Context, data []byte) (string, error) {
	if len(data) > jobs.MaxBlobBytes {
		return "", fmt.Errorf("%w: %d bytes, more than %d MiB", jobs.ErrBlob, len(data), jobs.MaxBlobBytes>>20)
	}
	addr := jobs.BlobAddress(data)
	m.blobMu.Lock()
	defer m.blobMu.Unlock()
	if _, ok := m.blobs[addr]; ok {
		return addr, nil
	}
	if m.blobs == nil {
		m.blobs = map[string][]byte{}
	}
	m.blobs[addr] = bytes.Clone(data)
	m.blobOrder = append(m.blobOrder, addr)
	m.blobBytes += int64(len(data))
	most := m.MaxBlobBytes
	if most <= 0 {
		most = 256 << 20
	}
	for m.blobBytes > most && len(m.blobOrder) > 1 {
		old := m.blobOrder[0]
		m.blobOrder = m.blobOrder[1:]
		m.blobBytes -= int64(len(m.blobs[old]))
		delete(m.blobs, old)
	}
	return addr, nil
}

// GetBlob returns the blob at addr.
func (m *MemJobs) GetBlob(_ context.Context, addr string) ([]byte, error) {
	m.blobMu.Lock()
	defer m.blobMu.Unlock()
	data, ok := m.blobs[addr]
	if !ok {
		return nil, fmt.Errorf("%w %s: not stored (or dropped)", jobs.ErrBlob, addr)
	}
	return data, nil
}

// forgetOld drops the oldest finished jobs over MaxKept; m.mu is held.
func (m *MemJobs) forgetOld() {
	keep := m.MaxKept
	if keep <= 0 {
		keep = 1000
	}
	var done []*memJob
	for _, j := range m.jobs {
		if j.st.Finished() {
			done = append(done, j)
		}
	}
	if len(done) <= keep {
		return
	}
	sort.Slice(done, func(a, b int) bool { return done[a].st.Updated.Before(done[b].st.Updated) })
	for _, j := range done[:len(done)-keep] {
		delete(m.jobs, j.st.ID)
	}
}

func (m *MemJobs) update(j *memJob, f func(*JobState)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if j.st.Finished() && j.st.State != JobCancelled {
		return
	}
	if j.st.State == JobCancelled && j.st.Error != "" {
		return // the final word on a cancelled job is said
	}
	f(&j.st)
	j.st.Updated = time.Now()
	close(j.wake)
	j.wake = make(chan struct{})
}

func (m *MemJobs) get(id string) (*memJob, error) {
	j := m.jobs[id]
	if j == nil {
		return nil, fmt.Errorf("%w %q", ErrNoJob, id)
	}
	return j, nil
}

func (m *MemJobs) Job(ctx context.Context, id string) (JobState, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, err := m.get(id)
	if err != nil {
		return JobState{}, err
	}
	return j.st, nil
}

func (m *MemJobs) Watch(ctx context.Context, id string, fn func(JobState)) error {
	for {
		m.mu.Lock()
		j, err := m.get(id)
		if err != nil {
			m.mu.Unlock()
			return err
		}
		st, wake := j.st, j.wake
		m.mu.Unlock()
		fn(st)
		if st.Finished() {
			return nil
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (m *MemJobs) Cancel(ctx context.Context, id string) error {
	m.mu.Lock()
	j, err := m.get(id)
	if err != nil {
		m.mu.Unlock()
		return err
	}
	cancel := j.cancel
	if !j.st.Finished() {
		j.st.State = JobCancelled
		j.st.Updated = time.Now()
		close(j.wake)
		j.wake = make(chan struct{})
	}
	m.mu.Unlock()
	cancel()
	return nil
}

// ---- the HTTP side ----------------------------------------------------------

// jobKind is a kind of job the pages may submit: its spec is checked by
// check before it is queued (a 4xx there is the client's), and its time
// limit is the spec's own, bounded.
type jobKind struct {
	run JobFunc
	// check validates a spec and returns its time limit (0: the default).
	check func(spec json.RawMessage) (time.Duration, error)
	// normalize, when set, returns the spec as it is submitted: a
	// catalogue job with the page's defaults filled in, which any worker
	// (this server's or `tessera worker`'s catalogue kind) runs the same.
	normalize func(spec json.RawMessage) (json.RawMessage, error)
	// pictures, when set, lists the uploaded pictures a (checked) spec
	// names: the client must own them.
	pictures func(spec json.RawMessage) []string
	// upload, when set, returns the (checked, normalized) spec with its
	// inputs put in the job system's blob store and named by address (a
	// page's pictures): what any worker reads.
	upload func(ctx context.Context, spec json.RawMessage) (json.RawMessage, error)
	// local, when set, runs the kind on the server's own job system (its
	// MemJobs) whatever Config.Jobs is: a kind of the web's own that
	// works on the server's own state, which the workers of the job
	// system (`tessera worker`: the catalogue's kinds only) do not run.
	// The one such kind is npuzzle.pdb, the build of the server's pattern
	// databases (in its memory and its cache folder, which the page's
	// status reads).
	local bool
}

// catalogJobKind is the job kind of a page whose spec is the catalogue's
// job of that kind: check reads and bounds the spec; the time limit is its
// budget and two minutes for the wait for a slot (the search stops itself
// at its budget); the submitted spec is the checked job, with view (when
// set) asking for the page's view; the catalogue runs it in a busy slot.
func catalogJobKind[J any](s *Server, kind string, check func(json.RawMessage) (J, error), budget func(J) catalog.Budget, view func(*J)) jobKind {
	return jobKind{
		check: func(spec json.RawMessage) (time.Duration, error) {
			j, err := check(spec)
			return budget(j).Timeout + 2*time.Minute, err
		},
		normalize: func(spec json.RawMessage) (json.RawMessage, error) {
			j, err := check(spec)
			if err != nil {
				return nil, err
			}
			if view != nil {
				view(&j)
			}
			return json.Marshal(j)
		},
		run: s.slotted(catalog.JobKinds()[kind]),
	}
}

// pageCheck is the check of a kind whose page sends its own spec: the
// catalogue's spec of the kind (isCatalog) is refused with refusal; the
// time limit of another is check's and wait more (for a slot, or the cut).
func pageCheck(isCatalog func(json.RawMessage) bool, refusal string, wait time.Duration, check func(json.RawMessage) (time.Duration, error)) func(json.RawMessage) (time.Duration, error) {
	return func(spec json.RawMessage) (time.Duration, error) {
		if isCatalog(spec) {
			return 0, errorf(http.StatusBadRequest, "%s", refusal)
		}
		timeout, err := check(spec)
		return timeout + wait, err
	}
}

// pageJobKind is the job kind of a page that sends its own spec, whose
// inputs (pictures) the workers read from the job system's blob store: the
// check is pageCheck's with check's time limit; the upload is the checked
// job with put's inputs stored and named by address; the catalogue runs
// it in a busy slot.
func pageJobKind[J, In any](s *Server, kind string, isCatalog func(json.RawMessage) bool, refusal string, wait time.Duration,
	check func(json.RawMessage) (J, In, time.Duration, error), put func(context.Context, *J, In) error) jobKind {
	return jobKind{
		check: pageCheck(isCatalog, refusal, wait, func(spec json.RawMessage) (time.Duration, error) {
			_, _, timeout, err := check(spec)
			return timeout, err
		}),
		upload: func(ctx context.Context, spec json.RawMessage) (json.RawMessage, error) {
			j, in, _, err := check(spec)
			if err != nil {
				return nil, err
			}
			if err := put(ctx, &j, in); err != nil {
				return nil, err
			}
			return json.Marshal(j)
		},
		run: s.slotted(catalog.JobKinds()[kind]),
	}
}

// splitJobs is the job system of a server given Config.Jobs: the local
// kinds run on its own MemJobs, the others on Config.Jobs. A job is
// looked up in both (ids are 128 random bits: they do not collide).
type splitJobs struct {
	local  *MemJobs
	remote Jobs
	kinds  map[string]bool // the local kinds
}

func (j splitJobs) of(kind string) Jobs {
	if j.kinds[kind] {
		return j.local
	}
	return j.remote
}

func (j splitJobs) Register(kind string, fn JobFunc) error { return j.of(kind).Register(kind, fn) }

func (j splitJobs) Submit(ctx context.Context, kind string, spec json.RawMessage, timeout time.Duration) (string, error) {
	return j.of(kind).Submit(ctx, kind, spec, timeout)
}

func (j splitJobs) Job(ctx context.Context, id string) (JobState, error) {
	st, err := j.local.Job(ctx, id)
	if errors.Is(err, ErrNoJob) {
		return j.remote.Job(ctx, id)
	}
	return st, err
}

func (j splitJobs) Watch(ctx context.Context, id string, fn func(JobState)) error {
	if _, err := j.local.Job(ctx, id); errors.Is(err, ErrNoJob) {
		return j.remote.Watch(ctx, id, fn)
	}
	return j.local.Watch(ctx, id, fn)
}

// PutBlob and GetBlob are those of Config.Jobs, whose workers read them.
func (j splitJobs) PutBlob(ctx context.Context, data []byte) (string, error) {
	return j.remote.PutBlob(ctx, data)
}

func (j splitJobs) GetBlob(ctx context.Context, addr string) ([]byte, error) {
	return j.remote.GetBlob(ctx, addr)
}

func (j splitJobs) Cancel(ctx context.Context, id string) error {
	if _, err := j.local.Job(ctx, id); errors.Is(err, ErrNoJob) {
		return j.remote.Cancel(ctx, id)
	}
	return j.local.Cancel(ctx, id)
}

// submitRequest is the body of POST /api/jobs.
type submitRequest struct {
	Kind string          `json:"kind"`
	Spec json.RawMessage `json:"spec"`
}

// jobCounter counts the running jobs of each client and of each address
// (keys "c:ID" and "a:ADDRESS").
type jobCounter struct {
	mu       sync.Mutex
	running  map[string]map[string]bool // key -> job ids (and reservations)
	reserved uint64                     // reservations made, for their placeholders
}

func clientKeyOf(owner string) string { return "c:" + owner }
func addressKeyOf(addr string) string { return "a:" + addr }

func (c *jobCounter) add(key, id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.addLocked(key, id)
}

func (c *jobCounter) addLocked(key, id string) {
	if c.running == nil {
		c.running = map[string]map[string]bool{}
	}
	if c.running[key] == nil {
		c.running[key] = map[string]bool{}
	}
	c.running[key][id] = true
}

// reserve counts a job about to be submitted under each of keys, in the
// same step as it checks each key's bound (maxes[i] for keys[i]):
// concurrent submissions cannot all pass the check. It returns the
// reservation's placeholder id (replaced by the job's own with add and
// remove), or the index of the key whose bound was reached and its count.
func (c *jobCounter) reserve(keys []string, maxes []int) (placeholder string, full, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, k := range keys {
		if n = len(c.running[k]); n >= maxes[i] {
			return "", i, n
		}
	}
	c.reserved++
	placeholder = pendingPrefix + strconv.FormatUint(c.reserved, 10)
	for _, k := range keys {
		c.addLocked(k, placeholder)
	}
	return placeholder, -1, 0
}

// pendingPrefix marks a reservation's placeholder among a client's ids.
const pendingPrefix = "pending:"

func (c *jobCounter) remove(key, id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.running[key], id)
	if len(c.running[key]) == 0 {
		delete(c.running, key)
	}
}

func (c *jobCounter) ids(key string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var ids []string
	for id := range c.running[key] {
		ids = append(ids, id)
	}
	return ids
}

// recountJobs counts the jobs the store records as open that the job
// system still runs, under their client and address, and marks the others
// finished: the per-client bound holds across a restart (a job of NATS
// survives one; MemJobs' do not).
func (s *Server) recountJobs(ctx context.Context) error {
	open, err := s.store.OpenJobs(ctx)
	if err != nil {
		return err
	}
	for _, j := range open {
		// A job the job system does not answer for (an error, the time
		// up) counts as running: the next submission of its client asks
		// again (forgetFinished).
		st, err := s.jobs.Job(ctx, j.ID)
		if errors.Is(err, ErrNoJob) || err == nil && st.Finished() {
			if s.store.FinishJob(ctx, j.ID) == nil {
				continue
			}
		}
		s.counter.add(clientKeyOf(j.Owner), j.ID)
		s.counter.add(addressKeyOf(j.Address), j.ID)
	}
	return nil
}

// forgetFinished drops the finished jobs from key's count, marking them
// finished in the store.
func (s *Server) forgetFinished(ctx context.Context, key string) {
	for _, id := range s.counter.ids(key) {
		if strings.HasPrefix(id, pendingPrefix) {
			continue
		}
		if st, err := s.jobs.Job(ctx, id); err != nil || st.Finished() {
			s.counter.remove(key, id)
			if err == nil || errors.Is(err, ErrNoJob) {
				s.store.FinishJob(ctx, id) // a failure leaves it open: counted again at the next start, then finished
			}
		}
	}
}

func (s *Server) jobRoutes(m *http.ServeMux) {
	m.HandleFunc("POST /api/jobs", s.serveAPI(s.submitJob))
	m.HandleFunc("GET /api/jobs/{id}", s.serveAPI(s.getJob))
	m.HandleFunc("DELETE /api/jobs/{id}", s.serveAPI(s.cancelJob))
	m.HandleFunc("GET /api/jobs/{id}/events", s.jobEvents)
}

// slotted is fn run in a busy slot of the server (its in-process run of a
// catalogue kind): the wait for the slot is the job's, not its search's,
// and a job's pauses (catalog.WithPause: a paced search) hold no slot.
func (s *Server) slotted(fn JobFunc) JobFunc {
	return func(ctx context.Context, spec json.RawMessage, progress func(any)) (any, error) {
		if err := s.acquire(ctx); err != nil {
			return nil, err
		}
		var held atomic.Bool
		held.Store(true)
		defer func() {
			if held.Load() {
				s.release()
			}
		}()
		ctx = catalog.WithPause(ctx, func(pctx context.Context, d time.Duration) {
			if held.Swap(false) {
				s.release()
			}
			select {
			case <-pctx.Done():
			case <-time.After(d):
			}
			// Failing (pctx over), the search stops at its next look at it.
			held.Store(s.acquire(pctx) == nil)
		})
		return fn(ctx, spec, progress)
	}
}

// registerJobs registers the server's job kinds on its job system.
func (s *Server) registerJobs() error {
	for kind, k := range s.jobKinds {
		if err := s.jobs.Register(kind, k.run); err != nil {
			return fmt.Errorf("web: registering job kind %s: %w", kind, err)
		}
	}
	return nil
}

func (s *Server) submitJob(r *http.Request) (int, any, error) {
	var req submitRequest
	if err := decodeJSON(r, maxSpecBytes+4<<10, &req); err != nil {
		return 0, nil, err
	}
	k, ok := s.jobKinds[req.Kind]
	if !ok {
		kinds := make([]string, 0, len(s.jobKinds))
		for kind := range s.jobKinds {
			kinds = append(kinds, kind)
		}
		sort.Strings(kinds)
		return 0, nil, errorf(http.StatusBadRequest, "unknown job kind %q (have %v)", req.Kind, kinds)
	}
	if len(req.Spec) == 0 {
		return 0, nil, errorf(http.StatusBadRequest, "no spec")
	}
	timeout, err := k.check(req.Spec)
	if err != nil {
		return 0, nil, err
	}
	if k.normalize != nil {
		if req.Spec, err = k.normalize(req.Spec); err != nil {
			return 0, nil, err
		}
	}
	if timeout == 0 {
		timeout = s.cfg.JobTimeout
	}
	if k.pictures != nil {
		// The uploads a job names must be the client's: the job reads
		// them whoever owns them.
		for _, id := range k.pictures(req.Spec) {
			if _, err := s.store.Picture(r.Context(), ownerOf(r), id); err != nil {
				return 0, nil, storeError(err)
			}
		}
	}
	owner, addr := ownerOf(r), addressOf(r)
	keys := []string{clientKeyOf(owner), addressKeyOf(addr)}
	// Forget the finished jobs, then apply the bounds: checked and
	// reserved in one step, so that concurrent submissions cannot all
	// pass them.
	for _, key := range keys {
		s.forgetFinished(r.Context(), key)
	}
	placeholder, full, n := s.counter.reserve(keys, []int{s.cfg.MaxClientJobs, s.cfg.MaxAddressJobs})
	switch full {
	case 0:
		return 0, nil, errorf(http.StatusTooManyRequests, "too many jobs: %d of yours are running (at most %d); cancel one or wait", n, s.cfg.MaxClientJobs)
	case 1:
		return 0, nil, errorf(http.StatusTooManyRequests, "too many jobs: %d are running from your address (at most %d); cancel one or wait", n, s.cfg.MaxAddressJobs)
	}
	var id string
	if k.upload != nil {
		// Within the reservation: a client at its bound uploads nothing.
		req.Spec, err = k.upload(r.Context(), req.Spec)
	}
	if err == nil {
		id, err = s.jobs.Submit(r.Context(), req.Kind, req.Spec, timeout)
	}
	if err == nil {
		if err = s.store.AddJob(r.Context(), store.JobRef{ID: id, Owner: owner, Address: addr, Kind: req.Kind}); err != nil {
			s.jobs.Cancel(context.WithoutCancel(r.Context()), id) // a job no one may read
		}
	}
	for _, key := range keys {
		if err == nil {
			s.counter.add(key, id) // before the placeholder goes: the count never drops between
		}
		s.counter.remove(key, placeholder)
	}
	if err != nil {
		return 0, nil, err
	}
	st, err := s.jobs.Job(r.Context(), id)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusAccepted, st, nil
}

// jobID reads and checks the {id} of a job path.
func jobID(r *http.Request) (string, error) {
	id := r.PathValue("id")
	if len(id) == 0 || len(id) > 64 {
		return "", errorf(http.StatusBadRequest, "bad job id")
	}
	for _, c := range id {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_') {
			return "", errorf(http.StatusBadRequest, "bad job id %q", id)
		}
	}
	return id, nil
}

func (s *Server) jobError(err error) error {
	if errors.Is(err, ErrNoJob) {
		return errorf(http.StatusNotFound, "no job with that id (finished jobs are kept for a while, then forgotten)")
	}
	return err
}

// ownJobID reads the {id} of a job path and checks that the job is the
// client's: another's, like an unknown one, is "no job" (404), so that ids
// say nothing.
func (s *Server) ownJobID(r *http.Request) (string, error) {
	id, err := jobID(r)
	if err != nil {
		return "", err
	}
	j, err := s.store.Job(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) || err == nil && j.Owner != ownerOf(r) {
		return "", s.jobError(ErrNoJob)
	}
	return id, err
}

func (s *Server) getJob(r *http.Request) (int, any, error) {
	id, err := s.ownJobID(r)
	if err != nil {
		return 0, nil, err
	}
	st, err := s.jobs.Job(r.Context(), id)
	if err != nil {
		return 0, nil, s.jobError(err)
	}
	if st.Finished() {
		s.store.FinishJob(r.Context(), id) // not asked about at the next start (on a failure it is, then marked)
	}
	return http.StatusOK, st, nil
}

func (s *Server) cancelJob(r *http.Request) (int, any, error) {
	id, err := s.ownJobID(r)
	if err != nil {
		return 0, nil, err
	}
	if err := s.jobs.Cancel(r.Context(), id); err != nil {
		return 0, nil, s.jobError(err)
	}
	st, err := s.jobs.Job(r.Context(), id)
	if err != nil {
		return 0, nil, s.jobError(err)
	}
	return http.StatusOK, st, nil
}

// jobEvents streams a job's states as server-sent events: "state" events
// carry the JobState as JSON, at most about ten a second (the latest
// wins), and the last one is the finished job; then the stream ends.
func (s *Server) jobEvents(w http.ResponseWriter, r *http.Request) {
	id, err := s.ownJobID(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	st, err := s.jobs.Job(r.Context(), id)
	if err != nil {
		s.fail(w, r, s.jobError(err))
		return
	}
	rc := http.NewResponseController(w)
	rc.SetWriteDeadline(time.Time{}) // a stream outlives the write timeout
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	send := func(st JobState) error {
		b, _ := json.Marshal(st)
		if _, err := fmt.Fprintf(w, "event: state\ndata: %s\n\n", b); err != nil {
			return err
		}
		return rc.Flush()
	}
	if err := send(st); err != nil || st.Finished() {
		return
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	latest := make(chan JobState, 1)
	go func() {
		defer close(latest)
		s.jobs.Watch(ctx, id, func(st JobState) {
			select {
			case <-latest: // drop the unsent one: the latest wins
			default:
			}
			latest <- st
		})
	}()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	keepAlive := time.NewTicker(15 * time.Second)
	defer keepAlive.Stop()
	for {
		select {
		case st, ok := <-latest:
			if !ok {
				return
			}
			if err := send(st); err != nil || st.Finished() {
				return
			}
			select { // at most one event per tick
			case <-tick.C:
			case <-ctx.Done():
				return
			}
		case <-keepAlive.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil || rc.Flush() != nil {
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

// maxSpecBytes bounds a job's spec (a gap puzzle's spec carries its
// picture region, a PNG of up to 220x220 pixels).
const maxSpecBytes = 256 << 10

// specUnmarshal reads a job's spec strictly: unknown fields are errors.
func specUnmarshal(data []byte, v any) error {
	if len(data) > maxSpecBytes {
		return errorf(http.StatusRequestEntityTooLarge, "spec larger than %d KiB", maxSpecBytes>>10)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errorf(http.StatusBadRequest, "malformed spec: %v", err)
	}
	return nil
}

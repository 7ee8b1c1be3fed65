package jobs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sync"
	"time"
)

// Limits on what a job carries. A spec over MaxSpecBytes is refused by
// Submit; a result over MaxResultBytes is recorded as the job's error.
const (
	MaxSpecBytes     = 512 << 10
	MaxResultBytes   = 768 << 10
	MaxProgressBytes = 64 << 10
	MaxKindLen       = 128
	MaxIDLen         = 64
)

// Errors. All of them are wrapped with details; test with errors.Is.
var (
	// ErrSpec is returned by Submit for a malformed, oversized or
	// unknown spec.
	ErrSpec = errors.New("jobs: bad job spec")
	// ErrNotFound is returned for a job id that is not recorded.
	ErrNotFound = errors.New("jobs: no such job")
	// ErrExists is returned by Submit when a spec's ID is already used.
	ErrExists = errors.New("jobs: job id already used")
	// ErrFailed is returned by Client.Call for a job that failed or was
	// canceled (wrapped with the job's recorded error).
	ErrFailed = errors.New("jobs: job failed")
)

// Spec is what Submit publishes: a registered kind and its input.
type Spec struct {
	// ID names the job; empty: Submit draws one with NewID (128 bits from
	// crypto/rand, unguessable). When set it must
	// match [A-Za-z0-9_-]{1,64} and not be used already (ErrExists).
	ID string `json:"id,omitempty"`
	// Kind names a handler registered with Register on the workers
	// ("samegame.bench", "jobs.noop").
	Kind string `json:"kind"`
	// Input is the handler's input, a JSON value (null when empty).
	Input json.RawMessage `json:"input,omitempty"`
	// Timeout is the job's time limit on a worker (0: none): the
	// handler's context ends after it and the job fails if the handler
	// returns an error.
	Timeout Duration `json:"timeout,omitempty"`
}

// Duration is a time.Duration that reads and writes JSON as a string
// ("1m30s") and also reads a number of seconds.
type Duration time.Duration

func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := time.ParseDuration(s)
		if err != nil {
			return err
		}
		*d = Duration(v)
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("duration: want a string like \"90s\" or seconds, got %s", b)
	}
	*d = Duration(f * float64(time.Second))
	return nil
}

// State is a job's state: queued, running, then one of the final states
// done, failed or canceled.
type State string

const (
	Queued   State = "queued"
	Running  State = "running"
	Done     State = "done"
	Failed   State = "failed"
	Canceled State = "canceled"
)

// Final reports whether s is a final state (done, failed, canceled).
func (s State) Final() bool { return s == Done || s == Failed || s == Canceled }

// Status is a job's record, kept in the key-value bucket under its id:
// written once when submitted, when a worker starts it, and once (exactly
// once) with its outcome.
type Status struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind"`
	State     State     `json:"state"`
	Submitted time.Time `json:"submitted"`
	Started   time.Time `json:"started,omitzero"`
	Finished  time.Time `json:"finished,omitzero"`
	Timeout   Duration  `json:"timeout,omitempty"`
	// Attempts counts the deliveries to workers (more than one after a
	// worker was lost).
	Attempts int    `json:"attempts,omitempty"`
	Worker   string `json:"worker,omitempty"`
	// CancelRequested is set by Cancel on a running job.
	CancelRequested bool `json:"cancel_requested,omitempty"`
	// Error is a failed or canceled job's error.
	Error string `json:"error,omitempty"`
	// Result is a done job's result, the handler's value as JSON.
	Result json.RawMessage `json:"result,omitempty"`
}

// Seconds is the job's run time on its last worker (0 before it ends).
func (s Status) Seconds() float64 {
	if s.Started.IsZero() || s.Finished.IsZero() {
		return 0
	}
	return s.Finished.Sub(s.Started).Seconds()
}

// Event is one item of Watch: the job's record at that moment and, for a
// progress event, the latest progress value. Final is set on the last
// event (its Status holds the outcome).
type Event struct {
	Status   Status          `json:"status"`
	Progress json.RawMessage `json:"progress,omitempty"`
	Final    bool            `json:"final,omitempty"`
}

// Handler runs one job of a kind: it decodes input (returning an error
// for bad input, which fails the job without a retry), works until done or
// until ctx ends (the job's time limit, a cancel, the worker stopping),
// may call progress with any JSON-encodable value (calls are coalesced: the
// latest value is published a few times a second at most), and returns a
// JSON-encodable result or an error. A handler that returns a result with
// a nil error at its time limit (an anytime solver's best so far) is done.
type Handler func(ctx context.Context, input json.RawMessage, progress func(v any)) (any, error)

var (
	regMu    sync.RWMutex
	handlers = map[string]Handler{}
)

// NoopKind is a built-in kind whose handler returns its input at once
// (per-job overhead measurements, tests).
const NoopKind = "jobs.noop"

func init() {
	Register(NoopKind, func(_ context.Context, in json.RawMessage, _ func(any)) (any, error) {
		if len(in) == 0 {
			return nil, nil
		}
		return in, nil
	})
}

var kindRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:/-]*$`)

// Register makes h the handler of kind in this process, for the workers it
// runs (RunWorkers). Registering a kind twice replaces its handler. It
// panics on an empty or malformed kind (programmer misuse).
func Register(kind string, h Handler) {
	if len(kind) > MaxKindLen || !kindRE.MatchString(kind) {
		panic(fmt.Sprintf("jobs: bad kind %q", kind))
	}
	regMu.Lock()
	defer regMu.Unlock()
	handlers[kind] = h
}

// Kinds returns the registered kinds, sorted.
func Kinds() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	return slices.Sorted(maps.Keys(handlers))
}

func handler(kind string) (Handler, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	h, ok := handlers[kind]
	return h, ok
}

var idRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// ParseSpec decodes and checks a spec as Submit does: at most MaxSpecBytes,
// one JSON object with a well-formed kind, a valid id when set, input a
// JSON value, a non-negative timeout; unknown fields are refused.
func ParseSpec(b []byte) (Spec, error) {
	var s Spec
	if len(b) > MaxSpecBytes {
		return s, fmt.Errorf("%w: %d bytes, more than the limit of %d", ErrSpec, len(b), MaxSpecBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return s, fmt.Errorf("%w: %v", ErrSpec, err)
	}
	if dec.More() {
		return s, fmt.Errorf("%w: text after the JSON object", ErrSpec)
	}
	return s, s.check()
}

func (s *Spec) check() error {
	switch {
	case s.Kind == "":
		return fmt.Errorf("%w: no kind", ErrSpec)
	case len(s.Kind) > MaxKindLen || !kindRE.MatchString(s.Kind):
		return fmt.Errorf("%w: malformed kind %q", ErrSpec, truncate(s.Kind, 40))
	case s.ID != "" && !idRE.MatchString(s.ID):
		return fmt.Errorf("%w: malformed id %q (want 1 to 64 of A-Z a-z 0-9 _ -)", ErrSpec, truncate(s.ID, 40))
	case s.Timeout < 0:
		return fmt.Errorf("%w: negative timeout", ErrSpec)
	case len(s.Input) > 0 && !json.Valid(s.Input):
		return fmt.Errorf("%w: input is not valid JSON", ErrSpec)
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

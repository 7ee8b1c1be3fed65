package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"sync"
	"time"

	"tessera/internal/catalog"
)

// Remote runs an item elsewhere: a job of kind with input, under a time
// limit (0: none), returning the job's result. (*jobs.Client).Call is one.
type Remote interface {
	Call(ctx context.Context, kind string, input json.RawMessage, timeout time.Duration) (json.RawMessage, error)
}

// Item is a bench's kind of item that can run on workers: Kind names it
// (a job kind, "bench.samegame"), Work is the per-item function, the same
// locally and on a worker. In and Out travel as JSON; Encode and Decode,
// when set, replace json.Marshal and json.Unmarshal for Out (a record with
// unexported fields).
type Item[In, Out any] struct {
	Kind   string
	Work   func(ctx context.Context, in In) Out
	Encode func(Out) any
	Decode func(b []byte) (Out, error)
}

// ItemHandler runs one remote item on a worker: it decodes the envelope,
// runs the item under its budget and encodes the result with the item's
// CPU time.
type ItemHandler func(ctx context.Context, input json.RawMessage) (any, error)

var (
	itemsMu sync.Mutex
	items   = map[string]ItemHandler{}
)

// Items returns the registered item kinds and their handlers (for workers:
// "tessera worker" registers each as a job kind).
func Items() map[string]ItemHandler {
	itemsMu.Lock()
	defer itemsMu.Unlock()
	return maps.Clone(items)
}

// envelope is an item's job input; reply its result.
type envelope[In any] struct {
	Timeout time.Duration `json:"timeout_ns"`
	CPU     bool          `json:"cpu"`
	In      In            `json:"in"`
}

type reply struct {
	CPU time.Duration   `json:"cpu_ns"` // the budget's measure (Options.CPU)
	Out json.RawMessage `json:"out"`
}

// NewItem declares an item kind and registers its worker side; call it
// once per kind, at package level.
func NewItem[In, Out any](kind string, work func(ctx context.Context, in In) Out) *Item[In, Out] {
	it := &Item[In, Out]{Kind: kind, Work: work}
	itemsMu.Lock()
	defer itemsMu.Unlock()
	if _, dup := items[kind]; dup {
		panic("bench: item kind " + kind + " declared twice")
	}
	items[kind] = func(ctx context.Context, input json.RawMessage) (any, error) {
		var env envelope[In]
		if err := json.Unmarshal(input, &env); err != nil {
			return nil, fmt.Errorf("bench: %s input: %w", kind, err)
		}
		var out Out
		cpu := catalog.WithBudget(ctx, env.Timeout, env.CPU, func(ctx context.Context) { out = it.Work(ctx, env.In) })
		var v any = out
		if it.Encode != nil {
			v = it.Encode(out)
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("bench: %s result: %w", kind, err)
		}
		return reply{CPU: cpu, Out: b}, nil
	}
	return it
}

// RemoteInFlight bounds the items a run keeps submitted at once.
const RemoteInFlight = 1024

// RunItems is Run for an Item: item i's input is input(i). Without
// opts.Remote it runs in-process exactly as Run; with it every item is a
// job (submitted in order, at most RemoteInFlight at once) run by workers
// under the item's budget (opts.Timeout, opts.CPU), and emit gets the CPU
// time the worker measured. A job that fails (its workers lost, a
// connection lost) ends the run with its error.
func RunItems[In, Out any](ctx context.Context, n int, opts Options, it *Item[In, Out], input func(i int) In,
	emit func(i int, r *Out, cpu time.Duration) error) ([]Out, error) {
	if opts.Remote == nil {
		return Run(ctx, n, opts, func(ctx context.Context, i int) Out { return it.Work(ctx, input(i)) }, emit)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	cpus := make([]time.Duration, n)
	limit := time.Duration(0)
	if opts.Timeout > 0 {
		// A safety net only: the item keeps its own budget.
		limit = 4*opts.Timeout + time.Minute
	}
	ropts := Options{Workers: min(max(n, 1), RemoteInFlight), Done: opts.Done}
	res, err := Run(ctx, n, ropts, func(ctx context.Context, i int) Out {
		var out Out
		b, err := json.Marshal(envelope[In]{Timeout: opts.Timeout, CPU: opts.CPU, In: input(i)})
		if err != nil {
			cancel(fmt.Errorf("bench: item %d: %w", i+1, err))
			return out
		}
		rb, err := opts.Remote.Call(ctx, it.Kind, b, limit)
		if err != nil {
			cancel(fmt.Errorf("bench: item %d: %w", i+1, err))
			return out
		}
		var r reply
		if err := json.Unmarshal(rb, &r); err != nil {
			cancel(fmt.Errorf("bench: item %d result: %w", i+1, err))
			return out
		}
		if it.Decode != nil {
			out, err = it.Decode(r.Out)
		} else {
			err = json.Unmarshal(r.Out, &out)
		}
		if err != nil {
			cancel(fmt.Errorf("bench: item %d result: %w", i+1, err))
			return out
		}
		cpus[i] = r.CPU
		return out
	}, func(i int, r *Out, _ time.Duration) error {
		if emit == nil || ctx.Err() != nil {
			return nil
		}
		return emit(i, r, cpus[i])
	})
	if cause := context.Cause(ctx); cause != nil && err != nil {
		return res, cause
	}
	return res, err
}

// RunJobs runs the solve jobs input(0..n-1) of a family's job kind (a
// catalogue contract: "samegame.solve" with catalog.SameGameJob in and
// catalog.SameGameRecord out). Each job carries its own budget, so opts'
// Timeout and CPU are not applied here. Without opts.Remote, run solves
// each in-process on opts.Workers goroutines; with it each is a job (at
// most RemoteInFlight at once) and its result the record the worker
// returned. emit gets each record in order, as Run's does; a job that
// fails (its workers lost, a connection lost) ends the run with its error.
func RunJobs[In, Out any](ctx context.Context, n int, opts Options, kind string, timeout time.Duration,
	run func(ctx context.Context, in In) Out, input func(i int) In, emit func(i int, r *Out) error) ([]Out, error) {
	var em func(i int, r *Out, _ time.Duration) error
	if emit != nil {
		em = func(i int, r *Out, _ time.Duration) error { return emit(i, r) }
	}
	local := Options{Workers: opts.Workers, Done: opts.Done}
	if opts.Remote == nil {
		return Run(ctx, n, local, func(ctx context.Context, i int) Out { return run(ctx, input(i)) }, em)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	limit := time.Duration(0)
	if timeout > 0 {
		// A safety net only: the job keeps its own budget.
		limit = 4*timeout + time.Minute
	}
	local.Workers = min(max(n, 1), RemoteInFlight)
	res, err := Run(ctx, n, local, func(ctx context.Context, i int) Out {
		var out Out
		b, err := json.Marshal(input(i))
		if err == nil {
			var rb json.RawMessage
			if rb, err = opts.Remote.Call(ctx, kind, b, limit); err == nil {
				err = json.Unmarshal(rb, &out)
			}
		}
		if err != nil {
			cancel(fmt.Errorf("bench: item %d: %w", i+1, err))
		}
		return out
	}, func(i int, r *Out, _ time.Duration) error {
		if em == nil || ctx.Err() != nil {
			return nil
		}
		return em(i, r, 0)
	})
	if cause := context.Cause(ctx); cause != nil && err != nil {
		return res, cause
	}
	return res, err
}

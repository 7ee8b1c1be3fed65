package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"tessera/internal/jobs"
)

// NATSJobs runs the server's jobs on internal/jobs (NATS JetStream): the
// records live in the JetStream store, so a reloaded page, and a
// restarted server on the same store, find a job again, and a job that was
// running when its server died is run again after the ack wait. The kinds
// are registered in this process (jobs.Register), for the workers that
// `tessera serve` runs; workers elsewhere need them too.
type NATSJobs struct {
	C *jobs.Client
}

func (n NATSJobs) Register(kind string, fn JobFunc) error {
	jobs.Register(kind, jobs.Handler(fn))
	return nil
}

func (n NATSJobs) Submit(ctx context.Context, kind string, spec json.RawMessage, timeout time.Duration) (string, error) {
	id, err := n.C.Submit(ctx, jobs.Spec{Kind: kind, Input: spec, Timeout: jobs.Duration(timeout)})
	if errors.Is(err, jobs.ErrSpec) {
		return "", errorf(400, "%v", err)
	}
	if errors.Is(err, jobs.ErrFull) {
		// The queue or the records at their bound: come back later.
		return "", errorf(507, "%v", err)
	}
	return id, err
}

// jobState converts a record, with its latest progress.
func jobState(st jobs.Status, progress json.RawMessage) JobState {
	out := JobState{ID: st.ID, Kind: st.Kind, State: string(st.State), Progress: progress, Result: st.Result, Error: st.Error,
		Created: st.Submitted, Updated: st.Finished}
	if out.Updated.IsZero() {
		out.Updated = st.Started
	}
	if out.Updated.IsZero() {
		out.Updated = st.Submitted
	}
	return out
}

func (n NATSJobs) Job(ctx context.Context, id string) (JobState, error) {
	st, err := n.C.Status(ctx, id)
	if errors.Is(err, jobs.ErrNotFound) {
		return JobState{}, fmt.Errorf("%w %q", ErrNoJob, id)
	}
	if err != nil {
		return JobState{}, err
	}
	return jobState(st, nil), nil
}

func (n NATSJobs) Watch(ctx context.Context, id string, fn func(JobState)) error {
	ch, err := n.C.Watch(ctx, id)
	if errors.Is(err, jobs.ErrNotFound) {
		return fmt.Errorf("%w %q", ErrNoJob, id)
	}
	if err != nil {
		return err
	}
	var progress json.RawMessage
	for ev := range ch {
		if len(ev.Progress) > 0 {
			progress = ev.Progress
		}
		fn(jobState(ev.Status, progress))
		if ev.Final {
			return nil
		}
	}
	return ctx.Err()
}

// PutBlob and GetBlob are the job store's blobs, which the workers read.
func (n NATSJobs) PutBlob(ctx context.Context, data []byte) (string, error) {
	return n.C.PutBlob(ctx, data)
}

func (n NATSJobs) GetBlob(ctx context.Context, addr string) ([]byte, error) {
	return n.C.GetBlob(ctx, addr)
}

func (n NATSJobs) Cancel(ctx context.Context, id string) error {
	err := n.C.Cancel(ctx, id)
	if errors.Is(err, jobs.ErrNotFound) {
		return fmt.Errorf("%w %q", ErrNoJob, id)
	}
	return err
}

// Package dist runs distributed searches as jobs (package jobs): the
// executors that the families' split searches take, and the job kinds
// that the workers run.
//
//   - edgematch.subtree: one subtree of an exact search split into
//     subtrees (edgematch.Split): the puzzle, the scan and the prefix in,
//     placements, solutions and the first solution out; progress is the
//     placements so far. Subtrees is the edgematch.SubtreeExecutor.
//   - edgematch.partial: one seeded partial search of an
//     edgematch.DistPartial, with one worker: the break-schedule search
//     (edgematch.Breaks, the catalogue's partial), the tileability-guided
//     search (Tiles) or the large neighbourhood search (Partial, the
//     catalogue's lns), with its parameters; progress is its best board as
//     it improves. Partial is the edgematch.PartialExecutor.
//   - samegame.nrpa: one level-(L-1) search of a distributed NRPA
//     (samegame.DistNRPA) from the root's policy. NRPA is the
//     samegame.NRPAExecutor.
//
// The kinds are registered when the package is loaded, so every binary
// that imports it (tessera, and so tessera worker) runs them. Inputs carry
// the puzzle or board itself, never a file name, so a worker needs nothing
// but the binary. Workers check every input as the families' parsers do;
// the coordinator checks every answer (boards are verified and rescored,
// clicks replayed), so a wrong worker cannot corrupt a result.
//
// A job's time limit is the time left to the caller's context (none
// without a deadline); when the caller's context ends, its running and
// queued jobs are cancelled.
package dist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"tessera/internal/jobs"
)

// timeLeft is the time limit of a job submitted under ctx: the time to
// its deadline, or 0 (none).
func timeLeft(ctx context.Context) time.Duration {
	if dl, ok := ctx.Deadline(); ok {
		return max(time.Until(dl), time.Millisecond)
	}
	return 0
}

// The time a job may take to record its result after the caller's
// deadline (its own time limit): a partial search's best board, an NRPA
// search's best clicks.
const (
	partialGrace = 5 * time.Second
	nrpaGrace    = 2 * time.Second
)

// errCanceled marks a job that was cancelled (by its caller).
var errCanceled = errors.New("dist: job canceled")

// run submits one job and follows it: progress values go to onProgress,
// and it returns the result of a done job, or an error for a failed or
// canceled one. When ctx ends it waits up to grace for the job's own end
// (a job whose time limit is ctx's deadline records its best so far),
// then cancels the job and returns ctx's error.
func run(ctx context.Context, c *jobs.Client, kind string, input any, grace time.Duration, onProgress func(json.RawMessage)) (json.RawMessage, error) {
	raw, err := json.Marshal(input)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Neither Submit nor the watch is cut short by ctx itself (a job
	// recorded but never queued would stay open; a final record may come
	// within the grace); the job is cancelled below when ctx ends.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	id, err := c.Submit(sctx, jobs.Spec{Kind: kind, Input: raw, Timeout: jobs.Duration(timeLeft(ctx))})
	cancel()
	if err != nil {
		return nil, err
	}
	wctx, stopWatch := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWatch()
	events, err := c.Watch(wctx, id)
	if err != nil {
		cancelJob(c, id)
		return nil, err
	}
	done := ctx.Done()
	var expired <-chan time.Time
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				cancelJob(c, id)
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				return nil, fmt.Errorf("dist: %s job %s: watch ended", kind, id)
			}
			if ev.Progress != nil && onProgress != nil {
				onProgress(ev.Progress)
			}
			if ev.Final {
				switch ev.Status.State {
				case jobs.Done:
					return ev.Status.Result, nil
				case jobs.Canceled:
					return nil, fmt.Errorf("%w: %s %s: %s", errCanceled, kind, id, ev.Status.Error)
				}
				return nil, fmt.Errorf("dist: %s job %s %s: %s", kind, id, ev.Status.State, ev.Status.Error)
			}
		case <-done:
			done = nil
			if grace <= 0 {
				cancelJob(c, id)
				return nil, ctx.Err()
			}
			expired = time.After(grace)
		case <-expired:
			cancelJob(c, id)
			return nil, ctx.Err()
		}
	}
}

// cancelJob cancels a job whose caller no longer waits for it.
func cancelJob(c *jobs.Client, id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c.Cancel(ctx, id)
}

package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
)

// JobFunc runs one job of a kind: it reads its input, may report progress
// (each value replaces the last), and returns its result or an error. It
// returns soon after ctx ends.
type JobFunc func(ctx context.Context, input json.RawMessage, progress func(any)) (any, error)

// The solve job kinds, "<family>.solve": the family's Job in, its Record out.
const (
	SameGameKind  = "samegame.solve"
	TangramKind   = "tangram.solve"
	JigsawKind    = "jigsaw.solve"
	GapsKind      = "gaps.solve"
	EdgeMatchKind = "edgematch.solve"
)

// decodeSpec reads the spec of a job of kind, a J.
func decodeSpec[J any](kind string, spec json.RawMessage) (J, error) {
	var j J
	if err := json.Unmarshal(spec, &j); err != nil {
		return j, fmt.Errorf("%s: %w", kind, err)
	}
	return j, nil
}

// JobKinds returns the catalogue's job kinds and their functions, for the
// job systems to register (tessera worker, the in-process workers of serve
// and bench).
func JobKinds() map[string]JobFunc {
	return maps.Clone(jobKinds)
}

var jobKinds = map[string]JobFunc{
	SameGameKind:  jobKind(SameGameKind, runSameGameJob),
	TangramKind:   viewKind(TangramKind, TangramJob.viewed, TangramJob.RunView, TangramJob.record),
	JigsawKind:    jobKind(JigsawKind, runJigsawJob),
	GapsKind:      jobKind(GapsKind, runGapsJob),
	NpuzzleKind:   runNpuzzleJob,
	EdgeMatchKind: viewKind(EdgeMatchKind, EdgeMatchJob.viewed, EdgeMatchJob.RunView, EdgeMatchJob.record),
}

// jobKind is the JobFunc of a job kind whose input is a J: it decodes the
// input (a mistake is an error that names the kind) and hands the job to
// run.
func jobKind[J any](kind string, run func(ctx context.Context, j J, progress func(any)) (any, error)) JobFunc {
	return func(ctx context.Context, spec json.RawMessage, progress func(any)) (any, error) {
		j, err := decodeSpec[J](kind, spec)
		if err != nil {
			return nil, err
		}
		return run(ctx, j, progress)
	}
}

// viewKind is the JobFunc of a job kind whose job J a person may follow
// (the web page's Auto): when viewed says so, runView runs it with the view
// as progress; otherwise record runs it with no hooks and its record is the
// result (a cancelled job's with ctx's error).
func viewKind[J, V, R any](kind string, viewed func(J) bool, runView func(J, context.Context, func(any)) (V, error),
	record func(J, context.Context) R) JobFunc {
	return jobKind(kind, func(ctx context.Context, j J, progress func(any)) (any, error) {
		if viewed(j) {
			return runView(j, ctx, progress)
		}
		return record(j, ctx), ctx.Err()
	})
}

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
	SameGameKind:  runSameGameJob,
	TangramKind:   runTangramJob,
	JigsawKind:    runJigsawJob,
	GapsKind:      runGapsJob,
	NpuzzleKind:   runNpuzzleJob,
	EdgeMatchKind: runEdgeMatchJob,
}

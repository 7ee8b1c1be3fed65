package catalog

import (
	"context"
	"encoding/json"
	"math"
	"sync"
	"testing"
	"time"

	"tessera/internal/jobs"
)

// TestJigsawJobView: a job with View reports the best layout of its
// generations, scored, and its result's view agrees with its record (one
// picture: the board's direct score is the record's).
func TestJigsawJobView(t *testing.T) {
	blobs, a, _ := blobFile(t, "../../jigsaw/testdata/mit5-crop.png")
	job := JigsawJob{Spec: Spec[JigsawOptions]{Solver: "ga", Options: JigsawOptions{Seed: 1}}, Pictures: []Picture{{Name: "m.png", Blob: a}},
		Piece: 28, Type: 2, View: true}
	in, _ := json.Marshal(job)
	var mu sync.Mutex
	var views []JigsawView
	out, err := JobKinds()[JigsawKind](jobs.WithBlobs(context.Background(), blobs), in, func(v any) {
		mu.Lock()
		views = append(views, v.(JigsawView))
		mu.Unlock()
	})
	res, ok := out.(JigsawResult)
	if err != nil || !ok || res.JigsawView == nil || len(res.Records) != 1 {
		t.Fatalf("%+v, %v", out, err)
	}
	v, rec := res.JigsawView, res.Records[0]
	if v.Board == nil || v.Score.Pieces != rec.Pieces || math.Abs(v.Score.Direct-rec.Direct) > 1e-9 || v.Score.Perfect != rec.Perfect ||
		v.Generation == 0 || len(v.History) != v.Generation || v.Message == "" {
		t.Fatalf("view %+v against record %+v", *v, rec)
	}
	if len(views) == 0 || views[0].Board == nil || views[0].Score.Pieces != rec.Pieces {
		t.Fatalf("progress: %d values, first %+v", len(views), views)
	}
}

// TestGapsJobView: a job with View reports each MCTS placement, pauses
// PaceMS after each through the context's pause, and its result's view
// agrees with the record (V's value, the patches in place).
func TestGapsJobView(t *testing.T) {
	blobs, a, _ := blobFile(t, "../../jigsaw/neural/testdata/kodak23.png")
	j := GapsJob{Spec: Spec[GapOptions]{Solver: "mcts", Options: GapOptions{Seed: 4, Sims: 10}, Budget: Budget{Timeout: time.Minute}},
		Picture: Picture{Name: "k.png", Blob: a}, Grid: 3, Patch: 40, Gap: 4, Centre: true, View: true, PaceMS: 1}
	in, _ := json.Marshal(j)
	pauses, steps := 0, 0
	ctx := WithPause(jobs.WithBlobs(context.Background(), blobs), func(context.Context, time.Duration) { pauses++ })
	out, err := JobKinds()[GapsKind](ctx, in, func(v any) {
		if v.(GapsView).Step != nil {
			steps++
		}
	})
	res, ok := out.(GapsResult)
	if err != nil || !ok || res.GapsView == nil || len(res.Records) != 1 {
		t.Fatalf("%+v, %v", out, err)
	}
	v, rec := res.GapsView, res.Records[0]
	if !v.Final || pauses != 9 || steps != 9 || len(v.Steps) != 9 || v.Score == nil || len(v.Cells) != 9 || v.Value != round4(rec.Value) ||
		math.Abs(float64(v.Score.Patches)/9-rec.Patch) > 1e-9 || !v.Played {
		t.Fatalf("view %+v (%d pauses, %d steps) against record %+v", *v, pauses, steps, rec)
	}
}

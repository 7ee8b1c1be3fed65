package catalog

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image/png"
	"sync"
	"time"

	"tessera/edgematch"
)

// The view of an edgematch.solve job that a person follows
// (EdgeMatchJob.View, the web page's Auto): the partial search's best
// board, the LP's matrix P after each iteration. It is computed where the
// job runs, so that any worker serves the page.

// EdgeMatchProgress is an edgematch.solve job's progress with View.
type EdgeMatchProgress struct {
	Solver     string   `json:"solver"`
	Board      [][2]int `json:"board,omitempty"`
	Score      int      `json:"score"`
	Max        int      `json:"max"`
	Solved     bool     `json:"solved"`
	Nodes      int64    `json:"nodes,omitempty"`
	MS         float64  `json:"ms"`
	Iteration  int      `json:"iteration,omitempty"` // lp
	Objective  float64  `json:"objective,omitempty"`
	Fractional int      `json:"fractional,omitempty"`
	P          string   `json:"p,omitempty"` // lp: the matrix P as a PNG data URL
	// Iterates, in the result of lp, are P after every LP iteration (as
	// long as they fit in 512 KiB), in order: the live progress may skip
	// some.
	Iterates []string `json:"iterates,omitempty"`
	Message  string   `json:"message"`
	Stopped  string   `json:"stopped,omitempty"` // why a search ended without a solution
}

// EdgeMatchViewResult is what an edgematch.solve job with View returns:
// the catalogue's record and, for lp, P after every LP iteration (as long
// as they fit in 512 KiB), in order: the live progress may skip some.
type EdgeMatchViewResult struct {
	EdgeMatchRecord
	Iterates []string `json:"iterates,omitempty"`
}

// EdgeMatchBoardCells is b's cells as the page holds them: [piece,
// rotation] each, row-major.
func EdgeMatchBoardCells(b *edgematch.Board) [][2]int {
	out := make([][2]int, len(b.Cells))
	for i, c := range b.Cells {
		out[i] = [2]int{c.Piece, c.Rot}
	}
	return out
}

// RunView runs the job with its view (View): the partial search reports
// its best board, the LP each iteration's P, at most about four times a
// second. A cancelled job returns ctx's error.
func (j EdgeMatchJob) RunView(ctx context.Context, progress func(any)) (EdgeMatchViewResult, error) {
	p, _, err := j.Parse()
	if err != nil {
		return EdgeMatchViewResult{}, err
	}
	start := time.Now()
	msSince := func() float64 { return float64(time.Since(start).Microseconds()) / 1000 }
	var mu sync.Mutex
	var last time.Time
	throttled := func(f func() EdgeMatchProgress) {
		mu.Lock()
		defer mu.Unlock()
		if progress == nil || time.Since(last) < 250*time.Millisecond {
			return
		}
		last = time.Now()
		progress(f())
	}
	var h EdgeMatchHooks
	var best [][2]int // the partial search's best board so far
	bestScore := 0
	h.OnBest = func(b *edgematch.Board, sc edgematch.Score) {
		mu.Lock()
		best, bestScore = EdgeMatchBoardCells(b), sc.Matched
		mu.Unlock()
		throttled(func() EdgeMatchProgress {
			return EdgeMatchProgress{Solver: j.Solver, Board: best, Score: bestScore, Max: sc.Max, MS: msSince(),
				Message: fmt.Sprintf("Partial search: best %d of %d edges", sc.Matched, sc.Max)}
		})
	}
	var iterates []string
	iterBytes := 0
	h.OnLP = func(it edgematch.LPIterate) {
		// every iteration is shown: they are few and slow
		img := edgematch.RenderP(it, edgematch.SnapshotOptions{Cell: 32})
		var buf bytes.Buffer
		png.Encode(&buf, img)
		pr := EdgeMatchProgress{Solver: j.Solver, Iteration: it.Iteration, Objective: it.Objective, Fractional: it.Fractional, Max: p.MaxScore(), MS: msSince(),
			P:       "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes()),
			Message: fmt.Sprintf("LP iteration %d: %d fractional entries, objective %.3f", it.Iteration, it.Fractional, it.Objective)}
		if it.Board != nil {
			pr.Board, pr.Score = EdgeMatchBoardCells(it.Board), it.Score.Matched
		}
		mu.Lock()
		if iterBytes += len(pr.P); iterBytes <= 512<<10 {
			iterates = append(iterates, pr.P)
		}
		mu.Unlock()
		if progress != nil && buf.Len() < 48<<10 {
			progress(pr)
		}
	}
	h.Progress = func(format string, args ...any) {
		throttled(func() EdgeMatchProgress {
			// the best board goes with every report, so that a page
			// that comes back finds it
			return EdgeMatchProgress{Solver: j.Solver, Board: best, Score: bestScore, Max: p.MaxScore(), MS: msSince(), Message: fmt.Sprintf(format, args...)}
		})
	}
	rec, _ := j.Run(ctx, h)
	if err := ctx.Err(); err != nil {
		return EdgeMatchViewResult{}, err // cancelled
	}
	mu.Lock()
	defer mu.Unlock()
	return EdgeMatchViewResult{EdgeMatchRecord: rec, Iterates: iterates}, nil
}

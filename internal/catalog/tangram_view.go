package catalog

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image/png"
	"slices"
	"strings"
	"sync"

	"tessera/tangram"
)

// The view of a tangram.solve job that a person follows (TangramJob.View,
// the web page's Auto): the solution as placements of the page's tans and,
// for Algorithm 2, every iterate's poses and their strip. It is computed
// where the job runs, so that any worker serves the page.

// TangramPoint is a point as the page holds it: x = (X[0] + X[1]√2)/2,
// y = (X[2] + X[3]√2)/2, every part an integer (tangram.Num's own form).
type TangramPoint [4]int64

// TangramPointOf is p's exact parts.
func TangramPointOf(p tangram.Point) TangramPoint {
	xa, xb := p.X.Parts()
	ya, yb := p.Y.Parts()
	return TangramPoint{xa, xb, ya, yb}
}

// Point returns the exact point, or an error beyond tangram.MaxCoord.
func (q TangramPoint) Point() (tangram.Point, error) {
	for _, v := range q {
		if v < -4*tangram.MaxCoord || v > 4*tangram.MaxCoord {
			return tangram.Point{}, fmt.Errorf("coordinate part %d beyond ±%d", v, 4*tangram.MaxCoord)
		}
	}
	return tangram.Pt(tangram.Half(q[0], q[1]), tangram.Half(q[2], q[3])), nil
}

// TangramPlacement is a tan on the page's board: translation T and
// orientation O (tangram.Orientation: turns by 45 degrees in bits 0-2,
// flip in bit 3).
type TangramPlacement struct {
	T TangramPoint `json:"t"`
	O int          `json:"o"`
}

// TangramPlacements is sol's placements as the page holds them.
func TangramPlacements(sol *tangram.Solution) []TangramPlacement {
	out := make([]TangramPlacement, len(sol.Placements))
	for k, pl := range sol.Placements {
		out[k] = TangramPlacement{TangramPointOf(pl.T), int(pl.Orient)}
	}
	return out
}

// TangramMatch finds where shape (a piece as given) goes, turned by some
// orientation and moved by t, to cover exactly the polygon target (the
// same vertices, in any order and from any first one).
func TangramMatch(shape, target tangram.Polygon) (tangram.Orientation, tangram.Point, bool) {
	if len(shape) != len(target) || len(target) == 0 {
		return 0, tangram.Point{}, false
	}
	sorted := func(pg tangram.Polygon) tangram.Polygon {
		q := slices.Clone(pg)
		slices.SortFunc(q, func(a, b tangram.Point) int {
			switch {
			case a.Less(b):
				return -1
			case b.Less(a):
				return 1
			}
			return 0
		})
		return q
	}
	want := sorted(target)
	for o := range tangram.Orientation(16) {
		sh, err := shape.Oriented(o)
		if err != nil {
			continue
		}
		got := sorted(sh)
		t := want[0].Sub(got[0])
		if slices.Equal(sorted(got.Translate(t)), want) {
			return o, t, true
		}
	}
	return 0, tangram.Point{}, false
}

// TangramOnBoard returns sol, a solution of p, as placements of the page's
// tans (tangram.Tans, in order by name), or nil when a piece is not a tan.
func TangramOnBoard(p *tangram.Puzzle, sol *tangram.Solution) *tangram.Solution {
	tans := tangram.Tans()
	out := tangram.NewSolution(len(tans))
	for i, pc := range p.Pieces {
		k := slices.IndexFunc(tans, func(t tangram.Piece) bool { return t.Name == pc.Name })
		if k < 0 || !sol.Placements[i].Placed {
			continue
		}
		placed, err := p.Placed(sol, i)
		if err != nil {
			return nil
		}
		o, t, ok := TangramMatch(tans[k].Shape, placed)
		if !ok {
			return nil
		}
		out.Place(k, t, o)
	}
	return out
}

// TangramPose is a tan's pose on the board in floating point (an iterate
// of Algorithm 2): translation (X, Y), orientation O.
type TangramPose struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	O int     `json:"o"`
}

// TangramBoardOrients returns, for each piece of p, how the board's tan of
// the same name is turned to have the piece's shape (and moved: a pose of
// the piece is the tan's pose moved by it), or false when p's pieces are
// not the seven tans in order.
func TangramBoardOrients(p *tangram.Puzzle) ([]TangramPose, bool) {
	tans := tangram.Tans()
	if len(p.Pieces) != len(tans) {
		return nil, false
	}
	out := make([]TangramPose, len(tans))
	for k, pc := range p.Pieces {
		if pc.Name != tans[k].Name {
			return nil, false
		}
		o, t, ok := TangramMatch(tans[k].Shape, pc.Shape)
		if !ok {
			return nil, false
		}
		out[k] = TangramPose{t.X.Float64(), t.Y.Float64(), int(o)}
	}
	return out, true
}

// TangramIterate is one SDP of Algorithm 2 as the page draws it.
type TangramIterate struct {
	Iteration int           `json:"iteration"`
	Objective float64       `json:"objective"`
	Solved    bool          `json:"solved"`
	Poses     []TangramPose `json:"poses"`
	MS        float64       `json:"ms"`
}

// TangramViewResult is what a tangram.solve job with View returns (and,
// without Pieces and Strip, its progress): the catalogue's record, the
// solution on the page's board (exact placements), and for sdp every
// iterate's poses and their strip (a PNG data URL, as `tessera tangram
// solve -snapshots` draws iterates.png).
type TangramViewResult struct {
	TangramRecord
	Pieces   []TangramPlacement `json:"pieces,omitempty"`
	Iterates []TangramIterate   `json:"iterates,omitempty"`
	Strip    string             `json:"strip,omitempty"`
}

// RunView runs the job with its view (View): each iterate of Algorithm 2
// goes to progress with its poses on the page's board. The puzzle's pieces
// must be the seven tans (tangram.Tans) in order, so that the view can
// place them; a cancelled job returns ctx's error.
func (j TangramJob) RunView(ctx context.Context, progress func(any)) (TangramViewResult, error) {
	p, err := tangram.ParsePuzzle(strings.NewReader(j.Puzzle))
	if err != nil {
		return TangramViewResult{}, err
	}
	base, ok := TangramBoardOrients(p)
	if !ok {
		return TangramViewResult{}, fmt.Errorf("tangram view: the pieces are not the seven tans in order")
	}
	var mu sync.Mutex
	var iterates []TangramIterate
	var frames [][]tangram.Pose
	h := TangramHooks{OnIterate: func(it tangram.SDPIterate) {
		ti := TangramIterate{Iteration: it.Iteration, Objective: it.Objective, Solved: it.Solved, MS: float64(it.Elapsed.Microseconds()) / 1000}
		for k, ps := range it.Poses {
			b := base[k]
			ti.Poses = append(ti.Poses, TangramPose{ps.X + b.X, ps.Y + b.Y, b.O})
		}
		mu.Lock()
		iterates = append(iterates, ti)
		frames = append(frames, it.Poses)
		all := slices.Clone(iterates)
		mu.Unlock()
		if progress != nil {
			progress(TangramViewResult{TangramRecord: TangramRecord{Puzzle: j.Name, Algo: j.Solver, Iterations: ti.Iteration, Objective: ti.Objective}, Iterates: all})
		}
	}}
	rec, res := j.RunPuzzle(ctx, p, h)
	if err := ctx.Err(); err != nil {
		return TangramViewResult{}, err // cancelled
	}
	out := TangramViewResult{TangramRecord: rec}
	mu.Lock()
	defer mu.Unlock()
	out.Iterates = iterates
	if res.Solution != nil && res.Solved {
		if b := TangramOnBoard(p, res.Solution); b != nil {
			out.Pieces = TangramPlacements(b)
		}
	}
	if len(frames) > 0 {
		if img, err := tangram.RenderStrip(p, frames, tangram.RenderOptions{Scale: 20, Margin: 6}); err == nil {
			var buf bytes.Buffer
			if err := png.Encode(&buf, img); err == nil && buf.Len() < 1<<20 {
				out.Strip = "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
			}
		}
	}
	return out, nil
}

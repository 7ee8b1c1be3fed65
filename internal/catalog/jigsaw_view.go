package catalog

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"tessera/internal/jobs"
	"tessera/jigsaw"
)

// The view of a jigsaw.solve job that a person follows (JigsawJob.View,
// the web page's Auto): the best layout of each generation as a board,
// scored against the truth, which the worker knows since it scrambles the
// pictures itself. It is computed where the job runs, so that any worker
// serves the page.

// JigsawBoard is a layout as the web page holds it: Rows x Cols cells,
// row-major, each [piece, rotation] (rotation in quarter turns clockwise of
// the piece as cut), piece -1 for an empty cell.
type JigsawBoard struct {
	Rows  int      `json:"rows"`
	Cols  int      `json:"cols"`
	Cells [][2]int `json:"cells"`
}

// Placement is the board as a placement of one image.
func (b JigsawBoard) Placement() *jigsaw.Placement {
	pl := &jigsaw.Placement{Images: 1}
	for i, c := range b.Cells {
		if c[0] >= 0 {
			pl.Pieces = append(pl.Pieces, jigsaw.Placed{Piece: c[0], Row: i / b.Cols, Col: i % b.Cols, Rotation: jigsaw.Rotation(c[1])})
		}
	}
	return pl
}

// JigsawBoardOf lays out a solver's placement of a puzzle of n pieces for
// the page: its output images in a near-square grid of slots, one empty
// cell between slots, and the pieces it did not place (a search stopped
// early, or one picture of a bag under way) in rows below.
func JigsawBoardOf(pl *jigsaw.Placement, n int) JigsawBoard {
	k := max(pl.Images, 1)
	per := 1
	for per*per < k {
		per++
	}
	type box struct{ r0, c0, h, w int }
	boxes := make([]box, k)
	slotH, slotW := 0, 0
	for img := range k {
		bd := pl.Bounds(img)
		boxes[img] = box{bd.Min.Y, bd.Min.X, bd.Dy(), bd.Dx()}
		slotH, slotW = max(slotH, bd.Dy()), max(slotW, bd.Dx())
	}
	gap := 0
	if k > 1 {
		gap = 1
	}
	slotRows := (k + per - 1) / per
	cols := max(per*slotW+(per-1)*gap, 1)
	rows := slotRows*slotH + (slotRows-1)*gap
	placed := make([]bool, n)
	type at struct{ r, c, piece, rot int }
	var cells []at
	for _, q := range pl.Pieces {
		if q.Piece < 0 || q.Piece >= n || placed[q.Piece] || q.Image < 0 || q.Image >= k {
			continue
		}
		placed[q.Piece] = true
		bx := boxes[q.Image]
		r := (q.Image/per)*(slotH+gap) + q.Row - bx.r0
		c := (q.Image%per)*(slotW+gap) + q.Col - bx.c0
		cells = append(cells, at{r, c, q.Piece, int(q.Rotation)})
	}
	var loose []int
	for i, ok := range placed {
		if !ok {
			loose = append(loose, i)
		}
	}
	tray := 0
	if len(loose) > 0 {
		if rows > 0 {
			tray = rows + 1
		}
		rows = tray + (len(loose)+cols-1)/cols
	}
	b := JigsawBoard{Rows: max(rows, 1), Cols: cols}
	b.Cells = make([][2]int, b.Rows*b.Cols)
	for i := range b.Cells {
		b.Cells[i] = [2]int{-1, 0}
	}
	for _, a := range cells {
		b.Cells[a.r*cols+a.c] = [2]int{a.piece, a.rot}
	}
	for i, p := range loose {
		b.Cells[tray*cols+i] = [2]int{p, 0}
	}
	return b
}

// JigsawScore is a board's score against the truth.
type JigsawScore struct {
	Direct   float64 `json:"direct"`
	Neighbor float64 `json:"neighbor"`
	Perfect  bool    `json:"perfect"`
	// Correct of Pieces are directly correct; Kept of Adjacencies true
	// adjacencies are kept.
	Correct     int `json:"correct"`
	Pieces      int `json:"pieces"`
	Kept        int `json:"kept"`
	Adjacencies int `json:"adjacencies"`
	// Wrong lists the board's adjacencies of two pieces that are not
	// neighbours in the truth, or not the right way round: [cell, 1] the
	// cell and the one to its right, [cell, 2] the one below.
	Wrong [][2]int `json:"wrong"`
}

// rotateOffset turns a cell offset by t quarter turns clockwise (rows
// grow downwards): (r, c) -> (c, -r) per turn.
func rotateOffset(r, c int, t jigsaw.Rotation) (int, int) {
	for range t & 3 {
		r, c = c, -r
	}
	return r, c
}

// trueNeighbours reports whether the pieces a and b, shown turned by ra
// and rb, are neighbours in the truth with b at offset (dr, dc) of a.
func trueNeighbours(t *jigsaw.Truth, a, ra, b, rb, dr, dc int) bool {
	oa, ob := t.Pieces[a], t.Pieces[b]
	ta, tb := oa.Rotation.Add(jigsaw.Rotation(ra)), ob.Rotation.Add(jigsaw.Rotation(rb))
	if oa.Image != ob.Image || ta != tb {
		return false
	}
	r, c := rotateOffset(ob.Row-oa.Row, ob.Col-oa.Col, ta)
	return r == dr && c == dc
}

// ScoreJigsawBoard scores b against truth and lists its wrong adjacencies.
func ScoreJigsawBoard(truth *jigsaw.Truth, b JigsawBoard) JigsawScore {
	acc, err := jigsaw.Score(truth, b.Placement(), jigsaw.ScoreOptions{})
	out := JigsawScore{Wrong: [][2]int{}}
	if err == nil {
		out.Direct, out.Neighbor, out.Perfect = acc.Direct, acc.Neighbor, acc.Perfect
		for _, im := range acc.Images {
			out.Correct += im.Correct
			out.Pieces += im.Pieces
			out.Kept += im.CorrectAdjacencies
			out.Adjacencies += im.Adjacencies
		}
	}
	for i, c := range b.Cells {
		if c[0] < 0 {
			continue
		}
		r, col := i/b.Cols, i%b.Cols
		if col+1 < b.Cols {
			if d := b.Cells[i+1]; d[0] >= 0 && !trueNeighbours(truth, c[0], c[1], d[0], d[1], 0, 1) {
				out.Wrong = append(out.Wrong, [2]int{i, 1})
			}
		}
		if r+1 < b.Rows {
			if d := b.Cells[i+b.Cols]; d[0] >= 0 && !trueNeighbours(truth, c[0], c[1], d[0], d[1], 1, 0) {
				out.Wrong = append(out.Wrong, [2]int{i, 2})
			}
		}
	}
	return out
}

// JigsawView is the progress of a jigsaw.solve job with View and, with
// the final figures, the view part of its result.
type JigsawView struct {
	Solver string `json:"solver"`
	// Generation counts the generations so far, all pictures together;
	// Picture is k of Pictures while picture k of a mixed bag is solved.
	Generation int          `json:"generation"`
	Picture    int          `json:"picture,omitempty"`
	Pictures   int          `json:"pictures,omitempty"`
	Fitness    float64      `json:"fitness,omitempty"`
	Board      *JigsawBoard `json:"board,omitempty"`
	Score      JigsawScore  `json:"score"`
	MS         float64      `json:"ms"`
	Message    string       `json:"message"`
	// In the result: the best fitness of every generation of a single
	// picture, and why a search ended early.
	History []float64 `json:"history,omitempty"`
	Stopped string    `json:"stopped,omitempty"`
}

// RunView runs the job with its view (View): on one core, the best
// layout of each generation and its score go to progress (at most ten
// times a second), and the result carries the final view. A solver that
// stopped with no layout, or a job that makes no sense, is the error; a
// cancelled job returns ctx's error.
func (j JigsawJob) RunView(ctx context.Context, blobs jobs.Blobs, progress func(any)) (JigsawResult, error) {
	start := time.Now()
	msSince := func() float64 { return float64(time.Since(start).Microseconds()) / 1000 }
	var (
		mu    sync.Mutex
		gens  int
		last  time.Time
		cur   jigsaw.Generation
		truth *jigsaw.Truth
		n     int
		res   jigsaw.Result
		serr  error
	)
	h := JigsawHooks{Workers: 1, OnResult: func(r jigsaw.Result, err error) { res, serr = r, err }}
	h.Scrambled = func(pz *jigsaw.Puzzle, t *jigsaw.Truth) {
		mu.Lock()
		truth, n = t, len(pz.Pieces)
		mu.Unlock()
	}
	h.Progress = func(g jigsaw.Generation) {
		if g.Stage != "" { // an earlier stage's progress, not a generation
			return
		}
		mu.Lock()
		gens++
		cur = g
		mu.Unlock()
	}
	h.Snapshot = func(g jigsaw.Generation, pl *jigsaw.Placement) {
		mu.Lock()
		defer mu.Unlock()
		if progress == nil || time.Since(last) < 100*time.Millisecond {
			return
		}
		last = time.Now()
		b := JigsawBoardOf(pl, n)
		pr := JigsawView{Solver: j.Solver, Generation: gens, Picture: g.Picture, Pictures: g.Pictures, Fitness: g.Best,
			Board: &b, Score: ScoreJigsawBoard(truth, b), MS: msSince()}
		pr.Message = fmt.Sprintf("generation %d, best fitness %.4g", g.Index, g.Best)
		if g.Pictures > 1 {
			pr.Message = fmt.Sprintf("picture %d of %d, %s", g.Picture, g.Pictures, pr.Message)
		}
		progress(pr)
	}
	rec, err := j.Run(ctx, blobs, h)
	if ctx.Err() != nil {
		return JigsawResult{}, ctx.Err() // cancelled
	}
	if err != nil {
		return JigsawResult{}, err
	}
	mu.Lock()
	out := JigsawView{Solver: j.Solver, Generation: gens, Picture: cur.Picture, Pictures: cur.Pictures, Fitness: res.Fitness,
		MS: msSince(), History: res.History}
	mu.Unlock()
	if res.Placement != nil {
		b := JigsawBoardOf(res.Placement, n)
		out.Board, out.Score = &b, ScoreJigsawBoard(truth, b)
	}
	sc := fmt.Sprintf("direct %.1f%%, neighbour %.1f%%", 100*out.Score.Direct, 100*out.Score.Neighbor)
	// The generations, for a solver that has them (the greedy solver has
	// none: "after 0 generations" read as a failure).
	after, of := "", ""
	if gens > 0 {
		after = fmt.Sprintf(" after %s", plural(gens, "generation"))
		of = fmt.Sprintf(" (%s)", plural(gens, "generation"))
	}
	rec.JigsawView = &out
	switch {
	case serr == nil && out.Score.Perfect:
		out.Message = "Perfect reconstruction" + of
	case serr == nil:
		out.Message = fmt.Sprintf("Done%s: %s", after, sc)
	case errors.Is(serr, context.DeadlineExceeded) && res.Placement != nil:
		out.Stopped = serr.Error()
		out.Message = fmt.Sprintf("Time is up%s: the best layout has %s", after, sc)
	case res.Placement != nil:
		out.Stopped = serr.Error()
		out.Message = fmt.Sprintf("Stopped (%v): best layout %s", serr, sc)
	default:
		return rec, serr
	}
	return rec, nil
}

// plural writes a count with its noun: "1 generation", "2 generations".
func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + one + "s"
}

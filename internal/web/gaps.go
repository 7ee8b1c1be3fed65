package web

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"time"

	"golang.org/x/image/draw"

	"tessera/internal/catalog"
	"tessera/internal/store"
	"tessera/jigsaw/neural"
)

// Jigsaws with gaps (Alphazzle): a photo's central square is cut into
// grid x grid patches of 40 px with 4 px gaps between them (the geometry
// of the shipped model, jigsaw/neural's embedded networks, as the command
// line uses them), the patches shuffled; the person places them on the
// empty board and the full board is scored against the truth; Auto runs
// the catalogue's gap solvers as a job, MCTS move by move: after each
// placement its progress carries the policy's probabilities over the empty
// cells, the value network's estimate and the visits of the root's
// children.
//
// A puzzle travels as a gapsRef: the region it is cut from, as a PNG the
// server made (/api/gaps/new), its grid and the seed of the shuffle. Any
// server or worker rebuilds the same puzzle from it, with no picture store.

const (
	gapsMinGrid, gapsMaxGrid = 3, 5
	gapsPatch, gapsGap       = 40, 4
	// gapsMaxRegion bounds a region in a request, base64 characters (a
	// job spec holds at most maxSpecBytes). A 5x5 region, 220x220 RGB,
	// takes at most about 195,000: every picture fits.
	gapsMaxRegion    = maxSpecBytes - 16<<10
	gapsMaxSims      = 1000
	gapsMaxAttempts  = 10
	gapsMaxPaceMS    = 2000
	gapsDefaultLimit = 2 * time.Minute
)

var gapsGame = &game{
	Game: catalog.GameOf("gaps"),
	data: func() any {
		return gapsPage{Solvers: catalog.Gaps.Menu(), Pictures: builtinPictures, Grids: []int{3, 4, 5},
			MaxSims: gapsMaxSims, MaxAttempts: gapsMaxAttempts}
	},
	routes: (*Server).gapsRoutes,
	save:   saveOf(gapsSave),
	jobs:   gapsJobs,
	auto:   "solve as a job (key a)",
}

type gapsPage struct {
	Solvers              []catalog.Menu
	Pictures             []pictureInfo // the built-in ones; the page asks for uploads
	Grids                []int
	MaxSims, MaxAttempts int
}

func (s *Server) gapsRoutes(m *http.ServeMux) {
	m.HandleFunc("POST /api/gaps/new", s.serveAPI(s.gapsNew))
	m.HandleFunc("POST /api/gaps/score", s.serveAPI(s.gapsScore))
}

// gapsRef names a gap puzzle: the region it is cut from, a base64 PNG of
// grid*(40+4) pixels a side, and the seed that shuffles its patches.
type gapsRef struct {
	Region string `json:"region"`
	Grid   int    `json:"grid"`
	Seed   uint64 `json:"seed"`
}

func gapsGeometry(grid int) neural.Geometry {
	return neural.Geometry{Grid: grid, Patch: gapsPatch, Gap: gapsGap}
}

// gapsPuzzle rebuilds the puzzle of ref, every part bounded before it is
// read: the grid, the region's length, then its PNG header (the size the
// grid needs), then its pixels.
func gapsPuzzle(ref gapsRef) (*neural.Puzzle, error) {
	if ref.Grid < gapsMinGrid || ref.Grid > gapsMaxGrid {
		return nil, errorf(http.StatusBadRequest, "grid %d: the page makes %dx%d to %dx%d puzzles", ref.Grid, gapsMinGrid, gapsMinGrid, gapsMaxGrid, gapsMaxGrid)
	}
	if ref.Region == "" {
		return nil, errorf(http.StatusBadRequest, "no region: make the puzzle with POST /api/gaps/new")
	}
	if len(ref.Region) > gapsMaxRegion {
		return nil, errorf(http.StatusRequestEntityTooLarge, "region of %d characters, more than %d", len(ref.Region), gapsMaxRegion)
	}
	data, err := base64.StdEncoding.DecodeString(ref.Region)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "region: not base64: %v", err)
	}
	g := gapsGeometry(ref.Grid)
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "region: not a PNG: %v", err)
	}
	if cfg.Width != g.Side() || cfg.Height != g.Side() {
		return nil, errorf(http.StatusBadRequest, "region of %dx%d pixels; a %dx%d puzzle needs %d", cfg.Width, cfg.Height, ref.Grid, ref.Grid, g.Side())
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "region: %v", err)
	}
	pz := neural.Cut(img, img.Bounds().Min.X, img.Bounds().Min.Y, g)
	pz.Shuffle(rand.New(rand.NewPCG(ref.Seed, 0x63656e74))) // as neural.Centre shuffles
	return pz, nil
}

// gapsRegion makes the region of a grid x grid puzzle from a picture:
// its central square scaled to the side the grid needs (Catmull-Rom, as
// neural.Centre does, which is how the command line cuts a photo) and
// written as a PNG, lossless, so that the solver sees what was cut.
func gapsRegion(pic image.Image, grid int) (string, error) {
	side := gapsGeometry(grid).Side()
	b := pic.Bounds()
	l := min(b.Dx(), b.Dy())
	x0, y0 := b.Min.X+(b.Dx()-l)/2, b.Min.Y+(b.Dy()-l)/2
	dst := image.NewNRGBA(image.Rect(0, 0, side, side))
	draw.CatmullRom.Scale(dst, dst.Bounds(), pic, image.Rect(x0, y0, x0+l, y0+l), draw.Src, nil)
	for i := 3; i < len(dst.Pix); i += 4 {
		dst.Pix[i] = 0xff // opaque: no alpha channel in the file
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, dst); err != nil {
		return "", err
	}
	s := base64.StdEncoding.EncodeToString(buf.Bytes())
	if len(s) > gapsMaxRegion {
		return "", errorf(http.StatusUnprocessableEntity, "the picture's region takes %d bytes, more than %d", len(s), gapsMaxRegion)
	}
	return s, nil
}

// gapsPicture reads a built-in or uploaded picture and its name.
func (s *Server) gapsPicture(ctx context.Context, id string) (image.Image, string, error) {
	if isBuiltinPicture(id) {
		b, err := staticFS.ReadFile("static/pictures/" + id + ".png")
		if err != nil {
			return nil, "", err
		}
		img, err := png.Decode(bytes.NewReader(b))
		for _, p := range builtinPictures {
			if p.ID == id {
				return img, p.Name, err
			}
		}
	}
	if !isUploadID(id) || s.store == nil {
		return nil, "", errorf(http.StatusNotFound, "no picture %q (GET /api/pictures lists them)", id)
	}
	p, err := s.picture(ctx, id)
	if err != nil {
		return nil, "", storeError(err)
	}
	// Stored uploads are squares of at most Config.PictureSide pixels.
	img, _, err := image.Decode(bytes.NewReader(p.Data))
	if err != nil {
		return nil, "", fmt.Errorf("stored picture %s: %w", id, err)
	}
	return img, p.Name, nil
}

// gapsPuzzleJSON is a new puzzle as the page draws it.
type gapsPuzzleJSON struct {
	Puzzle gapsRef `json:"puzzle"` // what the page sends back
	Name   string  `json:"name"`
	Grid   int     `json:"grid"`
	Patch  int     `json:"patch"`
	Gap    int     `json:"gap"`
	// Patches is a PNG data URL of the patches side by side, in the
	// puzzle's order: patch i at x = i*Patch.
	Patches string `json:"patches"`
}

// gapsNew makes a puzzle of a picture (picture, grid, seed), or opens one
// made before (puzzle: a saved game's, a job's) to draw it again.
func (s *Server) gapsNew(r *http.Request) (int, any, error) {
	var req struct {
		Picture string   `json:"picture"`
		Grid    int      `json:"grid"`
		Seed    uint64   `json:"seed"`
		Puzzle  *gapsRef `json:"puzzle"`
	}
	if err := decodeJSON(r, gapsMaxRegion+4<<10, &req); err != nil {
		return 0, nil, err
	}
	var ref gapsRef
	name := "saved puzzle"
	if req.Puzzle != nil {
		if req.Picture != "" || req.Grid != 0 || req.Seed != 0 {
			return 0, nil, errorf(http.StatusBadRequest, "either a picture, grid and seed, or a puzzle")
		}
		ref = *req.Puzzle
	} else {
		if req.Grid < gapsMinGrid || req.Grid > gapsMaxGrid {
			return 0, nil, errorf(http.StatusBadRequest, "grid %d: the page makes %dx%d to %dx%d puzzles", req.Grid, gapsMinGrid, gapsMinGrid, gapsMaxGrid, gapsMaxGrid)
		}
		if len(req.Picture) > 64 {
			return 0, nil, errorf(http.StatusBadRequest, "picture id too long")
		}
		pic, pname, err := s.gapsPicture(r.Context(), req.Picture)
		if err != nil {
			return 0, nil, err
		}
		ref = gapsRef{Grid: req.Grid, Seed: req.Seed}
		if ref.Region, err = gapsRegion(pic, req.Grid); err != nil {
			return 0, nil, err
		}
		name = fmt.Sprintf("%s, %dx%d, seed %d", pname, req.Grid, req.Grid, req.Seed)
	}
	pz, err := gapsPuzzle(ref)
	if err != nil {
		return 0, nil, err
	}
	sheet, err := gapsSheet(pz)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, gapsPuzzleJSON{Puzzle: ref, Name: name, Grid: ref.Grid, Patch: pz.Patch, Gap: pz.Gap, Patches: sheet}, nil
}

// gapsSheet draws the patches of pz side by side as a PNG data URL.
func gapsSheet(pz *neural.Puzzle) (string, error) {
	m := image.NewNRGBA(image.Rect(0, 0, len(pz.Patches)*pz.Patch, pz.Patch))
	for i, p := range pz.Patches {
		for y := range pz.Patch {
			for x := range pz.Patch {
				r, g, b := p.RGB(x, y)
				m.SetNRGBA(i*pz.Patch+x, y, color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 0xff})
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, m); err != nil {
		return "", err
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// gapsCells checks a reassembly sent for pz: the cell of each patch, -1
// for a patch not placed, no cell twice.
func gapsCells(pz *neural.Puzzle, cells []int) error {
	n := pz.Cells()
	if len(cells) != n {
		return errorf(http.StatusBadRequest, "cells: %d entries, the puzzle has %d patches", len(cells), n)
	}
	used := make([]bool, n)
	for i, c := range cells {
		if c < -1 || c >= n || c >= 0 && used[c] {
			return errorf(http.StatusBadRequest, "cells: patch %d in cell %d, not an empty cell of 0..%d (or -1)", i, c, n-1)
		}
		if c >= 0 {
			used[c] = true
		}
	}
	return nil
}

// gapsScoreJSON is a reassembly against the truth: patches in their true
// cell, true adjacencies kept (of Pairs), and whether it is perfect.
type gapsScoreJSON struct {
	Patches    int  `json:"patches"`
	Cells      int  `json:"cells"`
	Neighbours int  `json:"neighbours"`
	Pairs      int  `json:"pairs"`
	Perfect    bool `json:"perfect"`
}

func gapsScoreOf(pz *neural.Puzzle, cells []int) gapsScoreJSON {
	acc := pz.Score(cells)
	n, pairs := pz.Cells(), 2*pz.Grid*(pz.Grid-1)
	return gapsScoreJSON{Patches: int(math.Round(acc.Patch * float64(n))), Cells: n,
		Neighbours: int(math.Round(acc.Neighbor * float64(pairs))), Pairs: pairs, Perfect: acc.Perfect}
}

// gapsScore scores a full board; a partial one is refused (the score
// would tell the truth patch by patch).
func (s *Server) gapsScore(r *http.Request) (int, any, error) {
	var req struct {
		Puzzle gapsRef `json:"puzzle"`
		Cells  []int   `json:"cells"`
	}
	if err := decodeJSON(r, gapsMaxRegion+64<<10, &req); err != nil {
		return 0, nil, err
	}
	pz, err := gapsPuzzle(req.Puzzle)
	if err != nil {
		return 0, nil, err
	}
	if err := gapsCells(pz, req.Cells); err != nil {
		return 0, nil, err
	}
	for _, c := range req.Cells {
		if c < 0 {
			return 0, nil, errorf(http.StatusBadRequest, "the board is not full: place every patch first")
		}
	}
	return http.StatusOK, gapsScoreOf(pz, req.Cells), nil
}

// gapsSolveSpec is the spec of a gaps.solve job of the page: the
// catalogue's job (catalog.GapsJob: the solver ("": mcts), its options
// (reward, sims (0: 100), attempts (0: 1), the seed that shuffles the
// puzzle and seeds the search), the budget, the grid and the puzzle's
// region as its picture, a data URL of the PNG, cut whole) and the page's
// pace.
type gapsSolveSpec struct {
	catalog.GapsJob
	// PaceMS pauses MCTS after each placement, so that a person can
	// follow a search that would end in a blink; each pause adds its
	// length to the time limit, and holds no solver slot.
	PaceMS int `json:"pace_ms"`
}

// gapsRegionURL prefixes the region of a page's job, a data URL.
const gapsRegionURL = "data:image/png;base64,"

// gapsStepJSON is one MCTS placement (neural.Step): the patch, the
// reassembly before it, and per empty cell the prior, the visits and the
// mean value of its child; Value is V's estimate of the reassembly before
// the move (-1: none), Cell the cell chosen.
type gapsStepJSON struct {
	Attempt int       `json:"attempt"`
	Placed  int       `json:"placed"`
	Patch   int       `json:"patch"`
	Before  []int     `json:"before"`
	Moves   []int     `json:"moves"`
	Priors  []float64 `json:"priors"`
	Visits  []int     `json:"visits"`
	Values  []float64 `json:"values"`
	Value   float64   `json:"value"`
	Cell    int       `json:"cell"`
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

func gapsStepOf(st neural.Step) gapsStepJSON {
	out := gapsStepJSON{Attempt: st.Attempt, Placed: st.Placed, Patch: st.Patch, Before: st.Cells, Moves: st.Moves, Visits: st.Visits,
		Value: round4(st.Value), Cell: st.Moves[st.Chosen], Priors: make([]float64, len(st.Priors)), Values: make([]float64, len(st.Values))}
	for i := range st.Priors {
		out.Priors[i], out.Values[i] = round4(st.Priors[i]), round4(st.Values[i])
	}
	return out
}

// gapsAttemptJSON is one attempt's answer.
type gapsAttemptJSON struct {
	Cells []int         `json:"cells"`
	Value float64       `json:"value"`
	Score gapsScoreJSON `json:"score"`
}

// gapsProgress is a gaps.solve job's progress and, with the answer, its
// result.
type gapsProgress struct {
	Solver   string `json:"solver"`
	Grid     int    `json:"grid"`
	Attempts int    `json:"attempts"` // asked for
	// Step is the last placement (MCTS) and Cells the attempt's
	// reassembly after it.
	Step  *gapsStepJSON `json:"step,omitempty"`
	Cells []int         `json:"cells,omitempty"`
	// The result: the answer (Cells), its score and V's value, the
	// attempt chosen, every attempt, and the placements of the chosen
	// attempt (MCTS). Played is false when the answer is a complete
	// reassembly the search met, better than the line it played.
	Final       bool              `json:"final"`
	Score       *gapsScoreJSON    `json:"score,omitempty"`
	Value       float64           `json:"value"`
	Attempt     int               `json:"attempt"`
	Tried       []gapsAttemptJSON `json:"tried,omitempty"`
	Steps       []gapsStepJSON    `json:"steps,omitempty"`
	Played      bool              `json:"played"`
	Evaluations int64             `json:"evaluations"`
	MS          float64           `json:"ms"`
	Message     string            `json:"message"`
	Stopped     string            `json:"stopped,omitempty"`
}

// checkGapsSpec validates a spec and returns it (the job as the page
// runs it: its defaults written out, its puzzle the region cut whole, its
// budget the search's time limit with the pauses), and the puzzle.
func (s *Server) checkGapsSpec(spec json.RawMessage) (gapsSolveSpec, *neural.Puzzle, time.Duration, error) {
	var req gapsSolveSpec
	if err := specUnmarshal(spec, &req); err != nil {
		return req, nil, 0, err
	}
	j := &req.GapsJob
	if j.Solver == "" {
		j.Solver = "mcts"
	}
	if _, err := catalog.Gaps.Lookup(j.Solver); err != nil {
		return req, nil, 0, errorf(http.StatusBadRequest, "%v", err)
	}
	o := &j.Options
	if o.Model != "" {
		return req, nil, 0, errorf(http.StatusBadRequest, "model: the page's searches use the shipped models")
	}
	if o.Sims == 0 {
		o.Sims = 100
	}
	if o.Attempts == 0 {
		o.Attempts = 1
	}
	switch {
	case o.Sims < 1 || o.Sims > gapsMaxSims:
		return req, nil, 0, errorf(http.StatusBadRequest, "sims %d out of range 1..%d", o.Sims, gapsMaxSims)
	case o.Attempts < 1 || o.Attempts > gapsMaxAttempts:
		return req, nil, 0, errorf(http.StatusBadRequest, "attempts %d out of range 1..%d", o.Attempts, gapsMaxAttempts)
	case req.PaceMS < 0 || req.PaceMS > gapsMaxPaceMS:
		return req, nil, 0, errorf(http.StatusBadRequest, "pace_ms %d out of range 0..%d", req.PaceMS, gapsMaxPaceMS)
	case j.Patch != 0 && j.Patch != gapsPatch || j.Gap != 0 && j.Gap != gapsGap:
		return req, nil, 0, errorf(http.StatusBadRequest, "patch %d, gap %d: the page's puzzles have %d and %d", j.Patch, j.Gap, gapsPatch, gapsGap)
	case len(j.Report) > 0 || j.Save || j.Index != 0 || j.Crops > 1:
		return req, nil, 0, errorf(http.StatusBadRequest, "report, save, index and crops are a bench's")
	}
	if _, err := o.Neural(j.Grid); err != nil {
		return req, nil, 0, errorf(http.StatusBadRequest, "%v", err)
	}
	timeout := min(gapsDefaultLimit, s.cfg.MaxJobTimeout)
	if j.Budget.Timeout != 0 {
		timeout = j.Budget.Timeout
		if timeout < 100*time.Millisecond || timeout > s.cfg.MaxJobTimeout {
			return req, nil, 0, errorf(http.StatusBadRequest, "budget timeout_ns %d out of range 100 ms..%v", timeout, s.cfg.MaxJobTimeout)
		}
	}
	region, ok := strings.CutPrefix(j.Picture.Blob, gapsRegionURL)
	if !ok && j.Picture.Blob != "" {
		return req, nil, 0, errorf(http.StatusBadRequest, "picture: give the puzzle's region as a data URL (%s...)", gapsRegionURL)
	}
	pz, err := gapsPuzzle(gapsRef{Region: region, Grid: j.Grid, Seed: o.Seed})
	if err != nil {
		return req, nil, 0, err
	}
	j.Picture.Name, j.Patch, j.Gap, j.Centre, j.Crops = "region.png", gapsPatch, gapsGap, true, 1
	timeout += time.Duration(req.PaceMS) * time.Millisecond * time.Duration(pz.Cells()*o.Attempts)
	j.Budget = catalog.Budget{Timeout: timeout}
	return req, pz, timeout, nil
}

// gapsBlobs reads a page's job's region (its data URL).
type gapsBlobs struct{}

func (gapsBlobs) GetBlob(_ context.Context, addr string) ([]byte, error) {
	region, ok := strings.CutPrefix(addr, gapsRegionURL)
	if !ok {
		return nil, errors.New("gaps: not a region")
	}
	return base64.StdEncoding.DecodeString(region)
}

func (gapsBlobs) PutBlob(context.Context, []byte) (string, error) {
	return "", errors.New("gaps: the page's jobs keep no outputs")
}

func gapsJobs(s *Server) map[string]jobKind {
	return map[string]jobKind{catalog.GapsKind: {
		check: func(spec json.RawMessage) (time.Duration, error) {
			if isCatalogGapsJob(spec) {
				return 0, errorf(http.StatusBadRequest, "a bench's gaps job (pictures by blob) is not the page's")
			}
			_, _, timeout, err := s.checkGapsSpec(spec)
			return timeout + 2*time.Minute, err // the search stops itself at timeout; the rest is for the wait for a slot
		},
		run: func(ctx context.Context, spec json.RawMessage, progress func(any)) (any, error) {
			if isCatalogGapsJob(spec) {
				// A bench's job (catalog.GapsJob, its picture in the job
				// system's blob store), sent to a worker that also runs
				// the page's.
				return catalog.JobKinds()[catalog.GapsKind](ctx, spec, progress)
			}
			req, pz, _, err := s.checkGapsSpec(spec)
			if err != nil {
				return nil, err
			}
			return s.solveGaps(ctx, req, pz, progress)
		},
	}}
}

// isCatalogGapsJob reports whether spec is the catalogue's gaps.solve job
// (catalog.GapsJob: a picture by blob address) rather than the page's.
func isCatalogGapsJob(spec json.RawMessage) bool {
	var probe struct {
		Picture *catalog.Picture `json:"picture"`
	}
	return json.Unmarshal(spec, &probe) == nil && probe.Picture != nil && strings.HasPrefix(probe.Picture.Blob, "sha256:")
}

// solveGaps runs the page's job req on pz (its puzzle) in this process
// with the shipped model, taking a busy slot (given back during MCTS's
// pauses); MCTS reports every placement.
func (s *Server) solveGaps(ctx context.Context, req gapsSolveSpec, pz *neural.Puzzle, progress func(any)) (gapsResult, error) {
	start := time.Now()
	attempts := req.Options.Attempts
	base := gapsProgress{Solver: req.Solver, Grid: pz.Grid, Attempts: attempts}
	if err := s.acquire(ctx); err != nil {
		return gapsResult{}, err
	}
	held := true
	defer func() {
		if held {
			s.release()
		}
	}()
	sctx, cancel := context.WithTimeout(ctx, req.Budget.Timeout)
	defer cancel()
	// steps[k] are the placements of attempt k.
	steps := make([][]gapsStepJSON, attempts)
	var (
		res  neural.Result
		serr error
		done bool
	)
	h := catalog.GapHooks{OnResult: func(_ *neural.Puzzle, r neural.Result, err error) { res, serr, done = r, err, true }}
	h.OnStep = func(st neural.Step) {
		js := gapsStepOf(st)
		if st.Attempt < len(steps) {
			steps[st.Attempt] = append(steps[st.Attempt], js)
		}
		after := append([]int(nil), st.Cells...)
		after[st.Patch] = js.Cell
		p := base
		p.Step, p.Cells, p.MS = &js, after, msSince(start)
		p.Message = fmt.Sprintf("Attempt %d of %d: patch %d to cell %d (%d of %d placed)", st.Attempt+1, attempts, st.Patch, js.Cell, st.Placed+1, pz.Cells())
		if st.Value >= 0 {
			p.Message += fmt.Sprintf("; V's estimate before it %.3f", st.Value)
		}
		if progress != nil {
			progress(p)
		}
		if req.PaceMS > 0 {
			// The pause holds no slot: another solve may run meanwhile.
			s.release()
			held = false
			select {
			case <-sctx.Done():
			case <-time.After(time.Duration(req.PaceMS) * time.Millisecond):
			}
			held = s.acquire(sctx) == nil // else the search stops at its next look at sctx
		}
	}
	if progress != nil {
		p := base
		p.Message = fmt.Sprintf("%s is searching…", req.Solver)
		progress(p)
	}
	rec, err := req.GapsJob.Run(sctx, gapsBlobs{}, h)
	if ctx.Err() != nil {
		return gapsResult{}, ctx.Err() // cancelled
	}
	if !done {
		return gapsResult{}, errorf(http.StatusUnprocessableEntity, "%v", err)
	}
	out := base
	out.Final, out.Evaluations, out.MS, out.Attempt, out.Value = true, res.Evaluations, msSince(start), res.Attempt, round4(res.Value)
	for _, a := range res.Attempts {
		out.Tried = append(out.Tried, gapsAttemptJSON{Cells: a.Cells, Value: round4(a.Value), Score: gapsScoreOf(pz, a.Cells)})
	}
	if res.Cells != nil {
		sc := gapsScoreOf(pz, res.Cells)
		out.Cells, out.Score = res.Cells, &sc
		if res.Attempt < len(steps) && len(steps[res.Attempt]) > 0 {
			out.Steps = steps[res.Attempt]
			last := out.Steps[len(out.Steps)-1]
			played := append([]int(nil), last.Before...)
			played[last.Patch] = last.Cell
			out.Played = slices.Equal(played, res.Cells)
		}
	}
	switch {
	case res.Cells == nil:
		out.Stopped = fmt.Sprint(serr)
		out.Message = fmt.Sprintf("Stopped before a complete reassembly: %v", serr)
	case serr != nil:
		out.Stopped = serr.Error()
		out.Message = fmt.Sprintf("Stopped (%v): best answer %d of %d patches in place", serr, out.Score.Patches, out.Score.Cells)
	case out.Score.Perfect:
		out.Message = fmt.Sprintf("Solved: every patch in place (attempt %d of %d, V %.3f)", res.Attempt+1, len(res.Attempts), res.Value)
	default:
		out.Message = fmt.Sprintf("Answer: %d of %d patches and %d of %d neighbours in place (attempt %d of %d, V %.3f)",
			out.Score.Patches, out.Score.Cells, out.Score.Neighbours, out.Score.Pairs, res.Attempt+1, len(res.Attempts), res.Value)
	}
	return gapsResult{GapsResult: rec, gapsProgress: out}, nil
}

// gapsResult is a gaps.solve job's result: the catalogue's (its record,
// when the solver answered) and the page's view of it.
type gapsResult struct {
	catalog.GapsResult
	gapsProgress
}

// gapsState is a saved gap puzzle: the puzzle, the patches placed by hand
// (cells: the cell of each patch, -1 in the tray) and the time played.
type gapsState struct {
	Puzzle    gapsRef `json:"puzzle"`
	Name      string  `json:"name"`
	Cells     []int   `json:"cells"`
	ElapsedMS int64   `json:"elapsed_ms"`
}

// gapsSave checks a saved game: the puzzle rebuilds, the reassembly fits
// it; a full board is scored.
func gapsSave(st gapsState) (store.Game, error) {
	if len(st.Name) > 200 || st.ElapsedMS < 0 {
		return store.Game{}, errorf(http.StatusBadRequest, "name too long or negative time")
	}
	pz, err := gapsPuzzle(st.Puzzle)
	if err != nil {
		return store.Game{}, err
	}
	if err := gapsCells(pz, st.Cells); err != nil {
		return store.Game{}, err
	}
	placed := 0
	for _, c := range st.Cells {
		if c >= 0 {
			placed++
		}
	}
	solved := placed == pz.Cells() && pz.Score(st.Cells).Perfect
	return stored(store.Game{Board: st.Name, Moves: placed, Solved: solved}, st, st.ElapsedMS)
}

package web

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"net/http"
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
	data: func() any {
		return gapsPage{Solvers: catalog.Gaps.Menu(), Pictures: builtinPictures, Grids: []int{3, 4, 5},
			MaxSims: gapsMaxSims, MaxAttempts: gapsMaxAttempts}
	},
	api:  gapsAPI,
	save: saveOf(gapsSave),
	jobs: gapsJobs,
	auto: "solve as a job (key a)",
}

type gapsPage struct {
	Solvers              []catalog.Menu
	Pictures             []pictureInfo // the built-in ones; the page asks for uploads
	Grids                []int
	MaxSims, MaxAttempts int
}

// gapsAPI is the page's own API calls, under /api/gaps/.
var gapsAPI = apiCalls{
	"POST new":   (*Server).gapsNew,
	"POST score": (*Server).gapsScore,
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

// gapsScoreJSON is a reassembly against the truth, counted.
type gapsScoreJSON = catalog.GapsTally

func gapsScoreOf(pz *neural.Puzzle, cells []int) gapsScoreJSON { return catalog.GapsTallyOf(pz, cells) }

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
// puzzle and seeds the search), the budget, the grid, the puzzle's region
// as its picture, a data URL of the PNG, cut whole, and the page's pace:
// PaceMS pauses MCTS after each placement, each pause adding its length
// to the time limit and holding no solver slot of this server).
type gapsSolveSpec = catalog.GapsJob

// gapsRegionURL prefixes the region of a page's job, a data URL.
const gapsRegionURL = "data:image/png;base64,"

// gapsProgress is a gaps.solve job's progress (the catalogue's view: the
// job is the catalogue's with View).
type gapsProgress = catalog.GapsView

// checkGapsSpec validates a spec and returns it (the job as the page
// runs it: its defaults written out, its puzzle the region cut whole, its
// budget the search's time limit with the pauses), and the puzzle.
func (s *Server) checkGapsSpec(spec json.RawMessage) (gapsSolveSpec, *neural.Puzzle, time.Duration, error) {
	var req gapsSolveSpec
	if err := specUnmarshal(spec, &req); err != nil {
		return req, nil, 0, err
	}
	j := &req
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

func gapsJobs(s *Server) map[string]jobKind {
	// The search stops itself at timeout; the rest is for the wait for a slot.
	return map[string]jobKind{catalog.GapsKind: pageJobKind(s, catalog.GapsKind, isCatalogGapsJob,
		"a bench's gaps job (pictures by blob) is not the page's", 2*time.Minute, s.checkGapsSpec, s.putGapsRegion)}
}

// putGapsRegion turns a page's job into the catalogue's that any worker
// runs: its region put in the job system's blob store, named by address,
// and the page's view asked for.
func (s *Server) putGapsRegion(ctx context.Context, j *gapsSolveSpec, _ *neural.Puzzle) error {
	data, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(j.Picture.Blob, gapsRegionURL))
	if err != nil {
		return errorf(http.StatusBadRequest, "region: not base64: %v", err)
	}
	j.Picture.Blob, err = s.jobs.PutBlob(ctx, data)
	j.View = true
	return err
}

// isCatalogGapsJob reports whether spec is the catalogue's gaps.solve job
// (catalog.GapsJob: a picture by blob address) rather than the page's.
func isCatalogGapsJob(spec json.RawMessage) bool {
	var probe struct {
		Picture *catalog.Picture `json:"picture"`
	}
	return json.Unmarshal(spec, &probe) == nil && probe.Picture != nil && strings.HasPrefix(probe.Picture.Blob, "sha256:")
}

// gapsResult is a gaps.solve job's result: the catalogue's (its record,
// when the solver answered) with its view.
type gapsResult = catalog.GapsResult

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

package web

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"tessera/internal/catalog"
	"tessera/internal/store"
	"tessera/tangram"
)

// Tangram: a figure from the page's set (thumbnails by category) or one of
// the person's own (a silhouette line, pasted, uploaded or drawn on the
// grid); the seven tans are dragged, turned by 45 degrees and flipped in
// the browser, which snaps a dropped tan to the nearest vertex exactly
// (coordinates in ½Z[√2], as pairs of integers); the server decides with
// tangram.Check whether the figure is filled. Auto runs the catalogue's
// exact solver (its solution then laid piece by piece) or Algorithm 2
// (its iterates streaming onto the board, and their strip as `tessera
// tangram solve -snapshots` draws it) as tangram.solve jobs.

const (
	tgExactTimeout = 10 * time.Second
	tgSDPTimeout   = 60 * time.Second
	// tgMaxText bounds a figure's text (a pasted or uploaded file).
	tgMaxText = 64 << 10
	// tgMaxPicture bounds an uploaded picture (PNG, JPEG, GIF or SVG),
	// tgMaxPixels its size once decoded.
	tgMaxPicture = 4 << 20
	tgMaxPixels  = 4_000_000
)

var tangramGame = &game{
	data: func() any { return menuPage{Solvers: catalog.Tangram.Menu()} },
	api:  tangramAPI,
	save: saveOf(tangramSave),
	jobs: tangramJobs,
}

// tangramAPI is the page's own API calls, under /api/tangram/.
var tangramAPI = apiCalls{
	"GET figures": (*Server).tgFigures,
	"POST figure": (*Server).tgFigure,
	"POST check":  (*Server).tgCheck,
}

// ---- exact numbers as JSON ---------------------------------------------------

// tgPoint is a point as the page holds it (catalog.TangramPoint: exact
// parts).
type tgPoint = catalog.TangramPoint

func tgPointOf(p tangram.Point) tgPoint { return catalog.TangramPointOf(p) }

// tgPointValue returns q's exact point, a 400 beyond tangram.MaxCoord.
func tgPointValue(q tgPoint) (tangram.Point, error) {
	p, err := q.Point()
	if err != nil {
		return p, errorf(http.StatusBadRequest, "%v", err)
	}
	return p, nil
}

func tgPolygonOf(pg tangram.Polygon) []tgPoint {
	out := make([]tgPoint, len(pg))
	for k, p := range pg {
		out[k] = tgPointOf(p)
	}
	return out
}

func tgPolygon(pts []tgPoint) (tangram.Polygon, error) {
	if len(pts) > tangram.MaxVertices {
		return nil, errorf(http.StatusBadRequest, "silhouette: %d vertices, at most %d", len(pts), tangram.MaxVertices)
	}
	pg := make(tangram.Polygon, len(pts))
	for k, q := range pts {
		p, err := tgPointValue(q)
		if err != nil {
			return nil, err
		}
		pg[k] = p
	}
	return pg, nil
}

// ---- figures -------------------------------------------------------------------

// tgFigure is a figure of the page's set: a silhouette of the seven tans
// with its category and source, and a known solution on the page's board
// (the tans of tangram.Tans turned and moved), or nil.
type tgFigure struct {
	Name, Category, Source string
	Silhouette             tangram.Polygon
	solution               *tangram.Solution
}

// tgFigureJSON is a figure as the page sees it.
type tgFigureJSON struct {
	Name       string    `json:"name"`
	Category   string    `json:"category"`
	Source     string    `json:"source,omitempty"`
	Silhouette []tgPoint `json:"silhouette"`
}

func (f tgFigure) json() tgFigureJSON {
	return tgFigureJSON{f.Name, f.Category, f.Source, tgPolygonOf(f.Silhouette)}
}

var tgFigureOnce = sync.OnceValue(figureList)

// figureList is the page's set of figures: the seven classics of package
// tangram with their solutions, then the figure set of tangram.Figures
// (those of one polygon: the page draws a single silhouette; figures with
// parts touching at a corner or holes are left out), then figures
// generated with turned tans.
func figureList() []tgFigure {
	var out []tgFigure
	cat := map[string]string{"house": "objects", "boat": "objects"}
	for _, name := range tangram.ClassicNames() {
		if name == "t" {
			continue
		}
		p, sol, err := tangram.Classic(name)
		if err != nil {
			continue
		}
		category := cmp.Or(cat[name], "geometric")
		out = append(out, tgFigure{Name: name, Category: category, Source: "tangram.Classic", Silhouette: p.Silhouette, solution: tgOnBoard(p, sol)})
	}
	for _, f := range tangram.Figures() {
		if len(f.Puzzle.Parts) > 0 || len(f.Puzzle.Holes) > 0 || slices.ContainsFunc(out, func(g tgFigure) bool { return g.Name == f.Name }) {
			continue
		}
		out = append(out, tgFigure{Name: f.Name, Category: f.Category, Source: f.Source, Silhouette: f.Puzzle.Silhouette})
	}
	for seed := int64(1); seed <= 8; seed++ {
		p, sol, err := tangram.GenerateWith(seed, tangram.Tans(), tangram.GenerateOptions{Turns: tangram.TurnsFlip})
		if err != nil {
			continue
		}
		out = append(out, tgFigure{Name: fmt.Sprintf("generated %d", seed), Category: "generated",
			Source: fmt.Sprintf("tangram.GenerateWith(seed %d, turns and flips)", seed), Silhouette: p.Silhouette, solution: tgOnBoard(p, sol)})
	}
	return out
}

// known returns a solution of the figure on the board: the one it came
// with, or else the exact solver's (the set's figures are solved within
// a few hundred placements; nil if this one is not).
func (f tgFigure) known(ctx context.Context) *tangram.Solution {
	if f.solution != nil {
		return f.solution
	}
	p, err := tgBoardPuzzle(f.Name, f.Silhouette)
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	res, err := tangram.Exact{MaxNodes: 1_000_000}.Solve(ctx, p)
	if err != nil || !res.Solved {
		return nil
	}
	return tgOnBoard(p, res.Solution)
}

func tgFindFigure(name string) (tgFigure, bool) {
	for _, f := range tgFigureOnce() {
		if f.Name == name {
			return f, true
		}
	}
	return tgFigure{}, false
}

// tgMatch finds where shape goes over target (catalog.TangramMatch).
func tgMatch(shape, target tangram.Polygon) (tangram.Orientation, tangram.Point, bool) {
	return catalog.TangramMatch(shape, target)
}

// tgOnBoard is sol as placements of the page's tans (catalog.TangramOnBoard).
func tgOnBoard(p *tangram.Puzzle, sol *tangram.Solution) *tangram.Solution {
	return catalog.TangramOnBoard(p, sol)
}

// tgBoardPuzzle is the puzzle the page plays: the seven tans as
// tangram.Tans gives them, turns and flips allowed, over silhouette.
func tgBoardPuzzle(name string, silhouette tangram.Polygon) (*tangram.Puzzle, error) {
	p := &tangram.Puzzle{Name: "figure", Turns: tangram.TurnsFlip, Pieces: tangram.Tans(), Silhouette: silhouette.Normalize()}
	if err := p.Validate(); err != nil {
		return nil, errorf(http.StatusBadRequest, "figure %q: %v", name, err)
	}
	return p, nil
}

func (s *Server) tgFigures(r *http.Request) (int, any, error) {
	figs := tgFigureOnce()
	out := make([]tgFigureJSON, len(figs))
	for k, f := range figs {
		out[k] = f.json()
	}
	tans := tangram.Tans()
	pieces := make([]map[string]any, len(tans))
	for k, t := range tans {
		pieces[k] = map[string]any{"name": t.Name, "shape": tgPolygonOf(t.Shape)}
	}
	return http.StatusOK, map[string]any{"figures": out, "pieces": pieces}, nil
}

// tgFigureRequest is the body of POST /api/tangram/figure: a figure of
// the person's own, as text (a tangram puzzle file, of which the name
// and silhouette lines are read), as the points drawn on the grid, or as
// a picture (a data URL of a PNG, JPEG, GIF or SVG: a dark shape on a
// light background, traced by tangram.TraceFile as `tessera tangram
// trace` does).
type tgFigureRequest struct {
	Text       string    `json:"text,omitempty"`
	Silhouette []tgPoint `json:"silhouette,omitempty"`
	Picture    string    `json:"picture,omitempty"`
	Name       string    `json:"name,omitempty"`
}

// tgFigureReply is a figure of the person's own as the page sees it, with
// what the tracer said of a picture.
type tgFigureReply struct {
	tgFigureJSON
	Traced *tgTraced `json:"traced,omitempty"`
}

// tgTraced is what tangram.Trace reports of an uploaded picture.
type tgTraced struct {
	Snapped     bool     `json:"snapped"`
	Faults      []string `json:"faults,omitempty"`
	Frame       string   `json:"frame"`
	Rotation    float64  `json:"rotation_degrees"`
	MaxResidual float64  `json:"max_residual"`
}

// tgTrace reads a picture sent as a data URL and traces it into a
// silhouette of one polygon (the board draws one), the faults named.
func tgTrace(dataURL string) (tangram.Polygon, *tgTraced, error) {
	_, b64, ok := strings.Cut(dataURL, ";base64,")
	if !ok || !strings.HasPrefix(dataURL, "data:") {
		return nil, nil, errorf(http.StatusBadRequest, "picture: want a data URL (data:image/png;base64,...)")
	}
	if base64.StdEncoding.DecodedLen(len(b64)) > tgMaxPicture {
		return nil, nil, errorf(http.StatusRequestEntityTooLarge, "picture larger than %d MiB", tgMaxPicture>>20)
	}
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, nil, errorf(http.StatusBadRequest, "picture: %v", err)
	}
	res, err := tangram.TraceFile(bytes.NewReader(data), tangram.TraceOptions{MaxPixels: tgMaxPixels})
	if err != nil {
		return nil, nil, errorf(http.StatusBadRequest, "picture: %v", strings.TrimPrefix(err.Error(), "tangram: "))
	}
	tr := &tgTraced{Snapped: res.Snapped, Faults: res.Faults, Frame: res.Frame, Rotation: res.Rotation * 180 / math.Pi, MaxResidual: res.MaxResidual}
	if res.Puzzle == nil {
		return nil, tr, errorf(http.StatusBadRequest, "picture: the outline does not snap to a tangram figure: %s", strings.Join(res.Faults, "; "))
	}
	if len(res.Puzzle.Parts) > 0 || len(res.Puzzle.Holes) > 0 {
		return nil, tr, errorf(http.StatusBadRequest, "picture: the figure has %d holes and %d parts touching at a corner; the board draws one polygon (tessera tangram trace takes them)", len(res.Puzzle.Holes), len(res.Puzzle.Parts))
	}
	return res.Puzzle.Silhouette, tr, nil
}

// tgParseFigure reads a figure's text: its "name" and "silhouette" lines
// (the piece and turns lines, and comments, are ignored: the page plays
// the seven tans with turns), through tangram.ParsePuzzle and its bounds.
func tgParseFigure(text string) (string, tangram.Polygon, error) {
	if len(text) > tgMaxText {
		return "", nil, errorf(http.StatusRequestEntityTooLarge, "figure text longer than %d KiB", tgMaxText>>10)
	}
	var keep []string
	for line := range strings.Lines(text) {
		f := strings.Fields(line)
		if len(f) > 0 && (f[0] == "silhouette" || f[0] == "name") {
			keep = append(keep, strings.TrimSpace(line))
		}
	}
	if len(keep) == 0 {
		return "", nil, errorf(http.StatusBadRequest, "no silhouette line (want: silhouette X1 Y1 X2 Y2 ...)")
	}
	var b strings.Builder
	if err := tangram.FormatPuzzle(&b, &tangram.Puzzle{Pieces: tangram.Tans(), Silhouette: tangram.Tans()[0].Shape}); err != nil {
		return "", nil, err
	}
	var body []string
	for line := range strings.Lines(b.String()) {
		if strings.HasPrefix(line, "piece ") {
			body = append(body, strings.TrimSpace(line))
		}
	}
	p, err := tangram.ParsePuzzle(strings.NewReader(strings.Join(append(body, keep...), "\n") + "\n"))
	if err != nil {
		return "", nil, errorf(http.StatusBadRequest, "figure: %v", strings.TrimPrefix(err.Error(), "tangram: "))
	}
	return p.Name, p.Silhouette, nil
}

func (s *Server) tgFigure(r *http.Request) (int, any, error) {
	var req tgFigureRequest
	if err := decodeJSON(r, tgMaxPicture*4/3+16<<10, &req); err != nil {
		return 0, nil, err
	}
	name := cmp.Or(req.Name, "your figure")
	var sil tangram.Polygon
	var traced *tgTraced
	given := 0
	for _, b := range []bool{req.Text != "", req.Silhouette != nil, req.Picture != ""} {
		if b {
			given++
		}
	}
	switch {
	case given > 1:
		return 0, nil, errorf(http.StatusBadRequest, "give one of text, silhouette and picture")
	case req.Picture != "":
		pg, tr, err := tgTrace(req.Picture)
		if err != nil {
			return 0, nil, err
		}
		sil, traced = pg, tr
	case req.Text != "":
		n, pg, err := tgParseFigure(req.Text)
		if err != nil {
			return 0, nil, err
		}
		sil = pg
		if req.Name == "" && n != "" {
			name = n
		}
	default:
		pg, err := tgPolygon(req.Silhouette)
		if err != nil {
			return 0, nil, err
		}
		if err := pg.Validate(); err != nil {
			return 0, nil, errorf(http.StatusBadRequest, "silhouette: %v", strings.TrimPrefix(err.Error(), "tangram: "))
		}
		sil = pg
	}
	if len(name) > 64 {
		return 0, nil, errorf(http.StatusBadRequest, "name longer than 64 bytes")
	}
	p, err := tgBoardPuzzle(name, sil)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, tgFigureReply{tgFigure{Name: name, Category: "yours", Silhouette: p.Silhouette}.json(), traced}, nil
}

// tgPlacement is a tan on the page's board (catalog.TangramPlacement).
type tgPlacement = catalog.TangramPlacement

func tgSolution(ps []tgPlacement) (*tangram.Solution, error) {
	n := len(tangram.Tans())
	if len(ps) != n {
		return nil, errorf(http.StatusBadRequest, "pieces: %d, want %d", len(ps), n)
	}
	sol := tangram.NewSolution(n)
	for k, pl := range ps {
		if pl.O < 0 || pl.O > 15 {
			return nil, errorf(http.StatusBadRequest, "piece %d: orientation %d out of range 0..15", k+1, pl.O)
		}
		t, err := tgPointValue(pl.T)
		if err != nil {
			return nil, err
		}
		sol.Place(k, t, tangram.Orientation(pl.O))
	}
	return sol, nil
}

func tgPlacements(sol *tangram.Solution) []tgPlacement { return catalog.TangramPlacements(sol) }

// tgCheckRequest is the body of POST /api/tangram/check.
type tgCheckRequest struct {
	Silhouette []tgPoint     `json:"silhouette"`
	Pieces     []tgPlacement `json:"pieces"`
}

type tgCheckResponse struct {
	Filled  bool   `json:"filled"`
	Message string `json:"message"`
}

// tgVerdict says in words why a board does not fill its figure.
func tgVerdict(err error) string {
	switch {
	case err == nil:
		return "filled"
	case errors.Is(err, tangram.ErrOverlap):
		return "two tans overlap"
	case errors.Is(err, tangram.ErrOutside):
		return "not filled yet: a tan lies outside the figure"
	case errors.Is(err, tangram.ErrGap):
		return "a gap is left"
	}
	return strings.TrimPrefix(err.Error(), "tangram: ")
}

func (s *Server) tgCheck(r *http.Request) (int, any, error) {
	var req tgCheckRequest
	if err := decodeJSON(r, 64<<10, &req); err != nil {
		return 0, nil, err
	}
	sil, err := tgPolygon(req.Silhouette)
	if err != nil {
		return 0, nil, err
	}
	p, err := tgBoardPuzzle("figure", sil)
	if err != nil {
		return 0, nil, err
	}
	sol, err := tgSolution(req.Pieces)
	if err != nil {
		return 0, nil, err
	}
	err = tangram.Check(p, sol)
	return http.StatusOK, tgCheckResponse{Filled: err == nil, Message: tgVerdict(err)}, nil
}

// ---- Auto ---------------------------------------------------------------------

// tgRef names a job's figure: one of the set by name, or a silhouette.
type tgRef struct {
	Figure     string    `json:"figure,omitempty"`
	Silhouette []tgPoint `json:"silhouette,omitempty"`
}

// tgSolveSpec is a tangram.solve job as the page submits it: the
// catalogue's job, or a ref that normalize turns into its puzzle's text.
type tgSolveSpec struct {
	catalog.TangramJob
	Ref *tgRef `json:"ref,omitempty"`
}

// tgPuzzleFor returns the puzzle a solver gets for the figure. The exact
// solver gets the tans with turns and flips. Algorithm 2 is translation
// only (package tangram): it gets the tans turned as the figure's known
// solution has them (the orientations given away, as in the classic
// puzzles of the paper's setting), so a figure without one cannot be
// given to it.
func tgPuzzleFor(solver string, ref tgRef) (*tangram.Puzzle, string, error) {
	var fig tgFigure
	if ref.Figure != "" {
		f, ok := tgFindFigure(ref.Figure)
		if !ok {
			return nil, "", errorf(http.StatusBadRequest, "ref: no figure %q (GET /api/tangram/figures lists them)", ref.Figure)
		}
		fig = f
	} else {
		pg, err := tgPolygon(ref.Silhouette)
		if err != nil {
			return nil, "", err
		}
		fig = tgFigure{Name: "your figure", Silhouette: pg}
	}
	p, err := tgBoardPuzzle(fig.Name, fig.Silhouette)
	if err != nil {
		return nil, "", err
	}
	p.Name = strings.Map(func(r rune) rune {
		if r == ' ' {
			return '_'
		}
		return r
	}, fig.Name)
	if solver != "sdp" {
		return p, fig.Name, nil
	}
	var known *tangram.Solution
	if ref.Figure != "" { // a figure of the page's set: its solution is known
		known = fig.known(context.Background())
	}
	if known == nil {
		return nil, "", errorf(http.StatusBadRequest, "Algorithm 2 here is translation only: it needs the tans turned as a known solution has them, and %s has none (the exact solver takes any figure)", fig.Name)
	}
	p.Turns = tangram.TurnsNone
	for k, pl := range known.Placements {
		sh, err := p.Pieces[k].Shape.Oriented(pl.Orient)
		if err != nil {
			return nil, "", err
		}
		p.Pieces[k].Shape = sh
	}
	return p, fig.Name, nil
}

// checkTGSpec reads a tangram.solve job: the catalogue's job with its
// puzzle's text or a ref (resolved here), a solver of the catalogue, a
// puzzle of the seven tans, a wall-clock time limit within the server's
// (0: 10 s exact, 60 s sdp).
func (s *Server) checkTGSpec(spec json.RawMessage) (catalog.TangramJob, error) {
	var req tgSolveSpec
	if err := specUnmarshal(spec, &req); err != nil {
		return req.TangramJob, err
	}
	j := req.TangramJob
	j.Solver = cmp.Or(j.Solver, "exact")
	if _, err := catalog.Tangram.Lookup(j.Solver); err != nil {
		return j, errorf(http.StatusBadRequest, "%v", err)
	}
	if err := j.Options.Check(); err != nil {
		return j, errorf(http.StatusBadRequest, "options: %v", err)
	}
	if j.Options.SDPBackend != "" && j.Options.SDPBackend != "go" {
		return j, errorf(http.StatusBadRequest, "options: sdp: the page's solves use the pure Go backend")
	}
	def := tgExactTimeout
	if j.Solver == "sdp" {
		def = tgSDPTimeout
	}
	if err := s.pageBudget(&j.Budget, def); err != nil {
		return j, err
	}
	if req.Ref != nil {
		p, name, err := tgPuzzleFor(j.Solver, *req.Ref)
		if err != nil {
			return j, err
		}
		var b strings.Builder
		if err := tangram.FormatPuzzle(&b, p); err != nil {
			return j, err
		}
		j.Puzzle, j.Name = b.String(), name
	}
	p, err := tangram.ParsePuzzle(strings.NewReader(j.Puzzle))
	if err != nil {
		return j, errorf(http.StatusBadRequest, "puzzle: %v", err)
	}
	if _, ok := catalog.TangramBoardOrients(p); !ok {
		return j, errorf(http.StatusBadRequest, "puzzle: the page's board plays the seven tans (tangram.Tans), in their order")
	}
	return j, nil
}

// tgResult is a tangram.solve job's result on the page (the catalogue's
// view: the job is the catalogue's with View).
type tgResult = catalog.TangramViewResult

func tangramJobs(s *Server) map[string]jobKind {
	return map[string]jobKind{catalog.TangramKind: catalogJobKind(s, catalog.TangramKind, s.checkTGSpec,
		func(j catalog.TangramJob) catalog.Budget { return j.Budget }, func(j *catalog.TangramJob) { j.View = true })}
}

// ---- saves --------------------------------------------------------------------

// tangramState is a saved tangram game: the figure and the seven tans.
type tangramState struct {
	Figure    tgFigureJSON  `json:"figure"`
	Pieces    []tgPlacement `json:"pieces"`
	Moves     int           `json:"moves"`
	ElapsedMS int64         `json:"elapsed_ms"`
}

// tangramSave checks a saved game: the figure is a valid silhouette of the
// tans' area, the tans are seven with exact coordinates; whether the
// figure is filled is decided again by tangram.Check.
func tangramSave(st tangramState) (store.Game, error) {
	f := st.Figure
	if len(f.Name) > 64 || len(f.Category) > 64 || len(f.Source) > 200 {
		return store.Game{}, errorf(http.StatusBadRequest, "figure: name, category or source too long")
	}
	sil, err := tgPolygon(f.Silhouette)
	if err != nil {
		return store.Game{}, err
	}
	p, err := tgBoardPuzzle(f.Name, sil)
	if err != nil {
		return store.Game{}, err
	}
	sol, err := tgSolution(st.Pieces)
	if err != nil {
		return store.Game{}, err
	}
	if st.Moves < 0 || st.Moves > 1<<30 {
		return store.Game{}, errorf(http.StatusBadRequest, "moves: %d out of range", st.Moves)
	}
	st.Figure.Silhouette = tgPolygonOf(p.Silhouette)
	return stored(store.Game{Board: f.Name, Moves: st.Moves, Solved: tangram.Check(p, sol) == nil}, st, st.ElapsedMS)
}

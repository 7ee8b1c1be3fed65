package web

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"tessera/imageio"
	"tessera/internal/catalog"
	"tessera/internal/store"
	"tessera/jigsaw"
)

// Jigsaw: square-piece picture jigsaws cut from a built-in, uploaded or
// benchmark picture (or a mixed bag of 2 to 4), Type 1 (positions
// unknown) or Type 2 (positions and rotations unknown). The server cuts and
// scrambles (the puzzle is a function of its jgRef, so nothing is kept but
// a small cache), scores a layout against the truth, which the page never
// sees, and runs the catalogue's solvers as jigsaw.solve jobs, streaming
// the best layout of each generation.

const (
	jgMaxPictures          = 4
	jgMinPiece, jgMaxPiece = 12, 160
	// jgMaxPieces bounds the pieces of a puzzle, all pictures together: a
	// bag of four MIT pictures (1,728 at 28 pixels) fits.
	jgMaxPieces = 2000
	// jgMaxBoard bounds the cells of a board the page sends.
	jgMaxBoard = 4 * jgMaxPieces
	// jgMaxDataBytes bounds a benchmark picture read from the data folder.
	jgMaxDataBytes = 16 << 20
	jgCacheSize    = 4
)

// jgDataSets are the data folder's benchmark sets the page offers.
var jgDataSets = []string{"mit432", "mcgill540"}

var jigsawGame = &game{
	data: func() any { return menuPage{Solvers: catalog.Jigsaw.Menu()} },
	api:  jigsawAPI,
	save: saveOf(jigsawSave),
	jobs: jigsawJobs,
	auto: "solve as a job (key a)",
	budgets: budgetMenu(2*time.Minute,
		30*time.Second, 2*time.Minute, 10*time.Minute),
}

// jigsawAPI is the page's own API calls, under /api/jigsaw/.
var jigsawAPI = apiCalls{
	"GET sets":   (*Server).jgSets,
	"POST new":   (*Server).jgNew,
	"POST score": (*Server).jgScore,
}

// jgRef names a puzzle: its pictures, piece size, type and scramble.
type jgRef struct {
	// Pictures are 1 to 4 built-in picture ids, upload ids, or images of
	// the data folder's sets ("mit432/1.png"); several make a mixed bag.
	Pictures []string `json:"pictures"`
	Piece    int      `json:"piece"`  // pixels, 12..160
	Rotate   bool     `json:"rotate"` // Type 2
	Seed     uint64   `json:"seed"`
}

// check bounds the form of a ref, before any picture is read.
func (r jgRef) check() error {
	if len(r.Pictures) < 1 || len(r.Pictures) > jgMaxPictures {
		return errorf(http.StatusBadRequest, "pictures: %d given, want 1 to %d (several make a mixed bag)", len(r.Pictures), jgMaxPictures)
	}
	if r.Piece < jgMinPiece || r.Piece > jgMaxPiece {
		return errorf(http.StatusBadRequest, "piece %d pixels out of range %d..%d", r.Piece, jgMinPiece, jgMaxPiece)
	}
	seen := map[string]bool{}
	for _, id := range r.Pictures {
		if !validPictureID(id) && !isDataImage(id) {
			return errorf(http.StatusBadRequest, "picture %q: not a built-in picture, an upload or a data-set image such as mit432/1.png", trimForError(id))
		}
		if seen[id] {
			return errorf(http.StatusBadRequest, "picture %q given twice", id)
		}
		seen[id] = true
	}
	return nil
}

func trimForError(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// isDataImage reports whether id has the form SET/N.EXT of an image of one
// of jgDataSets: a set name, a slash, digits, and .png or .jpg.
func isDataImage(id string) bool {
	set, file, ok := strings.Cut(id, "/")
	if !ok {
		return false
	}
	known := false
	for _, s := range jgDataSets {
		known = known || s == set
	}
	num, ext, ok := strings.Cut(file, ".")
	if !known || !ok || (ext != "png" && ext != "jpg") || num == "" || len(num) > 4 {
		return false
	}
	for _, c := range num {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// jgDataImages lists the data folder's benchmark images the page offers.
func (s *Server) jgDataImages() []string {
	list := []string{}
	if s.cfg.DataDir == "" {
		return list
	}
	for _, set := range jgDataSets {
		entries, err := os.ReadDir(filepath.Join(s.cfg.DataDir, "jigsaw", set))
		if err != nil {
			continue
		}
		var names []string
		for _, e := range entries {
			if id := set + "/" + e.Name(); isDataImage(id) && e.Type().IsRegular() {
				names = append(names, id)
			}
		}
		sort.Slice(names, func(i, j int) bool { // 2.png before 10.png
			a, b := names[i], names[j]
			if len(a) != len(b) {
				return len(a) < len(b)
			}
			return a < b
		})
		list = append(list, names...)
	}
	return list
}

func (s *Server) jgSets(r *http.Request) (int, any, error) {
	note := ""
	if s.cfg.DataDir == "" {
		note = "no data folder (tessera serve -data DIR, or TESSERA_DATA): the benchmark pictures are not offered"
	}
	return http.StatusOK, map[string]any{"images": s.jgDataImages(), "note": note}, nil
}

// jgPuzzle is a cut and scrambled puzzle with its truth.
type jgPuzzle struct {
	pz    *jigsaw.Puzzle
	truth *jigsaw.Truth
	grids []jigsaw.TruthImage
	sheet string // the pieces, row-major on sheetCols columns, as a JPEG data URL
	cols  int    // sheet columns
}

// jgCache keeps the last few puzzles made, by ref.
type jgCache struct {
	mu   sync.Mutex
	keys []string
	vals []*jgPuzzle
}

func (c *jgCache) get(key string) *jgPuzzle {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, k := range c.keys {
		if k == key {
			return c.vals[i]
		}
	}
	return nil
}

func (c *jgCache) put(key string, p *jgPuzzle) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keys = append([]string{key}, c.keys...)
	c.vals = append([]*jgPuzzle{p}, c.vals...)
	if len(c.keys) > jgCacheSize {
		c.keys, c.vals = c.keys[:jgCacheSize], c.vals[:jgCacheSize]
	}
}

// jgPictureBytes reads the file of one picture of a ref.
func (s *Server) jgPictureBytes(ctx context.Context, id string) ([]byte, error) {
	switch {
	case isBuiltinPicture(id):
		return fs.ReadFile(staticFS, "static/pictures/"+id+".png")
	case isDataImage(id):
		if s.cfg.DataDir == "" {
			return nil, errorf(http.StatusNotFound, "no data folder here: picture %q is not available", id)
		}
		path := filepath.Join(s.cfg.DataDir, "jigsaw", filepath.FromSlash(id))
		st, err := os.Stat(path)
		if err != nil || !st.Mode().IsRegular() {
			return nil, errorf(http.StatusNotFound, "no picture %q in the data folder (GET /api/jigsaw/sets lists them)", id)
		}
		if st.Size() > jgMaxDataBytes {
			return nil, errorf(http.StatusUnprocessableEntity, "picture %q: %d bytes, over %d", id, st.Size(), jgMaxDataBytes)
		}
		return os.ReadFile(path)
	default:
		if s.store == nil {
			return nil, errorf(http.StatusUnprocessableEntity, "picture %q is an upload, which this worker cannot read (it has no store): use a built-in or data-set picture", id)
		}
		p, err := s.picture(ctx, id)
		if err != nil {
			return nil, storeError(err)
		}
		return p.Data, nil
	}
}

// jgLoad cuts and scrambles the puzzle of ref (or takes it from the cache).
func (s *Server) jgLoad(ctx context.Context, ref jgRef) (*jgPuzzle, error) {
	if err := ref.check(); err != nil {
		return nil, err
	}
	if owner, ok := clientOf(ctx); ok {
		// A request's: its uploads must be the client's, cached or not.
		for _, id := range ref.Pictures {
			if isUploadID(id) {
				if _, err := s.store.Picture(ctx, owner, id); err != nil {
					return nil, storeError(err)
				}
			}
		}
	}
	keyb, _ := json.Marshal(ref)
	key := string(keyb)
	if p := s.jgCache.get(key); p != nil {
		return p, nil
	}
	var grids []*jigsaw.Grid
	total := 0
	for _, id := range ref.Pictures {
		data, err := s.jgPictureBytes(ctx, id)
		if err != nil {
			return nil, err
		}
		_, w, h, err := imageio.Header(data, imageio.Options{})
		if err != nil {
			return nil, errorf(http.StatusUnprocessableEntity, "picture %q: %v", id, err)
		}
		rows, cols := h/ref.Piece, w/ref.Piece
		if rows < 2 || cols < 2 {
			return nil, errorf(http.StatusBadRequest, "picture %q (%dx%d) makes fewer than 2x2 pieces of %d pixels", id, w, h, ref.Piece)
		}
		if total += rows * cols; total > jgMaxPieces {
			return nil, errorf(http.StatusBadRequest, "%d pieces or more: at most %d (choose larger pieces or fewer pictures)", total, jgMaxPieces)
		}
		img, err := imageio.DecodeBytesContext(ctx, data, imageio.Options{})
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			return nil, errorf(http.StatusUnprocessableEntity, "picture %q: %v", id, err)
		}
		g, err := jigsaw.CutContext(ctx, img.Pix, ref.Piece, jigsaw.CutOptions{Crop: true, Depth: img.Depth})
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			return nil, errorf(http.StatusBadRequest, "picture %q: %v", id, err)
		}
		g.Name = id
		grids = append(grids, g)
	}
	pz, truth := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Rotate: ref.Rotate, Seed: ref.Seed})
	out := &jgPuzzle{pz: pz, truth: truth, grids: truth.Images, cols: jigsaw.SheetCols(len(pz.Pieces))}
	if len(grids) == 1 {
		out.cols = grids[0].Cols
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, jgSheet(pz, out.cols), &jpeg.Options{Quality: 90}); err != nil {
		return nil, err
	}
	out.sheet = "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
	s.jgCache.put(key, out)
	return out, nil
}

// jgGutter is the margin of each piece on the page's sheet: the piece's
// border pixels repeated, so that a browser scaling a piece never shows a
// line of its sheet neighbour's pixels.
const jgGutter = 1

// jgSheet draws the pieces row-major on cols columns, each in a cell of
// PieceSize + 2 jgGutter pixels, 8 bits per channel.
func jgSheet(pz *jigsaw.Puzzle, cols int) *image.NRGBA {
	n, size := len(pz.Pieces), pz.PieceSize
	cell := size + 2*jgGutter
	rows := (n + cols - 1) / cols
	img := image.NewNRGBA(image.Rect(0, 0, cols*cell, rows*cell))
	for k, p := range pz.Pieces {
		x0, y0 := (k%cols)*cell, (k/cols)*cell
		for y := range cell {
			sy := min(max(y-jgGutter, 0), size-1)
			for x := range cell {
				sx := min(max(x-jgGutter, 0), size-1)
				i := 3 * (sy*size + sx)
				o := img.PixOffset(x0+x, y0+y)
				img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = uint8(p.Pix[i]>>8), uint8(p.Pix[i+1]>>8), uint8(p.Pix[i+2]>>8), 0xff
			}
		}
	}
	return img
}

// jgLoadBusy is jgLoad for a request: it takes a busy slot and ends with
// the request's solve timeout.
func (s *Server) jgLoadBusy(r *http.Request, ref jgRef) (*jgPuzzle, error) {
	if err := ref.check(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.SolveTimeout)
	defer cancel()
	if err := s.acquire(ctx); err != nil {
		return nil, err
	}
	defer s.release()
	return s.jgLoad(ctx, ref)
}

// jgBoard is a layout as the page holds it (the catalogue's: a job's
// progress carries it).
type jgBoard = catalog.JigsawBoard

// checkJGBoard bounds a board sent for a puzzle of n pieces: every cell in
// range, each piece at most once, no rotations for Type 1 (rotate false).
func checkJGBoard(b jgBoard, n int, rotate bool) error {
	if b.Rows < 1 || b.Cols < 1 || b.Rows > jgMaxBoard || b.Cols > jgMaxBoard || b.Rows*b.Cols > jgMaxBoard {
		return errorf(http.StatusBadRequest, "board: %d x %d cells, want 1 to %d cells", b.Rows, b.Cols, jgMaxBoard)
	}
	if len(b.Cells) != b.Rows*b.Cols {
		return errorf(http.StatusBadRequest, "board: %d cells for %d x %d", len(b.Cells), b.Rows, b.Cols)
	}
	seen := make([]bool, n)
	for i, c := range b.Cells {
		if c[0] < 0 {
			continue
		}
		if c[0] >= n || seen[c[0]] || c[1] < 0 || c[1] > 3 || (!rotate && c[1] != 0) {
			return errorf(http.StatusBadRequest, "board: cell %d holds %v, not a piece of the %d used once with a rotation 0..3 (0 for Type 1)", i, c, n)
		}
		seen[c[0]] = true
	}
	return nil
}

// jgStartBoard is the scramble as the page first shows it: piece k in
// cell k of the sheet's grid, as cut.
func jgStartBoard(p *jgPuzzle) jgBoard {
	n := len(p.pz.Pieces)
	b := jgBoard{Cols: p.cols, Rows: (n + p.cols - 1) / p.cols}
	b.Cells = make([][2]int, b.Rows*b.Cols)
	for i := range b.Cells {
		b.Cells[i] = [2]int{-1, 0}
		if i < n {
			b.Cells[i][0] = i
		}
	}
	return b
}

// jgBoardOf lays out a solver's placement for the page
// (catalog.JigsawBoardOf).
func jgBoardOf(pl *jigsaw.Placement, n int) jgBoard { return catalog.JigsawBoardOf(pl, n) }

// jgScoreJSON is a board's score against the truth.
type jgScoreJSON = catalog.JigsawScore

// jgScoreBoard scores b against p's truth and lists its wrong adjacencies.
func jgScoreBoard(p *jgPuzzle, b jgBoard) jgScoreJSON { return catalog.ScoreJigsawBoard(p.truth, b) }

// jgPuzzleJSON is a puzzle as the page draws it.
type jgPuzzleJSON struct {
	Ref       jgRef       `json:"ref"`
	Name      string      `json:"name"`
	N         int         `json:"n"`
	Piece     int         `json:"piece"`
	Rotate    bool        `json:"rotate"`
	Sheet     string      `json:"sheet"` // JPEG data URL: piece k at row k / sheet_cols, column k % sheet_cols
	SheetCols int         `json:"sheet_cols"`
	Gutter    int         `json:"gutter"` // pixels around each piece on the sheet
	Pictures  []jgPicture `json:"pictures"`
	Board     jgBoard     `json:"board"` // the scramble
	Score     jgScoreJSON `json:"score"`
}

type jgPicture struct {
	Name string `json:"name"`
	Rows int    `json:"rows"`
	Cols int    `json:"cols"`
}

func jgName(ref jgRef, p *jgPuzzle) string {
	kind := "Type 1"
	if ref.Rotate {
		kind = "Type 2"
	}
	var parts []string
	for _, g := range p.grids {
		parts = append(parts, fmt.Sprintf("%s %dx%d", g.Name, g.Rows, g.Cols))
	}
	return fmt.Sprintf("%s, %d pieces of %d px, %s", strings.Join(parts, " + "), len(p.pz.Pieces), ref.Piece, kind)
}

func (s *Server) jgNew(r *http.Request) (int, any, error) {
	var req struct {
		Ref jgRef `json:"ref"`
	}
	if err := decodeJSON(r, 4<<10, &req); err != nil {
		return 0, nil, err
	}
	p, err := s.jgLoadBusy(r, req.Ref)
	if err != nil {
		return 0, nil, err
	}
	b := jgStartBoard(p)
	out := jgPuzzleJSON{Ref: req.Ref, Name: jgName(req.Ref, p), N: len(p.pz.Pieces), Piece: req.Ref.Piece, Rotate: req.Ref.Rotate,
		Sheet: p.sheet, SheetCols: p.cols, Gutter: jgGutter, Board: b, Score: jgScoreBoard(p, b)}
	for _, g := range p.grids {
		out.Pictures = append(out.Pictures, jgPicture{g.Name, g.Rows, g.Cols})
	}
	return http.StatusOK, out, nil
}

func (s *Server) jgScore(r *http.Request) (int, any, error) {
	var req struct {
		Ref   jgRef   `json:"ref"`
		Board jgBoard `json:"board"`
	}
	if err := decodeJSON(r, 256<<10, &req); err != nil {
		return 0, nil, err
	}
	if err := req.Ref.check(); err != nil {
		return 0, nil, err
	}
	if err := checkJGBoard(req.Board, jgMaxPieces, req.Ref.Rotate); err != nil {
		return 0, nil, err
	}
	p, err := s.jgLoadBusy(r, req.Ref)
	if err != nil {
		return 0, nil, err
	}
	if err := checkJGBoard(req.Board, len(p.pz.Pieces), req.Ref.Rotate); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, jgScoreBoard(p, req.Board), nil
}

// jgProgress is a jigsaw.solve job's progress (the catalogue's view: the
// job is the catalogue's with View).
type jgProgress = catalog.JigsawView

// jgSolveResult is a jigsaw.solve job's result: the catalogue's result
// (a record per picture) with its view.
type jgSolveResult = catalog.JigsawResult

// checkJGSpec reads a jigsaw.solve job of the page: the catalogue's job
// (catalog.JigsawJob) whose pictures' blobs are the server's refs
// (built-in pictures, uploads, data-set images), read here. It returns
// the job as the page's puzzle is cut (the centre of each picture, a
// mixed bag's count told), that puzzle's ref and the search's time limit
// (the job's budget, 0: the server's job timeout).
func (s *Server) checkJGSpec(spec json.RawMessage) (catalog.JigsawJob, jgRef, time.Duration, error) {
	var j catalog.JigsawJob
	if err := specUnmarshal(spec, &j); err != nil {
		return j, jgRef{}, 0, err
	}
	if j.Solver == "" {
		j.Solver = "ga"
	}
	if _, err := catalog.Jigsaw.Lookup(j.Solver); err != nil {
		return j, jgRef{}, 0, errorf(http.StatusBadRequest, "%v", err)
	}
	if err := j.Options.Check(); err != nil {
		return j, jgRef{}, 0, errorf(http.StatusBadRequest, "%v", err)
	}
	if j.Type == 0 {
		j.Type = 1
	}
	if j.Type != 1 && j.Type != 2 {
		return j, jgRef{}, 0, errorf(http.StatusBadRequest, "type %d: want 1 or 2", j.Type)
	}
	timeout := s.cfg.JobTimeout
	if j.Budget.Timeout != 0 {
		timeout = j.Budget.Timeout
		if timeout < 100*time.Millisecond || timeout > s.cfg.MaxJobTimeout {
			return j, jgRef{}, 0, errorf(http.StatusBadRequest, "budget timeout_ns %d out of range 100 ms..%v", timeout, s.cfg.MaxJobTimeout)
		}
	}
	j.Budget = catalog.Budget{Timeout: timeout}
	ref := jgRef{Piece: j.Piece, Rotate: j.Type == 2, Seed: j.Options.Seed}
	for i, pic := range j.Pictures {
		ref.Pictures = append(ref.Pictures, pic.Blob)
		j.Pictures[i].Name = fmt.Sprintf("picture-%d", i+1)
	}
	j.Crop, j.Known, j.Save, j.Count, j.Bag = true, false, false, true, 0
	if len(j.Pictures) > 1 {
		j.Bag = 1
	}
	return j, ref, timeout, ref.check()
}

// isCatalogJigsawJob reports whether spec is a bench's jigsaw.solve job
// (catalog.JigsawJob, its pictures by blob address in the job system's
// store) rather than the page's (the server's refs).
func isCatalogJigsawJob(spec json.RawMessage) bool {
	var probe catalog.JigsawJob
	if json.Unmarshal(spec, &probe) != nil || len(probe.Pictures) == 0 {
		return false
	}
	for _, p := range probe.Pictures {
		if !strings.HasPrefix(p.Blob, "sha256:") {
			return false
		}
	}
	return true
}

func jigsawJobs(s *Server) map[string]jobKind {
	// The solve stops itself at timeout; the rest is for a free slot and the cut.
	k := pageJobKind(s, catalog.JigsawKind, isCatalogJigsawJob,
		"pictures: give the server's pictures, not blob addresses", time.Minute, s.checkJGSpec, s.putJGPictures)
	k.pictures = func(spec json.RawMessage) []string {
		_, ref, _, _ := s.checkJGSpec(spec)
		var ids []string
		for _, id := range ref.Pictures {
			if isUploadID(id) {
				ids = append(ids, id)
			}
		}
		return ids
	}
	return map[string]jobKind{catalog.JigsawKind: k}
}

// putJGPictures turns a page's job into the catalogue's that any worker
// runs: its pictures (the server's refs) put in the job system's blob
// store, named by address, and the page's view asked for.
func (s *Server) putJGPictures(ctx context.Context, j *catalog.JigsawJob, ref jgRef) error {
	for i, id := range ref.Pictures {
		data, err := s.jgPictureBytes(ctx, id)
		if err != nil {
			return err
		}
		if j.Pictures[i].Blob, err = s.jobs.PutBlob(ctx, data); err != nil {
			return err
		}
	}
	j.View = true
	return nil
}

// jigsawState is a saved jigsaw game.
type jigsawState struct {
	Ref       jgRef   `json:"ref"`
	Board     jgBoard `json:"board"`
	Name      string  `json:"name"`
	Moves     int     `json:"moves"`
	ElapsedMS int64   `json:"elapsed_ms"`
}

// jigsawSave checks a saved game: the ref well formed, the board bounded
// with each piece at most once. The pictures are not read here: the page
// cuts the puzzle again when it loads the game.
func jigsawSave(st jigsawState) (store.Game, error) {
	if err := st.Ref.check(); err != nil {
		return store.Game{}, err
	}
	if err := checkJGBoard(st.Board, jgMaxPieces, st.Ref.Rotate); err != nil {
		return store.Game{}, err
	}
	if len(st.Name) > 300 || st.Moves < 0 || st.ElapsedMS < 0 {
		return store.Game{}, errorf(http.StatusBadRequest, "name too long, or negative moves or time")
	}
	return stored(store.Game{Board: st.Name, Moves: st.Moves}, st, st.ElapsedMS)
}

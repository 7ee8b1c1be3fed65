package web

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"tessera/edgematch"
	"tessera/internal/catalog"
	"tessera/internal/store"
)

// Edge-matching: the clue puzzles, Brendan Owen's sets and Eternity II
// from the data folder, or generated puzzles; the person drags and turns
// tiles, the page marks matching edges and counts the score; Auto runs the
// exact search, the partial search (the board and score streaming in) or
// Kovalsky's LP (each iteration's matrix P streaming in as a picture, as
// the source's Figure 4c) as a job.

const (
	emMinSide, emMaxGenSide = 3, 16
	emMaxColours            = 22
	emDefaultTimeout        = 60 * time.Second
)

var edgematchGame = &game{
	data: func() any { return menuPage{Solvers: catalog.EdgeMatch.Menu()} },
	api:  edgematchAPI,
	save: saveOf(edgematchSave),
	jobs: edgematchJobs,
	auto: "solve as a job (key a)",
	budgets: budgetMenu(emDefaultTimeout,
		10*time.Second, time.Minute, 5*time.Minute, 10*time.Minute),
}

// edgematchAPI is the page's own API calls, under /api/edgematch/.
var edgematchAPI = apiCalls{
	"GET puzzles": (*Server).emPuzzles,
	"POST load":   (*Server).emLoad,
	"POST bucas":  (*Server).emBucas,
}

// emRef names a puzzle: a file of the data folder (one of the list), or a
// generated one.
type emRef struct {
	File    string `json:"file,omitempty"` // "brendan_set1/08x08.txt", "eternity2.txt", "clue_puzzles/clue1.txt"
	Rows    int    `json:"rows,omitempty"` // generated: 3..16
	Cols    int    `json:"cols,omitempty"`
	Colours int    `json:"colours,omitempty"` // generated: inner colours (0: about the board's side)
	Seed    uint64 `json:"seed,omitempty"`
}

// emFiles lists the puzzle files of the data folder the page offers.
func (s *Server) emFiles() []string {
	s.emOnce.Do(func() {
		if s.cfg.DataDir == "" {
			return
		}
		dir := filepath.Join(s.cfg.DataDir, "edgematch")
		add := func(pattern string) {
			m, _ := filepath.Glob(filepath.Join(dir, pattern))
			sort.Strings(m)
			for _, p := range m {
				if strings.HasSuffix(p, ".txt") {
					rel, _ := filepath.Rel(dir, p)
					s.emList = append(s.emList, filepath.ToSlash(rel))
				}
			}
		}
		add("clue_puzzles/clue*.txt")
		add("brendan_set1/*.txt")
		add("eternity2.txt")
	})
	return s.emList
}

func (s *Server) emPuzzles(r *http.Request) (int, any, error) {
	note := ""
	if s.cfg.DataDir == "" {
		note = "no data folder (tessera serve -data DIR, or TESSERA_DATA): generated puzzles only"
	}
	files := s.emFiles()
	if files == nil {
		files = []string{}
	}
	return http.StatusOK, map[string]any{"files": files, "note": note}, nil
}

// loadPuzzle reads or generates the puzzle of ref.
func (s *Server) loadPuzzle(ref emRef) (*edgematch.Puzzle, string, error) {
	if ref.File != "" {
		ok := false
		for _, f := range s.emFiles() {
			ok = ok || f == ref.File
		}
		if !ok {
			return nil, "", errorf(http.StatusNotFound, "no puzzle file %q here (GET /api/edgematch/puzzles lists them)", ref.File)
		}
		path := filepath.Join(s.cfg.DataDir, "edgematch", filepath.FromSlash(ref.File))
		p, err := edgematch.ReadPuzzleFile(path)
		if err != nil {
			return nil, "", errorf(http.StatusUnprocessableEntity, "%v", err)
		}
		if ref.File == "eternity2.txt" {
			// the mandatory starter piece 139
			clues := filepath.Join(s.cfg.DataDir, "edgematch", "eternity2_clues.txt")
			if _, err := os.Stat(clues); err == nil {
				if err := p.AddHintsFile(clues, 1); err != nil {
					return nil, "", err
				}
			}
		}
		return p, strings.TrimSuffix(ref.File, ".txt"), nil
	}
	if ref.Rows < emMinSide || ref.Rows > emMaxGenSide || ref.Cols < emMinSide || ref.Cols > emMaxGenSide {
		return nil, "", errorf(http.StatusBadRequest, "a generated puzzle has %d to %d rows and columns", emMinSide, emMaxGenSide)
	}
	if ref.Colours < 0 || ref.Colours > emMaxColours {
		return nil, "", errorf(http.StatusBadRequest, "colours %d out of range 0..%d", ref.Colours, emMaxColours)
	}
	colours := ref.Colours
	if colours == 0 {
		colours = max(ref.Rows, ref.Cols)
	}
	p, _, err := edgematch.Generate(edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: ref.Rows, Cols: ref.Cols, Colours: colours, Seed: ref.Seed})
	if err != nil {
		return nil, "", errorf(http.StatusBadRequest, "%v", err)
	}
	return p, fmt.Sprintf("generated %dx%d, %d colours, seed %d", ref.Rows, ref.Cols, colours, ref.Seed), nil
}

// emPuzzleJSON is a puzzle as the page draws it.
type emPuzzleJSON struct {
	Ref     emRef    `json:"ref"`
	Name    string   `json:"name"`
	Rows    int      `json:"rows"`
	Cols    int      `json:"cols"`
	Tiles   [][4]int `json:"tiles"`
	Frame   []int    `json:"frame"` // nil: grey
	Hints   [][4]int `json:"hints"` // piece, row, col, rot
	Fixed   bool     `json:"fixed"` // no rotations
	Max     int      `json:"max"`
	Palette []string `json:"palette"` // CSS colour of each colour number
	Board   [][2]int `json:"board"`   // the scrambled start: piece, rot per cell
}

// emBoardJSON writes a board as piece, rotation per cell (-1 empty).
func emBoardJSON(b *edgematch.Board) [][2]int { return catalog.EdgeMatchBoardCells(b) }

func (s *Server) emLoad(r *http.Request) (int, any, error) {
	var req struct {
		Ref  emRef  `json:"ref"`
		Seed uint64 `json:"seed"` // the scramble
	}
	if err := decodeJSON(r, 4<<10, &req); err != nil {
		return 0, nil, err
	}
	p, name, err := s.loadPuzzle(req.Ref)
	if err != nil {
		return 0, nil, err
	}
	out := emPuzzleJSON{Ref: req.Ref, Name: name, Rows: p.Rows, Cols: p.Cols, Fixed: p.FixedOrientation, Max: p.MaxScore(), Hints: [][4]int{}}
	maxC := 0
	for _, t := range p.Tiles {
		out.Tiles = append(out.Tiles, [4]int{int(t[0]), int(t[1]), int(t[2]), int(t[3])})
		for _, c := range t {
			maxC = max(maxC, int(c))
		}
	}
	for _, c := range p.Frame {
		out.Frame = append(out.Frame, int(c))
	}
	for _, h := range p.Hints {
		out.Hints = append(out.Hints, [4]int{h.Piece, h.Row, h.Col, h.Rot})
	}
	for c := 0; c <= maxC; c++ {
		col := edgematch.Palette(edgematch.Colour(c))
		out.Palette = append(out.Palette, fmt.Sprintf("#%02x%02x%02x", col.R, col.G, col.B))
	}
	// The scramble: hints in place, the other pieces shuffled and turned.
	b := edgematch.NewBoard(p.Rows, p.Cols)
	used := map[int]bool{}
	fixed := map[int]bool{}
	for _, h := range p.Hints {
		b.Set(h.Row, h.Col, h.Piece, h.Rot)
		used[h.Piece], fixed[h.Row*p.Cols+h.Col] = true, true
	}
	var free []int
	for i := range p.Tiles {
		if !used[i] {
			free = append(free, i)
		}
	}
	rng := rand.New(rand.NewPCG(req.Seed, 0x65646765))
	rng.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	k := 0
	for cell := range b.Cells {
		if fixed[cell] {
			continue
		}
		rot := 0
		if !p.FixedOrientation {
			rot = rng.IntN(4)
		}
		b.Cells[cell] = edgematch.Placement{Piece: free[k], Rot: rot}
		k++
	}
	out.Board = emBoardJSON(b)
	return http.StatusOK, out, nil
}

// parseEMBoard reads a board sent by the page for p: piece, rotation per
// cell, every piece once (or -1 for an empty cell).
func parseEMBoard(p *edgematch.Puzzle, cells [][2]int) (*edgematch.Board, error) {
	if len(cells) != p.Cells() {
		return nil, errorf(http.StatusBadRequest, "board: %d cells, the puzzle has %d", len(cells), p.Cells())
	}
	b := edgematch.NewBoard(p.Rows, p.Cols)
	seen := map[int]bool{}
	for i, c := range cells {
		if c[0] < 0 {
			continue
		}
		if c[0] >= len(p.Tiles) || c[1] < 0 || c[1] > 3 || seen[c[0]] {
			return nil, errorf(http.StatusBadRequest, "board: cell %d holds %v, not a piece of the puzzle used once", i, c)
		}
		seen[c[0]] = true
		b.Cells[i] = edgematch.Placement{Piece: c[0], Rot: c[1]}
	}
	return b, nil
}

func (s *Server) emBucas(r *http.Request) (int, any, error) {
	var req struct {
		Ref   emRef    `json:"ref"`
		Board [][2]int `json:"board"`
	}
	if err := decodeJSON(r, 64<<10, &req); err != nil {
		return 0, nil, err
	}
	p, name, err := s.loadPuzzle(req.Ref)
	if err != nil {
		return 0, nil, err
	}
	b, err := parseEMBoard(p, req.Board)
	if err != nil {
		return 0, nil, err
	}
	url, err := p.BucasURL(b, name)
	if err != nil {
		return 0, nil, errorf(http.StatusUnprocessableEntity, "%v", err)
	}
	return http.StatusOK, map[string]any{"url": url, "score": p.Score(b).Matched}, nil
}

// emSolveSpec is the spec of an edgematch.solve job as the page sends it:
// the catalogue's job (catalog.EdgeMatchJob) with the puzzle named by ref
// instead of its text; normalize resolves ref at submit, so the job that
// runs is the catalogue's and any worker runs it the same.
type emSolveSpec struct {
	catalog.EdgeMatchJob
	Ref *emRef `json:"ref,omitempty"`
}

// emResult is an edgematch.solve job's result on the page (the
// catalogue's view: the job is the catalogue's with View).
type emResult = catalog.EdgeMatchViewResult

// checkEMSpec reads an edgematch.solve job: the catalogue's job, its
// puzzle's text or a ref the page names it by (resolved here), a solver of
// the catalogue, one worker, no SAT solver command, a wall-clock time
// limit within the server's (0: 60 s).
func (s *Server) checkEMSpec(spec json.RawMessage) (catalog.EdgeMatchJob, error) {
	var req emSolveSpec
	if err := specUnmarshal(spec, &req); err != nil {
		return req.EdgeMatchJob, err
	}
	j := req.EdgeMatchJob
	if j.Solver == "" {
		j.Solver = "partial"
	}
	e, err := catalog.EdgeMatch.Lookup(j.Solver)
	if err != nil {
		return j, errorf(http.StatusBadRequest, "%v", err)
	}
	if err := j.Options.Check(); err != nil {
		return j, errorf(http.StatusBadRequest, "options: %v", err)
	}
	switch {
	case j.Options.SATSolver != "":
		return j, errorf(http.StatusBadRequest, "options: sat_solver: the server runs its own")
	case j.Options.Workers > 1:
		return j, errorf(http.StatusBadRequest, "options: workers: a job here has one")
	}
	j.Options.Workers = 1
	if err := s.pageBudget(&j.Budget, emDefaultTimeout); err != nil {
		return j, err
	}
	if req.Ref != nil {
		p, name, err := s.loadPuzzle(*req.Ref)
		if err != nil {
			return j, err
		}
		var buf strings.Builder
		p.WriteTo(&buf)
		j.Puzzle, j.Name = buf.String(), name
	}
	if j.Start != "" && !e.Anytime {
		return j, errorf(http.StatusBadRequest, "start applies to the anytime searches only (partial, tiles, lns)")
	}
	if _, _, err := j.Parse(); err != nil {
		return j, errorf(http.StatusBadRequest, "%v", err)
	}
	if _, err := catalog.EdgeMatch.New(j.Solver, catalog.EdgeMatchRun{EdgeMatchOptions: j.Options}); err != nil {
		return j, errorf(http.StatusBadRequest, "%v", err)
	}
	return j, nil
}

func edgematchJobs(s *Server) map[string]jobKind {
	return map[string]jobKind{catalog.EdgeMatchKind: catalogJobKind(s, catalog.EdgeMatchKind, s.checkEMSpec,
		func(j catalog.EdgeMatchJob) catalog.Budget { return j.Budget }, func(j *catalog.EdgeMatchJob) { j.View = true })}
}

// edgematchState is a saved edge-matching game.
type edgematchState struct {
	Ref       emRef    `json:"ref"`
	Board     [][2]int `json:"board"`
	Name      string   `json:"name"`
	Moves     int      `json:"moves,omitempty"`
	ElapsedMS int64    `json:"elapsed_ms"`
}

// edgematchSave checks a saved board: the puzzle reference is well formed
// and the board holds each piece at most once. The puzzle itself is not
// read here (saves know no data folder): the page loads it again.
func edgematchSave(st edgematchState) (store.Game, error) {
	if len(st.Board) > edgematch.MaxSide*edgematch.MaxSide || len(st.Name) > 200 || len(st.Ref.File) > 200 || st.Moves < 0 {
		return store.Game{}, errorf(http.StatusBadRequest, "board or name too large")
	}
	if r := st.Ref; r.File == "" && (r.Rows < emMinSide || r.Rows > emMaxGenSide || r.Cols < emMinSide || r.Cols > emMaxGenSide) {
		return store.Game{}, errorf(http.StatusBadRequest, "ref: name a puzzle file or a generated puzzle of %d to %d rows and columns", emMinSide, emMaxGenSide)
	}
	seen := map[int]bool{}
	for _, c := range st.Board {
		if c[0] >= 0 && seen[c[0]] || c[1] < 0 || c[1] > 3 {
			return store.Game{}, errorf(http.StatusBadRequest, "board: a piece twice, or a bad rotation")
		}
		seen[c[0]] = true
	}
	return stored(store.Game{Board: st.Name, Moves: st.Moves}, st, st.ElapsedMS)
}

package web

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"slices"
	"strings"
	"testing"

	"tessera/internal/catalog"
	"tessera/tangram"
)

// tgPicturePNG draws the figure of the page's set named name as a
// picture (tangram.Picture: black on white, turned by angle radians,
// 30 pixels a unit), PNG-encoded.
func tgPicturePNG(t *testing.T, name string, angle float64) []byte {
	t.Helper()
	p, err := tgBoardPuzzle(name, tgFigureOf(t, name).Silhouette)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, tangram.Picture(p, tangram.PictureOptions{Scale: 30, Angle: angle})); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// tgFigureOf returns the figure of the page's set named name.
func tgFigureOf(t *testing.T, name string) tgFigure {
	t.Helper()
	f, ok := tgFindFigure(name)
	if !ok {
		t.Fatalf("no figure %q", name)
	}
	return f
}

// Every figure of the page's set has a known solution on the board's tans
// that tangram.Check accepts, and POST /api/tangram/check says so; a tan
// moved off it is not filled, and the reason is said.
func TestTangramFiguresAndCheck(t *testing.T) {
	s, _ := newServer(t, Config{})
	list := decode[struct {
		Figures []tgFigureJSON
		Pieces  []struct {
			Name  string
			Shape []tgPoint
		}
	}](t, call(t, s, "GET", "/api/tangram/figures", nil), 200)
	if len(list.Figures) < 10 || len(list.Pieces) != 7 || list.Pieces[0].Name != "big1" {
		t.Fatalf("figures %d, pieces %d", len(list.Figures), len(list.Pieces))
	}
	cats := map[string]int{}
	for _, fj := range list.Figures {
		cats[fj.Category]++
		f := tgFigureOf(t, fj.Name)
		f.solution = f.known(t.Context())
		p, err := tgBoardPuzzle(f.Name, f.Silhouette)
		if err != nil || f.solution == nil {
			t.Fatalf("%s: %v (solution %v)", f.Name, err, f.solution != nil)
		}
		if err := tangram.Check(p, f.solution); err != nil {
			t.Fatalf("%s: its known solution on the board: %v", f.Name, err)
		}
		body := map[string]any{"silhouette": fj.Silhouette, "pieces": tgPlacements(f.solution)}
		if got := decode[tgCheckResponse](t, call(t, s, "POST", "/api/tangram/check", body), 200); !got.Filled {
			t.Fatalf("%s: check of the known solution: %+v", f.Name, got)
		}
	}
	if cats["geometric"] < 5 || cats["objects"] < 2 || cats["generated"] < 5 {
		t.Fatalf("categories: %v", cats)
	}
	f := tgFigureOf(t, "house")
	moved := tgPlacements(f.solution)
	moved[3].T[0] += 2 // the square one unit to the right
	got := decode[tgCheckResponse](t, call(t, s, "POST", "/api/tangram/check", map[string]any{"silhouette": tgPolygonOf(f.Silhouette), "pieces": moved}), 200)
	if got.Filled || got.Message == "" {
		t.Fatalf("a tan moved: %+v", got)
	}
	sil := tgPolygonOf(f.Silhouette)
	postBad(t, s, "/api/tangram/check", []badBody{
		{tgJSON(map[string]any{"silhouette": sil, "pieces": moved[:6]}), 400, "pieces: 6, want 7"},
		{tgJSON(map[string]any{"silhouette": sil, "pieces": append(slices.Clone(moved[:6]), tgPlacement{O: 16})}), 400, "orientation 16"},
		{tgJSON(map[string]any{"silhouette": sil[:3], "pieces": moved}), 400, "areas do not add up"},
		{tgJSON(map[string]any{"silhouette": []tgPoint{{1 << 40}}, "pieces": moved}), 400, "beyond"},
		{`{"silhouette": [], "pieces": [], "extra": 1}`, 400, "unknown field"},
	})
}

// A figure of one's own: text with a silhouette line, or drawn corners;
// areas other than the tans' 8, self-crossing outlines and text without a
// silhouette are refused.
func TestTangramOwnFigure(t *testing.T) {
	s, _ := newServer(t, Config{})
	got := decode[tgFigureJSON](t, call(t, s, "POST", "/api/tangram/figure", map[string]any{"text": "# a bar\nname bar\nsilhouette 0 0 4 0 4 2 0 2\n"}), 200)
	if got.Name != "bar" || got.Category != "yours" || len(got.Silhouette) != 4 {
		t.Fatalf("text: %+v", got)
	}
	drawn := []tgPoint{{0, 0, 0, 0}, {0, 0, 4, 0}, {8, 0, 4, 0}, {8, 0, 0, 0}} // clockwise: turned
	got = decode[tgFigureJSON](t, call(t, s, "POST", "/api/tangram/figure", map[string]any{"silhouette": drawn, "name": "drawn"}), 200)
	if got.Name != "drawn" || len(got.Silhouette) != 4 {
		t.Fatalf("drawn: %+v", got)
	}
	// A picture: the house drawn turned, traced into a silhouette of the
	// tans' area that the exact solver fills.
	pic := "data:image/png;base64," + base64.StdEncoding.EncodeToString(tgPicturePNG(t, "house", 0.3))
	traced := decode[tgFigureReply](t, call(t, s, "POST", "/api/tangram/figure", map[string]any{"picture": pic, "name": "house picture"}), 200)
	if traced.Name != "house picture" || traced.Traced == nil || !traced.Traced.Snapped {
		t.Fatalf("picture: %+v %+v", traced.tgFigureJSON, traced.Traced)
	}
	sil, err := tgPolygon(traced.Silhouette)
	if err != nil {
		t.Fatal(err)
	}
	p, err := tgBoardPuzzle("house picture", sil)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := (tangram.Exact{}).Solve(t.Context(), p); err != nil || !res.Solved {
		t.Fatalf("the traced house is not solved: %v", err)
	}
	blank := image.NewGray(image.Rect(0, 0, 40, 40))
	for k := range blank.Pix {
		blank.Pix[k] = 255
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, blank); err != nil {
		t.Fatal(err)
	}
	postBad(t, s, "/api/tangram/figure", []badBody{
		{tgJSON(map[string]any{"picture": "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())}), 400, "picture"},
		{tgJSON(map[string]any{"picture": "not a data url"}), 400, "data URL"},
		{tgJSON(map[string]any{"picture": "data:image/png;base64,AAAA"}), 400, "picture"},
		{tgJSON(map[string]any{"picture": pic, "text": "silhouette 0 0 4 0 4 2 0 2"}), 400, "one of"},
		{tgJSON(map[string]any{"text": "silhouette 0 0 3 0 3 2 0 2"}), 400, "areas do not add up"},
		{tgJSON(map[string]any{"text": "piece a 0 0 1 0 0 1"}), 400, "no silhouette line"},
		{tgJSON(map[string]any{"text": "silhouette 0 0 x 0 4 2"}), 400, "figure"},
		{tgJSON(map[string]any{"silhouette": []tgPoint{{0, 0, 0, 0}, {8, 0, 4, 0}, {8, 0, 0, 0}, {0, 0, 4, 0}}}), 400, "silhouette"},
		{tgJSON(map[string]any{"text": strings.Repeat("#", 70<<10)}), 413, ""},
	})
}

// The catalogue's solvers as tangram.solve jobs on the page's figures:
// the exact solver fills a classic with turns and flips, Algorithm 2 a
// classic with the known orientations and its iterates and strip come
// back; a figure without a known solution is refused to Algorithm 2.
func TestTangramJobs(t *testing.T) {
	s, _ := newServer(t, Config{})
	ts := testServer(t, s)
	for _, c := range []struct{ solver, figure string }{{"exact", "house"}, {"exact", "generated 3"}, {"sdp", "square"}} {
		st := submit(t, s, "tangram.solve", map[string]any{"ref": map[string]any{"figure": c.figure}, "solver": c.solver})
		states := events(t, ts.URL, st.ID)
		last := states[len(states)-1]
		var res tgResult
		if err := json.Unmarshal(last.Result, &res); err != nil || last.State != JobDone {
			t.Fatalf("%s on %s: %+v (%v)", c.solver, c.figure, last, err)
		}
		if !res.Solved || res.Algo != c.solver || len(res.Pieces) != 7 {
			t.Fatalf("%s on %s: %+v", c.solver, c.figure, res.TangramRecord)
		}
		f := tgFigureOf(t, c.figure)
		p, _ := tgBoardPuzzle(f.Name, f.Silhouette)
		sol, err := tgSolution(res.Pieces)
		if err != nil {
			t.Fatal(err)
		}
		if err := tangram.Check(p, sol); err != nil {
			t.Fatalf("%s on %s: the board's solution: %v", c.solver, c.figure, err)
		}
		if c.solver == "sdp" {
			if len(res.Iterates) != res.Iterations || len(res.Iterates[0].Poses) != 7 || !strings.HasPrefix(res.Strip, "data:image/png;base64,") {
				t.Fatalf("sdp: %d iterates for %d SDPs, strip %.30q", len(res.Iterates), res.Iterations, res.Strip)
			}
			// The last iterate's poses are the solution's, on the board.
			final := res.Iterates[len(res.Iterates)-1]
			for k, ps := range final.Poses {
				pl := sol.Placements[k]
				if ps.O != int(pl.Orient) || abs(ps.X-pl.T.X.Float64()) > 0.3 || abs(ps.Y-pl.T.Y.Float64()) > 0.3 {
					t.Fatalf("sdp: piece %d's last pose %+v, placed at %v %v", k, ps, pl.T, pl.Orient)
				}
			}
		}
	}
	drawn := []tgPoint{{0, 0, 0, 0}, {8, 0, 0, 0}, {8, 0, 4, 0}, {0, 0, 4, 0}}
	wantError(t, call(t, s, "POST", "/api/jobs", map[string]any{"kind": "tangram.solve", "spec": map[string]any{"ref": map[string]any{"silhouette": drawn}, "solver": "sdp"}}), 400, "translation only")
	wantError(t, call(t, s, "POST", "/api/jobs", map[string]any{"kind": "tangram.solve", "spec": map[string]any{"ref": map[string]any{"figure": "nosuch"}}}), 400, "no figure")
	wantError(t, call(t, s, "POST", "/api/jobs", map[string]any{"kind": "tangram.solve", "spec": map[string]any{"ref": map[string]any{"figure": "house"}, "options": map[string]any{"sdp": "csdp"}}}), 400, "pure Go")
}

// The server's run of tangram.solve is the catalogue's: a bench's job
// (pieces other than the seven tans) returns the record, and a job with
// View (what the page submits) adds the answer on the page's board.
func TestTangramJobIsTheCatalogues(t *testing.T) {
	s, _ := newServer(t, Config{})
	p, _, err := tangram.Classic("t")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	tangram.FormatPuzzle(&b, p)
	spec := tgJSON(catalog.TangramJob{Spec: catalog.Spec[catalog.TangramOptions]{Solver: "exact"}, Name: "t", Puzzle: b.String()})
	res, err := s.jobKinds[catalog.TangramKind].run(t.Context(), json.RawMessage(spec), nil)
	rec, ok := res.(catalog.TangramRecord)
	if err != nil || !ok || !rec.Solved || rec.Placed != 4 {
		t.Fatalf("the T as a bench's job: %+v (%T), %v", res, res, err)
	}
	// A job of the seven tans (a classic, translation only) with the
	// page's view.
	p, _, err = tangram.Classic("house")
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	tangram.FormatPuzzle(&b, p)
	spec = tgJSON(catalog.TangramJob{Spec: catalog.Spec[catalog.TangramOptions]{Solver: "exact"}, Name: "house", Puzzle: b.String(), View: true})
	res, err = s.jobKinds[catalog.TangramKind].run(t.Context(), json.RawMessage(spec), nil)
	page, ok := res.(tgResult)
	if err != nil || !ok || !page.Solved || page.Placed != 7 || page.Puzzle != "house" || len(page.Pieces) != 7 {
		t.Fatalf("the house with the view: %+v (%T), %v", res, res, err)
	}
}

func tgJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// A saved game is checked: the figure and seven exact tans; whether it is
// filled is decided again.
func TestTangramSave(t *testing.T) {
	s, _ := newServer(t, Config{})
	f := tgFigureOf(t, "boat")
	state := tangramState{Figure: f.json(), Pieces: tgPlacements(f.solution), Moves: 9, ElapsedMS: 1500}
	info := decode[saveInfo](t, call(t, s, "PUT", "/api/tangram/saves/done", state), 200)
	if !info.Solved || info.Moves != 9 || info.Board != "boat" {
		t.Fatalf("saved: %+v", info)
	}
	state.Pieces[0].T[2] += 2
	if info := decode[saveInfo](t, call(t, s, "PUT", "/api/tangram/saves/half", state), 200); info.Solved {
		t.Fatalf("a moved tan saved as solved: %+v", info)
	}
	bad := state
	bad.Pieces = state.Pieces[:5]
	wantError(t, call(t, s, "PUT", "/api/tangram/saves/x", bad), 400, "pieces: 5")
	bad = state
	bad.Figure.Silhouette = bad.Figure.Silhouette[:3]
	wantError(t, call(t, s, "PUT", "/api/tangram/saves/x", bad), 400, "figure")
	bad = state
	bad.Moves = -1
	wantError(t, call(t, s, "PUT", "/api/tangram/saves/x", bad), 400, "moves")
}

// tgMatch finds the orientation and translation of a tan over its image,
// whatever the image's first vertex.
func TestTangramMatch(t *testing.T) {
	for _, tan := range tangram.Tans() {
		for o := range tangram.Orientation(16) {
			sh, err := tan.Shape.Oriented(o)
			if err != nil {
				t.Fatal(err)
			}
			moved := sh.Translate(tangram.Pt(tangram.Half(3, 1), tangram.Half(-2, 5)))
			moved = append(moved[1:], moved[0])
			got, tr, ok := tgMatch(tan.Shape, moved)
			if !ok {
				t.Fatalf("%s %v: no match", tan.Name, o)
			}
			back, _ := tan.Shape.Oriented(got)
			if !tgSameSet(back.Translate(tr), moved) {
				t.Fatalf("%s %v: matched %v at %v", tan.Name, o, got, tr)
			}
		}
	}
	if _, _, ok := tgMatch(tangram.Tans()[0].Shape, tangram.Tans()[2].Shape); ok {
		t.Fatal("the big triangle matched the medium one")
	}
}

func tgSameSet(a, b tangram.Polygon) bool {
	if len(a) != len(b) {
		return false
	}
	for _, p := range a {
		found := false
		for _, q := range b {
			found = found || p == q
		}
		if !found {
			return false
		}
	}
	return true
}

// FuzzTangramFigureText: the figure text parser never panics, and what it
// accepts is a valid silhouette.
func FuzzTangramFigureText(f *testing.F) {
	f.Add("silhouette 0 0 4 0 4 2 0 2")
	f.Add("name x\nsilhouette 0 0 2r2 0 2r2 2r2 0 2r2\n")
	f.Add("silhouette 0 0 1+r2 0.5 0 3")
	f.Fuzz(func(t *testing.T, text string) {
		_, pg, err := tgParseFigure(text)
		if err == nil {
			if err := pg.Validate(); err != nil {
				t.Fatalf("%q: accepted an invalid silhouette: %v", text, err)
			}
		}
	})
}

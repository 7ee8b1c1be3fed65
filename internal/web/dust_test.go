package web

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"tessera/samegame"
	"tessera/samegame/policy"
)

// The source blog's two dust boards (../shared/data/samegame/dust_blog_examples.txt):
// the first needs 11 clicks (the blog's exhaustive DFS proves it), the
// second is hard for a proof (seconds of search).
const (
	blogBoard11 = "GGGGBOYO/RORGYGBY/RRBGOORG/BRBOBYRG/BRYBBRGG/OYGGRORG"
	blogHard    = "OBBGRBRY/GGYYYRGR/GOOYOYOG/OYGGORRO/GOYRYYYY/YRRGOGRY"
	// blogMoves11 is the blog's 11-click solution of blogBoard11.
	blogMoves11 = "7,0 3,1 3,1 2,0 2,1 3,3 5,0 4,0 2,1 2,0 3,0"
)

// replayDust checks that moves clear board and returns their number.
func replayDust(t *testing.T, board, moves string) int {
	t.Helper()
	b, err := samegame.ParseBoard(board, samegame.Dust)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := samegame.ParseMoves(moves)
	if err != nil {
		t.Fatal(err)
	}
	res, err := samegame.Replay(b, ms)
	if err != nil {
		t.Fatalf("moves %q do not replay on %s: %v", moves, board, err)
	}
	if !res.Cleared {
		t.Fatalf("moves %q leave %s", moves, samegame.Line(res.Board, samegame.Letters))
	}
	return res.Clicks
}

func TestDustPage(t *testing.T) {
	s, _ := newServer(t, Config{})
	w := call(t, s, "GET", "/dust", nil)
	if w.Code != 200 {
		t.Fatalf("GET /dust: %d", w.Code)
	}
	body := w.Body.String()
	for _, want := range []string{`data-cols="8"`, `data-rows="6"`, `data-letters="GORYB"`, `/static/js/dust.js`, `value="exact"`, `href="/npuzzle"`, `aria-current="page">Dust game`} {
		if !strings.Contains(body, want) {
			t.Errorf("the dust page lacks %s", want)
		}
	}
	if w := call(t, s, "GET", "/static/js/dust.js", nil); w.Code != 200 || !strings.Contains(w.Body.String(), "function click(") {
		t.Errorf("GET dust.js: %d", w.Code)
	}
}

func TestDustDeal(t *testing.T) {
	s, _ := newServer(t, Config{})
	// `tessera samegame generate -seed 3` prints this board first.
	d := decode[dealResponse](t, call(t, s, "POST", "/api/dust/deal", `{"seed": 3}`), 200)
	if want := "BGYGYBRB/BROGBGRR/OOYBRRRB/BGBOBGYR/GGGGBOGG/OBYGYYYR"; d.Board != want || d.Seed != 3 {
		t.Errorf("deal seed 3: %+v, want %s", d, want)
	}
	a := decode[dealResponse](t, call(t, s, "POST", "/api/dust/deal", `{}`), 200)
	b := decode[dealResponse](t, call(t, s, "POST", "/api/dust/deal", map[string]any{"seed": a.Seed}), 200)
	if a != b {
		t.Errorf("a fresh deal %+v is not the deal of its seed %+v", a, b)
	}
	// Seeds travel as strings: a browser keeps 53 bits of a number. The
	// largest seed comes back whole, and a number still reads.
	w := call(t, s, "POST", "/api/dust/deal", `{"seed": "18446744073709551615"}`)
	if !strings.Contains(w.Body.String(), `"seed":"18446744073709551615"`) {
		t.Errorf("the largest seed: %s", w.Body)
	}
	big := decode[dealResponse](t, w, 200)
	if n := decode[dealResponse](t, call(t, s, "POST", "/api/dust/deal", `{"seed": 18446744073709551615}`), 200); n != big {
		t.Errorf("the seed as a number %+v, as a string %+v", n, big)
	}
	if big.Board != dustLine(dealDust(1<<64-1)) {
		t.Errorf("seed 2^64-1 dealt %s", big.Board)
	}
	wantError(t, call(t, s, "POST", "/api/dust/deal", `{"seed": -1}`), 400, "seed")
	wantError(t, call(t, s, "POST", "/api/dust/deal", `{"seed": "18446744073709551616"}`), 400, "seed")
	wantError(t, call(t, s, "POST", "/api/dust/deal", `{"size": "9x9"}`), 400, "unknown field")
}

func TestDustSolve(t *testing.T) {
	skipGomlxUnderRace(t)
	// Generous limits: the proof takes well under a second on a quiet
	// machine, and the test is about the answers, not the machine's load.
	s, _ := newServer(t, Config{SolveTimeout: time.Minute, MaxSolveTimeout: time.Minute})
	solve := func(body any) dustSolveResponse {
		t.Helper()
		return decode[dustSolveResponse](t, call(t, s, "POST", "/api/dust/solve", body), 200)
	}
	res := solve(map[string]any{"board": blogBoard11, "solver": "exact"})
	if !res.Cleared || !res.Optimal || res.Clicks != 11 || res.Limit != "" || res.Nodes == 0 {
		t.Fatalf("exact on the blog's board: %+v, want 11 clicks proven", res)
	}
	if n := replayDust(t, blogBoard11, res.Moves); n != 11 {
		t.Errorf("the moves make %d clicks", n)
	}
	// The proof is remembered: asking again costs no search.
	again := solve(map[string]any{"board": blogBoard11})
	if again.Moves != res.Moves || !again.Reused || again.MS != res.MS || again.Solver != "exact" {
		t.Errorf("second ask: %+v, want the remembered proof", again)
	}
	// Every solver clears the board, in no fewer clicks than the optimum:
	// the searches within a second, the network solvers (catalog.SameGame's
	// nn-*, one pass each, whose first call also compiles the network)
	// within ten.
	for _, sv := range dustSolvers[1:] {
		ms := 1000
		if strings.HasPrefix(sv.ID, "nn") {
			ms = 10000
		}
		r := solve(map[string]any{"board": blogBoard11, "solver": sv.ID, "timeout_ms": ms})
		if !r.Cleared || r.Clicks < 11 || replayDust(t, blogBoard11, r.Moves) != r.Clicks {
			t.Errorf("%s: %+v", sv.ID, r)
		}
		if r.Optimal && r.Clicks != 11 {
			t.Errorf("%s claims %d clicks optimal", sv.ID, r.Clicks)
		}
	}
	// A proof cut short by its time limit is an answer, not an error.
	r := solve(map[string]any{"board": blogHard, "solver": "exact", "timeout_ms": 20})
	if r.Optimal || r.Limit != "time" || !strings.Contains(r.Error, "within 20ms") {
		t.Errorf("exact with 20 ms on a hard board: %+v", r)
	}
	// A board with empty cells, as play leaves them.
	part := solve(map[string]any{"board": "......../......../......../......../...GR.../..GGRR..", "solver": "exact"})
	if !part.Optimal || part.Clicks != 2 {
		t.Errorf("two clusters: %+v", part)
	}
}

func TestDustSolveErrors(t *testing.T) {
	s, _ := newServer(t, Config{})
	postBad(t, s, "/api/dust/solve", []badBody{
		{map[string]any{"board": blogBoard11, "solver": "magic"}, 400, `unknown solver "magic"`},
		{map[string]any{"board": blogBoard11, "timeout_ms": 5}, 400, "timeout_ms 5 out of range"},
		{map[string]any{"board": blogBoard11, "timeout_ms": 3600000}, 400, "out of range"},
		{map[string]any{"board": "GGGGBOYOG/RORGYGBYR"}, 400, "bad board"},
		{map[string]any{"board": strings.Repeat("G", 9) + "/" + strings.Repeat("G", 9)}, 400, "larger than 8x6"},
		{map[string]any{"board": "GGGGBOYO/RORGYGBY/RRBGOORG/BRBOBYRG/BRYBBRGG/OYGGRORG/GGGGGGGG"}, 400, "larger than 8x6"},
		{map[string]any{"board": "G......./GGGGBOYO"}, 400, "packed toward the centre"},
		{map[string]any{"board": "..GG..../...G...."}, 400, "empty below a filled cell"},
		{map[string]any{"board": "GGGGBOYX/RORGYGBY"}, 400, "bad board"},
		{map[string]any{"board": ""}, 400, "bad board"},
		{`{"board": "GG/GG", "extra": 1}`, 400, "unknown field"},
	})
	wantError(t, call(t, s, "POST", "/api/dust/hint", map[string]any{"board": blogBoard11, "solver": "dfs"}), 400, "only a board")
	wantError(t, call(t, s, "POST", "/api/dust/hint", map[string]any{"board": "......../........"}), 422, "already cleared")
}

func TestDustHint(t *testing.T) {
	// The proof takes well under a second on a quiet machine; the generous
	// limit keeps the test about the answer, not the machine's load.
	s, _ := newServer(t, Config{HintTimeout: time.Minute})
	h := decode[dustHintResponse](t, call(t, s, "POST", "/api/dust/hint", map[string]any{"board": blogBoard11}), 200)
	if !h.Optimal || h.Clicks != 11 || !strings.Contains(h.Message, "11 clicks to go (the fewest)") {
		t.Fatalf("hint: %+v", h)
	}
	// The hinted click starts the solution sent with it.
	if first := strings.Fields(h.Moves)[0]; first != (samegame.Move{X: int8(h.X), Y: int8(h.Y)}).String() {
		t.Errorf("hint clicks %d,%d, the solution starts with %s", h.X, h.Y, first)
	}
	b, _ := samegame.ParseBoard(blogBoard11, samegame.Dust)
	if g, ok := b.GroupAt(h.X, h.Y); !ok || int(g.Size) != h.Size || !strings.Contains(h.Message, dustColorName(g.Color)) {
		t.Errorf("hint names the %d-cell cluster at %d,%d: %+v", h.Size, h.X, h.Y, g)
	}
	replayDust(t, blogBoard11, h.Moves)

	// With too little time for a proof the hint comes from the DFS, and
	// says it is not proven.
	quick, _ := newServer(t, Config{HintTimeout: 30_000_000}) // 30 ms
	q := decode[dustHintResponse](t, call(t, quick, "POST", "/api/dust/hint", map[string]any{"board": blogHard}), 200)
	if !q.Cleared || q.Optimal || !strings.Contains(q.Message, "not proven the fewest") {
		t.Errorf("quick hint on a hard board: %+v", q)
	}
	replayDust(t, blogHard, q.Moves)
}

// certaintyOf returns the shipped network's certainty board of a dust
// board and its largest probability.
func certaintyOf(t *testing.T, board string) ([]float64, float64) {
	t.Helper()
	b, err := samegame.ParseBoard(board, samegame.Dust)
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	cells, err := p.Certainty(b)
	if err != nil {
		t.Fatal(err)
	}
	best := 0.0
	for _, v := range cells {
		best = max(best, v)
	}
	return cells, best
}

// TestDustCertainty: the certainty board of the blog's first board is the
// shipped network's (policy.Policy.Certainty), cell by cell, with its
// best; a cleared or malformed board is refused.
func TestDustCertainty(t *testing.T) {
	s, _ := newServer(t, Config{})
	c := decode[dustCertaintyResponse](t, call(t, s, "POST", "/api/dust/certainty", map[string]any{"board": blogBoard11}), 200)
	want, best := certaintyOf(t, blogBoard11)
	if c.Board != blogBoard11 || len(c.Cells) != len(want) {
		t.Fatalf("certainty of %s: %d cells, want %d", c.Board, len(c.Cells), len(want))
	}
	for i, v := range want {
		if math.Abs(c.Cells[i]-v) > 1e-9 {
			t.Fatalf("cell %d: %v, want %v", i, c.Cells[i], v)
		}
	}
	if c.Best != best || best <= 0 || best > 1 {
		t.Errorf("best %v, want %v", c.Best, best)
	}
	wantError(t, call(t, s, "POST", "/api/dust/certainty", map[string]any{"board": "......../........"}), 422, "already cleared")
	wantError(t, call(t, s, "POST", "/api/dust/certainty", map[string]any{"board": "GGX"}), 400, "bad board")
}

func TestDustSaves(t *testing.T) {
	s, _ := newServer(t, Config{})
	put := func(name string, st dustState) *dustState {
		t.Helper()
		w := call(t, s, "PUT", "/api/dust/saves/"+name, st)
		if w.Code != 200 {
			wantError(t, w, w.Code, "")
			return nil
		}
		g := decode[savedGame](t, call(t, s, "GET", "/api/dust/saves/"+name, nil), 200)
		var got dustState
		if err := json.Unmarshal(g.State, &got); err != nil {
			t.Fatal(err)
		}
		return &got
	}
	// Half way through the blog's solution.
	half := strings.Join(strings.Fields(blogMoves11)[:5], " ")
	st := put("half", dustState{Start: blogBoard11, History: half, Seed: 0, ElapsedMS: 1234})
	if st == nil || st.History != half || st.Board == "" || st.Board == blogBoard11 {
		t.Fatalf("saved half game: %+v", st)
	}
	// The whole solution: a cleared board is a solved game.
	if st := put("done", dustState{Start: blogBoard11, History: blogMoves11}); st == nil || st.Board != "......../......../......../......../......../........" {
		t.Fatalf("saved solved game: %+v", st)
	}
	list := decode[savesList](t, call(t, s, "GET", "/api/dust/saves", nil), 200).Saves
	if len(list) != 2 {
		t.Fatalf("saves: %+v", list)
	}
	for _, si := range list {
		if si.Solved != (si.Name == "done") || (si.Name == "half" && (si.Moves != 5 || si.ElapsedMS != 1234)) {
			t.Errorf("save %+v", si)
		}
	}
	// The sliding puzzle's saves are apart.
	if l := decode[savesList](t, call(t, s, "GET", "/api/npuzzle/saves", nil), 200).Saves; len(l) != 0 {
		t.Errorf("npuzzle saves: %+v", l)
	}
	for _, c := range []struct {
		st   dustState
		want string
	}{
		{dustState{Start: blogBoard11, History: "9,9"}, "history"},
		{dustState{Start: blogBoard11, History: "7,5 7,5 7,5 7,5 7,5 7,5 7,5"}, "history"},
		{dustState{Start: blogBoard11, History: "nonsense"}, "history"},
		{dustState{Start: blogBoard11, History: "7,0", Board: blogBoard11}, "not where the history leads"},
		{dustState{Start: "GGG/GG"}, "start"},
		{dustState{Start: blogBoard11, ElapsedMS: -1}, "negative"},
	} {
		wantError(t, call(t, s, "PUT", "/api/dust/saves/bad", c.st), 400, c.want)
	}
}

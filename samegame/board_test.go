package samegame

import (
	"bufio"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// readSet parses a file of testdata.
func readSet(t testing.TB, name string, rules Rules) []Entry {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	es, err := ParseSet(f, rules)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// trace is a recorded game with every intermediate board.
type trace struct {
	name   string
	start  *Board
	clicks []Move
	after  []*Board
}

// readTraces reads testdata/dust_blog_traces.txt.
func readTraces(t *testing.T) []trace {
	f, err := os.Open("testdata/dust_blog_traces.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var traces []trace
	var rows []string
	flush := func() {
		if len(rows) == 0 {
			return
		}
		b, err := ParseBoard(strings.Join(rows, "\n"), Dust)
		if err != nil {
			t.Fatalf("%s: %v", traces[len(traces)-1].name, err)
		}
		tr := &traces[len(traces)-1]
		if tr.start == nil {
			tr.start = b
		} else {
			tr.after = append(tr.after, b)
		}
		rows = rows[:0]
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		f := strings.Fields(line)
		switch {
		case line == "" || line[0] == '#':
		case f[0] == "trace":
			flush()
			traces = append(traces, trace{name: f[1]})
		case f[0] == "click":
			flush()
			x, _ := strconv.Atoi(f[1])
			y, _ := strconv.Atoi(f[2])
			traces[len(traces)-1].clicks = append(traces[len(traces)-1].clicks, Move{int8(x), int8(y)})
		default:
			rows = append(rows, line)
		}
	}
	flush()
	return traces
}

// TestBlogTraces replays both of the blog's dust games and compares every
// intermediate board with the one the blog printed.
func TestBlogTraces(t *testing.T) {
	traces := readTraces(t)
	if len(traces) != 2 {
		t.Fatalf("%d traces", len(traces))
	}
	examples := readSet(t, "dust_blog_examples.txt", Dust)
	for i, tr := range traces {
		if len(tr.after) != len(tr.clicks) {
			t.Fatalf("%s: %d boards for %d clicks", tr.name, len(tr.after), len(tr.clicks))
		}
		if !tr.start.Equal(examples[i].Board) {
			t.Fatalf("%s: start differs from the shared file's board", tr.name)
		}
		g := NewGame(tr.start)
		for k, m := range tr.clicks {
			grp, err := g.Play(m)
			if err != nil {
				t.Fatalf("%s click %d: %v", tr.name, k+1, err)
			}
			if rec := examples[i].Moves[k]; rec.Move != m || rec.Color != grp.Color || rec.Size != int(grp.Size) {
				t.Errorf("%s click %d: removed %c(%d), the file records %v %c(%d)", tr.name, k+1,
					LetterColors[grp.Color], grp.Size, rec.Move, LetterColors[rec.Color], rec.Size)
			}
			if !g.Board().Equal(tr.after[k]) {
				t.Fatalf("%s after click %d (%v):\n%s\nblog:\n%s", tr.name, k+1, m, Format(g.Board(), Letters), Format(tr.after[k], Letters))
			}
		}
		if !g.Board().IsEmpty() || !g.Over() || g.Clicks() != len(tr.clicks) {
			t.Fatalf("%s: not cleared", tr.name)
		}
	}
}

// TestStandardGamesReplay replays recorded CodinGame games on the standard
// set to their recomputed scores.
func TestStandardGamesReplay(t *testing.T) {
	set := readSet(t, "standard20.txt", Standard)
	if len(set) != 20 {
		t.Fatalf("%d positions", len(set))
	}
	f, err := os.Open("testdata/standard_games.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type game struct {
		pos, score, left int
		text             strings.Builder
	}
	var games []*game
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "game ") {
			var g game
			f := strings.Fields(line)
			g.pos, _ = strconv.Atoi(f[1])
			g.score, _ = strconv.Atoi(f[3])
			g.left, _ = strconv.Atoi(f[5])
			games = append(games, &g)
			continue
		}
		games[len(games)-1].text.WriteString(line + "\n")
	}
	for _, g := range games {
		moves, err := ParseMoves(g.text.String())
		if err != nil {
			t.Fatal(err)
		}
		e := set[g.pos-1]
		if e.Name != "position "+strconv.Itoa(g.pos) {
			t.Fatalf("entry %q", e.Name)
		}
		res, err := Replay(e.Board, moves)
		if err != nil {
			t.Fatalf("position %d: %v", g.pos, err)
		}
		if res.Score != g.score || res.Board.Cells() != g.left || !res.Over || res.Cleared != (g.left == 0) {
			t.Errorf("position %d: score %d, %d left, over %v; want %d, %d left", g.pos, res.Score, res.Board.Cells(), res.Over, g.score, g.left)
		}
		// The same list with the rows flipped must fail at once (orientation check).
		flipped := make([]Move, len(moves))
		for i, m := range moves {
			flipped[i] = Move{m.X, 14 - m.Y}
		}
		if _, err := Replay(e.Board, flipped); err == nil {
			t.Errorf("position %d: flipped moves replay", g.pos)
		}
	}
}

func TestStandardSetProperties(t *testing.T) {
	set := readSet(t, "standard20.txt", Standard)
	for i, e := range set {
		b := e.Board
		if b.Width() != 15 || b.Height() != 15 || b.Cells() != 225 || b.Colors() != 5 || e.Notation != Digits {
			t.Fatalf("%s: %dx%d, %d cells, %d colours", e.Name, b.Width(), b.Height(), b.Cells(), b.Colors())
		}
		n := b.ColorCounts()
		switch {
		case i >= 10 && i < 15:
			for c := range 5 {
				if n[c] != 45 {
					t.Errorf("%s: colour %d has %d cells", e.Name, c, n[c])
				}
			}
		case i >= 15:
			dominant := (i - 15 + 1) % 5
			for c := range 5 {
				want := 40
				if c == dominant {
					want = 65
				}
				if n[c] != want {
					t.Errorf("%s: colour %d has %d cells, want %d", e.Name, c, n[c], want)
				}
			}
		}
	}
	// First row listed is the top: position 1's top-left cell is 3, bottom-left 1.
	if b := set[0].Board; b.At(0, 14) != 3 || b.At(0, 0) != 1 || b.At(14, 0) != 2 {
		t.Fatalf("orientation: %d %d %d", b.At(0, 14), b.At(0, 0), b.At(14, 0))
	}
}

// TestUndoRestores plays random games and undoes them, checking that every
// board comes back exactly, hashes included.
func TestUndoRestores(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, rules := range []Rules{Standard, Dust} {
		for range 50 {
			b := Random(1+rng.IntN(12), 1+rng.IntN(12), 1+rng.IntN(6), rules, rng)
			g := NewGame(b)
			var boards []Board
			var scores []int
			for !g.Over() {
				moves := g.Board().Moves(nil)
				boards = append(boards, *g.Board())
				scores = append(scores, g.Score())
				m := moves[rng.IntN(len(moves))]
				if _, err := g.Play(m.Move()); err != nil {
					t.Fatal(err)
				}
			}
			for i := len(boards) - 1; i >= 0; i-- {
				if !g.Undo() {
					t.Fatal("undo failed")
				}
				if !g.Board().Equal(&boards[i]) || g.Board().Hash() != boards[i].Hash() || g.Score() != scores[i] || g.Clicks() != i {
					t.Fatalf("undo %d does not restore the board", i)
				}
			}
			if g.Undo() {
				t.Fatal("undo past the start")
			}
		}
	}
}

// TestPlayGroupMatchesPlay checks the fast path against the checked one and
// the settled invariants after every click.
func TestPlayGroupMatchesPlay(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, rules := range []Rules{Standard, Dust} {
		for range 100 {
			b := Random(1+rng.IntN(MaxSize), 1+rng.IntN(MaxSize), 1+rng.IntN(MaxColors), rules, rng)
			total := b.Cells()
			for !b.GameOver() {
				moves := b.Moves(nil)
				sum := 0
				for _, m := range moves {
					sum += int(m.Size)
					g, ok := b.GroupAt(int(m.X), int(m.Y))
					if !ok || g != m {
						t.Fatalf("GroupAt %v = %v, want %v", m.Move(), g, m)
					}
				}
				if rules == Dust && sum != b.Cells() {
					t.Fatalf("groups cover %d of %d cells", sum, b.Cells())
				}
				m := moves[rng.IntN(len(moves))]
				c := *b
				g, err := c.Play(m.Move())
				if err != nil || g != m {
					t.Fatalf("Play %v: %v %v", m, g, err)
				}
				if n := b.PlayGroup(m); n != int(m.Size) {
					t.Fatalf("removed %d, group of %d", n, m.Size)
				}
				if !b.Equal(&c) {
					t.Fatal("PlayGroup and Play differ")
				}
				if err := b.checkSettled(); err != nil {
					t.Fatal(err)
				}
				total -= int(m.Size)
				if b.Cells() != total {
					t.Fatalf("%d cells, want %d", b.Cells(), total)
				}
			}
		}
	}
}

func TestPlayErrors(t *testing.T) {
	b, err := ParseBoard("1 2/1 1", Standard)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		m    Move
		want string
	}{
		{Move{1, 1}, "single cell"},
		{Move{2, 0}, "off the"},
		{Move{-1, 0}, "off the"},
	} {
		if _, err := b.Clone().Play(c.m); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Play %v: %v, want %q", c.m, err, c.want)
		}
	}
	g := NewGame(b)
	if _, err := g.Play(Move{0, 0}); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Play(Move{1, 0}); err == nil || !strings.Contains(err.Error(), "empty cell") {
		t.Fatalf("click on an emptied cell: %v", err)
	}
	if g.Score() != 1 || !g.Over() {
		t.Fatalf("score %d over %v", g.Score(), g.Over())
	}
	if _, err := Replay(b, []Move{{0, 0}, {1, 1}}); err == nil || !strings.Contains(err.Error(), "move 2") {
		t.Fatalf("Replay error %v", err)
	}
	if res, _ := Replay(b, []Move{{0, 0}}); res.Score != 1 || res.Cleared {
		t.Fatalf("replay %+v", res)
	}
	c, _ := ParseBoard("1 1/1 1", Standard)
	if res, _ := Replay(c, []Move{{1, 1}}); res.Score != 4+ClearBonus || !res.Cleared {
		t.Fatalf("cleared replay %+v", res)
	}
}

func TestRules(t *testing.T) {
	// Standard: cells fall, an emptied column is closed up from the right.
	s, err := ParseBoard("1 2 2 ./1 3 3 4", Standard)
	if err != nil {
		t.Fatal(err)
	}
	g := NewGame(s)
	for _, c := range []struct {
		m    Move
		want string
	}{
		{Move{0, 0}, "2 2 . ./3 3 4 ."},
		{Move{1, 0}, ". . . ./2 2 4 ."},
		{Move{0, 0}, ". . . ./4 . . ."},
	} {
		if _, err := g.Play(c.m); err != nil {
			t.Fatal(err)
		}
		if got := Line(g.Board(), Digits); got != c.want {
			t.Fatalf("after %v: %q, want %q", c.m, got, c.want)
		}
	}
	if !g.Over() || g.Score() != 0 || g.Board().IsEmpty() {
		t.Fatalf("over %v score %d", g.Over(), g.Score())
	}
	// Dust: remove the B under the R; the R falls, and in row 1 the G
	// (column 2) slides right onto it: rows are packed, columns sheared.
	d, err := ParseBoard("..GR..../..OBY...", Dust)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Play(Move{3, 0}); err != nil {
		t.Fatal(err)
	}
	if got := Line(d, Letters); got != "...G..../..ORY..." {
		t.Fatalf("dust: %q", got)
	}
	if _, err := d.Play(Move{4, 0}); err != nil {
		t.Fatal(err)
	}
	if d.Cells() != 3 || d.At(4, 0) != Empty {
		t.Fatalf("dust single click: %q", Line(d, Letters))
	}
}

// TestParseErrors checks that bad files and illegal move lists are refused
// with an error that says where and why.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"position 1\n1 2 3\n3 2\n", "line 3: position 1: ragged rows"},
		{"position 1\n1 2 X\n3 2 1\n", "line 2: position 1: unknown colour 'X' in column 2"},
		{"example e\nboard\nGGOX\nROOY\n", "line 3: example e: unknown colour 'X' in column 3"},
		{"position 1\n" + strings.Repeat("1 ", 21) + "\n", "line 2: position 1: row has 21 cells, more than 20"},
		{"position 1\n" + strings.Repeat("1 1\n", 21), "line 22: position 1: board has more than 20 rows"},
		{"position 1\n1 2 3 4 5 6 7 8 9 10 11\n", `cell "10" is not one character`},
		{"example x\nboard\nGGOO\nROOY\nmoves 2\n0 0\n", "1 moves missing"},
	} {
		_, err := ParseSet(strings.NewReader(c.text), Standard)
		if err == nil || !strings.HasPrefix(err.Error(), "samegame: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseSet(%q) = %v, want an error with %q", c.text, err, c.want)
		}
	}
	b, err := ParseBoard("1 1 2/2 3 3", Standard)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		moves []Move
		want  string
	}{
		{[]Move{{0, 1}, {0, 0}}, "move 2: click (0,0) is on a single cell"},
		{[]Move{{3, 0}}, "move 1:"},
		{[]Move{{0, 1}, {0, 5}}, "move 2:"},
	} {
		if _, err := Replay(b, c.moves); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Replay(%v) = %v, want an error with %q", c.moves, err, c.want)
		}
	}
}

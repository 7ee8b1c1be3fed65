package play

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	"tessera/samegame"
	"tessera/samegame/policy"
)

// SameGame is a cluster-clearing game in the terminal, with hints.
//
// Keys: arrows or W A S D move the cursor; space or enter clicks the group
// under it; u undoes a click; r restarts; n draws a new random board; h
// hints the next click (a short search: exact or DFS for dust, NRPA for
// standard) and moves the cursor there; a plays the hinted line to the
// end; p shows the certainty board (dust boards of the shipped network's
// size: each cell marked with the network's probability that
// its group is the click to make, in percent, as in the source blog's
// figure); q quits.
type SameGame struct {
	// Board is the board to play first (nil: a random one).
	Board *samegame.Board
	// Rules, W, H and Colors are those of the random boards; W or H 0
	// means the rules' usual size, 15x15 for standard, 8x6 for dust.
	Rules        samegame.Rules
	W, H, Colors int
	// Seed draws the random boards and the hints' seeds.
	Seed uint64
	// Think is the time of a hint's search, Delay the pause between the
	// clicks of the a key.
	Think, Delay time.Duration
	// Certainty starts with the certainty board shown (the p key).
	Certainty bool
}

// Run plays until q, Ctrl-C, the end of in or of ctx. When in is a
// terminal it is put in raw mode and the screen redrawn in place.
func (s SameGame) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	if s.W == 0 || s.H == 0 {
		s.W, s.H = 15, 15
		if s.Rules == samegame.Dust {
			s.W, s.H = 8, 6
		}
	}
	g := &sgPlay{rules: s.Rules, w: s.W, h: s.H, colors: s.Colors, rng: rand.New(rand.NewPCG(s.Seed, 0x706c6179)),
		think: s.Think, delay: s.Delay, eol: "\n", certainty: s.Certainty}
	if s.Board != nil {
		g.rules, g.w, g.h = s.Board.Rules(), s.Board.Width(), s.Board.Height()
		g.start(s.Board)
	} else {
		g.newBoard()
	}
	return g.loop(ctx, in, out)
}

// sgPlay is a game in progress.
type sgPlay struct {
	rules        samegame.Rules
	w, h, colors int
	rng          *rand.Rand
	initial      *samegame.Board
	game         *samegame.Game
	cx, cy       int // cursor: column, row from the bottom
	msg          string
	hint         []samegame.Move // the rest of the hinted line
	think, delay time.Duration
	eol          string
	clear        bool
	certainty    bool // show the network's certainty board
}

func (g *sgPlay) newBoard() {
	g.start(samegame.Random(g.w, g.h, g.colors, g.rules, g.rng))
	g.msg = "new board"
}

func (g *sgPlay) start(b *samegame.Board) {
	g.initial = b
	g.game = samegame.NewGame(b)
	g.cx, g.cy, g.hint = 0, 0, nil
	g.msg = ""
}

// click removes the group under the cursor.
func (g *sgPlay) click() {
	m := samegame.Move{X: int8(g.cx), Y: int8(g.cy)}
	grp, err := g.game.Play(m)
	if err != nil {
		g.msg = strings.TrimPrefix(err.Error(), "samegame: ")
		return
	}
	if len(g.hint) > 0 && g.hint[0] == grp.Move() {
		g.hint = g.hint[1:]
	} else {
		g.hint = nil
	}
	pts := g.rules.Points(int(grp.Size))
	g.msg = fmt.Sprintf("removed %d", grp.Size)
	if g.rules == samegame.Standard {
		g.msg += fmt.Sprintf(" for %d points", pts)
	}
	b := g.game.Board()
	g.cx = min(g.cx, b.Width()-1)
	for g.cy > 0 && b.At(g.cx, g.cy) == samegame.Empty {
		g.cy--
	}
	if g.game.Over() {
		if b.IsEmpty() {
			g.msg = fmt.Sprintf("*** Cleared in %d clicks! ***", g.game.Clicks())
			if g.rules == samegame.Standard {
				g.msg += fmt.Sprintf(" Score %d with the bonus.", g.game.Score())
			}
		} else {
			g.msg = fmt.Sprintf("Game over: score %d, %d cells left.", g.game.Score(), b.Cells())
		}
		g.msg += " n new board, r restart, u undo, q quit"
	}
}

// findHint searches for a good line from the current board.
func (g *sgPlay) findHint(ctx context.Context) {
	b := g.game.Board()
	if g.game.Over() {
		g.msg = "the game is over"
		return
	}
	var solver samegame.Solver = samegame.NRPA{Level: 2, MC: samegame.MC{Seed: g.rng.Uint64(), Restart: true}}
	if g.rules == samegame.Dust {
		solver = samegame.Exact{}
		if b.Width()*b.Height() > 64 {
			solver = samegame.DFS{}
		}
	}
	sctx, cancel := context.WithTimeout(ctx, g.think)
	sol, err := solver.Solve(sctx, b)
	cancel()
	if len(sol.Moves) == 0 {
		g.msg = "no hint"
		if err != nil {
			g.msg += ": " + err.Error()
		}
		return
	}
	g.hint = sol.Moves
	g.cx, g.cy = int(sol.Moves[0].X), int(sol.Moves[0].Y)
	switch {
	case g.rules == samegame.Dust && sol.Optimal:
		g.msg = fmt.Sprintf("hint: click %v; %d clicks to go (optimal)", sol.Moves[0], sol.Clicks)
	case g.rules == samegame.Dust:
		g.msg = fmt.Sprintf("hint: click %v; %d clicks to go (not proven optimal)", sol.Moves[0], sol.Clicks)
	default:
		g.msg = fmt.Sprintf("hint: click %v; the line found scores %d more (nrpa)", sol.Moves[0], sol.Score)
	}
}

// certaintyBoard returns the shipped dust network's certainty board of b
// (policy.Policy.Certainty).
func certaintyBoard(b *samegame.Board) ([]float64, error) {
	p, err := policy.Default()
	if err != nil {
		return nil, err
	}
	return p.Certainty(b)
}

// certColors are the 256-colour backgrounds of the certainty, in tenths of
// the board's best: dark red to bright green.
var certColors = [10]int{52, 88, 124, 130, 136, 142, 106, 70, 34, 46}

// ansi colours of the cells (background), then the letters.
var sgColors = [samegame.MaxColors]string{"42", "43;1", "41", "103", "44", "45", "46", "105", "47", "100"}

// render draws the board, the cursor and the status.
func (g *sgPlay) render() string {
	var sb strings.Builder
	if g.clear {
		sb.WriteString("\x1b[H\x1b[2J")
	}
	b := g.game.Board()
	var cert []float64
	best := 0.0
	if g.certainty {
		var err error
		if cert, err = certaintyBoard(b); err != nil {
			g.certainty, g.msg = false, "no certainty board: "+strings.TrimPrefix(err.Error(), "policy: ")
		}
		for _, v := range cert {
			best = max(best, v)
		}
	}
	for y := b.Height() - 1; y >= 0; y-- {
		fmt.Fprintf(&sb, "%2d ", y)
		for x := range b.Width() {
			c := b.At(x, y)
			l, r := " ", " "
			if x == g.cx && y == g.cy {
				l, r = "[", "]"
			}
			switch {
			case c == samegame.Empty:
				sb.WriteString(l + "." + r)
			case cert != nil:
				v := cert[y*b.Width()+x]
				pct := fmt.Sprintf("%s%02d", l, min(int(v*100+0.5), 99))
				if g.clear {
					fmt.Fprintf(&sb, "\x1b[48;5;%dm\x1b[97m%s\x1b[0m", certColors[min(int(v/best*10), 9)], pct)
				} else {
					sb.WriteString(pct)
				}
			case g.clear:
				fmt.Fprintf(&sb, "\x1b[%sm%s%c%s\x1b[0m", sgColors[c], l, samegame.LetterColors[c], r)
			default:
				fmt.Fprintf(&sb, "%s%c%s", l, samegame.LetterColors[c], r)
			}
		}
		sb.WriteString(g.eol)
	}
	sb.WriteString("   ")
	for x := range b.Width() {
		fmt.Fprintf(&sb, "%2d ", x)
	}
	sb.WriteString(g.eol)
	if g.rules == samegame.Dust {
		fmt.Fprintf(&sb, "dust: %d clicks, %d cells left%s", g.game.Clicks(), b.Cells(), g.eol)
	} else {
		fmt.Fprintf(&sb, "standard: score %d, %d clicks, %d cells left%s", g.game.Score(), g.game.Clicks(), b.Cells(), g.eol)
	}
	if cert != nil {
		sb.WriteString("certainty: the network's probability (%) that the cell's group is the click to make; [ marks the cursor" + g.eol)
	}
	sb.WriteString("arrows/WASD move  space click  u undo  r restart  n new  h hint  a auto  p certainty  q quit" + g.eol)
	if g.msg != "" {
		sb.WriteString(g.msg + g.eol)
	}
	return sb.String()
}

// move moves the cursor by (dx, dy), staying on the board.
func (g *sgPlay) move(dx, dy int) {
	b := g.game.Board()
	g.cx = min(max(g.cx+dx, 0), b.Width()-1)
	g.cy = min(max(g.cy+dy, 0), b.Height()-1)
}

// loop runs the game on in and out until q, Ctrl-C or the end of input.
func (g *sgPlay) loop(ctx context.Context, in io.Reader, out io.Writer) error {
	if g.msg == "" {
		g.msg = "clear the board: " + map[samegame.Rules]string{samegame.Standard: "big groups score (n-2)^2", samegame.Dust: "in as few clicks as you can"}[g.rules]
	}
	return keyLoop(ctx, in, out, func() { g.eol, g.clear = "\r\n", true }, g.render, func(k string) {
		switch k {
		case "\x1b[A", "w", "W":
			g.move(0, 1)
		case "\x1b[B", "s", "S":
			g.move(0, -1)
		case "\x1b[C", "d", "D":
			g.move(1, 0)
		case "\x1b[D", "A":
			g.move(-1, 0)
		case " ", "\r", "\n", "c":
			g.click()
		case "u", "U":
			if g.game.Undo() {
				g.msg, g.hint = "undone", nil
			} else {
				g.msg = "nothing to undo"
			}
		case "r", "R":
			g.start(g.initial)
			g.msg = "restarted"
		case "n", "N":
			g.newBoard()
		case "h", "H":
			g.msg = "thinking..."
			fmt.Fprint(out, g.render())
			g.findHint(ctx)
		case "a":
			g.auto(ctx, out)
		case "p", "P":
			g.certainty = !g.certainty
			g.msg = map[bool]string{true: "certainty board on (p: off)", false: "certainty board off"}[g.certainty]
		default:
			g.msg = fmt.Sprintf("unknown key %q", k)
		}
	})
}

// auto plays the hinted line (searching one first if there is none).
func (g *sgPlay) auto(ctx context.Context, out io.Writer) {
	if len(g.hint) == 0 {
		g.msg = "thinking..."
		fmt.Fprint(out, g.render())
		g.findHint(ctx)
	}
	for len(g.hint) > 0 && !g.game.Over() {
		g.cx, g.cy = int(g.hint[0].X), int(g.hint[0].Y)
		g.click()
		fmt.Fprint(out, g.render())
		select {
		case <-ctx.Done():
			return
		case <-time.After(g.delay):
		}
	}
}

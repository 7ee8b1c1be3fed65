package play

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	"tessera/npuzzle"
)

// Npuzzle is the sliding-tile game in a terminal: a shuffled board of
// Size, moved with the arrows or W A S D, with undo, restart, hints and an
// auto-solve that plays a solution move by move, Delay apart. Boards are
// shuffled from Seed.
type Npuzzle struct {
	Size  npuzzle.Size
	Seed  uint64
	Delay time.Duration
}

// Run plays the game on in and out until q, Ctrl-C, the end of input or
// the end of ctx. On a terminal it switches it to raw mode and redraws in
// place; otherwise (a script, a test) it prints each screen in turn.
func (p Npuzzle) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	g := newPlayGame(p.Size, p.Seed)
	g.delay = p.Delay
	return g.loop(ctx, in, out)
}

// playGame is the state of a terminal game.
type playGame struct {
	size    npuzzle.Size
	rng     *rand.Rand
	start   *npuzzle.Board // the board as shuffled, for restart
	board   *npuzzle.Board
	history []npuzzle.Move
	began   time.Time
	won     bool
	msg     string
	delay   time.Duration
	eol     string // "\r\n" in raw mode
	clear   bool   // redraw in place (a terminal)
}

func newPlayGame(s npuzzle.Size, seed uint64) *playGame {
	g := &playGame{size: s, rng: rand.New(rand.NewPCG(seed, 0x706c6179)), eol: "\n"}
	g.shuffle()
	return g
}

func (g *playGame) shuffle() {
	g.start = npuzzle.RandomWalk(g.size, npuzzle.BlankLast, npuzzle.WalkLength(g.size), g.rng)
	if g.start.IsSolved(npuzzle.BlankLast) { // possible on 2x2 boards
		g.start = npuzzle.Random(g.size, npuzzle.BlankLast, g.rng)
	}
	g.restart()
	g.msg = "new board"
}

func (g *playGame) restart() {
	g.board = g.start.Clone()
	g.history = g.history[:0]
	g.began = time.Now()
	g.won = false
	g.msg = "restarted"
}

// move slides a tile and reports whether it moved.
func (g *playGame) move(m npuzzle.Move) bool {
	if g.won {
		g.msg = "solved already: n for a new board, r to play it again"
		return false
	}
	if err := g.board.Apply(m); err != nil {
		g.msg = fmt.Sprintf("no tile can move %v", m)
		return false
	}
	g.history = append(g.history, m)
	g.msg = ""
	if g.board.IsSolved(npuzzle.BlankLast) {
		g.won = true
		g.msg = fmt.Sprintf("*** Solved in %d moves and %s! *** n for a new board, q to quit", len(g.history), time.Since(g.began).Round(time.Second))
	}
	return true
}

func (g *playGame) undo() {
	if len(g.history) == 0 || g.won {
		g.msg = "nothing to undo"
		return
	}
	last := g.history[len(g.history)-1]
	_ = g.board.Apply(last.Inverse())
	g.history = g.history[:len(g.history)-1]
	g.msg = "undone"
}

// solution finds a shortest solution within a few seconds, or else a
// short one, and says which.
func (g *playGame) solution(ctx context.Context) (npuzzle.Solution, error) {
	return quickSolve(ctx, g.board, npuzzle.BlankLast, 3*time.Second)
}

// quickSolve returns a shortest solution if IDA* with linear conflict finds
// one within limit, else a weighted-A* solution (not proven shortest).
func quickSolve(ctx context.Context, b *npuzzle.Board, goal npuzzle.Goal, limit time.Duration) (npuzzle.Solution, error) {
	sctx, cancel := context.WithTimeout(ctx, limit)
	sol, err := npuzzle.IDAStar{}.Solve(sctx, b, goal)
	cancel()
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
		return sol, err
	}
	sctx, cancel = context.WithTimeout(ctx, limit)
	defer cancel()
	return npuzzle.AStar{Weight: 3}.Solve(sctx, b, goal)
}

func (g *playGame) hint(ctx context.Context) {
	if g.won {
		g.msg = "already solved"
		return
	}
	sol, err := g.solution(ctx)
	if err != nil {
		g.msg = "no hint: " + err.Error()
		return
	}
	note := fmt.Sprintf("%d moves to go", len(sol.Moves))
	if !sol.Optimal {
		note = fmt.Sprintf("a %d-move solution, not proven shortest", len(sol.Moves))
	}
	g.msg = fmt.Sprintf("hint: %v (%s)", sol.Moves[0], note)
}

// render draws the board and the status lines.
func (g *playGame) render() string {
	var sb strings.Builder
	if g.clear {
		sb.WriteString("\x1b[H\x1b[2J")
	}
	w := len(fmt.Sprint(g.board.Len() - 1))
	sep := "+" + strings.Repeat(strings.Repeat("-", w+2)+"+", g.board.Cols())
	for r := range g.board.Rows() {
		sb.WriteString(sep + g.eol + "|")
		for c := range g.board.Cols() {
			if t := g.board.At(r, c); t == 0 {
				fmt.Fprintf(&sb, " %*s |", w, "")
			} else {
				fmt.Fprintf(&sb, " %*d |", w, t)
			}
		}
		sb.WriteString(g.eol)
	}
	sb.WriteString(sep + g.eol)
	fmt.Fprintf(&sb, "moves %d   time %s%s", len(g.history), time.Since(g.began).Round(time.Second), g.eol)
	sb.WriteString("arrows/WASD move  n new  r restart  u undo  h hint  a auto  q quit" + g.eol)
	if g.msg != "" {
		sb.WriteString(g.msg + g.eol)
	}
	return sb.String()
}

// keyMoves maps keys to the move of the tile in the key's direction.
var keyMoves = map[string]npuzzle.Move{
	"\x1b[A": npuzzle.Up, "\x1b[B": npuzzle.Down, "\x1b[C": npuzzle.Right, "\x1b[D": npuzzle.Left,
	"w": npuzzle.Up, "s": npuzzle.Down, "d": npuzzle.Right,
	"W": npuzzle.Up, "S": npuzzle.Down, "D": npuzzle.Right, "A": npuzzle.Left, // lower-case a is auto-solve
}

// loop runs the game on in and out until q, Ctrl-C or the end of input.
func (g *playGame) loop(ctx context.Context, in io.Reader, out io.Writer) error {
	g.msg = "slide the tiles back into order"
	return keyLoop(ctx, in, out, func() { g.eol, g.clear = "\r\n", true }, g.render, func(k string) {
		switch k {
		case "n", "N":
			g.shuffle()
		case "r", "R":
			g.restart()
		case "u", "U":
			g.undo()
		case "h", "H":
			g.hint(ctx)
		case "a":
			g.auto(ctx, out)
		case "\n", "\r", " ":
		default:
			if m, ok := keyMoves[k]; ok {
				g.move(m)
			} else {
				g.msg = fmt.Sprintf("unknown key %q", k)
			}
		}
	})
}

// auto solves the board and plays the solution move by move.
func (g *playGame) auto(ctx context.Context, out io.Writer) {
	if g.won {
		g.msg = "already solved"
		return
	}
	g.msg = "solving..."
	fmt.Fprint(out, g.render())
	sol, err := g.solution(ctx)
	if err != nil {
		g.msg = "auto-solve failed: " + err.Error()
		return
	}
	proof := "shortest"
	if !sol.Optimal {
		proof = "not proven shortest"
	}
	for i, m := range sol.Moves {
		g.move(m)
		if !g.won {
			g.msg = fmt.Sprintf("auto: move %d of %d (%s, %d states searched)", i+1, len(sol.Moves), proof, sol.Stats.Expanded)
		}
		fmt.Fprint(out, g.render())
		select {
		case <-ctx.Done():
			return
		case <-time.After(g.delay):
		}
	}
}

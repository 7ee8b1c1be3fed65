package samegame

import "fmt"

// Score is what a sequence of clicks earned under b's rules: the points of
// the removed groups plus ClearBonus when the board is empty (Standard), or
// 0 (Dust, where only clicks count).
func score(rules Rules, points int, b *Board) int {
	if rules == Dust {
		return 0
	}
	if b.IsEmpty() {
		return points + ClearBonus
	}
	return points
}

// Game is a board being played: the position, the points and clicks so far,
// and the history that Undo walks back. Its zero value is not usable; call
// NewGame.
type Game struct {
	board   Board
	points  int
	history []step
}

type step struct {
	before Board
	points int
	group  Group
}

// NewGame starts a game on a copy of b.
func NewGame(b *Board) *Game { return &Game{board: *b} }

// Board returns the current position. The caller must not change it.
func (g *Game) Board() *Board { return &g.board }

// Play clicks m and returns the group it removed, or an error (and changes
// nothing) when the click is not legal.
func (g *Game) Play(m Move) (Group, error) {
	before := g.board
	grp, err := g.board.Play(m)
	if err != nil {
		return grp, err
	}
	g.history = append(g.history, step{before: before, points: g.points, group: grp})
	g.points += g.board.rules.Points(int(grp.Size))
	return grp, nil
}

// Undo takes the last click back and reports whether there was one. The
// board returns to exactly what it was.
func (g *Game) Undo() bool {
	if len(g.history) == 0 {
		return false
	}
	last := g.history[len(g.history)-1]
	g.board, g.points = last.before, last.points
	g.history = g.history[:len(g.history)-1]
	return true
}

// Clicks returns the number of clicks played.
func (g *Game) Clicks() int { return len(g.history) }

// Score returns the score so far: points plus the bonus for an empty board
// under Standard rules, 0 under Dust.
func (g *Game) Score() int { return score(g.board.rules, g.points, &g.board) }

// Over reports whether no click is left.
func (g *Game) Over() bool { return g.board.GameOver() }

// Moves returns the clicks played, in order.
func (g *Game) Moves() []Move {
	m := make([]Move, len(g.history))
	for i, s := range g.history {
		m[i] = s.group.Move()
	}
	return m
}

// Removed returns the groups removed, in order.
func (g *Game) Removed() []Group {
	r := make([]Group, len(g.history))
	for i, s := range g.history {
		r[i] = s.group
	}
	return r
}

// Result is the outcome of a replayed move list.
type Result struct {
	// Score is the points plus the clear bonus (Standard), 0 under Dust.
	Score int
	// Clicks is the number of moves.
	Clicks int
	// Cleared reports whether the board ended empty.
	Cleared bool
	// Over reports whether no click is left at the end.
	Over bool
	// Board is the final position.
	Board *Board
	// Removed holds the group each click removed.
	Removed []Group
}

// Replay plays moves on a copy of b and returns the result, or an error
// naming the first illegal move (1-based) and why.
func Replay(b *Board, moves []Move) (Result, error) {
	g := NewGame(b)
	for i, m := range moves {
		if _, err := g.Play(m); err != nil {
			return Result{}, fmt.Errorf("samegame: move %d: %v", i+1, trimPkg(err))
		}
	}
	return Result{
		Score: g.Score(), Clicks: g.Clicks(), Cleared: g.board.IsEmpty(), Over: g.Over(),
		Board: g.board.Clone(), Removed: g.Removed(),
	}, nil
}

// trimPkg drops the package prefix of an error from this package, so that
// wrapped messages name it once.
func trimPkg(err error) string {
	s := err.Error()
	const p = "samegame: "
	if len(s) > len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}

package tangram

import (
	"context"
	"fmt"
)

// ClassicTurned returns the classic figure name; with turns other than
// TurnsNone, its pieces as the set gives them (Tans, or TPieces for "t")
// under those turns, and a solution found by the exact solver (the classic
// solutions place pre-turned pieces).
func ClassicTurned(ctx context.Context, name string, turns Turns) (*Puzzle, *Solution, error) {
	p, sol, err := Classic(name)
	if err != nil || turns == TurnsNone {
		return p, sol, err
	}
	pieces := Tans()
	if name == "t" {
		pieces = TPieces()
	}
	p = &Puzzle{Name: name, Pieces: pieces, Silhouette: p.Silhouette, Turns: turns}
	res, err := Exact{}.Solve(ctx, p)
	if err != nil || !res.Solved {
		return nil, nil, fmt.Errorf("classic %s with turns %v: the exact solver finds no solution: %v", name, turns, err)
	}
	return p, res.Solution, nil
}

// GiveTurns returns the translation-only puzzle whose pieces are turned as
// sol needs them, and sol without turns; the pair is checked.
func GiveTurns(p *Puzzle, sol *Solution) (*Puzzle, *Solution, error) {
	q := p.Clone()
	q.Turns = TurnsNone
	s := sol.Clone()
	for i, pl := range sol.Placements {
		sh, err := p.Pieces[i].Shape.Oriented(pl.Orient)
		if err != nil {
			return nil, nil, err
		}
		q.Pieces[i].Shape = sh
		s.Placements[i].Orient = 0
	}
	return q, s, Check(q, s)
}

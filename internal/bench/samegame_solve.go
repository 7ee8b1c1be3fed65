package bench

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"tessera/internal/catalog"
	"tessera/samegame"
)

// SameGameProgress describes a search's best solution so far, for a
// progress line.
func SameGameProgress(rules samegame.Rules, s samegame.Solution) string {
	best := fmt.Sprintf("best score %d", max(s.Score, 0))
	if rules == samegame.Dust {
		best = fmt.Sprintf("best %d clicks", s.Clicks)
		if !s.Cleared && len(s.Moves) == 0 {
			best = "no solution yet"
		}
	}
	return fmt.Sprintf("searching: %s, %d nodes, %d playouts", best, s.Nodes, s.Playouts)
}

// WriteSameGameSolve writes the record of `samegame solve` on board e: the
// clicks to the file out (when named and found, "x y" per line), then the
// record as JSON or for people. It returns the record's error, naming the
// -timeout that ended a solver that is not anytime.
func WriteSameGameSolve(w io.Writer, rec catalog.SameGameRecord, e samegame.Entry, timeout time.Duration, out string, asJSON bool) error {
	var err error
	if rec.Error != "" {
		err = errors.New(rec.Error)
		if rec.Stopped == "time" {
			what := map[bool]string{true: "the proof", false: "any solution"}[rec.Moves != ""]
			err = fmt.Errorf("stopped by -timeout %v before %s", timeout, what)
			rec.Error = err.Error()
		}
	}
	sol, _ := rec.Solution()
	if out != "" && len(sol.Moves) > 0 {
		werr := WriteFileAtomic(out, func(w io.Writer) error {
			for _, m := range sol.Moves {
				fmt.Fprintf(w, "%d %d\n", m.X, m.Y)
			}
			return nil
		})
		if werr != nil {
			return werr
		}
	}
	if asJSON {
		if werr := WriteJSON(w, rec); werr != nil {
			return werr
		}
		return err
	}
	fmt.Fprintf(w, "board    %s #%d (%s, %dx%d, %d colours, %s rules)\n", rec.File, rec.Board, e.Name, e.Board.Width(), e.Board.Height(), e.Board.Colors(), rec.Rules)
	for line := range strings.Lines(samegame.Format(e.Board, e.Notation)) {
		fmt.Fprint(w, "         "+line)
	}
	fmt.Fprintf(w, "solver   %s\n", rec.Solver)
	if len(sol.Moves) > 0 || sol.Cleared {
		fmt.Fprintf(w, "clicks   %s\n", rec.Moves)
		proof := map[bool]string{true: "optimal", false: "not proven optimal"}[rec.Proven()]
		if e.Board.Rules() == samegame.Dust {
			fmt.Fprintf(w, "result   %d clicks (%s)\n", rec.Clicks, proof)
		} else {
			fmt.Fprintf(w, "result   score %d, %d clicks, %d cells left (%s)\n", rec.Score, rec.Clicks, rec.Left, proof)
		}
	}
	fmt.Fprintf(w, "search   %d nodes, %d playouts, %.3f s", rec.Nodes, rec.Playouts, rec.Seconds)
	if rec.Stopped != "" {
		fmt.Fprintf(w, ", stopped by -timeout %v", timeout)
	}
	fmt.Fprintln(w)
	return err
}

// WriteSameGameScore replays clicks (x,y tokens, or "x y" lines) on board
// e, the n-th of file, and prints the score, clicks, cells left and
// whether the game is over, as JSON or for people. Clicks that do not
// parse are a UsageError; an illegal click is an error naming it.
func WriteSameGameScore(w io.Writer, e samegame.Entry, file string, n int, clicks string, asJSON bool) error {
	moves, err := samegame.ParseMoves(strings.ReplaceAll(clicks, "\t", " "))
	if err != nil {
		return Usagef("%v", err)
	}
	res, err := samegame.Replay(e.Board, moves)
	if err != nil {
		return err
	}
	left := res.Board.Cells()
	if asJSON {
		return WriteJSON(w, map[string]any{"file": file, "board": n, "name": e.Name, "rules": e.Board.Rules().String(),
			"score": res.Score, "clicks": res.Clicks, "left": left, "cleared": res.Cleared, "over": res.Over})
	}
	_, err = fmt.Fprintf(w, "%s #%d: score %d, %d clicks, %d cells left, over %v\n", file, n, res.Score, res.Clicks, left, res.Over)
	return err
}
